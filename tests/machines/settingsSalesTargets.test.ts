import { createTestModel, type TestParam } from '@xstate/test';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Actor, type ActorRefFrom, createActor, type SnapshotFrom, setup } from 'xstate';
import { clearSession } from '../../src/api/session';
import type { Notice } from '../../src/domain/messages';
import {
  areTargetsValid,
  type createSalesTargetsEditorMachine,
  createSalesTargetsMachine,
  type SalesTargetRow,
} from '../../src/machines/settings/salesTargetsMachine';
import { describeModelCoverage } from './modelCoverage';
import { errorBody, fakeNetwork } from './settingsNetwork';

/*
 * Model-based test of the sales targets editor (§2, §5, §7, §8, §9) over an injected fetch handler: client 3 has
 * Kopi Corner (target 1000) and Shoe Lane (none). Inputs are stripped of $ and commas and sent as numbers with 2
 * decimals; a new month loads that month's targets; 'Updated Sales Targets successfully.' / '... failed.'.
 */

const CLIENT_ID = 3;
const TODAY = '2024-03-15';
const PATH = '/outlets/salesTargets';
const net = fakeNetwork();
const machine = createSalesTargetsMachine(net.client);
type EditorRef = ActorRefFrom<ReturnType<typeof createSalesTargetsEditorMachine>>;

let actor: Actor<typeof machine>;
let notices: Notice[];
let month: string;
let stored: SalesTargetRow[];
let rows: SalesTargetRow[];

const LOADED: SalesTargetRow[] = [
  { outletId: 12, name: 'Kopi Corner', text: '1000.00' },
  { outletId: 13, name: 'Shoe Lane', text: '' },
];

function editor(): EditorRef {
  const child = actor.getSnapshot().children.editor;
  if (!child) throw new Error('no editor');
  return child;
}

function subscribeNotices(): void {
  editor().on('notify', (notice) => notices.push(notice));
}

function start(): void {
  net.reset();
  notices = [];
  month = '2024-03';
  stored = LOADED;
  rows = LOADED;
  actor = createActor(machine, { input: { clientId: CLIENT_ID, today: TODAY } });
  actor.start();
  subscribeNotices();
}

afterEach(() => actor.stop());
afterAll(() => clearSession());

const state = () => editor().getSnapshot();

type ModelEvent = {
  type:
    | 'resolveLoad'
    | 'rejectLoad'
    | 'retry'
    | 'changeMonth'
    | 'typeValid'
    | 'typeInvalid'
    | 'cancel'
    | 'save'
    | 'resolveSave'
    | 'rejectSave';
};

const model = createTestModel(
  setup({ types: { events: {} as ModelEvent } }).createMachine({
    id: 'targetsModel',
    initial: 'loading',
    states: {
      loading: { on: { resolveLoad: 'clean', rejectLoad: 'failure', changeMonth: 'loading' } },
      failure: { on: { retry: 'loading', changeMonth: 'loading' } },
      clean: { on: { typeValid: 'dirty', typeInvalid: 'invalid', changeMonth: 'loading' } },
      dirty: { on: { typeInvalid: 'invalid', cancel: 'clean', save: 'saving' } },
      invalid: { on: { typeValid: 'dirty', cancel: 'clean' } },
      saving: { on: { resolveSave: 'saved', rejectSave: 'failed' } },
      saved: { on: { typeValid: 'dirty', changeMonth: 'loading' } },
      failed: { on: { save: 'saving', cancel: 'clean' } },
    },
  }),
);

type ModelSnapshot = SnapshotFrom<typeof model.logic>;

const value = (targetRows: SalesTargetRow[]) => ({ clientId: CLIENT_ID, month, rows: targetRows });

