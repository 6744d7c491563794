import dayjs from 'dayjs';

/**
 * Date and hour rules of the filter header (§4, §5, §9), as pure functions of their arguments
 * ("today" is always passed in). Dates are local calendar dates written `YYYY-MM-DD`, times
 * `HH:mm:ss`, months `YYYY-MM`; such strings compare correctly as strings.
 *
 * The user-visible texts of these rules live here too and are reproduced exactly:
 * - the alert title 'Date Range Exceeded' and its text 'You have selected a date range more than {n} {unit}.
 *   Please try again.', where `{n} {unit}` is the maximum in days, '1 day' or 'N days' (e.g. '31 days');
 * - 'You have selected a future date. Please try again with another date.';
 * - 'Date must be before End Date.' (start after end);
 * - 'From must be at or before To.' (hour picker; the spec gives the rule, not the words);
 * - 'Please enter a valid date.' (a malformed typed date; ours);
 * - 'You have selected a date before D MMM YYYY. Please try again with another date.' (a start before the
 *   earliest selectable date; the picker disables those days, so only a typed date or a link reaches it).
 */

export const DATE_FORMAT = 'YYYY-MM-DD';
export const TIME_FORMAT = 'HH:mm:ss';
export const MONTH_FORMAT = 'YYYY-MM';

export type TimeRange = 'hourly' | 'daily' | 'weekly' | 'monthly';
export const TIME_RANGES: readonly TimeRange[] = ['hourly', 'daily', 'weekly', 'monthly'];
export const DEFAULT_TIME_RANGE: TimeRange = 'daily';

export type Metric = 'gmv' | 'transactions' | 'average_transaction_value';
export const METRICS: readonly Metric[] = ['gmv', 'transactions', 'average_transaction_value'];
export const DEFAULT_METRIC: Metric = 'gmv';

export function isTimeRange(value: string): value is TimeRange {
  return (TIME_RANGES as readonly string[]).includes(value);
}

export function isMetric(value: string): value is Metric {
  return (METRICS as readonly string[]).includes(value);
}

/** A range of whole days, both ends included; the times are set only by a datetime picker. */
export interface DateRange {
  readonly start: string;
  readonly end: string;
  readonly startTime?: string;
  readonly endTime?: string;
}

/** Hours of the day, both ends included: 0–23 is the whole day. */
export interface HourRange {
  readonly from: number;
  readonly to: number;
}

/* ---------------------------------------------------------------- texts */

export const DATE_RANGE_EXCEEDED_TITLE = 'Date Range Exceeded';
export const FUTURE_DATE_MESSAGE = 'You have selected a future date. Please try again with another date.';
export const START_AFTER_END_MESSAGE = 'Date must be before End Date.';
export const HOUR_ORDER_MESSAGE = 'From must be at or before To.';
/** A malformed date or time (typed into an input): our text, the spec gives none. */
export const INVALID_DATE_MESSAGE = 'Please enter a valid date.';

/** '1 day', '31 days': the `{n} {unit}` of the texts below. */
export function dayCount(days: number): string {
  return days === 1 ? '1 day' : `${days} days`;
}

/** The text of the 'Date Range Exceeded' alert for a maximum of `maxDays` days. */
export function dateRangeExceededMessage(maxDays: number): string {
  return `You have selected a date range more than ${dayCount(maxDays)}. Please try again.`;
}

/** The picker's note under its options, e.g. '(Max range of 31 days)'. */
export function maxRangeNote(maxDays: number): string {
  return `(Max range of ${dayCount(maxDays)})`;
}

/** A start before the earliest selectable date (typed or from a link). */
export function beforeEarliestMessage(earliest: string): string {
  return `You have selected a date before ${dayjs(earliest).format('D MMM YYYY')}. Please try again with another date.`;
}

/* ---------------------------------------------------------------- parsing */

export function isValidDate(value: string): boolean {
  return /^\d{4}-\d{2}-\d{2}$/.test(value) && dayjs(value).format(DATE_FORMAT) === value;
}

