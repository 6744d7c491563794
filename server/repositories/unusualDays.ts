import { BASELINE_WEEKS } from '../../src/domain/unusualDays.js';
import type { Queryable } from '../db/pool.js';

/**
 * Unusual days (issue 34): what the daily summary reads to judge a mall day's outlets and the mall itself against the
 * same weekday of the last BASELINE_WEEKS weeks (the rule: src/domain/unusualDays.ts). From the rollups, never the
 * receipts: an outlet's days from rollup_outlet_daily (a day without a row had no sales: 0), a mall's from
 * rollup_mall_daily (migration 036). GMV is read in cents, so the medians of money are exact.
 *
 * Left out of a baseline: the days of a festival or public holiday of the mall's country in the client's calendar
 * (calendar_entries; school holidays are weeks long and stay in), the outlet's declared non-trading days
 * (non_trading_days), and the days before its first (its opening day, else the start of its first trading run; a
 * mall's first day of sales). An outlet not open yet on the day is not read; one that declared the day non-trading is
 * read with `nonTrading` and is not judged.
 */

/** The client's rule (clients.unusual_day_threshold, unusual_day_min_baseline). */
interface RuleColumns {
  threshold: number;
  minBaselineDays: number;
}

/** A day of an outlet or a mall and the values of its usable baseline days, oldest first. */
export interface DayAgainstBaseline extends RuleColumns {
  clientId: number;
  mallId: number;
  mallName: string;
  /** The currency of the GMV (the outlet's, or the mall's): never added to another's. */
  currency: string;
  gmvCents: number;
  transactions: number;
  baselineGmvCents: number[];
  baselineTransactions: number[];
  /** The name of the festival or public holiday of the mall's country the day is, null when none. */
  holiday: string | null;
}

export interface OutletDayAgainstBaseline extends DayAgainstBaseline {
  outletId: number;
  outletName: string;
  /** The outlet declared the day non-trading. */
  nonTrading: boolean;
}

export type MallDayAgainstBaseline = DayAgainstBaseline;

/** The malls of one summary day. */
type MallKeys = readonly { clientId: number; mallId: number }[];

const params = (day: string, malls: MallKeys) => [
  malls.map((mall) => mall.clientId),
  malls.map((mall) => mall.mallId),
  day,
  BASELINE_WEEKS,
];

/**
 * The malls of $1/$2 with their client's rule ("target"), the baseline's days ("weeks": $3 less 1..$4 weeks) and the
 * festivals and public holidays of the malls' countries on those days and $3 ("holidays"), one name a day.
 */
const COMMON = `target AS MATERIALIZED (
    SELECT m.client_id, m.id AS mall_id, m.name AS mall_name, m.country, m.currency,
      c.unusual_day_threshold::float8 AS threshold, c.unusual_day_min_baseline::int AS min_baseline
    FROM unnest($1::int[], $2::int[]) AS k(client_id, mall_id)
    JOIN malls m ON m.client_id = k.client_id AND m.id = k.mall_id
    JOIN clients c ON c.id = m.client_id
  ),
  weeks AS MATERIALIZED (SELECT ($3::date - 7 * w)::date AS day FROM generate_series(1, $4::int) w),
  holidays AS MATERIALIZED (
    SELECT DISTINCT ON (e.client_id, e.country, d.day) e.client_id, e.country, d.day, e.name
    FROM (SELECT DISTINCT client_id, country FROM target) t
    JOIN calendar_entries e ON e.client_id = t.client_id AND e.country = t.country
    JOIN (SELECT day FROM weeks UNION ALL SELECT $3::date) d ON d.day BETWEEN e.start_date AND e.end_date
    WHERE e.kind IN ('festival', 'public_holiday') AND e.start_date <= $3::date
      AND e.end_date >= $3::date - 7 * $4::int
    ORDER BY e.client_id, e.country, d.day, e.kind, e.name
  )`;

const RULE_AND_MALL = `t.client_id AS "clientId", t.mall_id AS "mallId", t.mall_name AS "mallName",
  t.threshold, t.min_baseline AS "minBaselineDays",
  (SELECT h.name FROM holidays h WHERE h.client_id = t.client_id AND h.country = t.country AND h.day = $3::date)
    AS holiday`;

const BASELINE_ARRAYS = `coalesce(b.gmv, '{}') AS "baselineGmvCents",
  coalesce(b.transactions, '{}') AS "baselineTransactions"`;

