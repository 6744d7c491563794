import { addDays } from './dateLimits';
import { toFilterQuery } from './filterUrl';
import { formatPercentage } from './format';

/**
 * Unusual days (issue 34): whether an outlet's or a mall's day of GMV or transactions is far from its usual. The
 * rule is written once, here: the daily summary's "What changed" flags days by it.
 *
 * The usual is a robust baseline of the same weekday of the last BASELINE_WEEKS weeks: their median and their median
 * absolute deviation (MAD), so that one odd week moves it little. Days the reader leaves out (the holidays and
 * festivals of the mall's country, the outlet's declared non-trading days, days before its first) are not in the
 * values given here. How far a day is from the usual is its robust z, (value − median) / (MAD_SCALE × MAD), which is
 * an ordinary z-score for normally spread days; a day is flagged when |z| passes the client's threshold and the day
 * differs from the median by more than MIN_CHANGE_PERCENT %. With a MAD of 0 (more than half the weeks alike, as the
 * counts of a quiet outlet often are) the spread is the mean absolute deviation instead, (value − median) /
 * (MEAN_AD_SCALE × mean absolute deviation) (Iglewicz and Hoaglin's modified z). With both 0 (every week alike, such
 * as the zeros of an outlet that does not trade that weekday) there is no z: the day is flagged on the percentage
 * alone, and a day with sales against a usual of none is flagged without one.
 */

/** Same weekdays read before the day. */
export const BASELINE_WEEKS = 8;
/** The client's threshold of |robust z| when it has not set one (clients.unusual_day_threshold). */
export const DEFAULT_UNUSUAL_THRESHOLD = 3.5;
/** The fewest usable baseline days a day is judged on, unless the client set it (clients.unusual_day_min_baseline). */
export const DEFAULT_MIN_BASELINE_DAYS = 5;
/** MAD × this estimates the standard deviation of normally spread values. */
export const MAD_SCALE = 1.4826;
/** The mean absolute deviation × this estimates it too: the spread when MAD is 0. */
export const MEAN_AD_SCALE = 1.2533;
/** A flagged day differs from the median by more than this percentage, whatever its z (and alone when MAD is 0). */
export const MIN_CHANGE_PERCENT = 10;
/** The days before the flagged one that its link shows with it: four more of the same weekday (29 days). */
export const LINK_DAYS_BEFORE = 28;

/** The client's rule. */
export interface UnusualRule {
  /** |robust z| beyond which a day is unusual. */
  readonly threshold: number;
  /** The fewest baseline days a day is judged on; with fewer it is never flagged. */
  readonly minBaselineDays: number;
}

export const DEFAULT_UNUSUAL_RULE: UnusualRule = {
  threshold: DEFAULT_UNUSUAL_THRESHOLD,
  minBaselineDays: DEFAULT_MIN_BASELINE_DAYS,
};

/** The median of `values` (the mean of the middle two of an even count); NaN when there are none. */
export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  const upper = sorted[middle] ?? Number.NaN;
  return sorted.length % 2 === 1 ? upper : ((sorted[middle - 1] ?? Number.NaN) + upper) / 2;
}

/** The median absolute deviation of `values` from their median (`center` when given); NaN when there are none. */
export function medianAbsoluteDeviation(values: readonly number[], center = median(values)): number {
  return median(values.map((value) => Math.abs(value - center)));
}

/** A day against its baseline. */
export interface Deviation {
  readonly value: number;
  /** Usable baseline days. */
  readonly baselineDays: number;
  readonly median: number;
  readonly mad: number;
  /**
   * (value − median) / (MAD_SCALE × MAD); with a MAD of 0, / (MEAN_AD_SCALE × mean absolute deviation); null when
   * every baseline day is the same.
   */
  readonly z: number | null;
  /** (value − median) / median × 100; null when the median is 0. */
  readonly percent: number | null;
  readonly direction: 'above' | 'below';
  /** Beyond the rule (see the top). */
  readonly unusual: boolean;
}

/**
 * `value` against `baseline` (the usable same weekdays) by `rule`; undefined when there are fewer baseline days
 * than the rule wants (the day is not judged).
 */
export function deviationOf(value: number, baseline: readonly number[], rule: UnusualRule): Deviation | undefined {
  if (baseline.length < Math.max(1, rule.minBaselineDays)) return undefined;
  const center = median(baseline);
  const mad = medianAbsoluteDeviation(baseline, center);
  const meanDeviation = baseline.reduce((sum, day) => sum + Math.abs(day - center), 0) / baseline.length;
  const spread = mad > 0 ? MAD_SCALE * mad : MEAN_AD_SCALE * meanDeviation;
  const difference = value - center;
  const z = spread === 0 ? null : difference / spread;
  const percent = center === 0 ? null : (difference / Math.abs(center)) * 100;
  const farEnough = percent === null ? difference !== 0 : Math.abs(percent) > MIN_CHANGE_PERCENT;
  const unusual = farEnough && (z === null || Math.abs(z) > rule.threshold);
  return {
    value,
    baselineDays: baseline.length,
    median: center,
    mad,
    z,
    percent,
    direction: difference < 0 ? 'below' : 'above',
    unusual,
  };
}

/** '+4.05' / '-2.70': a z with its sign, two decimals. */
export function formatZ(z: number): string {
  const fixed = Math.abs(z).toFixed(2);
  return z < 0 ? `-${fixed}` : `+${fixed}`;
}

/** '62.5% above' / '40.0% below' the usual; 'above' alone against a usual of none (a median of 0). */
export function formatChange(deviation: Pick<Deviation, 'percent' | 'direction'>): string {
  return deviation.percent === null
    ? deviation.direction
    : `${formatPercentage(Math.abs(deviation.percent) / 100)} ${deviation.direction}`;
}

/** The days a flag's link shows: LINK_DAYS_BEFORE days before `day` to `day`. */
export function linkRange(day: string): { start: string; end: string } {
  return { start: addDays(day, -LINK_DAYS_BEFORE), end: day };
}

/** Where a flagged mall's day is seen: Mall Home of the mall over the link's days. */
export function mallDayPath(clientId: number, mallId: number, day: string): string {
  return `/shopper-connect/mall-home?${toFilterQuery({ clientId, mallIds: [mallId], dateRange: linkRange(day) })}`;
}

/**
 * Where a flagged outlet's day is seen over the link's days: the mall's outlet page for a reader who sees every
 * outlet, the outlet's Sales Analysis (Tenant Connect) for one limited to some outlets (a tenant).
 */
export function outletDayPath(
  target: { clientId: number; mallId: number; outletId: number },
  day: string,
  limitedToOutlets: boolean,
): string {
  const dateRange = linkRange(day);
  return limitedToOutlets
    ? `/tenant-connect/sales-analysis?${toFilterQuery({ clientId: target.clientId, outlet: target.outletId, dateRange })}`
    : `/shopper-connect/mall-outlet/${target.outletId}?${toFilterQuery({
        clientId: target.clientId,
        mallIds: [target.mallId],
        dateRange,
      })}`;
}
