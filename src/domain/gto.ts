import dayjs from 'dayjs';
import { type CsvFile, csvNumeral } from './csv';
import { DATE_FORMAT, isValidMonth } from './dateLimits';
import { toFilterQuery } from './filterUrl';
import { type CurrencyFormat, formatDateTime, formatDay, formatMoney, formatMonth } from './format';

/**
 * The rules of the two GTO pages (§2, §7, §8, §9) as pure functions: the days of a month a tenant declares, the
 * amounts as typed, the running total, the request a draft makes, what the page says of a submission, and the
 * review's variance wording, threshold rule, receipts link and CSV rows.
 */

/* ---------------------------------------------------------------- shapes (the contract's, structurally) */

export interface GtoDayFigure {
  readonly date: string;
  readonly gto: number;
}

/** An outlet's month as the server answers it (GET submissionData). */
export interface GtoSubmissionLike {
  readonly searchedMonth: string;
  readonly gtoSubmissionData: readonly GtoDayFigure[];
  readonly total: number;
  readonly submitted: boolean;
  readonly submitted_at: string | null;
  readonly submitted_by: string | null;
  readonly updated_at: string | null;
  readonly remarks: string | null;
  readonly open: boolean;
  readonly currency: string;
}

/** A row of the review (GET summary). */
export interface GtoSummaryRowLike {
  readonly outlet_id: number;
  readonly outlet_name: string;
  readonly mall_name: string;
  readonly month: string;
  readonly gto_amount: number | null;
  readonly status: 'submitted' | 'notSubmitted';
  readonly submitted_at: string | null;
  readonly currency: string;
  readonly captured_sales: number;
  readonly variance_amount: number | null;
  readonly variance_percent: number | null;
  readonly flagged: boolean;
  /** `YYYY-MM-DD`: the client's due day of the following month. */
  readonly due_on: string;
  readonly late: boolean;
  readonly last_reminded_on: string | null;
}

/* ---------------------------------------------------------------- texts */

export const GTO_SUBMISSION_WHAT = 'GTO submission fetching';
export const GTO_SUMMARY_WHAT = 'GTO summary fetching';
export const GTO_CSV_WHAT = 'GTO summary export';
export const GTO_MONTH_CLOSED_MESSAGE = 'This month is closed for submissions.';
export const GTO_AMOUNT_MESSAGE = 'Enter an amount of 0 or more with at most 2 decimals.';
export const GTO_INVALID_DRAFT_MESSAGE = 'Correct the amounts marked in red to save.';
export const GTO_NO_DAYS_MESSAGE = 'Enter the GTO of at least one day to save.';
export const GTO_REMARKS_MAX_LENGTH = 500;
export const GTO_REMARKS_MESSAGE = `Remarks can have at most ${GTO_REMARKS_MAX_LENGTH} characters.`;
export const GTO_TOTAL_ONLY_NOTE = 'This month was declared as a total only: enter its days to correct it.';
export const GTO_HEADER_HELD_MESSAGE = 'Save or discard the changes to choose another month or outlet.';
export const GTO_CHOOSE_OUTLET_MESSAGE = 'Choose an Outlet and a month to declare its GTO.';
/** The largest amount of a day (the contract's maximum). */
export const GTO_MAX_AMOUNT = 999_999_999_999.99;

/** 'GTO for November 2026 submitted.' / 'GTO for November 2026 corrected.' */
export function gtoSavedMessage(month: string, correction: boolean): string {
  return `GTO for ${formatMonth(month)} ${correction ? 'corrected' : 'submitted'}.`;
}

/**
 * Who submitted the month and when: 'Submitted by x@y on 3 Nov 2026, 10:15'; after a correction (updated_at
 * differs) 'Submitted on 3 Nov 2026, 10:15, last corrected by x@y on 5 Nov 2026, 09:00' (the server names who
 * submitted or last corrected it). Undefined when the month is not submitted.
 */
export function submittedLine(submission: GtoSubmissionLike): string | undefined {
  if (!submission.submitted || submission.submitted_at === null) return undefined;
  const by = submission.submitted_by ? ` by ${submission.submitted_by}` : '';
  const submitted = formatDateTime(submission.submitted_at);
  const corrected = submission.updated_at !== null && submission.updated_at !== submission.submitted_at;
  if (!corrected || submission.updated_at === null) return `Submitted${by} on ${submitted}`;
  return `Submitted on ${submitted}, last corrected${by} on ${formatDateTime(submission.updated_at)}`;
}

/* ---------------------------------------------------------------- the days of a month */

/** The days of `month` (`YYYY-MM`) up to `today` (`YYYY-MM-DD`) included; none for a month after today. */
export function daysOfMonth(month: string, today: string): string[] {
  if (!isValidMonth(month)) return [];
  const first = dayjs(`${month}-01`);
  const days: string[] = [];
  for (let day = first; day.month() === first.month(); day = day.add(1, 'day')) {
    const date = day.format(DATE_FORMAT);
    if (date > today) break;
    days.push(date);
  }
  return days;
}

