import { getMallEvents } from '../api/calendar';
import type { CallOptions } from '../api/client';
import {
  getCategoryReport,
  getDailyReport,
  getGroupReport,
  getLevelReport,
  getMallGrowth,
  getMallRanking,
  getMemberOutletRanking,
  getMemberOverall,
  getMonthlyReport,
  getPaymentMethodOverall,
  getPeakHours,
} from '../api/mallReports';
import { type ChartAnnotation, chartAnnotationsOf } from '../domain/chartAnnotations';
import {
  type MallHomeKpis,
  mallHomeComparison,
  mallHomeKpis,
  type PaymentOverTime,
  type PeakHoursData,
  paymentBuckets,
  paymentOverTime,
  peakHoursNeedsBuckets,
  peakHoursView,
  type ReportQuery,
  wholeDays,
} from '../domain/mallReportViews';

/**
 * The panel loaders of the Shopper Connect pages that need more than one call: each makes its calls in parallel,
 * then shapes the answers (domain/mallReportViews). `options.signal` aborts every call of the load.
 */

/**
 * Mall home KPIs (malls, members): the whole range for the figures; for the growth, the range's complete days
 * against the days the query's comparison chooses (asked only when there is a complete day), in one call.
 */
export async function loadMallHomeKpis(filters: ReportQuery, options: CallOptions = {}): Promise<MallHomeKpis> {
  const query = wholeDays(filters);
  const comparison = mallHomeComparison(query);
  const member = { timeRange: 'daily' as const, metric: 'gmv' as const };
  const [malls, members, growth] = await Promise.all([
    getMallRanking(query, undefined, options),
    getMemberOverall(query, member, options),
    comparison ? getMallGrowth(query, comparison.current, options) : Promise.resolve(undefined),
  ]);
  return mallHomeKpis(comparison, { malls, members, growth });
}

/** Peak hours: GMV and transactions per day and hour, and per bucket for weekly and monthly time ranges. */
export async function loadPeakHours(query: ReportQuery, options: CallOptions = {}): Promise<PeakHoursData> {
  const bucketed = peakHoursNeedsBuckets(query.timeRange);
  const [gmvCells, transactionCells, gmvBuckets, transactionBuckets] = await Promise.all([
    getPeakHours(query, 'daily', 'gmv', options),
    getPeakHours(query, 'daily', 'transactions', options),
    bucketed ? getPeakHours(query, query.timeRange, 'gmv', options) : Promise.resolve(undefined),
    bucketed ? getPeakHours(query, query.timeRange, 'transactions', options) : Promise.resolve(undefined),
  ]);
  return peakHoursView(query, { gmvCells, transactionCells, gmvBuckets, transactionBuckets });
}

/** The top 5 payment methods per day (ranges of a week or less) or per week. */
export async function loadPaymentOverTime(filters: ReportQuery, options: CallOptions = {}): Promise<PaymentOverTime> {
  const query = wholeDays(filters);
  const buckets = paymentBuckets(query.start, query.end);
  const perBucket = await Promise.all(
    buckets.map((bucket) => getPaymentMethodOverall(query, { start: bucket.start, end: bucket.end }, 5, options)),
  );
  return paymentOverTime(buckets, perBucket);
}

/**
 * The festivals, holidays and mall events the time charts of the range draw (GET /api/mall_events): the one loader
 * every mall report page with a chart of days shares. A failed call is no annotation, never a failed chart; an
 * aborted one (a newer query) stays aborted.
 */
export async function loadChartAnnotations(query: ReportQuery, options: CallOptions = {}): Promise<ChartAnnotation[]> {
  try {
    const answer = await getMallEvents(
      { client_id: query.clientId, mall_ids: [...query.mallIds], start_time: query.start, end_time: query.end },
      options,
    );
    return chartAnnotationsOf(answer);
  } catch (error) {
    if (options.signal?.aborted) throw error;
    return [];
  }
}

/** The time charts' annotations as a panel: never empty or failed (a failed call is none), so never 'No Data' or a toast. */
export const annotationsPanel = {
  load: (query: ReportQuery, signal: AbortSignal) => loadChartAnnotations(query, { signal }),
};

/** The single-call panels, over whole days where the page has no hour picker. */
export const reportCalls = {
  daily: (query: ReportQuery, options: CallOptions) => getDailyReport(wholeDays(query), undefined, options),
  monthly: (query: ReportQuery, options: CallOptions) => getMonthlyReport(wholeDays(query), options),
  outlets: (query: ReportQuery, options: CallOptions) => getGroupReport(wholeDays(query), 'outlet', options),
  categories: (query: ReportQuery, options: CallOptions) => getCategoryReport(wholeDays(query), options),
  levels: (query: ReportQuery, options: CallOptions) => getLevelReport(wholeDays(query), options),
  topPayments: (query: ReportQuery, options: CallOptions) =>
    getPaymentMethodOverall(wholeDays(query), undefined, 10, options),
  memberOverall: (query: ReportQuery, options: CallOptions) => getMemberOverall(query, {}, options),
  memberOutlets: (query: ReportQuery, options: CallOptions) => getMemberOutletRanking(query, true, 10, options),
  nonMemberOutlets: (query: ReportQuery, options: CallOptions) => getMemberOutletRanking(query, false, 10, options),
} as const;
