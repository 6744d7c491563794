import { createTestModel, type TestParam } from '@xstate/test';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Actor, createActor, type SnapshotFrom, setup } from 'xstate';
import { clearSession } from '../../src/api/session';
import type { Notice } from '../../src/domain/messages';
import { createProcessingFeesMachine } from '../../src/machines/settings/processingFeesMachine';
import { describeModelCoverage } from './modelCoverage';
import { errorBody, fakeNetwork } from './settingsNetwork';

/*
 * Model-based test of the processing fees editor (§2, §4, §5, §7, §8, §9) over an injected fetch handler: outlet
 * 12 of client 3 has VISA with a stored fee of 2.5% and GRAB seen in receipts without a fee (isNewMethod). A row
 * toggles into edit mode; GRAB is saved with POST, VISA with PUT, the fee as a 2-decimal string; an invalid fee
 * cannot be saved and says why.
 */

const CLIENT_ID = 3;
const OUTLET_ID = 12;
const TODAY = '2024-03-15';
const PATH = '/outlets/processingFees';
const RANGE = { start: '2024-01-01', end: '2024-01-31' };
const net = fakeNetwork();
const machine = createProcessingFeesMachine(net.client);

interface Row {
  fee: number;
  isNew: boolean;
}

let actor: Actor<typeof machine>;
let notices: Notice[];
let server: Record<string, Row>;
let range: { start: string; end: string };
let editing: { method: string; text: string } | undefined;

function start(): void {
  net.reset();
  notices = [];
  server = { VISA: { fee: 2.5, isNew: false }, GRAB: { fee: 0, isNew: true } };
  range = { start: '2024-02-15', end: TODAY };
  editing = undefined;
  actor = createActor(machine, { input: { clientId: CLIENT_ID, outletId: OUTLET_ID, today: TODAY } });
  actor.on('notify', (notice) => notices.push(notice));
  actor.start();
}

afterEach(() => actor.stop());
afterAll(() => clearSession());

const snapshot = () => actor.getSnapshot();
const rowsBody = () => ({
  data: Object.entries(server).map(([payment_method, row]) => ({
    payment_method,
    processing_fees: row.fee,
    isNewMethod: row.isNew,
  })),
});

type ModelEvent = {
  type:
    | 'resolveLoad'
    | 'rejectLoad'
    | 'retry'
    | 'changeRange'
    | 'editExisting'
    | 'editNew'
    | 'typeValid'
    | 'typeInvalid'
    | 'cancel'
    | 'save'
    | 'resolveSave'
    | 'rejectSave';
};

const model = createTestModel(
  setup({ types: { events: {} as ModelEvent } }).createMachine({
    id: 'feesModel',
    initial: 'loading',
    states: {
      loading: { on: { resolveLoad: 'viewing', rejectLoad: 'failure' } },
      failure: { on: { retry: 'loading', changeRange: 'loading' } },
      viewing: { on: { editExisting: 'editing', editNew: 'editing', changeRange: 'loading' } },
      editing: { on: { typeValid: 'editing', typeInvalid: 'invalid', cancel: 'viewing', save: 'saving' } },
      invalid: { on: { typeValid: 'editing', cancel: 'viewing' } },
      saving: { on: { resolveSave: 'saved', rejectSave: 'failed' } },
      saved: { on: { editNew: 'editing', changeRange: 'loading' } },
      failed: { on: { save: 'saving', cancel: 'viewing' } },
    },
  }),
);

type ModelSnapshot = SnapshotFrom<typeof model.logic>;

const expectRows = () =>
  expect(snapshot().context.rows).toEqual(
    Object.entries(server).map(([payment_method, row]) => ({
      payment_method,
      processing_fees: row.fee,
      isNewMethod: row.isNew,
    })),
  );

