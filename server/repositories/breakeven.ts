import type { components } from '../../src/api/schema.js';
import type { Department } from '../../src/domain/breakeven.js';
import { inTransaction, type Pool, type Queryable } from '../db/pool.js';
import { SqlParams } from '../db/sqlParams.js';
import { writeAudit } from './audit.js';
import { clientOutletCondition, type Visibility } from './lookup.js';
import { monthFiguresSql } from './monthFigures.js';

/**
 * Breakeven targets: each department's monthly target per outlet (breakeven_targets), against the outlet's GTO as
 * its receipts captured it (rollup_outlet_monthly), with or without its mall's GST, and while the month is open a
 * projection of the month's end from the same weekdays of the four weeks before the mall's today (month_projections,
 * or the outlet's days of rollup_outlet_daily: monthFigures.ts).
 */

export type BreakevenRow = components['schemas']['BreakevenRow'];

export interface BreakevenScope {
  clientId: number;
  mallIds: readonly number[];
  visibility: Visibility;
}

/** The month 'YYYY-MM-01'; rows sorted by progress descending, rows without progress last, then by name. */
export async function breakevenRows(
  db: Queryable,
  scope: BreakevenScope,
  options: { month: string; department: Department; includeGst: boolean },
): Promise<{ rows: BreakevenRow[]; monthOpen: boolean }> {
  const params = new SqlParams();
  const conditions = [
    clientOutletCondition(params, scope.visibility, scope.clientId),
    `o.mall_id = ANY(${params.add([...scope.mallIds], '::int[]')})`,
  ];
  const client = params.add(scope.clientId, '::int');
  const month = params.add(options.month, '::date');
  const department = params.add(options.department, '::text');
  const gst = options.includeGst ? '1' : '(1 + s.gst_percent / 100)';
  const { rows } = await db.query<BreakevenRow & { month_open: boolean }>(
    `WITH bounds AS (SELECT ${month} AS first, (${month} + interval '1 month' - interval '1 day')::date AS last),
     scope AS MATERIALIZED (
       SELECT o.id, o.name, o.mall_id, m.name AS mall_name, o.currency, m.gst_percent, d.today,
              d.today BETWEEN b.first AND b.last AS open
       FROM outlets o JOIN malls m ON m.client_id = o.client_id AND m.id = o.mall_id
       -- Worked out once a row (OFFSET 0), not once for each use of it.
       CROSS JOIN LATERAL (SELECT (now() AT TIME ZONE m.time_zone)::date AS today OFFSET 0) d, bounds b
       WHERE ${conditions.join(' AND ')}
     ),
     open AS MATERIALIZED (SELECT id AS outlet_id, today FROM scope WHERE open),
     ${monthFiguresSql({ client, month, closedOutlets: 'SELECT id FROM scope WHERE NOT open' })},
     rows AS (
       SELECT s.id AS outlet_id, s.name AS outlet_name, s.mall_id, s.mall_name, s.currency,
              round(coalesce(f.gto, 0) / ${gst}, 2) AS gto,
              t.target AS target,
              CASE WHEN s.open THEN round((coalesce(f.so_far, 0) + coalesce(f.rest, 0)) / ${gst}, 2) END AS projected,
              s.open AS month_open
       FROM scope s
       LEFT JOIN figures f ON f.outlet_id = s.id
       LEFT JOIN breakeven_targets t ON t.client_id = ${client} AND t.outlet_id = s.id
         AND t.department = ${department} AND t.month = ${month}
     )
     SELECT outlet_id, outlet_name, mall_id, mall_name, currency, month_open,
            gto::float8 AS gto, target::float8 AS breakeven_target,
            round(gto - target, 2)::float8 AS difference,
            (gto / nullif(target, 0) * 100)::float8 AS progress,
            projected::float8 AS projected_gto,
            (projected / nullif(target, 0) * 100)::float8 AS projected_progress,
            CASE WHEN projected IS NULL OR target IS NULL THEN NULL ELSE projected >= target END AS on_track
     FROM rows
     ORDER BY progress DESC NULLS LAST, lower(outlet_name), outlet_id`,
    params.values,
  );
  return {
    rows: rows.map(({ month_open: _open, ...row }) => row),
    monthOpen: rows.some((row) => row.month_open),
  };
}

interface StoredTarget {
  outlet_id: number;
  target: number;
}

/**
 * Sets or (null) removes the department's targets of the month, one audit row per changed target, in one
 * transaction that locks the month's rows of those outlets first (of two saves the later wins).
 */
export async function saveBreakevenTargets(
  pool: Pool,
  actor: { clientId: number; userId: number | null },
  options: { department: Department; month: string; targets: readonly { outlet_id: number; target: number | null }[] },
): Promise<void> {
  const outletIds = options.targets.map((row) => row.outlet_id);
  const key = [actor.clientId, options.department, options.month];
  await inTransaction(pool, async (tx) => {
    const { rows: before } = await tx.query<StoredTarget>(
      `SELECT outlet_id, target::float8 AS target FROM breakeven_targets
       WHERE client_id = $1 AND department = $2 AND month = $3::date AND outlet_id = ANY($4::int[])
       ORDER BY outlet_id FOR UPDATE`,
      [...key, outletIds],
    );
    const set = options.targets.filter((row) => row.target !== null);
    const removed = options.targets.filter((row) => row.target === null).map((row) => row.outlet_id);
    const { rows: after } = await tx.query<StoredTarget>(
      `INSERT INTO breakeven_targets (client_id, department, month, outlet_id, target)
       SELECT $1, $2, $3::date, t.outlet_id, round(t.target, 2) FROM unnest($4::int[], $5::numeric[]) AS t(outlet_id, target)
       ORDER BY t.outlet_id
       ON CONFLICT (client_id, department, month, outlet_id) DO UPDATE SET target = EXCLUDED.target
       RETURNING outlet_id, target::float8 AS target`,
      [...key, set.map((row) => row.outlet_id), set.map((row) => row.target)],
    );
    await tx.query(
      `DELETE FROM breakeven_targets
       WHERE client_id = $1 AND department = $2 AND month = $3::date AND outlet_id = ANY($4::int[])`,
      [...key, removed],
    );
    const old = new Map(before.map((row) => [row.outlet_id, row.target]));
    const now = new Map<number, number | null>(after.map((row) => [row.outlet_id, row.target]));
    for (const id of removed) now.set(id, null);
    const changes = [...now.entries()]
      .filter(([id, target]) => (old.get(id) ?? null) !== target)
      .sort(([a], [b]) => a - b);
    await writeAudit(
      tx,
      changes.map(([id, target]) => {
        const previous = old.get(id) ?? null;
        const entry = { department: options.department, month: options.month.slice(0, 7), outlet_id: id };
        return {
          clientId: actor.clientId,
          userId: actor.userId,
          action: previous === null ? 'create' : target === null ? 'delete' : 'update',
          entity: 'breakeven_target',
          entityId: `${options.department}:${id}:${entry.month}`,
          before: previous === null ? null : { ...entry, target: previous },
          after: target === null ? null : { ...entry, target },
        };
      }),
    );
  });
}
