import type { FastifyRequest } from 'fastify';
import { MESSAGES, requireCaller } from '../auth/access.js';
import { forbidden, valueOrThrow } from '../errors.js';
import { countVisibleOutlets } from '../repositories/lookup.js';
import { listOutletCodes, saveOutletCodes } from '../repositories/outletCodes.js';
import { distinct } from './rules.js';
import type { AreaHandlers, RouteDeps } from './types.js';

/** Shopper Connect's Outlet Code page: the codes of the selected malls' outlets, and their save. */

const visibilityOf = (request: FastifyRequest) => {
  const { grants } = requireCaller(request);
  return { clientIds: grants.clientIds, outletLimits: grants.outletLimits };
};

export function outletCodeHandlers({ pool }: RouteDeps) {
  return {
    async getOutletCodes(request) {
      const { query } = request;
      return listOutletCodes(pool, {
        clientId: query.client_id,
        mallIds: [...new Set(query.mall_ids)],
        visibility: visibilityOf(request),
        search: query.searchText?.trim() ?? '',
        sortColumn: query.sortColumn ?? 'mall_name',
        order: query.orderByMethod ?? 'asc',
        page: query.page ?? 1,
        rowsPerPage: query.rowsPerPage ?? 10,
      });
    },

    async updateOutletCodes(request) {
      const { body } = request;
      const ids = distinct(
        body.data,
        (row) => row.outlet_id,
        (index) => `data[${index}].outlet_id`,
        (id) => `outlet ${id}`,
      );
      // Every outlet must be one of the client's that the caller sees (x-scope has checked the client).
      const visibility = visibilityOf(request);
      if ((await countVisibleOutlets(pool, visibility, ids, body.client_id)) !== ids.length) {
        throw forbidden(MESSAGES.scope);
      }
      const limits = visibility.outletLimits.get(body.client_id);
      const saved = await saveOutletCodes(
        pool,
        {
          clientId: body.client_id,
          userId: requireCaller(request).user.id,
          sees: (outletId) => limits === undefined || limits.includes(outletId),
        },
        body.data.map((row, index) => ({ outletId: row.outlet_id, code: row.outlet_code ?? null, index })),
      );
      return { success: true, updated: valueOrThrow(saved) };
    },
  } satisfies AreaHandlers;
}
