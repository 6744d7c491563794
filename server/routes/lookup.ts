import { requireCaller } from '../auth/access.js';
import { listClients, listMalls, listOutlets } from '../repositories/lookup.js';
import type { AreaHandlers, RouteDeps } from './types.js';

export function lookupHandlers({ pool }: RouteDeps) {
  return {
    async getClients(request) {
      return listClients(pool, requireCaller(request).grants);
    },
    async getOutlets(request) {
      return listOutlets(pool, requireCaller(request).grants, request.query.client_id);
    },
    async getMalls(request) {
      return listMalls(pool, requireCaller(request).grants, request.query.client_id);
    },
  } satisfies AreaHandlers;
}
