/**
 * Tenant Connect's sales analysis (/tenant-connect/sales-analysis): one outlet over the header's whole days. Pure
 * functions: the comparison periods and growth rates of the KPIs, the buckets and labels of the revenue,
 * transactions and units series, the meal timing and item breakdown tables, the top-SKU table's sorts, and the CSV
 * files of each table. Days are `YYYY-MM-DD` (the outlet's mall's local days).
 */
import { COMPARE_RULE_LABELS, type CompareRule, comparedDays } from './comparisons';
import { type CsvFile, csvNumeral } from './csv';
import type { CommittedFilters } from './filterHeader';
import { type CurrencyFormat, formatDay, formatMoney, formatMonth, formatNumber } from './format';
import { type GrowthLine, kpiGrowthLine, NOTHING_TO_COMPARE, type ReportQuery, reportQueryOf } from './mallReportViews';
import { NO_DATA } from './messages';
import {
  bucketMark,
  type ComparisonMeta,
  completeDaysComparison,
  type GrowthComparison,
  type PeriodMark,
  withComparisonMeta,
} from './periods';
import {
  addDays,
  daysInRange,
  eachDay,
  isoWeekday,
  monthsInRange,
  type Period,
  percentOf,
  previousPeriod,
  round2,
  share,
  sortTableRows,
  type TableSort,
} from './reports';

/** The '{what}' of the page's failure toasts: 'Sales analysis error occurs. Please try again later.'. */
export const SALES_ANALYSIS_WHAT = 'Sales analysis';

/* ---------------------------------------------------------------- the query */

/** The outlet, client and days the page reports (the header's one outlet). */
export interface OutletRangeOf extends Period {
  readonly clientId: number;
  readonly outletId: number;
}

/**
 * The page's report query of the header's committed filters: whole days of its one outlet; undefined without a
 * client, its malls or a single outlet ('All Outlets' is not offered on an outlet-level page).
 */
export function salesAnalysisQueryOf(filters: CommittedFilters, today: string | undefined): ReportQuery | undefined {
  const query = reportQueryOf(filters, false, today);
  if (query === undefined || typeof filters.outlet !== 'number') return undefined;
  return { ...query, outletId: filters.outlet };
}

/** The outlet and days of a report query (the calls' parameters). */
export function outletRangeOf(query: ReportQuery): OutletRangeOf {
  if (query.outletId === undefined) throw new Error('sales analysis: no outlet');
  return { clientId: query.clientId, outletId: query.outletId, start: query.start, end: query.end };
}

/** The range includes the header's today: its figures are so far. */
export function includesToday(range: Period, today: string | undefined): boolean {
  return today !== undefined && range.start <= today && today <= range.end;
}

/* ---------------------------------------------------------------- comparison and growth */

export type ComparisonMode = 'previous' | 'lastYear' | 'festival';

export const COMPARISON_MODES: readonly ComparisonMode[] = ['previous', 'lastYear', 'festival'];

/** The rule of src/domain/comparisons a mode compares by (the mall pages' rules). */
export const COMPARISON_RULES: Readonly<Record<ComparisonMode, CompareRule>> = {
  previous: 'previous',
  lastYear: 'same_weekday_last_year',
  festival: 'festival_aligned',
};

/** Each mode named as the mall pages name its rule. */
export const COMPARISON_LABELS: Readonly<Record<ComparisonMode, string>> = {
  previous: COMPARE_RULE_LABELS[COMPARISON_RULES.previous],
  lastYear: COMPARE_RULE_LABELS[COMPARISON_RULES.lastYear],
  festival: COMPARE_RULE_LABELS[COMPARISON_RULES.festival],
};

export function isComparisonMode(value: string): value is ComparisonMode {
  return (COMPARISON_MODES as readonly string[]).includes(value);
}

/** The mode that compares by `rule` (the rule a link or the mall pages name). */
export function comparisonModeOf(rule: CompareRule): ComparisonMode {
  return COMPARISON_MODES.find((mode) => COMPARISON_RULES[mode] === rule) ?? 'previous';
}

