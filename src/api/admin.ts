import { api, type CallOptions } from './client';
import { dataOrThrow } from './errors';
import type { operations } from './schema';

export type OutboxMail = operations['getOutbox']['responses']['200']['content']['application/json']['data'][number];

/** GET /api/admin/outbox: the latest mails kept in the local outbox (super admin only), newest first. */
export async function getOutbox(limit = 50, { signal, client = api }: CallOptions = {}): Promise<OutboxMail[]> {
  return (await dataOrThrow(await client.GET('/api/admin/outbox', { params: { query: { limit } }, signal }))).data;
}
