/**
 * How complete a period of a chart is. A period still open (today, or a month or week that includes today) has
 * only part of its sales so far; a month or week that the chosen range cuts short has only some of its days.
 * Neither may be drawn as if it were a whole period: its label says so, and charts draw it apart.
 * Days are `YYYY-MM-DD`, months `YYYY-MM`.
 */

import type { AlignedFestival, CompareRule } from './comparisons';
import { formatMonthShort } from './format';
import { addDays, daysInRange, earlierDay, laterDay, type Period, previousPeriod } from './reports';

export interface PeriodMark {
  /** The period's label, with its real span when cut short and 'so far' when still open. */
  readonly label: string;
  /** Cut short by the range, or still open: not comparable with whole periods. */
  readonly partial: boolean;
  /** Still open (it includes today): its figures will grow. */
  readonly open: boolean;
}

const dayOfMonth = (day: string) => Number(day.slice(8, 10));
const monthShort = (day: string) => formatMonthShort(Number(day.slice(5, 7)));

/** A day: '24/11 (so far)' when it is today (dayLabel writes the day as the chart does). */
export function dayMark(date: string, today: string, dayLabel: (date: string) => string): PeriodMark {
  const open = date >= today;
  return { label: open ? `${dayLabel(date)} (so far)` : dayLabel(date), partial: open, open };
}

/** The span of a bucket `first`..`last` that the range `start`..`end` (and today) leave of it. */
function spanOf(first: string, last: string, range: { start: string; end: string }, today: string) {
  const from = laterDay(first, range.start);
  const to = earlierDay(last, range.end);
  const open = to >= today;
  return { from, to, open, cut: from !== first || to !== last };
}

/** '16–22 Nov', '28 Nov – 2 Dec'. */
export function spanText(from: string, to: string): string {
  if (from === to) return `${dayOfMonth(from)} ${monthShort(from)}`;
  if (from.slice(0, 7) === to.slice(0, 7)) return `${dayOfMonth(from)}–${dayOfMonth(to)} ${monthShort(to)}`;
  return `${dayOfMonth(from)} ${monthShort(from)} – ${dayOfMonth(to)} ${monthShort(to)}`;
}

/**
 * A month of a range: its name ('November 2026', as `monthLabel` writes it) when whole; 'November 2026 (1–24 Nov,
 * 24 days)' when the range cuts it short; '… so far' when it includes today.
 */
export function monthMark(
  month: string,
  range: { start: string; end: string },
  today: string,
  monthLabel: (month: string) => string,
): PeriodMark {
  const first = `${month}-01`;
  const last = addDays(`${nextMonth(month)}-01`, -1);
  const span = spanOf(first, last, range, today);
  return markOf(monthLabel(month), span);
}

/** A week (its Monday) of a range: '16–22 Nov' when whole, '19–22 Nov (4 days)' when cut short. */
export function weekMark(monday: string, range: { start: string; end: string }, today: string): PeriodMark {
  const span = spanOf(monday, addDays(monday, 6), range, today);
  return markOf(spanText(laterDay(monday, range.start), earlierDay(addDays(monday, 6), range.end)), span, true);
}

function markOf(
  name: string,
  span: { from: string; to: string; open: boolean; cut: boolean },
  spanIsName = false,
): PeriodMark {
  // A bucket outside the range (an answer wider than the question) is labelled as it is.
  if (span.from > span.to) return { label: name, partial: false, open: false };
  const days = daysInRange(span.from, span.to);
  const partial = span.cut || span.open;
  if (!partial) return { label: name, partial, open: false };
  const what = span.open ? 'so far' : `${days} ${days === 1 ? 'day' : 'days'}`;
  const label = spanIsName ? `${name} (${what})` : `${name} (${spanText(span.from, span.to)}, ${what})`;
  return { label, partial, open: span.open };
}

function nextMonth(month: string): string {
  const year = Number(month.slice(0, 4));
  const index = Number(month.slice(5, 7));
  return index === 12 ? `${year + 1}-01` : `${year}-${String(index + 1).padStart(2, '0')}`;
}

/**
 * A bucket of a series by its time range, as the server labels it ('YYYY-MM-DD HH:00', a day, a week's Monday,
 * 'YYYY-MM'): days and months as `dayLabel` and `monthLabel` write them, weeks by their days; open or cut-short
 * buckets marked (dayMark, weekMark, monthMark).
 */
export function bucketMark(
  timeRange: 'hourly' | 'daily' | 'weekly' | 'monthly',
  period: string,
  range: { start: string; end: string },
  today: string,
  labels: { day: (date: string) => string; month: (month: string) => string },
): PeriodMark {
  if (timeRange === 'hourly') return { label: period, partial: false, open: false };
  if (timeRange === 'daily') return dayMark(period, today, labels.day);
  if (timeRange === 'weekly') return weekMark(period, range, today);
  return monthMark(period, range, today, labels.month);
}

/**
 * What a growth rate compares: the complete days of a range (its start to the earlier of its end and yesterday)
 * with as many days just before its start. Today is still open, so it is left out; a range that ends before
 * today is compared whole.
 */
