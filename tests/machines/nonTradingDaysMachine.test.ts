import { createTestModel, type TestParam } from '@xstate/test';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  type Actor,
  type ActorRefFrom,
  createActor,
  fromCallback,
  fromPromise,
  type SnapshotFrom,
  setup,
} from 'xstate';
import { createApiClient } from '../../src/api/client';
import type { Outlet } from '../../src/api/lookup';
import {
  declareNonTradingDay,
  declareOutletNonTradingDay,
  type NonTradingDay,
  type NonTradingDayKey,
  type NonTradingDayRequest,
  removeNonTradingDay,
  withdrawOutletNonTradingDay,
} from '../../src/api/nonTradingDays';
import { clearSession, setPermissionsList } from '../../src/api/session';
import type { CommittedFilters } from '../../src/domain/filterHeader';
import type { Notice } from '../../src/domain/messages';
import type { DeclarationDraft } from '../../src/domain/nonTradingDays';
import type { HeaderFiltersEvent } from '../../src/machines/headerLink';
import {
  loadNonTradingDays,
  loadOutletNonTradingDays,
  type NonTradingListFilters,
  nonTradingDaysMachine,
  nonTradingListMachine,
  outletNonTradingDaysMachine,
  outletNonTradingListMachine,
} from '../../src/machines/tenantConnect/nonTradingDaysMachine';
import { installPendingFetch, jsonResponse, type PendingCall } from '../support/pendingFetch';
import { describeModelCoverage } from './modelCoverage';

/*
 * Model-based test of the mall's non-trading days (Tenant Connect) with the app's api wrappers on a client whose
 * network the test answers: client 1, the header's days 2026-11-19..2026-11-25 (today the 25th), All Outlets of
 * Kopi Corner (12) and Bakery (13). The page tells its list the filters (the range, or the days ahead), declares a
 * day (the toast, the form empty, the list again; a refusal shows the server's text and keeps the form), and
 * removes a day after asking. The tenant's view is the same machine with its own calls and rule (details).
 */

const TODAY = '2026-11-25';
const RANGE = { start: '2026-11-19', end: TODAY };
const KOPI: Outlet = { id: 12, name: 'Kopi Corner', type: 1, currency: 'SGD', mall_id: 1, outlet_code: null };
const BAKERY: Outlet = { id: 13, name: 'Bakery', type: 2, currency: 'SGD', mall_id: 1, outlet_code: null };

function dayRow(day: string, declaredBy: 'tenant' | 'mall', outlet: Outlet = KOPI): NonTradingDay {
  return {
    outlet_id: outlet.id,
    outlet_name: outlet.name,
    day,
    reason: declaredBy === 'tenant' ? 'Private event' : 'Mall maintenance',
    declared_by: declaredBy,
    user_email: declaredBy === 'tenant' ? 'tenant@demo.mall' : 'operator@demo.mall',
    declared_at: '2026-11-10T02:00:00.000Z',
  };
}
const ROWS = [dayRow('2026-11-21', 'tenant'), dayRow('2026-11-20', 'mall', BAKERY)];

let calls: PendingCall[];

function installNetwork(): void {
  calls = installPendingFetch();
}

const json = jsonResponse;

function lastCall(): PendingCall {
  const call = calls.at(-1);
  if (!call) throw new Error('no call');
  return call;
}

const client = createApiClient((request) => globalThis.fetch(request), { baseUrl: 'http://ntd.test' });
const listFetch = (load: typeof loadNonTradingDays) =>
  fromPromise(({ input, signal }: { input: Parameters<typeof load>[0]; signal: AbortSignal }) =>
    load(input, { signal, client }),
  );

const mallMachine = nonTradingDaysMachine.provide({
  actors: {
    followHeaderFilters: fromCallback(() => () => undefined),
    list: nonTradingListMachine.provide({
      actors: { fetchPage: listFetch(loadNonTradingDays), lockHeader: fromCallback(() => () => undefined) },
    }),
    declareDay: fromPromise<NonTradingDay, NonTradingDayRequest>(({ input, signal }) =>
      declareNonTradingDay(input, { signal, client }),
    ),
    removeDay: fromPromise<unknown, NonTradingDayKey>(({ input, signal }) =>
      removeNonTradingDay(input, { signal, client }),
    ),
  },
});

