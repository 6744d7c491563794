import { createTestModel, type TestParam } from '@xstate/test';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type Actor, createActor, fromPromise, type SnapshotFrom, setup } from 'xstate';
import { createApiClient } from '../../src/api/client';
import { clearSession, setPermissionsList } from '../../src/api/session';
import type { CsvFile } from '../../src/domain/csv';
import type { CommittedFilters } from '../../src/domain/filterHeader';
import type { Notice } from '../../src/domain/messages';
import {
  DEFAULT_ITEM_BUCKET,
  DEFAULT_TREND_TIME_RANGE,
  type RankedSku,
  TOP_SKU_EXPORT_PAGE_SIZE,
  trendCsv,
} from '../../src/domain/salesAnalysis';
import type { HeaderFiltersEvent } from '../../src/machines/headerLink';
import {
  createSalesAnalysisMachine,
  createSalesAnalysisReports,
} from '../../src/machines/tenantConnect/salesAnalysisMachine';
import {
  createTopSkusMachine,
  loadAllTopSkus,
  SKU_SEARCH_DELAY,
  type TopSkuFilters,
} from '../../src/machines/tenantConnect/topSkusMachine';
import { installPendingFetch, jsonResponse, type PendingCall } from '../support/pendingFetch';
import { childOf } from './childOf';
import { fakeNavigation, type NavigationRequest } from './fakeNavigation';
import { describeModelCoverage } from './modelCoverage';

/*
 * Model-based test of the sales analysis (a page machine telling its reports, query pages, and its top SKUs, a
 * paged list with a search, their queries) with the app's api wrappers on a client whose network the test answers.
 * Client 4, outlet 20 and then 21, the header's days 2026-11-19..2026-11-25, today the 25th. Nothing is asked
 * before one outlet is chosen; every section is asked at once; a failed call fails its own panel with the toast and
 * a retry (§8); a 409 (outlets of several currencies) fails the money panels with the server's message; a change of
 * the series' time range or the items' bucket asks that section alone; the comparison and the measure ask nothing.
 * The days include today, so each KPI panel asks the whole range's totals and, apart, the growth of its complete
 * days (19–24 Nov) against the 6 days before them or the same dates a year before.
 */

const RANGE = { start: '2026-11-19', end: '2026-11-25' };
const TODAY = '2026-11-25';
const ERROR_TEXT = 'Sales analysis error occurs. Please try again later.';
const MIXED = 'The selected outlets use more than one currency (IDR, SGD): choose outlets of one currency.';

let calls: PendingCall[];
const json = jsonResponse;
const client = createApiClient((request) => globalThis.fetch(request), { baseUrl: 'http://analysis.test' });

/* ---------------------------------------------------------------- the server's answers */

const DAYS = ['2026-11-19', '2026-11-20', '2026-11-21', '2026-11-22', '2026-11-23', '2026-11-24', '2026-11-25'];
const DAY_REVENUE = [150.5, 0, 200, 300, 250, 400, 200];
const DAY_TRANSACTIONS = [3, 0, 4, 6, 5, 8, 4];
const DAY_UNITS = [5, 0, 6, 9, 7, 12, 6];
const sum = (values: readonly number[]) => values.reduce((total, value) => total + value, 0);

const CURRENT = { revenue: 1500.5, transactions: 30, unit_sales: 45, average_transaction_value: 50.02 };
/** 19–24 Nov: the complete days of the range (today, the 25th, left out). */
const COMPLETE = { revenue: 1300.5, transactions: 26, unit_sales: 39, average_transaction_value: 50.02 };
const PREVIOUS = { revenue: 1000, transactions: 25, unit_sales: 40, average_transaction_value: 40 };
const ZEROS = { revenue: 0, transactions: 0, unit_sales: 0, average_transaction_value: 0 };

const MEALS = [
  { meal_timing_id: 1, name: 'Lunch', start_time: '11:00', end_time: '14:30', revenue: 600, transactions: 12 },
  { meal_timing_id: 2, name: 'Dinner', start_time: '18:00', end_time: '21:00', revenue: 450.25, transactions: 9 },
];

/** 25 SKUs, the best-selling first: quantity 100, 97, …; amount quantity × 2.5. */
const SKUS = Array.from({ length: 25 }, (_, index) => ({
  sku_id: 100 + index,
  barcode: index % 5 === 0 ? null : `89910${index}`,
  item_name: `Item ${String.fromCharCode(65 + ((index * 7) % 26))}`,
  quantity: 100 - index * 3,
  unit_price: 2.5,
  amount: (100 - index * 3) * 2.5,
}));

type Mode = 'figures' | 'nothing' | 'failTrend' | 'refuse' | 'failPreviousGrowth';

function seriesOf(values: readonly number[], timeRange: string, mode: Mode) {
  if (mode === 'nothing') return { data: [], total: 0 };
  if (timeRange === 'monthly') return { data: [{ key: '2026-11', value: sum(values) }], total: sum(values) };
  const key = (day: string) => (timeRange === 'hourly' ? `${day} 12:00` : day);
  return { data: DAYS.map((day, index) => ({ key: key(day), value: values[index] ?? 0 })), total: sum(values) };
}

function itemsOf(bucket: string) {
  const keys = bucket === 'weekly' ? ['2026-11-16', '2026-11-23'] : ['2026-11-24', '2026-11-25'];
  return keys.flatMap((key) => [
    { key, sku_id: 100, item_name: 'Item A', quantity: 10, amount: 25 },
    { key, sku_id: 101, item_name: 'Item H', quantity: 4, amount: 10 },
  ]);
}

