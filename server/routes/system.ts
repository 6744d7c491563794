import { pendingMigrations } from '../db/migrate.js';
import { pingDatabase } from '../db/pool.js';
import { HttpError } from '../errors.js';
import { listOutboxMails } from '../repositories/outbox.js';
import type { AreaHandlers, RouteDeps } from './types.js';

export function systemHandlers({ pool, lifecycle }: RouteDeps) {
  return {
    async getHealth() {
      await pingDatabase(pool);
      return { status: 'ok' };
    },
    async getLiveness() {
      return { status: 'ok' };
    },
    async getReadiness() {
      if (lifecycle.stopping) throw new HttpError(503, 'The server is stopping.');
      try {
        await pingDatabase(pool);
      } catch {
        throw new HttpError(503, 'The database cannot be reached.');
      }
      const pending = await pendingMigrations(pool);
      if (pending.length > 0) throw new HttpError(503, `Migrations not applied: ${pending.join(', ')}.`);
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