/**
 * The period the KPIs are compared with: the same number of days just before the range ('previous'), or the same
 * weekdays a year before, 364 days back ('lastYear': comparedDays' same_weekday_last_year).
 */
export function comparisonPeriod(range: Period, mode: ComparisonMode): Period {
  if (mode === 'previous') return previousPeriod(range.start, range.end);
  // Festival-aligned days need the outlet's calendar: the server chooses them (the same weekdays until it answers).
  return comparedDays('same_weekday_last_year', range).span;
}

/** A period as the page writes it: '3 Mar 2026 – 9 Mar 2026', or one day '3 Mar 2026'. */
export function periodText(period: Period): string {
  return period.start === period.end
    ? formatDay(period.start)
    : `${formatDay(period.start)} – ${formatDay(period.end)}`;
}

/**
 * What the KPIs' growth compares (the days of `growthComparison`, the range's complete days): 'Compared with 26 Feb
 * 2026 – 4 Mar 2026 (the previous 7 days)'.
 */
export function comparisonText(days: Period, mode: ComparisonMode, comparedWith?: Period): string {
  const compared = periodText(comparedWith ?? comparisonPeriod(days, mode));
  const count = daysInRange(days.start, days.end);
  const what =
    mode === 'previous'
      ? `the previous ${count === 1 ? 'day' : `${count} days`}`
      : mode === 'lastYear'
        ? 'the same weekdays last year'
        : 'last year, its festivals met';
  return `Compared with ${compared} (${what})`;
}

/**
 * The periods the KPIs' growth compares, as the other pages compare them (completeDaysComparison): the range's
 * complete days, start to the earlier of its end and yesterday (today is still open and left out), against the
 * comparison period of those days (as many days just before them, or the same weekdays a year before); the whole range
 * when today is not known; undefined when the range holds no complete day (today alone).
 */
export function growthComparison(
  range: Period,
  mode: ComparisonMode,
  today: string | undefined,
): GrowthComparison | undefined {
  const complete = today === undefined ? { current: range, todayLeftOut: false } : completeDaysComparison(range, today);
  return (
    complete && {
      current: complete.current,
      previous: comparisonPeriod(complete.current, mode),
      todayLeftOut: complete.todayLeftOut,
      rule: COMPARISON_RULES[mode],
    }
  );
}

/** The comparison, told whether its compared days hold any sale (none: 'nothing to compare', §9's 0.00%). */
export function withComparedTotals(comparison: GrowthComparison, compared: PeriodTotals): GrowthComparison {
  return { ...comparison, nothingToCompare: !hasSales(compared) };
}

export interface Growth {
  /** (current − compared) / compared × 100 to 2 decimals; 0 when the compared figure is zero (§9). */
  readonly rate: number;
  /** '+12.35%', '-4.00%', '0.00%' (no change, or nothing to compare with). */
  readonly text: string;
  readonly trend: 'up' | 'down' | 'flat';
}

/** §9's growth rate with its sign; 0.00% when the compared figure is zero (there is nothing to compare with). */
export function growthOf(current: number, compared: number): Growth {
  if (compared === 0) return { rate: 0, text: '0.00%', trend: 'flat' };
  const rate = round2(((current - compared) / compared) * 100);
  if (rate === 0) return { rate: 0, text: '0.00%', trend: 'flat' };
  return rate > 0
    ? { rate, text: `+${rate.toFixed(2)}%`, trend: 'up' }
    : { rate, text: `${rate.toFixed(2)}%`, trend: 'down' };
}

/** The four figures of a period (the answer of GET /outlets/overallComparison for one side). */
export interface PeriodTotals {
  readonly revenue: number;
  readonly transactions: number;
  readonly unit_sales: number;
  readonly average_transaction_value: number;
}

export type KpiMeasure = 'revenue' | 'transactions' | 'units' | 'averageTransactionValue';

export const KPI_MEASURES: readonly KpiMeasure[] = ['revenue', 'transactions', 'units', 'averageTransactionValue'];

