import { api, type CallOptions } from './client';
import { dataOrThrow } from './errors';
import { isCallAllowed } from './middleware/permissionGate';
import type { components, operations } from './schema';

/**
 * The client's calendar (/api/calendar: holidays, festivals and school holidays per country) and the malls' own
 * events (/api/mall_events, with the holidays of the malls' countries: what the time charts draw). Each returns the
 * body of a 2xx answer or throws an ApiError.
 */

export type CalendarEntry = components['schemas']['CalendarEntry'];
export type CalendarEntryRequest = components['schemas']['CalendarEntryRequest'];
export type CalendarEntryUpdate = components['schemas']['CalendarEntryUpdate'];
export type MallEvent = components['schemas']['MallEvent'];
export type MallEventRequest = components['schemas']['MallEventRequest'];
export type MallEventUpdate = components['schemas']['MallEventUpdate'];
export type MallEventsAnswer = components['schemas']['MallEventsResponse'];
export type CalendarQuery = operations['getCalendar']['parameters']['query'];
export type MallEventsQuery = operations['getMallEvents']['parameters']['query'];

/** The client's entries of a country that overlap a year. */
export async function getCalendar(query: CalendarQuery, { signal, client = api }: CallOptions = {}) {
  return dataOrThrow(await client.GET('/api/calendar', { params: { query }, signal })).entries;
}

export async function createCalendarEntry(body: CalendarEntryRequest, { signal, client = api }: CallOptions = {}) {
  return dataOrThrow(await client.POST('/api/calendar', { body, signal }));
}

export async function updateCalendarEntry(body: CalendarEntryUpdate, { signal, client = api }: CallOptions = {}) {
  return dataOrThrow(await client.PUT('/api/calendar', { body, signal }));
}

export async function deleteCalendarEntry(
  query: { client_id: number; id: number },
  { signal, client = api }: CallOptions = {},
) {
  return dataOrThrow(await client.DELETE('/api/calendar', { params: { query }, signal }));
}

/** The events of the selected malls and the holidays of their countries over a range. */
export async function getMallEvents(query: MallEventsQuery, { signal, client = api }: CallOptions = {}) {
  return dataOrThrow(await client.GET('/api/mall_events', { params: { query }, signal }));
}

/** Whether the session may add a mall event: the permission gate sends POST /api/mall_events. */
export function mayCreateMallEvent(): boolean {
  return isCallAllowed('/api/mall_events', 'POST');
}

export async function createMallEvent(body: MallEventRequest, { signal, client = api }: CallOptions = {}) {
  return dataOrThrow(await client.POST('/api/mall_events', { body, signal }));
}

export async function updateMallEvent(body: MallEventUpdate, { signal, client = api }: CallOptions = {}) {
  return dataOrThrow(await client.PUT('/api/mall_events', { body, signal }));
}

export async function deleteMallEvent(
  query: { client_id: number; id: number },
  { signal, client = api }: CallOptions = {},
) {
  return dataOrThrow(await client.DELETE('/api/mall_events', { params: { query }, signal }));
}
