import type { components } from '../../../src/api/schema.js';
import { inTransaction, type Pool, type Queryable } from '../../db/pool.js';
import { writeAudit } from '../audit.js';
import { type Actor, auditBy, MAX_SETTINGS_ROWS } from './actor.js';

type Schemas = components['schemas'];

export type ProcessingFee = Schemas['ProcessingFee'];

/**
 * Every payment method seen at the outlets on the local days `startDay`..`endDay` (the payment rollup, methods
 * stored normalised) and every method with a stored fee, by name; the fee is 0 and isNewMethod true for a
 * method without one. Over several outlets the highest of their fees is shown.
 */
export async function listProcessingFees(
  db: Queryable,
  clientId: number,
  outletIds: number[],
  startDay: string,
  endDay: string,
): Promise<ProcessingFee[]> {
  const { rows } = await db.query<ProcessingFee>(
    `WITH seen AS (
       SELECT DISTINCT p.payment_method AS method FROM rollup_outlet_payment_daily p
       WHERE p.client_id = $1 AND p.outlet_id = ANY($2::int[]) AND p.local_day BETWEEN $3::date AND $4::date
     ), fees AS (
       SELECT pf.payment_method AS method, max(pf.processing_fees) AS fee FROM processing_fees pf
       WHERE pf.client_id = $1 AND pf.outlet_id = ANY($2::int[]) GROUP BY 1
     )
     SELECT coalesce(s.method, f.method) AS payment_method, coalesce(f.fee, 0) AS processing_fees,
       f.method IS NULL AS "isNewMethod"
     FROM seen s FULL JOIN fees f ON f.method = s.method
     ORDER BY 1 LIMIT $5`,
    [clientId, outletIds, startDay, endDay, MAX_SETTINGS_ROWS],
  );
  return rows;
}

interface StoredFee {
  outlet_id: number;
  payment_method: string;
  processing_fees: number;
}

/**
 * Stores the fee of each method (normalised, distinct) at each outlet: a new fee or a changed one, whichever the
 * row is (two users saving one new method at once: the later save wins, the earlier one is its before).
 */
export async function saveProcessingFees(
  pool: Pool,
  actor: Actor,
  outletIds: number[],
  fees: readonly { method: string; fee: number }[],
): Promise<void> {
  const sorted = [...fees].sort((a, b) => (a.method < b.method ? -1 : a.method > b.method ? 1 : 0));
  const rows = [...outletIds].sort((a, b) => a - b).flatMap((outletId) => sorted.map((row) => ({ outletId, ...row })));
  const params = [
    actor.clientId,
    rows.map((row) => row.outletId),
    rows.map((row) => row.method),
    rows.map((row) => row.fee),
  ];
  const FEES = 'unnest($2::int[], $3::text[], $4::numeric[]) WITH ORDINALITY AS f(outlet_id, method, fee, n)';
  const RETURNED = 'outlet_id, payment_method, processing_fees';
  const key = (row: StoredFee) => `${row.outlet_id}:${row.payment_method}`;
  await inTransaction(pool, async (tx) => {
    const { rows: created } = await tx.query<StoredFee>(
      `INSERT INTO processing_fees (client_id, outlet_id, payment_method, processing_fees)
       SELECT $1, f.outlet_id, f.method, f.fee FROM ${FEES} ORDER BY f.n
       ON CONFLICT DO NOTHING RETURNING ${RETURNED}`,
      params,
    );
    const createdKeys = new Set(created.map(key));
    const { rows: locked } = await tx.query<StoredFee>(
      `SELECT ${RETURNED} FROM processing_fees t
       WHERE t.client_id = $1 AND (t.outlet_id, t.payment_method) IN (SELECT f.outlet_id, f.method FROM ${FEES})
       ORDER BY t.outlet_id, t.payment_method FOR UPDATE`,
      params,
    );
    const before = locked.filter((row) => !createdKeys.has(key(row)));
    const { rows: updated } = await tx.query<StoredFee>(
      `UPDATE processing_fees t SET processing_fees = f.fee FROM ${FEES}
       WHERE t.client_id = $1 AND t.outlet_id = f.outlet_id AND t.payment_method = f.method
       RETURNING t.outlet_id, t.payment_method, t.processing_fees`,
      params,
    );
    const old = new Map(before.map((row) => [key(row), row]));
    const after = updated.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
    await writeAudit(
      tx,
      after.map((row) =>
        auditBy(actor, {
          action: old.has(key(row)) ? 'update' : 'create',
          entity: 'processing_fee',
          entityId: key(row),
          before: old.get(key(row)) ?? null,
          after: row,
        }),
      ),
    );
  });
}
