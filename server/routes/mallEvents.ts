import { entryRangeProblem } from '../../src/domain/calendar.js';
import { requireCaller } from '../auth/access.js';
import { inTransaction } from '../db/pool.js';
import { badRequest, notFound } from '../errors.js';
import { mallHolidays } from '../repositories/calendar.js';
import {
  createMallEvent,
  deleteMallEvent,
  listMallEvents,
  type MallEventInput,
  updateMallEvent,
} from '../repositories/mallEvents.js';
import { nonBlank, reportRange } from './rules.js';
import type { AreaHandlers, BodyOf, RouteDeps } from './types.js';

export const NO_SUCH_EVENT = 'No such event.';

/** The rules of an event the schema cannot say, each naming its field: its days in order and the title not blank. */
export function checkMallEvent(body: BodyOf<'createMallEvent'>): MallEventInput {
  const problem = entryRangeProblem(body.start_date, body.end_date);
  if (problem) throw badRequest(problem);
  return {
    mall_id: body.mall_id,
    title: nonBlank(body.title, 'title'),
    start_date: body.start_date,
    end_date: body.end_date,
    kind: body.kind,
  };
}

/**
 * /api/mall_events: the events of the selected malls and the holidays of their countries over a range (the time
 * charts' annotations), and the events' changes (audit-logged). The gate has checked the caller sees every mall
 * the request names; an event changed or removed by id must be of a mall the caller sees too.
 */
export function mallEventHandlers({ pool }: RouteDeps) {
  return {
    async getMallEvents(request) {
      const { query } = request;
      const range = reportRange(query);
      const mallIds = [...new Set(query.mall_ids)];
      const [events, holidays] = await Promise.all([
        listMallEvents(pool, query.client_id, mallIds, range.start, range.end),
        mallHolidays(pool, query.client_id, mallIds, range.start, range.end),
      ]);
      return { events, holidays };
    },

    async createMallEvent(request) {
      const caller = requireCaller(request);
      const event = checkMallEvent(request.body);
      return inTransaction(pool, (tx) =>
        createMallEvent(tx, { clientId: request.body.client_id, userId: caller.user.id, event }),
      );
    },

    async updateMallEvent(request) {
      const { user, grants } = requireCaller(request);
      const { body } = request;
      const event = checkMallEvent(body);
      const updated = await inTransaction(pool, (tx) =>
        updateMallEvent(tx, {
          clientId: body.client_id,
          userId: user.id,
          visibility: { clientIds: grants.clientIds, outletLimits: grants.outletLimits },
          id: body.id,
          event,
        }),
      );
      if (!updated) throw notFound(NO_SUCH_EVENT);
      return updated;
    },

    async deleteMallEvent(request) {
      const { user, grants } = requireCaller(request);
      const { query } = request;
      const deleted = await inTransaction(pool, (tx) =>
        deleteMallEvent(tx, {
          clientId: query.client_id,
          userId: user.id,
          visibility: { clientIds: grants.clientIds, outletLimits: grants.outletLimits },
          id: query.id,
        }),
      );
      if (!deleted) throw notFound(NO_SUCH_EVENT);
      return { id: deleted.id };
    },
  } satisfies AreaHandlers;
}
