import type { operations } from '../../src/api/schema.js';
import type { Queryable } from '../db/pool.js';
import { escapeLike, SqlParams } from '../db/sqlParams.js';

/** One change as the audit log keeps it: who made it, in which client, to what, and the row before and after. */
export interface AuditEntry {
  clientId: number;
  userId: number | null;
  action: 'create' | 'update' | 'delete' | 'assign';
  entity: string;
  entityId: string | number | null;
  /** The row as it was; null when the change created it. */
  before: unknown;
  /** The row as it became; null when the change deleted it. */
  after: unknown;
}

/**
 * Writes audit_log rows, the row before and after in detail ({ before, after }). Called with the transaction's client of the change it records, so that the change and
 * its audit rows are committed together or not at all.
 */
export async function writeAudit(db: Queryable, entries: readonly AuditEntry[]): Promise<void> {
  if (entries.length === 0) return;
  const rows = entries.map((entry) => ({
    client_id: entry.clientId,
    user_id: entry.userId,
    action: entry.action,
    entity: entry.entity,
    entity_id: entry.entityId === null ? null : String(entry.entityId),
    detail: { before: entry.before ?? null, after: entry.after ?? null },
  }));
  await db.query(
    `INSERT INTO audit_log (client_id, user_id, action, entity, entity_id, detail)
     SELECT client_id, user_id, action, entity, entity_id, detail
     FROM jsonb_to_recordset($1::jsonb)
       AS x(client_id int, user_id int, action text, entity text, entity_id text, detail jsonb)`,
    [JSON.stringify(rows)],
  );
}

type AuditQuery = NonNullable<operations['getAuditLogs']['parameters']['query']>;
export type AuditPage = operations['getAuditLogs']['responses']['200']['content']['application/json'];
export type AuditSortColumn = NonNullable<AuditQuery['sortColumn']>;

const AUDIT_SORT_SQL: Record<AuditSortColumn, string> = {
  created_at: 'a.created_at',
  user_email: 'lower(u.email)',
  action: 'a.action',
  entity: 'a.entity',
};

export interface AuditPageQuery {
  clientId: number;
  /** Only the changes this user made (a caller limited to some outlets of the client). */
  onlyUserId?: number;
  page: number;
  rowsPerPage: number;
  sortColumn: AuditSortColumn;
  order: 'asc' | 'desc';
  entity?: string;
  /** A plain substring of who made the change or of the row's id, any case. */
  search?: string;
  /** Days (UTC), both included. */
  from?: string;
  to?: string;
}

/** One page of a client's audit log in the order asked (ties by id, the same way), and how many entries match. */
export async function listAuditLog(db: Queryable, query: AuditPageQuery): Promise<AuditPage> {
  const params = new SqlParams();
  const conditions = [`a.client_id = ${params.add(query.clientId, '::int')}`];
  if (query.onlyUserId !== undefined) conditions.push(`a.user_id = ${params.add(query.onlyUserId, '::int')}`);
  if (query.entity) conditions.push(`a.entity = ${params.add(query.entity)}`);
  if (query.search) {
    const pattern = params.add(`%${escapeLike(query.search)}%`);
    conditions.push(`(u.email ILIKE ${pattern} OR a.entity_id ILIKE ${pattern})`);
  }
  if (query.from) conditions.push(`a.created_at >= ${params.add(query.from, '::date')}::timestamp AT TIME ZONE 'UTC'`);
  if (query.to) {
    conditions.push(`a.created_at < (${params.add(query.to, '::date')} + 1)::timestamp AT TIME ZONE 'UTC'`);
  }
  const direction = query.order === 'asc' ? 'ASC' : 'DESC';
  const where = conditions.join(' AND ');
  const limit = params.add(query.rowsPerPage, '::int');
  const offset = params.add((query.page - 1) * query.rowsPerPage, '::int');
  const { rows } = await db.query<{
    id: string;
    created_at: Date;
    user_email: string | null;
    action: string;
    entity: string;
    entity_id: string | null;
    detail: Record<string, unknown>;
    total: number;
  }>(
    `SELECT a.id, a.created_at, u.email AS user_email, a.action, a.entity, a.entity_id, a.detail,
       count(*) OVER ()::int AS total
     FROM audit_log a LEFT JOIN users u ON u.id = a.user_id
     WHERE ${where}
     ORDER BY ${AUDIT_SORT_SQL[query.sortColumn]} ${direction} NULLS LAST, a.id ${direction}
     LIMIT ${limit} OFFSET ${offset}`,
    params.values,
  );
  let total = rows[0]?.total;
  if (total === undefined) {
    // A page past the end: the count alone.
    const count = await db.query<{ total: number }>(
      `SELECT count(*)::int AS total FROM audit_log a LEFT JOIN users u ON u.id = a.user_id WHERE ${where}`,
      params.values.slice(0, -2),
    );
    total = count.rows[0]?.total ?? 0;
  }
  return {
    data: rows.map(({ total: _total, id, created_at, ...row }) => ({
      ...row,
      id: Number(id),
      created_at: created_at.toISOString(),
    })),
    total,
  };
}
