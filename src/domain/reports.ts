import { normalisePaymentMethod, OTHERS_METHOD } from './paymentMethods';

/**
 * Report rules of §9, once, for the server and the browser: payment-method grouping, growth rate, the average
 * chart, comparison periods and month ordering (CSV headers: domain/csv). Pure functions; dates are `YYYY-MM-DD` calendar days
 * (a mall's local days), handled as UTC midnights so that no time zone of the machine running them leaks in.
 */

const DAY_MS = 86_400_000;

/** `round(value, 2)` half away from zero, without the binary-fraction surprises of `Math.round(x * 100) / 100`. */
export function round2(value: number): number {
  if (!Number.isFinite(value)) return 0;
  const sign = value < 0 ? -1 : 1;
  const rounded = Number(`${Math.round(Number(`${Math.abs(value)}e2`))}e-2`);
  return rounded === 0 ? 0 : sign * rounded;
}

// ------------------------------------------------------------------ payment methods

export interface PaymentMethodSum {
  payment_method: string;
  sum: number;
}

/**
 * Payment-method rows as reports show them: each method normalised (normalisePaymentMethod: trimmed and
 * upper-cased, so 'visa' and 'VISA' are one row; empty and NONE are OTHERS) and summed; OTHERS is added only when
 * non-zero; sums to 2 decimals; sorted by sum descending (then by name, for a stable order).
 */
export function groupPaymentMethods(rows: readonly PaymentMethodSum[]): PaymentMethodSum[] {
  const sums = new Map<string, number>();
  for (const row of rows) {
    const method = normalisePaymentMethod(row.payment_method);
    sums.set(method, (sums.get(method) ?? 0) + row.sum);
  }
  return [...sums]
    .map(([payment_method, sum]) => ({ payment_method, sum: round2(sum) }))
    .filter((row) => row.payment_method !== OTHERS_METHOD || row.sum !== 0)
    .sort((a, b) => b.sum - a.sum || a.payment_method.localeCompare(b.payment_method));
}

// ------------------------------------------------------------------ growth rate and averages

/** (current − previous) / previous × 100 to 2 decimals; 0 when the previous figure is zero (or not a number). */
export function growthRate(current: number, previous: number): number {
  if (!Number.isFinite(current) || !Number.isFinite(previous) || previous === 0) return 0;
  return round2(((current - previous) / previous) * 100);
}

/** A growth rate as shown: '12.35%', '-4.00%', and '0.00%' when zero. */
export function formatGrowthRate(rate: number): string {
  const value = round2(rate);
  return `${value === 0 ? '0.00' : value.toFixed(2)}%`;
}

/** The average chart: each value divided by its matching count, to 2 decimals; 0 where the count is 0. */
export function averageChart(values: readonly number[], counts: readonly number[]): number[] {
  return values.map((value, index) => {
    const count = counts[index] ?? 0;
    return count === 0 ? 0 : round2(value / count);
  });
}

/** A share (0–1) of a part in a whole; 0 when the whole is zero. */
export function share(part: number, whole: number): number {
  return whole === 0 ? 0 : part / whole;
}

// ------------------------------------------------------------------ calendar days

function toMs(day: string): number {
  return Date.UTC(Number(day.slice(0, 4)), Number(day.slice(5, 7)) - 1, Number(day.slice(8, 10)));
}

/** YYYY-MM-DD of a UTC midnight (read for every day of a year's reports: cheaper than toISOString). */
function fromMs(ms: number): string {
  const date = new Date(ms);
  const month = date.getUTCMonth() + 1;
  const day = date.getUTCDate();
  return `${String(date.getUTCFullYear()).padStart(4, '0')}-${month < 10 ? '0' : ''}${month}-${day < 10 ? '0' : ''}${day}`;
}

/** `day` moved by `days` calendar days. */
export function addDays(day: string, days: number): string {
  return fromMs(toMs(day) + days * DAY_MS);
}

/** The first day (YYYY-MM-DD) of the month after `month` (YYYY-MM). */
export function firstDayOfNextMonth(month: string): string {
  return `${addDays(`${month}-28`, 4).slice(0, 7)}-01`;
}

/** The first and last days of `month` (YYYY-MM). */
export function monthDays(month: string): { start: string; end: string } {
  return { start: `${month}-01`, end: addDays(firstDayOfNextMonth(month), -1) };
}

/** The earlier of two days (`YYYY-MM-DD` compare as text). */
export const earlierDay = (a: string, b: string): string => (a <= b ? a : b);
/** The later of two days. */
export const laterDay = (a: string, b: string): string => (a >= b ? a : b);

/** Days from start to end, both included (1 for a single day). */
export function daysInRange(start: string, end: string): number {
  return Math.round((toMs(end) - toMs(start)) / DAY_MS) + 1;
}

/** Every day from start to end, both included. */
export function eachDay(start: string, end: string): string[] {
  const days: string[] = [];
  for (let ms = toMs(start), last = toMs(end); ms <= last; ms += DAY_MS) days.push(fromMs(ms));
  return days;
}

