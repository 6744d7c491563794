import { COMPARE_RULE_LABELS, COMPARE_RULES, type CompareRule, type ComparisonChoice } from './comparisons';
import { parseComparisonQuery } from './comparisonUrl';
import { type CsvFile, csvNumeral } from './csv';
import type { CommittedFilters } from './filterHeader';
import { FILTER_QUERY_KEYS } from './filterUrl';
import {
  comparedFigures,
  type MallGrowthAnswer,
  type MonthlyReportRow,
  NO_DATA_SHORT,
  NOTHING_TO_COMPARE,
  type ReportQuery,
  withGrowthAnswer,
} from './mallReportViews';
import { NO_DATA } from './messages';
import { comparisonNotes, type GrowthComparison, NO_COMPLETE_DAY, spanInYearOf, spanText } from './periods';
import { YEAR_QUERY_KEY } from './reportSubscriptions';
import { addDays, daysInRange, formatGrowthRate, growthRate, MONTH_NAMES, type Period } from './reports';

/**
 * Sales trends (/shopper-connect/sales-trends): GMV and transactions of the selected malls a month, Jan to Dec, a
 * year beside the year before, with each month's growth against the same month of the year before (§9 growth
 * rate). The month still open is partial: its figures so far are shown as they are, and its growth compares its
 * complete days with the same days of the year before; every growth says the two figures it compares and their days
 * (monthGrowthLine), and a month without a sale says 'No Data' (the year before: nothing to compare). Amounts are as
 * the monthly report gives them: in the malls' one currency or converted to the client's reporting currency, never
 * added across currencies here.
 *
 * The user may compare by another rule instead, as on every page with a growth figure (comparisons.ts): the
 * previous period, the same weekdays last year or last year with its festivals met, like-for-like outlets or all
 * (the page's own rule like-for-like is the growth call's same dates last year). Then each month's growth (the open
 * month's: its complete days) is the growth call's answer for its days, which says the days it compared with and
 * the outlets left out; the year before's column stays the same month of the year before, every outlet.
 */

/** How many years the year select offers: this year and the ones before it. */
export const SALES_TRENDS_YEAR_COUNT = 5;

export const yearOf = (day: string) => Number(day.slice(0, 4));

/** The years offered, newest first. */
export function salesTrendsYears(today: string): number[] {
  const latest = yearOf(today);
  return Array.from({ length: SALES_TRENDS_YEAR_COUNT }, (_, index) => latest - index);
}

/* ---------------------------------------------------------------- the comparison */

/** The year `search` says (with or without '?'): `year=` with four digits; undefined for none or another value. */
export function yearInQuery(search: string): number | undefined {
  const said = new URLSearchParams(search.startsWith('?') ? search.slice(1) : search).get(YEAR_QUERY_KEY);
  return said !== null && /^\d{4}$/.test(said) ? Number(said) : undefined;
}

const FILTER_KEYS: readonly string[] = Object.values(FILTER_QUERY_KEYS);

/**
 * The query `search` saying `year`: in place where it says one, else just before the filters' keys (which the
 * filter header's writes put after every key not its own), the other keys in their order. Returns no '?'.
 */
export function withYearQuery(search: string, year: number): string {
  const params = new URLSearchParams(search.startsWith('?') ? search.slice(1) : search);
  if (params.has(YEAR_QUERY_KEY)) {
    params.set(YEAR_QUERY_KEY, String(year));
    return params.toString();
  }
  const written = new URLSearchParams();
  params.forEach((value, key) => {
    if (FILTER_KEYS.includes(key) && !written.has(YEAR_QUERY_KEY)) written.append(YEAR_QUERY_KEY, String(year));
    written.append(key, value);
  });
  if (!written.has(YEAR_QUERY_KEY)) written.append(YEAR_QUERY_KEY, String(year));
  return written.toString();
}

/** The page's own rule and its default (§9 for this page): each month against the same month of the year before. */
export const SAME_MONTH_LAST_YEAR = 'same_month_last_year';

export type SalesTrendsRule = typeof SAME_MONTH_LAST_YEAR | CompareRule;

