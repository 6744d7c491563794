import {
  dateRangeExceededMessage,
  HOUR_ORDER_MESSAGE,
  MAX_RANGE_DAYS as PICKER_MAX_RANGE_DAYS,
  START_AFTER_END_MESSAGE,
} from '../../src/domain/dateLimits.js';
import { daysInRange } from '../../src/domain/reports.js';
import { parseIds } from '../auth/access.js';
import { badRequest } from '../errors.js';
import type { ReportRange } from '../repositories/mallReports.js';
import type { DayWindow, HourWindow } from '../repositories/outletReports.js';
import type { TimeWindow } from '../repositories/receipts.js';

/**
 * The request rules that openapi.yaml cannot express, each written once: how two parameters relate (start before
 * end, hours in order, a datetime window given as datetimes) and the longest range a call answers. Everything a
 * schema can say (formats, days that exist, enums, bounds, lengths, patterns) is in the contract, which every
 * request is validated against first. `checkRequestRules` applies these rules to every operation by the
 * parameters it takes, before its handler (so also to the operations not built yet); the handlers call the same
 * functions for the typed range.
 */

/** The longest range any call answers: the longest maximum of the date picker (Monthly, 366 days). */
export const MAX_RANGE_DAYS = PICKER_MAX_RANGE_DAYS.monthly;
/** Hourly buckets: the Hourly maximum (31 days, 744 buckets). */
export const MAX_HOURLY_RANGE_DAYS = PICKER_MAX_RANGE_DAYS.hourly;

/** The longest range of a call by its bucket size (time_range or timeRange). */
export function maxRangeDaysFor(timeRange: unknown): number {
  return timeRange === 'hourly' ? MAX_HOURLY_RANGE_DAYS : MAX_RANGE_DAYS;
}

/** A range longer than `maxDays`: the 'Date Range Exceeded' text, naming the field that ends it. */
function rangeExceeded(endField: string, maxDays: number) {
  return badRequest(`${endField}: ${dateRangeExceededMessage(maxDays)}`);
}

/** A mall report's days (Day in the contract) and hours: start first, hours in order, at most `maxDays` days. */
export function reportRange(
  query: { start_time: string; end_time: string; start_hour?: number; end_hour?: number; time_range?: string },
  maxDays = maxRangeDaysFor(query.time_range),
): ReportRange {
  const range = {
    start: query.start_time,
    end: query.end_time,
    startHour: query.start_hour ?? 0,
    endHour: query.end_hour ?? 23,
  };
  if (range.end < range.start) {
    throw badRequest(`start_time must be on or before end_time: ${START_AFTER_END_MESSAGE}`);
  }
  if (range.endHour < range.startHour) {
    throw badRequest(`start_hour must be at or before end_hour: ${HOUR_ORDER_MESSAGE}`);
  }
  if (daysInRange(range.start, range.end) > maxDays) throw rangeExceeded('end_time', maxDays);
  return range;
}

/** Days `start`..`end` (Day in the contract) named by `fields`: start first, at most `maxDays` days. */
export function dayRange(start: string, end: string, fields: WindowFields, maxDays = MAX_RANGE_DAYS): void {
  if (start > end) throw badRequest(`${fields.start} must not be after ${fields.end}: ${START_AFTER_END_MESSAGE}`);
  if (daysInRange(start, end) > maxDays) throw rangeExceeded(fields.end, maxDays);
}

/** The most months a month range answers (two years). */
export const MAX_RANGE_MONTHS = 24;

const monthIndex = (month: string) => Number(month.slice(0, 4)) * 12 + Number(month.slice(5, 7)) - 1;

/** Months `from`..`to` ('YYYY-MM', Month in the contract): from first, at most MAX_RANGE_MONTHS of them. */
export function monthRange(from: string, to: string): void {
  if (from > to) throw badRequest(`from must not be after to: ${START_AFTER_END_MESSAGE}`);
  if (monthIndex(to) - monthIndex(from) + 1 > MAX_RANGE_MONTHS) {
    throw badRequest(`to: a range spans at most ${MAX_RANGE_MONTHS} months.`);
  }
}

