import type { CallOptions } from '../api/client';
import {
  getCategoryReport,
  getDailyReport,
  getGroupReport,
  getLevelReport,
  getMallRanking,
  getMemberOutletRanking,
  getMemberOverall,
  getMonthlyReport,
  getPaymentMethodOverall,
  getPeakHours,
} from '../api/mallReports';
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
 * (asked apart only when today is left out) and as many days before them (asked only when there is a complete day).
 */
export async function loadMallHomeKpis(filters: ReportQuery, options: CallOptions = {}): Promise<MallHomeKpis> {
  const query = wholeDays(filters);
  const comparison = mallHomeComparison(query);
  const completeDays = comparison?.todayLeftOut ? comparison.current : undefined;
  const member = { timeRange: 'daily' as const, metric: 'gmv' as const };
  const none = Promise.resolve(undefined);
  const [malls, members, completeMalls, completeMembers, previousMalls, previousMembers] = await Promise.all([
    getMallRanking(query, undefined, options),
    getMemberOverall(query, member, options),
    completeDays ? getMallRanking(query, completeDays, options) : none,
    completeDays ? getMemberOverall(query, { ...member, range: completeDays }, options) : none,
    comparison ? getMallRanking(query, comparison.previous, options) : none,
    comparison ? getMemberOverall(query, { ...member, range: comparison.previous }, options) : none,
  ]);
  const growth =
    previousMalls && previousMembers
      ? { malls: completeMalls, members: completeMembers, previousMalls, previousMembers }
      : undefined;
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
