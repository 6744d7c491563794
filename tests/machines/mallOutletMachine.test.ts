import { createTestModel, type TestParam } from '@xstate/test';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type Actor, createActor, fromCallback, fromPromise, type SnapshotFrom, setup } from 'xstate';
import { createApiClient } from '../../src/api/client';
import { clearSession, setPermissionsList } from '../../src/api/session';
import type { CsvFile } from '../../src/domain/csv';
import type { CommittedFilters } from '../../src/domain/filterHeader';
import type { Notice } from '../../src/domain/messages';
import {
  createMallOutletPageMachine,
  createMallOutletReportMachine,
  type HeaderOutletsEvent,
  type OutletsStatus,
} from '../../src/machines/mallOutletMachine';
import { installPendingFetch, jsonResponse, type PendingCall } from '../support/pendingFetch';
import { childOf } from './childOf';
import { describeModelCoverage } from './modelCoverage';

/*
 * Model-based test of the mall outlet page: the page machine finds the outlet of its path (12, Kopi Corner of
 * Central, mall 1) among the header's outlets of client 1, and its report (a query page) loads the outlet's KPIs,
 * days and peers with the app's api wrappers on a client whose network the test answers. Today is Wednesday 11 March
 * 2026; the header's range is 5–11 March, so the KPIs' growth compares 5–10 March (today left out) with the server's
 * previous period. An id that is not one of the user's outlets asks nothing (the server would refuse it, 403).
 */

const TODAY = '2026-03-11';
const ERROR_TEXT = 'Mall outlet error occurs. Please try again later.';
const MALLS = [
  { id: 1, name: 'Central', currency: 'SGD' },
  { id: 2, name: 'East', currency: 'SGD' },
];
const KOPI = { id: 12, name: 'Kopi Corner', mall_id: 1, currency: 'SGD' };
const OUTLETS = [KOPI, { id: 13, name: 'Tea Time', mall_id: 1, currency: 'SGD' }];

let calls: PendingCall[];

function installNetwork(): void {
  calls = installPendingFetch();
}

const json = jsonResponse;

const client = createApiClient((request) => globalThis.fetch(request), { baseUrl: 'http://outlet.test' });

let exports: { base: string; suffix: string; files: readonly CsvFile[] }[];

const reportMachine = createMallOutletReportMachine(client).provide({
  actors: {
    lockHeader: fromCallback(() => () => undefined),
    exportFiles: fromPromise<void, { base: string; suffix: string; files: readonly CsvFile[] }>(async ({ input }) => {
      exports.push(input);
    }),
  },
});
const testMachine = createMallOutletPageMachine(client).provide({
  actors: { followHeaderOutlets: fromCallback(() => undefined), report: reportMachine },
});

function headerEvent(
  status: OutletsStatus,
  outlets: HeaderOutletsEvent['outlets'],
  range = { start: '2026-03-05', end: TODAY },
): HeaderOutletsEvent {
  const filters: CommittedFilters = {
    clientId: 1,
    mallIds: [1, 2],
    outlet: undefined,
    dateRange: range,
    hours: { from: 0, to: 23 },
    timeRange: 'daily',
    metric: 'gmv',
    month: undefined,
  };
  return { type: 'header.outlets', filters, malls: MALLS, outlets, outletsStatus: status, today: TODAY };
}

/* ---------------------------------------------------------------- the server's answers */

const measures = (gmv: number, transactions: number) => ({
  gmv,
  transactions,
  average_transaction_value: transactions === 0 ? 0 : Math.round((gmv / transactions) * 100) / 100,
});

/** The whole range 5–11 March; its complete days 5–10 March, each against the server's previous period. */
function comparison(end: string) {
  const whole = end === TODAY;
  return {
    outlet: { id: 12, name: 'Kopi Corner' },
    current: whole ? measures(1000, 40) : measures(900, 36),
    previous: whole ? measures(700, 35) : measures(800, 40),
    previous_start_time: '2026-02-26',
    previous_end_time: whole ? '2026-03-04' : '2026-03-03',
  };
}

