import type { FastifyRequest } from 'fastify';
import { requireCaller } from '../auth/access.js';
import { notFound } from '../errors.js';
import { issueDeviceKey, listDeviceKeys, revokeVisibleDeviceKey } from '../repositories/deviceKeys.js';
import type { Visibility } from '../repositories/lookup.js';
import { nonBlank } from './rules.js';
import type { AreaHandlers, RouteDeps } from './types.js';

/**
 * Settings, Point-of-sale devices: the device keys of a mall's outlets, a key created for one outlet (answered
 * once, never stored or logged) and a key revoked. The access gate has checked the client, the mall and the outlet
 * the request names; a key named by its id is looked up among the keys of outlets the caller sees.
 */

export const DEVICE_KEY_MESSAGES = {
  blankName: 'body/name must not be blank',
  notFound: 'There is no such device key.',
} as const;

const visibilityOf = (request: FastifyRequest): Visibility => {
  const { grants } = requireCaller(request);
  return { clientIds: grants.clientIds, outletLimits: grants.outletLimits };
};

export function deviceKeyHandlers({ pool }: RouteDeps) {
  return {
    async getDeviceKeys(request) {
      const { query } = request;
      return listDeviceKeys(pool, {
        clientId: query.client_id,
        mallId: query.mall_id,
        visibility: visibilityOf(request),
        search: query.search?.trim() ?? '',
        sortColumn: query.sortColumn ?? 'created_at',
        order: query.orderByMethod ?? 'desc',
        page: query.page ?? 1,
        rowsPerPage: query.rowsPerPage ?? 10,
      });
    },

    async createDeviceKey(request, reply) {
      const { body } = request;
      const name = nonBlank(body.name, 'body/name', DEVICE_KEY_MESSAGES.blankName);
      const issued = await issueDeviceKey(pool, {
        clientId: body.client_id,
        outletId: body.outlet_id,
        name,
        userId: requireCaller(request).user.id,
        visibility: visibilityOf(request),
      });
      // The key is in this answer only: no cache may keep it.
      reply.header('cache-control', 'no-store');
      return { key: issued.key, device_key: issued.row };
    },

    async revokeDeviceKey(request) {
      const { query } = request;
      const row = await revokeVisibleDeviceKey(pool, {
        clientId: query.client_id,
        keyId: query.id,
        userId: requireCaller(request).user.id,
        visibility: visibilityOf(request),
      });
      if (!row) throw notFound(DEVICE_KEY_MESSAGES.notFound);
      return row;
    },
  } satisfies AreaHandlers;
}