/** What the page's growth figures compare with: its own rule, or one of the growth call's (comparisons.ts). */
export interface SalesTrendsComparison {
  readonly rule: SalesTrendsRule;
  /**
   * Only the outlets trading through the whole of both periods (each month and the days it is compared with). With
   * the page's own rule the growth is then the growth call's by the same dates a year before (`same_date_last_year`:
   * the same month of the year before), as the monthly report counts every outlet.
   */
  readonly likeForLike: boolean;
}

export const DEFAULT_SALES_TRENDS_COMPARISON: SalesTrendsComparison = {
  rule: SAME_MONTH_LAST_YEAR,
  likeForLike: false,
};

/**
 * The rules the comparison select offers: the page's own first, then every page's, named as they are there, less
 * the same dates last year (the page's own rule, month by month).
 */
export const SALES_TRENDS_RULES: readonly { readonly rule: SalesTrendsRule; readonly label: string }[] = [
  { rule: SAME_MONTH_LAST_YEAR, label: 'Same month last year' },
  ...COMPARE_RULES.filter((rule) => rule !== 'same_date_last_year').map((rule) => ({
    rule,
    label: COMPARE_RULE_LABELS[rule],
  })),
];

/** A choice as the page keeps it. */
export function salesTrendsComparison(rule: SalesTrendsRule, likeForLike: boolean): SalesTrendsComparison {
  return { rule, likeForLike };
}

/**
 * The growth call's comparison of a choice: undefined for the page's own rule over every outlet (the monthly report's
 * figures); the same dates a year before, like-for-like, for the page's own rule like-for-like.
 */
export function growthCallComparison(choice: SalesTrendsComparison): ComparisonChoice | undefined {
  if (choice.rule !== SAME_MONTH_LAST_YEAR) return { rule: choice.rule, likeForLike: choice.likeForLike };
  return choice.likeForLike ? { rule: 'same_date_last_year', likeForLike: true } : undefined;
}

/**
 * The choice a query (with or without '?') holds, kept as every page keeps it (comparisonUrl.ts:
 * `?compare=festival_aligned&like_for_like=1`) but with this page's default: no `compare` (or one not known) is the
 * same month last year, so the previous period is said (`compare=previous`).
 */
export function parseSalesTrendsComparisonQuery(search: string): SalesTrendsComparison {
  const said = parseComparisonQuery(search, SAME_MONTH_LAST_YEAR);
  return salesTrendsComparison(said.rule, said.likeForLike);
}

/* ---------------------------------------------------------------- the calls and the months */

/**
 * The page's query for `year`: from 1 January of the year before to the year's end, or to today in the current
 * year, with the comparison chosen (the growth call's, or `sameMonthLastYear`); undefined until a client and malls
 * are known.
 */
export function salesTrendsQuery(
  filters: Pick<CommittedFilters, 'clientId' | 'mallIds'>,
  year: number,
  today: string,
  choice: SalesTrendsComparison = DEFAULT_SALES_TRENDS_COMPARISON,
): ReportQuery | undefined {
  if (filters.clientId === undefined || filters.mallIds.length === 0) return undefined;
  const yearEnd = `${year}-12-31`;
  const comparison = growthCallComparison(choice);
  return {
    clientId: filters.clientId,
    mallIds: filters.mallIds,
    start: `${year - 1}-01-01`,
    end: today < yearEnd ? today : yearEnd,
    startHour: 0,
    endHour: 23,
    timeRange: 'monthly',
    metric: 'gmv',
    today,
    ...(comparison ? { comparison } : { sameMonthLastYear: true }),
  };
}

/** The month still open, when the year shown is the current one. */
export interface OpenMonth {
  /** 1–12. */
  readonly month: number;
  /** Its figures are to this day (today). */
  readonly shownTo: string;
  /** Its complete days, and the same days of the year before; none when today is its first day. */
  readonly compared?: { readonly current: Period; readonly previous: Period };
}

/** The monthly report calls a query needs (each at most a year, the longest range a call answers). */
export interface SalesTrendsPlan {
  readonly year: number;
  readonly thisYear: Period;
  readonly lastYear: Period;
  readonly open?: OpenMonth;
}

const pad = (value: number) => String(value).padStart(2, '0');

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

