import type { Metric, TimeRange } from '../domain/dateLimits';
import {
  addDays,
  averageChart,
  eachDay,
  isoWeekday,
  previousPeriod,
  round2,
  share,
  weekdayCounts,
} from '../domain/reports';
import { type ApiClient, api } from './client';
import { dataOrThrow } from './errors';
import type { components } from './schema';

/**
 * The mall report calls (§7 /api/mall_report/*) and, for each Shopper Connect page, the loader that makes the
 * page's calls in parallel and shapes what it shows. Each throws an ApiError when a call fails.
 */

export type DailyReportRow = components['schemas']['DailyReportRow'];
export type MonthlyReportRow = components['schemas']['MonthlyReportRow'];
export type MallRankRow = components['schemas']['MallRankRow'];
export type MallGroupRow = components['schemas']['MallGroupRow'];
export type MallCategoryRow = components['schemas']['MallCategoryRow'];
export type MallLevelRow = components['schemas']['MallLevelRow'];
export type OutletRankRow = components['schemas']['OutletRankRow'];
export type PeakHourRow = components['schemas']['PeakHourRow'];
export type PaymentMethodRow = components['schemas']['PaymentMethodSummaryRow'];
export type MemberOverallResponse = components['schemas']['MemberOverallResponse'];

/** What a report page asks for: the committed filters of the header, as the calls take them. */
export interface ReportQuery {
  readonly clientId: number;
  readonly mallIds: readonly number[];
  /** `YYYY-MM-DD`, both included, in each mall's local days. */
  readonly start: string;
  readonly end: string;
  readonly startHour: number;
  readonly endHour: number;
  readonly timeRange: TimeRange;
  readonly metric: Metric;
}

function baseQuery(query: ReportQuery, range?: { start: string; end: string }) {
  return {
    client_id: query.clientId,
    mall_ids: [...query.mallIds],
    start_time: range?.start ?? query.start,
    end_time: range?.end ?? query.end,
    start_hour: query.startHour,
    end_hour: query.endHour,
  };
}

/** The same query over whole days (the mall header has no hour picker). */
export function wholeDays(query: ReportQuery): ReportQuery {
  return { ...query, startHour: 0, endHour: 23 };
}

type Range = { start: string; end: string };

export async function getDailyReport(
  query: ReportQuery,
  range?: Range,
  client: ApiClient = api,
): Promise<DailyReportRow[]> {
  return dataOrThrow(await client.GET('/api/mall_report/daily', { params: { query: baseQuery(query, range) } })).data;
}

export async function getMonthlyReport(query: ReportQuery, client: ApiClient = api): Promise<MonthlyReportRow[]> {
  return dataOrThrow(await client.GET('/api/mall_report/monthly', { params: { query: baseQuery(query) } })).data;
}

export async function getMallRanking(
  query: ReportQuery,
  range?: Range,
  client: ApiClient = api,
): Promise<MallRankRow[]> {
  return dataOrThrow(
    await client.GET('/api/mall_report/mall', { params: { query: { ...baseQuery(query, range), rank_by: 'gmv' } } }),
  ).data;
}

export async function getGroupReport(
  query: ReportQuery,
  groupBy: 'outlet' | 'mall' | 'category' | 'level',
  client: ApiClient = api,
): Promise<MallGroupRow[]> {
  return dataOrThrow(
    await client.GET('/api/mall_report/outlet', { params: { query: { ...baseQuery(query), group_by: groupBy } } }),
  ).data;
}

export async function getCategoryReport(query: ReportQuery, client: ApiClient = api): Promise<MallCategoryRow[]> {
  return dataOrThrow(await client.GET('/api/mall_report/category', { params: { query: baseQuery(query) } })).data;
}

export async function getLevelReport(query: ReportQuery, client: ApiClient = api): Promise<MallLevelRow[]> {
  return dataOrThrow(await client.GET('/api/mall_report/level', { params: { query: baseQuery(query) } })).data;
}

export async function getMemberOverall(
  query: ReportQuery,
  options: { range?: Range; timeRange?: TimeRange; metric?: Metric } = {},
  client: ApiClient = api,
): Promise<MemberOverallResponse> {
  return dataOrThrow(
    await client.GET('/api/mall_report/member/overall', {
      params: {
        query: {
          ...baseQuery(query, options.range),
          time_range: options.timeRange ?? query.timeRange,
          metric: options.metric ?? query.metric,
        },
      },
    }),
  );
}

export async function getMemberOutletRanking(
  query: ReportQuery,
  member: boolean,
  limit = 10,
  client: ApiClient = api,
): Promise<OutletRankRow[]> {
  return dataOrThrow(
    await client.GET('/api/mall_report/member/outlet', {
      params: { query: { ...baseQuery(query), member, rank_by: query.metric, limit } },
    }),
  ).data;
}

