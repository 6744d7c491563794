import type { components, operations } from '../../src/api/schema.js';
import { normaliseOutletCode } from '../../src/domain/outletCodes.js';
import { inTransaction, type Pool, type Queryable } from '../db/pool.js';
import { escapeLike, SqlParams } from '../db/sqlParams.js';
import { writeAudit } from './audit.js';
import { ok, type Result, refuse } from './domainError.js';
import { clientOutletCondition, type Visibility } from './lookup.js';

/**
 * Outlet codes (Shopper Connect, Outlet Code): the outlets of the selected malls with their codes, a page at a time,
 * and the save of new codes, each unique within its mall (case-insensitively), audit-logged.
 */

export type OutletCodeRow = components['schemas']['OutletCodeRow'];
type OutletCodesQuery = NonNullable<operations['getOutletCodes']['parameters']['query']>;
export type OutletCodeSortColumn = NonNullable<OutletCodesQuery['sortColumn']>;
export type OutletCodePage = operations['getOutletCodes']['responses']['200']['content']['application/json'];

/** The sort columns of the contract, as SQL: case-insensitive, codes of outlets without one last. */
const SORT_SQL: Record<OutletCodeSortColumn, string> = {
  mall_name: 'lower(m.name)',
  outlet_name: 'lower(o.name)',
  outlet_code: 'lower(o.outlet_code)',
};

export interface OutletCodePageQuery {
  clientId: number;
  mallIds: readonly number[];
  visibility: Visibility;
  /** A plain substring of the outlet's name or code, any case; '' matches every outlet. */
  search: string;
  sortColumn: OutletCodeSortColumn;
  order: 'asc' | 'desc';
  /** From 1. */
  page: number;
  rowsPerPage: number;
}

/** One page of the outlets of the malls the caller sees, with their codes, and how many match. */
export async function listOutletCodes(db: Queryable, query: OutletCodePageQuery): Promise<OutletCodePage> {
  const params = new SqlParams();
  const conditions = [
    clientOutletCondition(params, query.visibility, query.clientId),
    `o.mall_id = ANY(${params.add([...query.mallIds], '::int[]')})`,
  ];
  if (query.search !== '') {
    const pattern = params.add(`%${escapeLike(query.search)}%`);
    conditions.push(`(o.name ILIKE ${pattern} OR o.outlet_code ILIKE ${pattern})`);
  }
  const where = conditions.join(' AND ');
  const direction = query.order === 'asc' ? 'ASC' : 'DESC';
  const from = 'FROM outlets o JOIN malls m ON m.client_id = o.client_id AND m.id = o.mall_id';
  const countValues = [...params.values];
  const limit = params.add(query.rowsPerPage, '::int');
  const offset = params.add((query.page - 1) * query.rowsPerPage, '::int');
  const { rows } = await db.query<OutletCodeRow & { total: number }>(
    `SELECT o.id AS outlet_id, o.name AS outlet_name, o.mall_id, m.name AS mall_name, o.outlet_code,
            count(*) OVER ()::int AS total
     ${from}
     WHERE ${where}
     ORDER BY ${SORT_SQL[query.sortColumn]} ${direction} NULLS LAST, lower(m.name), lower(o.name), o.id
     LIMIT ${limit} OFFSET ${offset}`,
    params.values,
  );
  let total = rows[0]?.total;
  if (total === undefined) {
    // A page past the end: the count alone.
    const count = await db.query<{ total: number }>(
      `SELECT count(*)::int AS total ${from} WHERE ${where}`,
      countValues,
    );
    total = count.rows[0]?.total ?? 0;
  }
  return { data: rows.map(({ total: _total, ...row }) => row), total };
}

/** One code of a save: the outlet, its new code as given and its place in the request's `data`. */
export interface OutletCodeChange {
  outletId: number;
  code: string | null;
  /** The item's index in `data`, for the refusal that names it. */
  index: number;
}

export interface OutletCodeActor {
  clientId: number;
  userId: number | null;
  /** Whether the caller sees an outlet of the client: a refusal names only outlets the caller sees. */
  sees: (outletId: number) => boolean;
}

interface LockedOutlet {
  id: number;
  name: string;
  mall_id: number;
  mall_name: string;
  outlet_code: string | null;
}