export function isValidTime(value: string): boolean {
  const match = /^(\d{2}):(\d{2}):(\d{2})$/.exec(value);
  if (!match) return false;
  const [, hours = '', minutes = '', seconds = ''] = match;
  return Number(hours) <= 23 && Number(minutes) <= 59 && Number(seconds) <= 59;
}

export function isValidMonth(value: string): boolean {
  return /^\d{4}-\d{2}$/.test(value) && isValidDate(`${value}-01`);
}

/** `YYYY-MM-DD` of a dayjs-parsable value (a Date, an ISO string) in local time. */
export function toDateString(value: Date | string): string {
  return dayjs(value).format(DATE_FORMAT);
}

export function addDays(date: string, days: number): string {
  return dayjs(date).add(days, 'day').format(DATE_FORMAT);
}

export function monthOf(date: string): string {
  return date.slice(0, 7);
}

/** Days in the range, both ends included: a range of one date is 1 day. */
export function rangeDays(range: Pick<DateRange, 'start' | 'end'>): number {
  return dayjs(range.end).diff(dayjs(range.start), 'day') + 1;
}

/* ---------------------------------------------------------------- maximum ranges (§9) */

export const MAX_RANGE_DAYS: Readonly<Record<TimeRange, number>> = {
  hourly: 31,
  daily: 31,
  weekly: 93,
  monthly: 366,
};
/** Hourly with the average-transaction metric. */
export const HOURLY_AVERAGE_TRANSACTION_MAX_DAYS = 1;
/** The breakeven pages, whatever the time range. */
export const BREAKEVEN_MAX_DAYS = 31;

export interface MaxRangeOptions {
  /** A breakeven target page. */
  readonly breakeven?: boolean;
}

export function maxRangeDays(timeRange: TimeRange, metric: Metric, options: MaxRangeOptions = {}): number {
  if (options.breakeven) return BREAKEVEN_MAX_DAYS;
  if (timeRange === 'hourly' && metric === 'average_transaction_value') return HOURLY_AVERAGE_TRANSACTION_MAX_DAYS;
  return MAX_RANGE_DAYS[timeRange];
}

/* ---------------------------------------------------------------- the selectable window (§5) */

/** The dates a picker offers, both ends included; `earliest` undefined: no lower bound. */
export interface DateWindow {
  readonly earliest: string | undefined;
  readonly latest: string;
}

export const DATETIME_PICKER_LIMITATION = 'datetime-picker-limitation';
export const SUPER_ADMIN_ROLE_NAME = 'super admin';

/** §5/§6: the component permission limits every user but a super admin. */
export function hasDatePickerLimitation(user: {
  readonly roles: readonly string[];
  readonly permissionsComponents: readonly string[];
}): boolean {
  return user.permissionsComponents.includes(DATETIME_PICKER_LIMITATION) && !user.roles.includes(SUPER_ADMIN_ROLE_NAME);
}

export interface WindowOptions {
  readonly today: string;
  /** The earliest date a setting allows (e.g. the client's first day of data). */
  readonly earliestSetting?: string | undefined;
  /** `hasDatePickerLimitation(user)`. */
  readonly limited?: boolean;
}

/**
 * [earliest allowed, today]. With the 'datetime-picker-limitation' permission (not a super admin) the
 * earliest allowed date is the start of yesterday: such a user sees only yesterday and today. (§5 says the
 * earliest date comes "from the permission limit or the earliest setting"; we read the limit as that lower
 * bound, which is also why the quick ranges then disappear: see `showsQuickRanges`.)
 */
export function selectableWindow(options: WindowOptions): DateWindow {
  const candidates: string[] = [];
  if (options.earliestSetting !== undefined && isValidDate(options.earliestSetting)) {
    candidates.push(options.earliestSetting);
  }
  if (options.limited) candidates.push(addDays(options.today, -1));
  const earliest = candidates.sort().at(-1);
  return { earliest, latest: options.today };
}

/** Whether a day is outside the window (the picker disables it). */
export function isDateDisabled(date: string, window: DateWindow): boolean {
  if (date > window.latest) return true;
  return window.earliest !== undefined && date < window.earliest;
}