export const KPI_LABELS: Readonly<Record<KpiMeasure, string>> = {
  revenue: 'Revenue',
  transactions: 'Transactions',
  units: 'Units Sold',
  averageTransactionValue: 'Average Transaction Value',
};

/** Whether a period's figures hold any sale (none: 'No Data' rather than zeros). */
export function hasSales(totals: PeriodTotals): boolean {
  return totals.revenue !== 0 || totals.transactions !== 0 || totals.unit_sales !== 0;
}

/** The measures that are money (the others are counts). */
export const MONEY_MEASURES: ReadonlySet<KpiMeasure> = new Set(['revenue', 'averageTransactionValue']);

const totalOf = (totals: PeriodTotals, measure: KpiMeasure): number =>
  measure === 'revenue'
    ? totals.revenue
    : measure === 'transactions'
      ? totals.transactions
      : measure === 'units'
        ? totals.unit_sales
        : totals.average_transaction_value;

/**
 * The KPIs of one comparison mode (a KPI panel's answer): the whole range's totals (today so far included) and the
 * growth's two periods' totals (`comparison`: the complete days against their comparison period); no growth when
 * the range holds no complete day.
 */
export interface SalesKpis {
  readonly totals: PeriodTotals;
  readonly growth: { readonly current: PeriodTotals; readonly compared: PeriodTotals } | undefined;
  readonly comparison: GrowthComparison | undefined;
}

/** One answer of GET /outlets/overallComparison as the KPIs read it: both sides' totals, and the festival days chosen. */
export interface OutletComparisonAnswer {
  readonly current: PeriodTotals;
  readonly compared: PeriodTotals;
  readonly compared_start_time?: string | undefined;
  readonly compared_end_time?: string | undefined;
  readonly comparison?: ComparisonMeta | undefined;
}

/**
 * How the KPIs ask GET /outlets/overallComparison of the outlet: `days` against `compared` ('period'), or against
 * last year's days met by festival, which the server chooses ('festival_aligned': `compared` is not used).
 */
export type AskOutletComparison = (
  days: Period,
  compared: Period,
  compare: 'period' | 'festival_aligned',
) => Promise<OutletComparisonAnswer>;

/**
 * The KPIs of `mode` (a KPI panel's answer; the page's machine and its workbook ask the same): the whole range's
 * totals, and the growth over growthComparison's days (the range's complete days: today, still open, left out)
 * against their comparison period (told whether it holds a sale: nothing to compare when not). One call when the
 * range is compared whole; when today is left out, the range's totals and the complete days' comparison are two
 * calls (the first one's compared totals are not used); today alone asks the range's totals only.
 */
export async function salesKpisOf(
  range: Period,
  mode: ComparisonMode,
  today: string | undefined,
  ask: AskOutletComparison,
): Promise<SalesKpis> {
  const comparison = growthComparison(range, mode, today);
  const compare = mode === 'festival' ? 'festival_aligned' : 'period';
  /** The comparison as the server made it (the festival days it chose), told whether they hold any sale. */
  const made = (growth: OutletComparisonAnswer) => {
    if (!comparison) return comparison;
    const chosen =
      growth.comparison && growth.compared_start_time && growth.compared_end_time
        ? withComparisonMeta(
            comparison,
            { start: growth.compared_start_time, end: growth.compared_end_time },
            growth.comparison,
          )
        : comparison;
    return withComparedTotals(chosen, growth.compared);
  };
  if (comparison && !comparison.todayLeftOut) {
    const answer = await ask(range, comparison.previous, compare);
    return { totals: answer.current, growth: answer, comparison: made(answer) };
  }
  const [whole, growth] = await Promise.all([
    ask(range, comparisonPeriod(range, mode), compare),
    comparison ? ask(comparison.current, comparison.previous, compare) : Promise.resolve(undefined),
  ]);
  return { totals: whole.current, growth, comparison: growth ? made(growth) : comparison };
}

export interface KpiGrowth {
  /** The figure of the compared days (the range's complete days). */
  readonly current: number;
  /** The figure of their comparison period. */
  readonly compared: number;
  readonly change: Growth;
}