const tenantMachine = outletNonTradingDaysMachine.provide({
  actors: {
    followHeaderFilters: fromCallback(() => () => undefined),
    list: outletNonTradingListMachine.provide({
      actors: { fetchPage: listFetch(loadOutletNonTradingDays), lockHeader: fromCallback(() => () => undefined) },
    }),
    declareDay: fromPromise<NonTradingDay, NonTradingDayRequest>(({ input, signal }) =>
      declareOutletNonTradingDay(input, { signal, client }),
    ),
    removeDay: fromPromise<unknown, NonTradingDayKey>(({ input, signal }) =>
      withdrawOutletNonTradingDay(input, { signal, client }),
    ),
  },
});

function headerEvent(outlet: CommittedFilters['outlet'], today = TODAY): HeaderFiltersEvent {
  const filters: CommittedFilters = {
    clientId: 1,
    mallIds: [1],
    outlet,
    dateRange: RANGE,
    hours: { from: 0, to: 23 },
    timeRange: 'daily',
    metric: 'gmv',
    month: '2026-11',
  };
  return { type: 'header.filters', filters, outlets: [KOPI, BAKERY], today };
}

type PageActor = Actor<typeof mallMachine>;
let actor: PageActor;
let notices: Notice[];

const snapshot = () => actor.getSnapshot();
function list(): ActorRefFrom<typeof nonTradingListMachine> {
  const child = snapshot().children.list;
  if (!child) throw new Error('no list');
  return child;
}
const listSnapshot = () => list().getSnapshot();

function start(machine: typeof mallMachine = mallMachine): void {
  installNetwork();
  setPermissionsList(['*::*']);
  notices = [];
  actor = createActor(machine);
  actor.on('notify', (notice) => notices.push(notice));
  actor.start();
  list().on('notify', (notice) => notices.push(notice));
}

afterEach(() => {
  actor.stop();
  vi.unstubAllGlobals();
  clearSession();
});

const flush = async () => {
  for (let turn = 0; turn < 6; turn++) await new Promise((resolve) => setTimeout(resolve, 0));
};

const success = (message: string): Notice => ({ type: 'notify', intent: 'success', message, timeout: 5000 });
const danger = (message: string): Notice => ({ type: 'notify', intent: 'danger', message, timeout: 5000 });

/* ---------------------------------------------------------------- the model */

type ModelEvent = {
  type:
    | 'header'
    | 'answerRows'
    | 'answerEmpty'
    | 'failLoad'
    | 'retry'
    | 'upcoming'
    | 'declare'
    | 'declared'
    | 'refused'
    | 'askRemoval'
    | 'cancelRemoval'
    | 'confirmRemoval'
    | 'removed'
    | 'removalRefused';
};

const model = createTestModel(
  setup({ types: { events: {} as ModelEvent } }).createMachine({
    id: 'nonTradingDaysModel',
    initial: 'waiting',
    states: {
      /** No client or range from the header yet. */
      waiting: { on: { header: 'loading' } },
      loading: { on: { answerRows: 'listed', answerEmpty: 'empty', failLoad: 'failure' } },
      listed: { on: { upcoming: 'loading', declare: 'declaring', askRemoval: 'confirming' } },
      empty: { on: { upcoming: 'loading' } },
      failure: { on: { retry: 'loading' } },
      declaring: { on: { declared: 'loading', refused: 'listed' } },
      confirming: { on: { cancelRemoval: 'listed', confirmRemoval: 'removing' } },
      removing: { on: { removed: 'loading', removalRefused: 'loading' } },
    },
  }),
);

type ModelSnapshot = SnapshotFrom<typeof model.logic>;

const EMPTY_DRAFT: DeclarationDraft = { outletId: undefined, day: '', reason: '' };
const FILLED_DRAFT: DeclarationDraft = { outletId: BAKERY.id, day: '2026-12-01', reason: '  Renovation ' };
let window: { from: string; to: string };
let draft: DeclarationDraft;