/**
 * Sets the codes of the outlets (outlets of the client the caller sees: checked before), in one transaction that
 * locks every outlet of their malls first, so that two saves in one mall are made one after the other and each
 * checks the codes the other committed. Each new code must be unique within its mall, case-insensitively, against
 * the mall's codes as they will be (refused naming `data[i].outlet_code` otherwise, and nothing is changed). One
 * audit row per code changed. Answers how many codes changed.
 */
export async function saveOutletCodes(
  pool: Pool,
  actor: OutletCodeActor,
  changes: readonly OutletCodeChange[],
): Promise<Result<number>> {
  return inTransaction(pool, async (tx): Promise<Result<number>> => {
    const params = new SqlParams();
    const client = params.add(actor.clientId, '::int');
    const ids = params.add(
      changes.map((change) => change.outletId),
      '::int[]',
    );
    const { rows: outlets } = await tx.query<LockedOutlet>(
      `SELECT o.id, o.name, o.mall_id, m.name AS mall_name, o.outlet_code
       FROM outlets o JOIN malls m ON m.client_id = o.client_id AND m.id = o.mall_id
       WHERE o.client_id = ${client}
         AND o.mall_id IN (SELECT mall_id FROM outlets WHERE client_id = ${client} AND id = ANY(${ids}))
       ORDER BY o.id
       FOR UPDATE OF o`,
      params.values,
    );
    const byId = new Map(outlets.map((outlet) => [outlet.id, outlet]));
    // The codes as they will be: the request's over the stored ones.
    const planned = new Map(outlets.map((outlet) => [outlet.id, outlet.outlet_code]));
    const indexOf = new Map<number, number>();
    for (const change of changes) {
      planned.set(change.outletId, normaliseOutletCode(change.code));
      indexOf.set(change.outletId, change.index);
    }
    const changed: { outlet: LockedOutlet; code: string | null }[] = [];
    for (const change of [...changes].sort((a, b) => a.index - b.index)) {
      const outlet = byId.get(change.outletId);
      if (!outlet)
        return refuse('invalid', `there is no outlet ${change.outletId}.`, `data[${change.index}].outlet_id`);
      const code = planned.get(outlet.id) ?? null;
      if (code === outlet.outlet_code) continue;
      if (code !== null) {
        const other = outlets.find(
          (candidate) =>
            candidate.id !== outlet.id &&
            candidate.mall_id === outlet.mall_id &&
            planned.get(candidate.id)?.toLowerCase() === code.toLowerCase(),
        );
        if (other) {
          const given = planned.get(other.id) !== other.outlet_code ? indexOf.get(other.id) : undefined;
          return refuse(
            'invalid',
            duplicateText(code, other, actor.sees(other.id), given),
            `data[${change.index}].outlet_code`,
          );
        }
      }
      changed.push({ outlet, code });
    }
    if (changed.length === 0) return ok(0);
    const update = new SqlParams();
    const changedIds = update.add(
      changed.map(({ outlet }) => outlet.id),
      '::int[]',
    );
    const changedCodes = update.add(
      changed.map(({ code }) => code),
      '::text[]',
    );
    await tx.query(
      `UPDATE outlets o SET outlet_code = c.code
       FROM unnest(${changedIds}, ${changedCodes}) AS c(id, code)
       WHERE o.client_id = ${update.add(actor.clientId, '::int')} AND o.id = c.id`,
      update.values,
    );
    await writeAudit(
      tx,
      changed.map(({ outlet, code }) => {
        const row = {
          outlet_id: outlet.id,
          outlet_name: outlet.name,
          mall_id: outlet.mall_id,
          mall_name: outlet.mall_name,
        };
        return {
          clientId: actor.clientId,
          userId: actor.userId,
          action: 'update',
          entity: 'outlet_code',
          entityId: outlet.id,
          before: { ...row, outlet_code: outlet.outlet_code },
          after: { ...row, outlet_code: code },
        };
      }),
    );
    return ok(changed.length);
  });
}

/**
 * Why a code cannot be set: the outlet that has it, or that the request gives it (`given`: its index in `data`),
 * named when the caller sees it.
 */
function duplicateText(code: string, other: LockedOutlet, seen: boolean, given: number | undefined): string {
  const who = seen ? other.name : 'another outlet';
  if (given !== undefined)
    return `"${code}" is also given to ${who} (data[${given}]); a code is unique within its mall.`;
  return `"${code}" is already the code of ${who} in ${other.mall_name}; a code is unique within its mall.`;
}
