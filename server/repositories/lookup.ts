import type { components } from '../../src/api/schema.js';
import type { Queryable } from '../db/pool.js';
import { SqlParams } from '../db/sqlParams.js';

type Schemas = components['schemas'];

/** What a caller may see: their clients, and for clients where they are limited, their outlets. */
export interface Visibility {
  clientIds: number[];
  outletLimits: Map<number, number[]>;
}

/** Outlets visible to the caller, as one SQL condition on an `outlets o` alias. */
function visibleOutletCondition(params: SqlParams, visibility: Visibility): string {
  const clients = params.add(visibility.clientIds, '::int[]');
  const limitedClients = params.add([...visibility.outletLimits.keys()], '::int[]');
  const limitedOutlets = params.add([...visibility.outletLimits.values()].flat(), '::int[]');
  return `o.client_id = ANY(${clients}) AND (NOT (o.client_id = ANY(${limitedClients})) OR o.id = ANY(${limitedOutlets}))`;
}

/** The outlets of one client the caller sees, as one SQL condition on an `outlets o` alias. */
export function clientOutletCondition(params: SqlParams, visibility: Visibility, clientId: number): string {
  return `o.client_id = ${params.add(clientId, '::int')} AND ${visibleOutletCondition(params, visibility)}`;
}

/** The most rows a lookup list answers (stated in the contract), so that no answer grows without bound. */
export const MAX_LOOKUP_ROWS = 10_000;

export async function listClients(db: Queryable, visibility: Visibility): Promise<Schemas['Client'][]> {
  const { rows } = await db.query<Schemas['Client']>(
    'SELECT id, name, reporting_currency FROM clients WHERE id = ANY($1::int[]) ORDER BY lower(name), id LIMIT $2',
    [visibility.clientIds, MAX_LOOKUP_ROWS],
  );
  return rows;
}

export async function listOutlets(
  db: Queryable,
  visibility: Visibility,
  clientId: number,
): Promise<Schemas['Outlet'][]> {
  const params = new SqlParams(clientId);
  const { rows } = await db.query<Schemas['Outlet']>(
    `SELECT o.id, o.name, o.type, o.currency, o.mall_id, o.outlet_code
     FROM outlets o WHERE o.client_id = $1 AND ${visibleOutletCondition(params, visibility)}
     ORDER BY lower(o.name), o.id LIMIT ${params.add(MAX_LOOKUP_ROWS)}`,
    params.values,
  );
  return rows;
}

export async function listMalls(db: Queryable, visibility: Visibility, clientId: number): Promise<Schemas['Mall'][]> {
  const params = new SqlParams(clientId);
  const { rows } = await db.query<Schemas['Mall']>(
    `SELECT m.id, m.name, m.currency, m.time_zone, m.country FROM malls m
     WHERE m.client_id = $1
       AND EXISTS (SELECT 1 FROM outlets o WHERE o.client_id = m.client_id AND o.mall_id = m.id
                   AND ${visibleOutletCondition(params, visibility)})
     ORDER BY lower(m.name), m.id LIMIT ${params.add(MAX_LOOKUP_ROWS)}`,
    params.values,
  );
  return rows;
}

/**
 * Id sets found wholly visible, by the visibility's outlet limits object: the grants of one cached session
 * (server/auth/callerCache.ts), so a session asks once for the ids it keeps using, and asks again with new grants
 * (a new sign-in, the cache's time to live, a forgotten user). A refusal is never remembered.
 */
const whollyVisible = new WeakMap<Visibility['outletLimits'], Set<string>>();

async function countVisible(
  kind: 'outlets' | 'malls',
  visibility: Visibility,
  ids: number[],
  clientId: number | undefined,
  count: () => Promise<number>,
): Promise<number> {
  const key = `${kind}:${clientId ?? ''}:${[...ids].sort((a, b) => a - b).join(',')}`;
  const known = wholly(visibility);
  if (known.has(key)) return new Set(ids).size;
  const visible = await count();
  if (visible === new Set(ids).size) {
    if (known.size >= 1000) known.clear();
    known.add(key);
  }
  return visible;
}

function wholly(visibility: Visibility): Set<string> {
  let known = whollyVisible.get(visibility.outletLimits);
  if (!known) {
    known = new Set();
    whollyVisible.set(visibility.outletLimits, known);
  }
  return known;
}

/** How many of `outletIds` the caller may see (within `clientId` when given). */
export async function countVisibleOutlets(
  db: Queryable,
  visibility: Visibility,
  outletIds: number[],
  clientId: number | undefined,
): Promise<number> {
  return countVisible('outlets', visibility, outletIds, clientId, async () => {
    const params = new SqlParams(outletIds, clientId ?? null);
    const { rows } = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM outlets o
       WHERE o.id = ANY($1::int[]) AND ($2::int IS NULL OR o.client_id = $2)
         AND ${visibleOutletCondition(params, visibility)}`,
      params.values,
    );
    return rows[0]?.n ?? 0;
  });
}

/** The mall of the client's outlet `outletId`, if the client has it. */
export async function mallOfOutlet(db: Queryable, clientId: number, outletId: number): Promise<number | undefined> {
  const { rows } = await db.query<{ mall_id: number }>('SELECT mall_id FROM outlets WHERE client_id = $1 AND id = $2', [
    clientId,
    outletId,
  ]);
  return rows[0]?.mall_id;
}

/** The names of the client's outlet `outletId` and of its mall, if the client has it. */
export async function outletNames(
  db: Queryable,
  clientId: number,
  outletId: number,
): Promise<{ outletName: string; mallId: number; mallName: string } | undefined> {
  const { rows } = await db.query<{ outletName: string; mallId: number; mallName: string }>(
    `SELECT o.name AS "outletName", m.id AS "mallId", m.name AS "mallName"
     FROM outlets o JOIN malls m ON m.client_id = o.client_id AND m.id = o.mall_id
     WHERE o.client_id = $1 AND o.id = $2`,
    [clientId, outletId],
  );
  return rows[0];
}

/** How many of `mallIds` hold an outlet the caller may see (within `clientId` when given). */
export async function countVisibleMalls(
  db: Queryable,
  visibility: Visibility,
  mallIds: number[],
  clientId: number | undefined,
): Promise<number> {
  return countVisible('malls', visibility, mallIds, clientId, async () => {
    const params = new SqlParams(mallIds, clientId ?? null);
    const { rows } = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM malls m
       WHERE m.id = ANY($1::int[]) AND ($2::int IS NULL OR m.client_id = $2)
         AND EXISTS (SELECT 1 FROM outlets o WHERE o.client_id = m.client_id AND o.mall_id = m.id
                     AND ${visibleOutletCondition(params, visibility)})`,
      params.values,
    );
    return rows[0]?.n ?? 0;
  });
}
