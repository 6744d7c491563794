import { groupPaymentMethods, type PaymentMethodSum } from '../../src/domain/reports.js';
import type { Queryable } from '../db/pool.js';
import type { Visibility } from './lookup.js';

/**
 * Mall reports (§7 /api/mall_report/*). Every figure comes from the rollups that ingestion keeps (never from
 * receipts): rollup_outlet_daily when the hours are the whole day, rollup_outlet_hourly when an hour filter
 * applies (or the buckets are hours), rollup_outlet_payment_daily for payment methods. The rollups' hours and
 * days are already each mall's local time, so filtering and bucketing by local day and hour needs no time zone
 * here. Every query is scoped to the client, the selected malls and the outlets the caller may see.
 *
 * Measures: gmv and transactions as the rollups define them (non-void receipts); members from member_gmv and
 * member_transactions, non-members as the difference; average transaction value = gmv / transactions rounded
 * to 2 decimals (0 without transactions).
 */

export type Metric = 'gmv' | 'transactions' | 'average_transaction_value';
export type TimeRange = 'hourly' | 'daily' | 'weekly' | 'monthly';
export type GroupBy = 'outlet' | 'mall' | 'category' | 'level';

/** Which outlets a report covers: the caller's visible outlets of the client in the selected malls (or one outlet). */
export interface ReportScope {
  clientId: number;
  visibility: Visibility;
  mallIds?: number[];
  outletId?: number;
}

/** Local days, both included, and local hours of the day, both included. */
export interface ReportRange {
  start: string;
  end: string;
  startHour: number;
  endHour: number;
}

export interface SalesMeasures {
  gmv: number;
  transactions: number;
  average_transaction_value: number;
}

export const isWholeDay = (range: Pick<ReportRange, 'startHour' | 'endHour'>) =>
  range.startHour === 0 && range.endHour === 23;

/** Positional parameters of one statement. */
class Params {
  readonly values: unknown[] = [];
  add(value: unknown, cast = ''): string {
    this.values.push(value);
    return `$${this.values.length}${cast}`;
  }
}

/** 'HH:00:00' of an hour of the day. */
const hourTime = (hour: number) => `${String(hour).padStart(2, '0')}:00:00`;

/** The `scope` CTE: the outlets of the report, with what the groupings need. */
function scopeCte(params: Params, scope: ReportScope): string {
  const client = params.add(scope.clientId, '::int');
  const limited = scope.visibility.outletLimits.get(scope.clientId);
  const conditions = [`o.client_id = ${client}`];
  if (!scope.visibility.clientIds.includes(scope.clientId)) conditions.push('false');
  if (limited) conditions.push(`o.id = ANY(${params.add(limited, '::int[]')})`);
  if (scope.mallIds) conditions.push(`o.mall_id = ANY(${params.add(scope.mallIds, '::int[]')})`);
  if (scope.outletId !== undefined) conditions.push(`o.id = ${params.add(scope.outletId, '::int')}`);
  return `scope AS MATERIALIZED (
    SELECT o.id, o.name, o.mall_id, m.name AS mall_name, o.category, o.level
    FROM outlets o JOIN malls m ON m.client_id = o.client_id AND m.id = o.mall_id
    WHERE ${conditions.join(' AND ')}
  )`;
}

interface Source {
  /** FROM and WHERE over rollup rows `r` of the scope's outlets in the range (and hours). */
  from: string;
  /** The row's local time as a timestamp (midnight for daily rows). */
  time: string;
  hourly: boolean;
}

/**
 * The rollup to read: the daily one for whole days (unless `needHours`), else the hourly one with the hour
 * filter. `r.outlet_id = ANY(ARRAY(...))` keeps the primary-key index scans per outlet.
 */
