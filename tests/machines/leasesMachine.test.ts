import { createTestModel, type TestParam } from '@xstate/test';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Actor, createActor, type SnapshotFrom, setup } from 'xstate';
import type { Lease } from '../../src/api/leases';
import type { Outlet } from '../../src/api/lookup';
import { clearSession, setPermissionsList } from '../../src/api/session';
import type { CommittedFilters } from '../../src/domain/filterHeader';
import { LEASE_FIELD_MESSAGES, type LeaseDraft } from '../../src/domain/leaseEditor';
import { LEASE_MESSAGES, MAX_TIERS } from '../../src/domain/leases';
import type { Notice } from '../../src/domain/messages';
import { createLeasesMachine, leaseListFiltersOf } from '../../src/machines/tenantConnect/leasesMachine';
import { describeModelCoverage } from './modelCoverage';
import { errorBody, fakeNetwork } from './settingsNetwork';

/*
 * Model-based test of the Leases page's machine over an injected network. The header tells client 3 with the malls
 * Central (1) and East (2) selected, today 25 Nov 2026, and the outlets Kopi Corner (12, Central), Shoe Lane (13,
 * East) and Bakery (14, of a mall not selected). The list asks for the leases of the selected malls, by status and
 * by expiry; a lease of Shoe Lane is added (a draft whose end is before its start is refused at the end date first),
 * Kopi Corner's is changed and ended on today. Every toast exactly, a refusal naming a field shown at it.
 */

const CLIENT_ID = 3;
const PATH = '/api/leases';
const TODAY = '2026-11-25';

const outlet = (id: number, name: string, mallId: number): Outlet => ({
  id,
  name,
  type: 1,
  currency: 'SGD',
  mall_id: mallId,
  outlet_code: `O-${id}`,
});
const OUTLETS = [outlet(12, 'Kopi Corner', 1), outlet(13, 'Shoe Lane', 2), outlet(14, 'Bakery', 5)];
const MALLS = [
  { id: 1, name: 'Central', currency: 'SGD', time_zone: 'Asia/Singapore', country: 'SG' },
  { id: 2, name: 'East', currency: 'SGD', time_zone: 'Asia/Singapore', country: 'SG' },
];
const FILTERS: CommittedFilters = {
  clientId: CLIENT_ID,
  mallIds: [1, 2],
  outlet: undefined,
  dateRange: { start: '2026-11-01', end: '2026-11-07' },
  hours: { from: 0, to: 23 },
  timeRange: 'daily',
  metric: 'gmv',
  month: undefined,
};

const KOPI: Lease = {
  id: 41,
  outlet_id: 12,
  outlet_name: 'Kopi Corner',
  outlet_code: 'O-12',
  mall_id: 1,
  mall_name: 'Central',
  currency: 'SGD',
  gst_percent: 9,
  start_date: '2026-01-01',
  end_date: '2028-12-31',
  gla_sqm: 120,
  base_rent: 10_000,
  service_charge: 1_500,
  turnover_rent: {
    model: 'higher_of',
    tiers: [
      { from: 0, rate_percent: 8 },
      { from: 200_000, rate_percent: 10 },
    ],
  },
  notice_date: null,
  renewal_date: '2028-07-01',
  status: 'current',
};
const OLD: Lease = { ...KOPI, id: 40, start_date: '2023-01-01', end_date: '2025-12-31', status: 'ended' };
const ROWS = { data: [KOPI, OLD], total: 2 };

/** The new lease as typed, and as sent. */
const NEW_FIELDS = {
  startDate: '2027-01-01',
  endDate: '2029-12-31',
  gla: '85',
  baseRent: '6,500',
  serviceCharge: '900',
  noticeDate: '2029-06-30',
} as const;
const NEW_DRAFT: LeaseDraft = {
  id: undefined,
  outletId: 13,
  ...NEW_FIELDS,
  model: 'base_plus_overage',
  tiers: [
    { from: '50000', rate: '7' },
    { from: '100,000', rate: '9' },
  ],
  renewalDate: '',
};
const NEW_BODY = {
  client_id: CLIENT_ID,
  outlet_id: 13,
  start_date: '2027-01-01',
  end_date: '2029-12-31',
  gla_sqm: 85,
  base_rent: 6_500,
  service_charge: 900,
  turnover_rent: {
    model: 'base_plus_overage',
    tiers: [
      { from: 50_000, rate_percent: 7 },
      { from: 100_000, rate_percent: 9 },
    ],
  },
  notice_date: '2029-06-30',
  renewal_date: null,
};
const SHOE: Lease = {
  ...KOPI,
  id: 50,
  outlet_id: 13,
  outlet_name: 'Shoe Lane',
  outlet_code: 'O-13',
  mall_id: 2,
  mall_name: 'East',
  start_date: '2027-01-01',
  end_date: '2029-12-31',
  status: 'upcoming',
};
const KOPI_BODY = {
  client_id: CLIENT_ID,
  id: 41,
  outlet_id: 12,
  start_date: '2026-01-01',
  end_date: '2028-12-31',
  gla_sqm: 120,
  base_rent: 10_000,
  service_charge: 1_500,
  turnover_rent: KOPI.turnover_rent,
  notice_date: null,
  renewal_date: '2028-07-01',
};
const OVERLAP = `start_date: ${LEASE_MESSAGES.overlapping}`;
const NOT_A_FIELD = 'body/client_id must be integer';

