import { daysInRange } from '../../src/domain/reports.js';
import { parseIds } from '../auth/access.js';
import { badRequest } from '../errors.js';
import type { ReportRange } from '../repositories/mallReports.js';
import type { TimeWindow } from '../repositories/receipts.js';

/**
 * The request rules that openapi.yaml cannot express, each written once: how two parameters relate (start before
 * end, hours in order, a datetime window given as datetimes), the longest range a report answers, days that
 * exist. Everything a schema can say (formats, enums, bounds, lengths, patterns) is in the contract, which every
 * request is validated against before its handler runs.
 */

/** The longest range a report answers (the Monthly maximum of §9); hourly buckets: the Hourly maximum. */
export const MAX_RANGE_DAYS = 366;
export const MAX_HOURLY_RANGE_DAYS = 31;

/** A mall report's days (`format: date` in the contract) and hours: start first, at most `maxDays` days. */
export function reportRange(
  query: { start_time: string; end_time: string; start_hour?: number; end_hour?: number },
  maxDays = MAX_RANGE_DAYS,
): ReportRange {
  const range = {
    start: query.start_time,
    end: query.end_time,
    startHour: query.start_hour ?? 0,
    endHour: query.end_hour ?? 23,
  };
  if (range.end < range.start) throw badRequest('end_time must not be before start_time.');
  if (range.endHour < range.startHour) throw badRequest('start_hour must be at or before end_hour.');
  if (daysInRange(range.start, range.end) > maxDays) {
    throw badRequest(`end_time: the range must not be longer than ${maxDays} days.`);
  }
  return range;
}

const isCalendarDay = (day: string) => {
  const date = new Date(`${day}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === day;
};
const isClockTime = (time: string) => /^([01]\d|2[0-3]):[0-5]\d:[0-5]\d$/.test(time);

/**
 * An outlet report's window (OutletTime in the contract: `YYYY-MM-DD` or `YYYY-MM-DD HH:mm:ss`): days that
 * exist, full datetimes when timeType is datetime, start not after end.
 */
export function outletWindow(query: TimeWindow): TimeWindow {
  const datetime = query.timeType === 'datetime';
  for (const [field, value] of [
    ['startTime', query.startTime],
    ['endTime', query.endTime],
  ] as const) {
    if (!isCalendarDay(value.slice(0, 10))) throw badRequest(`${field} must be a day that exists (YYYY-MM-DD).`);
    if (datetime && !isClockTime(value.slice(11))) {
      throw badRequest(`${field} must be YYYY-MM-DD HH:mm:ss when timeType is datetime.`);
    }
  }
  const start = datetime ? query.startTime : query.startTime.slice(0, 10);
  const end = datetime ? query.endTime : query.endTime.slice(0, 10);
  if (start > end) throw badRequest('startTime must not be after endTime.');
  return { startTime: query.startTime, endTime: query.endTime, timeType: query.timeType };
}

/** The outlet ids of an `id` parameter (a comma-joined list in the contract): whole numbers from 1 up. */
export function outletIds(value: string): number[] {
  const ids = parseIds(value);
  if (ids.length === 0) throw badRequest('id must be outlet ids.');
  return ids;
}
