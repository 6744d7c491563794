import type { FestivalDays } from '../../src/domain/comparisons.js';
import { daysInRange, earlierDay } from '../../src/domain/reports.js';
import type { Queryable } from '../db/pool.js';
import { SqlParams } from '../db/sqlParams.js';
import { mallHolidays } from './calendar.js';
import {
  type MallDays,
  mallDaysFilter,
  measures,
  money,
  type ReportRange,
  type ReportScope,
  rollupSource,
  scopeCte,
} from './mallReports.js';

export type { MallDays };

/**
 * Growth comparisons (GET /api/mall_report/growth): the figures of a scope over a list of days per mall (the days a
 * range is compared with may differ by the mall's country and leave gaps), which outlets trade through two
 * periods (like-for-like), and the calendar's festivals of the malls' countries. Read from the same rollups and by
 * the same rules as every mall report (server/repositories/mallReports.ts).
 */

export interface SideFigures {
  has_data: boolean;
  gmv: number;
  transactions: number;
  average_transaction_value: number;
  member_gmv: number;
}

/**
 * GMV, transactions, average transaction value and member GMV of the scope over `days` (each mall its own) in the
 * hours of `hours`; has_data says whether any sale of the scope falls in them.
 */
export async function figuresOverDays(
  db: Queryable,
  scope: ReportScope,
  hours: Pick<ReportRange, 'startHour' | 'endHour'>,
  mallDays: readonly MallDays[],
): Promise<SideFigures> {
  const all = mallDays.flatMap((entry) => entry.days).sort();
  const empty = { has_data: false, gmv: 0, transactions: 0, average_transaction_value: 0, member_gmv: 0 };
  const [first] = all;
  const last = all[all.length - 1];
  if (!first || !last) return empty;
  const range: ReportRange = { start: first, end: last, startHour: hours.startHour, endHour: hours.endHour };
  const params = new SqlParams();
  const cte = scopeCte(params, scope, range);
  const source = rollupSource(params, scope, range, 'mall');
  const days = mallDaysFilter(params, mallDays, source.level);
  const g = `sum(${source.value('gmv')})`;
  const t = `sum(${source.value('transactions')})`;
  const { rows } = await db.query<SideFigures>(
    `WITH ${days.ctes} ${cte}
     SELECT ${measures(money(g), t)}, coalesce(${money(`sum(${source.value('member_gmv')})`)}, 0)::float8 AS member_gmv,
       coalesce(${t}, 0) > 0 OR coalesce(${g}, 0) <> 0 AS has_data
     FROM ${source.from} AND ${days.filter}`,
    params.values,
  );
  return rows[0] ?? empty;
}

/** A side's outlets may be silent for at most this many days in a row (and must sell in its last days). */
export const LIKE_FOR_LIKE_SILENCE_DAYS = 7;

/**
 * The outlets of the scope trading through the whole of both periods: a first sale on or before the start of the
 * earlier, a sale in each period and no run of more than LIKE_FOR_LIKE_SILENCE_DAYS days without a sale in either
 * (counting from the day before each period's start to the day after its end, so an outlet that opens late or
 * stops early fails). From the outlets' trading runs (migration 037), and a period that short from its days.
 */
