import type { components } from '../../src/api/schema.js';
import type { Queryable } from '../db/pool.js';
import { SqlParams } from '../db/sqlParams.js';
import { writeAudit } from './audit.js';
import { clientOutletCondition, type Visibility } from './lookup.js';

/**
 * Non-trading days (non_trading_days, migrations 001 and 012): the days an outlet does not trade, each declared
 * once by the outlet's tenant or by the mall, with a reason, who and when. Every declaration and removal writes
 * its audit_log row in the same transaction.
 */

type Schemas = components['schemas'];
export type NonTradingDay = Schemas['NonTradingDay'];
export type NonTradingSide = Schemas['NonTradingDaySide'];
export type NonTradingSortColumn = components['parameters']['NonTradingSortColumn'];

const SORT_SQL: Record<NonTradingSortColumn, string> = {
  day: 'n.day',
  outlet_name: 'lower(o.name)',
  reason: 'lower(n.reason)',
  declared_by: 'n.declared_by',
  user_email: 'lower(u.email)',
  declared_at: 'n.declared_at',
};

export interface NonTradingListQuery {
  clientId: number;
  visibility: Visibility;
  /** Only this outlet; every outlet the caller sees in the client when absent. */
  outletId?: number;
  /** Days, both included. */
  from: string;
  to: string;
  sortColumn: NonTradingSortColumn;
  order: 'asc' | 'desc';
  page: number;
  rowsPerPage: number;
}

interface DayRow extends Omit<NonTradingDay, 'declared_at'> {
  declared_at: Date;
}

const toDay = ({ declared_at, ...row }: DayRow): NonTradingDay => ({ ...row, declared_at: declared_at.toISOString() });

const DAY_COLUMNS = `n.outlet_id, o.name AS outlet_name, to_char(n.day, 'YYYY-MM-DD') AS day, n.reason, n.declared_by,
  u.email AS user_email, n.declared_at`;

/** One page of the days in the order asked (ties by day, then outlet, the same way), and how many match. */
export async function listNonTradingDays(
  db: Queryable,
  query: NonTradingListQuery,
): Promise<{ data: NonTradingDay[]; total: number }> {
  const params = new SqlParams();
  const conditions = [
    clientOutletCondition(params, query.visibility, query.clientId),
    `n.day BETWEEN ${params.add(query.from, '::date')} AND ${params.add(query.to, '::date')}`,
  ];
  if (query.outletId !== undefined) conditions.push(`n.outlet_id = ${params.add(query.outletId, '::int')}`);
  const from = `non_trading_days n
     JOIN outlets o ON o.client_id = n.client_id AND o.id = n.outlet_id
     LEFT JOIN users u ON u.id = n.declared_by_user
     WHERE n.client_id = ${params.add(query.clientId, '::int')} AND ${conditions.join(' AND ')}`;
  const direction = query.order === 'asc' ? 'ASC' : 'DESC';
  const countValues = [...params.values];
  const limit = params.add(query.rowsPerPage, '::int');
  const offset = params.add((query.page - 1) * query.rowsPerPage, '::int');
  const { rows } = await db.query<DayRow & { total: number }>(
    `SELECT ${DAY_COLUMNS}, count(*) OVER ()::int AS total FROM ${from}
     ORDER BY ${SORT_SQL[query.sortColumn]} ${direction} NULLS LAST, n.day ${direction}, lower(o.name) ${direction},
       n.outlet_id ${direction}
     LIMIT ${limit} OFFSET ${offset}`,
    params.values,
  );
  let total = rows[0]?.total;
  if (total === undefined) {
    // A page past the end: the count alone.
    const count = await db.query<{ total: number }>(`SELECT count(*)::int AS total FROM ${from}`, countValues);
    total = count.rows[0]?.total ?? 0;
  }
  return { data: rows.map(({ total: _total, ...row }) => toDay(row)), total };
}

/** What a declaration of an outlet's day is checked against, all in the outlet's mall's time zone. */
export interface OutletDays {
  /** The outlet's today. */
  today: string;
  /** Its first day: its opening day, else its first day of sales, else its today. */
  firstDay: string;
  currency: string;
}