/** ISO weekday of a day: 1 = Monday … 7 = Sunday. */
export function isoWeekday(day: string): number {
  const weekday = new Date(toMs(day)).getUTCDay();
  return weekday === 0 ? 7 : weekday;
}

/** How many days of each ISO weekday (index 0 = Monday) the range holds: the counts of the weekday average. */
export function weekdayCounts(start: string, end: string): number[] {
  const counts = [0, 0, 0, 0, 0, 0, 0];
  for (const day of eachDay(start, end)) {
    const index = isoWeekday(day) - 1;
    counts[index] = (counts[index] ?? 0) + 1;
  }
  return counts;
}

export interface Period {
  start: string;
  end: string;
}

/** The period of equal length just before `start` (the KPI comparison of the mall home). */
export function previousPeriod(start: string, end: string): Period {
  const length = daysInRange(start, end);
  return { start: addDays(start, -length), end: addDays(start, -1) };
}

/**
 * The outlet comparison period: of equal length, moved back by whole weeks (the fewest that do not overlap the
 * period), so that every day is compared with the same weekday. 7 days → the week before; 10 days → 14 days back.
 */
export function wholeWeeksComparisonPeriod(start: string, end: string): Period {
  const shift = Math.ceil(daysInRange(start, end) / 7) * 7;
  return { start: addDays(start, -shift), end: addDays(end, -shift) };
}

// ------------------------------------------------------------------ months

export const MONTH_NAMES = [
  'Jan',
  'Feb',
  'Mar',
  'Apr',
  'May',
  'Jun',
  'Jul',
  'Aug',
  'Sep',
  'Oct',
  'Nov',
  'Dec',
] as const;

function monthRank(month: string): number {
  const iso = /^(\d{4})-(\d{2})$/.exec(month);
  if (iso) return Number(iso[1]) * 12 + Number(iso[2]) - 1;
  const index = MONTH_NAMES.findIndex((name) => month.slice(0, 3).toLowerCase() === name.toLowerCase());
  return index === -1 ? Number.MAX_SAFE_INTEGER : index;
}

/** Months sorted Jan to Dec: names ('Mar', 'March') in calendar order, `YYYY-MM` by year then month. */
export function sortMonths<T>(items: readonly T[], month: (item: T) => string): T[] {
  return [...items].sort((a, b) => monthRank(month(a)) - monthRank(month(b)));
}

/** Every `YYYY-MM` month that the range touches, oldest first. */
export function monthsInRange(start: string, end: string): string[] {
  const months: string[] = [];
  let [year, month] = start.split('-').map(Number) as [number, number];
  const [lastYear, lastMonth] = end.split('-').map(Number) as [number, number];
  while (year < lastYear || (year === lastYear && month <= lastMonth)) {
    months.push(`${year}-${String(month).padStart(2, '0')}`);
    month += 1;
    if (month === 13) {
      month = 1;
      year += 1;
    }
  }
  return months;
}

/** A ratio as the page shows it, for CSV files: a percentage rounded to 1 decimal (0.40451 -> 40.5). */
export function percentOf(ratio: number): number {
  return Number.isFinite(ratio) ? Math.round(ratio * 1000) / 10 : 0;
}

/** A table's sort: a column key and its order. */
export interface TableSort {
  readonly column: string;
  readonly order: 'asc' | 'desc';
}

/** The next sort after a click on `column`: a new column sorts descending for numbers, ascending for text. */
export function nextTableSort(current: TableSort | undefined, column: string, numeric: boolean): TableSort {
  if (current?.column === column) return { column, order: current.order === 'asc' ? 'desc' : 'asc' };
  return { column, order: numeric ? 'desc' : 'asc' };
}

/**
 * Names compared as `a.localeCompare(b, 'en', { sensitivity: 'base' })` does, by one collator made once: a collator
 * made for each comparison costs microseconds, milliseconds over a sort of thousands of rows.
 */
export const compareNames: (a: string, b: string) => number = new Intl.Collator('en', { sensitivity: 'base' }).compare;

/**
 * Rows sorted by a column's value (numbers by value, text by locale with numbers in it read as numbers), ties kept
 * in their order; no sort: the rows as they are.
 */
export function sortTableRows<Row>(
  rows: readonly Row[],
  sort: TableSort | undefined,
  value: (row: Row, column: string) => string | number | null | undefined,
): Row[] {
  if (!sort) return [...rows];
  const direction = sort.order === 'asc' ? 1 : -1;
  const collator = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });
  return rows
    .map((row, index) => ({ row, index, key: value(row, sort.column) }))
    .sort((a, b) => {
      const missing = Number(a.key === null || a.key === undefined) - Number(b.key === null || b.key === undefined);
      if (missing !== 0) return missing;
      const order =
        typeof a.key === 'number' && typeof b.key === 'number'
          ? a.key - b.key
          : collator.compare(String(a.key ?? ''), String(b.key ?? ''));
      return order === 0 ? a.index - b.index : order * direction;
    })
    .map(({ row }) => row);
}