const DAYS = ['2026-03-05', '2026-03-06', '2026-03-07', '2026-03-08', '2026-03-09', '2026-03-10', '2026-03-11'];
const PEER = {
  category: 'F&B',
  mall_id: 1,
  mall_name: 'Central',
  category_outlets: 12,
};
const PEERS = [
  { ...PEER, outlet_id: 30, outlet_name: 'Laksa Place', level: 'L2', rank: 1, ...measures(3000, 60) },
  { ...PEER, outlet_id: 13, outlet_name: 'Tea Time', level: 'L1', rank: 2, ...measures(1500, 50) },
  // The page's outlet comes after the limit's rows: its rank is past them.
  { ...PEER, outlet_id: 12, outlet_name: 'Kopi Corner', level: 'L1', rank: 11, ...measures(1000, 40) },
];
const LEVELS = [
  { level: 'L2', ...measures(6000, 100) },
  { level: 'L1', ...measures(4000, 160) },
];

function answerOf(url: URL, nothing: boolean): unknown {
  switch (url.pathname) {
    case '/api/mall_report/outlet/overallComparison':
      return comparison(url.searchParams.get('end_time') ?? '');
    case '/api/mall_report/outlet/daily':
      return {
        data: DAYS.map((date, index) => ({ date, ...(nothing ? measures(0, 0) : measures(100 * index, index)) })),
      };
    case '/api/mall_report/category/outlet':
      return { data: PEERS };
    case '/api/mall_report/level':
      return { data: LEVELS };
    default:
      throw new Error(`unexpected call ${url.pathname}`);
  }
}

const pending = () => calls.filter((call) => !call.settled);

async function answerAll(options: { nothing?: boolean; failing?: string } = {}): Promise<void> {
  for (const call of pending()) {
    call.settled = true;
    call.answer.resolve(
      call.url.pathname === options.failing
        ? json(500, { statusCode: 500, error: 'Internal Server Error', message: 'boom' })
        : json(200, answerOf(call.url, options.nothing === true)),
    );
  }
  await flush();
}

/* ---------------------------------------------------------------- the actor */

let actor: Actor<typeof testMachine>;
let notices: Notice[];
const report = () => childOf(actor.getSnapshot(), 'report');
const panels = () => report().getSnapshot().context.panels;

function start(input: { outletId: number | undefined } = { outletId: 12 }): void {
  installNetwork();
  setPermissionsList(['*::*']);
  notices = [];
  exports = [];
  actor = createActor(testMachine, { input }).start();
  report().on('notify', (notice) => notices.push(notice));
}

afterEach(() => {
  actor.stop();
  vi.unstubAllGlobals();
  clearSession();
});

const flush = async () => {
  for (let turn = 0; turn < 5; turn++) await new Promise((resolve) => setTimeout(resolve, 0));
};

/** The calls since `from`, as 'path start..end' (and the peers' outlet and mall), sorted. */
function described(from: number): string[] {
  return calls
    .slice(from)
    .map((call) => {
      const query = call.url.searchParams;
      const scope = query.has('outlet_id') ? ` outlet ${query.get('outlet_id')}` : '';
      const malls = query.has('mall_ids') ? ` malls ${query.getAll('mall_ids').join(',')}` : '';
      return `${call.url.pathname} ${query.get('start_time')}..${query.get('end_time')}${scope}${malls}`;
    })
    .sort();
}

/* ---------------------------------------------------------------- the model */

type ModelEvent = {
  type:
    | 'outletsKnown'
    | 'outletsWithout'
    | 'answer'
    | 'answerNoSales'
    | 'failDaily'
    | 'retry'
    | 'otherRange'
    | 'export';
};