export function salesTrendsPlan(query: Pick<ReportQuery, 'start' | 'end' | 'today'>): SalesTrendsPlan {
  const year = yearOf(query.end);
  const thisYear = { start: `${year}-01-01`, end: query.end };
  const lastYear = { start: `${year - 1}-01-01`, end: `${year - 1}-12-31` };
  const { today } = query;
  if (today === undefined || today !== query.end) return { year, thisYear, lastYear };
  const month = Number(today.slice(5, 7));
  const day = Number(today.slice(8, 10));
  if (day === 1) return { year, thisYear, lastYear, open: { month, shownTo: today } };
  const first = `${year}-${pad(month)}-01`;
  const lastDay = Math.min(day - 1, daysInMonth(year - 1, month));
  return {
    year,
    thisYear,
    lastYear,
    open: {
      month,
      shownTo: today,
      compared: {
        current: { start: first, end: addDays(today, -1) },
        previous: { start: `${year - 1}-${pad(month)}-01`, end: `${year - 1}-${pad(month)}-${pad(lastDay)}` },
      },
    },
  };
}

/** The answers of a plan's calls. */
export interface SalesTrendsAnswers {
  readonly thisYear: readonly MonthlyReportRow[];
  readonly lastYear: readonly MonthlyReportRow[];
  /** The open month's complete days and the same days of the year before (one row each). */
  readonly open?: { readonly current: readonly MonthlyReportRow[]; readonly previous: readonly MonthlyReportRow[] };
  /** With a rule of the growth call: its answer for each month's days (salesTrendsGrowthRanges). */
  readonly growth?: readonly MonthGrowthAnswer[];
}

/** The growth call's answer for a month's days. */
export interface MonthGrowthAnswer {
  /** 1–12. */
  readonly month: number;
  readonly answer: MallGrowthAnswer;
}

export interface TrendFigures {
  readonly gmv: number;
  readonly transactions: number;
}

/**
 * What a month's growth compares, like with like: a complete month with the whole month of the year before, the
 * month still open with its complete days and the same days of the year before; the figures of both. With a rule of
 * the growth call: the month's days (the open month's complete days) with the days the rule chose, as the call
 * answered them, and how they were chosen (the rule, the festivals met, the outlets left out).
 */
export interface MonthComparison
  extends Pick<GrowthComparison, 'rule' | 'aligned' | 'likeForLike' | 'nothingCompared'> {
  /** The days of the year shown compared. */
  readonly current: Period;
  /** The days compared with (the first to the last): by default the same days of the year before. */
  readonly previous: Period;
  readonly currentFigures: TrendFigures;
  readonly previousFigures: TrendFigures;
  /** The days compared with hold no sale: the rate is §9's 0.00%, with nothing to compare. */
  readonly nothingToCompare: boolean;
}

export interface SalesTrendMonth {
  /** 1–12. */
  readonly month: number;
  /** 'Mar', or 'Mar (so far)' for the month still open. */
  readonly label: string;
  /** Undefined: the month has not begun. */
  readonly thisYear: TrendFigures | undefined;
  readonly lastYear: TrendFigures;
  readonly partial: boolean;
  /**
   * Growth rates (§9) against the same month of the year before (or the days the rule chose); undefined when there
   * is nothing to compare.
   */
  readonly growth: TrendFigures | undefined;
  /** The days and figures the growth compares; undefined without a growth. */
  readonly compared?: MonthComparison | undefined;
}

export interface SalesTrends {
  readonly year: number;
  /** Jan to Dec. */
  readonly months: readonly SalesTrendMonth[];
  readonly open?: OpenMonth;
}

const ZERO: TrendFigures = { gmv: 0, transactions: 0 };

function byMonth(rows: readonly MonthlyReportRow[], year: number): Map<number, TrendFigures> {
  const figures = new Map<number, TrendFigures>();
  for (const row of rows) {
    if (yearOf(row.month) !== year) continue;
    figures.set(Number(row.month.slice(5, 7)), { gmv: row.gmv, transactions: row.transactions });
  }
  return figures;
}

function sumOf(rows: readonly MonthlyReportRow[]): TrendFigures {
  return rows.reduce(
    (sum, row) => ({ gmv: sum.gmv + row.gmv, transactions: sum.transactions + row.transactions }),
    ZERO,
  );
}

