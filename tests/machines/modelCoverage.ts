import type { TestModel, TestParam } from '@xstate/test';
import { describe, expect, it } from 'vitest';
import type { EventObject, Snapshot } from 'xstate';

/**
 * Paths for model-based tests: every state of the model by its shortest path, and every transition
 * of the model (the shortest way to its source plus the transition). All-transitions coverage
 * without enumerating every cycle. (@xstate/test's shortest paths drop a path that is a prefix of
 * another, so the prefixes are collected here.)
 */

export function stateKey(snapshot: { value: unknown }): string {
  return typeof snapshot.value === 'string' ? snapshot.value : JSON.stringify(snapshot.value);
}

export function coveragePaths<
  TSnapshot extends Snapshot<unknown> & { value: unknown },
  TEvent extends EventObject,
  TInput,
>(model: TestModel<TSnapshot, TEvent, TInput>) {
  const shortestPaths = model.getShortestPaths();
  type Steps = (typeof shortestPaths)[number]['steps'];
  const shortestPrefixTo = new Map<string, Steps>();
  for (const path of shortestPaths) {
    path.steps.forEach((step, index) => {
      const key = stateKey(step.state);
      const known = shortestPrefixTo.get(key);
      if (!known || known.length > index + 1) shortestPrefixTo.set(key, path.steps.slice(0, index + 1));
    });
  }
  // The adjacency list repeats a state once per way into it: keep one entry per transition.
  const transitions = new Map(
    model
      .getAdjacencyList()
      .map((adjacency) => [`${stateKey(adjacency.state)} ${adjacency.event.type}`, adjacency] as const),
  );
  const transitionPaths = [...transitions.values()].map(({ state, event, nextState }) => {
    const prefix = shortestPrefixTo.get(stateKey(state));
    if (!prefix) throw new Error(`no path to ${stateKey(state)}`);
    const steps = [...prefix, { state: nextState, event }];
    return {
      description: steps.map((step) => `${step.event.type} -> ${stateKey(step.state)}`).join(', '),
      path: { state: nextState, steps, weight: steps.length },
    };
  });
  return { shortestPaths, reachedStates: [...shortestPrefixTo.keys()], transitionPaths };
}

/** One test a path: the shortest path to each state, then every transition of the model. */
export function describeCoveragePaths<
  TSnapshot extends Snapshot<unknown> & { value: unknown },
  TEvent extends EventObject,
  TInput,
>(
  model: TestModel<TSnapshot, TEvent, TInput>,
  params: TestParam<TSnapshot, TEvent>,
  {
    shortestPaths,
    transitionPaths,
  }: Pick<ReturnType<typeof coveragePaths<TSnapshot, TEvent, TInput>>, 'shortestPaths' | 'transitionPaths'>,
) {
  describe('shortest path to each state', () => {
    for (const path of shortestPaths) {
      it(path.description, async () => {
        await model.testPath(path, params);
      });
    }
  });

  describe('every transition', () => {
    for (const { description, path } of transitionPaths) {
      it(description, async () => {
        await model.testPath(path, params);
      });
    }
  });
}

export interface ModelCoverageExpectation {
  /** Every state the model's paths must reach, as the test's `states` map names them. */
  readonly states: readonly string[];
  /** How many transitions the model has (a changed machine changes it: the test then says so). */
  readonly transitions: number;
  /** The name of a reached state in `states` (default: stateKey's text; nested models: modelStateId). */
  readonly stateName?: (key: string) => string;
}

/**
 * A machine's model-based suite: one test that the paths reach every expected state and take the expected
 * number of transitions, then one test a path (describeCoveragePaths).
 */
export function describeModelCoverage<
  TSnapshot extends Snapshot<unknown> & { value: unknown },
  TEvent extends EventObject,
  TInput,
>(
  model: TestModel<TSnapshot, TEvent, TInput>,
  params: TestParam<TSnapshot, TEvent>,
  expected: ModelCoverageExpectation,
) {
  const coverage = coveragePaths(model);
  it('reaches every state and takes every transition of the model', () => {
    const name = expected.stateName ?? ((key: string) => key);
    expect(coverage.reachedStates.map(name).sort()).toEqual([...expected.states].sort());
    expect(coverage.transitionPaths).toHaveLength(expected.transitions);
  });
  describeCoveragePaths(model, params, coverage);
}