/** The names of a window's parameters: the period's, or the compared period's. */
interface WindowFields {
  start: string;
  end: string;
}
const PERIOD: WindowFields = { start: 'startTime', end: 'endTime' };
const COMPARED_PERIOD: WindowFields = { start: 'comparedStartTime', end: 'comparedEndTime' };

/**
 * An outlet report's window (OutletTime in the contract: a day, or a day and a time, that exist): full datetimes
 * when timeType is datetime, start not after end, at most `maxDays` days counted by calendar day.
 */
export function outletWindow(
  query: TimeWindow & { timeRange?: string },
  fields: WindowFields = PERIOD,
  maxDays = maxRangeDaysFor(query.timeRange),
): TimeWindow {
  const datetime = query.timeType === 'datetime';
  for (const [field, value] of [
    [fields.start, query.startTime],
    [fields.end, query.endTime],
  ] as const) {
    if (datetime && value.length !== 19) {
      throw badRequest(`${field} must be YYYY-MM-DD HH:mm:ss when timeType is datetime.`);
    }
  }
  const start = datetime ? query.startTime : query.startTime.slice(0, 10);
  const end = datetime ? query.endTime : query.endTime.slice(0, 10);
  if (start > end) throw badRequest(`${fields.start} must not be after ${fields.end}: ${START_AFTER_END_MESSAGE}`);
  if (daysInRange(start.slice(0, 10), end.slice(0, 10)) > maxDays) throw rangeExceeded(fields.end, maxDays);
  return { startTime: query.startTime, endTime: query.endTime, timeType: query.timeType };
}

/** The outlet ids of an `id` parameter (a comma-joined list in the contract): whole numbers from 1 up. */
export function outletIds(value: string): number[] {
  const ids = parseIds(value);
  if (ids.length === 0) throw badRequest('id must be outlet ids.');
  return ids;
}

const isText = (value: unknown): value is string => typeof value === 'string';

/**
 * The rules above for any operation, by the parameters it takes (the contract names them the same everywhere):
 * startTime/endTime with timeType and timeRange, comparedStartTime/comparedEndTime, from/to, start_time/end_time
 * with start_hour, end_hour and time_range. Throws the 400 of the first rule broken.
 */
export function checkRequestRules(query: unknown): void {
  if (typeof query !== 'object' || query === null) return;
  const q = query as Record<string, unknown>;
  const timeType = q.timeType === 'datetime' ? 'datetime' : 'date';
  if (isText(q.startTime) && isText(q.endTime)) {
    outletWindow({ startTime: q.startTime, endTime: q.endTime, timeType }, PERIOD, maxRangeDaysFor(q.timeRange));
  }
  if (isText(q.comparedStartTime) && isText(q.comparedEndTime)) {
    outletWindow({ startTime: q.comparedStartTime, endTime: q.comparedEndTime, timeType }, COMPARED_PERIOD);
  }
  if (isText(q.from) && isText(q.to)) {
    // Days (YYYY-MM-DD) or months (YYYY-MM), as the operation's contract says.
    if (q.from.length === 7 && q.to.length === 7) monthRange(q.from, q.to);
    else dayRange(q.from, q.to, { start: 'from', end: 'to' });
  }
  if (isText(q.start_time) && isText(q.end_time)) {
    reportRange({
      start_time: q.start_time,
      end_time: q.end_time,
      start_hour: typeof q.start_hour === 'number' ? q.start_hour : undefined,
      end_hour: typeof q.end_hour === 'number' ? q.end_hour : undefined,
      time_range: isText(q.time_range) ? q.time_range : undefined,
    });
  }
}

/**
 * `window` (checked by outletWindow) as the days and hours of an outlet report read from the hour rollups: whole
 * days, or with timeType datetime whole hours (startTime on the hour, endTime the last second of an hour), so the
 * rollups answer it exactly; a 400 naming the field for a time off the hour.
 */