function topSkusOf(url: URL, mode: Mode) {
  if (mode === 'nothing') return { data: [], total: { rows_total: 0, max_quantity: 0, max_revenue: 0 } };
  const skuId = url.searchParams.get('sku_id');
  const ranked = url.searchParams.get('orderByMethod') === 'asc' ? [...SKUS].reverse() : SKUS;
  const rows = skuId === null ? ranked : ranked.filter((row) => String(row.sku_id) === skuId);
  const page = Number(url.searchParams.get('page') ?? 1);
  const size = Number(url.searchParams.get('rowsPerPage') ?? 10);
  return {
    data: rows.slice((page - 1) * size, page * size),
    total: { rows_total: rows.length, max_quantity: 100, max_revenue: 250 },
  };
}

/** The answer of a call: status and body. */
function answerOf(url: URL, mode: Mode): { status: number; body: unknown } {
  const timeRange = url.searchParams.get('timeRange') ?? 'daily';
  const refusable = [
    '/outlets/overallComparison',
    '/outlets/totalRevenuePoints',
    '/outlets/mealTimingReport',
    '/outlets/itemSalesBreakdown',
    '/outlets/topSKU',
  ];
  if (mode === 'refuse' && refusable.includes(url.pathname)) {
    return { status: 409, body: { statusCode: 409, error: 'Conflict', message: MIXED } };
  }
  if (mode === 'failTrend' && url.pathname === '/outlets/totalTransactionPoints') {
    return { status: 500, body: { statusCode: 500, error: 'Internal Server Error', message: 'boom' } };
  }
  // The previous period's growth call (the complete days against the days before them) alone.
  if (
    mode === 'failPreviousGrowth' &&
    url.pathname === '/outlets/overallComparison' &&
    url.searchParams.get('comparedStartTime') === '2026-11-13'
  ) {
    return { status: 500, body: { statusCode: 500, error: 'Internal Server Error', message: 'boom' } };
  }
  switch (url.pathname) {
    case '/outlets/overallComparison': {
      if (mode === 'nothing') return { status: 200, body: { current: ZEROS, compared: ZEROS } };
      // The days before (2026-11-12 for the whole range, 2026-11-13 for its complete days): PREVIOUS; last year none.
      const compared = url.searchParams.get('comparedStartTime')?.startsWith('2026-') ? PREVIOUS : ZEROS;
      const complete =
        url.searchParams.get('startTime') === '2026-11-19' && url.searchParams.get('endTime') === '2026-11-24';
      return { status: 200, body: { current: complete ? COMPLETE : CURRENT, compared } };
    }
    case '/outlets/totalRevenuePoints':
      return { status: 200, body: seriesOf(DAY_REVENUE, timeRange, mode) };
    case '/outlets/totalTransactionPoints':
      return { status: 200, body: seriesOf(DAY_TRANSACTIONS, timeRange, mode) };
    case '/outlets/totalUnitSalePoints':
      return { status: 200, body: seriesOf(DAY_UNITS, timeRange, mode) };
    case '/outlets/mealTimingReport':
      return { status: 200, body: { data: mode === 'nothing' ? [] : MEALS } };
    case '/outlets/itemSalesBreakdown':
      return { status: 200, body: { data: mode === 'nothing' ? [] : itemsOf(timeRange) } };
    case '/outlets/topSKU':
      return { status: 200, body: topSkusOf(url, mode) };
    case '/outlets/sku': {
      const text = (url.searchParams.get('searchText') ?? '').toLowerCase();
      const found = SKUS.filter((row) => row.item_name.toLowerCase().includes(text)).map((row) => ({
        id: row.sku_id,
        barcode: row.barcode,
        item_name: row.item_name,
      }));
      return { status: 200, body: found };
    }
    default:
      return { status: 404, body: { statusCode: 404, error: 'Not Found', message: 'not found' } };
  }
}

const pending = () => calls.filter((call) => !call.settled);

async function answerAll(mode: Mode = 'figures'): Promise<void> {
  // Answers coming in ask more (a list past its last page): answer until nothing is left.
  for (let round = 0; round < 5 && pending().length > 0; round += 1) {
    for (const call of pending()) {
      call.settled = true;
      const { status, body } = answerOf(call.url, mode);
      call.answer.resolve(json(status, body));
    }
    await flush();
  }
}

const flush = async () => {
  for (let turn = 0; turn < 5; turn++) await new Promise((resolve) => setTimeout(resolve, 0));
};

/**
 * A call as 'path timeRange comparedStartTime' with its common parameters checked: the range's days, or (the KPIs'
 * growth of a range reaching today) its start to an earlier end, then written 'endTime=…'.
 */
function describeCall(call: PendingCall, outlet: number, range = RANGE): string {
  const params = Object.fromEntries(call.url.searchParams);
  expect(params).toMatchObject({ client_id: '4', id: String(outlet) });
  const earlierEnd = call.url.pathname === '/outlets/overallComparison' && params.endTime !== range.end;
  if (call.url.pathname !== '/outlets/sku') {
    expect(params).toMatchObject({ startTime: range.start, timeType: 'date' });
    if (earlierEnd) expect((params.endTime ?? '') < range.end).toBe(true);
    else expect(params.endTime).toBe(range.end);
  }
  const extra = [
    ...(earlierEnd ? ['endTime'] : []),
    'timeRange',
    'comparedStartTime',
    'comparedEndTime',
    'compare',
    'sortMethod',
    'orderByMethod',
    'page',
    'rowsPerPage',
    'sku_id',
  ]
    .filter((key) => params[key] !== undefined)
    .map((key) => `${key}=${params[key]}`);
  return [call.url.pathname, ...extra].join(' ');
}

