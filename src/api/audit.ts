import { api, type CallOptions } from './client';
import { dataOrThrow } from './errors';
import type { components, operations } from './schema';

export type AuditLogQuery = NonNullable<operations['getAuditLogs']['parameters']['query']>;
export type AuditLogPage = operations['getAuditLogs']['responses']['200']['content']['application/json'];
export type AuditLogEntry = components['schemas']['AuditLogEntry'];
export type AuditEntity = components['schemas']['AuditEntity'];
export type AuditSortColumn = NonNullable<AuditLogQuery['sortColumn']>;

/** GET /api/auditLogs: one page of a client's changes, and how many match. */
export async function getAuditLogs(query: AuditLogQuery, { signal, client = api }: CallOptions = {}) {
  return dataOrThrow(await client.GET('/api/auditLogs', { params: { query }, signal }));
}