/** A day as its row names it: 'Sat 1 Nov'. */
export function dayLabel(date: string): string {
  return dayjs(date).format('ddd D MMM');
}

/** A day in full, for its input's label: '1 November 2026'. */
export function dayName(date: string): string {
  return dayjs(date).format('D MMMM YYYY');
}

/* ---------------------------------------------------------------- amounts as typed */

export type ParsedAmount =
  | { readonly ok: true; readonly value: number | undefined }
  | { readonly ok: false; readonly message: string };

/**
 * An amount as typed: '$' and ',' and spaces are dropped; empty is no amount; else a number of at least 0 with at
 * most 2 decimals, not above the largest amount ('$1,234.5' → 1234.5).
 */
export function parseAmount(text: string): ParsedAmount {
  const cleaned = text.replace(/[$,\s]/g, '');
  if (cleaned === '') return { ok: true, value: undefined };
  if (!/^(\d+(\.\d{0,2})?|\.\d{1,2})$/.test(cleaned)) return { ok: false, message: GTO_AMOUNT_MESSAGE };
  const value = Number(cleaned);
  if (!Number.isFinite(value) || value > GTO_MAX_AMOUNT) return { ok: false, message: GTO_AMOUNT_MESSAGE };
  return { ok: true, value };
}

/** A stored amount as the input shows it: two decimals, no grouping (1234.5 → '1234.50'). */
export function amountText(value: number): string {
  return value.toFixed(2);
}

/* ---------------------------------------------------------------- the draft */

/** What the tenant types: each day's amount (by date) and the remarks. */
export interface GtoDraft {
  readonly days: Readonly<Record<string, string>>;
  readonly remarks: string;
}

/** The draft of a loaded month: its days' amounts (days not declared empty) and its remarks. */
export function draftOf(submission: GtoSubmissionLike, days: readonly string[]): GtoDraft {
  const declared = new Map(submission.gtoSubmissionData.map((day) => [day.date, day.gto] as const));
  const values: Record<string, string> = {};
  for (const date of days) {
    const gto = declared.get(date);
    values[date] = gto === undefined ? '' : amountText(gto);
  }
  return { days: values, remarks: submission.remarks ?? '' };
}

/** The remarks as sent: line breaks as '\n', tabs as spaces, no other control characters, trimmed. */
export function normalizeRemarks(text: string): string {
  return (
    text
      .replace(/\r\n?/g, '\n')
      .replace(/\t/g, ' ')
      // biome-ignore lint/suspicious/noControlCharactersInRegex: the contract refuses these characters
      .replace(/[\x00-\x09\x0B-\x1F\x7F]/g, '')
      .trim()
  );
}

export interface GtoDraftCheck {
  /** The message of each day whose amount is not valid, by date. */
  readonly dayErrors: Readonly<Record<string, string>>;
  readonly remarksError: string | undefined;
  /** The days with an amount, in order. */
  readonly entries: readonly GtoDayFigure[];
  /** The sum of the days with an amount (to the cent). */
  readonly total: number;
  /** Why the draft cannot be saved (the first reason), or undefined. */
  readonly problem: string | undefined;
}

/** Checks a draft against the days of its month. */
export function checkDraft(draft: GtoDraft, days: readonly string[]): GtoDraftCheck {
  const dayErrors: Record<string, string> = {};
  const entries: GtoDayFigure[] = [];
  let cents = 0;
  for (const date of days) {
    const parsed = parseAmount(draft.days[date] ?? '');
    if (!parsed.ok) dayErrors[date] = parsed.message;
    else if (parsed.value !== undefined) {
      entries.push({ date, gto: parsed.value });
      cents += Math.round(parsed.value * 100);
    }
  }
  const remarksError =
    normalizeRemarks(draft.remarks).length > GTO_REMARKS_MAX_LENGTH ? GTO_REMARKS_MESSAGE : undefined;
  const problem =
    Object.keys(dayErrors).length > 0
      ? GTO_INVALID_DRAFT_MESSAGE
      : (remarksError ?? (entries.length === 0 ? GTO_NO_DAYS_MESSAGE : undefined));
  return { dayErrors, remarksError, entries, total: cents / 100, problem };
}

/**
 * The total the page shows: the sum of the days typed; a month declared as a total only (no days) shows that total
 * while no day is typed.
 */
export function displayedTotal(check: GtoDraftCheck, submission: GtoSubmissionLike | undefined): number {
  return isTotalOnly(check, submission) && submission ? submission.total : check.total;
}

