import { assign, enqueueActions, setup } from 'xstate';
import { type ApiClient, api, type CallOptions } from '../../api/client';
import {
  getItemSalesBreakdown,
  getMealTimingReport,
  getOutletComparison,
  getRevenuePoints,
  getTransactionPoints,
  getUnitSalePoints,
} from '../../api/outletReports';
import type { ReportQuery } from '../../domain/mallReportViews';
import {
  COMPARISON_RULES,
  type ComparisonMode,
  comparisonModeOf,
  DEFAULT_ITEM_BUCKET,
  DEFAULT_TREND_TIME_RANGE,
  type ItemBucket,
  type ItemRow,
  isMealTimingsEmpty,
  isTimeRangeAllowed,
  isTrendEmpty,
  itemRowsOf,
  type MealTimings,
  markedToday,
  mealTimingsOf,
  outletRangeOf,
  SALES_ANALYSIS_WHAT,
  type SalesKpis,
  salesAnalysisQueryOf,
  salesKpisOf,
  type Trend,
  type TrendMeasure,
  type TrendTimeRange,
  timeRangeFor,
  trendOf,
} from '../../domain/salesAnalysis';
import {
  type ComparisonUrlEvent,
  comparisonInUrl,
  followComparisonUrl,
  writeComparisonThroughGuard,
} from '../comparisonUrlSync';
import { reportOfPage } from '../factories/pageQueryReport';
import { createQueryPageMachine } from '../factories/queryPageMachine';
import { followHeaderFilters, type HeaderFiltersEvent } from '../headerLink';
import { createTopSkusMachine } from './topSkusMachine';

/**
 * Tenant Connect's sales analysis (/tenant-connect/sales-analysis): the header's one outlet over its whole days.
 * The page holds what only it asks (the KPIs' comparison, the series' time range and measure, the item breakdown's
 * bucket) and tells each of its reports the query of the header's filters with its own part; each report is a
 * query page (panels with their skeleton, 'No Data', failure with its retry, CSV export), so a change of one part
 * reloads that report alone and one failed call fails its own panel:
 *
 *   kpis    panels previous, lastYear: the range's totals, and their growth against the days just before and the
 *           same weekdays a year before, 364 days back (both asked at once, so switching the comparison is
 *           instant; compared days without a sale: nothing to compare); when the range
 *           includes today (still open) the growth compares its complete days, start..yesterday, which each panel
 *           asks apart, against the comparison period of those days; today alone has no growth
 *   trend   panel trend: revenue, transactions and units per bucket (query.timeRange: hourly up to 31 days)
 *   meals   panel meals: each meal timing's revenue and transactions, and the outlet's revenue they are shares of
 *           ('empty': no meal timing is configured)
 *   items   panel items: each bucket's ten best-selling items (query.timeRange: daily, weekly or monthly)
 *   topSkus the paged ranking of SKUs with its search (topSkusMachine)
 *
 *   waiting ── header.filters with one outlet ─> shown (every report told its query)
 *   shown ── header.filters (a new outlet or days) ─> shown (every report told again)
 *         ── comparison.change ─> shown (nothing asked) ;  trend.measure ─> shown (nothing asked)
 *         ── trend.timeRange (allowed for the days) ─> shown (trend told) ;  items.bucket ─> shown (items told)
 *
 * The comparison is kept in the address as the mall pages keep theirs (`compare`, comparisonUrlSync.ts): the page
 * starts with the one the address holds, shows each change there, and follows the address back and forward
 * (`comparison.url`: shown at once, nothing asked).
 */

export interface KpiPanels {
  readonly previous: SalesKpis;
  readonly lastYear: SalesKpis;
  readonly festival: SalesKpis;
}

export interface TrendPanels {
  readonly trend: Trend;
}

export interface MealPanels {
  readonly meals: MealTimings;
}

export interface ItemPanels {
  readonly items: readonly ItemRow[];
}

const todayOf = (query: ReportQuery) => markedToday(query, query.today);

/**
 * The KPIs of `mode` (salesKpisOf, which the page's workbook shares): the whole range's totals, and the growth over
 * the range's complete days (today, still open, left out) against their comparison period.
 */
export function loadComparison(
  query: ReportQuery,
  mode: ComparisonMode,
  options: CallOptions = {},
): Promise<SalesKpis> {
  const range = outletRangeOf(query);
  return salesKpisOf(range, mode, query.today, (days, compared, compare) =>
    getOutletComparison({ ...range, ...days }, compared, options, compare),
  );
}

/** The three series in the query's time range (hourly, daily, weekly or monthly). */
export async function loadTrend(query: ReportQuery, options: CallOptions = {}): Promise<Trend> {
  const range = outletRangeOf(query);
  const timeRange = query.timeRange;
  const [revenue, transactions, units] = await Promise.all([
    getRevenuePoints(range, timeRange, options),
    getTransactionPoints(range, timeRange, options),
    getUnitSalePoints(range, timeRange, options),
  ]);
  return trendOf(timeRange, range, todayOf(query), { revenue, transactions, units });
}

