/**
 * What a growth figure compares a range of days with. §9 leaves the choice open except for the mall outlet page
 * (whole weeks); a user may choose:
 *
 * - `previous`: as many days just before the range (the whole-weeks rule on the outlet pages);
 * - `same_weekday_last_year`: every day with the day 364 days (52 weeks) before it, the same weekday last year;
 * - `same_date_last_year`: every day with the same date a year before (29 February with the 28th), so a month with
 *   the same month of the year before (Sales Trends' own rule, like-for-like when asked);
 * - `festival_aligned`: last year with its festivals met. Every day of a festival in the range (a calendar entry
 *   with a festival key) is compared with the same day of that festival last year (Chinese New Year's first day
 *   with last year's first day); every other day with the same weekday next to last year's festival, counted from
 *   the nearer festival: the day before the festival with the last such weekday before last year's festival, the
 *   day after with the first such weekday after it, and so on outwards. Without a festival in the range it is the
 *   same weekday last year.
 *
 * The compared days are a list (one per day of the range, in its order), as festival alignment may leave gaps; their
 * span is the first to the last. Used by the server (which sums the rollups over those days) and the pages (which
 * say what is compared).
 */
import {
  addDays,
  daysInRange,
  eachDay,
  isoWeekday,
  type Period,
  previousPeriod,
  wholeWeeksComparisonPeriod,
} from './reports';

export const COMPARE_RULES = ['previous', 'same_weekday_last_year', 'same_date_last_year', 'festival_aligned'] as const;
export type CompareRule = (typeof COMPARE_RULES)[number];

/** How each rule is named in the comparison select. */
export const COMPARE_RULE_LABELS: Readonly<Record<CompareRule, string>> = {
  previous: 'Previous period',
  same_weekday_last_year: 'Same weekdays last year',
  same_date_last_year: 'Same dates last year',
  festival_aligned: 'Festival-aligned last year',
};

/** The comparison a user chose for a page's growth figures. */
export interface ComparisonChoice {
  readonly rule: CompareRule;
  /** Only the outlets trading through the whole of both periods. */
  readonly likeForLike: boolean;
}

export const DEFAULT_COMPARISON: ComparisonChoice = { rule: 'previous', likeForLike: false };

/** A festival of the calendar: its key (the same every year) and its days. */
export interface FestivalDays {
  readonly festival: string;
  readonly name: string;
  readonly start: string;
  readonly end: string;
}

/** A festival of the range met with last year's. */
export interface AlignedFestival {
  readonly festival: string;
  readonly name: string;
  readonly current: Period;
  readonly compared: Period;
}

export interface ComparedDays {
  readonly rule: CompareRule;
  /** The compared day of each day of the range, in the range's order. */
  readonly days: readonly string[];
  /** The first to the last compared day. */
  readonly span: Period;
  /** The festivals met (festival_aligned only). */
  readonly aligned: readonly AlignedFestival[];
}

/** The previous period's rule: as many days just before, or moved back by whole weeks (§9, outlet comparison). */
export type PreviousRule = 'days' | 'whole_weeks';

const WEEK = 7;
/** Last year's occurrence of a festival starts this many days before this year's, at least and at most. */
const LAST_YEAR_MIN_DAYS = 300;
const LAST_YEAR_MAX_DAYS = 430;

const spanOf = (days: readonly string[]): Period => {
  const sorted = [...days].sort();
  return { start: sorted[0] ?? '', end: sorted[sorted.length - 1] ?? '' };
};

/** Days between two days (b − a). */
const between = (a: string, b: string) => daysInRange(a, b) - 1;

/** The compared days of `range` by `rule`; `festivals` are the calendar's festivals around it (both years). */
export function comparedDays(
  rule: CompareRule,
  range: Period,
  festivals: readonly FestivalDays[] = [],
  previous: PreviousRule = 'days',
): ComparedDays {
  const days = eachDay(range.start, range.end);
  if (rule === 'previous') {
    const period =
      previous === 'whole_weeks'
        ? wholeWeeksComparisonPeriod(range.start, range.end)
        : previousPeriod(range.start, range.end);
    return { rule, days: eachDay(period.start, period.end), span: period, aligned: [] };
  }
  if (rule === 'same_date_last_year') {
    const sameDates = days.map(sameDateLastYear);
    return { rule, days: sameDates, span: spanOf(sameDates), aligned: [] };
  }
  const lastYear = days.map((day) => addDays(day, -52 * WEEK));
  if (rule === 'same_weekday_last_year') return { rule, days: lastYear, span: spanOf(lastYear), aligned: [] };
  const anchors = festivalAnchors(range, festivals);
  if (anchors.length === 0) return { rule, days: lastYear, span: spanOf(lastYear), aligned: [] };
  const compared = days.map((day) => alignedDay(day, anchors));
  return { rule, days: compared, span: spanOf(compared), aligned: anchors };
}

/** The same date a year before (`YYYY-MM-DD`); 29 February, which last year lacks, is met with the 28th. */
export function sameDateLastYear(day: string): string {
  const year = String(Number(day.slice(0, 4)) - 1).padStart(4, '0');
  const monthDay = day.slice(5);
  const date = `${year}-${monthDay}`;
  return monthDay === '02-29' && addDays(`${year}-02-28`, 1) !== date ? `${year}-02-28` : date;
}

/** The festivals overlapping the range that have an occurrence last year, in order. */
function festivalAnchors(range: Period, festivals: readonly FestivalDays[]): AlignedFestival[] {
  const anchors: AlignedFestival[] = [];
  for (const entry of festivals) {
    if (entry.end < range.start || entry.start > range.end) continue;
    const last = festivals.find((other) => {
      if (other.festival !== entry.festival) return false;
      const gap = between(other.start, entry.start);
      return gap >= LAST_YEAR_MIN_DAYS && gap <= LAST_YEAR_MAX_DAYS;
    });
    if (!last) continue;
    anchors.push({
      festival: entry.festival,
      name: entry.name,
      current: { start: entry.start, end: entry.end },
      compared: { start: last.start, end: last.end },
    });
  }
  return anchors.sort((a, b) => (a.current.start < b.current.start ? -1 : 1));
}

/** Days from `day` to the anchor's days this year (0 inside them). */
function distance(day: string, anchor: AlignedFestival): number {
  if (day < anchor.current.start) return between(day, anchor.current.start);
  if (day > anchor.current.end) return between(anchor.current.end, day);
  return 0;
}

/** The first day on or after `from` (step 1) or on or before it (step −1) with the weekday of `like`. */
function sameWeekday(from: string, like: string, step: 1 | -1): string {
  let day = from;
  while (isoWeekday(day) !== isoWeekday(like)) day = addDays(day, step);
  return day;
}

function alignedDay(day: string, anchors: readonly AlignedFestival[]): string {
  let nearest = anchors[0] as AlignedFestival;
  for (const anchor of anchors) if (distance(day, anchor) < distance(day, nearest)) nearest = anchor;
  const { current, compared } = nearest;
  const comparedLength = daysInRange(compared.start, compared.end);
  if (day < current.start) {
    const first = sameWeekday(addDays(compared.start, -1), addDays(current.start, -1), -1);
    return addDays(first, -(between(day, current.start) - 1));
  }
  const offset = between(current.start, day);
  if (day <= current.end && offset < comparedLength) return addDays(compared.start, offset);
  // The days after the festival, and the days of a festival longer than last year's: by weekday.
  const after = addDays(current.start, Math.min(comparedLength, daysInRange(current.start, current.end)));
  const first = sameWeekday(addDays(compared.end, 1), after, 1);
  return addDays(first, between(after, day));
}