const growthOf = (current: TrendFigures, previous: TrendFigures): TrendFigures => ({
  gmv: growthRate(current.gmv, previous.gmv),
  transactions: growthRate(current.transactions, previous.transactions),
});

/** Whether a month's (or days') figures hold any sale. */
export function hasTrendData(figures: TrendFigures): boolean {
  return figures.gmv !== 0 || figures.transactions !== 0;
}

/** A month's first to last day, cut at `end` (the month shown to). */
function monthSpan(year: number, month: number, end?: string): Period {
  const last = `${year}-${pad(month)}-${pad(daysInMonth(year, month))}`;
  return { start: `${year}-${pad(month)}-01`, end: end !== undefined && end < last ? end : last };
}

function monthComparison(
  current: Period,
  previous: Period,
  currentFigures: TrendFigures,
  previousFigures: TrendFigures,
): MonthComparison {
  return { current, previous, currentFigures, previousFigures, nothingToCompare: !hasTrendData(previousFigures) };
}

/**
 * The days of each month begun that a growth call compares (a rule other than the page's own): a whole month, the
 * month still open its complete days (none on its first day); months not begun none. At most twelve calls.
 */
export function salesTrendsGrowthRanges(plan: SalesTrendsPlan): { readonly month: number; readonly range: Period }[] {
  const lastMonthShown = Number(plan.thisYear.end.slice(5, 7));
  const ranges: { month: number; range: Period }[] = [];
  for (let month = 1; month <= lastMonthShown; month++) {
    if (plan.open?.month !== month) ranges.push({ month, range: monthSpan(plan.year, month, plan.thisYear.end) });
    else if (plan.open.compared) ranges.push({ month, range: plan.open.compared.current });
  }
  return ranges;
}

const figuresOf = (side: MallGrowthAnswer['current']): TrendFigures => ({
  gmv: side.gmv,
  transactions: side.transactions,
});

/** A month's comparison as the growth call answered it: both sides' days and figures, and how they were chosen. */
function answeredComparison(answer: MallGrowthAnswer): MonthComparison {
  const current = { start: answer.current.start_time, end: answer.current.end_time };
  const said = withGrowthAnswer({ current, previous: current, todayLeftOut: false }, answer);
  return {
    current,
    previous: said.previous,
    currentFigures: figuresOf(answer.current),
    previousFigures: figuresOf(answer.compared),
    nothingToCompare: said.nothingToCompare === true,
    nothingCompared: said.nothingCompared,
    rule: said.rule,
    aligned: said.aligned,
    likeForLike: said.likeForLike,
  };
}

/** The twelve months, Jan to Dec, of the plan's year beside the year before. */
export function salesTrendsView(plan: SalesTrendsPlan, answers: SalesTrendsAnswers): SalesTrends {
  const current = byMonth(answers.thisYear, plan.year);
  const previous = byMonth(answers.lastYear, plan.year - 1);
  const lastMonthShown = Number(plan.thisYear.end.slice(5, 7));
  const months = MONTH_NAMES.map((name, index): SalesTrendMonth => {
    const month = index + 1;
    const begun = month <= lastMonthShown;
    const thisYear = begun ? (current.get(month) ?? ZERO) : undefined;
    const lastYear = previous.get(month) ?? ZERO;
    const partial = plan.open?.month === month;
    let compared: MonthComparison | undefined;
    if (answers.growth) {
      const answer = thisYear && answers.growth.find((growth) => growth.month === month)?.answer;
      compared = answer ? answeredComparison(answer) : undefined;
    } else if (thisYear && !partial) {
      compared = monthComparison(
        monthSpan(plan.year, month, plan.thisYear.end),
        monthSpan(plan.year - 1, month),
        thisYear,
        lastYear,
      );
    }
    if (!answers.growth && partial && plan.open?.compared && answers.open) {
      const days = plan.open.compared;
      compared = monthComparison(
        days.current,
        days.previous,
        sumOf(answers.open.current),
        sumOf(answers.open.previous),
      );
    }
    const growth = compared && growthOf(compared.currentFigures, compared.previousFigures);
    return { month, label: partial ? `${name} (so far)` : name, thisYear, lastYear, partial, growth, compared };
  });
  return { year: plan.year, months, ...(plan.open ? { open: plan.open } : {}) };
}

