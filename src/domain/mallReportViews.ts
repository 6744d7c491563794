import type { CompareRule, ComparisonChoice } from './comparisons';
import type { Metric, TimeRange } from './dateLimits';
import type { CommittedFilters } from './filterHeader';
import { NO_DATA } from './messages';
import {
  comparisonLabel,
  completeDaysComparison,
  type GrowthComparison,
  NO_COMPLETE_DAY,
  spanInYearOf,
  spanText,
  withComparisonMeta,
} from './periods';
import {
  addDays,
  averageChart,
  eachDay,
  formatGrowthRate,
  growthRate,
  isoWeekday,
  percentOf,
  previousPeriod,
  round2,
  share,
  weekdayCounts,
} from './reports';

/**
 * What each Shopper Connect page shows, shaped from the answers of its mall report calls (§7 /api/mall_report/*,
 * §9): KPI totals and growth inputs, member share, the peak-hours heat map and series, the payment buckets.
 * Pure functions; the row types are the shapes of the call answers.
 */

/* ---------------------------------------------------------------- rows of the calls */

export interface SalesMeasures {
  readonly gmv: number;
  readonly transactions: number;
  /** gmv / transactions, 2 decimals (0 when no transactions). */
  readonly average_transaction_value: number;
}

export interface DailyReportRow {
  /** `YYYY-MM-DD`. */
  readonly date: string;
  readonly gmv: number;
  readonly transactions: number;
}

export interface MonthlyReportRow {
  /** `YYYY-MM`. */
  readonly month: string;
  readonly gmv: number;
  readonly transactions: number;
}

export interface MallRankRow extends SalesMeasures {
  readonly mall_id: number;
  readonly mall_name: string;
}

export interface MallGroupRow extends SalesMeasures {
  /** Group key (outlet id, mall id, category or level, as a string). */
  readonly key: string;
  readonly name: string;
}

export interface MallCategoryRow extends SalesMeasures {
  readonly category: string;
}

export interface MallLevelRow extends SalesMeasures {
  readonly level: string;
}

export interface OutletRankRow extends SalesMeasures {
  readonly outlet_id: number;
  readonly outlet_name: string;
  readonly mall_id: number;
  readonly mall_name: string;
}

export interface PeakHourRow {
  /** Bucket start, `YYYY-MM-DD` (hourly and daily, weekly = Monday), `YYYY-MM` (monthly). */
  readonly period: string;
  readonly hour: number;
  /** The chosen metric in that period and hour of day. */
  readonly value: number;
}

export interface PaymentMethodRow {
  readonly payment_method: string;
  readonly sum: number;
}

export interface MemberOverallRow {
  readonly period: string;
  readonly member: number;
  readonly non_member: number;
}

export interface MemberOverallResponse {
  readonly data: readonly MemberOverallRow[];
  /** The chosen metric over the whole range. */
  readonly total: { readonly member: number; readonly non_member: number };
}

/** A side of GET /api/mall_report/growth. */
export interface GrowthSide extends SalesMeasures {
  readonly start_time: string;
  readonly end_time: string;
  readonly days: number;
  readonly has_data: boolean;
  readonly member_gmv: number;
}

/** GET /api/mall_report/growth: the range against the days its comparison chose. */
export interface MallGrowthAnswer {
  readonly compare: CompareRule;
  readonly current: GrowthSide;
  readonly compared: GrowthSide;
  readonly aligned: readonly {
    readonly festival: string;
    readonly name: string;
    readonly start_time: string;
    readonly end_time: string;
    readonly compared_start_time: string;
    readonly compared_end_time: string;
  }[];
  readonly like_for_like: { readonly kept: number; readonly left_out: number } | null;
}

/* ---------------------------------------------------------------- the query */

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
  /** The malls' today as the header knows it (`YYYY-MM-DD`): the day still open. */
  readonly today?: string;
  /** An outlet-level page's outlet (the header's one outlet). */
  readonly outletId?: number;
  /** A monthly page's month (`YYYY-MM`, the header's Month picker). */
  readonly month?: string;
  /** What the page's growth figures compare with (the page's own choice, kept when the filters change). */
  readonly comparison?: ComparisonChoice;
  /**
   * Sales trends: each month's growth is against the same month of the year before (the page's own rule, its
   * default), from the monthly report, and `comparison` is not used.
   */
  readonly sameMonthLastYear?: boolean;
}

/** The same query over whole days (the mall header has no hour picker). */
export function wholeDays(query: ReportQuery): ReportQuery {
  return { ...query, startHour: 0, endHour: 23 };
}