/** The meal timings' figures, and the outlet's revenue over the range (monthly buckets: one small call). */
export async function loadMealTimings(query: ReportQuery, options: CallOptions = {}): Promise<MealTimings> {
  const range = outletRangeOf(query);
  const [rows, revenue] = await Promise.all([
    getMealTimingReport(range, options),
    getRevenuePoints(range, 'monthly', options),
  ]);
  return mealTimingsOf(rows, revenue.total);
}

const isDayBucket = (timeRange: TrendTimeRange): timeRange is ItemBucket => timeRange !== 'hourly';

/** Each bucket's best-selling items (the query's time range: daily, weekly or monthly). */
export async function loadItems(query: ReportQuery, options: CallOptions = {}): Promise<ItemRow[]> {
  const range = outletRangeOf(query);
  const bucket = isDayBucket(query.timeRange) ? query.timeRange : DEFAULT_ITEM_BUCKET;
  const rows = await getItemSalesBreakdown(range, bucket, options);
  return itemRowsOf(rows, bucket, range, todayOf(query));
}

export function createSalesAnalysisReports(client: ApiClient = api) {
  return {
    kpis: reportOfPage(
      createQueryPageMachine<KpiPanels>({
        id: 'salesAnalysisKpis',
        what: SALES_ANALYSIS_WHAT,
        panels: {
          previous: { load: (query, signal) => loadComparison(query, 'previous', { signal, client }) },
          lastYear: { load: (query, signal) => loadComparison(query, 'lastYear', { signal, client }) },
          festival: { load: (query, signal) => loadComparison(query, 'festival', { signal, client }) },
        },
      }),
    ),
    trend: reportOfPage(
      createQueryPageMachine<TrendPanels>({
        id: 'salesAnalysisTrend',
        what: SALES_ANALYSIS_WHAT,
        panels: { trend: { load: (query, signal) => loadTrend(query, { signal, client }), isEmpty: isTrendEmpty } },
      }),
    ),
    meals: reportOfPage(
      createQueryPageMachine<MealPanels>({
        id: 'salesAnalysisMeals',
        what: SALES_ANALYSIS_WHAT,
        panels: {
          meals: { load: (query, signal) => loadMealTimings(query, { signal, client }), isEmpty: isMealTimingsEmpty },
        },
      }),
    ),
    items: reportOfPage(
      createQueryPageMachine<ItemPanels>({
        id: 'salesAnalysisItems',
        what: SALES_ANALYSIS_WHAT,
        panels: {
          items: {
            load: (query, signal) => loadItems(query, { signal, client }),
            isEmpty: (rows) => rows.length === 0,
          },
        },
      }),
    ),
  };
}

export type SalesAnalysisEvent =
  | HeaderFiltersEvent
  | { type: 'comparison.change'; comparison: ComparisonMode }
  /** The address of the page now holds this choice (back, forward): its rule is the page's comparison. */
  | ComparisonUrlEvent
  | { type: 'trend.timeRange'; timeRange: TrendTimeRange }
  | { type: 'trend.measure'; measure: TrendMeasure }
  | { type: 'items.bucket'; bucket: ItemBucket };

export interface SalesAnalysisContext {
  /** The header's outlet and days (the reports' query without their own parts); undefined until one outlet. */
  readonly query: ReportQuery | undefined;
  readonly comparison: ComparisonMode;
  /** The series' time range (Daily by default; Hourly only up to 31 days). */
  readonly timeRange: TrendTimeRange;
  /** The measure the series' chart draws (its table shows all three). */
  readonly measure: TrendMeasure;
  readonly bucket: ItemBucket;
}

const sameQuery = (a: ReportQuery | undefined, b: ReportQuery | undefined) => JSON.stringify(a) === JSON.stringify(b);

const rangeOfContext = (context: SalesAnalysisContext) => context.query && outletRangeOf(context.query);