/** The month was submitted as a total without days, and no day is typed yet. */
export function isTotalOnly(check: GtoDraftCheck, submission: GtoSubmissionLike | undefined): boolean {
  return submission?.submitted === true && submission.gtoSubmissionData.length === 0 && check.entries.length === 0;
}

/** The body of POST / PUT submissionData for a valid draft. */
export function submissionRequest(
  target: { readonly clientId: number; readonly outletId: number; readonly month: string },
  check: GtoDraftCheck,
  remarks: string,
): {
  client_id: number;
  outlet_id: number;
  searchedMonth: string;
  gtoSubmissionData: GtoDayFigure[];
  remarks?: string;
} {
  const normalized = normalizeRemarks(remarks);
  return {
    client_id: target.clientId,
    outlet_id: target.outletId,
    searchedMonth: target.month,
    gtoSubmissionData: [...check.entries],
    ...(normalized === '' ? {} : { remarks: normalized }),
  };
}

/** Two drafts are the same (the page holds no unsaved change). */
export function sameDraft(a: GtoDraft, b: GtoDraft): boolean {
  if (a.remarks !== b.remarks) return false;
  const keys = new Set([...Object.keys(a.days), ...Object.keys(b.days)]);
  return [...keys].every((key) => (a.days[key] ?? '') === (b.days[key] ?? ''));
}

/* ---------------------------------------------------------------- the review */

export type GtoReviewFilter = 'all' | 'submitted' | 'notSubmitted' | 'flagged' | 'late';

export const GTO_REVIEW_FILTERS: readonly { readonly value: GtoReviewFilter; readonly label: string }[] = [
  { value: 'all', label: 'All' },
  { value: 'submitted', label: 'Submitted' },
  { value: 'notSubmitted', label: 'Not submitted' },
  { value: 'flagged', label: 'Flagged' },
  { value: 'late', label: 'Late' },
];

export function isGtoReviewFilter(value: string): value is GtoReviewFilter {
  return GTO_REVIEW_FILTERS.some((option) => option.value === value);
}

/** The review's order until its table is sorted otherwise: by outlet name, A to Z (its workbook's order). */
export const GTO_REVIEW_DEFAULT_SORT = { column: 'outlet_name', order: 'asc' } as const;

/** '5' for 5, '7.5' for 7.5. */
function percentNumber(value: number): string {
  return String(Math.round(value * 100) / 100);
}

/** The rule the Flagged tag follows, with the client's threshold. */
export function thresholdRule(thresholdPercent: number): string {
  return `Flagged: declared GTO differs from the sales captured from receipts by more than ${percentNumber(thresholdPercent)}%.`;
}

/** When the month is due, and that late months are tagged: 'Due on 7 November 2026; later submissions are tagged Late.' */
export function dueRule(dueOn: string): string {
  return `Due on ${dayjs(dueOn).format('D MMMM YYYY')}; months submitted later, or not by then, are tagged Late.`;
}

/** Why a month is late, for the tag's title. */
export function lateWording(row: Pick<GtoSummaryRowLike, 'status' | 'due_on'>): string {
  const due = formatDay(row.due_on);
  return row.status === 'submitted' ? `Submitted after the due day, ${due}` : `Not submitted by the due day, ${due}`;
}

/* ---------------------------------------------------------------- the review rules */

export const GTO_RULES_WHAT = 'GTO rules fetching';
export const GTO_THRESHOLD_MESSAGE = 'Enter a percentage from 0 to 100 with at most 2 decimals.';
export const GTO_DUE_DAY_MESSAGE = 'Choose a day from 1 to 28.';

/** The rules as the dialog edits them: the threshold as typed. */
export interface GtoRulesDraft {
  readonly clientId: number;
  readonly thresholdText: string;
  readonly dueDay: number;
  readonly reminders: boolean;
}

/** The threshold typed, as a number, or undefined when it is not 0 to 100 with at most 2 decimals. */
export function parseThreshold(text: string): number | undefined {
  const trimmed = text.trim().replace(/%$/, '').trim();
  if (!/^\d{1,3}(\.\d{1,2})?$/.test(trimmed)) return undefined;
  const value = Number(trimmed);
  return value <= 100 ? value : undefined;
}

export function isDueDay(day: number): boolean {
  return Number.isInteger(day) && day >= 1 && day <= 28;
}

/** The variance amount with its sign: '+$1,234.50', '-$20.00', '$0.00'; '' when not submitted. */
export function varianceAmountText(amount: number | null, currency: CurrencyFormat): string {
  if (amount === null) return '';
  const text = formatMoney(amount, currency);
  return amount > 0 && text !== formatMoney(0, currency) ? `+${text}` : text;
}