/* ---------------------------------------------------------------- mall home */

export interface Kpi {
  /** The whole range, today included: the figure shown. */
  readonly current: number;
  /** What the growth rate compares: the complete days and as many days before them; none without a complete day. */
  readonly growth: { readonly current: number; readonly previous: number } | undefined;
}

export interface MallHomeKpis {
  readonly gmv: Kpi;
  readonly transactions: Kpi;
  readonly averageTransactionValue: Kpi;
  /** Member GMV / GMV (0–1). */
  readonly memberShare: Kpi;
  /** The periods the growth rates compare; undefined when the range holds no complete day. */
  readonly comparison: GrowthComparison | undefined;
  /** No sale captured in the whole range: the figures say 'No Data' rather than zeros. */
  readonly noData: boolean;
}

/** The answers the mall home's KPIs are shaped from: the whole range's, and the growth's when there is one. */
export interface MallHomeKpiResponses {
  readonly malls: readonly MallRankRow[];
  readonly members: MemberOverallResponse;
  /** The complete days against the days the comparison chose (GET /api/mall_report/growth). */
  readonly growth?: MallGrowthAnswer | undefined;
}

/**
 * What the mall home's growth rates compare: the complete days of the (whole-day) query (completeDaysComparison);
 * a query that does not know today is compared whole. The days it is compared with are the server's answer
 * (withGrowthAnswer); until then, the previous period.
 */
export function mallHomeComparison(query: ReportQuery): GrowthComparison | undefined {
  const range = { start: query.start, end: query.end };
  return query.today === undefined
    ? { current: range, previous: previousPeriod(range.start, range.end), todayLeftOut: false }
    : completeDaysComparison(range, query.today);
}

/** The comparison as the server made it: the days compared with, the rule, the festivals met, the outlets kept. */
export function withGrowthAnswer(comparison: GrowthComparison, answer: MallGrowthAnswer): GrowthComparison {
  return {
    ...withComparisonMeta(
      comparison,
      { start: answer.compared.start_time, end: answer.compared.end_time },
      { ...answer, has_data: answer.compared.has_data },
    ),
    nothingCompared: !answer.current.has_data,
  };
}

/** GMV (2 decimals), transactions and average transaction value summed over the malls. */
export function mallTotals(rows: readonly MallRankRow[]): {
  gmv: number;
  transactions: number;
  averageTransactionValue: number;
} {
  const gmv = round2(rows.reduce((sum, row) => sum + row.gmv, 0));
  const transactions = rows.reduce((sum, row) => sum + row.transactions, 0);
  return { gmv, transactions, averageTransactionValue: transactions === 0 ? 0 : round2(gmv / transactions) };
}

/** Member GMV over all GMV (0–1); 0 when there is none. */
export function memberShareOf(response: MemberOverallResponse): number {
  return share(response.total.member, response.total.member + response.total.non_member);
}

/**
 * Mall home: the KPIs of the whole range, each with its growth over the comparison's complete days against as many
 * days before them (none when the comparison or its answers are missing).
 */
export function mallHomeKpis(comparison: GrowthComparison | undefined, responses: MallHomeKpiResponses): MallHomeKpis {
  const now = mallTotals(responses.malls);
  const answer = comparison ? responses.growth : undefined;
  const kpi = (current: number, pick: (side: MallGrowthAnswer['current']) => number): Kpi => ({
    current,
    growth: answer ? { current: pick(answer.current), previous: pick(answer.compared) } : undefined,
  });
  const memberShareOfSide = (side: MallGrowthAnswer['current']) => share(side.member_gmv, side.gmv);
  return {
    gmv: kpi(now.gmv, (side) => side.gmv),
    transactions: kpi(now.transactions, (side) => side.transactions),
    averageTransactionValue: kpi(now.averageTransactionValue, (side) => side.average_transaction_value),
    memberShare: kpi(memberShareOf(responses.members), memberShareOfSide),
    comparison: answer && comparison ? withGrowthAnswer(comparison, answer) : undefined,
    noData: !responses.malls.some((row) => row.transactions > 0 || row.gmv !== 0),
  };
}

/** A KPI's figure as shown: 'No Data' when its range holds no sale at all (not a zero), else `format`'s text. */
export function kpiValueText(noData: boolean | undefined, value: number, format: (value: number) => string): string {
  return noData === true ? NO_DATA : format(value);
}

/** Beside a growth rate whose compared days hold no sale (§9 still gives 0.00%). */
export const NOTHING_TO_COMPARE = 'nothing to compare';
/** A figure of days without any captured sale, in a sentence. */
export const NO_DATA_SHORT = 'no data';