const model = createTestModel(
  setup({ types: { events: {} as ModelEvent } }).createMachine({
    id: 'mallOutletModel',
    initial: 'waiting',
    states: {
      /** The header's outlets of the client are still loading. */
      waiting: { on: { outletsKnown: 'loading', outletsWithout: 'unknown' } },
      unknown: {},
      loading: { on: { answer: 'loaded', answerNoSales: 'noSales', failDaily: 'dailyFailed' } },
      loaded: { on: { export: 'loaded', otherRange: 'loading' } },
      noSales: { on: { otherRange: 'loading' } },
      dailyFailed: { on: { retry: 'loaded' } },
    },
  }),
);

type ModelSnapshot = SnapshotFrom<typeof model.logic>;
let range: { start: string; end: string };
let before: number;

const loadedKpisAndPeers = () => {
  const { kpis, placement } = panels();
  // The whole range's figures; the growth over 5–10 March against the server's previous period.
  expect(kpis).toEqual({
    status: 'loaded',
    data: {
      gmv: { current: 1000, growth: { current: 900, previous: 800 } },
      transactions: { current: 40, growth: { current: 36, previous: 40 } },
      averageTransactionValue: { current: 25, growth: { current: 25, previous: 20 } },
      noData: false,
      comparison: {
        current: { start: '2026-03-05', end: '2026-03-10' },
        previous: { start: '2026-02-26', end: '2026-03-03' },
        todayLeftOut: true,
      },
    },
  });
  expect(placement.status).toBe('loaded');
  expect(placement.data).toMatchObject({
    category: 'F&B',
    rank: 11,
    categoryOutlets: 12,
    mallName: 'Central',
    // L1: 4000; the outlet's 1000 of it.
    level: { name: 'L1', gmv: 4000, transactions: 160, share: 0.25 },
  });
  expect(placement.data?.peers.map((row) => [row.outlet_id, row.current])).toEqual([
    [30, false],
    [13, false],
    [12, true],
  ]);
};

const params: TestParam<ModelSnapshot, ModelEvent> = {
  states: {
    waiting: () => {
      expect(actor.getSnapshot().value).toBe('waiting');
      expect(calls).toEqual([]);
    },
    unknown: () => {
      expect(actor.getSnapshot().value).toBe('unknown');
      // Nothing is asked about an outlet the user does not see.
      expect(calls).toEqual([]);
      expect(panels().kpis.status).toBe('idle');
    },
    loading: () => {
      expect(actor.getSnapshot().value).toBe('shown');
      expect(actor.getSnapshot().context.outlet).toEqual(KOPI);
      expect(report().getSnapshot().hasTag('loading')).toBe(true);
      const complete =
        range.end === TODAY ? ['/api/mall_report/outlet/overallComparison 2026-03-05..2026-03-10 outlet 12'] : [];
      expect(described(before)).toEqual(
        [
          `/api/mall_report/category/outlet ${range.start}..${range.end} outlet 12 malls 1`,
          `/api/mall_report/level ${range.start}..${range.end} malls 1`,
          `/api/mall_report/outlet/daily ${range.start}..${range.end} outlet 12`,
          `/api/mall_report/outlet/overallComparison ${range.start}..${range.end} outlet 12`,
          ...complete,
        ].sort(),
      );
      expect(report().getSnapshot().can({ type: 'report.export', base: 'mall_outlet_12', files: [] })).toBe(false);
    },
    loaded: () => {
      expect(report().getSnapshot().hasTag('loading')).toBe(false);
      if (range.end === TODAY) loadedKpisAndPeers();
      else expect(panels().kpis.data?.comparison?.todayLeftOut).toBe(false);
      expect(panels().daily.status).toBe('loaded');
      expect(panels().daily.data).toHaveLength(7);
      expect(report().getSnapshot().can({ type: 'report.export', base: 'mall_outlet_12', files: [] })).toBe(true);
    },
    noSales: () => {
      expect(panels().daily.status).toBe('empty');
      expect(panels().kpis.status).toBe('loaded');
      expect(panels().placement.status).toBe('loaded');
    },
    dailyFailed: () => {
      expect(panels().daily).toEqual({ status: 'failed', data: undefined });
      // The other panels keep their figures.
      loadedKpisAndPeers();
      expect(notices.at(-1)).toEqual({ type: 'notify', intent: 'danger', message: ERROR_TEXT, timeout: 5000 });
    },
  },
  events: {
    outletsKnown: async () => {
      actor.send(headerEvent('loaded', OUTLETS, range));
      await flush();
    },
    outletsWithout: async () => {
      actor.send(
        headerEvent(
          'loaded',
          OUTLETS.filter((outlet) => outlet.id !== 12),
          range,
        ),
      );
      await flush();
    },
    answer: () => answerAll(),
    answerNoSales: () => answerAll({ nothing: true }),
    failDaily: () => answerAll({ failing: '/api/mall_report/outlet/daily' }),
    retry: async () => {
      before = calls.length;
      report().send({ type: 'report.retry', panel: 'daily' });
      await flush();
      // Only the failed panel is asked again.
      expect(described(before)).toEqual([`/api/mall_report/outlet/daily ${range.start}..${range.end} outlet 12`]);
      await answerAll();
    },
    otherRange: async () => {
      before = calls.length;
      range = range.end === TODAY ? { start: '2026-02-23', end: '2026-03-01' } : { start: '2026-03-05', end: TODAY };
      actor.send(headerEvent('loaded', OUTLETS, range));
      await flush();
    },
    export: async () => {
      const file = { name: 'daily', keys: ['date'], rows: [] };
      report().send({ type: 'report.export', base: 'mall_outlet_12', files: [file] });
      await flush();
      expect(exports.at(-1)).toEqual({
        base: 'mall_outlet_12',
        suffix: `${range.start}_${range.end}`,
        files: [file],
      });
    },
  },
};

