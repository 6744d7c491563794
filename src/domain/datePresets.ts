import dayjs from 'dayjs';
import {
  DATE_FORMAT,
  DATE_PRESET_IDS,
  type DatePresetId,
  type DateRange,
  type DateWindow,
  dayCount,
  rangeDays,
  type TimeRange,
} from './dateLimits';
import { timeRangeLabel } from './filterOptions';
import { formatDay } from './format';

/**
 * The calendar presets of the date-range picker (issue 31), beside the quick ranges of §9 (Last 7 days, Last 30
 * days): This month (the 1st to today), Last month (the whole previous month) and, where the page has a time-range
 * select offering Weekly or Monthly, Quarter to date (the quarter's first day to today) and Year to date (1 Jan to
 * today). A pure function of today (the window's latest day), the dates the user may choose and the maximum ranges
 * (§9: Daily and Hourly 31 days, Weekly 93, Monthly 366):
 *
 * - a preset that fits the current maximum is chosen as it is;
 * - one longer than it switches the time range to the smallest one offered whose maximum fits (Quarter to date:
 *   Weekly once the quarter passes 31 days; Year to date: Monthly once the year passes 93 days);
 * - one that no time range fits, or that starts before the earliest date the user may choose (the
 *   'datetime-picker-limitation' permission, the earliest setting), is offered disabled, with why.
 */

/** What one time range of the page's select allows. */
export interface TimeRangeMaximum {
  readonly timeRange: TimeRange;
  readonly maxDays: number;
}

/** The page's time-range select: the chosen one and the maximum of each offered one, smallest first. */
export interface TimeRangeChoice {
  readonly current: TimeRange;
  readonly options: readonly TimeRangeMaximum[];
}

export interface DatePresetRules {
  /** The dates the user may choose; `latest` is today. */
  readonly window: DateWindow;
  /** The longest range allowed now; undefined: no maximum. */
  readonly maxDays: number | undefined;
  /** The page's time-range select; undefined: the page has none (no Quarter to date or Year to date). */
  readonly timeRanges?: TimeRangeChoice | undefined;
}

export interface DatePreset {
  readonly id: DatePresetId;
  readonly range: DateRange;
  /** The time range choosing it switches to; undefined: the time range stays. */
  readonly timeRange: TimeRange | undefined;
  /** The longest range once it is chosen (the new time range's, when it switches); undefined: no maximum. */
  readonly maxDays: number | undefined;
  /** Why it cannot be chosen (the radio's title); undefined: it can. */
  readonly disabledReason: string | undefined;
}

/** A preset that starts before the earliest date the user may choose. */
export function presetBeforeEarliestReason(earliest: string): string {
  return `Starts before ${formatDay(earliest)}, the earliest date you may choose.`;
}

/** A preset longer than every time range allows. */
export function presetTooLongReason(maxDays: number): string {
  return `Longer than the maximum range of ${dayCount(maxDays)}.`;
}

/** The picker's note while a preset that switches the time range is chosen: '(Max range of 366 days, Monthly)'. */
export function presetMaxRangeNote(maxDays: number, timeRange: TimeRange): string {
  return `(Max range of ${dayCount(maxDays)}, ${timeRangeLabel(timeRange)})`;
}

/** The days of a preset on `today` (`YYYY-MM-DD`), both ends included. */
export function presetRange(id: DatePresetId, today: string): DateRange {
  const day = dayjs(today);
  switch (id) {
    case 'thisMonth':
      return { start: day.startOf('month').format(DATE_FORMAT), end: today };
    case 'lastMonth': {
      const month = day.startOf('month').subtract(1, 'month');
      return { start: month.format(DATE_FORMAT), end: month.endOf('month').format(DATE_FORMAT) };
    }
    case 'quarterToDate': {
      const firstMonth = Math.floor(day.month() / 3) * 3;
      return { start: day.month(firstMonth).startOf('month').format(DATE_FORMAT), end: today };
    }
    case 'yearToDate':
      return { start: day.startOf('year').format(DATE_FORMAT), end: today };
  }
}

/** Quarter to date and Year to date need a time-range select offering Weekly or Monthly. */
function offersLongTimeRanges(timeRanges: TimeRangeChoice | undefined): boolean {
  return timeRanges?.options.some((option) => option.timeRange === 'weekly' || option.timeRange === 'monthly') ?? false;
}

/** The presets the picker offers, in order, each with its range and whether (and how) it can be chosen. */
export function datePresets(rules: DatePresetRules): DatePreset[] {
  const { window, maxDays, timeRanges } = rules;
  const ids = offersLongTimeRanges(timeRanges)
    ? DATE_PRESET_IDS
    : DATE_PRESET_IDS.filter((id) => id === 'thisMonth' || id === 'lastMonth');
  return ids.map((id) => {
    const range = presetRange(id, window.latest);
    const days = rangeDays(range);
    const base = { id, range, timeRange: undefined, maxDays };
    if (window.earliest !== undefined && range.start < window.earliest) {
      return { ...base, disabledReason: presetBeforeEarliestReason(window.earliest) };
    }
    if (maxDays === undefined || days <= maxDays) return { ...base, disabledReason: undefined };
    const fitting = timeRanges?.options.find((option) => days <= option.maxDays);
    if (fitting !== undefined) {
      return { ...base, timeRange: fitting.timeRange, maxDays: fitting.maxDays, disabledReason: undefined };
    }
    const longest = Math.max(maxDays, ...(timeRanges?.options.map((option) => option.maxDays) ?? []));
    return { ...base, disabledReason: presetTooLongReason(longest) };
  });
}

/** The preset a range is on `today`, if any (the first in the picker's order). */
export function presetOf(
  range: Pick<DateRange, 'start' | 'end'>,
  presets: readonly DatePreset[],
): DatePreset | undefined {
  return presets.find((preset) => preset.range.start === range.start && preset.range.end === range.end);
}
