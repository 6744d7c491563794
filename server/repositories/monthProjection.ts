/**
 * The month so far of the outlets whose month is still open, and its projection to the month's end, as the breakeven
 * page and the rent statements show them: the complete days so far plus, for each day left (today included), the
 * average of the same weekday over the four weeks before the outlet's today (each weekday occurs four times there;
 * a day without sales has no rollup row and counts as zero).
 *
 * SQL of CTEs to put in a WITH that already has `bounds` (first, last: the month's days) and `open` (outlet_id,
 * today: each outlet whose month is open, and its mall's today); they end in `open_figures` (outlet_id; gto, the
 * sales of the month's days; so_far, those of its days before today; rest, the days left projected). `client` is the
 * client id's parameter. Sum of the weekday averages times the days left is one pass over the outlets' days: the sum
 * of each day's sales times the days left of its weekday, over four.
 */
export function openMonthFiguresSql(client: string): string {
  return `days_left AS (
       SELECT t.today, extract(isodow FROM d)::int AS dow, count(*) AS days
       FROM (SELECT DISTINCT today FROM open) t, bounds b, generate_series(t.today, b.last, interval '1 day') d
       GROUP BY 1, 2
     ),
     open_days AS (
       SELECT r.outlet_id, r.local_day, r.gmv, o.today
       FROM rollup_outlet_daily r JOIN open o ON o.outlet_id = r.outlet_id
       -- The index bounds as values worked out once (InitPlans), so that the scan reads only these days.
       WHERE r.client_id = ${client} AND r.outlet_id = ANY(ARRAY(SELECT outlet_id FROM open))
         AND r.local_day >= (SELECT least(b.first, min(t.today) - 28) FROM bounds b, open t GROUP BY b.first)
         AND r.local_day <= (SELECT last FROM bounds)
         AND r.local_day >= least((SELECT first FROM bounds), o.today - 28)
     ),
     open_figures AS (
       SELECT x.outlet_id,
         sum(x.gmv) FILTER (WHERE x.local_day >= b.first) AS gto,
         sum(x.gmv) FILTER (WHERE x.local_day >= b.first AND x.local_day < x.today) AS so_far,
         sum(x.gmv * coalesce(w.days, 0)) FILTER (WHERE x.local_day >= x.today - 28 AND x.local_day < x.today) / 4
           AS rest
       FROM open_days x CROSS JOIN bounds b
       LEFT JOIN days_left w ON w.today = x.today AND w.dow = extract(isodow FROM x.local_day)::int
       GROUP BY 1
     )`;
}