/** The page's calls, made by whoever loads it: the browser through the API, the server for its workbook. */
export interface SalesTrendsCalls {
  /** The monthly report's rows of a period. */
  readonly monthly: (period: Period) => Promise<readonly MonthlyReportRow[]>;
  /** The growth call's answer for a month's days, by the query's comparison. */
  readonly growth: (range: Period) => Promise<MallGrowthAnswer>;
}

/**
 * The page's months for `query`: the year and the year before, one monthly call each (a call answers at most 366
 * days), and for the growth: by the page's own rule, the month still open's complete days and the same days of the
 * year before (two monthly calls); by a rule of the growth call, one growth call for each month begun (its complete
 * days for the month still open), at most twelve. All at once.
 */
export async function loadSalesTrendsWith(query: ReportQuery, calls: SalesTrendsCalls): Promise<SalesTrends> {
  const plan = salesTrendsPlan(query);
  if (!query.sameMonthLastYear && query.comparison) {
    const [thisYear, lastYear, growth] = await Promise.all([
      calls.monthly(plan.thisYear),
      calls.monthly(plan.lastYear),
      Promise.all(
        salesTrendsGrowthRanges(plan).map(async ({ month, range }) => ({ month, answer: await calls.growth(range) })),
      ),
    ]);
    return salesTrendsView(plan, { thisYear, lastYear, growth });
  }
  const compared = plan.open?.compared;
  const [thisYear, lastYear, openCurrent, openPrevious] = await Promise.all([
    calls.monthly(plan.thisYear),
    calls.monthly(plan.lastYear),
    compared ? calls.monthly(compared.current) : Promise.resolve(undefined),
    compared ? calls.monthly(compared.previous) : Promise.resolve(undefined),
  ]);
  const open = openCurrent && openPrevious ? { current: openCurrent, previous: openPrevious } : undefined;
  return salesTrendsView(plan, { thisYear, lastYear, ...(open ? { open } : {}) });
}

/** Nothing to show: no sales in either year. */
export function isSalesTrendsEmpty(trends: SalesTrends): boolean {
  return trends.months.every(
    (month) =>
      (month.thisYear?.gmv ?? 0) === 0 &&
      (month.thisYear?.transactions ?? 0) === 0 &&
      month.lastYear.gmv === 0 &&
      month.lastYear.transactions === 0,
  );
}

/** What the partial month's figures and growth are (the days its growth compared with): said under the tables. */
export function openMonthNote(trends: Pick<SalesTrends, 'year' | 'open' | 'months'>): string | undefined {
  const { open } = trends;
  if (!open) return undefined;
  const name = MONTH_NAMES[open.month - 1] ?? '';
  const shown = `${name} ${trends.year} is partial: its figures are to ${spanText(open.shownTo, open.shownTo)}.`;
  if (!open.compared) return `${shown} ${NO_COMPLETE_DAY}`;
  const { current, previous } = trends.months.find((month) => month.partial)?.compared ?? open.compared;
  const days = daysInRange(current.start, current.end);
  return (
    `${shown} Its growth compares its ${days} complete ${days === 1 ? 'day' : 'days'} ` +
    `(${spanText(current.start, current.end)}) with ${spanInYearOf(previous, `${trends.year}-01-01`)}.`
  );
}

/** A growth rate as the tables show it: '12.35%', '0.00%'; '—' when there is nothing to compare. */
export function growthText(rate: number | undefined): string {
  return rate === undefined ? '—' : formatGrowthRate(rate);
}

/** A month's figure in the tables: 'No Data' for a month without any sale, '—' for one not begun. */
export function monthFigureText(
  figures: TrendFigures | undefined,
  measure: keyof TrendFigures,
  format: (value: number) => string,
): string {
  if (figures === undefined) return '—';
  return hasTrendData(figures) ? format(figures[measure]) : NO_DATA;
}

/**
 * A month's growth with the two figures it compares and their days: '+18.63%: $720,447.58, 1–27 Nov, vs
 * $607,297.18, 1–27 Nov 2025'; the year before without a sale: '0.00%: $5,000.00, 1–31 Mar, vs no data, 1–31 Mar
 * 2025 · nothing to compare'; '—' without a growth (a month not begun, an open month on its first day). Another
 * rule says how it chose the days as every page does (comparisonNotes): '+4.10%: $610.00, 1–28 Feb, vs $586.00,
 * 12 Jan – 15 Feb 2025, Chinese New Year 17–18 Feb met with 29–30 Jan 2025, like-for-like: 2 outlets left out'.
 */