/** A KPI's growth line: its text and whether it went up, down or neither. */
export interface GrowthLine {
  /** '▲ 25.00% vs 3–8 Mar (today left out)', '0.00% vs 2–8 Mar', or NO_COMPLETE_DAY. */
  readonly text: string;
  readonly trend: 'up' | 'down' | 'flat' | 'none';
  /**
   * The two figures the rate compares, each with its days: '$720.00, 2–8 Mar vs $576.00, 24 Feb – 1 Mar' (the
   * headline may hold today, which the rate leaves out, so the compared figure can differ from it).
   */
  readonly compared?: string;
}

/**
 * The growth line of a KPI card (§9 growth rate, 2 decimals, 0.00% when the previous figure is zero); with `format`
 * (the card's format of its figure), the two figures it compares and their days.
 */
export function kpiGrowthLine(
  kpi: Kpi,
  comparison: GrowthComparison | undefined,
  format?: (value: number) => string,
): GrowthLine {
  if (!kpi.growth || !comparison) return { text: NO_COMPLETE_DAY, trend: 'none' };
  const rate = growthRate(kpi.growth.current, kpi.growth.previous);
  const trend = rate > 0 ? 'up' : rate < 0 ? 'down' : 'flat';
  const arrow = trend === 'up' ? '▲ ' : trend === 'down' ? '▼ ' : '';
  const nothing = comparison.nothingToCompare === true ? ` · ${NOTHING_TO_COMPARE}` : '';
  const text = `${arrow}${formatGrowthRate(rate)} ${comparisonLabel(comparison)}${nothing}`;
  if (!format) return { text, trend };
  const compared = comparedFigures(comparison, format(kpi.growth.current), format(kpi.growth.previous));
  return { text, trend, compared };
}

/**
 * The two figures a growth rate compares, each with its days (the compared days with their year when it is not the
 * current days' year): '$510.00, 15–21 Feb vs $430.00, 26 Jan – 8 Feb 2025'; days without any sale are 'no data'. `joiner` is what stands between the two sides (' vs ', or ', vs ' after a rate: sales trends).
 */
export function comparedFigures(
  comparison: Pick<GrowthComparison, 'current' | 'previous' | 'nothingToCompare' | 'nothingCompared'>,
  current: string,
  previous: string,
  joiner = ' vs ',
): string {
  const before = comparison.nothingToCompare === true ? NO_DATA_SHORT : previous;
  const now = comparison.nothingCompared === true ? NO_DATA_SHORT : current;
  const days = comparison.current;
  return (
    `${now}, ${spanText(days.start, days.end)}${joiner}` + `${before}, ${spanInYearOf(comparison.previous, days.end)}`
  );
}

/** The columns of the KPI CSV file. */
export const KPI_CSV_KEYS = [
  'measure',
  'current',
  'compared_period',
  'compared',
  'previous_period',
  'previous',
] as const;

export type KpiCsvRow = Record<(typeof KPI_CSV_KEYS)[number], string | number>;

const periodText = (period: { start: string; end: string }) => `${period.start} to ${period.end}`;

/**
 * One KPI as a CSV row: the whole range's figure, then the periods its growth compares with their figures (empty
 * without a comparison or growth); `shown` turns a figure into what the page shows (a ratio into a percentage).
 */
export function kpiCsvRow(
  comparison: GrowthComparison | undefined,
  measure: string,
  kpi: Kpi,
  shown: (value: number) => number = (value) => value,
): KpiCsvRow {
  return {
    measure,
    current: shown(kpi.current),
    compared_period: comparison ? periodText(comparison.current) : '',
    compared: kpi.growth ? shown(kpi.growth.current) : '',
    previous_period: comparison ? periodText(comparison.previous) : '',
    previous: kpi.growth ? shown(kpi.growth.previous) : '',
  };
}

/**
 * The KPIs as CSV rows: one measure a row, the whole range's figure, then the periods the growth compares with
 * their figures (empty when the range holds no complete day).
 */
export function kpiCsvRows(kpis: MallHomeKpis | undefined): KpiCsvRow[] {
  if (!kpis) return [];
  const row = (measure: string, kpi: Kpi, shown?: (value: number) => number) =>
    kpiCsvRow(kpis.comparison, measure, kpi, shown);
  return [
    row('GMV', kpis.gmv),
    row('Transactions', kpis.transactions),
    row('Average Transaction Value', kpis.averageTransactionValue),
    // As the page shows it: a percentage to 1 decimal.
    row('Member Share (%)', kpis.memberShare, percentOf),
  ];
}