/** Radio shortcuts show when the earliest allowed date is more than this many days before today. */
export const QUICK_RANGES_MIN_HISTORY_DAYS = 45;

export function showsQuickRanges(window: DateWindow): boolean {
  if (window.earliest === undefined) return true;
  return dayjs(window.latest).diff(dayjs(window.earliest), 'day') > QUICK_RANGES_MIN_HISTORY_DAYS;
}

/* ---------------------------------------------------------------- quick ranges (§4, §9) */

export type QuickRangeId = 'last7' | 'last30';
/** The calendar presets beside the quick ranges (`datePresets` of domain/datePresets computes them). */
export type DatePresetId = 'thisMonth' | 'lastMonth' | 'quarterToDate' | 'yearToDate';
export const DATE_PRESET_IDS: readonly DatePresetId[] = ['thisMonth', 'lastMonth', 'quarterToDate', 'yearToDate'];
export type DateRangeOption = QuickRangeId | DatePresetId | 'custom';
export const QUICK_RANGE_DAYS: Readonly<Record<QuickRangeId, number>> = { last7: 7, last30: 30 };
export const DEFAULT_QUICK_RANGE: QuickRangeId = 'last7';

/** The last `n` days up to and including `today`. */
export function quickRange(id: QuickRangeId, today: string): DateRange {
  return { start: addDays(today, -(QUICK_RANGE_DAYS[id] - 1)), end: today };
}

/** Which quick range a range is, if any. */
export function quickRangeOf(range: Pick<DateRange, 'start' | 'end'>, today: string): QuickRangeId | undefined {
  for (const id of ['last7', 'last30'] as const) {
    const candidate = quickRange(id, today);
    if (candidate.start === range.start && candidate.end === range.end) return id;
  }
  return undefined;
}

/** Keeps the end, moves the start so that the range lasts at most `maxDays` and starts inside the window. */
export function clampRange(range: DateRange, maxDays: number, window?: DateWindow): DateRange {
  let start = rangeDays(range) > maxDays ? addDays(range.end, -(maxDays - 1)) : range.start;
  if (window?.earliest !== undefined && start < window.earliest) start = window.earliest;
  if (start > range.end) start = range.end;
  return { ...range, start };
}

/** Last 7 days (§9 default), shortened to the window and the maximum. */
export function defaultDateRange(window: DateWindow, maxDays: number): DateRange {
  return clampRange(quickRange(DEFAULT_QUICK_RANGE, window.latest), maxDays, window);
}

/* ---------------------------------------------------------------- validation (§5) */

export type DateRangeProblem =
  | { readonly kind: 'invalid'; readonly message: string }
  | { readonly kind: 'future'; readonly message: string }
  | { readonly kind: 'startAfterEnd'; readonly message: string }
  | { readonly kind: 'beforeEarliest'; readonly message: string }
  | { readonly kind: 'exceeded'; readonly title: string; readonly message: string; readonly maxDays: number };

export interface RangeRules {
  readonly window: DateWindow;
  /** Undefined: no maximum. */
  readonly maxDays: number | undefined;
}

/**
 * What is wrong with a range, in this order: a malformed date or time, a future date, start after end
 * (dates, then times on the same date), a start before the earliest allowed date, longer than the maximum.
 * Undefined: the range is good.
 */
export function validateDateRange(range: DateRange, rules: RangeRules): DateRangeProblem | undefined {
  const timesValid =
    (range.startTime === undefined || isValidTime(range.startTime)) &&
    (range.endTime === undefined || isValidTime(range.endTime));
  if (!isValidDate(range.start) || !isValidDate(range.end) || !timesValid) {
    return { kind: 'invalid', message: INVALID_DATE_MESSAGE };
  }
  if (range.start > rules.window.latest || range.end > rules.window.latest) {
    return { kind: 'future', message: FUTURE_DATE_MESSAGE };
  }
  const startAfterEnd =
    range.start > range.end ||
    (range.start === range.end &&
      range.startTime !== undefined &&
      range.endTime !== undefined &&
      range.startTime > range.endTime);
  if (startAfterEnd) return { kind: 'startAfterEnd', message: START_AFTER_END_MESSAGE };
  if (rules.window.earliest !== undefined && range.start < rules.window.earliest) {
    return { kind: 'beforeEarliest', message: beforeEarliestMessage(rules.window.earliest) };
  }
  if (rules.maxDays !== undefined && rangeDays(range) > rules.maxDays) {
    return {
      kind: 'exceeded',
      title: DATE_RANGE_EXCEEDED_TITLE,
      message: dateRangeExceededMessage(rules.maxDays),
      maxDays: rules.maxDays,
    };
  }
  return undefined;
}