export interface KpiFigure {
  readonly measure: KpiMeasure;
  /** The whole range's figure (today so far included). */
  readonly current: number;
  /** Undefined when the range holds no complete day (today alone): no growth yet. */
  readonly growth: KpiGrowth | undefined;
}

/** The KPIs: each measure's whole-range figure and its growth over the compared days. */
export function kpiFigures(kpis: Pick<SalesKpis, 'totals' | 'growth'>): KpiFigure[] {
  return KPI_MEASURES.map((measure) => {
    const growth = kpis.growth;
    if (!growth) return { measure, current: totalOf(kpis.totals, measure), growth: undefined };
    const current = totalOf(growth.current, measure);
    const compared = totalOf(growth.compared, measure);
    return {
      measure,
      current: totalOf(kpis.totals, measure),
      growth: { current, compared, change: growthOf(current, compared) },
    };
  });
}

/** A KPI's figure as its card shows it: money in the outlet's currency, or a count. */
export function kpiValueText(measure: KpiMeasure, value: number, currency: CurrencyFormat | undefined): string {
  return MONEY_MEASURES.has(measure) ? formatMoney(value, currency) : formatNumber(value);
}

/** A KPI card's figure: 'No Data' when the range holds no sale, rather than $0.00 or 0. */
export function kpiCardValue(figure: KpiFigure, totals: PeriodTotals, currency: CurrencyFormat | undefined): string {
  return hasSales(totals) ? kpiValueText(figure.measure, figure.current, currency) : NO_DATA;
}

/**
 * A KPI card's growth line, the other KPI cards' (kpiGrowthLine): '▲ 25.00% vs 3–9 Mar 2025, same weekdays last
 * year', and the two figures compared with their days ('Rp1,500,000, 10–16 Mar vs Rp1,200,000, 3–9 Mar 2025');
 * compared days without a sale: '0.00% vs … · nothing to compare' and 'no data'; NO_COMPLETE_DAY without a growth.
 */
export function salesKpiGrowthLine(
  figure: KpiFigure,
  comparison: GrowthComparison | undefined,
  currency: CurrencyFormat | undefined,
): GrowthLine {
  const growth = figure.growth;
  return kpiGrowthLine(
    { current: figure.current, growth: growth && { current: growth.current, previous: growth.compared } },
    comparison,
    (value) => kpiValueText(figure.measure, value, currency),
  );
}

export const KPI_CSV_KEYS = [
  'measure',
  'current',
  'compared',
  'growth',
  'period',
  'compared_with',
  'compared_period',
  'growth_period',
  'growth_period_value',
  'note',
] as const;

const periodCell = (period: Period | undefined) => (period ? `${period.start} to ${period.end}` : '');

/**
 * The KPI file: a row a measure, with its periods named: the range (its figure), the compared period (its figure and
 * the growth) and the days the growth compares (the range's complete days: today left out) with their figure, and
 * what they are compared with ('Same weekdays last year'); the growth's cells are empty without a complete day. The
 * note says 'No Data' for a range without a sale and 'nothing to compare' for compared days without one.
 */
export function kpiCsv(
  figures: readonly KpiFigure[],
  range: Period,
  comparison: GrowthComparison | undefined,
  mode: ComparisonMode,
  totals?: PeriodTotals,
): CsvFile {
  const notes = [
    ...(totals && !hasSales(totals) ? [NO_DATA] : []),
    ...(comparison?.nothingToCompare === true ? [NOTHING_TO_COMPARE] : []),
  ];
  return {
    name: 'kpis',
    keys: KPI_CSV_KEYS,
    rows: figures.map((figure) => ({
      measure: KPI_LABELS[figure.measure],
      current: figure.current,
      compared: figure.growth?.compared,
      // '+3.20%', '-1.50%' or '0.00%' (a numeral).
      growth: figure.growth && csvNumeral(figure.growth.change.text),
      period: periodCell(range),
      compared_with: figure.growth ? COMPARISON_LABELS[mode] : '',
      compared_period: periodCell(figure.growth && comparison?.previous),
      growth_period: periodCell(figure.growth && comparison?.current),
      growth_period_value: figure.growth?.current,
      note: notes.join('; '),
    })),
  };
}

