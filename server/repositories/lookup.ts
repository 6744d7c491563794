import type { Queryable } from '../db/pool.js';

/** What a caller may see: their clients, and for clients where they are limited, their outlets. */
export interface Visibility {
  clientIds: number[];
  outletLimits: Map<number, number[]>;
}

/** Outlets visible to the caller, as one SQL condition on an `outlets o` alias, parameters from $first on. */
function visibleOutletCondition(visibility: Visibility, first: number): { sql: string; params: unknown[] } {
  const limitedClients = [...visibility.outletLimits.keys()];
  const limitedOutlets = [...visibility.outletLimits.values()].flat();
  return {
    sql: `o.client_id = ANY($${first}::int[])
      AND (NOT (o.client_id = ANY($${first + 1}::int[])) OR o.id = ANY($${first + 2}::int[]))`,
    params: [visibility.clientIds, limitedClients, limitedOutlets],
  };
}

export async function listClients(db: Queryable, visibility: Visibility) {
  const { rows } = await db.query<{ id: number; name: string }>(
    'SELECT id, name FROM clients WHERE id = ANY($1::int[]) ORDER BY lower(name), id',
    [visibility.clientIds],
  );
  return rows;
}

export async function listOutlets(db: Queryable, visibility: Visibility, clientId: number) {
  const visible = visibleOutletCondition(visibility, 2);
  const { rows } = await db.query<{
    id: number;
    name: string;
    type: number;
    currency: string;
    mall_id: number;
    outlet_code: string;
  }>(
    `SELECT o.id, o.name, o.type, o.currency, o.mall_id, o.outlet_code
     FROM outlets o WHERE o.client_id = $1 AND ${visible.sql}
     ORDER BY lower(o.name), o.id`,
    [clientId, ...visible.params],
  );
  return rows;
}

export async function listMalls(db: Queryable, visibility: Visibility, clientId: number) {
  const visible = visibleOutletCondition(visibility, 2);
  const { rows } = await db.query<{ id: number; name: string; currency: string; time_zone: string }>(
    `SELECT m.id, m.name, m.currency, m.time_zone FROM malls m
     WHERE m.client_id = $1
       AND EXISTS (SELECT 1 FROM outlets o WHERE o.client_id = m.client_id AND o.mall_id = m.id AND ${visible.sql})
     ORDER BY lower(m.name), m.id`,
    [clientId, ...visible.params],
  );
  return rows;
}

/** How many of `outletIds` the caller may see (within `clientId` when given). */
export async function countVisibleOutlets(
  db: Queryable,
  visibility: Visibility,
  outletIds: number[],
  clientId: number | undefined,
): Promise<number> {
  const visible = visibleOutletCondition(visibility, 3);
  const { rows } = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM outlets o
     WHERE o.id = ANY($1::int[]) AND ($2::int IS NULL OR o.client_id = $2) AND ${visible.sql}`,
    [outletIds, clientId ?? null, ...visible.params],
  );
  return rows[0]?.n ?? 0;
}

/** How many of `mallIds` hold an outlet the caller may see (within `clientId` when given). */
export async function countVisibleMalls(
  db: Queryable,
  visibility: Visibility,
  mallIds: number[],
  clientId: number | undefined,
): Promise<number> {
  const visible = visibleOutletCondition(visibility, 3);
  const { rows } = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM malls m
     WHERE m.id = ANY($1::int[]) AND ($2::int IS NULL OR m.client_id = $2)
       AND EXISTS (SELECT 1 FROM outlets o WHERE o.client_id = m.client_id AND o.mall_id = m.id AND ${visible.sql})`,
    [mallIds, clientId ?? null, ...visible.params],
  );
  return rows[0]?.n ?? 0;
}
