import type { FastifyRequest } from 'fastify';
import { formatDay } from '../../src/domain/format.js';
import { NON_TRADING_MAX_DAYS_AHEAD } from '../../src/domain/nonTradingDays.js';
import { addDays } from '../../src/domain/reports.js';
import { requireCaller } from '../auth/access.js';
import { inTransaction } from '../db/pool.js';
import { badRequest, HttpError, notFound } from '../errors.js';
import { buildSalesReviewWorkbook } from '../exports/salesReviewWorkbook.js';
import { salesReviewReport } from '../reports/salesReview.js';
import {
  declareNonTradingDay,
  listNonTradingDays,
  type NonTradingSide,
  type OutletDays,
  outletDays,
  removeNonTradingDay,
} from '../repositories/nonTradingDays.js';
import { nonBlank, reportRange } from './rules.js';
import type { AreaHandlers, BodyOf, QueryOf, RouteDeps } from './types.js';
import { replyWithWorkbook } from './workbookReply.js';

export const MALL_DECLARED_MESSAGE = 'day was declared by the mall: only the mall can remove it.';
export const NOT_DECLARED_MESSAGE = 'day is not a non-trading day of this outlet.';

export const alreadyDeclaredMessage = (day: string) =>
  `day: ${formatDay(day)} is declared already as a non-trading day of this outlet.`;

/**
 * The rules of a declaration the schema cannot say, each naming its field: the reason is not blank, and the day is
 * no earlier than the outlet's first day and at most NON_TRADING_MAX_DAYS_AHEAD days after its today.
 */
export function checkDeclaration(body: BodyOf<'declareNonTradingDay'>, outlet: OutletDays): string {
  const reason = nonBlank(body.reason, 'reason', 'reason must not be blank.');
  if (body.day < outlet.firstDay) {
    throw badRequest(`day must not be before ${formatDay(outlet.firstDay)}, the outlet's first day.`);
  }
  const latest = addDays(outlet.today, NON_TRADING_MAX_DAYS_AHEAD);
  if (body.day > latest) {
    throw badRequest(
      `day must be at most ${NON_TRADING_MAX_DAYS_AHEAD} days after the outlet's today (${formatDay(latest)} at the latest).`,
    );
  }
  return reason;
}

type ListQuery = QueryOf<'getNonTradingDays'>;

export function nonTradingDayHandlers({ pool, exportSlots }: RouteDeps) {
  async function outletOf(clientId: number, outletId: number): Promise<OutletDays> {
    const outlet = await outletDays(pool, clientId, outletId);
    if (!outlet) throw notFound('No such outlet.');
    return outlet;
  }

  function list(request: FastifyRequest, query: ListQuery) {
    const { grants } = requireCaller(request);
    return listNonTradingDays(pool, {
      clientId: query.client_id,
      visibility: { clientIds: grants.clientIds, outletLimits: grants.outletLimits },
      ...(query.outlet_id === undefined ? {} : { outletId: query.outlet_id }),
      from: query.from,
      to: query.to,
      sortColumn: query.sortColumn ?? 'day',
      order: query.orderByMethod ?? 'desc',
      page: query.page ?? 1,
      rowsPerPage: query.rowsPerPage ?? 20,
    });
  }

  async function declare(request: FastifyRequest, body: BodyOf<'declareNonTradingDay'>, side: NonTradingSide) {
    const caller = requireCaller(request);
    const reason = checkDeclaration(body, await outletOf(body.client_id, body.outlet_id));
    const declared = await inTransaction(pool, (tx) =>
      declareNonTradingDay(tx, {
        clientId: body.client_id,
        outletId: body.outlet_id,
        day: body.day,
        reason,
        side,
        userId: caller.user.id,
      }),
    );
    if (!declared) throw badRequest(alreadyDeclaredMessage(body.day));
    return declared;
  }

  async function remove(
    request: FastifyRequest,
    query: { client_id: number; outlet_id: number; day: string },
    onlySide?: NonTradingSide,
  ) {
    const caller = requireCaller(request);
    const removal = await inTransaction(pool, (tx) =>
      removeNonTradingDay(tx, {
        clientId: query.client_id,
        outletId: query.outlet_id,
        day: query.day,
        userId: caller.user.id,
        ...(onlySide === undefined ? {} : { onlySide }),
      }),
    );
    if (removal === 'notDeclared') throw notFound(NOT_DECLARED_MESSAGE);
    if (removal === 'declaredByOtherSide') throw new HttpError(409, MALL_DECLARED_MESSAGE);
    return { success: true };
  }

  return {
    async getNonTradingDays(request) {
      return list(request, request.query);
    },

    async declareNonTradingDay(request) {
      return declare(request, request.body, 'mall');
    },

    async removeNonTradingDay(request) {
      return remove(request, request.query);
    },

    async getOutletNonTradingDays(request) {
      return list(request, request.query);
    },

    async declareOutletNonTradingDay(request) {
      return declare(request, request.body, 'tenant');
    },

    async withdrawOutletNonTradingDay(request) {
      return remove(request, request.query, 'tenant');
    },

    getSalesReview(request) {
      const { query } = request;
      const { grants } = requireCaller(request);
      // Read from the primary: the page reads it again right after a day is declared.
      return salesReviewReport(pool, grants, query, reportRange(query));
    },

    getSalesReviewWorkbook(request, reply) {
      const { query } = request;
      const range = reportRange(query);
      return replyWithWorkbook(request, reply, exportSlots, (requester, signal) =>
        buildSalesReviewWorkbook(
          pool,
          requester,
          { ...query, start_time: range.start, end_time: range.end },
          { signal },
        ),
      );
    },
  } satisfies AreaHandlers;
}
