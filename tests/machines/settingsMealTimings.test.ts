import { createTestModel, type TestParam } from '@xstate/test';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Actor, createActor, type SnapshotFrom, setup } from 'xstate';
import { clearSession } from '../../src/api/session';
import type { Notice } from '../../src/domain/messages';
import type { MealTimingDraft } from '../../src/domain/settings';
import { createMealTimingsMachine } from '../../src/machines/settings/mealTimingsMachine';
import { describeModelCoverage } from './modelCoverage';
import { errorBody, fakeNetwork } from './settingsNetwork';

/*
 * Model-based test of the meal timings editor over an injected fetch handler: outlet 12 of client 3 has Breakfast
 * (07:00-10:00) and Lunch (11:00-14:00). Renaming and retiming are saved together with PUT (only the changed
 * rows); times are checked in the browser too (an overlap cannot be saved); a 400 shows the server's text;
 * POST adds a default timing; DELETE removes one when the server answers 200.
 */

const CLIENT_ID = 3;
const OUTLET_ID = 12;
const PATH = '/outlets/mealTimings';
const net = fakeNetwork();
const machine = createMealTimingsMachine(net.client);

const BREAKFAST: MealTimingDraft = { id: 1, name: 'Breakfast', start_time: '07:00', end_time: '10:00' };
const LUNCH: MealTimingDraft = { id: 2, name: 'Lunch', start_time: '11:00', end_time: '14:00' };
const ADDED: MealTimingDraft = { id: 3, name: 'Meal 3', start_time: '15:00', end_time: '16:00' };
const SERVER_REFUSAL = 'Meal timings of the outlet must not overlap.';

let actor: Actor<typeof machine>;
let notices: Notice[];
let saved: MealTimingDraft[];
let draft: MealTimingDraft[];
let renames: number;

const toServer = (row: MealTimingDraft) => ({
  id: row.id,
  outlet_id: OUTLET_ID,
  client_id: CLIENT_ID,
  meal_timing: { name: row.name, start_time: row.start_time, end_time: row.end_time },
});

function start(): void {
  net.reset();
  notices = [];
  saved = [BREAKFAST, LUNCH];
  draft = saved;
  renames = 0;
  actor = createActor(machine, { input: { clientId: CLIENT_ID, outletId: OUTLET_ID } });
  actor.on('notify', (notice) => notices.push(notice));
  actor.start();
}

afterEach(() => actor.stop());
afterAll(() => clearSession());

const snapshot = () => actor.getSnapshot();
const toast = (intent: 'success' | 'danger', message: string) => ({ type: 'notify', intent, message, timeout: 5000 });

type ModelEvent = {
  type:
    | 'resolveLoad'
    | 'rejectLoad'
    | 'retry'
    | 'rename'
    | 'overlap'
    | 'fixTime'
    | 'cancel'
    | 'save'
    | 'resolveSave'
    | 'rejectSave'
    | 'refuseSave'
    | 'add'
    | 'resolveAdd'
    | 'rejectAdd'
    | 'delete'
    | 'resolveDelete'
    | 'rejectDelete';
};

const model = createTestModel(
  setup({ types: { events: {} as ModelEvent } }).createMachine({
    id: 'mealsModel',
    initial: 'loading',
    states: {
      loading: { on: { resolveLoad: 'clean', rejectLoad: 'failure' } },
      failure: { on: { retry: 'loading' } },
      clean: { on: { rename: 'dirty', overlap: 'invalid', add: 'adding', delete: 'deleting' } },
      dirty: { on: { rename: 'dirty', overlap: 'invalid', cancel: 'clean', save: 'saving' } },
      invalid: { on: { fixTime: 'dirty', cancel: 'clean' } },
      saving: { on: { resolveSave: 'saved', rejectSave: 'failed', refuseSave: 'refused' } },
      saved: { on: { rename: 'dirty' } },
      failed: { on: { save: 'saving', cancel: 'clean' } },
      refused: { on: { cancel: 'clean' } },
      adding: { on: { resolveAdd: 'added', rejectAdd: 'addFailed' } },
      added: {},
      addFailed: {},
      deleting: { on: { resolveDelete: 'deleted', rejectDelete: 'deleteFailed' } },
      deleted: {},
      deleteFailed: {},
    },
  }),
);