/** The variance percent with its sign, 2 decimals: '+8.20%', '-3.10%'; '' when none. */
export function variancePercentText(percent: number | null): string {
  if (percent === null) return '';
  const fixed = percent.toFixed(2);
  return percent > 0 ? `+${fixed}%` : `${fixed === '-0.00' ? '0.00' : fixed}%`;
}

/** What the variance says in words (the receipts link's label). */
export function varianceWording(row: GtoSummaryRowLike): string {
  if (row.status !== 'submitted' || row.variance_amount === null) return 'Not submitted';
  if (row.variance_percent === null) {
    return row.variance_amount === 0
      ? 'Declared GTO of 0 and no sales captured'
      : 'Declared GTO against no captured sales';
  }
  if (row.variance_percent === 0) return 'Declared GTO equals the captured sales';
  const side = row.variance_percent > 0 ? 'above' : 'below';
  return `Declared GTO ${Math.abs(row.variance_percent).toFixed(2)}% ${side} the captured sales`;
}

/** The status as the table says it. */
export function statusLabel(row: Pick<GtoSummaryRowLike, 'status'>): string {
  return row.status === 'submitted' ? 'Submitted' : 'Not submitted';
}

/** The days of `month` the receipts page shows for it: the month, up to `today` when the month is current. */
export function monthDateRange(month: string, today: string): { start: string; end: string } {
  const first = dayjs(`${month}-01`);
  const last = first.endOf('month').format(DATE_FORMAT);
  return { start: first.format(DATE_FORMAT), end: last > today ? today : last };
}

/** The receipts page of an outlet's month: its filters in the query, as the receipts page reads them. */
export function receiptsHrefOf(
  row: Pick<GtoSummaryRowLike, 'outlet_id' | 'month'>,
  clientId: number,
  today: string,
): string {
  const query = toFilterQuery({
    clientId,
    outlet: row.outlet_id,
    dateRange: monthDateRange(row.month, today),
  });
  return `/receipts?${query}`;
}

/** The CSV of the review's rows as shown (amounts in each row's currency, in a column of their own). */
export function gtoReviewCsv(rows: readonly GtoSummaryRowLike[]): CsvFile {
  return {
    name: 'gto_review',
    keys: [
      'outlet',
      'mall',
      'month',
      'declared_gto',
      'captured_sales',
      'variance_amount',
      'variance_percent',
      'status',
      'flagged',
      'submitted_at',
      'due_on',
      'late',
      'last_reminder',
      'currency',
    ],
    rows: rows.map((row) => ({
      outlet: row.outlet_name,
      mall: row.mall_name,
      month: row.month,
      declared_gto: row.gto_amount === null ? '' : csvNumeral(row.gto_amount.toFixed(2)),
      captured_sales: csvNumeral(row.captured_sales.toFixed(2)),
      variance_amount: row.variance_amount === null ? '' : csvNumeral(row.variance_amount.toFixed(2)),
      variance_percent: row.variance_percent === null ? '' : csvNumeral(row.variance_percent.toFixed(2)),
      status: statusLabel(row),
      flagged: row.flagged ? 'Yes' : 'No',
      submitted_at: row.submitted_at === null ? '' : formatDateTime(row.submitted_at),
      due_on: row.due_on,
      late: row.late ? 'Yes' : 'No',
      last_reminder: row.last_reminded_on ?? '',
      currency: row.currency,
    })),
  };
}

/* ---------------------------------------------------------------- gross turnover */

/** How many months the tenant's Gross Turnover page shows: the month picked and the eleven before it. */
export const GROSS_TURNOVER_MONTHS = 12;

/** The months the Gross Turnover page shows for `month` ('YYYY-MM'): the eleven before it and itself. */
export function grossTurnoverRange(month: string): { from: string; to: string } {
  const year = Number(month.slice(0, 4));
  const index = year * 12 + Number(month.slice(5, 7)) - 1 - (GROSS_TURNOVER_MONTHS - 1);
  const from = `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, '0')}`;
  return { from, to: month };
}

/** Nothing to show: no month declared and nothing captured. */
export function isGrossTurnoverEmpty(rows: readonly { declared: number | null; captured: number }[]): boolean {
  return rows.every((row) => row.declared === null && row.captured === 0);
}

/** The CSV of the page's months: month, declared, captured, difference and its percent, in the outlet's currency. */
export function grossTurnoverCsv(
  rows: readonly {
    month: string;
    declared: number | null;
    captured: number;
    difference: number | null;
    difference_percent: number | null;
  }[],
  currency: string,
): CsvFile {
  return {
    name: 'gross_turnover',
    keys: ['month', 'declared_gto', 'captured_sales', 'difference', 'difference_percent'],
    rows: rows.map((row) => ({
      month: row.month,
      declared_gto: row.declared ?? '',
      captured_sales: row.captured,
      difference: row.difference ?? '',
      difference_percent: row.difference_percent ?? '',
    })),
    currency,
  };
}