const params: TestParam<ModelSnapshot, ModelEvent> = {
  states: {
    loading: async () => {
      expect(snapshot().hasTag('loading')).toBe(true);
      const request = await net.pending('GET', PATH);
      expect(Object.fromEntries(request.query)).toEqual({
        client_id: String(CLIENT_ID),
        id: String(OUTLET_ID),
        startTime: range.start,
        endTime: range.end,
      });
      expect(snapshot().can({ type: 'fees.edit', method: 'VISA' })).toBe(false);
    },
    failure: () => {
      expect(snapshot().matches('failure')).toBe(true);
      expect(snapshot().context.rows).toEqual([]);
      expect(notices.at(-1)).toEqual({
        type: 'notify',
        intent: 'danger',
        message: 'Processing fees fetching error occurs. Please try again later.',
        timeout: 5000,
      });
    },
    viewing: () => {
      expect(snapshot().matches({ ready: 'viewing' })).toBe(true);
      expect(snapshot().context.edit).toBeUndefined();
      expectRows();
      expect(snapshot().can({ type: 'fees.edit', method: 'VISA' })).toBe(true);
      expect(snapshot().can({ type: 'fees.edit', method: 'NOPE' })).toBe(false);
      expect(snapshot().can({ type: 'fees.save' })).toBe(false);
    },
    editing: () => {
      expect(snapshot().matches({ ready: 'editing' })).toBe(true);
      expect(snapshot().context.edit).toEqual(editing);
      expect(snapshot().context.feeError).toBeUndefined();
      expect(snapshot().can({ type: 'fees.save' })).toBe(true);
    },
    invalid: () => {
      expect(snapshot().matches({ ready: 'editing' })).toBe(true);
      expect(snapshot().context.feeError).toBe('Enter a fee from 0 to 100 with at most 2 decimals.');
      expect(snapshot().can({ type: 'fees.save' })).toBe(false);
    },
    saving: async () => {
      expect(snapshot().hasTag('saving')).toBe(true);
      if (!editing) throw new Error('saving without an edit');
      const row = server[editing.method];
      const request = await net.pending(row?.isNew ? 'POST' : 'PUT', PATH);
      expect(request.body).toEqual({
        client_id: CLIENT_ID,
        id: String(OUTLET_ID),
        formData: [{ payment_method: editing.method, processing_fees: Number(editing.text).toFixed(2) }],
      });
      expect(snapshot().can({ type: 'fees.edit', method: 'VISA' })).toBe(false);
    },
    saved: () => {
      expect(snapshot().matches({ ready: 'viewing' })).toBe(true);
      expectRows();
      expect(notices.at(-1)).toEqual({
        type: 'notify',
        intent: 'success',
        message: 'Save Successfully.',
        timeout: 5000,
      });
    },
    failed: () => {
      expect(snapshot().matches({ ready: 'editing' })).toBe(true);
      expect(snapshot().context.edit).toEqual(editing);
      expectRows();
      expect(notices.at(-1)).toEqual({ type: 'notify', intent: 'danger', message: 'Save Failed.', timeout: 5000 });
    },
  },
  events: {
    resolveLoad: async () => {
      await net.answer('GET', PATH, 200, rowsBody());
    },
    rejectLoad: async () => {
      await net.answer('GET', PATH, 500, errorBody(500, 'boom'));
    },
    retry: () => actor.send({ type: 'fees.retry' }),
    changeRange: () => {
      range = RANGE;
      actor.send({ type: 'dateRange.change', range: RANGE });
    },
    editExisting: () => {
      editing = { method: 'VISA', text: '2.50' };
      actor.send({ type: 'fees.edit', method: 'VISA' });
    },
    editNew: () => {
      editing = { method: 'GRAB', text: server.GRAB?.isNew === false ? server.GRAB.fee.toFixed(2) : '0.00' };
      actor.send({ type: 'fees.edit', method: 'GRAB' });
    },
    typeValid: () => {
      if (!editing) return;
      editing = { ...editing, text: '3.75' };
      actor.send({ type: 'fees.change', text: '3.75' });
    },
    typeInvalid: () => {
      if (!editing) return;
      editing = { ...editing, text: '100.5' };
      actor.send({ type: 'fees.change', text: '100.5' });
    },
    cancel: () => {
      editing = undefined;
      actor.send({ type: 'fees.cancel' });
    },
    save: () => actor.send({ type: 'fees.save' }),
    resolveSave: async () => {
      if (!editing) return;
      const row = server[editing.method];
      const method = row?.isNew ? 'POST' : 'PUT';
      server = { ...server, [editing.method]: { fee: Number(editing.text), isNew: false } };
      editing = undefined;
      await net.answer(method, PATH, 200, { success: true });
    },
    rejectSave: async () => {
      if (!editing) return;
      await net.answer(server[editing.method]?.isNew ? 'POST' : 'PUT', PATH, 500, errorBody(500, 'boom'));
    },
  },
};

describe('processingFeesMachine (model)', () => {
  beforeEach(() => start());
  describeModelCoverage(model, params, {
    states: ['loading', 'failure', 'viewing', 'editing', 'invalid', 'saving', 'saved', 'failed'],
    transitions: 19,
  });
});

describe('processingFeesMachine details', () => {
  beforeEach(() => start());

  it('a new range while loading aborts the pending call and asks the new one', async () => {
    const first = await net.pending('GET', PATH);
    actor.send({ type: 'dateRange.change', range: RANGE });
    expect(first.answered).toBe(true);
    const second = await net.pending('GET', PATH);
    expect(second.query.get('startTime')).toBe(RANGE.start);
  });

  it('the range picker is a child that starts on the default range', () => {
    const picker = snapshot().children.range;
    expect(picker?.getSnapshot().context.committed).toEqual({ start: '2024-02-15', end: TODAY });
  });
});