/* ---------------------------------------------------------------- the series over time */

export type TrendTimeRange = 'hourly' | 'daily' | 'weekly' | 'monthly';
export type TrendMeasure = 'revenue' | 'transactions' | 'units';

export const TREND_TIME_RANGES: readonly TrendTimeRange[] = ['hourly', 'daily', 'weekly', 'monthly'];
export const TREND_MEASURES: readonly TrendMeasure[] = ['revenue', 'transactions', 'units'];
export const DEFAULT_TREND_TIME_RANGE: TrendTimeRange = 'daily';

export const TIME_RANGE_LABELS: Readonly<Record<TrendTimeRange, string>> = {
  hourly: 'Hourly',
  daily: 'Daily',
  weekly: 'Weekly',
  monthly: 'Monthly',
};

export const TREND_MEASURE_LABELS: Readonly<Record<TrendMeasure, string>> = {
  revenue: 'Revenue',
  transactions: 'Transactions',
  units: 'Units Sold',
};

/** Hourly buckets are asked of ranges up to this many days (the contract's rule). */
export const HOURLY_MAX_DAYS = 31;

export function isTrendTimeRange(value: string): value is TrendTimeRange {
  return (TREND_TIME_RANGES as readonly string[]).includes(value);
}

export function isTrendMeasure(value: string): value is TrendMeasure {
  return (TREND_MEASURES as readonly string[]).includes(value);
}

/** Whether the range may be bucketed so: hourly only up to HOURLY_MAX_DAYS days. */
export function isTimeRangeAllowed(timeRange: TrendTimeRange, range: Period): boolean {
  return timeRange !== 'hourly' || daysInRange(range.start, range.end) <= HOURLY_MAX_DAYS;
}

/** The time range a range is shown in: the one chosen when allowed, else the default (Daily). */
export function timeRangeFor(chosen: TrendTimeRange, range: Period): TrendTimeRange {
  return isTimeRangeAllowed(chosen, range) ? chosen : DEFAULT_TREND_TIME_RANGE;
}

const pad2 = (value: number) => String(value).padStart(2, '0');

/** The Monday of a day's week. */
export function mondayOf(day: string): string {
  return addDays(day, 1 - isoWeekday(day));
}

/**
 * Every bucket key of a range as the server writes them: 'YYYY-MM-DD HH:00' (hourly), the day (daily), the week's
 * Monday (weekly, the first one on or before the start), 'YYYY-MM' (monthly); oldest first.
 */
export function bucketKeys(timeRange: TrendTimeRange, range: Period): string[] {
  if (timeRange === 'monthly') return monthsInRange(range.start, range.end);
  if (timeRange === 'weekly') {
    const keys: string[] = [];
    for (let monday = mondayOf(range.start); monday <= range.end; monday = addDays(monday, 7)) keys.push(monday);
    return keys;
  }
  const days = eachDay(range.start, range.end);
  if (timeRange === 'daily') return days;
  return days.flatMap((day) => Array.from({ length: 24 }, (_, hour) => `${day} ${pad2(hour)}:00`));
}

/** A day as the charts write it: '24/11'. */
export const chartDayLabel = (date: string) => `${date.slice(8, 10)}/${date.slice(5, 7)}`;

/**
 * A bucket's label and whether it is partial: today's day, week and month 'so far'; a week or month the range cuts
 * short with its real span; an hour of today '(today)', drawn apart like the day it belongs to.
 */
export function trendMark(timeRange: TrendTimeRange, key: string, range: Period, today: string): PeriodMark {
  if (timeRange === 'hourly') {
    const day = key.slice(0, 10);
    const label = `${chartDayLabel(day)} ${key.slice(11, 16)}`;
    return day === today
      ? { label: `${label} (today)`, partial: true, open: true }
      : { label, partial: false, open: false };
  }
  return bucketMark(timeRange, key, range, today, { day: chartDayLabel, month: formatMonth });
}