export function createSalesAnalysisMachine(client: ApiClient = api) {
  const reports = createSalesAnalysisReports(client);
  return setup({
    types: {
      context: {} as SalesAnalysisContext,
      events: {} as SalesAnalysisEvent,
      children: {} as { kpis: 'kpis'; trend: 'trend'; meals: 'meals'; items: 'items'; topSkus: 'topSkus' },
    },
    actors: {
      followHeaderFilters,
      followComparisonUrl,
      kpis: reports.kpis,
      trend: reports.trend,
      meals: reports.meals,
      items: reports.items,
      topSkus: createTopSkusMachine(client),
    },
    guards: {
      isNewQuery: (_, params: { query: ReportQuery | undefined; current: ReportQuery | undefined }) =>
        params.query !== undefined && !sameQuery(params.query, params.current),
      isOtherComparison: ({ context }, params: { comparison: ComparisonMode }) =>
        params.comparison !== context.comparison,
      canChangeTimeRange: ({ context }, params: { timeRange: TrendTimeRange }) => {
        const range = rangeOfContext(context);
        return (
          params.timeRange !== context.timeRange && (range === undefined || isTimeRangeAllowed(params.timeRange, range))
        );
      },
      isOtherMeasure: ({ context }, params: { measure: TrendMeasure }) => params.measure !== context.measure,
      isOtherBucket: ({ context }, params: { bucket: ItemBucket }) => params.bucket !== context.bucket,
    },
    actions: {
      /** Keeps the new query (Hourly falls back to Daily for days it cannot show) and tells every report. */
      showQuery: enqueueActions(({ context, enqueue }, params: { query: ReportQuery }) => {
        const range = outletRangeOf(params.query);
        const timeRange = timeRangeFor(context.timeRange, range);
        enqueue.assign({ query: params.query, timeRange });
        enqueue.sendTo('kpis', { type: 'report.load', query: params.query });
        enqueue.sendTo('trend', { type: 'report.load', query: { ...params.query, timeRange } });
        enqueue.sendTo('meals', { type: 'report.load', query: params.query });
        enqueue.sendTo('items', { type: 'report.load', query: { ...params.query, timeRange: context.bucket } });
        enqueue.sendTo('topSkus', { type: 'skus.range', range });
      }),
      loadTrend: enqueueActions(({ context, enqueue }) => {
        if (context.query)
          enqueue.sendTo('trend', { type: 'report.load', query: { ...context.query, timeRange: context.timeRange } });
      }),
      /** The comparison the address holds. */
      readComparisonUrl: assign(({ system }) => ({ comparison: comparisonModeOf(comparisonInUrl(system).rule) })),
      /** Shows the user's comparison in the address; its like-for-like (no choice of this page) as it was. */
      writeComparisonUrl: ({ system }, params: { comparison: ComparisonMode }) => {
        writeComparisonThroughGuard(system, { ...comparisonInUrl(system), rule: COMPARISON_RULES[params.comparison] });
      },
      loadItems: enqueueActions(({ context, enqueue }) => {
        if (context.query)
          enqueue.sendTo('items', { type: 'report.load', query: { ...context.query, timeRange: context.bucket } });
      }),
    },
  }).createMachine({
    id: 'salesAnalysis',
    context: {
      query: undefined,
      comparison: 'previous',
      timeRange: DEFAULT_TREND_TIME_RANGE,
      measure: 'revenue',
      bucket: DEFAULT_ITEM_BUCKET,
    },
    entry: 'readComparisonUrl',
    // The reports first: the header's filters, told at once, go to them.
    invoke: [
      { id: 'kpis', src: 'kpis' },
      { id: 'trend', src: 'trend' },
      { id: 'meals', src: 'meals' },
      { id: 'items', src: 'items' },
      { id: 'topSkus', src: 'topSkus' },
      { src: 'followHeaderFilters' },
      { src: 'followComparisonUrl' },
    ],
    on: {
      'header.filters': {
        guard: {
          type: 'isNewQuery',
          params: ({ context, event }) => ({
            query: salesAnalysisQueryOf(event.filters, event.today),
            current: context.query,
          }),
        },
        target: '.shown',
        actions: {
          type: 'showQuery',
          params: ({ event }) => {
            const query = salesAnalysisQueryOf(event.filters, event.today);
            if (!query) throw new Error('sales analysis: no query');
            return { query };
          },
        },
      },
      'comparison.change': {
        guard: { type: 'isOtherComparison', params: ({ event }) => ({ comparison: event.comparison }) },
        actions: [
          assign({ comparison: ({ event }) => event.comparison }),
          { type: 'writeComparisonUrl', params: ({ event }) => ({ comparison: event.comparison }) },
        ],
      },
      'comparison.url': {
        guard: {
          type: 'isOtherComparison',
          params: ({ event }) => ({ comparison: comparisonModeOf(event.comparison.rule) }),
        },
        actions: assign({ comparison: ({ event }) => comparisonModeOf(event.comparison.rule) }),
      },
      'trend.measure': {
        guard: { type: 'isOtherMeasure', params: ({ event }) => ({ measure: event.measure }) },
        actions: assign({ measure: ({ event }) => event.measure }),
      },
      'trend.timeRange': {
        guard: { type: 'canChangeTimeRange', params: ({ event }) => ({ timeRange: event.timeRange }) },
        actions: [assign({ timeRange: ({ event }) => event.timeRange }), 'loadTrend'],
      },
      'items.bucket': {
        guard: { type: 'isOtherBucket', params: ({ event }) => ({ bucket: event.bucket }) },
        actions: [assign({ bucket: ({ event }) => event.bucket }), 'loadItems'],
      },
    },
    initial: 'waiting',
    states: {
      /** No single outlet chosen yet: nothing is asked. */
      waiting: {},
      /** The outlet's reports. */
      shown: {},
    },
  });
}

export const salesAnalysisMachine = createSalesAnalysisMachine();