const asked = (since: number, outlet: number, range = RANGE) =>
  calls
    .slice(since)
    .map((call) => describeCall(call, outlet, range))
    .sort();

/**
 * The KPIs' calls of 19–25 Nov, today the 25th: each comparison's whole range, and its complete days apart (the
 * festival-aligned ones name the same weekdays last year; the server chooses the festival days).
 */
const KPI_CALLS_WITH_TODAY = [
  '/outlets/overallComparison comparedStartTime=2025-11-20 comparedEndTime=2025-11-26',
  '/outlets/overallComparison comparedStartTime=2025-11-20 comparedEndTime=2025-11-26 compare=festival_aligned',
  '/outlets/overallComparison comparedStartTime=2026-11-12 comparedEndTime=2026-11-18',
  '/outlets/overallComparison endTime=2026-11-24 comparedStartTime=2025-11-20 comparedEndTime=2025-11-25',
  '/outlets/overallComparison endTime=2026-11-24 comparedStartTime=2025-11-20 comparedEndTime=2025-11-25 compare=festival_aligned',
  '/outlets/overallComparison endTime=2026-11-24 comparedStartTime=2026-11-13 comparedEndTime=2026-11-18',
];

const TOP_SKU_PAGE_1 = '/outlets/topSKU sortMethod=quantity orderByMethod=desc page=1 rowsPerPage=10';

function everyCall(timeRange: string, bucket: string): string[] {
  return [
    `/outlets/itemSalesBreakdown timeRange=${bucket}`,
    '/outlets/mealTimingReport',
    ...KPI_CALLS_WITH_TODAY,
    TOP_SKU_PAGE_1,
    `/outlets/totalRevenuePoints timeRange=${timeRange}`,
    '/outlets/totalRevenuePoints timeRange=monthly',
    `/outlets/totalTransactionPoints timeRange=${timeRange}`,
    `/outlets/totalUnitSalePoints timeRange=${timeRange}`,
  ].sort();
}

const trendCalls = (timeRange: string) =>
  [
    `/outlets/totalRevenuePoints timeRange=${timeRange}`,
    `/outlets/totalTransactionPoints timeRange=${timeRange}`,
    `/outlets/totalUnitSalePoints timeRange=${timeRange}`,
  ].sort();

/* ---------------------------------------------------------------- the actor */

let exports: { base: string; suffix: string; files: readonly CsvFile[] }[];
let skuExports: { filters: TopSkuFilters; rows: RankedSku[]; currency: string | undefined }[];

const captureExport = fromPromise<void, { base: string; suffix: string; files: readonly CsvFile[] }>(
  async ({ input }) => {
    exports.push(input);
  },
);
const reports = createSalesAnalysisReports(client);
const testMachine = createSalesAnalysisMachine(client).provide({
  actors: {
    kpis: reports.kpis.provide({ actors: { exportFiles: captureExport } }),
    trend: reports.trend.provide({ actors: { exportFiles: captureExport } }),
    meals: reports.meals.provide({ actors: { exportFiles: captureExport } }),
    items: reports.items.provide({ actors: { exportFiles: captureExport } }),
    topSkus: createTopSkusMachine(client).provide({
      actors: {
        exportSkus: fromPromise(async ({ input }) => {
          const rows = await loadAllTopSkus(input.filters, input.sort, { client });
          skuExports.push({ filters: input.filters, rows, currency: input.currency });
        }),
      },
    }),
  },
});

function headerEvent(outlet: CommittedFilters['outlet'], dateRange = RANGE, today = TODAY): HeaderFiltersEvent {
  const filters: CommittedFilters = {
    clientId: 4,
    mallIds: [5],
    outlet,
    dateRange,
    hours: { from: 0, to: 23 },
    timeRange: 'daily',
    metric: 'gmv',
    month: '2026-11',
  };
  return { type: 'header.filters', filters, outlets: [], today };
}

let actor: Actor<typeof testMachine>;
let notices: Notice[];
const snapshot = () => actor.getSnapshot();
const child = <K extends 'kpis' | 'trend' | 'meals' | 'items' | 'topSkus'>(id: K) => {
  const ref = snapshot().children[id];
  if (!ref) throw new Error(`no ${id}`);
  return ref;
};
const kpis = () => child('kpis').getSnapshot().context.panels;
const trendPanel = () => child('trend').getSnapshot().context.panels.trend;
const mealsPanel = () => child('meals').getSnapshot().context.panels.meals;
const itemsPanel = () => child('items').getSnapshot().context.panels.items;
const topSkus = () => child('topSkus');
const list = () => {
  const ref = topSkus().getSnapshot().children.list;
  if (!ref) throw new Error('no list');
  return ref;
};
const search = () => {
  const ref = topSkus().getSnapshot().children.search;
  if (!ref) throw new Error('no search');
  return ref;
};

function start(): void {
  calls = installPendingFetch();
  setPermissionsList(['*::*']);
  notices = [];
  exports = [];
  skuExports = [];
  actor = createActor(testMachine);
  actor.start();
  for (const id of ['kpis', 'trend', 'meals', 'items', 'topSkus'] as const) {
    child(id).on('notify', (notice: Notice) => notices.push(notice));
  }
  list().on('notify', (notice) => notices.push(notice));
  search().on('notify', (notice) => notices.push(notice));
}