function rollupSource(params: Params, scope: ReportScope, range: ReportRange, needHours = false): Source {
  const client = params.add(scope.clientId, '::int');
  const start = params.add(range.start, '::date');
  const end = params.add(range.end, '::date');
  const outlets = 'r.outlet_id = ANY(ARRAY(SELECT id FROM scope))';
  if (isWholeDay(range) && !needHours) {
    return {
      from: `rollup_outlet_daily r WHERE r.client_id = ${client} AND ${outlets} AND r.local_day BETWEEN ${start} AND ${end}`,
      time: 'r.local_day::timestamp',
      hourly: false,
    };
  }
  // A time comparison (8-byte integers) is much cheaper per row than extract(), which returns numeric.
  const hours = isWholeDay(range)
    ? ''
    : ` AND r.local_hour::time BETWEEN ${params.add(hourTime(range.startHour), '::time')} AND ${params.add(hourTime(range.endHour), '::time')}`;
  return {
    from: `rollup_outlet_hourly r WHERE r.client_id = ${client} AND ${outlets}
      AND r.local_hour >= ${start} AND r.local_hour < ${end} + 1${hours}`,
    time: 'r.local_hour',
    hourly: true,
  };
}

/** SQL of the three measures over sums `g` (gmv) and `t` (transactions). */
const measures = (g: string, t: string) =>
  `coalesce(${g}, 0)::float8 AS gmv, coalesce(${t}, 0)::int AS transactions,
   coalesce(round(${g} / nullif(${t}, 0), 2), 0)::float8 AS average_transaction_value`;

/** One metric over sums `g` and `t`. */
function metricSql(metric: Metric, g: string, t: string): string {
  if (metric === 'gmv') return `coalesce(${g}, 0)::float8`;
  if (metric === 'transactions') return `coalesce(${t}, 0)::float8`;
  return `coalesce(round(${g} / nullif(${t}, 0), 2), 0)::float8`;
}

const ORDER_BY_METRIC: Record<Metric, string> = {
  gmv: 'gmv DESC',
  transactions: 'transactions DESC',
  average_transaction_value: 'average_transaction_value DESC',
};

/** The start of a bucket of a local timestamp expression (a cheap grouping key: formatting comes after). */
function bucketKey(timeRange: TimeRange, time: string): string {
  if (timeRange === 'hourly') return `date_trunc('hour', ${time})`;
  if (timeRange === 'daily') return `date_trunc('day', ${time})`;
  return timeRange === 'weekly' ? `date_trunc('week', ${time})` : `date_trunc('month', ${time})`;
}

/** A bucket's label from its start: 'YYYY-MM-DD HH:00', 'YYYY-MM-DD' (days, weeks from Monday) or 'YYYY-MM'. */
function bucketLabel(timeRange: TimeRange, start: string): string {
  if (timeRange === 'hourly') return `to_char(${start}, 'YYYY-MM-DD HH24:00')`;
  return timeRange === 'monthly' ? `to_char(${start}, 'YYYY-MM')` : `to_char(${start}, 'YYYY-MM-DD')`;
}

/** Every local hour (or day) of the range as `g`, for the zero rows of a series. */
function seriesSql(params: Params, range: ReportRange, hourly: boolean): string {
  const start = params.add(range.start, '::date');
  const end = params.add(range.end, '::date');
  if (!hourly) return `generate_series(${start}::timestamp, ${end}::timestamp, interval '1 day') g`;
  const from = params.add(range.startHour, '::int');
  const to = params.add(range.endHour, '::int');
  return `generate_series(${start}::timestamp, ${end}::timestamp + interval '23 hours', interval '1 hour') g
    WHERE extract(hour FROM g) BETWEEN ${from} AND ${to}`;
}

// ------------------------------------------------------------------ series

export interface DailyRow {
  date: string;
  gmv: number;
  transactions: number;
}

