import { civil, daysFromChineseNewYear } from './calendar.js';
import type { Profile } from './catalog.js';
import { itemAt } from './random.js';
import type { OutletPlan } from './world.js';

/** Opening hours: receipts fall from 10:00 to 21:59 local time. */
export const OPEN_HOUR = 10;
export const CLOSE_HOUR = 22;

/** Relative receipts per hour from 10:00 to 21:00 by profile: lunch and dinner peaks for F&B, afternoon and evening for retail. */
const HOURLY: Record<Profile, readonly number[]> = {
  restaurant: [0.3, 0.9, 2.2, 1.9, 0.8, 0.4, 0.4, 0.8, 1.8, 2.1, 1.4, 0.6],
  quick: [0.5, 1.0, 2.3, 2.0, 0.9, 0.7, 0.7, 1.0, 1.7, 1.6, 1.0, 0.5],
  cafe: [1.6, 1.3, 1.4, 1.2, 1.1, 1.3, 1.2, 0.9, 0.7, 0.6, 0.5, 0.3],
  dessert: [0.2, 0.4, 0.8, 1.1, 1.2, 1.4, 1.4, 1.2, 1.3, 1.6, 1.6, 1.0],
  retail: [0.3, 0.5, 0.8, 1.0, 1.2, 1.4, 1.4, 1.3, 1.3, 1.5, 1.3, 0.7],
  grocery: [0.9, 1.0, 1.2, 1.1, 0.9, 0.9, 1.1, 1.4, 1.6, 1.4, 1.0, 0.6],
};

/** Hour weights for hours 0..23 (zero while closed); weekends shift retail earlier into the afternoon. */
export function hourWeights(profile: Profile, weekend: boolean): number[] {
  const open = HOURLY[profile];
  const weights = new Array<number>(24).fill(0);
  for (let i = 0; i < open.length; i++) {
    let weight = itemAt(open, i);
    if (weekend && (profile === 'retail' || profile === 'grocery') && i >= 1 && i <= 6) weight *= 1.3;
    weights[OPEN_HOUR + i] = weight;
  }
  return weights;
}

/** Weekday factors, Sunday first. */
const WEEKDAY_FNB = [1.25, 0.85, 0.85, 0.9, 0.95, 1.15, 1.35];
const WEEKDAY_RETAIL = [1.4, 0.8, 0.8, 0.85, 0.9, 1.1, 1.45];
/** Month factors, January first: mid-year sales, the 11.11 and Black Friday month, December. */
const MONTH = [0.95, 0.95, 0.93, 0.96, 1.0, 1.06, 1.0, 0.98, 0.95, 0.98, 1.08, 1.25];

/**
 * How busy an outlet is on a day, before noise: weekday, season, Chinese New Year, Christmas, a gentle
 * growth trend over the year shown, and a soft start for outlets that just opened.
 */
export function dayFactor(outlet: OutletPlan, day: number, start: number, end: number): number {
  if (day < outlet.openedOn || outlet.nonTradingDays.has(day)) return 0;
  const { month, day: dayOfMonth, weekday } = civil(day);
  const fnb = outlet.type === 1;
  let factor = itemAt(fnb ? WEEKDAY_FNB : WEEKDAY_RETAIL, weekday) * itemAt(MONTH, month - 1);
  if (month === 12) {
    if (dayOfMonth >= 15 && dayOfMonth <= 24) factor *= fnb ? 1.15 : 1.35;
    if (dayOfMonth === 24 || dayOfMonth === 31) factor *= fnb ? 1.4 : 0.9;
    if (dayOfMonth === 25) factor *= fnb ? 1.2 : 0.75;
    if (dayOfMonth === 26) factor *= fnb ? 1 : 1.2;
  }
  const cny = daysFromChineseNewYear(day);
  if (cny !== undefined && outlet.mall.key !== 'smk') {
    if (cny >= -14 && cny <= -2) factor *= fnb ? 1.15 : 1.35;
    else if (cny === -1) factor *= fnb ? 1.45 : 0.8;
    else if (cny === 0 || cny === 1) factor *= fnb ? 0.8 : 0.5;
    else if (cny >= 2 && cny <= 7) factor *= 1.1;
  }
  // About 8% growth over the year shown.
  factor *= 1 + (0.08 * (day - start)) / Math.max(1, end - start);
  // New outlets take three weeks to reach their pace.
  const age = day - outlet.openedOn;
  if (age < 21) factor *= 0.5 + age / 42;
  return factor;
}
