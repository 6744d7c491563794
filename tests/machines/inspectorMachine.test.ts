import { createTestModel, type TestParam } from '@xstate/test';
import { afterEach, describe, expect, vi } from 'vitest';
import { type Actor, createActor, type SnapshotFrom, setup } from 'xstate';
import { type InspectorInput, inspectorMachine } from '../../src/machines/inspectorMachine';
import { describeModelCoverage } from './modelCoverage';

/*
 * Model-based test of the machine inspector panel: open or closed for a user allowed to inspect (super
 * admin, or the 'machine-inspector' component permission), never for anyone else; `?inspect=1` opens it at
 * start, `?inspect=stately` also connects Stately's inspector (an injected action: here a spy).
 */

const connectStately = vi.fn<() => void>();
let actor: Actor<typeof testMachine>;

const testMachine = inspectorMachine.provide({ actions: { connectStately: () => connectStately() } });

function start(input: InspectorInput): void {
  connectStately.mockClear();
  actor = createActor(testMachine, { input }).start();
}

function snapshot(): SnapshotFrom<typeof testMachine> {
  return actor.getSnapshot();
}

type ModelEvent = {
  type:
    | 'start.allowed'
    | 'start.allowedWithInspect'
    | 'start.allowedWithStately'
    | 'start.notAllowed'
    | 'inspector.toggle'
    | 'inspector.open'
    | 'inspector.close';
};

const inspectorModel = createTestModel(
  setup({ types: { events: {} as ModelEvent } }).createMachine({
    id: 'inspectorModel',
    initial: 'notStarted',
    states: {
      notStarted: {
        on: {
          'start.allowed': 'closed',
          'start.allowedWithInspect': 'open',
          'start.allowedWithStately': 'openWithStately',
          'start.notAllowed': 'unavailable',
        },
      },
      closed: { on: { 'inspector.toggle': 'open', 'inspector.open': 'open', 'inspector.close': 'closed' } },
      open: { on: { 'inspector.toggle': 'closed', 'inspector.close': 'closed', 'inspector.open': 'open' } },
      openWithStately: { on: { 'inspector.close': 'closed' } },
      unavailable: { on: { 'inspector.toggle': 'unavailable', 'inspector.open': 'unavailable' } },
    },
  }),
);

const testParams: TestParam<SnapshotFrom<typeof inspectorModel.logic>, ModelEvent> = {
  states: {
    notStarted: () => undefined,
    closed: () => {
      expect(snapshot().hasTag('open')).toBe(false);
      expect(snapshot().can({ type: 'inspector.toggle' })).toBe(true);
    },
    open: () => {
      expect(snapshot().hasTag('open')).toBe(true);
      expect(connectStately).not.toHaveBeenCalled();
    },
    openWithStately: () => {
      expect(snapshot().hasTag('open')).toBe(true);
      expect(connectStately).toHaveBeenCalledOnce();
    },
    unavailable: () => {
      expect(snapshot().hasTag('open')).toBe(false);
      expect(snapshot().can({ type: 'inspector.toggle' })).toBe(false);
      expect(snapshot().can({ type: 'inspector.open' })).toBe(false);
      expect(connectStately).not.toHaveBeenCalled();
    },
  },
  events: {
    'start.allowed': () => start({ allowed: true, search: '' }),
    'start.allowedWithInspect': () => start({ allowed: true, search: '?client=1&inspect=1' }),
    'start.allowedWithStately': () => start({ allowed: true, search: 'inspect=stately' }),
    'start.notAllowed': () => start({ allowed: false, search: '?inspect=stately' }),
    'inspector.toggle': () => actor.send({ type: 'inspector.toggle' }),
    'inspector.open': () => actor.send({ type: 'inspector.open' }),
    'inspector.close': () => actor.send({ type: 'inspector.close' }),
  },
};

describe('inspectorMachine (model-based)', () => {
  afterEach(() => actor?.stop());

  describeModelCoverage(inspectorModel, testParams, { states: Object.keys(testParams.states ?? {}), transitions: 13 });
});
