import { type CsvFile, csvNumeral } from './csv';
import type { CommittedFilters } from './filterHeader';
import {
  comparedFigures,
  type MonthlyReportRow,
  NO_DATA_SHORT,
  NOTHING_TO_COMPARE,
  type ReportQuery,
} from './mallReportViews';
import { NO_DATA } from './messages';
import { NO_COMPLETE_DAY, spanText } from './periods';
import { addDays, daysInRange, formatGrowthRate, growthRate, MONTH_NAMES, type Period } from './reports';

/**
 * Sales trends (/shopper-connect/sales-trends): GMV and transactions of the selected malls a month, Jan to Dec, a
 * year beside the year before, with each month's growth against the same month of the year before (§9 growth
 * rate). The month still open is partial: its figures so far are shown as they are, and its growth compares its
 * complete days with the same days of the year before; every growth says the two figures it compares and their days
 * (monthGrowthLine), and a month without a sale says 'No Data' (the year before: nothing to compare). Amounts are as
 * the monthly report gives them: in the malls' one currency or converted to the client's reporting currency, never
 * added across currencies here.
 */

/** How many years the year select offers: this year and the ones before it. */
export const SALES_TRENDS_YEAR_COUNT = 5;

export const yearOf = (day: string) => Number(day.slice(0, 4));

/** The years offered, newest first. */
export function salesTrendsYears(today: string): number[] {
  const latest = yearOf(today);
  return Array.from({ length: SALES_TRENDS_YEAR_COUNT }, (_, index) => latest - index);
}

/**
 * The page's query for `year`: from 1 January of the year before to the year's end, or to today in the current
 * year; undefined until a client and malls are known.
 */
export function salesTrendsQuery(
  filters: Pick<CommittedFilters, 'clientId' | 'mallIds'>,
  year: number,
  today: string,
): ReportQuery | undefined {
  if (filters.clientId === undefined || filters.mallIds.length === 0) return undefined;
  const yearEnd = `${year}-12-31`;
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
}

export interface TrendFigures {
  readonly gmv: number;
  readonly transactions: number;
}

/**
 * What a month's growth compares, like with like: a complete month with the whole month of the year before, the
 * month still open with its complete days and the same days of the year before; the figures of both.
 */
export interface MonthComparison {
  /** The days of the year shown compared. */
  readonly current: Period;
  /** The same days of the year before. */
  readonly previous: Period;
  readonly currentFigures: TrendFigures;
  readonly previousFigures: TrendFigures;
  /** The days of the year before hold no sale: the rate is §9's 0.00%, with nothing to compare. */
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
  /** Growth rates (§9) against the same month of the year before; undefined when there is nothing to compare. */
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
    if (thisYear && !partial) {
      compared = monthComparison(
        monthSpan(plan.year, month, plan.thisYear.end),
        monthSpan(plan.year - 1, month),
        thisYear,
        lastYear,
      );
    }
    if (partial && plan.open?.compared && answers.open) {
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

/** What the partial month's figures and growth are: said under the tables. */
export function openMonthNote(trends: Pick<SalesTrends, 'year' | 'open'>): string | undefined {
  const { open } = trends;
  if (!open) return undefined;
  const name = MONTH_NAMES[open.month - 1] ?? '';
  const shown = `${name} ${trends.year} is partial: its figures are to ${spanText(open.shownTo, open.shownTo)}.`;
  if (!open.compared) return `${shown} ${NO_COMPLETE_DAY}`;
  const { current, previous } = open.compared;
  const days = daysInRange(current.start, current.end);
  return (
    `${shown} Its growth compares its ${days} complete ${days === 1 ? 'day' : 'days'} ` +
    `(${spanText(current.start, current.end)}) with ${spanText(previous.start, previous.end)} ${trends.year - 1}.`
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
 * 2025 · nothing to compare'; '—' without a growth (a month not begun, an open month on its first day).
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
  const nothing = compared.nothingToCompare ? ` · ${NOTHING_TO_COMPARE}` : '';
  return `${rate > 0 ? '+' : ''}${formatGrowthRate(rate)}: ${figures}${nothing}`;
}

const periodCell = (period: Period | undefined) => (period ? `${period.start} to ${period.end}` : '');

/**
 * The trends as one CSV file: a row a month, each year's figures and the growth of each measure, and what the
 * growth compares: the days of each year (growth_period, compared_period) and their figures; the year before
 * without a sale: 'no data' and the note 'nothing to compare'.
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
      gmv_growth_period_value: month.compared?.currentFigures.gmv ?? '',
      transactions_growth_period_value: month.compared?.currentFigures.transactions ?? '',
      compared_period: periodCell(month.compared?.previous),
      gmv_compared_value: comparedValue(month.compared, 'gmv'),
      transactions_compared_value: comparedValue(month.compared, 'transactions'),
      note: month.compared?.nothingToCompare === true ? NOTHING_TO_COMPARE : '',
    })),
  };
}