export async function getPeakHours(
  query: ReportQuery,
  timeRange: TimeRange,
  metric: Metric,
  client: ApiClient = api,
): Promise<PeakHourRow[]> {
  return dataOrThrow(
    await client.GET('/api/mall_report/peak_hour', {
      params: { query: { ...baseQuery(query), time_range: timeRange, metric } },
    }),
  ).data;
}

/** Payment methods are reported for whole days. */
export async function getPaymentMethodOverall(
  query: ReportQuery,
  range?: Range,
  limit = 10,
  client: ApiClient = api,
): Promise<PaymentMethodRow[]> {
  return dataOrThrow(
    await client.GET('/api/mall_report/payment_method/overall', {
      params: { query: { ...baseQuery(wholeDays(query), range), limit } },
    }),
  ).data;
}

/* ---------------------------------------------------------------- page loaders */

export interface Kpi {
  readonly current: number;
  readonly previous: number;
}

export interface MallHomeData {
  readonly previousRange: Range;
  readonly kpis: {
    readonly gmv: Kpi;
    readonly transactions: Kpi;
    readonly averageTransactionValue: Kpi;
    /** Member GMV / GMV (0–1). */
    readonly memberShare: Kpi;
  };
  readonly daily: DailyReportRow[];
  readonly outlets: MallGroupRow[];
  readonly payments: PaymentMethodRow[];
}

function totalsOf(rows: readonly MallRankRow[]) {
  const gmv = round2(rows.reduce((sum, row) => sum + row.gmv, 0));
  const transactions = rows.reduce((sum, row) => sum + row.transactions, 0);
  return { gmv, transactions, averageTransactionValue: transactions === 0 ? 0 : round2(gmv / transactions) };
}

function memberShareOf(response: MemberOverallResponse): number {
  return share(response.total.member, response.total.member + response.total.non_member);
}

/** Mall home: KPIs against the previous period of equal length, the daily trend, the outlet ranking, payments. */
export async function loadMallHome(filters: ReportQuery, client: ApiClient = api): Promise<MallHomeData> {
  const query = wholeDays(filters);
  const previousRange = previousPeriod(query.start, query.end);
  const member = { timeRange: 'daily' as const, metric: 'gmv' as const };
  const [malls, previousMalls, members, previousMembers, daily, outlets, payments] = await Promise.all([
    getMallRanking(query, undefined, client),
    getMallRanking(query, previousRange, client),
    getMemberOverall(query, member, client),
    getMemberOverall(query, { ...member, range: previousRange }, client),
    getDailyReport(query, undefined, client),
    getGroupReport(query, 'outlet', client),
    getPaymentMethodOverall(query, undefined, 10, client),
  ]);
  const now = totalsOf(malls);
  const before = totalsOf(previousMalls);
  return {
    previousRange,
    kpis: {
      gmv: { current: now.gmv, previous: before.gmv },
      transactions: { current: now.transactions, previous: before.transactions },
      averageTransactionValue: { current: now.averageTransactionValue, previous: before.averageTransactionValue },
      memberShare: { current: memberShareOf(members), previous: memberShareOf(previousMembers) },
    },
    daily,
    outlets,
    payments,
  };
}

export interface MallGmvData {
  readonly daily: DailyReportRow[];
  readonly monthly: MonthlyReportRow[];
  readonly outlets: MallGroupRow[];
  readonly categories: MallCategoryRow[];
  readonly levels: MallLevelRow[];
}

/** Mall GMV: daily and monthly GMV and transactions, and the outlet, category and level breakdowns. */
export async function loadMallGmv(filters: ReportQuery, client: ApiClient = api): Promise<MallGmvData> {
  const query = wholeDays(filters);
  const [daily, monthly, outlets, categories, levels] = await Promise.all([
    getDailyReport(query, undefined, client),
    getMonthlyReport(query, client),
    getGroupReport(query, 'outlet', client),
    getCategoryReport(query, client),
    getLevelReport(query, client),
  ]);
  return { daily, monthly, outlets, categories, levels };
}

export interface SeriesPoint {
  readonly period: string;
  readonly value: number;
}

export interface PeakHoursData {
  readonly hours: number[];
  /** [weekday 0 = Monday][hour index]: the metric averaged over the days of that weekday (§9 average chart). */
  readonly heatMap: number[][];
  /** The chosen metric per bucket of the time range (hourly: per day and hour). */
  readonly series: SeriesPoint[];
}

function metricValue(metric: Metric, gmv: number, transactions: number): number {
  if (metric === 'gmv') return round2(gmv);
  if (metric === 'transactions') return transactions;
  return transactions === 0 ? 0 : round2(gmv / transactions);
}

/**
 * Peak hours: the weekday × hour heat map (GMV and transactions averaged per day of each weekday; the average
 * transaction value as GMV over transactions) and the chosen metric over the time range's buckets.
 */
