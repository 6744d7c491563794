import { createTestModel, type TestParam } from '@xstate/test';
import { afterEach, beforeEach, describe, expect } from 'vitest';
import { type Actor, type AnyActorRef, assign, createActor, type SnapshotFrom, setup } from 'xstate';
import { settingsMachine } from '../../src/machines/settings/settingsMachine';
import { childOf } from './childOf';
import { describeModelCoverage } from './modelCoverage';

/*
 * Model-based test of the Settings page machine (§2): it follows the filter header of its actor system (a fake
 * header here, with the committed filters the test sets) and runs the client's editors (e-mail subscriptions,
 * sales targets, categories) once a client is known and the outlet's (processing fees, meal timings) once an
 * outlet is selected; a new client or outlet starts its editors over with it as their input.
 */

interface HeaderContext {
  filters: { clientId: number | undefined; outlet: 'all' | number | undefined };
  outlets: { id: number; name: string }[];
  today: string;
}

const fakeHeader = setup({
  types: { context: {} as HeaderContext, events: {} as { type: 'set'; filters: HeaderContext['filters'] } },
}).createMachine({
  context: { filters: { clientId: undefined, outlet: undefined }, outlets: [], today: '2024-03-15' },
  on: { set: { actions: assign(({ event }) => ({ filters: event.filters })) } },
});

/** Each editor stands in as a machine that keeps its input. */
const stub = setup({
  types: { input: {} as Record<string, unknown>, context: {} as Record<string, unknown> },
}).createMachine({ context: ({ input }) => input });

type Actors = Parameters<typeof settingsMachine.provide>[0]['actors'] & {};
/** The stub in the place of an editor (it only keeps its input, which is all this test reads). */
const stubOf = <K extends keyof Actors>() => stub as unknown as Actors[K];

const page = settingsMachine.provide({
  actors: {
    emailSubscriptions: stubOf<'emailSubscriptions'>(),
    salesTargets: stubOf<'salesTargets'>(),
    categories: stubOf<'categories'>(),
    processingFees: stubOf<'processingFees'>(),
    mealTimings: stubOf<'mealTimings'>(),
  },
});

const app = setup({ actors: { header: fakeHeader, page } }).createMachine({
  invoke: [
    { id: 'header', systemId: 'filterHeader', src: 'header' },
    { id: 'page', src: 'page' },
  ],
});

let actor: Actor<typeof app>;
let clientId: number | undefined;
let outletId: number | undefined;
/** The editors' actor refs as first seen, to tell a restarted editor from a kept one. */
let seen: Record<string, AnyActorRef | undefined>;

const pageActor = () => childOf(actor.getSnapshot(), 'page');
const header = () => childOf(actor.getSnapshot(), 'header');
const CLIENT_EDITORS = ['emailSubscriptions', 'salesTargets', 'categories'] as const;
const OUTLET_EDITORS = ['processingFees', 'mealTimings'] as const;
type EditorId = (typeof CLIENT_EDITORS)[number] | (typeof OUTLET_EDITORS)[number];
const child = <TId extends EditorId>(id: TId) => pageActor().getSnapshot().children[id];

function setFilters(client: number | undefined, outlet: 'all' | number | undefined): void {
  header().send({ type: 'set', filters: { clientId: client, outlet } });
}

beforeEach(() => {
  clientId = undefined;
  outletId = undefined;
  seen = {};
  actor = createActor(app).start();
});
afterEach(() => actor.stop());

type ModelEvent = { type: 'chooseClient' | 'chooseOutlet' | 'changeOutlet' | 'changeClient' | 'chooseAll' };

const model = createTestModel(
  setup({ types: { events: {} as ModelEvent } }).createMachine({
    id: 'settingsPageModel',
    initial: 'nothing',
    states: {
      nothing: { on: { chooseClient: 'clientOnly' } },
      clientOnly: { on: { chooseOutlet: 'outlet' } },
      outlet: { on: { changeOutlet: 'otherOutlet', changeClient: 'otherClient', chooseAll: 'clientOnly' } },
      otherOutlet: {},
      otherClient: {},
    },
  }),
);

function expectEditors(): void {
  for (const id of CLIENT_EDITORS) {
    const ref = child(id);
    if (clientId === undefined) expect(ref, id).toBeUndefined();
    else expect(ref?.getSnapshot().context, id).toMatchObject({ clientId });
  }
  for (const id of OUTLET_EDITORS) {
    const ref = child(id);
    if (outletId === undefined) expect(ref, id).toBeUndefined();
    else expect(ref?.getSnapshot().context, id).toMatchObject({ clientId, outletId });
  }
  expect(child('salesTargets')?.getSnapshot().context.today ?? '2024-03-15').toBe('2024-03-15');
}

const remember = () => {
  for (const id of [...CLIENT_EDITORS, ...OUTLET_EDITORS]) seen[id] = child(id);
};

const params: TestParam<SnapshotFrom<typeof model.logic>, ModelEvent> = {
  states: {
    nothing: expectEditors,
    clientOnly: expectEditors,
    outlet: expectEditors,
    otherOutlet: () => {
      expectEditors();
      // The client's editors go on; the outlet's start over.
      for (const id of CLIENT_EDITORS) expect(child(id), id).toBe(seen[id]);
      for (const id of OUTLET_EDITORS) expect(child(id), id).not.toBe(seen[id]);
    },
    otherClient: () => {
      expectEditors();
      for (const id of [...CLIENT_EDITORS, ...OUTLET_EDITORS]) expect(child(id), id).not.toBe(seen[id]);
    },
  },
  events: {
    chooseClient: () => {
      clientId = 3;
      setFilters(3, undefined);
    },
    chooseOutlet: () => {
      outletId = 12;
      setFilters(clientId, 12);
    },
    chooseAll: () => {
      outletId = undefined;
      setFilters(clientId, 'all');
    },
    changeOutlet: () => {
      remember();
      outletId = 13;
      setFilters(clientId, 13);
    },
    changeClient: () => {
      remember();
      clientId = 4;
      setFilters(4, outletId);
    },
  },
};

describe('settingsMachine (model)', () => {
  describeModelCoverage(model, params, {
    states: ['nothing', 'clientOnly', 'outlet', 'otherOutlet', 'otherClient'],
    transitions: 5,
  });
});