const params: TestParam<ModelSnapshot, ModelEvent> = {
  states: {
    waiting: () => {
      expect(calls).toEqual([]);
      expect(listSnapshot().matches('idle')).toBe(true);
      expect(snapshot().can({ type: 'declaration.submit' })).toBe(false);
    },
    loading: () => {
      expect(listSnapshot().hasTag('loading')).toBe(true);
      const call = lastCall();
      expect(call.method).toBe('GET');
      expect(call.url.pathname).toBe('/api/nonTradingDays');
      // All Outlets: no outlet_id, every outlet the caller sees.
      expect(Object.fromEntries(call.url.searchParams)).toEqual({
        client_id: '1',
        ...window,
        page: '1',
        rowsPerPage: '20',
        sortColumn: 'day',
        orderByMethod: 'desc',
      });
    },
    listed: () => {
      expect(snapshot().matches('ready')).toBe(true);
      expect(listSnapshot().matches('loaded')).toBe(true);
      expect(listSnapshot().context.rows).toEqual(ROWS);
      expect(snapshot().context.draft).toEqual(draft);
      // The mall removes any day, whoever declared it.
      for (const row of ROWS) expect(snapshot().can({ type: 'removal.ask', row })).toBe(true);
      expect(snapshot().can({ type: 'declaration.submit' })).toBe(draft === FILLED_DRAFT);
    },
    empty: () => {
      expect(listSnapshot().matches('empty')).toBe(true);
      expect(listSnapshot().context.total).toBe(0);
    },
    failure: () => {
      expect(listSnapshot().matches('failure')).toBe(true);
      expect(listSnapshot().context.rows).toEqual([]);
      expect(notices.at(-1)).toEqual(danger('Non-trading days fetching error occurs. Please try again later.'));
      expect(list().getSnapshot().can({ type: 'list.retry' })).toBe(true);
    },
    declaring: () => {
      expect(snapshot().hasTag('busy')).toBe(true);
      const call = lastCall();
      expect(call.method).toBe('POST');
      expect(call.url.pathname).toBe('/api/nonTradingDays');
      // The reason goes trimmed.
      expect(call.body).toEqual({ client_id: 1, outlet_id: BAKERY.id, day: '2026-12-01', reason: 'Renovation' });
      expect(snapshot().can({ type: 'declaration.submit' })).toBe(false);
      expect(snapshot().can({ type: 'removal.ask', row: ROWS[0] as NonTradingDay })).toBe(false);
    },
    confirming: () => {
      expect(snapshot().context.removal).toEqual(ROWS[1]);
      expect(snapshot().can({ type: 'removal.confirm' })).toBe(true);
      expect(snapshot().can({ type: 'declaration.submit' })).toBe(false);
    },
    removing: () => {
      expect(snapshot().hasTag('busy')).toBe(true);
      const call = lastCall();
      expect(call.method).toBe('DELETE');
      expect(call.url.pathname).toBe('/api/nonTradingDays');
      expect(Object.fromEntries(call.url.searchParams)).toEqual({
        client_id: '1',
        outlet_id: String(BAKERY.id),
        day: '2026-11-20',
      });
    },
  },
  events: {
    header: async () => {
      actor.send(headerEvent('all'));
      await flush();
    },
    answerRows: async () => {
      lastCall().answer.resolve(json(200, { data: ROWS, total: ROWS.length }));
      await flush();
    },
    answerEmpty: async () => {
      lastCall().answer.resolve(json(200, { data: [], total: 0 }));
      await flush();
    },
    failLoad: async () => {
      lastCall().answer.resolve(json(500, { statusCode: 500, error: 'Internal Server Error', message: 'boom' }));
      await flush();
    },
    retry: async () => {
      list().send({ type: 'list.retry' });
      await flush();
    },
    upcoming: async () => {
      // The days declared ahead: from tomorrow to the latest day a declaration may name.
      window = { from: '2026-11-26', to: '2027-11-26' };
      actor.send({ type: 'period.change', period: 'upcoming' });
      await flush();
    },
    declare: async () => {
      actor.send({ type: 'declaration.outlet', outletId: BAKERY.id });
      actor.send({ type: 'declaration.change', field: 'day', value: FILLED_DRAFT.day });
      expect(snapshot().can({ type: 'declaration.submit' })).toBe(false);
      actor.send({ type: 'declaration.change', field: 'reason', value: FILLED_DRAFT.reason });
      draft = FILLED_DRAFT;
      actor.send({ type: 'declaration.submit' });
      await flush();
    },
    declared: async () => {
      lastCall().answer.resolve(json(200, { ...dayRow('2026-12-01', 'mall', BAKERY), reason: 'Renovation' }));
      await flush();
      expect(notices.at(-1)).toEqual(success('Non-trading day 1 Dec 2026 declared.'));
      // The form is empty again, for the same outlet.
      expect(snapshot().context.draft).toEqual({ outletId: BAKERY.id, day: '', reason: '' });
      draft = { ...EMPTY_DRAFT, outletId: BAKERY.id };
    },
    refused: async () => {
      const message = 'day: 1 Dec 2026 is declared already as a non-trading day of this outlet.';
      lastCall().answer.resolve(json(400, { statusCode: 400, error: 'Bad Request', message }));
      await flush();
      expect(notices.at(-1)).toEqual(danger(message));
    },
    askRemoval: async () => {
      actor.send({ type: 'removal.ask', row: ROWS[1] as NonTradingDay });
      await flush();
    },
    cancelRemoval: async () => {
      const before = calls.length;
      actor.send({ type: 'removal.cancel' });
      await flush();
      expect(calls).toHaveLength(before);
      expect(snapshot().context.removal).toBeUndefined();
    },
    confirmRemoval: async () => {
      actor.send({ type: 'removal.confirm' });
      await flush();
    },
    removed: async () => {
      lastCall().answer.resolve(json(200, { success: true }));
      await flush();
      expect(notices.at(-1)).toEqual(success('Non-trading day 20 Nov 2026 removed.'));
      expect(snapshot().context.removal).toBeUndefined();
    },
    removalRefused: async () => {
      const message = 'day is not a non-trading day of this outlet.';
      lastCall().answer.resolve(json(404, { statusCode: 404, error: 'Not Found', message }));
      await flush();
      expect(notices.at(-1)).toEqual(danger(message));
    },
  },
};