afterEach(() => {
  actor.stop();
  vi.unstubAllGlobals();
  clearSession();
});

/* ---------------------------------------------------------------- the model */

type ModelEvent = {
  type:
    | 'chooseOutlet'
    | 'answer'
    | 'answerNothing'
    | 'failTrend'
    | 'refuse'
    | 'retry'
    | 'hourly'
    | 'weekly'
    | 'compareLastYear'
    | 'measureUnits'
    | 'export'
    | 'otherOutlet';
};

const model = createTestModel(
  setup({ types: { events: {} as ModelEvent } }).createMachine({
    id: 'salesAnalysisModel',
    initial: 'waiting',
    states: {
      /** The header has no single outlet yet. */
      waiting: { on: { chooseOutlet: 'loading' } },
      /** Every section loads. */
      loading: { on: { answer: 'loaded', answerNothing: 'empty', failTrend: 'trendFailed', refuse: 'refused' } },
      loaded: {
        on: {
          hourly: 'trendLoading',
          weekly: 'itemsLoading',
          compareLastYear: 'loaded',
          measureUnits: 'loaded',
          export: 'loaded',
          otherOutlet: 'loading',
        },
      },
      /** The series alone loads again (its time range, or its retry). */
      trendLoading: { on: { answer: 'loaded' } },
      /** The item breakdown alone loads again (its bucket). */
      itemsLoading: { on: { answer: 'loaded' } },
      /** Nothing sold, no meal timing configured. */
      empty: { on: { otherOutlet: 'loading' } },
      /** The series' call failed: its panel alone. */
      trendFailed: { on: { retry: 'trendLoading' } },
      /** 409: the money panels fail with the server's message. */
      refused: { on: { otherOutlet: 'loading' } },
    },
  }),
);

type ModelSnapshot = SnapshotFrom<typeof model.logic>;
let outlet: number;
let timeRange: 'daily' | 'hourly';
let bucket: 'daily' | 'weekly';
let comparison: 'previous' | 'lastYear';
let measure: 'revenue' | 'units';
/** Calls made before the current load. */
let before: number;

const COMPLETE_DAYS = { start: '2026-11-19', end: '2026-11-24' };
const PREVIOUS_KPIS = {
  totals: CURRENT,
  growth: { current: COMPLETE, compared: PREVIOUS },
  comparison: {
    current: COMPLETE_DAYS,
    previous: { start: '2026-11-13', end: '2026-11-18' },
    todayLeftOut: true,
    rule: 'previous',
    nothingToCompare: false,
  },
};
const LAST_YEAR_KPIS = {
  totals: CURRENT,
  growth: { current: COMPLETE, compared: ZEROS },
  // The same weekdays last year (364 days back), which hold no sale: nothing to compare.
  comparison: {
    current: COMPLETE_DAYS,
    previous: { start: '2025-11-20', end: '2025-11-25' },
    todayLeftOut: true,
    rule: 'same_weekday_last_year',
    nothingToCompare: true,
  },
};

const failedWith = (reason?: string) => ({
  status: 'failed',
  data: undefined,
  ...(reason === undefined ? {} : { reason, byCurrency: [] }),
});

function expectOthersLoaded(): void {
  expect(kpis().previous.status).toBe('loaded');
  expect(kpis().lastYear.status).toBe('loaded');
  expect(mealsPanel().status).toBe('loaded');
  expect(list().getSnapshot().matches('loaded')).toBe(true);
}

