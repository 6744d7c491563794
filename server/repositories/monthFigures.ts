import { inTransaction, type Pool } from '../db/pool.js';

/**
 * The month's sales of each outlet, as the breakeven page and the rent statements show them; while the month is
 * still open, also its month so far and its projection to the month's end: the complete days so far plus, for each
 * day left (today included), the average of the same weekday over the four weeks before the outlet's today (each
 * weekday occurs four times there; a day without sales has no rollup row and counts as zero).
 *
 * The days left, n = 7k + r of them, hold k of every weekday and one more of the r weekdays from today's on; so the
 * sum of the weekday averages times their days left is (k × the four weeks' sales + the sales of those r weekdays in
 * the four weeks) / 4: plain arithmetic on each day, no table of weekdays to join. Each outlet is one index range
 * read and summed in place (a lateral aggregate), not a scan of every outlet's days joined, sorted and grouped
 * afterwards: 18 to 8 ms for 300 outlets.
 *
 * The days before today are over, so what they give (so_far and rest) is kept in month_projections, one row an outlet
 * and today (migration 056), by the month-projections job (fillMonthProjections, every minute); an open outlet with
 * its today's row there is read in two probes (that row, and its month's row of rollup_outlet_monthly for the
 * month's sales, today's included), one without it from its days as above. Both give the same figures.
 */

/**
 * A lateral subquery (alias f: gto, so_far, rest) of one outlet's figures from its days: `outlet` and `today` are SQL
 * of the outlet's id and today, `first` and `last` of the month's days, `client` the client id's parameter.
 */
function dayFiguresSql(client: string, outlet: string, today: string, first: string, last: string): string {
  const inWeeks = `r.local_day < ${today} AND r.local_day >= ${today} - 28`;
  return `LATERAL (
         SELECT sum(r.gmv) FILTER (WHERE r.local_day >= ${first}) AS gto,
           sum(r.gmv) FILTER (WHERE r.local_day >= ${first} AND r.local_day < ${today}) AS so_far,
           ((${last} - ${today} + 1) / 7 * sum(r.gmv) FILTER (WHERE ${inWeeks})
             + coalesce(sum(r.gmv) FILTER (WHERE ${inWeeks}
                 AND (r.local_day - ${today} + 28) % 7 < (${last} - ${today} + 1) % 7), 0)) / 4 AS rest
         FROM rollup_outlet_daily r
         WHERE r.client_id = ${client} AND r.outlet_id = ${outlet}
           AND r.local_day >= least(${first}, ${today} - 28) AND r.local_day <= ${last}
       ) f`;
}

/**
 * SQL of CTEs to put in a WITH that already has `bounds` (first, last: the month's days) and `open` (outlet_id,
 * today: each outlet whose month is open, and its mall's today); they end in `figures`, one row an outlet (outlet_id;
 * gto, the sales of the month's days; so_far, those of its days before today and rest, the days left projected, both
 * null when the month is over or, rest, without a day in the four weeks). `client` and `month` are the client id's
 * and the month's parameters; `closedOutlets`, a SELECT of the ids of the outlets whose month is over, read from their
 * month rows (rollup_outlet_monthly, the sum of their days).
 */