type ModelSnapshot = SnapshotFrom<typeof model.logic>;

const expectRows = () => {
  expect(snapshot().context.saved).toEqual(saved);
  expect(snapshot().context.draft).toEqual(draft);
};

const params: TestParam<ModelSnapshot, ModelEvent> = {
  states: {
    loading: async () => {
      expect(snapshot().hasTag('loading')).toBe(true);
      const request = await net.pending('GET', PATH);
      expect(Object.fromEntries(request.query)).toEqual({ outlet_id: String(OUTLET_ID), client_id: String(CLIENT_ID) });
    },
    failure: () => {
      expect(snapshot().matches('failure')).toBe(true);
      expect(notices.at(-1)).toEqual(toast('danger', 'Meal timings fetching error occurs. Please try again later.'));
    },
    clean: () => {
      expect(snapshot().matches({ ready: 'clean' })).toBe(true);
      expectRows();
      expect(snapshot().can({ type: 'meals.save' })).toBe(false);
      expect(snapshot().can({ type: 'meals.add' })).toBe(true);
    },
    dirty: () => {
      expect(snapshot().matches({ ready: 'dirty' })).toBe(true);
      expectRows();
      expect(snapshot().can({ type: 'meals.save' })).toBe(true);
    },
    invalid: () => {
      expect(snapshot().matches({ ready: 'dirty' })).toBe(true);
      expectRows();
      expect(snapshot().can({ type: 'meals.save' })).toBe(false);
    },
    saving: async () => {
      expect(snapshot().matches('saving')).toBe(true);
      const request = await net.pending('PUT', PATH);
      expect(request.body).toEqual({
        meal_timing: draft.filter((row) => !saved.some((entry) => JSON.stringify(entry) === JSON.stringify(row))),
        outlet_id: OUTLET_ID,
        client_id: CLIENT_ID,
      });
      expect(snapshot().can({ type: 'meals.add' })).toBe(false);
    },
    saved: () => {
      expect(snapshot().matches({ ready: 'clean' })).toBe(true);
      expectRows();
      expect(notices.at(-1)).toEqual(toast('success', 'Save Successfully.'));
    },
    failed: () => {
      expect(snapshot().matches({ ready: 'dirty' })).toBe(true);
      expectRows();
      expect(notices.at(-1)).toEqual(toast('danger', 'Save Failed.'));
    },
    refused: () => {
      expect(snapshot().matches({ ready: 'dirty' })).toBe(true);
      expectRows();
      expect(notices.at(-1)).toEqual(toast('danger', SERVER_REFUSAL));
    },
    adding: async () => {
      expect(snapshot().matches('adding')).toBe(true);
      const request = await net.pending('POST', PATH);
      expect(request.body).toEqual({ outlet_id: OUTLET_ID, client_id: CLIENT_ID });
    },
    added: () => {
      expect(snapshot().matches({ ready: 'clean' })).toBe(true);
      expectRows();
    },
    addFailed: () => {
      expect(snapshot().matches({ ready: 'clean' })).toBe(true);
      expectRows();
      expect(notices.at(-1)).toEqual(toast('danger', 'The meal timing could not be added.'));
    },
    deleting: async () => {
      expect(snapshot().matches('deleting')).toBe(true);
      const request = await net.pending('DELETE', PATH);
      expect(Object.fromEntries(request.query)).toEqual({
        id: '1',
        outlet_id: String(OUTLET_ID),
        client_id: String(CLIENT_ID),
      });
    },
    deleted: () => {
      expect(snapshot().matches({ ready: 'clean' })).toBe(true);
      expectRows();
      expect(notices.at(-1)).toEqual(toast('success', 'Meal timing deleted.'));
    },
    deleteFailed: () => {
      expect(snapshot().matches({ ready: 'clean' })).toBe(true);
      expectRows();
      expect(notices.at(-1)).toEqual(toast('danger', 'The meal timing could not be deleted.'));
    },
  },
  events: {
    resolveLoad: async () => {
      await net.answer('GET', PATH, 200, { data: saved.map(toServer) });
    },
    rejectLoad: async () => {
      await net.answer('GET', PATH, 500, errorBody(500, 'boom'));
    },
    retry: () => actor.send({ type: 'meals.retry' }),
    rename: () => {
      renames += 1;
      const name = `Brunch ${renames}`;
      draft = draft.map((row) => (row.id === 2 ? { ...row, name } : row));
      actor.send({ type: 'meals.change', id: 2, field: 'name', value: name });
    },
    overlap: () => {
      draft = draft.map((row) => (row.id === 2 ? { ...row, start_time: '09:00' } : row));
      actor.send({ type: 'meals.change', id: 2, field: 'start_time', value: '09:00' });
    },
    fixTime: () => {
      draft = draft.map((row) => (row.id === 2 ? { ...row, start_time: '10:30' } : row));
      actor.send({ type: 'meals.change', id: 2, field: 'start_time', value: '10:30' });
    },
    cancel: () => {
      draft = saved;
      actor.send({ type: 'meals.cancel' });
    },
    save: () => actor.send({ type: 'meals.save' }),
    resolveSave: async () => {
      saved = draft;
      await net.answer('PUT', PATH, 200, { data: draft.map(toServer) });
    },
    rejectSave: async () => {
      await net.answer('PUT', PATH, 500, errorBody(500, 'boom'));
    },
    refuseSave: async () => {
      await net.answer('PUT', PATH, 400, errorBody(400, SERVER_REFUSAL));
    },
    add: () => actor.send({ type: 'meals.add' }),
    resolveAdd: async () => {
      saved = [...saved, ADDED];
      draft = [...draft, ADDED];
      await net.answer('POST', PATH, 200, toServer(ADDED));
    },
    rejectAdd: async () => {
      await net.answer('POST', PATH, 500, errorBody(500, 'boom'));
    },
    delete: () => actor.send({ type: 'meals.delete', id: 1 }),
    resolveDelete: async () => {
      saved = saved.filter((row) => row.id !== 1);
      draft = draft.filter((row) => row.id !== 1);
      await net.answer('DELETE', PATH, 200, { success: true });
    },
    rejectDelete: async () => {
      await net.answer('DELETE', PATH, 404, errorBody(404, 'gone'));
    },
  },
};