describe('mallOutletPageMachine (model)', () => {
  beforeEach(() => {
    range = { start: '2026-03-05', end: TODAY };
    before = 0;
    start();
    actor.send(headerEvent('loading', [], range));
  });
  describeModelCoverage(model, params, {
    states: ['waiting', 'unknown', 'loading', 'loaded', 'noSales', 'dailyFailed'],
    transitions: 9,
  });
});

/* ---------------------------------------------------------------- details */

describe('mallOutletPageMachine details', () => {
  it('asks nothing for a path id that is not an id, and says when the outlets could not be loaded', async () => {
    start({ outletId: undefined });
    actor.send(headerEvent('loaded', OUTLETS));
    await flush();
    expect(actor.getSnapshot().value).toBe('unknown');
    actor.stop();
    start();
    actor.send(headerEvent('failed', []));
    await flush();
    expect(actor.getSnapshot().value).toBe('failed');
    expect(calls).toEqual([]);
  });

  it('waits while another client’s outlets load, and asks again only for a new query', async () => {
    start();
    actor.send(headerEvent('loaded', OUTLETS));
    await flush();
    await answerAll();
    const asked = calls.length;
    actor.send(headerEvent('loading', []));
    await flush();
    expect(actor.getSnapshot().value).toBe('waiting');
    actor.send(headerEvent('loaded', OUTLETS));
    await flush();
    // The same outlet and range: the figures shown stay.
    expect(actor.getSnapshot().value).toBe('shown');
    expect(calls).toHaveLength(asked);
    expect(panels().daily.status).toBe('loaded');
  });

  it('compares a range that ends before today whole, with one comparison call', async () => {
    start();
    actor.send(headerEvent('loaded', OUTLETS, { start: '2026-02-23', end: '2026-03-01' }));
    await flush();
    expect(calls.filter((call) => call.url.pathname.endsWith('/overallComparison'))).toHaveLength(1);
    await answerAll();
    expect(panels().kpis.data?.comparison).toEqual({
      current: { start: '2026-02-23', end: '2026-03-01' },
      previous: { start: '2026-02-26', end: '2026-03-03' },
      todayLeftOut: false,
    });
  });
});
