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
import type { GtoSummaryRow } from '../../src/api/gto';
import { clearSession, setPermissionsList } from '../../src/api/session';
import type { CommittedFilters } from '../../src/domain/filterHeader';
import { gtoReviewCsv } from '../../src/domain/gto';
import type { Notice } from '../../src/domain/messages';
import {
  type GtoCsvInput,
  type GtoReviewInput,
  type GtoReviewQuery,
  gtoReviewListMachine,
  gtoReviewMachine,
  loadGtoSummary,
} from '../../src/machines/gto/gtoReviewMachine';
import type { HeaderFiltersEvent } from '../../src/machines/headerLink';
import { installPendingFetch, jsonResponse, type PendingCall } from '../support/pendingFetch';
import { describeModelCoverage } from './modelCoverage';

/*
 * Model-based test of the GTO review machine (§7, §8, §9) with the app's api wrappers on a client whose network is
 * a fetch handler the test answers: client 1, October 2026, 25 outlets (3 pages of 10), the client's threshold 7.5 %.
 * The page tells its list the header's client and month and its status filter; the table's sort and paging go to
 * the list itself. A failed summary is an empty list with a count of 0, the toast and a retry (§8).
 */

const MONTH = '2026-10';
const TOTAL = 25;
const THRESHOLD = 7.5;
const ERROR_TEXT = 'GTO summary fetching error occurs. Please try again later.';

function summaryRow(index: number): GtoSummaryRow {
  return {
    outlet_id: index,
    outlet_name: `Outlet ${index}`,
    mall_id: 1,
    mall_name: 'Harbour Mall',
    month: MONTH,
    gto_amount: 1000 + index,
    status: 'submitted',
    submitted_at: '2026-11-03T10:15:00.000Z',
    currency: 'SGD',
    captured_sales: 1000,
    variance_amount: index,
    variance_percent: index / 10,
    flagged: index > 75,
    due_on: '2026-11-07',
    late: false,
    last_reminded_on: null,
  };
}

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

const client = createApiClient((request) => globalThis.fetch(request), { baseUrl: 'http://gto.test' });

let exports: GtoCsvInput[];

const testMachine = gtoReviewMachine.provide({
  actors: {
    followHeaderFilters: fromCallback(() => () => undefined),
    gtoReviewList: gtoReviewListMachine.provide({
      actors: {
        fetchPage: fromPromise(({ input, signal }: { input: GtoReviewQuery; signal: AbortSignal }) =>
          loadGtoSummary(input, { signal, client }),
        ),
      },
    }),
    exportCsv: fromPromise<void, GtoCsvInput>(async ({ input }) => {
      exports.push(input);
    }),
  },
});

function headerEvent(clientId: number | undefined, today = '2026-11-25'): HeaderFiltersEvent {
  const filters: CommittedFilters = {
    clientId,
    mallIds: [1],
    outlet: undefined,
    dateRange: { start: '2026-11-19', end: '2026-11-25' },
    hours: { from: 0, to: 23 },
    timeRange: 'daily',
    metric: 'gmv',
    month: MONTH,
  };
  return { type: 'header.filters', filters, outlets: [], today };
}

let actor: Actor<typeof testMachine>;
let notices: Notice[];

const snapshot = () => actor.getSnapshot();
function list(): ActorRefFrom<typeof gtoReviewListMachine> {
  const child = snapshot().children.list;
  if (!child) throw new Error('no list');
  return child;
}
const listSnapshot = () => list().getSnapshot();

function start(input: GtoReviewInput = {}): void {
  installNetwork();
  setPermissionsList(['*::*']);
  notices = [];
  exports = [];
  actor = createActor(testMachine, { input });
  actor.start();
  list().on('notify', (notice) => notices.push(notice));
}

afterEach(() => {
  actor.stop();
  vi.unstubAllGlobals();
  clearSession();
});

const flush = async () => {
  for (let turn = 0; turn < 5; turn++) await new Promise((resolve) => setTimeout(resolve, 0));
};

/* ---------------------------------------------------------------- the model */

type ModelEvent = {
  type:
    | 'header'
    | 'answerRows'
    | 'answerEmpty'
    | 'failLoad'
    | 'retry'
    | 'filterFlagged'
    | 'sortVariance'
    | 'nextPage'
    | 'export';
};