/** The day the series' and items' buckets are marked 'so far' by: the header's today, else the range's end. */
export function markedToday(range: Period, today: string | undefined): string {
  return today ?? range.end;
}

/** One bucket of the series: its figures and how it is labelled. */
export interface TrendRow {
  readonly key: string;
  readonly label: string;
  readonly partial: boolean;
  readonly open: boolean;
  readonly revenue: number;
  readonly transactions: number;
  readonly units: number;
}

export interface SeriesAnswer {
  readonly data: readonly { readonly key: string; readonly value: number }[];
  readonly total: number;
}

export interface Trend {
  readonly timeRange: TrendTimeRange;
  readonly rows: readonly TrendRow[];
  /** The server's totals over the range. */
  readonly totals: { readonly revenue: number; readonly transactions: number; readonly units: number };
}

/**
 * The three series as one table: every bucket of the range (a bucket the server leaves out is zero; one outside the
 * range's buckets is kept, in key order), labelled by trendMark.
 */
export function trendOf(
  timeRange: TrendTimeRange,
  range: Period,
  today: string,
  answers: { readonly revenue: SeriesAnswer; readonly transactions: SeriesAnswer; readonly units: SeriesAnswer },
): Trend {
  const valuesOf = (answer: SeriesAnswer) => {
    const values = new Map<string, number>();
    for (const point of answer.data) values.set(point.key, (values.get(point.key) ?? 0) + point.value);
    return values;
  };
  const revenue = valuesOf(answers.revenue);
  const transactions = valuesOf(answers.transactions);
  const units = valuesOf(answers.units);
  const keys = new Set(bucketKeys(timeRange, range));
  for (const values of [revenue, transactions, units]) for (const key of values.keys()) keys.add(key);
  const rows = [...keys].sort().map((key): TrendRow => {
    const mark = trendMark(timeRange, key, range, today);
    return {
      key,
      label: mark.label,
      partial: mark.partial,
      open: mark.open,
      revenue: round2(revenue.get(key) ?? 0),
      transactions: transactions.get(key) ?? 0,
      units: units.get(key) ?? 0,
    };
  });
  return {
    timeRange,
    rows,
    totals: {
      revenue: answers.revenue.total,
      transactions: answers.transactions.total,
      units: answers.units.total,
    },
  };
}

/** Nothing sold in the range: 'No Data'. */
export function isTrendEmpty(trend: Trend): boolean {
  return trend.totals.revenue === 0 && trend.totals.transactions === 0 && trend.totals.units === 0;
}

export function trendValue(row: TrendRow, measure: TrendMeasure): number {
  return row[measure];
}

export const TREND_CSV_KEYS = ['bucket', 'revenue', 'transactions', 'units_sold', 'note'] as const;

/** The series file: a row a bucket, a partial one noted. */
export function trendCsv(trend: Trend): CsvFile {
  return {
    name: `sales_${trend.timeRange}`,
    keys: TREND_CSV_KEYS,
    rows: trend.rows.map((row) => ({
      bucket: row.key,
      revenue: row.revenue,
      transactions: row.transactions,
      units_sold: row.units,
      note: row.open ? 'so far' : row.partial ? 'partial' : '',
    })),
  };
}

/* ---------------------------------------------------------------- meal timings */

export interface MealTimingAnswerRow {
  readonly meal_timing_id: number;
  readonly name: string;
  readonly start_time: string;
  readonly end_time: string;
  readonly revenue: number;
  readonly transactions: number;
}

export interface MealTimingRow extends MealTimingAnswerRow {
  /** '11:00–14:30'; past midnight '22:00–02:00 (next day)'. */
  readonly time: string;
  /** The meal timing's revenue over the outlet's whole revenue in the range (0–1). */
  readonly share: number;
}

export interface MealTimings {
  readonly rows: readonly MealTimingRow[];
  /** The outlet's revenue over the whole range (every hour), what the shares are of. */
  readonly revenueTotal: number;
}

export function mealTimeText(start: string, end: string): string {
  return end <= start ? `${start}–${end} (next day)` : `${start}–${end}`;
}