const net = fakeNetwork();
const machine = createLeasesMachine(net.client);

let actor: Actor<typeof machine>;
let notices: Notice[];

const snapshot = () => actor.getSnapshot();
const toast = (intent: 'success' | 'danger', message: string) => ({ type: 'notify', intent, message, timeout: 5000 });
const tellHeader = (filters: CommittedFilters = FILTERS, outlets: Outlet[] = OUTLETS, today = TODAY) =>
  actor.send({ type: 'header.filters', filters, outlets, today, malls: MALLS });

async function answerList(): Promise<void> {
  await net.answer('GET', PATH, 200, ROWS);
}

async function start(): Promise<void> {
  net.reset();
  setPermissionsList([`${PATH}::*`]);
  notices = [];
  actor = createActor(machine);
  actor.on('notify', (notice) => notices.push(notice));
  actor.start();
  tellHeader();
  await answerList();
}

afterEach(() => actor.stop());
afterAll(() => clearSession());

const queryOf = (request: { query: URLSearchParams }) => ({
  ...Object.fromEntries(request.query),
  mall_ids: request.query.getAll('mall_ids'),
});
const FIRST_QUERY = {
  client_id: '3',
  mall_ids: ['1', '2'],
  sortColumn: 'outlet_name',
  orderByMethod: 'asc',
  page: '1',
  rowsPerPage: '20',
};

async function expectListAskedAgain(): Promise<void> {
  expect(queryOf(await net.pending('GET', PATH))).toEqual(FIRST_QUERY);
}

/** Types the new lease; `endDate` replaces the valid end date. */
function typeNewLease(endDate: string = NEW_FIELDS.endDate): void {
  actor.send({ type: 'form.outlet', outletId: 13 });
  for (const [field, value] of Object.entries({ ...NEW_FIELDS, endDate })) {
    actor.send({ type: 'form.change', field: field as keyof typeof NEW_FIELDS, value });
  }
  actor.send({ type: 'form.model', model: 'base_plus_overage' });
  actor.send({ type: 'form.tier', index: 0, part: 'from', value: '50000' });
  actor.send({ type: 'form.tier', index: 0, part: 'rate', value: '7' });
  actor.send({ type: 'form.addTier' });
  actor.send({ type: 'form.tier', index: 1, part: 'from', value: '100,000' });
  actor.send({ type: 'form.tier', index: 1, part: 'rate', value: '9' });
}

type ModelEvent = {
  type:
    | 'changeStatus'
    | 'changeExpiry'
    | 'answerList'
    | 'openCreate'
    | 'typeInvalid'
    | 'fixEnd'
    | 'typeNew'
    | 'cancelForm'
    | 'submitForm'
    | 'resolveCreate'
    | 'rejectCreate'
    | 'refuseAtField'
    | 'refuseElse'
    | 'openEdit'
    | 'changeRent'
    | 'resolveSave'
    | 'rejectSave'
    | 'saveGone'
    | 'openEnd'
    | 'submitEnd'
    | 'cancelEnd'
    | 'resolveEnd'
    | 'rejectEnd'
    | 'refuseEnd';
};