/* ---------------------------------------------------------------- mall GMV */

export interface MallGmvData {
  readonly daily: readonly DailyReportRow[];
  readonly monthly: readonly MonthlyReportRow[];
  readonly outlets: readonly MallGroupRow[];
  readonly categories: readonly MallCategoryRow[];
  readonly levels: readonly MallLevelRow[];
}

/* ---------------------------------------------------------------- peak hours */

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

/** The answers the peak hours page is shaped from. */
export interface PeakHoursResponses {
  /** GMV per day and hour. */
  readonly gmvCells: readonly PeakHourRow[];
  /** Transactions per day and hour. */
  readonly transactionCells: readonly PeakHourRow[];
  /** Weekly and monthly time ranges: GMV and transactions per bucket and hour. */
  readonly gmvBuckets?: readonly PeakHourRow[];
  readonly transactionBuckets?: readonly PeakHourRow[];
}

/** Weekly and monthly time ranges read buckets of their own; hourly and daily ones are shaped from the cells. */
export function peakHoursNeedsBuckets(timeRange: TimeRange): boolean {
  return timeRange === 'weekly' || timeRange === 'monthly';
}

/** The metric of a bucket from its GMV and transactions (the average transaction value as GMV / transactions). */
export function metricValue(metric: Metric, gmv: number, transactions: number): number {
  if (metric === 'gmv') return round2(gmv);
  if (metric === 'transactions') return transactions;
  return transactions === 0 ? 0 : round2(gmv / transactions);
}

/** The hours of the query's hour range, in order. */
export function hoursOf(query: Pick<ReportQuery, 'startHour' | 'endHour'>): number[] {
  const hours: number[] = [];
  for (let hour = query.startHour; hour <= query.endHour; hour += 1) hours.push(hour);
  return hours;
}

/** Sums the cells into [weekday 0 = Monday][hour index], each cell by its own day and hour. */
function weekdayHourSums(cells: readonly PeakHourRow[], hours: readonly number[]): number[][] {
  const sums = Array.from({ length: 7 }, () => hours.map(() => 0));
  for (const cell of cells) {
    const row = sums[isoWeekday(cell.period) - 1];
    const hourIndex = hours.indexOf(cell.hour);
    if (row === undefined || hourIndex === -1) continue;
    row[hourIndex] = (row[hourIndex] ?? 0) + cell.value;
  }
  return sums;
}

/** GMV and transactions summed per label, each row by its own key; labels in order. */
function seriesOf(
  gmv: readonly PeakHourRow[],
  transactions: readonly PeakHourRow[],
  label: (row: PeakHourRow) => string,
  metric: Metric,
): SeriesPoint[] {
  const sums = new Map<string, { gmv: number; transactions: number }>();
  const sumOf = (key: string) => {
    const sum = sums.get(key) ?? { gmv: 0, transactions: 0 };
    sums.set(key, sum);
    return sum;
  };
  for (const row of gmv) sumOf(label(row)).gmv += row.value;
  for (const row of transactions) sumOf(label(row)).transactions += row.value;
  return [...sums]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([period, sum]) => ({ period, value: metricValue(metric, sum.gmv, sum.transactions) }));
}

/**
 * Peak hours: the weekday × hour heat map (GMV and transactions averaged per day of each weekday; the average
 * transaction value as GMV over transactions) and the chosen metric over the time range's buckets. GMV and
 * transaction rows are matched by their day (or bucket) and hour, whatever order they come in; a missing row
 * counts as 0.
 */
export function peakHoursView(query: ReportQuery, responses: PeakHoursResponses): PeakHoursData {
  const hours = hoursOf(query);
  const gmvSums = weekdayHourSums(responses.gmvCells, hours);
  const transactionSums = weekdayHourSums(responses.transactionCells, hours);
  const counts = weekdayCounts(query.start, query.end);
  const heatMap = gmvSums.map((row, weekday) => {
    const transactions = transactionSums[weekday] ?? [];
    if (query.metric === 'average_transaction_value') return averageChart(row, transactions);
    const values = query.metric === 'gmv' ? row : transactions;
    return averageChart(
      values,
      values.map(() => counts[weekday] ?? 0),
    );
  });
  const series =
    query.timeRange === 'hourly'
      ? seriesOf(
          responses.gmvCells,
          responses.transactionCells,
          (row) => `${row.period} ${String(row.hour).padStart(2, '0')}:00`,
          query.metric,
        )
      : query.timeRange === 'daily'
        ? seriesOf(responses.gmvCells, responses.transactionCells, (row) => row.period, query.metric)
        : seriesOf(responses.gmvBuckets ?? [], responses.transactionBuckets ?? [], (row) => row.period, query.metric);
  return { hours, heatMap, series };
}

