import { api, type CallOptions } from './client';
import { dataOrThrow } from './errors';
import type { operations } from './schema';

export type OutboxPage = operations['getOutbox']['responses']['200']['content']['application/json'];
export type OutboxMail = OutboxPage['data'][number];
export type OutboxQuery = NonNullable<operations['getOutbox']['parameters']['query']>;
export type OutboxSortColumn = NonNullable<OutboxQuery['sortColumn']>;

/** GET /api/admin/outbox: one page of the mails kept in the local outbox, and how many match (super admin only). */
export async function getOutbox(query: OutboxQuery, { signal, client = api }: CallOptions = {}): Promise<OutboxPage> {
  return dataOrThrow(await client.GET('/api/admin/outbox', { params: { query }, signal }));
}