const model = createTestModel(
  setup({ types: { events: {} as ModelEvent } }).createMachine({
    id: 'leasesModel',
    initial: 'idle',
    states: {
      idle: {
        on: {
          changeStatus: 'byStatus',
          changeExpiry: 'byExpiry',
          openCreate: 'createOpen',
          openEdit: 'editOpen',
          openEnd: 'endOpen',
        },
      },
      byStatus: { on: { answerList: 'idle' } },
      byExpiry: { on: { answerList: 'idle' } },
      createOpen: { on: { typeNew: 'createTyped', typeInvalid: 'createInvalid', cancelForm: 'idle' } },
      createInvalid: { on: { fixEnd: 'createTyped', cancelForm: 'idle' } },
      createTyped: { on: { submitForm: 'creating', cancelForm: 'idle' } },
      creating: {
        on: {
          resolveCreate: 'created',
          rejectCreate: 'createFailed',
          refuseAtField: 'createRefused',
          refuseElse: 'createRefusedElse',
        },
      },
      created: {},
      createFailed: { on: { submitForm: 'creating', cancelForm: 'idle' } },
      createRefused: {},
      createRefusedElse: {},
      editOpen: { on: { changeRent: 'editChanged', cancelForm: 'idle' } },
      editChanged: { on: { submitForm: 'saving', cancelForm: 'idle' } },
      saving: { on: { resolveSave: 'saved', rejectSave: 'saveFailed', saveGone: 'saveGone' } },
      saved: {},
      saveFailed: {},
      saveGone: {},
      endOpen: { on: { submitEnd: 'ending', cancelEnd: 'idle' } },
      ending: { on: { resolveEnd: 'ended', rejectEnd: 'endFailed', refuseEnd: 'endRefused' } },
      ended: {},
      endFailed: {},
      endRefused: {},
    },
  }),
);

type ModelSnapshot = SnapshotFrom<typeof model.logic>;

const expectNoDialog = () => {
  expect(snapshot().matches({ form: 'closed', end: 'closed' })).toBe(true);
  expect(snapshot().context.editor).toBeUndefined();
  expect(snapshot().context.ending).toBeUndefined();
};
const expectEditing = () => expect(snapshot().matches({ form: { open: 'editing' } })).toBe(true);

