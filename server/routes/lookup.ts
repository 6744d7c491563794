import type { operations } from '../../src/api/schema.js';
import { requireCaller } from '../auth/access.js';
import { listClients, listMalls, listOutlets } from '../repositories/lookup.js';
import type { Handlers, RouteDeps } from './types.js';

type ClientQuery = operations['getOutlets']['parameters']['query'];

export function lookupHandlers({ pool }: RouteDeps): Handlers {
  return {
    async getClients(request) {
      return listClients(pool, requireCaller(request).grants);
    },
    async getOutlets(request) {
      const { client_id } = request.query as ClientQuery;
      return listOutlets(pool, requireCaller(request).grants, client_id);
    },
    async getMalls(request) {
      const { client_id } = request.query as ClientQuery;
      return listMalls(pool, requireCaller(request).grants, client_id);
    },
  };
}
