import { civil, dayNumber } from './calendar.js';
import type { Profile } from './catalog.js';
import { type Country, FESTIVAL_DAYS, type Festival } from './festivalDays.js';
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

/** Weekday factors, Sunday first: Saturday the busiest day, Monday the quietest. */
const WEEKDAY_FNB = [1.25, 0.8, 0.85, 0.88, 0.95, 1.15, 1.38];
const WEEKDAY_RETAIL = [1.4, 0.74, 0.8, 0.84, 0.9, 1.1, 1.48];
/** Month factors, January first: mid-year sales, the 11.11 and Black Friday month, December. */
const MONTH = [0.95, 0.95, 0.93, 0.96, 1.0, 1.06, 1.0, 0.98, 0.95, 0.98, 1.08, 1.25];

/** How strongly each festival moves sales in each country (1: fully, 0: not at all). */
const STRENGTH: Readonly<Record<Country, Readonly<Record<Festival, number>>>> = {
  SG: { 'Chinese New Year': 1, 'Hari Raya Puasa': 0.35, 'Hari Raya Haji': 0.5, Deepavali: 0.8, Christmas: 1 },
  MY: { 'Chinese New Year': 1, 'Hari Raya Puasa': 1, 'Hari Raya Haji': 0.7, Deepavali: 1, Christmas: 0.8 },
  ID: { 'Chinese New Year': 0.4, 'Hari Raya Puasa': 1, 'Hari Raya Haji': 1, Deepavali: 0, Christmas: 0.8 },
};

/**
 * How a festival moves an F&B and a retail outlet's day, by the day's place: `before` days before its first day,
 * `on` one of its days (0 the first), `after` days after its last day; 1 where it changes nothing.
 */
function festivalEffect(festival: Festival, before: number, on: number, after: number, fnb: boolean): number {
  const pick = (fnbFactor: number, retailFactor: number) => (fnb ? fnbFactor : retailFactor);
  switch (festival) {
    case 'Chinese New Year':
      // New clothes, hampers and goodies in the ten days before; the reunion dinner on the eve; many shops closed
      // on the two days themselves (non-trading days) while families eat out; visiting in the week after.
      if (before >= 2 && before <= 10) return pick(1.25, 1.55);
      if (before === 1) return pick(1.5, 0.9);
      if (on >= 0) return pick(1.3, 0.55);
      if (after >= 1 && after <= 6) return 1.1;
      return 1;
    case 'Hari Raya Puasa':
      // Baju raya, kuih and gifts in the last two weeks of the fasting month; quiet while families go home.
      if (before >= 1 && before <= 14) return pick(1.12, 1.4);
      if (on >= 0) return pick(0.9, 0.7);
      if (after >= 1 && after <= 5) return pick(1.1, 1);
      return 1;
    case 'Hari Raya Haji':
      if (before >= 1 && before <= 3) return pick(1.03, 1.06);
      if (on >= 0) return pick(1.15, 0.95);
      return 1;
    case 'Deepavali':
      if (before >= 1 && before <= 7) return pick(1.08, 1.3);
      if (on >= 0) return pick(1.1, 0.85);
      return 1;
    case 'Christmas':
      // Gifts in the week before (from the middle of December), Christmas Eve dinners, the Boxing Day sales.
      if (before === 1) return pick(1.55, 1.2);
      if (before >= 2 && before <= 10) return pick(1.15, 1.4);
      if (on >= 0) return pick(1.2, 0.75);
      if (after === 1) return pick(1, 1.2);
      return 1;
  }
}

/** A festival's days as day numbers, both included. */
export interface FestivalSpan {
  festival: Festival;
  from: number;
  to: number;
}

/** Each country's festivals as day numbers. */
const FESTIVAL_SPANS = new Map<Country, readonly FestivalSpan[]>(
  (Object.keys(FESTIVAL_DAYS) as Country[]).map((country) => [
    country,
    FESTIVAL_DAYS[country].map(({ festival, from, to }) => ({ festival, from: dayNumber(from), to: dayNumber(to) })),
  ]),
);

/** The spans of one festival in a country that touch the days from `from` to `to` (day numbers, both included). */
export function festivalSpansBetween(country: Country, festival: Festival, from: number, to: number): FestivalSpan[] {
  return (FESTIVAL_SPANS.get(country) ?? []).filter(
    (span) => span.festival === festival && span.to >= from && span.from <= to,
  );
}

/** How the festivals of a country move an outlet's day (1 away from them). */
export function festivalFactor(country: Country, day: number, fnb: boolean): number {
  let factor = 1;
  for (const span of FESTIVAL_SPANS.get(country) ?? []) {
    if (day < span.from - 14 || day > span.to + 7) continue;
    const strength = STRENGTH[country][span.festival];
    if (strength === 0) continue;
    const before = span.from - day;
    const on = day >= span.from && day <= span.to ? day - span.from : -1;
    const after = day - span.to;
    const effect = festivalEffect(span.festival, before, on, after, fnb);
    factor *= 1 + strength * (effect - 1);
  }
  return factor;
}

/** Days a year for growth rates. */
const YEAR_DAYS = 365.25;

/**
 * How busy an outlet is on a day, before noise: weekday, season, its country's festivals, New Year's Eve, its
 * growth year on year (relative to the last day, `end`), and a soft start for outlets that just opened.
 */
export function dayFactor(outlet: OutletPlan, day: number, end: number): number {
  if (day < outlet.openedOn || outlet.nonTradingDays.has(day)) return 0;
  const { month, day: dayOfMonth, weekday } = civil(day);
  const fnb = outlet.type === 1;
  let factor = itemAt(fnb ? WEEKDAY_FNB : WEEKDAY_RETAIL, weekday) * itemAt(MONTH, month - 1);
  if (month === 12 && dayOfMonth === 31) factor *= fnb ? 1.4 : 0.9;
  factor *= festivalFactor(outlet.mall.country, day, fnb);
  factor *= (1 + outlet.growth) ** ((day - end) / YEAR_DAYS);
  // New outlets take three weeks to reach their pace.
  const age = day - outlet.openedOn;
  if (age < 21) factor *= 0.5 + age / 42;
  return factor;
}