const params: TestParam<ModelSnapshot, ModelEvent> = {
  states: {
    idle: () => {
      expectNoDialog();
      expect(snapshot().can({ type: 'form.open' })).toBe(true);
      expect(snapshot().can({ type: 'end.open', lease: KOPI })).toBe(true);
      expect(snapshot().can({ type: 'end.open', lease: OLD })).toBe(false);
      expect(snapshot().children.list?.getSnapshot().matches('loaded')).toBe(true);
      expect(net.open()).toEqual([]);
    },
    byStatus: async () => {
      expect(snapshot().context.status).toBe('current');
      expect(queryOf(await net.pending('GET', PATH))).toEqual({ ...FIRST_QUERY, status: 'current' });
    },
    byExpiry: async () => {
      expect(snapshot().context.expiring).toBe(6);
      expect(queryOf(await net.pending('GET', PATH))).toEqual({ ...FIRST_QUERY, expiring_within_months: '6' });
    },
    createOpen: () => {
      expectEditing();
      const editor = snapshot().context.editor;
      expect(editor?.lease).toBeUndefined();
      // The outlets of the selected malls only.
      expect(editor?.outlets).toEqual([
        { id: 12, name: 'Kopi Corner', code: 'O-12', mallId: 1, mallName: 'Central', currency: 'SGD' },
        { id: 13, name: 'Shoe Lane', code: 'O-13', mallId: 2, mallName: 'East', currency: 'SGD' },
      ]);
      expect(editor?.draft).toMatchObject({
        outletId: undefined,
        model: 'higher_of',
        tiers: [{ from: '0', rate: '' }],
      });
      expect(editor?.problems).toMatchObject({ outlet_id: LEASE_FIELD_MESSAGES.outlet });
      expect(snapshot().can({ type: 'form.submit' })).toBe(false);
      expect(snapshot().can({ type: 'end.open', lease: KOPI })).toBe(false);
    },
    createInvalid: () => {
      expect(snapshot().context.editor?.problems).toEqual({ end_date: LEASE_MESSAGES.endBeforeStart });
      expect(snapshot().can({ type: 'form.submit' })).toBe(false);
    },
    createTyped: () => {
      expect(snapshot().context.editor?.draft).toEqual(NEW_DRAFT);
      expect(snapshot().context.editor?.problems).toEqual({});
      expect(snapshot().can({ type: 'form.submit' })).toBe(true);
    },
    creating: async () => {
      expect(snapshot().hasTag('saving')).toBe(true);
      expect((await net.pending('POST', PATH)).body).toEqual(NEW_BODY);
    },
    created: async () => {
      expectNoDialog();
      expect(notices.at(-1)).toEqual(toast('success', 'Lease of Shoe Lane has been added successfully.'));
      await expectListAskedAgain();
    },
    createFailed: () => {
      expectEditing();
      expect(snapshot().context.editor?.draft).toEqual(NEW_DRAFT);
      expect(notices.at(-1)).toEqual(toast('danger', 'Add lease failed.'));
    },
    createRefused: () => {
      expectEditing();
      expect(snapshot().context.editor?.refusal).toEqual({ field: 'start_date', message: LEASE_MESSAGES.overlapping });
      expect(notices).toEqual([]);
    },
    createRefusedElse: () => {
      expectEditing();
      expect(snapshot().context.editor?.refusal).toBeUndefined();
      expect(notices.at(-1)).toEqual(toast('danger', NOT_A_FIELD));
    },
    editOpen: () => {
      expectEditing();
      const editor = snapshot().context.editor;
      expect(editor?.lease).toEqual(KOPI);
      expect(editor?.draft).toMatchObject({ id: 41, outletId: 12, baseRent: '10000.00', renewalDate: '2028-07-01' });
      expect(snapshot().can({ type: 'form.outlet', outletId: 13 })).toBe(false);
      expect(snapshot().can({ type: 'form.submit' })).toBe(true);
    },
    editChanged: () => {
      expect(snapshot().context.editor?.draft.baseRent).toBe('11000');
    },
    saving: async () => {
      expect(snapshot().hasTag('saving')).toBe(true);
      expect((await net.pending('PUT', PATH)).body).toEqual({ ...KOPI_BODY, base_rent: 11_000 });
    },
    saved: async () => {
      expectNoDialog();
      expect(notices.at(-1)).toEqual(toast('success', 'Save Successfully.'));
      await expectListAskedAgain();
    },
    saveFailed: () => {
      expectEditing();
      expect(notices.at(-1)).toEqual(toast('danger', 'Save Failed.'));
    },
    saveGone: () => {
      expectEditing();
      expect(notices.at(-1)).toEqual(toast('danger', LEASE_MESSAGES.noSuchLease));
    },
    endOpen: () => {
      expect(snapshot().matches({ end: { open: 'editing' } })).toBe(true);
      expect(snapshot().context.ending).toEqual({
        clientId: CLIENT_ID,
        lease: KOPI,
        day: TODAY,
        problem: undefined,
        refusal: undefined,
      });
      expect(snapshot().can({ type: 'form.open' })).toBe(false);
      expect(snapshot().can({ type: 'end.submit' })).toBe(true);
    },
    ending: async () => {
      expect(snapshot().hasTag('ending')).toBe(true);
      expect((await net.pending('PUT', PATH)).body).toEqual({ ...KOPI_BODY, end_date: TODAY, renewal_date: null });
    },
    ended: async () => {
      expectNoDialog();
      expect(notices.at(-1)).toEqual(toast('success', "Kopi Corner's lease ends on 25 Nov 2026."));
      await expectListAskedAgain();
    },
    endFailed: () => {
      expect(snapshot().matches({ end: { open: 'editing' } })).toBe(true);
      expect(notices.at(-1)).toEqual(toast('danger', 'End lease of Kopi Corner failed.'));
    },
    endRefused: () => {
      expect(snapshot().matches({ end: { open: 'editing' } })).toBe(true);
      expect(snapshot().context.ending?.refusal).toBe(LEASE_MESSAGES.endBeforeStart);
      expect(notices).toEqual([]);
    },
  },
  events: {
    changeStatus: () => actor.send({ type: 'status.change', status: 'current' }),
    changeExpiry: () => actor.send({ type: 'expiring.change', months: 6 }),
    answerList,
    openCreate: () => actor.send({ type: 'form.open' }),
    typeInvalid: () => typeNewLease('2026-12-31'),
    fixEnd: () => actor.send({ type: 'form.change', field: 'endDate', value: NEW_FIELDS.endDate }),
    typeNew: () => typeNewLease(),
    cancelForm: () => actor.send({ type: 'form.cancel' }),
    submitForm: () => actor.send({ type: 'form.submit' }),
    resolveCreate: async () => {
      await net.answer('POST', PATH, 200, SHOE);
    },
    rejectCreate: async () => {
      await net.answer('POST', PATH, 500, errorBody(500, 'boom'));
    },
    refuseAtField: async () => {
      await net.answer('POST', PATH, 400, errorBody(400, OVERLAP));
    },
    refuseElse: async () => {
      await net.answer('POST', PATH, 400, errorBody(400, NOT_A_FIELD));
    },
    openEdit: () => actor.send({ type: 'form.open', lease: KOPI }),
    changeRent: () => actor.send({ type: 'form.change', field: 'baseRent', value: '11000' }),
    resolveSave: async () => {
      await net.answer('PUT', PATH, 200, { ...KOPI, base_rent: 11_000 });
    },
    rejectSave: async () => {
      await net.answer('PUT', PATH, 500, errorBody(500, 'boom'));
    },
    saveGone: async () => {
      await net.answer('PUT', PATH, 404, { statusCode: 404, error: 'Not Found', message: LEASE_MESSAGES.noSuchLease });
    },
    openEnd: () => actor.send({ type: 'end.open', lease: KOPI }),
    submitEnd: () => actor.send({ type: 'end.submit' }),
    cancelEnd: () => actor.send({ type: 'end.cancel' }),
    resolveEnd: async () => {
      await net.answer('PUT', PATH, 200, { ...KOPI, end_date: TODAY });
    },
    rejectEnd: async () => {
      await net.answer('PUT', PATH, 500, errorBody(500, 'boom'));
    },
    refuseEnd: async () => {
      await net.answer('PUT', PATH, 400, errorBody(400, `end_date: ${LEASE_MESSAGES.endBeforeStart}`));
    },
  },
};

