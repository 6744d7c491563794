import { itemAt } from './random.js';

/**
 * Calendar helpers for the demo data: local calendar days as day numbers (days since 1970-01-01), local wall
 * times in an IANA time zone turned into instants (the festivals that shape sales: festivalDays.ts).
 */

const DAY_MS = 86_400_000;

/** 'YYYY-MM-DD' to a day number. */
export function dayNumber(date: string): number {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!match) throw new Error(`not a YYYY-MM-DD date: '${date}'`);
  const ms = Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
  const back = new Date(ms);
  if (back.getUTCDate() !== Number(match[3])) throw new Error(`not a calendar date: '${date}'`);
  return Math.round(ms / DAY_MS);
}

/** A day number to 'YYYY-MM-DD'. */
export function dateOfDay(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}

export interface CivilDate {
  year: number;
  /** 1 to 12 */
  month: number;
  day: number;
  /** 0 = Sunday ... 6 = Saturday */
  weekday: number;
}

export function civil(day: number): CivilDate {
  const date = new Date(day * DAY_MS);
  return {
    year: date.getUTCFullYear(),
    month: date.getUTCMonth() + 1,
    day: date.getUTCDate(),
    weekday: date.getUTCDay(),
  };
}

/** The day number of the first day of the month `months` after the month of `day` (negative: before). */
export function addMonths(day: number, months: number): number {
  const { year, month } = civil(day);
  return Math.round(Date.UTC(year, month - 1 + months, 1) / DAY_MS);
}

export function firstOfMonth(day: number): number {
  return addMonths(day, 0);
}

const dateFormats = new Map<string, Intl.DateTimeFormat>();

function formatFor(timeZone: string): Intl.DateTimeFormat {
  let format = dateFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    dateFormats.set(timeZone, format);
  }
  return format;
}

/** The local wall time of an instant in a time zone, as if it were UTC, in ms. */
function wallMs(timeZone: string, instant: number): number {
  const parts = { year: 1970, month: 1, day: 1, hour: 0, minute: 0, second: 0 };
  for (const part of formatFor(timeZone).formatToParts(new Date(instant))) {
    if (part.type in parts) parts[part.type as keyof typeof parts] = Number(part.value);
  }
  return Date.UTC(parts.year, parts.month - 1, parts.day, parts.hour, parts.minute, parts.second);
}

/** The local calendar day of an instant in a time zone. */
export function localDay(timeZone: string, instant: number): number {
  return Math.floor(wallMs(timeZone, instant) / DAY_MS);
}

/** The instant of a local wall time (the earlier one when a clock change makes it ambiguous). */
export function zonedInstant(timeZone: string, day: number, hour: number, minute = 0, second = 0): number {
  const wall = day * DAY_MS + ((hour * 60 + minute) * 60 + second) * 1000;
  const first = wall - (wallMs(timeZone, wall) - wall);
  const offset = wallMs(timeZone, first) - first;
  return wall - offset;
}

/**
 * Instants of local times of a time zone, cached per day: one clock per time zone serves every outlet of the
 * malls in it, and a day without a clock change costs three offset look-ups.
 */
export class ZoneClock {
  private static readonly clocks = new Map<string, ZoneClock>();
  private day = Number.NaN;
  /** The instant of local midnight when the day has one offset, else NaN (then `hours` holds each hour). */
  private midnight = Number.NaN;
  private readonly hours = new Float64Array(24);

  private constructor(readonly timeZone: string) {}

  static for(timeZone: string): ZoneClock {
    let clock = ZoneClock.clocks.get(timeZone);
    if (!clock) {
      clock = new ZoneClock(timeZone);
      ZoneClock.clocks.set(timeZone, clock);
    }
    return clock;
  }

  /** The instant (ms) of `day` at hour:minute:second local time. */
  instant(day: number, hour: number, minute: number, second: number): number {
    if (day !== this.day) this.load(day);
    const base = Number.isNaN(this.midnight) ? itemAt(this.hours, hour) : this.midnight + hour * 3_600_000;
    return base + (minute * 60 + second) * 1000;
  }

  private load(day: number): void {
    this.day = day;
    const start = zonedInstant(this.timeZone, day, 0);
    const noon = zonedInstant(this.timeZone, day, 12);
    const next = zonedInstant(this.timeZone, day + 1, 0);
    if (noon - start === 12 * 3_600_000 && next - start === 24 * 3_600_000) {
      this.midnight = start;
      return;
    }
    this.midnight = Number.NaN;
    for (let h = 0; h < 24; h++) this.hours[h] = zonedInstant(this.timeZone, day, h);
  }
}
