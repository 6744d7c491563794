import { pingDatabase } from '../db/pool.js';
import { listOutboxMails } from '../repositories/outbox.js';
import type { Handlers, RouteDeps } from './types.js';

export function systemHandlers({ pool }: RouteDeps): Handlers {
  return {
    async getHealth() {
      await pingDatabase(pool);
      return { status: 'ok' };
    },
    async getOutbox(request) {
      const { limit } = request.query as { limit: number };
      return { data: await listOutboxMails(pool, limit) };
    },
  };
}