export interface GrowthComparison {
  readonly current: Period;
  /** The first to the last day compared with (festival alignment may leave days between out). */
  readonly previous: Period;
  /** The range reaches today, which is not compared. */
  readonly todayLeftOut: boolean;
  /** The rule that chose the days compared with (the previous period when absent). */
  readonly rule?: CompareRule | undefined;
  /** The festivals of the range met with last year's (festival_aligned). */
  readonly aligned?: readonly AlignedFestival[] | undefined;
  /** Like-for-like: how many outlets were counted and left out. */
  readonly likeForLike?: { readonly kept: number; readonly left_out: number } | undefined;
  /** The days compared with hold no sale: the rate is §9's 0.00%, with nothing to compare. */
  readonly nothingToCompare?: boolean | undefined;
  /** The days compared hold no sale themselves ('no data', not a zero). */
  readonly nothingCompared?: boolean | undefined;
}

/** The comparison of a range's complete days; undefined when the range holds none (only today). */
export function completeDaysComparison(range: Period, today: string): GrowthComparison | undefined {
  const end = earlierDay(range.end, addDays(today, -1));
  if (end < range.start) return undefined;
  return {
    current: { start: range.start, end },
    previous: previousPeriod(range.start, end),
    todayLeftOut: end !== range.end,
  };
}

/** How the server chose the days compared with (ComparisonMeta of the contract). */
export interface ComparisonMeta {
  readonly compare: CompareRule;
  readonly aligned: readonly {
    readonly festival: string;
    readonly name: string;
    readonly start_time: string;
    readonly end_time: string;
    readonly compared_start_time: string;
    readonly compared_end_time: string;
  }[];
  readonly like_for_like: { readonly kept: number; readonly left_out: number } | null;
  /** Whether the compared days hold any sale. */
  readonly has_data: boolean;
}

/** A comparison with the server's account of it: the days compared with, the rule, festivals met, outlets kept. */
export function withComparisonMeta(
  comparison: GrowthComparison,
  previous: Period,
  meta: ComparisonMeta | undefined,
): GrowthComparison {
  if (!meta) return { ...comparison, previous };
  return {
    ...comparison,
    previous,
    rule: meta.compare,
    aligned: meta.aligned.map((festival) => ({
      festival: festival.festival,
      name: festival.name,
      current: { start: festival.start_time, end: festival.end_time },
      compared: { start: festival.compared_start_time, end: festival.compared_end_time },
    })),
    likeForLike: meta.like_for_like ?? undefined,
    nothingToCompare: !meta.has_data,
  };
}

export const NO_COMPLETE_DAY = 'No complete day to compare yet.';

/** A span, with its year when it is not the year of `of` ('29–30 Jan 2025'). */
export function spanInYearOf(span: Period, of: string): string {
  const text = spanText(span.start, span.end);
  return span.end.slice(0, 4) === of.slice(0, 4) ? text : `${text} ${span.end.slice(0, 4)}`;
}

/**
 * What a growth rate is against: 'vs 11–17 Nov', 'vs 11–16 Nov (today left out)', 'vs 3–9 Mar 2025, same weekdays
 * last year', 'vs 26 Jan – 8 Feb 2025, Chinese New Year 17–18 Feb met with 29–30 Jan 2025', '…, like-for-like:
 * 2 outlets left out'; NO_COMPLETE_DAY without one.
 */
export function comparisonLabel(comparison: GrowthComparison | undefined): string {
  if (!comparison) return NO_COMPLETE_DAY;
  const parts = [`vs ${spanInYearOf(comparison.previous, comparison.current.end)}`, ...comparisonNotes(comparison)];
  const against = parts.join(', ');
  return comparison.todayLeftOut ? `${against} (today left out)` : against;
}

/**
 * How the days compared with were chosen, beyond their span: 'same weekdays last year', the festivals met
 * ('Chinese New Year 17–18 Feb met with 29–30 Jan 2025'), 'like-for-like: 2 outlets left out'; nothing for the
 * previous period. Every page's growth says these the same way (comparisonLabel, the sales trends' month lines).
 */
export function comparisonNotes(
  comparison: Pick<GrowthComparison, 'current' | 'rule' | 'aligned' | 'likeForLike'>,
): string[] {
  const thisYear = comparison.current.end;
  const notes: string[] = [];
  if (comparison.rule === 'same_weekday_last_year') notes.push('same weekdays last year');
  if (comparison.rule === 'same_date_last_year') notes.push('same dates last year');
  if (comparison.rule === 'festival_aligned') {
    const met = (comparison.aligned ?? []).map(
      (festival) =>
        `${festival.name} ${spanInYearOf(festival.current, thisYear)} met with ${spanInYearOf(festival.compared, thisYear)}`,
    );
    notes.push(met.length > 0 ? met.join('; ') : 'same weekdays last year: no festival in the range');
  }
  if (comparison.likeForLike) {
    const left = comparison.likeForLike.left_out;
    notes.push(`like-for-like: ${left} ${left === 1 ? 'outlet' : 'outlets'} left out`);
  }
  return notes;
}