const params: TestParam<ModelSnapshot, ModelEvent> = {
  states: {
    waiting: () => {
      expect(calls).toEqual([]);
      expect(snapshot().value).toBe('waiting');
      expect(snapshot().context.query).toBeUndefined();
      expect(trendPanel().status).toBe('idle');
      expect(topSkus().getSnapshot().value).toBe('idle');
    },
    loading: () => {
      expect(snapshot().value).toBe('shown');
      expect(snapshot().context.query?.outletId).toBe(outlet);
      expect(asked(before, outlet)).toEqual(everyCall(timeRange, bucket));
      expect(kpis().previous).toEqual({ status: 'loading', data: undefined });
      expect(kpis().lastYear).toEqual({ status: 'loading', data: undefined });
      expect(trendPanel()).toEqual({ status: 'loading', data: undefined });
      expect(mealsPanel()).toEqual({ status: 'loading', data: undefined });
      expect(itemsPanel()).toEqual({ status: 'loading', data: undefined });
      expect(list().getSnapshot().hasTag('loading')).toBe(true);
      expect(child('trend').getSnapshot().can({ type: 'report.export', base: 'x', files: [] })).toBe(false);
    },
    loaded: () => {
      const context = snapshot().context;
      expect(context).toMatchObject({ comparison, measure, timeRange, bucket });
      // The whole range's totals; the growth of 19–24 Nov against the 6 days before, or the same dates last year.
      expect(kpis().previous).toEqual({ status: 'loaded', data: PREVIOUS_KPIS });
      expect(kpis().lastYear).toEqual({ status: 'loaded', data: LAST_YEAR_KPIS });
      const trend = trendPanel();
      expect(trend.status).toBe('loaded');
      expect(trend.data?.timeRange).toBe(timeRange);
      expect(trend.data?.rows).toHaveLength(timeRange === 'hourly' ? 7 * 24 : 7);
      expect(trend.data?.totals).toEqual({ revenue: 1500.5, transactions: 30, units: 45 });
      // Today's bucket is so far.
      expect(trend.data?.rows.at(-1)?.label).toBe(timeRange === 'hourly' ? '25/11 23:00 (today)' : '25/11 (so far)');
      expect(mealsPanel().data?.revenueTotal).toBe(1500.5);
      expect(mealsPanel().data?.rows.map((row) => [row.name, row.time, row.share])).toEqual([
        ['Lunch', '11:00–14:30', 600 / 1500.5],
        ['Dinner', '18:00–21:00', 450.25 / 1500.5],
      ]);
      expect(itemsPanel().data?.map((row) => [row.key, row.rank])).toEqual(
        (bucket === 'weekly' ? ['2026-11-16', '2026-11-23'] : ['2026-11-24', '2026-11-25']).flatMap((key) => [
          [key, 1],
          [key, 2],
        ]),
      );
      expect(
        list()
          .getSnapshot()
          .context.rows.map((row) => row.rank),
      ).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
      expect(list().getSnapshot().context.total).toBe(25);
      expect(topSkus().getSnapshot().can({ type: 'skus.export' })).toBe(true);
      expect(snapshot().can({ type: 'trend.timeRange', timeRange: 'hourly' })).toBe(timeRange !== 'hourly');
    },
    trendLoading: () => {
      expect(asked(before, outlet)).toEqual(trendCalls(timeRange));
      expect(trendPanel()).toEqual({ status: 'loading', data: undefined });
      expectOthersLoaded();
      expect(itemsPanel().status).toBe('loaded');
    },
    itemsLoading: () => {
      expect(asked(before, outlet)).toEqual([`/outlets/itemSalesBreakdown timeRange=${bucket}`]);
      expect(itemsPanel()).toEqual({ status: 'loading', data: undefined });
      expectOthersLoaded();
      expect(trendPanel().status).toBe('loaded');
    },
    empty: () => {
      expect(kpis().previous).toEqual({
        status: 'loaded',
        data: {
          totals: ZEROS,
          growth: { current: ZEROS, compared: ZEROS },
          comparison: { ...PREVIOUS_KPIS.comparison, nothingToCompare: true },
        },
      });
      expect(trendPanel().status).toBe('empty');
      // No meal timing configured: 'empty' (the page points to Settings).
      expect(mealsPanel()).toEqual({ status: 'empty', data: { revenueTotal: 0, rows: [] } });
      expect(itemsPanel()).toEqual({ status: 'empty', data: [] });
      expect(list().getSnapshot().matches('empty')).toBe(true);
      expect(topSkus().getSnapshot().can({ type: 'skus.export' })).toBe(false);
      expect(notices).toEqual([]);
    },
    trendFailed: () => {
      expect(trendPanel()).toEqual(failedWith());
      expectOthersLoaded();
      expect(itemsPanel().status).toBe('loaded');
      expect(notices).toEqual([{ type: 'notify', intent: 'danger', message: ERROR_TEXT, timeout: 5000 }]);
      expect(child('trend').getSnapshot().can({ type: 'report.retry', panel: 'trend' })).toBe(true);
    },
    refused: () => {
      expect(kpis().previous).toEqual(failedWith(MIXED));
      expect(kpis().lastYear).toEqual(failedWith(MIXED));
      expect(trendPanel()).toEqual(failedWith(MIXED));
      expect(mealsPanel()).toEqual(failedWith(MIXED));
      expect(itemsPanel()).toEqual(failedWith(MIXED));
      expect(list().getSnapshot().matches('failure')).toBe(true);
      expect(new Set(notices.map((notice) => notice.message))).toEqual(new Set([ERROR_TEXT]));
    },
  },
  events: {
    chooseOutlet: async () => {
      before = calls.length;
      actor.send(headerEvent(outlet));
      await flush();
    },
    answer: async () => {
      await answerAll('figures');
    },
    answerNothing: async () => {
      await answerAll('nothing');
    },
    failTrend: async () => {
      await answerAll('failTrend');
    },
    refuse: async () => {
      await answerAll('refuse');
    },
    retry: async () => {
      before = calls.length;
      child('trend').send({ type: 'report.retry', panel: 'trend' });
      await flush();
    },
    hourly: async () => {
      before = calls.length;
      timeRange = 'hourly';
      actor.send({ type: 'trend.timeRange', timeRange: 'hourly' });
      await flush();
    },
    weekly: async () => {
      before = calls.length;
      bucket = 'weekly';
      actor.send({ type: 'items.bucket', bucket: 'weekly' });
      await flush();
    },
    compareLastYear: async () => {
      const count = calls.length;
      comparison = 'lastYear';
      actor.send({ type: 'comparison.change', comparison: 'lastYear' });
      await flush();
      expect(calls).toHaveLength(count);
    },
    measureUnits: async () => {
      const count = calls.length;
      measure = 'units';
      actor.send({ type: 'trend.measure', measure: 'units' });
      await flush();
      expect(calls).toHaveLength(count);
    },
    export: async () => {
      const trend = trendPanel().data;
      if (!trend) throw new Error('no trend');
      const file = trendCsv(trend);
      actor.getSnapshot().children.trend?.send({ type: 'report.export', base: 'sales_analysis_trend', files: [file] });
      await flush();
      expect(exports.at(-1)).toEqual({ base: 'sales_analysis_trend', suffix: '2026-11-19_2026-11-25', files: [file] });
    },
    otherOutlet: async () => {
      before = calls.length;
      outlet = 21;
      actor.send(headerEvent(outlet));
      await flush();
    },
  },
};

