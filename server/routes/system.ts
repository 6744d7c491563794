import { pingDatabase } from '../db/pool.js';
import { listOutboxMails } from '../repositories/outbox.js';
import type { AreaHandlers, RouteDeps } from './types.js';

/** The outbox page size when the query names none (the contract's default). */
const OUTBOX_LIMIT = 50;

export function systemHandlers({ pool }: RouteDeps) {
  return {
    async getHealth() {
      await pingDatabase(pool);
      return { status: 'ok' };
    },
    async getOutbox(request) {
      return { data: await listOutboxMails(pool, request.query.limit ?? OUTBOX_LIMIT) };
    },
  } satisfies AreaHandlers;
}
