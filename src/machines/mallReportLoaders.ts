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
  type MallGmvData,
  type MallHomeData,
  type MemberVsNonMemberData,
  mallHomePreviousRange,
  mallHomeView,
  type PaymentMethodsData,
  type PeakHoursData,
  paymentBuckets,
  paymentMethodsView,
  peakHoursNeedsBuckets,
  peakHoursView,
  type ReportQuery,
  wholeDays,
} from '../domain/mallReportViews';

/**
 * The loaders of the Shopper Connect pages: each makes its page's calls in parallel, then shapes the answers
 * (domain/mallReportViews). `options.signal` aborts every call of the load.
 */

/** Mall home: the period and the previous period (malls, members), the daily trend, outlets and payments. */
export async function loadMallHome(filters: ReportQuery, options: CallOptions = {}): Promise<MallHomeData> {
  const query = wholeDays(filters);
  const previousRange = mallHomePreviousRange(query);
  const member = { timeRange: 'daily' as const, metric: 'gmv' as const };
  const [malls, previousMalls, members, previousMembers, daily, outlets, payments] = await Promise.all([
    getMallRanking(query, undefined, options),
    getMallRanking(query, previousRange, options),
    getMemberOverall(query, member, options),
    getMemberOverall(query, { ...member, range: previousRange }, options),
    getDailyReport(query, undefined, options),
    getGroupReport(query, 'outlet', options),
    getPaymentMethodOverall(query, undefined, 10, options),
  ]);
  return mallHomeView({ previousRange, malls, previousMalls, members, previousMembers, daily, outlets, payments });
}

/** Mall GMV: daily and monthly GMV and transactions, and the outlet, category and level breakdowns. */
export async function loadMallGmv(filters: ReportQuery, options: CallOptions = {}): Promise<MallGmvData> {
  const query = wholeDays(filters);
  const [daily, monthly, outlets, categories, levels] = await Promise.all([
    getDailyReport(query, undefined, options),
    getMonthlyReport(query, options),
    getGroupReport(query, 'outlet', options),
    getCategoryReport(query, options),
    getLevelReport(query, options),
  ]);
  return { daily, monthly, outlets, categories, levels };
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

/** Payment methods: the overall split (top 10) and the top 5 methods per day or week. */
export async function loadPaymentMethods(filters: ReportQuery, options: CallOptions = {}): Promise<PaymentMethodsData> {
  const query = wholeDays(filters);
  const buckets = paymentBuckets(query.start, query.end);
  const [overall, ...perBucket] = await Promise.all([
    getPaymentMethodOverall(query, undefined, 10, options),
    ...buckets.map((bucket) => getPaymentMethodOverall(query, { start: bucket.start, end: bucket.end }, 5, options)),
  ]);
  return paymentMethodsView(overall, buckets, perBucket);
}

/** Member vs non-member: the series and totals for the chosen metric, and the top outlets of each side. */
export async function loadMemberVsNonMember(
  query: ReportQuery,
  options: CallOptions = {},
): Promise<MemberVsNonMemberData> {
  const [overall, members, nonMembers] = await Promise.all([
    getMemberOverall(query, {}, options),
    getMemberOutletRanking(query, true, 10, options),
    getMemberOutletRanking(query, false, 10, options),
  ]);
  return { overall, members, nonMembers };
}