/** The outlet's days (undefined when the client has no such outlet). */
export async function outletDays(db: Queryable, clientId: number, outletId: number): Promise<OutletDays | undefined> {
  const { rows } = await db.query<OutletDays>(
    `SELECT to_char(t.today, 'YYYY-MM-DD') AS today, o.currency,
       to_char(coalesce(o.opened_on,
         (SELECT min(r.local_day) FROM rollup_outlet_daily r WHERE r.client_id = o.client_id AND r.outlet_id = o.id),
         t.today), 'YYYY-MM-DD') AS "firstDay"
     FROM outlets o JOIN malls m ON m.client_id = o.client_id AND m.id = o.mall_id
     CROSS JOIN LATERAL (SELECT (now() AT TIME ZONE m.time_zone)::date AS today) t
     WHERE o.client_id = $1 AND o.id = $2`,
    [clientId, outletId],
  );
  return rows[0];
}

/** The non-trading days of one outlet from `from` to `to`, by day: the reason and who declared it. */
export async function nonTradingMarks(
  db: Queryable,
  clientId: number,
  outletId: number,
  range: { from: string; to: string },
): Promise<Map<string, { reason: string; declared_by: NonTradingSide }>> {
  const { rows } = await db.query<{ day: string; reason: string; declared_by: NonTradingSide }>(
    `SELECT to_char(day, 'YYYY-MM-DD') AS day, reason, declared_by FROM non_trading_days
     WHERE client_id = $1 AND outlet_id = $2 AND day BETWEEN $3::date AND $4::date`,
    [clientId, outletId, range.from, range.to],
  );
  return new Map(rows.map(({ day, reason, declared_by }) => [day, { reason, declared_by }]));
}

export interface Declaration {
  clientId: number;
  outletId: number;
  day: string;
  /** Trimmed, not blank. */
  reason: string;
  side: NonTradingSide;
  userId: number;
}

/** What an audit entry keeps of a day. */
const audited = (row: { outlet_id: number; day: string; reason: string; declared_by: NonTradingSide }) => ({
  outlet_id: row.outlet_id,
  day: row.day,
  reason: row.reason,
  declared_by: row.declared_by,
});

/**
 * Declares a day with its audit entry (call inside a transaction). Undefined when the outlet has the day declared
 * already (nothing is written).
 */
export async function declareNonTradingDay(db: Queryable, input: Declaration): Promise<NonTradingDay | undefined> {
  const { rows } = await db.query<DayRow>(
    `WITH n AS (
       INSERT INTO non_trading_days (client_id, outlet_id, day, reason, declared_by, declared_by_user)
       VALUES ($1, $2, $3::date, $4, $5, $6) ON CONFLICT DO NOTHING
       RETURNING *
     )
     SELECT ${DAY_COLUMNS} FROM n
     JOIN outlets o ON o.client_id = n.client_id AND o.id = n.outlet_id
     LEFT JOIN users u ON u.id = n.declared_by_user`,
    [input.clientId, input.outletId, input.day, input.reason, input.side, input.userId],
  );
  const row = rows[0];
  if (!row) return undefined;
  await writeAudit(db, [
    {
      clientId: input.clientId,
      userId: input.userId,
      action: 'create',
      entity: 'non_trading_day',
      entityId: `${input.outletId}:${input.day}`,
      before: null,
      after: audited(row),
    },
  ]);
  return toDay(row);
}

export type Removal = 'removed' | 'notDeclared' | 'declaredByOtherSide';

/**
 * Removes a declared day with its audit entry (call inside a transaction: the day's row is locked while it is
 * checked). `onlySide`: only a day that side declared is removed.
 */
export async function removeNonTradingDay(
  db: Queryable,
  input: { clientId: number; outletId: number; day: string; userId: number; onlySide?: NonTradingSide },
): Promise<Removal> {
  const { rows } = await db.query<{ outlet_id: number; day: string; reason: string; declared_by: NonTradingSide }>(
    `SELECT outlet_id, to_char(day, 'YYYY-MM-DD') AS day, reason, declared_by FROM non_trading_days
     WHERE client_id = $1 AND outlet_id = $2 AND day = $3::date FOR UPDATE`,
    [input.clientId, input.outletId, input.day],
  );
  const before = rows[0];
  if (!before) return 'notDeclared';
  if (input.onlySide !== undefined && before.declared_by !== input.onlySide) return 'declaredByOtherSide';
  await db.query('DELETE FROM non_trading_days WHERE client_id = $1 AND outlet_id = $2 AND day = $3::date', [
    input.clientId,
    input.outletId,
    input.day,
  ]);
  await writeAudit(db, [
    {
      clientId: input.clientId,
      userId: input.userId,
      action: 'delete',
      entity: 'non_trading_day',
      entityId: `${input.outletId}:${input.day}`,
      before: audited(before),
      after: null,
    },
  ]);
  return 'removed';
}