export async function likeForLikeOutlets(
  db: Queryable,
  scope: ReportScope,
  periods: readonly [{ start: string; end: string }, { start: string; end: string }],
): Promise<{ kept: number[]; leftOut: number[]; total: number }> {
  const params = new SqlParams();
  const cte = scopeCte(params, scope);
  const client = params.add(scope.clientId, '::int');
  const silence = params.add(LIKE_FOR_LIKE_SILENCE_DAYS, '::int');
  const outlets = 'r.outlet_id = ANY(ARRAY(SELECT id FROM scope))';
  // An outlet trading through a period of more than LIKE_FOR_LIKE_SILENCE_DAYS days: one of its trading runs
  // (outlet_trading_runs: trading days no more than that many days without a sale apart) meets the period and
  // reaches from within that many days of its start to within that many days of its end. A run that meets so long a
  // period has a sale in it (no gap that long), and holds all its sales (two runs are further apart). Read in the one
  // pass over the outlets' runs that also finds their first sale.
  const steadyByRuns = ({ start, end }: { start: string; end: string }) => {
    const s = params.add(start, '::date');
    const e = params.add(end, '::date');
    return `coalesce(bool_or(r.start_day <= ${e} AND r.end_day >= ${s}
        AND r.start_day <= ${s} + ${silence} AND r.end_day >= ${e} - ${silence}), false)`;
  };
  // A shorter period from its days: each trading day's gap to the next (or to the day after the end), and the gap
  // from the day before the start to the first, at most LIKE_FOR_LIKE_SILENCE_DAYS. The index gives each outlet's
  // days in order: no sort.
  const steadyByDays = ({ start, end }: { start: string; end: string }) => {
    const s = params.add(start, '::date');
    const e = params.add(end, '::date');
    return `o.id IN (SELECT outlet_id FROM (
        SELECT r.outlet_id, r.local_day,
          coalesce(lead(r.local_day) OVER (PARTITION BY r.outlet_id ORDER BY r.local_day), ${e} + 1) - r.local_day - 1 AS gap
        FROM rollup_outlet_daily r
        WHERE r.client_id = ${client} AND ${outlets} AND r.local_day BETWEEN ${s} AND ${e} AND r.transactions > 0
      ) x GROUP BY outlet_id HAVING max(gap) <= ${silence} AND min(local_day) - ${s} <= ${silence})`;
  };
  const steady = (period: { start: string; end: string }) =>
    daysInRange(period.start, period.end) > LIKE_FOR_LIKE_SILENCE_DAYS ? steadyByRuns(period) : steadyByDays(period);
  const [a, b] = periods;
  const first = params.add(earlierDay(a.start, b.start), '::date');
  const { rows } = await db.query<{ id: number; kept: boolean }>(
    `WITH ${cte},
     runs AS MATERIALIZED (
       SELECT r.outlet_id, r.start_day, r.end_day FROM outlet_trading_runs r WHERE r.client_id = ${client} AND ${outlets}
     )
     SELECT o.id, coalesce(min(r.start_day) <= ${first}, false) AND ${steady(a)} AND ${steady(b)} AS kept
     FROM scope o LEFT JOIN runs r ON r.outlet_id = o.id
     GROUP BY o.id ORDER BY o.id`,
    params.values,
  );
  return {
    kept: rows.filter((row) => row.kept).map((row) => row.id),
    leftOut: rows.filter((row) => !row.kept).map((row) => row.id),
    total: rows.length,
  };
}

/** How far back a festival-aligned comparison looks for last year's festivals. */
export const LAST_YEAR_LOOKBACK_DAYS = 430;

/**
 * The selected malls of each country, with the festivals of the client's calendar for that country in the days
 * (mallHolidays: the calendar as the Calendar page keeps it).
 */
export async function festivalsByCountry(
  db: Queryable,
  clientId: number,
  mallIds: readonly number[],
  range: { start: string; end: string },
): Promise<{ country: string; mallIds: number[]; festivals: FestivalDays[] }[]> {
  // The malls' countries and their calendars (the time charts' holidays of those malls) at once.
  const [{ rows }, entries] = await Promise.all([
    db.query<{ country: string; mall_ids: number[] }>(
      `SELECT country, array_agg(id ORDER BY id) AS mall_ids FROM malls
       WHERE client_id = $1 AND id = ANY($2::int[]) GROUP BY country ORDER BY country`,
      [clientId, mallIds],
    ),
    mallHolidays(db, clientId, mallIds, range.start, range.end),
  ]);
  return rows.map((row) => ({
    country: row.country,
    mallIds: row.mall_ids,
    festivals: entries.flatMap((entry) =>
      entry.country === row.country && entry.festival
        ? [{ festival: entry.festival, name: entry.name, start: entry.start_date, end: entry.end_date }]
        : [],
    ),
  }));
}