/* ---------------------------------------------------------------- hours (§5, §9) */

export const FIRST_HOUR = 0;
export const LAST_HOUR = 23;
export const ALL_DAY: HourRange = { from: FIRST_HOUR, to: LAST_HOUR };
export const HOURS: readonly number[] = Array.from({ length: LAST_HOUR + 1 }, (_, hour) => hour);

export function isHour(value: number): boolean {
  return Number.isInteger(value) && value >= FIRST_HOUR && value <= LAST_HOUR;
}

export function isAllDay(hours: HourRange): boolean {
  return hours.from === FIRST_HOUR && hours.to === LAST_HOUR;
}

export type HourRangeProblem = 'outOfRange' | 'fromAfterTo';

export function validateHourRange(hours: HourRange): HourRangeProblem | undefined {
  if (!isHour(hours.from) || !isHour(hours.to)) return 'outOfRange';
  if (hours.from > hours.to) return 'fromAfterTo';
  return undefined;
}

/* ---------------------------------------------------------------- months (monthly pages) */

/** Whether a month can be chosen: well-formed, not after the window's last month, not before its first. */
export function isMonthSelectable(month: string, window: DateWindow): boolean {
  if (!isValidMonth(month)) return false;
  if (month > monthOf(window.latest)) return false;
  return window.earliest === undefined || month >= monthOf(window.earliest);
}

/** How many months the month picker offers when the window has no lower bound. */
export const MONTH_OPTION_COUNT = 24;

/** The months the month picker offers, latest first. */
export function monthOptions(window: DateWindow, count: number = MONTH_OPTION_COUNT): string[] {
  const months: string[] = [];
  let month = dayjs(`${monthOf(window.latest)}-01`);
  const first = window.earliest === undefined ? undefined : monthOf(window.earliest);
  while (months.length < count) {
    const value = month.format(MONTH_FORMAT);
    if (first !== undefined && value < first) break;
    months.push(value);
    month = month.subtract(1, 'month');
  }
  return months;
}

/* ---------------------------------------------------------------- mobile selects */

export type DatePart = 'day' | 'month' | 'year';

/** The date with one part changed; the day is clamped to the month's length (31 → 29 in a leap February). */
export function withDatePart(date: string, part: DatePart, value: number): string {
  const current = dayjs(date);
  const year = part === 'year' ? value : current.year();
  const month = part === 'month' ? value : current.month() + 1;
  const wantedDay = part === 'day' ? value : current.date();
  const monthStart = dayjs(`${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-01`);
  const day = Math.min(Math.max(wantedDay, 1), monthStart.daysInMonth());
  return monthStart.date(day).format(DATE_FORMAT);
}

/** Days of the date's month (1..28–31) for the day select. */
export function daysInMonthOf(date: string): number[] {
  return Array.from({ length: dayjs(date).daysInMonth() }, (_, index) => index + 1);
}

/** How many years back the year select offers when the window has no lower bound. */
export const YEAR_OPTION_COUNT = 10;

/** Years for the year select, latest first. */
export function yearOptions(window: DateWindow, count: number = YEAR_OPTION_COUNT): number[] {
  const last = dayjs(window.latest).year();
  const first = window.earliest === undefined ? last - count + 1 : dayjs(window.earliest).year();
  const years: number[] = [];
  for (let year = last; year >= first; year -= 1) years.push(year);
  return years;
}