/** Every outlet of `malls` open on `day`, against its baseline, in mall and outlet order. */
export async function outletDaysAgainstBaseline(
  db: Queryable,
  day: string,
  malls: MallKeys,
): Promise<OutletDayAgainstBaseline[]> {
  if (malls.length === 0) return [];
  const { rows } = await db.query<OutletDayAgainstBaseline>(
    `WITH ${COMMON}
     SELECT ${RULE_AND_MALL}, o.id AS "outletId", o.name AS "outletName", o.currency,
       round(coalesce(y.gmv, 0) * 100)::float8 AS "gmvCents", coalesce(y.transactions, 0)::int AS transactions,
       EXISTS (SELECT 1 FROM non_trading_days n
               WHERE n.client_id = o.client_id AND n.outlet_id = o.id AND n.day = $3::date) AS "nonTrading",
       ${BASELINE_ARRAYS}
     FROM target t
     JOIN outlets o ON o.client_id = t.client_id AND o.mall_id = t.mall_id
     CROSS JOIN LATERAL (
       SELECT coalesce(o.opened_on, (SELECT min(r.start_day) FROM outlet_trading_runs r
                                     WHERE r.client_id = o.client_id AND r.outlet_id = o.id)) AS day
     ) fd
     LEFT JOIN rollup_outlet_daily y ON y.client_id = o.client_id AND y.outlet_id = o.id AND y.local_day = $3::date
     LEFT JOIN LATERAL (
       SELECT array_agg(round(coalesce(r.gmv, 0) * 100)::float8 ORDER BY w.day) AS gmv,
         array_agg(coalesce(r.transactions, 0)::int ORDER BY w.day) AS transactions
       FROM weeks w
       LEFT JOIN (
         SELECT d.local_day, d.gmv, d.transactions FROM rollup_outlet_daily d
         WHERE d.client_id = o.client_id AND d.outlet_id = o.id
           AND d.local_day BETWEEN $3::date - 7 * $4::int AND $3::date - 7
         OFFSET 0
       ) r ON r.local_day = w.day
       WHERE w.day >= fd.day
         AND NOT EXISTS (SELECT 1 FROM non_trading_days n
                         WHERE n.client_id = o.client_id AND n.outlet_id = o.id AND n.day = w.day)
         AND NOT EXISTS (SELECT 1 FROM holidays h
                         WHERE h.client_id = t.client_id AND h.country = t.country AND h.day = w.day)
     ) b ON true
     WHERE o.opened_on IS NULL OR o.opened_on <= $3::date
     ORDER BY t.client_id, lower(t.mall_name), t.mall_id, lower(o.name), o.id`,
    params(day, malls),
  );
  return rows;
}

/** Every mall of `malls` on `day` (all of its outlets), against its baseline, in mall order. */
export async function mallDaysAgainstBaseline(
  db: Queryable,
  day: string,
  malls: MallKeys,
): Promise<MallDayAgainstBaseline[]> {
  if (malls.length === 0) return [];
  const { rows } = await db.query<MallDayAgainstBaseline>(
    `WITH ${COMMON}
     SELECT ${RULE_AND_MALL}, t.currency,
       round(coalesce(y.gmv, 0) * 100)::float8 AS "gmvCents", coalesce(y.transactions, 0)::float8 AS transactions,
       ${BASELINE_ARRAYS}
     FROM target t
     CROSS JOIN LATERAL (
       SELECT min(d.local_day) AS day FROM rollup_mall_daily d WHERE d.client_id = t.client_id AND d.mall_id = t.mall_id
     ) fd
     LEFT JOIN rollup_mall_daily y ON y.client_id = t.client_id AND y.mall_id = t.mall_id AND y.local_day = $3::date
     LEFT JOIN LATERAL (
       SELECT array_agg(round(coalesce(r.gmv, 0) * 100)::float8 ORDER BY w.day) AS gmv,
         array_agg(coalesce(r.transactions, 0)::float8 ORDER BY w.day) AS transactions
       FROM weeks w
       LEFT JOIN rollup_mall_daily r ON r.client_id = t.client_id AND r.mall_id = t.mall_id AND r.local_day = w.day
       WHERE w.day >= fd.day
         AND NOT EXISTS (SELECT 1 FROM holidays h
                         WHERE h.client_id = t.client_id AND h.country = t.country AND h.day = w.day)
     ) b ON true
     ORDER BY t.client_id, lower(t.mall_name), t.mall_id`,
    params(day, malls),
  );
  return rows;
}
