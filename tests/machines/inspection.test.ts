import { afterEach, describe, expect, it, vi } from 'vitest';
import { type AnyActorRef, assign, createActor, fromPromise, type InspectionEvent, setup } from 'xstate';
import {
  createInspectionStore,
  formatInspectedValue,
  type InspectionStore,
  MAX_INSPECTED_EVENTS,
} from '../../src/machines/inspection';
import { connectStatelyInspector } from '../../src/machines/statelyInspector';

/*
 * The live inspection store: what the inspector panel lists of the running actors (state value, context,
 * last 50 events), fed by XState's `inspect` option; and its link to Stately's inspector (`?inspect=stately`).
 */

const child = setup({}).createMachine({
  id: 'child',
  initial: 'idle',
  states: { idle: { on: { go: 'busy' } }, busy: {} },
});

const parent = setup({
  types: { context: {} as { count: number }, events: {} as { type: 'count.add' } | { type: 'go' } },
  actors: { child, fetchThing: fromPromise(async () => 'thing') },
}).createMachine({
  id: 'counter',
  context: { count: 0 },
  invoke: { id: 'picker', src: 'child' },
  initial: 'waiting',
  states: {
    waiting: {
      on: { 'count.add': { actions: assign(({ context }) => ({ count: context.count + 1 })) }, go: 'fetching' },
    },
    fetching: { invoke: { src: 'fetchThing', onDone: 'done' } },
    done: {},
  },
});

let store: InspectionStore;
const started: AnyActorRef[] = [];

function newStore(): InspectionStore {
  store = createInspectionStore({ schedule: (notify) => notify(), now: () => 1_000 });
  return store;
}

function startCounter() {
  const actor = createActor(parent, { inspect: store.inspect });
  started.push(actor);
  actor.start();
  return actor;
}

afterEach(() => {
  for (const actor of started.splice(0)) actor.stop();
});

describe('the inspection store', () => {
  it('lists a running root and its children with their state value and context', () => {
    newStore();
    startCounter();
    const actors = store.getSnapshot().actors;
    expect(actors.map((actor) => [actor.name, actor.depth])).toEqual([
      ['counter', 0],
      ['picker', 1],
    ]);
    expect(actors[0]).toMatchObject({ value: 'waiting', context: { count: 0 }, status: 'active', parentId: undefined });
    expect(actors[1]).toMatchObject({ value: 'idle', parentId: actors[0]?.id });
  });

  it('follows state changes and records the events, newest last, telling subscribers', () => {
    newStore();
    const listener = vi.fn();
    store.subscribe(listener);
    const actor = startCounter();
    listener.mockClear();
    actor.send({ type: 'count.add' });
    actor.send({ type: 'count.add' });
    const [counter] = store.getSnapshot().actors;
    expect(counter?.context).toEqual({ count: 2 });
    expect(counter?.events.map((event) => event.type)).toEqual(['xstate.init', 'count.add', 'count.add']);
    expect(listener).toHaveBeenCalled();
  });

  it('keeps the last 50 events of an actor and counts them all', () => {
    newStore();
    const actor = startCounter();
    for (let index = 0; index < 60; index += 1) actor.send({ type: 'count.add' });
    const [counter] = store.getSnapshot().actors;
    expect(counter?.events).toHaveLength(MAX_INSPECTED_EVENTS);
    expect(counter?.eventCount).toBe(61);
    expect(counter?.events.at(-1)?.type).toBe('count.add');
  });

  it('lists a promise actor while it runs and drops actors that stop', async () => {
    newStore();
    const actor = startCounter();
    actor.send({ type: 'go' });
    expect(store.getSnapshot().actors.map((known) => known.name)).toEqual(['counter', 'picker', 'fetchThing']);
    await vi.waitFor(() => expect(actor.getSnapshot().value).toBe('done'));
    expect(store.getSnapshot().actors.map((known) => known.name)).toEqual(['counter', 'picker']);
    actor.stop();
    expect(store.getSnapshot().actors).toEqual([]);
  });

  it('never lists an actor that was created but not started (React StrictMode)', () => {
    newStore();
    createActor(parent, { inspect: store.inspect });
    expect(store.getSnapshot().actors).toEqual([]);
  });

  it('names actors by their session id, also across roots', () => {
    newStore();
    const first = startCounter();
    const second = startCounter();
    const ids = store.getSnapshot().actors.map((actor) => actor.id);
    expect(new Set(ids).size).toBe(4);
    expect(ids).toContain(first.sessionId);
    expect(ids).toContain(second.sessionId);
  });

  it('notifies once per burst by default (after the current task)', async () => {
    store = createInspectionStore();
    const listener = vi.fn();
    store.subscribe(listener);
    const actor = createActor(parent, { inspect: store.inspect });
    started.push(actor);
    actor.start();
    actor.send({ type: 'count.add' });
    expect(listener).not.toHaveBeenCalled();
    await Promise.resolve();
    expect(listener).toHaveBeenCalledOnce();
  });
});

describe('showing values', () => {
  it('writes readable JSON: actor refs, functions, cycles, maps, depth', () => {
    newStore();
    const actor = startCounter();
    const cyclic: Record<string, unknown> = { name: 'loop' };
    cyclic.self = cyclic;
    const shared = { id: 1 };
    expect(formatInspectedValue({ ref: actor, fn: () => 1, cyclic, twice: [shared, shared] }, 0)).toBe(
      `{"ref":"[actor ${actor.id}]","fn":"[function]","cyclic":{"name":"loop","self":"[circular]"},"twice":[{"id":1},{"id":1}]}`,
    );
    expect(formatInspectedValue(new Map([['a', 1]]), 0)).toBe('{"a":1}');
    expect(formatInspectedValue({ a: { b: { c: 1 } } }, 0, 2)).toBe('{"a":{"b":"[…]"}}');
    expect(formatInspectedValue(undefined)).toBe('undefined');
    expect(formatInspectedValue('closed', 0)).toBe('"closed"');
  });
});

describe("Stately's inspector (?inspect=stately)", () => {
  it('is created once and gets the running actors, then every event', async () => {
    newStore();
    const first = startCounter();
    const second = startCounter();
    const received: InspectionEvent[] = [];
    const create = vi.fn(() => ({
      inspect: { next: (event: InspectionEvent) => received.push(event) },
      stop: vi.fn(),
    }));
    const stop = await connectStatelyInspector(store, async () => create);
    expect(create).toHaveBeenCalledOnce();
    // Replayed: each running actor's registration, then its last snapshot.
    const registrations = received.filter((event) => event.type === '@xstate.actor');
    expect(registrations.map((event) => event.actorRef.sessionId)).toEqual(
      store.getSnapshot().actors.map((actor) => actor.id),
    );
    expect(registrations.map((event) => event.actorRef)).toContain(second);
    expect(received.filter((event) => event.type === '@xstate.snapshot')).toHaveLength(4);

    received.length = 0;
    first.send({ type: 'count.add' });
    const live = received.find((event) => event.type === '@xstate.event');
    expect(live?.actorRef).toBe(first);
    expect(live?.type === '@xstate.event' && live.event).toEqual({ type: 'count.add' });

    stop();
    received.length = 0;
    first.send({ type: 'count.add' });
    expect(received).toEqual([]);
  });
});