describe('nonTradingDaysMachine (model)', () => {
  beforeEach(() => {
    window = { from: RANGE.start, to: RANGE.end };
    draft = EMPTY_DRAFT;
    start();
  });
  describeModelCoverage(model, params, {
    states: ['waiting', 'loading', 'listed', 'empty', 'failure', 'declaring', 'confirming', 'removing'],
    transitions: 15,
  });
});

/* ---------------------------------------------------------------- details */

describe('nonTradingDaysMachine details', () => {
  beforeEach(() => start());

  async function listed(outlet: CommittedFilters['outlet'], rows: NonTradingDay[] = ROWS) {
    actor.send(headerEvent(outlet));
    await flush();
    lastCall().answer.resolve(json(200, { data: rows, total: rows.length }));
    await flush();
  }

  it('lists the header’s one outlet, and asks again for a new outlet or range, not for a new today alone', async () => {
    await listed(KOPI.id);
    expect(lastCall().url.searchParams.get('outlet_id')).toBe(String(KOPI.id));
    // The form takes the header's outlet.
    expect(snapshot().context.draft.outletId).toBe(KOPI.id);
    const asked = calls.length;
    actor.send(headerEvent(KOPI.id, '2026-11-26'));
    await flush();
    expect(calls).toHaveLength(asked);
    actor.send(headerEvent(BAKERY.id));
    await flush();
    expect(calls).toHaveLength(asked + 1);
    expect(lastCall().url.searchParams.get('outlet_id')).toBe(String(BAKERY.id));
  });

  it('declares nothing without an outlet, a day, or a reason that is not blank, or further than 366 days ahead', async () => {
    await listed('all');
    const change = (field: 'day' | 'reason', value: string) => actor.send({ type: 'declaration.change', field, value });
    change('day', '2026-12-01');
    change('reason', 'Renovation');
    expect(snapshot().can({ type: 'declaration.submit' })).toBe(false);
    actor.send({ type: 'declaration.outlet', outletId: 99 });
    expect(snapshot().context.draft.outletId).toBeUndefined();
    actor.send({ type: 'declaration.outlet', outletId: KOPI.id });
    expect(snapshot().can({ type: 'declaration.submit' })).toBe(true);
    change('reason', '   ');
    expect(snapshot().can({ type: 'declaration.submit' })).toBe(false);
    change('reason', 'Renovation');
    change('day', '2027-11-27');
    expect(snapshot().can({ type: 'declaration.submit' })).toBe(false);
    change('day', '2027-11-26');
    expect(snapshot().can({ type: 'declaration.submit' })).toBe(true);
    change('day', '2026-02-30');
    expect(snapshot().can({ type: 'declaration.submit' })).toBe(false);
  });

  it('toasts the failed declaration when the server gives no reason', async () => {
    await listed(KOPI.id);
    actor.send({ type: 'declaration.change', field: 'day', value: '2026-12-01' });
    actor.send({ type: 'declaration.change', field: 'reason', value: 'Renovation' });
    actor.send({ type: 'declaration.submit' });
    await flush();
    lastCall().answer.resolve(json(500, { statusCode: 500, error: 'Internal Server Error', message: 'boom' }));
    await flush();
    expect(notices.at(-1)).toEqual(danger('Declare non-trading day failed.'));
    expect(snapshot().context.draft).toEqual({ outletId: KOPI.id, day: '2026-12-01', reason: 'Renovation' });
  });
});