export function mealTimingsOf(rows: readonly MealTimingAnswerRow[], revenueTotal: number): MealTimings {
  return {
    revenueTotal,
    rows: rows.map((row) => ({
      ...row,
      time: mealTimeText(row.start_time, row.end_time),
      share: share(row.revenue, revenueTotal),
    })),
  };
}

/** No meal timing is configured for the outlet (not 'No Data': the page points to Settings). */
export function isMealTimingsEmpty(meals: MealTimings): boolean {
  return meals.rows.length === 0;
}

export const MEAL_CSV_KEYS = [
  'meal_timing',
  'start_time',
  'end_time',
  'revenue',
  'transactions',
  'share_of_revenue_percent',
] as const;

export function mealTimingsCsv(meals: MealTimings | undefined): CsvFile {
  return {
    name: 'meal_timings',
    keys: MEAL_CSV_KEYS,
    rows: (meals?.rows ?? []).map((row) => ({
      meal_timing: row.name,
      start_time: row.start_time,
      end_time: row.end_time,
      revenue: row.revenue,
      transactions: row.transactions,
      share_of_revenue_percent: percentOf(row.share),
    })),
  };
}

/* ---------------------------------------------------------------- item sales breakdown */

export type ItemBucket = 'daily' | 'weekly' | 'monthly';
export const ITEM_BUCKETS: readonly ItemBucket[] = ['daily', 'weekly', 'monthly'];
export const DEFAULT_ITEM_BUCKET: ItemBucket = 'daily';

export function isItemBucket(value: string): value is ItemBucket {
  return (ITEM_BUCKETS as readonly string[]).includes(value);
}

export interface ItemAnswerRow {
  readonly key: string;
  readonly sku_id: number;
  readonly item_name: string;
  readonly quantity: number;
  readonly amount: number;
}

export interface ItemRow extends ItemAnswerRow {
  /** The bucket as the page labels it ('24/11 (so far)', 'March 2026'). */
  readonly bucket: string;
  /** The item's place in its bucket (1 = best), as the server ranks them. */
  readonly rank: number;
}

/** The rows of the breakdown: each bucket's items in the server's order, ranked within their bucket and labelled. */
export function itemRowsOf(
  rows: readonly ItemAnswerRow[],
  bucket: ItemBucket,
  range: Period,
  today: string,
): ItemRow[] {
  const places = new Map<string, number>();
  return rows.map((row) => {
    const rank = (places.get(row.key) ?? 0) + 1;
    places.set(row.key, rank);
    return { ...row, rank, bucket: trendMark(bucket, row.key, range, today).label };
  });
}

export const ITEM_CSV_KEYS = ['bucket', 'rank', 'sku_id', 'item_name', 'quantity', 'amount'] as const;

export function itemsCsv(rows: readonly ItemRow[], bucket: ItemBucket): CsvFile {
  return {
    name: `item_sales_${bucket}`,
    keys: ITEM_CSV_KEYS,
    rows: rows.map((row) => ({
      bucket: row.key,
      rank: row.rank,
      sku_id: row.sku_id,
      item_name: row.item_name,
      quantity: row.quantity,
      amount: row.amount,
    })),
  };
}

/* ---------------------------------------------------------------- top SKUs */

/** The columns the server ranks by (sortMethod). */
export type TopSkuServerColumn = 'quantity' | 'amount';
/** The columns the server cannot sort by: they order the rows of the page shown. */
export type TopSkuPageColumn = 'rank' | 'item_name' | 'barcode' | 'unit_price';
export type TopSkuColumn = TopSkuServerColumn | TopSkuPageColumn;

export const TOP_SKU_SERVER_COLUMNS: readonly TopSkuServerColumn[] = ['quantity', 'amount'];
export const TOP_SKU_PAGE_COLUMNS: readonly TopSkuPageColumn[] = ['rank', 'item_name', 'barcode', 'unit_price'];
export const TOP_SKU_ROWS_PER_PAGE = 10;
export const TOP_SKU_ROWS_PER_PAGE_OPTIONS = [10, 20, 50, 100] as const;