describe('salesAnalysisMachine (model)', () => {
  beforeEach(() => {
    outlet = 20;
    timeRange = 'daily';
    bucket = 'daily';
    comparison = 'previous';
    measure = 'revenue';
    before = 0;
    start();
    // The header starts with no single outlet: nothing is asked.
    actor.send(headerEvent(undefined));
  });
  describeModelCoverage(model, params, {
    states: ['waiting', 'loading', 'loaded', 'trendLoading', 'itemsLoading', 'empty', 'trendFailed', 'refused'],
    transitions: 16,
  });
});

/* ---------------------------------------------------------------- details */

describe('salesAnalysisMachine details', () => {
  beforeEach(() => start());

  it('starts with the series’ time range and the items’ bucket its workbook reports (the defaults: daily)', () => {
    // server/exports/salesAnalysisWorkbook.ts reports these; a subscription's mail has no machine to choose others.
    expect(snapshot().context).toMatchObject({ timeRange: DEFAULT_TREND_TIME_RANGE, bucket: DEFAULT_ITEM_BUCKET });
    expect([DEFAULT_TREND_TIME_RANGE, DEFAULT_ITEM_BUCKET]).toEqual(['daily', 'daily']);
  });

  async function showOutlet(): Promise<void> {
    actor.send(headerEvent(20));
    await flush();
    await answerAll();
  }

  it('asks nothing for All Outlets, and once per outlet and days', async () => {
    actor.send(headerEvent('all'));
    await flush();
    expect(calls).toEqual([]);
    actor.send(headerEvent(20));
    await flush();
    const count = calls.length;
    actor.send(headerEvent(20));
    await flush();
    expect(calls).toHaveLength(count);
  });

  const kpiCalls = (since: number, range = RANGE) =>
    asked(since, 20, range).filter((call) => call.startsWith('/outlets/overallComparison'));

  it('asks the KPIs of the complete days apart when the days include today, and compares them', async () => {
    actor.send(headerEvent(20));
    await flush();
    expect(kpiCalls(0)).toEqual(KPI_CALLS_WITH_TODAY);
    await answerAll();
    expect(kpis().previous).toEqual({ status: 'loaded', data: PREVIOUS_KPIS });
    expect(kpis().lastYear).toEqual({ status: 'loaded', data: LAST_YEAR_KPIS });
  });

  it('asks one call a comparison, over the whole days, when they end before today', async () => {
    actor.send(headerEvent(20, RANGE, '2026-11-26'));
    await flush();
    expect(kpiCalls(0)).toEqual([
      '/outlets/overallComparison comparedStartTime=2025-11-20 comparedEndTime=2025-11-26',
      '/outlets/overallComparison comparedStartTime=2025-11-20 comparedEndTime=2025-11-26 compare=festival_aligned',
      '/outlets/overallComparison comparedStartTime=2026-11-12 comparedEndTime=2026-11-18',
    ]);
    await answerAll();
    expect(kpis().previous).toEqual({
      status: 'loaded',
      data: {
        totals: CURRENT,
        growth: { current: CURRENT, compared: PREVIOUS },
        comparison: {
          current: RANGE,
          previous: { start: '2026-11-12', end: '2026-11-18' },
          todayLeftOut: false,
          rule: 'previous',
          nothingToCompare: false,
        },
      },
    });
    expect(kpis().lastYear.data?.growth).toEqual({ current: CURRENT, compared: ZEROS });
  });

  it('asks only the totals of today alone: no complete day, no growth', async () => {
    const todayAlone = { start: TODAY, end: TODAY };
    actor.send(headerEvent(20, todayAlone));
    await flush();
    expect(kpiCalls(0, todayAlone)).toEqual([
      '/outlets/overallComparison comparedStartTime=2025-11-26 comparedEndTime=2025-11-26',
      '/outlets/overallComparison comparedStartTime=2025-11-26 comparedEndTime=2025-11-26 compare=festival_aligned',
      '/outlets/overallComparison comparedStartTime=2026-11-24 comparedEndTime=2026-11-24',
    ]);
    await answerAll();
    expect(kpis().previous).toEqual({
      status: 'loaded',
      data: { totals: CURRENT, growth: undefined, comparison: undefined },
    });
    expect(kpis().lastYear).toEqual({
      status: 'loaded',
      data: { totals: CURRENT, growth: undefined, comparison: undefined },
    });
  });

  it('a failed growth call fails its own comparison alone, and its retry asks that one again', async () => {
    actor.send(headerEvent(20));
    await flush();
    await answerAll('failPreviousGrowth');
    expect(kpis().previous).toEqual(failedWith());
    expect(kpis().lastYear).toEqual({ status: 'loaded', data: LAST_YEAR_KPIS });
    expect(trendPanel().status).toBe('loaded');
    expect(mealsPanel().status).toBe('loaded');
    expect(itemsPanel().status).toBe('loaded');
    expect(notices).toEqual([{ type: 'notify', intent: 'danger', message: ERROR_TEXT, timeout: 5000 }]);
    const count = calls.length;
    child('kpis').send({ type: 'report.retry', panel: 'previous' });
    await flush();
    expect(kpiCalls(count)).toEqual([
      '/outlets/overallComparison comparedStartTime=2026-11-12 comparedEndTime=2026-11-18',
      '/outlets/overallComparison endTime=2026-11-24 comparedStartTime=2026-11-13 comparedEndTime=2026-11-18',
    ]);
    expect(asked(count, 20)).toHaveLength(2);
    await answerAll();
    expect(kpis().previous).toEqual({ status: 'loaded', data: PREVIOUS_KPIS });
  });

  it('refuses the time range shown, and hourly for more than 31 days (falling back to daily)', async () => {
    await showOutlet();
    expect(snapshot().can({ type: 'trend.timeRange', timeRange: 'daily' })).toBe(false);
    actor.send({ type: 'trend.timeRange', timeRange: 'hourly' });
    await flush();
    await answerAll();
    const long: HeaderFiltersEvent = {
      ...headerEvent(20),
      filters: { ...headerEvent(20).filters, dateRange: { start: '2026-10-01', end: '2026-11-25' } },
    };
    const count = calls.length;
    actor.send(long);
    await flush();
    expect(snapshot().context.timeRange).toBe('daily');
    expect(calls.slice(count).some((call) => call.url.searchParams.get('timeRange') === 'hourly')).toBe(false);
    expect(snapshot().can({ type: 'trend.timeRange', timeRange: 'hourly' })).toBe(false);
    expect(snapshot().can({ type: 'trend.timeRange', timeRange: 'monthly' })).toBe(true);
  });

  it('aborts the pending calls of an outlet left for another', async () => {
    actor.send(headerEvent(20));
    await flush();
    const first = calls.slice();
    actor.send(headerEvent(21));
    await flush();
    for (const call of first) {
      call.settled = true;
      call.answer.resolve(json(200, answerOf(call.url, 'nothing').body));
    }
    await answerAll();
    expect(trendPanel().status).toBe('loaded');
    expect(snapshot().context.query?.outletId).toBe(21);
  });

  it('sorts the top SKUs by the server’s columns and the page’s, and pages them', async () => {
    await showOutlet();
    const count = calls.length;
    topSkus().send({ type: 'skus.sort', column: 'item_name' });
    await flush();
    expect(calls).toHaveLength(count);
    expect(topSkus().getSnapshot().context.pageSort).toEqual({ column: 'item_name', order: 'asc' });
    list().send({ type: 'list.page', page: 3 });
    await flush();
    expect(describeCall(calls.at(-1) as PendingCall, 20)).toBe(
      '/outlets/topSKU sortMethod=quantity orderByMethod=desc page=3 rowsPerPage=10',
    );
    await answerAll();
    expect(
      list()
        .getSnapshot()
        .context.rows.map((row) => row.rank),
    ).toEqual([21, 22, 23, 24, 25]);
    // The page sort stays while paging; a server sort clears it and goes back to page 1, highest first.
    expect(topSkus().getSnapshot().context.pageSort).toEqual({ column: 'item_name', order: 'asc' });
    topSkus().send({ type: 'skus.sort', column: 'amount' });
    await flush();
    expect(topSkus().getSnapshot().context.pageSort).toBeUndefined();
    expect(describeCall(calls.at(-1) as PendingCall, 20)).toBe(
      '/outlets/topSKU sortMethod=amount orderByMethod=desc page=1 rowsPerPage=10',
    );
    await answerAll();
    topSkus().send({ type: 'skus.sort', column: 'amount' });
    await flush();
    expect(describeCall(calls.at(-1) as PendingCall, 20)).toBe(
      '/outlets/topSKU sortMethod=amount orderByMethod=asc page=1 rowsPerPage=10',
    );
    await answerAll();
    expect(topSkus().getSnapshot().context.listSort).toEqual({ column: 'amount', order: 'asc' });
    topSkus().send({ type: 'skus.sort', column: 'nonsense' });
    list().send({ type: 'list.rowsPerPage', rowsPerPage: 50 });
    await flush();
    expect(describeCall(calls.at(-1) as PendingCall, 20)).toBe(
      '/outlets/topSKU sortMethod=amount orderByMethod=asc page=1 rowsPerPage=50',
    );
  });

  it('searches the outlet’s SKUs once the user pauses, narrows the table to the SKU picked, and clears it', async () => {
    await showOutlet();
    search().send({ type: 'search.open' });
    await flush();
    expect(describeCall(calls.at(-1) as PendingCall, 20)).toBe('/outlets/sku');
    await answerAll();
    expect(search().getSnapshot().context.options).toHaveLength(25);
    const count = calls.length;
    search().send({ type: 'search.text', text: 'item a' });
    search().send({ type: 'search.text', text: 'item h' });
    await flush();
    expect(calls).toHaveLength(count);
    await new Promise((resolve) => setTimeout(resolve, SKU_SEARCH_DELAY + 50));
    expect(calls).toHaveLength(count + 1);
    expect(calls.at(-1)?.url.searchParams.get('searchText')).toBe('item h');
    await answerAll();
    const [sku] = search().getSnapshot().context.options;
    if (!sku) throw new Error('no SKU found');
    expect(sku.item_name).toBe('Item H');

    topSkus().send({ type: 'skus.pick', sku });
    await flush();
    expect(describeCall(calls.at(-1) as PendingCall, 20)).toBe(
      `/outlets/topSKU sortMethod=quantity orderByMethod=desc page=1 rowsPerPage=10 sku_id=${sku.id}`,
    );
    await answerAll();
    expect(
      list()
        .getSnapshot()
        .context.rows.map((row) => row.sku_id),
    ).toEqual([sku.id]);
    // New days keep the SKU; another outlet forgets it.
    actor.send({
      ...headerEvent(20),
      filters: { ...headerEvent(20).filters, dateRange: { start: '2026-11-18', end: '2026-11-25' } },
    });
    await flush();
    expect(
      calls.find((call) => call.url.pathname === '/outlets/topSKU' && !call.settled)?.url.searchParams.get('sku_id'),
    ).toBe(String(sku.id));
    await answerAll();
    topSkus().send({ type: 'skus.clear' });
    await flush();
    expect(calls.at(-1)?.url.searchParams.has('sku_id')).toBe(false);
    await answerAll();
    topSkus().send({ type: 'skus.pick', sku });
    await flush();
    await answerAll();
    actor.send(headerEvent(21));
    await flush();
    expect(topSkus().getSnapshot().context.sku).toBeUndefined();
    expect(search().getSnapshot().value).toBe('idle');
    expect(search().getSnapshot().context.options).toEqual([]);
  });

  it('exports every SKU of the ranking, in its order, with the currency', async () => {
    await showOutlet();
    topSkus().send({ type: 'skus.export', currency: 'IDR' });
    await flush();
    expect(topSkus().getSnapshot().hasTag('exporting')).toBe(true);
    expect(topSkus().getSnapshot().can({ type: 'skus.export' })).toBe(false);
    expect(describeCall(calls.at(-1) as PendingCall, 20)).toBe(
      `/outlets/topSKU sortMethod=quantity orderByMethod=desc page=1 rowsPerPage=${TOP_SKU_EXPORT_PAGE_SIZE}`,
    );
    await answerAll();
    expect(topSkus().getSnapshot().hasTag('exporting')).toBe(false);
    expect(skuExports).toHaveLength(1);
    expect(skuExports[0]?.currency).toBe('IDR');
    expect(skuExports[0]?.rows.map((row) => row.rank)).toEqual(SKUS.map((_, index) => index + 1));
    expect(skuExports[0]?.rows.map((row) => row.sku_id)).toEqual(SKUS.map((row) => row.sku_id));
  });

  it('a failed SKU search says so with a toast and can be retried', async () => {
    await showOutlet();
    search().send({ type: 'search.open' });
    await flush();
    const call = pending()[0];
    if (!call) throw new Error('no call');
    call.settled = true;
    call.answer.resolve(json(500, { statusCode: 500, error: 'Internal Server Error', message: 'boom' }));
    await flush();
    expect(search().getSnapshot().value).toBe('failure');
    expect(notices.at(-1)?.message).toBe('SKU search error occurs. Please try again later.');
    search().send({ type: 'search.retry' });
    await flush();
    await answerAll();
    expect(search().getSnapshot().value).toBe('ready');
  });
});

