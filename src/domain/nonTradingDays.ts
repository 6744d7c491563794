import dayjs from 'dayjs';
import type { CsvFile } from './csv';
import { toFilterQuery } from './filterUrl';
import { monthDateRange } from './gto';
import { dayMark, type PeriodMark } from './periods';
import { addDays } from './reports';

/**
 * Non-trading days (Tenant Connect): the days an outlet does not trade, declared by its tenant or by the mall with
 * a reason, and the sales review that marks them among the outlet's daily sales. The rules the server enforces
 * too (how far ahead a day may be declared, how long a reason is) and what the pages say.
 */

/** A day may be declared up to this many days after the outlet's today. */
export const NON_TRADING_MAX_DAYS_AHEAD = 366;
/** The longest reason (the contract's maxLength). */
export const NON_TRADING_REASON_MAX_LENGTH = 200;

export type NonTradingSide = 'tenant' | 'mall';

export const DECLARED_BY_LABELS: Readonly<Record<NonTradingSide, string>> = { tenant: 'Tenant', mall: 'Mall' };

/** The '{what}' of the failed loads' toasts. */
export const NON_TRADING_DAYS_WHAT = 'Non-trading days fetching';
export const SALES_REVIEW_WHAT = 'Sales review';

export const DECLARE_FAILED_MESSAGE = 'Declare non-trading day failed.';
export const REMOVE_FAILED_MESSAGE = 'Remove non-trading day failed.';
export const WITHDRAW_FAILED_MESSAGE = 'Withdraw non-trading day failed.';

import { formatDay } from './format';

export const declaredMessage = (day: string) => `Non-trading day ${formatDay(day)} declared.`;
export const removedMessage = (day: string) => `Non-trading day ${formatDay(day)} removed.`;
export const withdrawnMessage = (day: string) => `Non-trading day ${formatDay(day)} withdrawn.`;

/** The last day that may be declared when the outlet's today is `today`. */
export function latestDeclarableDay(today: string): string {
  return addDays(today, NON_TRADING_MAX_DAYS_AHEAD);
}

/* ---------------------------------------------------------------- the declaration form */

export interface DeclarationDraft {
  /** The outlet the day is declared for (the mall picks one; the tenant's is its own). */
  readonly outletId: number | undefined;
  /** `YYYY-MM-DD`; '' until chosen. */
  readonly day: string;
  readonly reason: string;
}

export const EMPTY_DECLARATION: DeclarationDraft = { outletId: undefined, day: '', reason: '' };

const isDay = (value: string) => /^\d{4}-\d{2}-\d{2}$/.test(value) && dayjs(value).format('YYYY-MM-DD') === value;

/**
 * Why the draft cannot be declared yet, the first reason in the form's order; undefined when it can. `today` is
 * the outlet's today (the latest day follows from it); the server checks the outlet's first day and duplicates.
 */
export function declarationProblem(draft: DeclarationDraft, today: string): string | undefined {
  if (draft.outletId === undefined) return 'Choose an outlet.';
  if (!isDay(draft.day)) return 'Choose a day.';
  const latest = latestDeclarableDay(today);
  if (draft.day > latest) return `Choose a day up to ${formatDay(latest)}.`;
  const reason = draft.reason.trim();
  if (reason === '') return 'Give a reason.';
  if (reason.length > NON_TRADING_REASON_MAX_LENGTH) {
    return `A reason has at most ${NON_TRADING_REASON_MAX_LENGTH} characters.`;
  }
  return undefined;
}

/* ---------------------------------------------------------------- the days listed */

/** The lists show the header's date range, or the days declared ahead (after today). */
export type NonTradingPeriod = 'range' | 'upcoming';

export const NON_TRADING_PERIODS: readonly { readonly value: NonTradingPeriod; readonly label: string }[] = [
  { value: 'range', label: 'Date range' },
  { value: 'upcoming', label: 'Upcoming' },
];

export const isNonTradingPeriod = (value: string): value is NonTradingPeriod =>
  NON_TRADING_PERIODS.some((period) => period.value === value);

/** The days a list asks for: the range as it is, or from tomorrow to the latest day that may be declared. */
export function nonTradingWindow(
  period: NonTradingPeriod,
  range: { readonly start: string; readonly end: string },
  today: string,
): { from: string; to: string } {
  if (period === 'range') return { from: range.start, to: range.end };
  return { from: addDays(today, 1), to: latestDeclarableDay(today) };
}

/** The mall's non-trading days of a month of the client (a link from the GTO review): every outlet, its days. */
export function nonTradingDaysHrefOf(clientId: number, month: string, today: string): string {
  return `/tenant-connect/non-trading-days?${toFilterQuery({ clientId, outlet: 'all', dateRange: monthDateRange(month, today) })}`;
}

/** A day the tenant may withdraw in its view: one it declared; the mall's days are the mall's to remove. */
export function isWithdrawable(row: { readonly declared_by: NonTradingSide }): boolean {
  return row.declared_by === 'tenant';
}

/* ---------------------------------------------------------------- the sales review */

export interface SalesReviewDay {
  /** `YYYY-MM-DD`. */
  readonly date: string;
  readonly gmv: number;
  readonly transactions: number;
  readonly non_trading: { readonly reason: string; readonly declared_by: NonTradingSide } | null;
}

/** Nothing to show: no sales on any day and no day declared. */
export function isSalesReviewEmpty(days: readonly SalesReviewDay[]): boolean {
  return days.every((day) => day.gmv === 0 && day.transactions === 0 && day.non_trading === null);
}

/** The chart's marks of the days: today 'so far' (partial), a non-trading day '(not trading)'. */
export function salesReviewMarks(
  days: readonly SalesReviewDay[],
  today: string,
  dayLabel: (date: string) => string,
): PeriodMark[] {
  return days.map((day) => {
    const mark = dayMark(day.date, today, dayLabel);
    return day.non_trading ? { ...mark, label: `${mark.label} (not trading)` } : mark;
  });
}

/** What the table says of a day: that it did not trade and why, or that today's figures are so far. */
export function salesReviewNote(day: SalesReviewDay, today: string): string {
  if (day.non_trading) {
    const who = day.non_trading.declared_by === 'tenant' ? 'the tenant' : 'the mall';
    return `Not trading: ${day.non_trading.reason} (declared by ${who})`;
  }
  return day.date >= today ? 'Today, so far' : '';
}

/** The CSV of the days shown. */
export function salesReviewCsv(days: readonly SalesReviewDay[], today: string): CsvFile {
  return {
    name: 'sales_review',
    keys: ['date', 'gmv', 'transactions', 'note'],
    rows: days.map((day) => ({
      date: day.date,
      gmv: day.gmv,
      transactions: day.transactions,
      note: salesReviewNote(day, today),
    })),
  };
}