const model = createTestModel(
  setup({ types: { events: {} as ModelEvent } }).createMachine({
    id: 'gtoReviewModel',
    initial: 'waiting',
    states: {
      /** No client or month from the header yet. */
      waiting: { on: { header: 'loading' } },
      loading: { on: { answerRows: 'loaded', answerEmpty: 'empty', failLoad: 'failure' } },
      loaded: {
        on: { filterFlagged: 'loading', sortVariance: 'loading', nextPage: 'loading', export: 'loaded' },
      },
      empty: { on: { filterFlagged: 'loading' } },
      failure: { on: { retry: 'loading', filterFlagged: 'loading' } },
    },
  }),
);

type ModelSnapshot = SnapshotFrom<typeof model.logic>;

/** The query the test expects the list to send, and the rows it answered. */
let expected: { filterOption: string; sortColumn: string; orderByMethod: string; page: number };
let answered: GtoSummaryRow[];

const params: TestParam<ModelSnapshot, ModelEvent> = {
  states: {
    waiting: () => {
      expect(calls).toEqual([]);
      expect(listSnapshot().matches('idle')).toBe(true);
      expect(snapshot().can({ type: 'gto.filter', filterOption: 'flagged' })).toBe(false);
      expect(snapshot().can({ type: 'csv.export' })).toBe(false);
    },
    loading: () => {
      expect(listSnapshot().hasTag('loading')).toBe(true);
      const call = lastCall();
      expect(call.url.pathname).toBe('/api/gtoReport/summary');
      expect(Object.fromEntries(call.url.searchParams)).toEqual({
        client_id: '1',
        date: `${MONTH}-01`,
        filterOption: expected.filterOption,
        sortColumn: expected.sortColumn,
        orderByMethod: expected.orderByMethod,
        page: String(expected.page),
        rowsPerPage: '10',
      });
      expect(snapshot().can({ type: 'csv.export' })).toBe(false);
    },
    loaded: () => {
      expect(listSnapshot().matches('loaded')).toBe(true);
      expect(listSnapshot().context.rows).toEqual(answered);
      expect(listSnapshot().context.total).toBe(TOTAL);
      expect(snapshot().context.rows).toEqual(answered);
      expect(snapshot().context.thresholdPercent).toBe(THRESHOLD);
      expect(snapshot().context.filterOption).toBe(expected.filterOption);
      expect(snapshot().can({ type: 'csv.export' })).toBe(true);
    },
    empty: () => {
      expect(listSnapshot().matches('empty')).toBe(true);
      expect(listSnapshot().context.total).toBe(0);
      expect(snapshot().context.rows).toEqual([]);
      expect(snapshot().context.thresholdPercent).toBe(THRESHOLD);
      expect(snapshot().can({ type: 'csv.export' })).toBe(false);
    },
    failure: () => {
      // §8: an empty result with a count of 0, the toast, and a retry.
      expect(listSnapshot().matches('failure')).toBe(true);
      expect(listSnapshot().context.rows).toEqual([]);
      expect(listSnapshot().context.total).toBe(0);
      expect(snapshot().context.rows).toEqual([]);
      expect(notices.at(-1)).toEqual({ type: 'notify', intent: 'danger', message: ERROR_TEXT, timeout: 5000 });
      expect(list().getSnapshot().can({ type: 'list.retry' })).toBe(true);
      expect(snapshot().can({ type: 'csv.export' })).toBe(false);
    },
  },
  events: {
    header: async () => {
      actor.send(headerEvent(1));
      await flush();
    },
    answerRows: async () => {
      const from = (expected.page - 1) * 10;
      answered = Array.from({ length: Math.min(10, TOTAL - from) }, (_, index) => summaryRow(from + index + 1));
      lastCall().answer.resolve(json(200, { data: answered, total: TOTAL, threshold_percent: THRESHOLD }));
      await flush();
    },
    answerEmpty: async () => {
      lastCall().answer.resolve(json(200, { data: [], total: 0, threshold_percent: THRESHOLD }));
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
    filterFlagged: async () => {
      expected = { ...expected, filterOption: 'flagged', page: 1 };
      actor.send({ type: 'gto.filter', filterOption: 'flagged' });
      await flush();
    },
    sortVariance: async () => {
      // A new column sorts descending first.
      expected = { ...expected, sortColumn: 'variance_percent', orderByMethod: 'desc', page: 1 };
      list().send({ type: 'list.sort', column: 'variance_percent' });
      await flush();
    },
    nextPage: async () => {
      expected = { ...expected, page: expected.page + 1 };
      list().send({ type: 'list.page', page: expected.page });
      await flush();
    },
    export: async () => {
      const before = exports.length;
      actor.send({ type: 'csv.export' });
      await flush();
      expect(exports).toHaveLength(before + 1);
      expect(exports.at(-1)).toEqual({ month: MONTH, file: gtoReviewCsv(answered) });
    },
  },
};

describe('gtoReviewMachine (model)', () => {
  beforeEach(() => {
    expected = { filterOption: 'all', sortColumn: 'outlet_name', orderByMethod: 'asc', page: 1 };
    answered = [];
    start();
  });
  describeModelCoverage(model, params, {
    states: ['waiting', 'loading', 'loaded', 'empty', 'failure'],
    transitions: 11,
  });
});

/* ---------------------------------------------------------------- details */

describe('gtoReviewMachine details', () => {
  beforeEach(() => start());

  it('waits for a client, asks once per client and month, and refuses an unknown or the same filter', async () => {
    actor.send(headerEvent(undefined));
    await flush();
    expect(calls).toEqual([]);
    actor.send(headerEvent(1));
    await flush();
    expect(calls).toHaveLength(1);
    // A new today alone asks nothing again, but the links end at the new today.
    actor.send(headerEvent(1, '2026-11-26'));
    await flush();
    expect(calls).toHaveLength(1);
    expect(snapshot().context.today).toBe('2026-11-26');
    expect(snapshot().can({ type: 'gto.filter', filterOption: 'all' })).toBe(false);
    expect(snapshot().can({ type: 'gto.filter', filterOption: 'overdue' })).toBe(false);
    expect(snapshot().can({ type: 'gto.filter', filterOption: 'notSubmitted' })).toBe(true);
  });

  it('opened for an outlet (from a rent statement link), asks for that outlet and names it from its row', async () => {
    actor.stop();
    start({ outletId: 7 });
    actor.send(headerEvent(1));
    await flush();
    expect(lastCall().url.searchParams.get('outlet_id')).toBe('7');
    expect(snapshot().context.outlet).toEqual({ id: 7, name: '' });
    lastCall().answer.resolve(json(200, { data: [summaryRow(7)], total: 1, threshold_percent: 5 }));
    await flush();
    expect(snapshot().context.outlet).toEqual({ id: 7, name: 'Outlet 7' });
    // Another client drops it: the link named an outlet of the first.
    actor.send(headerEvent(2));
    await flush();
    expect(lastCall().url.searchParams.get('outlet_id')).toBeNull();
    expect(snapshot().context.outlet).toBeUndefined();
  });

  it('goes back to page 1 with the new filter, keeping the sort', async () => {
    actor.send(headerEvent(1));
    await flush();
    lastCall().answer.resolve(json(200, { data: [summaryRow(1)], total: TOTAL, threshold_percent: 5 }));
    await flush();
    list().send({ type: 'list.page', page: 2 });
    await flush();
    lastCall().answer.resolve(json(200, { data: [summaryRow(11)], total: TOTAL, threshold_percent: 5 }));
    await flush();
    list().send({ type: 'list.sort', column: 'gto_amount' });
    await flush();
    actor.send({ type: 'gto.filter', filterOption: 'notSubmitted' });
    await flush();
    expect(Object.fromEntries(lastCall().url.searchParams)).toMatchObject({
      filterOption: 'notSubmitted',
      sortColumn: 'gto_amount',
      orderByMethod: 'desc',
      page: '1',
    });
  });

  it('toasts when the export fails', async () => {
    actor.stop();
    const failing = testMachine.provide({
      actors: {
        exportCsv: fromPromise<void, GtoCsvInput>(async () => {
          throw new Error('no disk');
        }),
      },
    });
    const other = createActor(failing, { input: {} });
    const told: Notice[] = [];
    other.on('notify', (notice) => told.push(notice));
    other.start();
    other.send(headerEvent(1));
    await flush();
    lastCall().answer.resolve(json(200, { data: [summaryRow(1)], total: 1, threshold_percent: 5 }));
    await flush();
    other.send({ type: 'csv.export' });
    await flush();
    expect(told.map((notice) => notice.message)).toEqual(['GTO summary export error occurs. Please try again later.']);
    other.stop();
    start();
  });
});