export function monthGrowthLine(
  month: Pick<SalesTrendMonth, 'compared'>,
  measure: keyof TrendFigures,
  format: (value: number) => string,
): string {
  const { compared } = month;
  if (!compared) return '—';
  const rate = growthRate(compared.currentFigures[measure], compared.previousFigures[measure]);
  const figures = comparedFigures(
    compared,
    format(compared.currentFigures[measure]),
    format(compared.previousFigures[measure]),
    ', vs ',
  );
  const notes = comparisonNotes(compared).map((note) => `, ${note}`);
  const nothing = compared.nothingToCompare ? ` · ${NOTHING_TO_COMPARE}` : '';
  return `${rate > 0 ? '+' : ''}${formatGrowthRate(rate)}: ${figures}${notes.join('')}${nothing}`;
}

/** The CSV's note of a month: how the days compared with were chosen, and 'nothing to compare' when so. */
function monthNote(compared: MonthComparison | undefined): string {
  if (!compared) return '';
  const notes = comparisonNotes(compared).join(', ');
  const nothing = compared.nothingToCompare ? NOTHING_TO_COMPARE : '';
  return [notes, nothing].filter((part) => part !== '').join(' · ');
}

const periodCell = (period: Period | undefined) => (period ? `${period.start} to ${period.end}` : '');

/**
 * The trends as one CSV file: a row a month, each year's figures and the growth of each measure, and what the
 * growth compares: the days of each year (growth_period, compared_period) and their figures; the year before
 * without a sale: 'no data' and the note 'nothing to compare'; with another rule, the note says how it chose the
 * days compared with (as the growth line does).
 */
export function salesTrendsCsv(trends: SalesTrends | undefined): CsvFile {
  const year = trends?.year ?? 0;
  const keys = [
    'month',
    `gmv_${year}`,
    `gmv_${year - 1}`,
    'gmv_growth_percent',
    `transactions_${year}`,
    `transactions_${year - 1}`,
    'transactions_growth_percent',
    'partial',
    'growth_period',
    'gmv_growth_period_value',
    'transactions_growth_period_value',
    'compared_period',
    'gmv_compared_value',
    'transactions_compared_value',
    'note',
  ];
  const comparedValue = (compared: MonthComparison | undefined, measure: keyof TrendFigures) =>
    compared === undefined ? '' : compared.nothingToCompare ? NO_DATA_SHORT : compared.previousFigures[measure];
  // The month's own days without a sale of the outlets counted (like-for-like) say so, as the growth line does.
  const growthPeriodValue = (compared: MonthComparison | undefined, measure: keyof TrendFigures) =>
    compared === undefined ? '' : compared.nothingCompared === true ? NO_DATA_SHORT : compared.currentFigures[measure];
  return {
    name: 'sales_trends',
    keys,
    rows: (trends?.months ?? []).map((month) => ({
      month: MONTH_NAMES[month.month - 1],
      [`gmv_${year}`]: month.thisYear?.gmv ?? '',
      [`gmv_${year - 1}`]: month.lastYear.gmv,
      gmv_growth_percent: month.growth ? csvNumeral(month.growth.gmv.toFixed(2)) : '',
      [`transactions_${year}`]: month.thisYear?.transactions ?? '',
      [`transactions_${year - 1}`]: month.lastYear.transactions,
      transactions_growth_percent: month.growth ? csvNumeral(month.growth.transactions.toFixed(2)) : '',
      partial: month.partial ? 'Yes' : '',
      growth_period: periodCell(month.compared?.current),
      gmv_growth_period_value: growthPeriodValue(month.compared, 'gmv'),
      transactions_growth_period_value: growthPeriodValue(month.compared, 'transactions'),
      compared_period: periodCell(month.compared?.previous),
      gmv_compared_value: comparedValue(month.compared, 'gmv'),
      transactions_compared_value: comparedValue(month.compared, 'transactions'),
      note: monthNote(month.compared),
    })),
  };
}