/** One row per local day of the range (zeros included), oldest first. */
export async function dailyReport(db: Queryable, scope: ReportScope, range: ReportRange): Promise<DailyRow[]> {
  const params = new Params();
  const cte = scopeCte(params, scope);
  const source = rollupSource(params, scope, range);
  const series = seriesSql(params, { ...range, startHour: 0, endHour: 23 }, false);
  const { rows } = await db.query<DailyRow>(
    `WITH ${cte},
     agg AS (SELECT ${source.time}::date AS day, sum(r.gmv) AS gmv, sum(r.transactions) AS transactions
             FROM ${source.from} GROUP BY 1)
     SELECT to_char(g, 'YYYY-MM-DD') AS date, coalesce(a.gmv, 0)::float8 AS gmv, coalesce(a.transactions, 0)::int AS transactions
     FROM ${series} LEFT JOIN agg a ON a.day = g::date ORDER BY g`,
    params.values,
  );
  return rows;
}

export interface MonthlyRow {
  month: string;
  gmv: number;
  transactions: number;
}

/** One row per month the range touches (zeros included), oldest first; whole days read the daily rollup. */
export async function monthlyReport(db: Queryable, scope: ReportScope, range: ReportRange): Promise<MonthlyRow[]> {
  const params = new Params();
  const cte = scopeCte(params, scope);
  const source = rollupSource(params, scope, range);
  const start = params.add(range.start, '::date');
  const end = params.add(range.end, '::date');
  const { rows } = await db.query<MonthlyRow>(
    `WITH ${cte},
     agg AS (SELECT date_trunc('month', ${source.time}) AS month, sum(r.gmv) AS gmv, sum(r.transactions) AS transactions
             FROM ${source.from} GROUP BY 1)
     SELECT to_char(g, 'YYYY-MM') AS month, coalesce(a.gmv, 0)::float8 AS gmv, coalesce(a.transactions, 0)::int AS transactions
     FROM generate_series(date_trunc('month', ${start}::timestamp), ${end}::timestamp, interval '1 month') g
     LEFT JOIN agg a ON a.month = g ORDER BY g`,
    params.values,
  );
  return rows;
}

export interface MemberOverall {
  data: { period: string; member: number; non_member: number }[];
  total: { member: number; non_member: number };
}

/** Members against non-members per bucket (zeros included), oldest first, and over the whole range. */
export async function memberOverall(
  db: Queryable,
  scope: ReportScope,
  range: ReportRange,
  timeRange: TimeRange,
  metric: Metric,
): Promise<MemberOverall> {
  const params = new Params();
  const cte = scopeCte(params, scope);
  const source = rollupSource(params, scope, range, timeRange === 'hourly');
  const series = seriesSql(params, range, source.hourly);
  const member = metricSql(metric, 'sum(mg)', 'sum(mt)');
  const nonMember = metricSql(metric, 'sum(ng)', 'sum(nt)');
  const { rows } = await db.query<{ period: string | null; member: number; non_member: number }>(
    `WITH ${cte},
     agg AS (SELECT ${bucketKey(timeRange, source.time)} AS period, sum(r.member_gmv) AS mg, sum(r.member_transactions) AS mt,
               sum(r.gmv - r.member_gmv) AS ng, sum(r.transactions - r.member_transactions) AS nt
             FROM ${source.from} GROUP BY 1),
     periods AS (SELECT DISTINCT ${bucketKey(timeRange, 'g')} AS period FROM ${series})
     SELECT ${bucketLabel(timeRange, 'p.period')} AS period, ${member} AS member, ${nonMember} AS non_member
     FROM periods p LEFT JOIN agg a ON a.period = p.period GROUP BY p.period
     UNION ALL
     SELECT NULL, ${member}, ${nonMember} FROM agg
     ORDER BY 1 NULLS LAST`,
    params.values,
  );
  const total = rows.find((row) => row.period === null);
  return {
    data: rows.flatMap((row) => (row.period === null ? [] : [{ period: row.period, member: row.member, non_member: row.non_member }])),
    total: { member: total?.member ?? 0, non_member: total?.non_member ?? 0 },
  };
}

