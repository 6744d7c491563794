import type { components } from '../../../src/api/schema.js';
import { inTransaction, type Pool, type Queryable } from '../../db/pool.js';
import { SqlParams } from '../../db/sqlParams.js';
import { writeAudit } from '../audit.js';
import { clientOutletCondition, type Visibility } from '../lookup.js';
import { type Actor, auditBy, MAX_SETTINGS_ROWS } from './actor.js';

type Schemas = components['schemas'];

export type SalesTarget = Schemas['SalesTarget'];

/** The first day of the month of a day 'YYYY-MM-DD'. */
export const monthOf = (day: string): string => `${day.slice(0, 7)}-01`;

/** Every outlet of the client the caller sees, by name, with its target of the month (null when unset). */
export async function listSalesTargets(
  db: Queryable,
  visibility: Visibility,
  clientId: number,
  month: string,
): Promise<SalesTarget[]> {
  const p = new SqlParams(clientId, month);
  const { rows } = await db.query<SalesTarget>(
    `SELECT o.id AS outlet_id, o.name, t.target FROM outlets o
     LEFT JOIN sales_targets t ON t.client_id = o.client_id AND t.outlet_id = o.id AND t.month = $2::date
     WHERE o.client_id = $1 AND ${clientOutletCondition(p, visibility, clientId)}
     ORDER BY lower(o.name), o.id LIMIT ${p.add(MAX_SETTINGS_ROWS)}`,
    p.values,
  );
  return rows;
}

interface StoredTarget {
  outlet_id: number;
  month: string;
  target: number;
}

/** Sets the month's target (2 decimals) of each outlet (distinct outlets of the client). */
export async function saveSalesTargets(
  pool: Pool,
  actor: Actor,
  month: string,
  targets: readonly { outlet_id: number; target: number }[],
): Promise<void> {
  const sorted = [...targets].sort((a, b) => a.outlet_id - b.outlet_id);
  const params = [actor.clientId, month, sorted.map((row) => row.outlet_id), sorted.map((row) => row.target)];
  const TARGETS = 'unnest($3::int[], $4::numeric[]) AS t(outlet_id, target)';
  const RETURNED = `outlet_id, to_char(month, 'YYYY-MM-DD') AS month, target`;
  await inTransaction(pool, async (tx) => {
    const { rows: created } = await tx.query<StoredTarget>(
      `INSERT INTO sales_targets (client_id, outlet_id, month, target)
       SELECT $1, t.outlet_id, $2::date, round(t.target, 2) FROM ${TARGETS} ORDER BY t.outlet_id
       ON CONFLICT DO NOTHING RETURNING ${RETURNED}`,
      params,
    );
    const createdIds = new Set(created.map((row) => row.outlet_id));
    const { rows: locked } = await tx.query<StoredTarget>(
      `SELECT ${RETURNED} FROM sales_targets
       WHERE client_id = $1 AND month = $2::date AND outlet_id = ANY($3::int[]) ORDER BY outlet_id FOR UPDATE`,
      params.slice(0, 3),
    );
    const old = new Map(locked.filter((row) => !createdIds.has(row.outlet_id)).map((row) => [row.outlet_id, row]));
    const { rows: updated } = await tx.query<StoredTarget>(
      `UPDATE sales_targets s SET target = round(t.target, 2) FROM ${TARGETS}
       WHERE s.client_id = $1 AND s.month = $2::date AND s.outlet_id = t.outlet_id
       RETURNING s.outlet_id, to_char(s.month, 'YYYY-MM-DD') AS month, s.target`,
      params,
    );
    await writeAudit(
      tx,
      updated
        .sort((a, b) => a.outlet_id - b.outlet_id)
        .map((row) =>
          auditBy(actor, {
            action: old.has(row.outlet_id) ? 'update' : 'create',
            entity: 'sales_target',
            entityId: `${row.outlet_id}:${row.month}`,
            before: old.get(row.outlet_id) ?? null,
            after: row,
          }),
        ),
    );
  });
}