describe('salesAnalysisMachine: the comparison in the address', () => {
  beforeEach(() => start());

  /** The page beside a navigation guard showing `href` (the sales analysis' path with `search`). */
  function open(search: string) {
    const requests: NavigationRequest[] = [];
    const app = createActor(
      setup({
        actors: { guard: fakeNavigation(`/tenant-connect/sales-analysis?${search}`, requests), page: testMachine },
      }).createMachine({
        invoke: [
          { id: 'guard', systemId: 'navigation', src: 'guard' },
          { id: 'page', src: 'page' },
        ],
      }),
    ).start();
    return { app, page: childOf(app.getSnapshot(), 'page'), requests };
  }

  it('starts with the comparison the address holds (the default for one it does not know)', () => {
    const festival = open('client=4&compare=festival_aligned');
    expect(festival.page.getSnapshot().context.comparison).toBe('festival');
    festival.app.stop();
    const unknown = open('client=4&compare=lastYear');
    expect(unknown.page.getSnapshot().context.comparison).toBe('previous');
    unknown.app.stop();
  });

  it("writes the user's comparison into the address in place, its other keys (like-for-like too) kept", () => {
    const { app, page, requests } = open('client=4&outlet=20&like_for_like=1');
    page.send({ type: 'comparison.change', comparison: 'lastYear' });
    expect(requests).toEqual([
      {
        href: '/tenant-connect/sales-analysis?compare=same_weekday_last_year&like_for_like=1&client=4&outlet=20',
        replace: true,
      },
    ]);
    page.send({ type: 'comparison.change', comparison: 'previous' });
    expect(requests.at(-1)).toEqual({
      href: '/tenant-connect/sales-analysis?like_for_like=1&client=4&outlet=20',
      replace: true,
    });
    expect(page.getSnapshot().context.comparison).toBe('previous');
    app.stop();
  });
  it('follows the address back and forward, writing nothing', () => {
    const { app, page, requests } = open('client=4&outlet=20');
    const guard = app.system.get('navigation');
    guard.send({ type: 'location.change', href: '/tenant-connect/sales-analysis?compare=festival_aligned&client=4' });
    expect(page.getSnapshot().context.comparison).toBe('festival');
    guard.send({ type: 'location.change', href: '/tenant-connect/sales-analysis?client=4&outlet=20' });
    expect(page.getSnapshot().context.comparison).toBe('previous');
    // Another page's address: this page is being left.
    guard.send({ type: 'location.change', href: '/shopper-connect/mall-home?compare=same_weekday_last_year' });
    expect(page.getSnapshot().context.comparison).toBe('previous');
    expect(requests).toEqual([]);
    app.stop();
  });
});