export interface PeakHourRow {
  period: string;
  hour: number;
  value: number;
}

/** The metric per period and local hour of day: every period of the range × every hour of the filter. */
export async function peakHours(
  db: Queryable,
  scope: ReportScope,
  range: ReportRange,
  timeRange: TimeRange,
  metric: Metric,
): Promise<PeakHourRow[]> {
  const params = new Params();
  const cte = scopeCte(params, scope);
  const source = rollupSource(params, scope, range, true);
  const series = seriesSql(params, range, true);
  const bucketRange: TimeRange = timeRange === 'hourly' ? 'daily' : timeRange;
  const { rows } = await db.query<PeakHourRow>(
    `WITH ${cte},
     agg AS (SELECT ${bucketKey(bucketRange, source.time)} AS period, r.local_hour::time AS hour,
               sum(r.gmv) AS g, sum(r.transactions) AS t
             FROM ${source.from} GROUP BY 1, 2),
     cells AS (SELECT DISTINCT ${bucketKey(bucketRange, 'g')} AS period, g::time AS hour FROM ${series})
     SELECT ${bucketLabel(bucketRange, 'c.period')} AS period, extract(hour FROM c.hour)::int AS hour,
       ${metricSql(metric, 'a.g', 'a.t')} AS value
     FROM cells c LEFT JOIN agg a ON a.period = c.period AND a.hour = c.hour
     ORDER BY c.period, c.hour`,
    params.values,
  );
  return rows;
}

// ------------------------------------------------------------------ rankings and groupings

export interface MallRankRow extends SalesMeasures {
  mall_id: number;
  mall_name: string;
}

/** One row per selected mall (zeros included), best first by `rankBy`, then by name. */
export async function mallRanking(db: Queryable, scope: ReportScope, range: ReportRange, rankBy: Metric): Promise<MallRankRow[]> {
  const params = new Params();
  const cte = scopeCte(params, scope);
  const source = rollupSource(params, scope, range);
  const { rows } = await db.query<MallRankRow>(
    `WITH ${cte},
     agg AS (SELECT r.outlet_id, sum(r.gmv) AS g, sum(r.transactions) AS t FROM ${source.from} GROUP BY 1)
     SELECT s.mall_id, s.mall_name, ${measures('sum(a.g)', 'sum(a.t)')}
     FROM scope s LEFT JOIN agg a ON a.outlet_id = s.id
     GROUP BY s.mall_id, s.mall_name
     ORDER BY ${ORDER_BY_METRIC[rankBy]}, lower(s.mall_name), s.mall_id`,
    params.values,
  );
  return rows;
}

export interface GroupRow extends SalesMeasures {
  key: string;
  name: string;
}

const GROUP_COLUMNS: Record<GroupBy, { key: string; name: string }> = {
  outlet: { key: 's.id::text', name: 's.name' },
  mall: { key: 's.mall_id::text', name: 's.mall_name' },
  category: { key: 's.category', name: 's.category' },
  level: { key: 's.level', name: 's.level' },
};

/** GMV and transactions per group with sales in the range, GMV descending, then by name. */
export async function groupReport(db: Queryable, scope: ReportScope, range: ReportRange, groupBy: GroupBy): Promise<GroupRow[]> {
  const params = new Params();
  const cte = scopeCte(params, scope);
  const source = rollupSource(params, scope, range);
  const { key, name } = GROUP_COLUMNS[groupBy];
  const { rows } = await db.query<GroupRow>(
    `WITH ${cte},
     agg AS (SELECT r.outlet_id, sum(r.gmv) AS g, sum(r.transactions) AS t FROM ${source.from} GROUP BY 1)
     SELECT ${key} AS key, ${name} AS name, ${measures('sum(a.g)', 'sum(a.t)')}
     FROM scope s JOIN agg a ON a.outlet_id = s.id
     GROUP BY 1, 2
     HAVING sum(a.t) > 0 OR sum(a.g) <> 0
     ORDER BY gmv DESC, lower(${name}), 1`,
    params.values,
  );
  return rows;
}