export async function loadPeakHours(query: ReportQuery, client: ApiClient = api): Promise<PeakHoursData> {
  const bucketed = query.timeRange === 'weekly' || query.timeRange === 'monthly';
  const [gmvCells, transactionCells, gmvBuckets, transactionBuckets] = await Promise.all([
    getPeakHours(query, 'daily', 'gmv', client),
    getPeakHours(query, 'daily', 'transactions', client),
    bucketed ? getPeakHours(query, query.timeRange, 'gmv', client) : Promise.resolve(undefined),
    bucketed ? getPeakHours(query, query.timeRange, 'transactions', client) : Promise.resolve(undefined),
  ]);
  const hours: number[] = [];
  for (let hour = query.startHour; hour <= query.endHour; hour += 1) hours.push(hour);
  const gmvSums = Array.from({ length: 7 }, () => hours.map(() => 0));
  const transactionSums = Array.from({ length: 7 }, () => hours.map(() => 0));
  gmvCells.forEach((cell, index) => {
    const weekday = isoWeekday(cell.period) - 1;
    const hourIndex = cell.hour - query.startHour;
    gmvSums[weekday]![hourIndex]! += cell.value;
    transactionSums[weekday]![hourIndex]! += transactionCells[index]?.value ?? 0;
  });
  const counts = weekdayCounts(query.start, query.end);
  const heatMap = gmvSums.map((row, weekday) => {
    if (query.metric === 'average_transaction_value') {
      return averageChart(row, transactionSums[weekday] ?? []);
    }
    const values = query.metric === 'gmv' ? row : (transactionSums[weekday] ?? []);
    return averageChart(
      values,
      values.map(() => counts[weekday] ?? 0),
    );
  });

  const seriesOf = (
    gmv: readonly PeakHourRow[],
    transactions: readonly PeakHourRow[],
    label: (row: PeakHourRow) => string,
  ) => {
    const sums = new Map<string, { gmv: number; transactions: number }>();
    gmv.forEach((row, index) => {
      const key = label(row);
      const sum = sums.get(key) ?? { gmv: 0, transactions: 0 };
      sum.gmv += row.value;
      sum.transactions += transactions[index]?.value ?? 0;
      sums.set(key, sum);
    });
    return [...sums].map(([period, sum]) => ({ period, value: metricValue(query.metric, sum.gmv, sum.transactions) }));
  };
  const series =
    query.timeRange === 'hourly'
      ? seriesOf(gmvCells, transactionCells, (row) => `${row.period} ${String(row.hour).padStart(2, '0')}:00`)
      : query.timeRange === 'daily'
        ? seriesOf(gmvCells, transactionCells, (row) => row.period)
        : seriesOf(gmvBuckets ?? [], transactionBuckets ?? [], (row) => row.period);
  return { hours, heatMap, series };
}

export interface PaymentMethodsData {
  readonly overall: PaymentMethodRow[];
  /** The top methods per bucket (a day for ranges of a week or less, else a week from Monday). */
  readonly buckets: {
    readonly label: string;
    readonly start: string;
    readonly end: string;
    readonly rows: PaymentMethodRow[];
  }[];
}

/** The buckets of the 'over time' chart: days up to a week, else weeks (Monday to Sunday, clipped to the range). */
export function paymentBuckets(start: string, end: string): { label: string; start: string; end: string }[] {
  const days = eachDay(start, end);
  if (days.length <= 7) return days.map((day) => ({ label: day, start: day, end: day }));
  const buckets: { label: string; start: string; end: string }[] = [];
  let bucketStart = start;
  for (const day of days) {
    if (isoWeekday(day) === 7 || day === end) {
      buckets.push({ label: bucketStart === day ? day : `${bucketStart} – ${day}`, start: bucketStart, end: day });
      bucketStart = addDays(day, 1);
    }
  }
  return buckets;
}

/** Payment methods: the overall split (top 10) and the top methods per day or week. */
export async function loadPaymentMethods(filters: ReportQuery, client: ApiClient = api): Promise<PaymentMethodsData> {
  const query = wholeDays(filters);
  const ranges = paymentBuckets(query.start, query.end);
  const [overall, ...perBucket] = await Promise.all([
    getPaymentMethodOverall(query, undefined, 10, client),
    ...ranges.map((range) => getPaymentMethodOverall(query, range, 5, client)),
  ]);
  return {
    overall: overall ?? [],
    buckets: ranges.map((range, index) => ({ ...range, rows: perBucket[index] ?? [] })),
  };
}

export interface MemberVsNonMemberData {
  readonly overall: MemberOverallResponse;
  readonly members: OutletRankRow[];
  readonly nonMembers: OutletRankRow[];
}

/** Member vs non-member: the series and totals for the chosen metric, and the top outlets of each side. */
export async function loadMemberVsNonMember(
  query: ReportQuery,
  client: ApiClient = api,
): Promise<MemberVsNonMemberData> {
  const [overall, members, nonMembers] = await Promise.all([
    getMemberOverall(query, {}, client),
    getMemberOutletRanking(query, true, 10, client),
    getMemberOutletRanking(query, false, 10, client),
  ]);
  return { overall, members, nonMembers };
}