export function monthFiguresSql({
  client,
  month,
  closedOutlets,
}: {
  client: string;
  month: string;
  closedOutlets: string;
}): string {
  return `open_kept AS MATERIALIZED (
       SELECT o.outlet_id, o.today, p.so_far, p.rest, p.outlet_id IS NOT NULL AS kept FROM open o
       LEFT JOIN month_projections p ON p.client_id = ${client} AND p.outlet_id = o.outlet_id AND p.today = o.today
     ),
     -- The days are read only for the open outlets without their row kept: a filter on open_kept, not an anti-join
     -- of the open outlets with the kept ones, which the planner (guessing a row each) put after the days' reads of
     -- every open outlet, kept or not: the rent statements' kept October took longer than the one from the days.
     open_figures AS (
       SELECT o.outlet_id, f.gto, f.so_far, f.rest
       FROM open_kept o CROSS JOIN bounds b
       CROSS JOIN ${dayFiguresSql(client, 'o.outlet_id', 'o.today', 'b.first', 'b.last')}
       WHERE NOT o.kept
     ),
     -- The three parts hold each outlet once (an open outlet with its row kept, without it, a closed one): appended,
     -- not joined to each other (the planner cannot tell how many outlets each holds, and a nested loop over parts it
     -- guessed at a few rows compared every pair: 40 ms for 1,000 outlets). A kept outlet's month row is one probe.
     figures AS (
       SELECT outlet_id, gto, so_far, rest FROM open_figures
       UNION ALL
       SELECT k.outlet_id, r.gmv, k.so_far, k.rest FROM open_kept k
       LEFT JOIN rollup_outlet_monthly r ON r.client_id = ${client} AND r.outlet_id = k.outlet_id AND r.month = ${month}
       WHERE k.kept
       UNION ALL
       SELECT r.outlet_id, r.gmv, NULL, NULL FROM rollup_outlet_monthly r
       WHERE r.client_id = ${client} AND r.month = ${month} AND r.outlet_id = ANY(ARRAY(${closedOutlets}))
     )`;
}

/**
 * The month-projections job: stores the so_far and rest of every outlet (at most `limit`, lowest ids first) that has
 * no row for its mall's today, and removes those outlets' rows of other days; answers how many it stored. The
 * outlets are locked FOR SHARE first, skipping those a batch of receipts holds (it may be writing their days: the
 * next run takes them), and their days are read by the next statement, which sees every batch committed before the
 * lock; a batch that comes later waits for this transaction, and its change of a past day removes the row stored.
 */
export async function fillMonthProjections(pool: Pool, options: { limit?: number } = {}): Promise<number> {
  return inTransaction(pool, async (db) => {
    const { rows: locked } = await db.query<{ client_id: number; outlet_id: number; today: string }>(
      `SELECT o.client_id, o.id AS outlet_id, to_char(d.today, 'YYYY-MM-DD') AS today
       FROM outlets o JOIN malls m ON m.client_id = o.client_id AND m.id = o.mall_id
       CROSS JOIN LATERAL (SELECT (now() AT TIME ZONE m.time_zone)::date AS today OFFSET 0) d
       WHERE NOT EXISTS (
         SELECT FROM month_projections p WHERE p.client_id = o.client_id AND p.outlet_id = o.id AND p.today = d.today
       )
       ORDER BY o.client_id, o.id LIMIT $1
       FOR SHARE OF o SKIP LOCKED`,
      [options.limit ?? 10_000],
    );
    if (locked.length > 0) {
      const ids = [
        locked.map((row) => row.client_id),
        locked.map((row) => row.outlet_id),
        locked.map((row) => row.today),
      ];
      await db.query(
        `WITH o AS (
           SELECT u.client_id, u.outlet_id, u.today, date_trunc('month', u.today)::date AS first,
                  (date_trunc('month', u.today) + interval '1 month' - interval '1 day')::date AS last
           FROM unnest($1::int[], $2::int[], $3::date[]) AS u(client_id, outlet_id, today)
         )
         INSERT INTO month_projections (client_id, outlet_id, today, so_far, rest)
         SELECT o.client_id, o.outlet_id, o.today, f.so_far, f.rest
         FROM o CROSS JOIN ${dayFiguresSql('o.client_id', 'o.outlet_id', 'o.today', 'o.first', 'o.last')}
         ON CONFLICT (client_id, outlet_id, today) DO UPDATE SET so_far = excluded.so_far, rest = excluded.rest`,
        ids,
      );
      await db.query(
        `DELETE FROM month_projections p
         USING unnest($1::int[], $2::int[], $3::date[]) AS u(client_id, outlet_id, today)
         WHERE p.client_id = u.client_id AND p.outlet_id = u.outlet_id AND p.today <> u.today`,
        ids,
      );
    }
    return locked.length;
  });
}
