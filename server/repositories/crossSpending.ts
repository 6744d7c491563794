import type { components } from '../../src/api/schema.js';
import type { Queryable } from '../db/pool.js';
import { SqlParams } from '../db/sqlParams.js';
import { clientOutletCondition, type Visibility } from './lookup.js';

/**
 * Cross spending (§7 mall reports): where the members of one outlet also spend in its mall, from
 * rollup_member_outlet_daily (migration 018: spend and visits per outlet, local day and member, non-void receipts
 * with a member id), never from receipts. The outlet's shoppers over a range are its rows by primary key; their
 * rows at the mall's other outlets come from the member index alone. Other outlets are those of the same mall the
 * caller sees; one mall has one currency, so spends add up as they are.
 */

type Schemas = components['schemas'];
export type CrossSpendingReport = Schemas['CrossSpendingReport'];
export type CrossSpendingDetails = Schemas['CrossSpendingDetails'];
type OutletRef = Schemas['CrossSpendingOutletRef'];

export interface CrossSpendingQuery {
  clientId: number;
  visibility: Visibility;
  outletId: number;
  start: string;
  end: string;
}

/** The most other outlets a report lists (the contract's maxItems). */
const MAX_OUTLETS = 50;

/** The visible outlets of the client `o`, with their mall, as `OutletRef` columns. */
const OUTLET_REF = `o.id AS outlet_id, o.name AS outlet_name, o.mall_id, m.name AS mall_name, o.category, m.currency`;

async function outletRef(db: Queryable, query: CrossSpendingQuery, outletId: number): Promise<OutletRef | undefined> {
  const params = new SqlParams();
  const visible = clientOutletCondition(params, query.visibility, query.clientId);
  const { rows } = await db.query<OutletRef>(
    `SELECT ${OUTLET_REF} FROM outlets o JOIN malls m ON m.client_id = o.client_id AND m.id = o.mall_id
     WHERE ${visible} AND o.id = ${params.add(outletId, '::int')}`,
    params.values,
  );
  return rows[0];
}

/**
 * The outlet's shoppers (`base`: member, spend there) and the rows of those members at the other visible outlets of
 * its mall over the range (`other`), as CTEs.
 */
function sharedCtes(params: SqlParams, query: CrossSpendingQuery, otherOutletId?: number): string {
  const client = params.add(query.clientId, '::int');
  const outlet = params.add(query.outletId, '::int');
  const start = params.add(query.start, '::date');
  const end = params.add(query.end, '::date');
  const visible = clientOutletCondition(params, query.visibility, query.clientId);
  const only = otherOutletId === undefined ? '' : `AND o.id = ${params.add(otherOutletId, '::int')}`;
  return `base AS MATERIALIZED (
      SELECT r.member_id, sum(r.spend) AS spend
      FROM rollup_member_outlet_daily r
      WHERE r.client_id = ${client} AND r.outlet_id = ${outlet} AND r.local_day BETWEEN ${start} AND ${end}
      GROUP BY r.member_id
    ),
    peers AS MATERIALIZED (
      SELECT o.id, o.name, o.category FROM outlets o
      WHERE ${visible} AND o.id <> ${outlet} ${only}
        AND o.mall_id = (SELECT mall_id FROM outlets WHERE client_id = ${client} AND id = ${outlet})
    ),
    other AS MATERIALIZED (
      SELECT r.outlet_id, r.local_day, r.member_id, r.spend, r.visits
      FROM base b JOIN rollup_member_outlet_daily r
        ON r.client_id = ${client} AND r.member_id = b.member_id AND r.local_day BETWEEN ${start} AND ${end}
      WHERE r.outlet_id IN (SELECT id FROM peers)
    )`;
}

const money = (cents: string | number | null) => Number(cents ?? 0) / 100;
const percent = (part: number, whole: number) => (whole === 0 ? 0 : Math.round((part / whole) * 1000) / 10);

/**
 * The outlet's shoppers over the range and, for the other outlets of its mall the caller sees, how many of them
 * also bought there, what they spent and in how many visits (the 50 with the most shared shoppers), and the same
 * per category. Undefined when the caller does not see the outlet.
 */