describe('leasesMachine (model)', () => {
  beforeEach(() => start());
  describeModelCoverage(model, params, {
    states: [
      'idle',
      'byStatus',
      'byExpiry',
      'createOpen',
      'createInvalid',
      'createTyped',
      'creating',
      'created',
      'createFailed',
      'createRefused',
      'createRefusedElse',
      'editOpen',
      'editChanged',
      'saving',
      'saved',
      'saveFailed',
      'saveGone',
      'endOpen',
      'ending',
      'ended',
      'endFailed',
      'endRefused',
    ],
    transitions: 32,
  });
});

describe('leasesMachine details', () => {
  beforeEach(() => start());

  it('asks for the leases of the selected malls, first page by outlet name; search, sort and paging go to the list', async () => {
    expect(queryOf(net.requests[0] ?? { query: new URLSearchParams() })).toEqual(FIRST_QUERY);
    snapshot().children.list?.send({ type: 'list.search', text: ' kopi ' });
    expect(queryOf(await net.pending('GET', PATH))).toEqual({ ...FIRST_QUERY, search: 'kopi' });
    await answerList();
    snapshot().children.list?.send({ type: 'list.sort', column: 'end_date' });
    expect(queryOf(await net.pending('GET', PATH))).toMatchObject({ sortColumn: 'end_date', orderByMethod: 'desc' });
    await answerList();
    snapshot().children.list?.send({ type: 'list.sort', column: 'service_charge' });
    expect(net.open()).toEqual([]);
    // Every status and any end date send neither filter.
    actor.send({ type: 'status.change', status: 'ended' });
    await answerList();
    actor.send({ type: 'expiring.change', months: 3 });
    await answerList();
    actor.send({ type: 'status.change', status: 'all' });
    await answerList();
    actor.send({ type: 'expiring.change', months: undefined });
    const request = await net.pending('GET', PATH);
    expect(request.query.get('status')).toBeNull();
    expect(request.query.get('expiring_within_months')).toBeNull();
    expect(request.query.get('search')).toBe('kopi');
    await answerList();
    // The same filter again asks nothing.
    actor.send({ type: 'expiring.change', months: undefined });
    actor.send({ type: 'status.change', status: 'all' });
    expect(net.open()).toEqual([]);
  });

  it('follows the header’s malls; a new today or outlets alone only change what a new lease may be of', async () => {
    tellHeader(FILTERS, [outlet(12, 'Kopi Corner', 1)], '2026-11-26');
    expect(net.open()).toEqual([]);
    expect(snapshot().context.today).toBe('2026-11-26');
    actor.send({ type: 'form.open' });
    // The only outlet of the malls is the new lease's.
    expect(snapshot().context.editor?.draft.outletId).toBe(12);
    actor.send({ type: 'form.cancel' });
    tellHeader({ ...FILTERS, mallIds: [2] });
    expect(queryOf(await net.pending('GET', PATH))).toEqual({ ...FIRST_QUERY, mall_ids: ['2'] });
    await answerList();
    expect(snapshot().context.outlets.map((offered) => offered.id)).toEqual([13]);
    expect(leaseListFiltersOf(snapshot().context)).toEqual({
      clientId: CLIENT_ID,
      mallIds: [2],
      status: 'all',
      expiring: undefined,
    });
  });

  it('offers no new lease without an outlet in the selected malls, and no dialog before the header has a client', async () => {
    tellHeader({ ...FILTERS, mallIds: [5] }, [outlet(12, 'Kopi Corner', 1)]);
    await answerList();
    expect(snapshot().can({ type: 'form.open' })).toBe(false);
    expect(snapshot().can({ type: 'form.open', lease: KOPI })).toBe(true);
    const fresh = createActor(machine);
    fresh.start();
    expect(fresh.getSnapshot().can({ type: 'form.open' })).toBe(false);
    expect(fresh.getSnapshot().can({ type: 'end.open', lease: KOPI })).toBe(false);
    fresh.stop();
  });

  it('keeps 1 to 10 tiers, takes only offered outlets and known models', () => {
    actor.send({ type: 'form.open' });
    expect(snapshot().can({ type: 'form.removeTier', index: 0 })).toBe(false);
    for (let index = 1; index < MAX_TIERS; index += 1) actor.send({ type: 'form.addTier' });
    expect(snapshot().context.editor?.draft.tiers).toHaveLength(MAX_TIERS);
    expect(snapshot().can({ type: 'form.addTier' })).toBe(false);
    actor.send({ type: 'form.removeTier', index: 3 });
    expect(snapshot().context.editor?.draft.tiers).toHaveLength(MAX_TIERS - 1);
    expect(snapshot().can({ type: 'form.removeTier', index: MAX_TIERS - 1 })).toBe(false);
    expect(snapshot().can({ type: 'form.tier', index: MAX_TIERS - 1, part: 'from', value: '1' })).toBe(false);
    actor.send({ type: 'form.outlet', outletId: 14 });
    expect(snapshot().context.editor?.draft.outletId).toBeUndefined();
    actor.send({ type: 'form.model', model: 'flat' });
    expect(snapshot().context.editor?.draft.model).toBe('higher_of');
  });

  it('shows a refusal at a tier’s field until the draft changes', async () => {
    actor.send({ type: 'form.open' });
    typeNewLease();
    actor.send({ type: 'form.submit' });
    await net.answer('POST', PATH, 400, errorBody(400, 'body/turnover_rent/tiers/1/rate_percent must be <= 100'));
    expect(snapshot().context.editor?.refusal).toEqual({
      field: 'turnover_rent.tiers.1.rate_percent',
      message: 'must be <= 100',
    });
    actor.send({ type: 'form.tier', index: 1, part: 'rate', value: '9.5' });
    expect(snapshot().context.editor?.refusal).toBeUndefined();
    // A refusal of a tier the draft no longer has is a toast.
    actor.send({ type: 'form.submit' });
    await net.answer('POST', PATH, 400, errorBody(400, 'body/turnover_rent/tiers/5/from must be >= 0'));
    expect(snapshot().context.editor?.refusal).toBeUndefined();
    expect(notices.at(-1)).toEqual(toast('danger', 'body/turnover_rent/tiers/5/from must be >= 0'));
  });

  it('ends a lease only on a day of its term, and not an ended lease', () => {
    actor.send({ type: 'end.open', lease: OLD });
    expect(snapshot().matches({ end: 'closed' })).toBe(true);
    // A notice date after the last day no longer applies: the lease ends before it.
    actor.send({ type: 'end.open', lease: { ...KOPI, notice_date: '2027-06-30' } });
    expect(snapshot().context.ending?.problem).toBeUndefined();
    actor.send({ type: 'end.change', day: '2025-12-31' });
    expect(snapshot().context.ending?.problem).toBe(LEASE_MESSAGES.endBeforeStart);
    expect(snapshot().can({ type: 'end.submit' })).toBe(false);
    actor.send({ type: 'end.change', day: '2029-01-01' });
    expect(snapshot().context.ending?.problem).toBe(
      'The last day must be on or before the lease’s end date, 31 Dec 2028.',
    );
    actor.send({ type: 'end.change', day: '2027-06-30' });
    expect(snapshot().can({ type: 'end.submit' })).toBe(true);
    actor.send({ type: 'end.cancel' });
    expectNoDialog();
    expect(net.open()).toEqual([]);
  });
});