const params: TestParam<ModelSnapshot, ModelEvent> = {
  states: {
    loading: async () => {
      expect(state().hasTag('loading')).toBe(true);
      expect(actor.getSnapshot().context.month).toBe(month);
      const request = await net.pending('GET', PATH);
      expect(Object.fromEntries(request.query)).toEqual({ client_id: String(CLIENT_ID), date: `${month}-01` });
    },
    failure: () => {
      expect(state().matches('failure')).toBe(true);
      expect(notices.at(-1)).toEqual({
        type: 'notify',
        intent: 'danger',
        message: 'Sales targets fetching error occurs. Please try again later.',
        timeout: 5000,
      });
    },
    clean: () => {
      expect(state().matches({ editing: 'clean' })).toBe(true);
      expect(state().context.draft).toEqual(value(stored));
      expect(state().can({ type: 'editor.save' })).toBe(false);
      expect(actor.getSnapshot().hasTag('held')).toBe(false);
    },
    dirty: () => {
      expect(state().matches({ editing: 'dirty' })).toBe(true);
      expect(state().context.draft).toEqual(value(rows));
      expect(state().can({ type: 'editor.save' })).toBe(true);
      // Unsaved targets hold the month: a month change would drop them.
      expect(actor.getSnapshot().hasTag('held')).toBe(true);
      expect(
        actor.getSnapshot().can({ type: 'targets.month', month: month === '2024-03' ? '2024-02' : '2024-03' }),
      ).toBe(false);
    },
    invalid: () => {
      expect(state().matches({ editing: 'dirty' })).toBe(true);
      expect(state().can({ type: 'editor.save' })).toBe(false);
      expect(actor.getSnapshot().hasTag('held')).toBe(true);
    },
    saving: async () => {
      expect(state().hasTag('saving')).toBe(true);
      const request = await net.pending('POST', PATH);
      expect(request.body).toEqual({
        client_id: CLIENT_ID,
        date: `${month}-01`,
        outlet_target: [
          { outlet_id: 12, target: 1000 },
          { outlet_id: 13, target: 1234.57 },
        ],
      });
    },
    saved: () => {
      expect(state().matches('saved')).toBe(true);
      expect(state().context.baseline).toEqual(value(stored));
      expect(notices.at(-1)).toEqual({
        type: 'notify',
        intent: 'success',
        message: 'Updated Sales Targets successfully.',
        timeout: 5000,
      });
    },
    failed: () => {
      expect(state().matches('failed')).toBe(true);
      expect(state().context.draft).toEqual(value(rows));
      expect(notices.at(-1)).toEqual({
        type: 'notify',
        intent: 'danger',
        message: 'Updated Sales Targets failed.',
        timeout: 5000,
      });
    },
  },
  events: {
    resolveLoad: async () => {
      await net.answer('GET', PATH, 200, {
        data: [
          { outlet_id: 12, name: 'Kopi Corner', target: 1000 },
          { outlet_id: 13, name: 'Shoe Lane', target: null },
        ],
      });
    },
    rejectLoad: async () => {
      await net.answer('GET', PATH, 500, errorBody(500, 'boom'));
    },
    retry: () => editor().send({ type: 'editor.retry' }),
    changeMonth: () => {
      month = month === '2024-03' ? '2024-02' : '2024-03';
      stored = LOADED;
      rows = LOADED;
      actor.send({ type: 'targets.month', month });
      subscribeNotices();
    },
    typeValid: () => {
      rows = rows.map((row) => (row.outletId === 13 ? { ...row, text: '$1,234.567' } : row));
      editor().send({ type: 'editor.change', value: value(rows) });
    },
    typeInvalid: () => {
      rows = rows.map((row) => (row.outletId === 13 ? { ...row, text: '12a' } : row));
      editor().send({ type: 'editor.change', value: value(rows) });
    },
    cancel: () => {
      rows = stored;
      editor().send({ type: 'editor.cancel' });
    },
    save: () => editor().send({ type: 'editor.save' }),
    resolveSave: async () => {
      stored = rows.map((row) => (row.outletId === 13 ? { ...row, text: '1234.57' } : row));
      rows = stored;
      await net.answer('POST', PATH, 200, { success: true });
    },
    rejectSave: async () => {
      await net.answer('POST', PATH, 500, errorBody(500, 'boom'));
    },
  },
};

describe('salesTargetsMachine (model)', () => {
  beforeEach(() => start());
  describeModelCoverage(model, params, {
    states: ['loading', 'failure', 'clean', 'dirty', 'invalid', 'saving', 'saved', 'failed'],
    transitions: 19,
  });
});

describe('salesTargetsMachine details', () => {
  beforeEach(() => start());

  it('starts on the month of today and refuses a month that is no month', () => {
    expect(actor.getSnapshot().context.month).toBe('2024-03');
    expect(actor.getSnapshot().can({ type: 'targets.month', month: '2024-13' })).toBe(false);
    expect(actor.getSnapshot().can({ type: 'targets.month', month: '2024-03' })).toBe(false);
    expect(actor.getSnapshot().can({ type: 'targets.month', month: '2024-04' })).toBe(true);
  });

  it('needs at least one target, every input an amount or empty', () => {
    const of = (texts: string[]) => ({
      clientId: CLIENT_ID,
      month: '2024-03',
      rows: texts.map((text, index) => ({ outletId: index + 1, name: `O${index}`, text })),
    });
    expect(areTargetsValid(of(['', '']))).toBe(false);
    expect(areTargetsValid(of(['$5', '']))).toBe(true);
    expect(areTargetsValid(of(['$5', 'x']))).toBe(false);
  });
});
