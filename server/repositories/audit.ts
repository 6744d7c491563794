import type { Queryable } from '../db/pool.js';

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