describe('mealTimingsMachine (model)', () => {
  beforeEach(() => start());
  describeModelCoverage(model, params, {
    states: [
      'loading',
      'failure',
      'clean',
      'dirty',
      'invalid',
      'saving',
      'saved',
      'failed',
      'refused',
      'adding',
      'added',
      'addFailed',
      'deleting',
      'deleted',
      'deleteFailed',
    ],
    transitions: 24,
  });
});

describe('mealTimingsMachine details', () => {
  beforeEach(() => start());

  it('keeps other edits when a timing is added, and a rename back to the saved value is clean', async () => {
    await net.answer('GET', PATH, 200, { data: [BREAKFAST, LUNCH].map(toServer) });
    actor.send({ type: 'meals.change', id: 2, field: 'name', value: 'Brunch' });
    actor.send({ type: 'meals.add' });
    await net.answer('POST', PATH, 200, toServer(ADDED));
    expect(snapshot().matches({ ready: 'dirty' })).toBe(true);
    expect(snapshot().context.draft.map((row) => row.name)).toEqual(['Breakfast', 'Brunch', 'Meal 3']);
    actor.send({ type: 'meals.change', id: 2, field: 'name', value: 'Lunch' });
    expect(snapshot().matches({ ready: 'clean' })).toBe(true);
  });

  it('ignores a change of a row it does not have', async () => {
    await net.answer('GET', PATH, 200, { data: [BREAKFAST].map(toServer) });
    expect(snapshot().can({ type: 'meals.change', id: 9, field: 'name', value: 'x' })).toBe(false);
    expect(snapshot().can({ type: 'meals.delete', id: 9 })).toBe(false);
  });
});