export const WEEKDAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'] as const;

/** The heat map's column keys: one an hour shown. */
export function heatMapKeys(hours: readonly number[]): string[] {
  return hours.map((hour) => `hour_${hour}`);
}

/** The heat map as CSV rows: one a weekday, one column an hour (`heatMapKeys`). */
export function heatMapCsvRows(
  data: Pick<PeakHoursData, 'hours' | 'heatMap'> | undefined,
): Record<string, string | number>[] {
  if (!data) return [];
  const keys = heatMapKeys(data.hours);
  return WEEKDAYS.map((weekday, index) => ({
    weekday,
    ...Object.fromEntries(keys.map((key, hour) => [key, data.heatMap[index]?.[hour] ?? 0])),
  }));
}

/* ---------------------------------------------------------------- payment methods */

export interface PaymentBucket {
  readonly label: string;
  readonly start: string;
  readonly end: string;
}

/** The buckets of the 'over time' chart: days up to a week, else weeks (Monday to Sunday, clipped to the range). */
export function paymentBuckets(start: string, end: string): PaymentBucket[] {
  const days = eachDay(start, end);
  if (days.length <= 7) return days.map((day) => ({ label: day, start: day, end: day }));
  const buckets: PaymentBucket[] = [];
  let bucketStart = start;
  for (const day of days) {
    if (isoWeekday(day) === 7 || day === end) {
      buckets.push({ label: bucketStart === day ? day : `${bucketStart} – ${day}`, start: bucketStart, end: day });
      bucketStart = addDays(day, 1);
    }
  }
  return buckets;
}

/** The top payment methods over time: the buckets, and each method's sum per bucket. */
export interface PaymentOverTime {
  readonly labels: readonly string[];
  /** Every method of any bucket's answer, the largest sum over all buckets first. */
  readonly methods: readonly string[];
  /** [method index][bucket index]: the method's sum in the bucket, 0 when not among its top methods. */
  readonly sums: readonly (readonly number[])[];
}

/** The top methods of each bucket, keyed by method (none answered for a bucket: empty). */
export function paymentOverTime(
  buckets: readonly PaymentBucket[],
  perBucket: readonly (readonly PaymentMethodRow[] | undefined)[],
): PaymentOverTime {
  const totals = new Map<string, number>();
  for (const rows of perBucket) {
    for (const row of rows ?? []) totals.set(row.payment_method, (totals.get(row.payment_method) ?? 0) + row.sum);
  }
  const methods = [...totals.entries()].sort((a, b) => b[1] - a[1]).map(([method]) => method);
  return {
    labels: buckets.map((bucket) => bucket.label),
    methods,
    sums: methods.map((method) =>
      buckets.map((_, index) => perBucket[index]?.find((row) => row.payment_method === method)?.sum ?? 0),
    ),
  };
}

/** One row a bucket: its period and each method's sum, keyed by the method's name. */
export function paymentOverTimeRows(overTime: PaymentOverTime | undefined): Record<string, string | number>[] {
  if (!overTime) return [];
  return overTime.labels.map((period, bucket) => ({
    period,
    ...Object.fromEntries(overTime.methods.map((method, index) => [method, overTime.sums[index]?.[bucket] ?? 0])),
  }));
}

/* ---------------------------------------------------------------- member vs non-member */

export interface MemberVsNonMemberData {
  readonly overall: MemberOverallResponse;
  readonly members: readonly OutletRankRow[];
  readonly nonMembers: readonly OutletRankRow[];
}

/** The report query of the header's committed filters; undefined until a client and malls are known. `withHours`:
 * Header V2 pages (hours, time range and metric); the other pages report whole days. `today`: the header's. */
export function reportQueryOf(filters: CommittedFilters, withHours: boolean, today?: string): ReportQuery | undefined {
  if (filters.clientId === undefined || filters.mallIds.length === 0) return undefined;
  return {
    clientId: filters.clientId,
    mallIds: filters.mallIds,
    start: filters.dateRange.start,
    end: filters.dateRange.end,
    startHour: withHours ? filters.hours.from : 0,
    endHour: withHours ? filters.hours.to : 23,
    timeRange: withHours ? filters.timeRange : 'daily',
    metric: withHours ? filters.metric : 'gmv',
    ...(today === undefined ? {} : { today }),
    ...(filters.month === undefined ? {} : { month: filters.month }),
  };
}
