import { api, type CallOptions } from './client';
import { dataOrThrow } from './errors';
import type { operations, paths } from './schema';

export type OutboxPage = operations['getOutbox']['responses']['200']['content']['application/json'];
export type OutboxMail = OutboxPage['data'][number];
export type OutboxQuery = NonNullable<operations['getOutbox']['parameters']['query']>;
export type OutboxSortColumn = NonNullable<OutboxQuery['sortColumn']>;

/** GET /api/admin/outbox: one page of the mails kept in the local outbox, and how many match (super admin only). */
export async function getOutbox(query: OutboxQuery, { signal, client = api }: CallOptions = {}): Promise<OutboxPage> {
  return dataOrThrow(await client.GET('/api/admin/outbox', { params: { query }, signal }));
}

/**
 * The address of GET /api/admin/outbox/attachment for a mail's file (super admin only): the Outbox page's download
 * link, opened by the browser with the session cookie (a GET needs no CSRF token), so the file is saved as sent.
 */
export function outboxAttachmentHref(mailId: number, position: number): string {
  const path: keyof paths = '/api/admin/outbox/attachment';
  return `${path}?${new URLSearchParams({ id: String(mailId), position: String(position) }).toString()}`;
}