export function hourWindow(window: TimeWindow, fields: WindowFields = PERIOD): HourWindow {
  const start = window.startTime.slice(0, 10);
  const end = window.endTime.slice(0, 10);
  if (window.timeType !== 'datetime') return { start, end, startHour: 0, endHour: 23 };
  if (window.startTime.slice(13) !== ':00:00') {
    throw badRequest(`${fields.start} must be on the hour (HH:00:00): the report counts whole hours.`);
  }
  if (window.endTime.slice(13) !== ':59:59') {
    throw badRequest(`${fields.end} must be the last second of an hour (HH:59:59): the report counts whole hours.`);
  }
  return {
    start,
    end,
    startHour: Number(window.startTime.slice(11, 13)),
    endHour: Number(window.endTime.slice(11, 13)),
  };
}

/** The compared period of an outlet comparison as days and hours, by the same rules. */
export function comparedHourWindow(query: TimeWindow & { comparedStartTime: string; comparedEndTime: string }) {
  const window = outletWindow(
    { startTime: query.comparedStartTime, endTime: query.comparedEndTime, timeType: query.timeType },
    COMPARED_PERIOD,
  );
  return hourWindow(window, COMPARED_PERIOD);
}

/** The days of an outlet report read from day rollups (a time given with a day is not used). */
export function dayWindow(window: TimeWindow): DayWindow {
  return { start: window.startTime.slice(0, 10), end: window.endTime.slice(0, 10) };
}

/*
 * The rules of a request body that a schema cannot say, each once and in one wording: an item of a list given
 * twice, a text blank once trimmed, two parameters of which at most one may be given, an end not after its start.
 * Each throws the 400 naming the field.
 */

/**
 * Each item of a list given once, by its key: else a 400 naming the first item that repeats an earlier one,
 * '`field`: `what` is given twice.' ('`field` is given twice.' without `whatOf`). Answers the distinct keys in
 * the list's order.
 */
export function distinct<Item, Key>(
  items: readonly Item[],
  keyOf: (item: Item) => Key,
  fieldOf: (index: number) => string,
  whatOf?: (key: Key) => string,
): Key[] {
  const seen = new Set<Key>();
  items.forEach((item, index) => {
    const key = keyOf(item);
    if (seen.has(key)) {
      throw badRequest(
        whatOf ? `${fieldOf(index)}: ${whatOf(key)} is given twice.` : `${fieldOf(index)} is given twice.`,
      );
    }
    seen.add(key);
  });
  return [...seen];
}

/**
 * `value` trimmed, which must not be blank: else a 400 '`field`: must not be blank.', or `message` where an
 * operation's answer has had its own text from the start (the browser shows it as it is).
 */
export function nonBlank(value: string, field: string, message = `${field}: must not be blank.`): string {
  const text = value.trim();
  if (text === '') throw badRequest(message);
  return text;
}

/** At most one of two parameters: both given is a 400 naming the second. */
export function notBoth(query: Record<string, unknown>, first: string, second: string): void {
  if (query[first] !== undefined && query[second] !== undefined) {
    throw badRequest(`${second}: give ${first} or ${second}, not both.`);
  }
}

/** A time of day (or any text that sorts as it runs) `end` after `start`: else a 400 naming `endField`. */
export function endAfter(start: string, end: string, endField: string, startName: string): void {
  if (end <= start) throw badRequest(`${endField}: must be after ${startName} (${start}).`);
}

/** The largest percent. */
const MAX_PERCENT = 100;

/** A percent given as text (a fee): a number from 0 to 100, else a 400 naming `field`. */
export function percent(value: string, field: string): number {
  const number = Number(value);
  if (!Number.isFinite(number) || number < 0 || number > MAX_PERCENT) {
    throw badRequest(`${field}: must be a percent from 0 to ${MAX_PERCENT}.`);
  }
  return number;
}

/** A day 'YYYY-MM-DD' of the month 'YYYY-MM' given beside it: else a 400 naming `field`. */
export function dayOfMonth(day: string, month: string, field: string): void {
  if (!day.startsWith(`${month}-`)) throw badRequest(`${field} must be a day of ${month}.`);
}
