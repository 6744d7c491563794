import { entryRangeProblem } from '../../src/domain/calendar.js';
import { requireCaller } from '../auth/access.js';
import { inTransaction } from '../db/pool.js';
import { badRequest, notFound } from '../errors.js';
import {
  type CalendarEntryInput,
  calendarYear,
  createCalendarEntry,
  deleteCalendarEntry,
  updateCalendarEntry,
} from '../repositories/calendar.js';
import { nonBlank } from './rules.js';
import type { AreaHandlers, BodyOf, RouteDeps } from './types.js';

export const NO_SUCH_ENTRY = 'No such calendar entry.';

/** The rules of an entry the schema cannot say, each naming its field: its days in order and the name not blank. */
export function checkCalendarEntry(body: BodyOf<'createCalendarEntry'>): CalendarEntryInput {
  const problem = entryRangeProblem(body.start_date, body.end_date);
  if (problem) throw badRequest(problem);
  return {
    country: body.country,
    start_date: body.start_date,
    end_date: body.end_date,
    name: nonBlank(body.name, 'name'),
    kind: body.kind,
    festival: body.festival ?? null,
  };
}

/** /api/calendar: the client's holidays of a country, and their changes (audit-logged). */
export function calendarHandlers({ pool }: RouteDeps) {
  return {
    async getCalendar(request) {
      const { query } = request;
      return { entries: await calendarYear(pool, query.client_id, query.country, query.year) };
    },

    async createCalendarEntry(request) {
      const caller = requireCaller(request);
      const entry = checkCalendarEntry(request.body);
      return inTransaction(pool, (tx) =>
        createCalendarEntry(tx, { clientId: request.body.client_id, userId: caller.user.id, entry }),
      );
    },

    async updateCalendarEntry(request) {
      const caller = requireCaller(request);
      const { body } = request;
      const entry = checkCalendarEntry(body);
      const updated = await inTransaction(pool, (tx) =>
        updateCalendarEntry(tx, { clientId: body.client_id, userId: caller.user.id, id: body.id, entry }),
      );
      if (!updated) throw notFound(NO_SUCH_ENTRY);
      return updated;
    },

    async deleteCalendarEntry(request) {
      const caller = requireCaller(request);
      const { query } = request;
      const deleted = await inTransaction(pool, (tx) =>
        deleteCalendarEntry(tx, { clientId: query.client_id, userId: caller.user.id, id: query.id }),
      );
      if (!deleted) throw notFound(NO_SUCH_ENTRY);
      return { id: deleted.id };
    },
  } satisfies AreaHandlers;
}
