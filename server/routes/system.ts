import { pingDatabase } from '../db/pool.js';
import { listOutboxMails } from '../repositories/outbox.js';
import type { AreaHandlers, RouteDeps } from './types.js';

export function systemHandlers({ pool }: RouteDeps) {
  return {
    async getHealth() {
      await pingDatabase(pool);
      return { status: 'ok' };
    },
    async getOutbox({ query }) {
      // The contract's defaults are applied by validation; these only satisfy the optional types.
      return listOutboxMails(pool, {
        page: query.page ?? 1,
        rowsPerPage: query.rowsPerPage ?? 20,
        sortColumn: query.sortColumn ?? 'created_at',
        order: query.order ?? 'desc',
        search: query.search ?? '',
      });
    },
  } satisfies AreaHandlers;
}