export function isTopSkuServerColumn(column: string): column is TopSkuServerColumn {
  return (TOP_SKU_SERVER_COLUMNS as readonly string[]).includes(column);
}

export function isTopSkuPageColumn(column: string): column is TopSkuPageColumn {
  return (TOP_SKU_PAGE_COLUMNS as readonly string[]).includes(column);
}

/** How the page's rows are ordered by a column the server cannot sort by (undefined: the server's ranking). */
export type TopSkuPageSort = { readonly column: TopSkuPageColumn; readonly order: 'asc' | 'desc' } | undefined;

/** The next page sort after a click on a page column: text ascending first, numbers descending; again: reversed. */
export function nextPageSort(current: TopSkuPageSort, column: TopSkuPageColumn): TopSkuPageSort {
  if (current?.column === column) return { column, order: current.order === 'asc' ? 'desc' : 'asc' };
  return { column, order: column === 'unit_price' ? 'desc' : 'asc' };
}

export interface TopSkuAnswerRow {
  readonly sku_id: number;
  readonly barcode: string | null;
  readonly item_name: string;
  readonly quantity: number;
  readonly unit_price: number;
  readonly amount: number;
}

export interface RankedSku extends TopSkuAnswerRow {
  /** The place in the server's ranking over every page (1 = first of the order asked). */
  readonly rank: number;
}

/** A page's rows with their place in the whole ranking. */
export function rankSkus(rows: readonly TopSkuAnswerRow[], page: number, rowsPerPage: number): RankedSku[] {
  const first = (page - 1) * rowsPerPage + 1;
  return rows.map((row, index) => ({ ...row, rank: first + index }));
}

/** The page's rows in the page sort's order (the server's order without one). */
export function sortSkuPage(rows: readonly RankedSku[], sort: TopSkuPageSort): RankedSku[] {
  const tableSort: TableSort | undefined = sort && { column: sort.column, order: sort.order };
  return sortTableRows(rows, tableSort, (row, column) => {
    if (column === 'rank') return row.rank;
    if (column === 'item_name') return row.item_name;
    if (column === 'barcode') return row.barcode;
    if (column === 'unit_price') return row.unit_price;
    return undefined;
  });
}

/** An SKU as the search lists it: 'Iced Latte · 8991002101' (no barcode: the name alone). */
export function skuLabel(sku: { readonly item_name: string; readonly barcode: string | null }): string {
  return sku.barcode ? `${sku.item_name} · ${sku.barcode}` : sku.item_name;
}

/** 'Ranked by quantity sold, highest first' for the table's caption. */
export function rankingText(column: TopSkuServerColumn, order: 'asc' | 'desc'): string {
  const by = column === 'quantity' ? 'quantity sold' : 'revenue';
  return `Ranked by ${by}, ${order === 'desc' ? 'highest' : 'lowest'} first`;
}

export const TOP_SKU_CSV_KEYS = ['rank', 'sku_id', 'barcode', 'item_name', 'quantity', 'unit_price', 'amount'] as const;

export function topSkusCsv(rows: readonly RankedSku[], currency: string | undefined): CsvFile {
  return {
    name: 'top_skus',
    keys: TOP_SKU_CSV_KEYS,
    rows: rows.map((row) => ({
      rank: row.rank,
      sku_id: row.sku_id,
      barcode: row.barcode ?? '',
      item_name: row.item_name,
      quantity: row.quantity,
      unit_price: row.unit_price,
      amount: row.amount,
    })),
    ...(currency === undefined ? {} : { currency }),
  };
}

/** The export holds at most this many pages of TOP_SKU_EXPORT_PAGE_SIZE rows. */
export const TOP_SKU_EXPORT_PAGE_SIZE = 100;
export const TOP_SKU_EXPORT_MAX_PAGES = 50;

/** '1,234 SKUs' */
export function skuCountText(total: number): string {
  return `${formatNumber(total)} ${total === 1 ? 'SKU' : 'SKUs'}`;
}