export interface OutletRankRow extends SalesMeasures {
  outlet_id: number;
  outlet_name: string;
  mall_id: number;
  mall_name: string;
}

/** The top `limit` outlets by member (or non-member) sales in the range, best first; outlets without such sales left out. */
export async function memberOutletRanking(
  db: Queryable,
  scope: ReportScope,
  range: ReportRange,
  options: { member: boolean; rankBy: Metric; limit: number },
): Promise<OutletRankRow[]> {
  const params = new Params();
  const cte = scopeCte(params, scope);
  const source = rollupSource(params, scope, range);
  const [g, t] = options.member
    ? ['sum(r.member_gmv)', 'sum(r.member_transactions)']
    : ['sum(r.gmv - r.member_gmv)', 'sum(r.transactions - r.member_transactions)'];
  const limit = params.add(options.limit, '::int');
  const { rows } = await db.query<OutletRankRow>(
    `WITH ${cte},
     agg AS (SELECT r.outlet_id, ${g} AS g, ${t} AS t FROM ${source.from} GROUP BY 1)
     SELECT s.id AS outlet_id, s.name AS outlet_name, s.mall_id, s.mall_name, ${measures('a.g', 'a.t')}
     FROM scope s JOIN agg a ON a.outlet_id = s.id
     WHERE a.t > 0 OR a.g <> 0
     ORDER BY ${ORDER_BY_METRIC[options.rankBy]}, lower(s.name), s.id
     LIMIT ${limit}`,
    params.values,
  );
  return rows;
}

/** Totals of the scope over the range. */
export async function totals(db: Queryable, scope: ReportScope, range: ReportRange): Promise<SalesMeasures> {
  const params = new Params();
  const cte = scopeCte(params, scope);
  const source = rollupSource(params, scope, range);
  const { rows } = await db.query<SalesMeasures>(
    `WITH ${cte} SELECT ${measures('sum(r.gmv)', 'sum(r.transactions)')} FROM ${source.from}`,
    params.values,
  );
  return rows[0] ?? { gmv: 0, transactions: 0, average_transaction_value: 0 };
}

/** The scope's outlet (id, name), or undefined when the caller cannot see it. */
export async function scopeOutlet(db: Queryable, scope: ReportScope): Promise<{ id: number; name: string } | undefined> {
  const params = new Params();
  const cte = scopeCte(params, scope);
  const { rows } = await db.query<{ id: number; name: string }>(`WITH ${cte} SELECT id, name FROM scope`, params.values);
  return rows[0];
}

// ------------------------------------------------------------------ payment methods

/**
 * The top `limit` payment methods of the range by sum, grouped by the §9 rule (upper-cased; empty and NONE in
 * OTHERS, only if non-zero; sum descending). Payments are rolled up by day only: whole days.
 */
export async function paymentMethodOverall(
  db: Queryable,
  scope: ReportScope,
  range: Pick<ReportRange, 'start' | 'end'>,
  limit: number,
): Promise<PaymentMethodSum[]> {
  const params = new Params();
  const cte = scopeCte(params, scope);
  const client = params.add(scope.clientId, '::int');
  const start = params.add(range.start, '::date');
  const end = params.add(range.end, '::date');
  const { rows } = await db.query<PaymentMethodSum>(
    `WITH ${cte}
     SELECT r.payment_method, sum(r.amount)::float8 AS sum
     FROM rollup_outlet_payment_daily r
     WHERE r.client_id = ${client} AND r.outlet_id = ANY(ARRAY(SELECT id FROM scope)) AND r.local_day BETWEEN ${start} AND ${end}
     GROUP BY 1`,
    params.values,
  );
  return groupPaymentMethods(rows).slice(0, limit);
}