export async function crossSpending(
  db: Queryable,
  query: CrossSpendingQuery,
): Promise<CrossSpendingReport | undefined> {
  const params = new SqlParams();
  const ctes = sharedCtes(params, query);
  const limit = params.add(MAX_OUTLETS, '::int');
  const [outlet, result] = await Promise.all([
    outletRef(db, query, query.outletId),
    db.query<{
      shoppers: number;
      spend: string | null;
      outlets:
        | {
            outlet_id: number;
            outlet_name: string;
            category: string | null;
            n: number;
            spend: string;
            visits: number;
          }[]
        | null;
      categories: { category: string | null; n: number; spend: string; visits: number }[] | null;
    }>(
      `WITH ${ctes},
       om AS MATERIALIZED (
         SELECT x.outlet_id, x.member_id, sum(x.spend) AS spend, sum(x.visits) AS visits
         FROM other x GROUP BY x.outlet_id, x.member_id
       ),
       per_outlet AS (
         SELECT outlet_id, count(*)::int AS n, sum(spend)::int8 AS spend, sum(visits)::int AS visits
         FROM om GROUP BY outlet_id
       ),
       cm AS (
         SELECT p.category, om.member_id, sum(om.spend) AS spend, sum(om.visits) AS visits
         FROM om JOIN peers p ON p.id = om.outlet_id GROUP BY p.category, om.member_id
       ),
       per_category AS (
         SELECT category, count(*)::int AS n, sum(spend)::int8 AS spend, sum(visits)::int AS visits
         FROM cm GROUP BY category
       )
       SELECT (SELECT count(*)::int FROM base) AS shoppers, (SELECT sum(spend)::int8 FROM base) AS spend,
         (SELECT json_agg(t ORDER BY t.n DESC, t.spend DESC, lower(t.outlet_name), t.outlet_id) FROM (
            SELECT a.outlet_id, p.name AS outlet_name, p.category, a.n, a.spend, a.visits
            FROM per_outlet a JOIN peers p ON p.id = a.outlet_id
            ORDER BY a.n DESC, a.spend DESC, lower(p.name), a.outlet_id LIMIT ${limit}) t) AS outlets,
         (SELECT json_agg(c ORDER BY c.n DESC, c.spend DESC, c.category NULLS LAST) FROM per_category c) AS categories`,
      params.values,
    ),
  ]);
  if (!outlet) return undefined;
  const row = result.rows[0];
  const shoppers = row?.shoppers ?? 0;
  return {
    outlet,
    shoppers,
    spend: money(row?.spend ?? 0),
    outlets: (row?.outlets ?? []).map((entry) => ({
      outlet_id: entry.outlet_id,
      outlet_name: entry.outlet_name,
      category: entry.category,
      shared_shoppers: entry.n,
      share_percent: percent(entry.n, shoppers),
      spend: money(entry.spend),
      visits: entry.visits,
    })),
    categories: (row?.categories ?? []).map((entry) => ({
      category: entry.category,
      shared_shoppers: entry.n,
      share_percent: percent(entry.n, shoppers),
      spend: money(entry.spend),
      visits: entry.visits,
    })),
  };
}

/**
 * One pair: the outlet's shoppers over the range, how many of them also bought at the other outlet, and per day of
 * the range (zeros included) how many of them bought there, in how many visits and for how much. Undefined when
 * the caller does not see either outlet or they are not of one mall.
 */
export async function crossSpendingDetails(
  db: Queryable,
  query: CrossSpendingQuery,
  otherOutletId: number,
): Promise<CrossSpendingDetails | undefined> {
  const params = new SqlParams();
  const ctes = sharedCtes(params, query, otherOutletId);
  const start = params.add(query.start, '::date');
  const end = params.add(query.end, '::date');
  const [outlet, other, result] = await Promise.all([
    outletRef(db, query, query.outletId),
    outletRef(db, query, otherOutletId),
    db.query<{
      shoppers: number;
      shared: number;
      daily: { date: string; shoppers: number; visits: number; spend: string }[];
    }>(
      `WITH ${ctes},
       days AS (
         SELECT x.local_day, count(DISTINCT x.member_id)::int AS shoppers, sum(x.visits)::int AS visits,
           sum(x.spend)::int8 AS spend
         FROM other x GROUP BY x.local_day
       )
       SELECT (SELECT count(*)::int FROM base) AS shoppers,
         (SELECT count(DISTINCT member_id)::int FROM other) AS shared,
         (SELECT json_agg(json_build_object('date', to_char(g, 'YYYY-MM-DD'), 'shoppers', coalesce(d.shoppers, 0),
                   'visits', coalesce(d.visits, 0), 'spend', coalesce(d.spend, 0)) ORDER BY g)
          FROM generate_series(${start}::timestamp, ${end}::timestamp, interval '1 day') g
          LEFT JOIN days d ON d.local_day = g::date) AS daily`,
      params.values,
    ),
  ]);
  if (!outlet || !other || outlet.mall_id !== other.mall_id || outlet.outlet_id === other.outlet_id) return undefined;
  const row = result.rows[0];
  return {
    outlet,
    other_outlet: other,
    shoppers: row?.shoppers ?? 0,
    shared_shoppers: row?.shared ?? 0,
    daily: (row?.daily ?? []).map((day) => ({ ...day, spend: money(day.spend) })),
  };
}