describe('the tenant’s view (outletNonTradingDaysMachine)', () => {
  beforeEach(() => start(tenantMachine as unknown as typeof mallMachine));

  it('lists its outlet only, declares for it, and withdraws only the days it declared', async () => {
    actor.send(headerEvent('all'));
    await flush();
    // No single outlet: nothing to list.
    expect(calls).toEqual([]);
    actor.send(headerEvent(KOPI.id));
    await flush();
    expect(lastCall().url.pathname).toBe('/api/salesReview/nonTradingDays');
    expect(lastCall().url.searchParams.get('outlet_id')).toBe(String(KOPI.id));
    const rows = [dayRow('2026-11-21', 'tenant'), dayRow('2026-11-20', 'mall')];
    lastCall().answer.resolve(json(200, { data: rows, total: 2 }));
    await flush();
    expect(snapshot().can({ type: 'removal.ask', row: rows[0] as NonTradingDay })).toBe(true);
    expect(snapshot().can({ type: 'removal.ask', row: rows[1] as NonTradingDay })).toBe(false);
    // The outlet is the header's: the form has no choice of it.
    actor.send({ type: 'declaration.outlet', outletId: BAKERY.id });
    expect(snapshot().context.draft.outletId).toBe(KOPI.id);
    actor.send({ type: 'declaration.change', field: 'day', value: '2026-11-22' });
    actor.send({ type: 'declaration.change', field: 'reason', value: 'Private event' });
    actor.send({ type: 'declaration.submit' });
    await flush();
    expect(lastCall().method).toBe('POST');
    expect(lastCall().url.pathname).toBe('/api/salesReview/nonTradingDays');
    expect(lastCall().body).toEqual({ client_id: 1, outlet_id: KOPI.id, day: '2026-11-22', reason: 'Private event' });
    lastCall().answer.resolve(json(200, dayRow('2026-11-22', 'tenant')));
    await flush();
    expect(notices.at(-1)).toEqual(success('Non-trading day 22 Nov 2026 declared.'));
    lastCall().answer.resolve(json(200, { data: rows, total: 2 }));
    await flush();

    actor.send({ type: 'removal.ask', row: rows[0] as NonTradingDay });
    actor.send({ type: 'removal.confirm' });
    await flush();
    expect(lastCall().method).toBe('DELETE');
    expect(lastCall().url.pathname).toBe('/api/salesReview/nonTradingDays');
    const message = 'day was declared by the mall: only the mall can remove it.';
    lastCall().answer.resolve(json(409, { statusCode: 409, error: 'Conflict', message }));
    await flush();
    expect(notices.at(-1)).toEqual(danger(message));
    lastCall().answer.resolve(json(200, { data: rows, total: 2 }));
    await flush();
    actor.send({ type: 'removal.ask', row: rows[0] as NonTradingDay });
    actor.send({ type: 'removal.confirm' });
    await flush();
    lastCall().answer.resolve(json(200, { success: true }));
    await flush();
    expect(notices.at(-1)).toEqual(success('Non-trading day 21 Nov 2026 withdrawn.'));
  });

  it('keeps the list’s filters to the one outlet', async () => {
    const filters: NonTradingListFilters = { clientId: 1, outletId: undefined, from: RANGE.start, to: RANGE.end };
    await expect(
      loadOutletNonTradingDays(
        { filters, search: '', sortColumn: 'day', order: 'desc', page: 1, rowsPerPage: 20 },
        { signal: new AbortController().signal, client },
      ),
    ).rejects.toThrow(/without an outlet/);
  });
});
