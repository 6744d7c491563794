import type { components, operations } from '../../src/api/schema.js';
import { groupPaymentMethods, type PaymentMethodSum } from '../../src/domain/reports.js';
import type { Queryable } from '../db/pool.js';
import { SqlParams } from '../db/sqlParams.js';
import { hourRowsSql, overHoursSql, PAYMENT_HOUR_MEASURES, SALES_HOUR_MEASURES } from './hourColumns.js';
import type { Visibility } from './lookup.js';

/**
 * Mall reports (§7 /api/mall_report/*). Every figure comes from the rollups that ingestion keeps (never from
 * receipts). Their days and hours are already each mall's local time, so filtering and bucketing by local day
 * and hour needs no time zone here. Every query is scoped to the client, the selected malls and the outlets
 * the caller may see.
 *
 * Which rollup: a caller who sees every outlet of the selected malls reads the mall rows
 * (rollup_mall_day_hours, rollup_mall_payment_day_hours: one row per mall and day); reports by outlet, and
 * callers limited to some outlets, read the outlet rows (rollup_outlet_day_hours, or rollup_outlet_daily for
 * whole days). Day rows carry running totals over the hours of the day (server/repositories/hourColumns.ts),
 * so any hour filter costs two columns a row.
 *
 * Measures: gmv and transactions as the rollups define them (non-void receipts); members from member_gmv and
 * member_transactions, non-members as the difference; average transaction value = gmv / transactions rounded
 * to 2 decimals (0 without transactions).
 */

type Schemas = components['schemas'];

export type Metric = Schemas['Metric'];
export type TimeRange = Schemas['TimeRange'];
export type GroupBy = NonNullable<NonNullable<operations['getMallOutletReport']['parameters']['query']>['group_by']>;

/** Which outlets a report covers: the caller's visible outlets of the client in the selected malls (or one outlet). */
export interface ReportScope {
  clientId: number;
  visibility: Visibility;
  mallIds?: number[];
  outletId?: number;
  /**
   * Amounts of the malls in `from` currencies are converted to `to` (the client's reporting currency) at the rate
   * of their month (exchange_rates) before they are summed; absent when the malls share one currency, whose
   * amounts are summed as they are. The routes check first that no rate a month with sales needs is missing.
   */
  convert?: { to: string; from: readonly string[] };
}

/** Local days, both included, and local hours of the day, both included. */
export interface ReportRange {
  start: string;
  end: string;
  startHour: number;
  endHour: number;
}

export type SalesMeasures = Schemas['SalesMeasures'];

export const isWholeDay = (range: Pick<ReportRange, 'startHour' | 'endHour'>) =>
  range.startHour === 0 && range.endHour === 23;

/**
 * The rates of a converted report (scope.convert): one CTE `fx_<n>` per converted currency, holding its rate for
 * each day of the range (its month's rate) as one array, built once by one join.
 */
function ratesCte(params: SqlParams, scope: ReportScope, range: Pick<ReportRange, 'start' | 'end'>): string {
  const convert = scope.convert;
  if (!convert) return '';
  const client = params.add(scope.clientId, '::int');
  const start = params.add(range.start, '::date');
  const end = params.add(range.end, '::date');
  return convert.from
    .map((code, n) => {
      const currency = params.add(code, '::text');
      return `, fx_${n} AS MATERIALIZED (
        SELECT array_agg(e.rate::float8 ORDER BY d) AS rates
        FROM generate_series(${start}::timestamp, ${end}::timestamp, interval '1 day') d
        LEFT JOIN exchange_rates e ON e.client_id = ${client} AND e.currency = ${currency}
          AND e.month = date_trunc('month', d)::date
      )`;
    })
    .join('');
}

/**
 * The rate of row `r` of a converted report as a float8 expression: for a mall (or outlet) in a converted
 * currency, that currency's rate on the row's day (ratesCte), else 1. The rollup rows are read as they are.
 */
function rateOf(params: SqlParams, scope: ReportScope, range: ReportRange, level: 'mall' | 'outlet'): string {
  const convert = scope.convert;
  if (!convert || convert.from.length === 0) return '1';
  const start = params.add(range.start, '::date');
  const unit = level === 'mall' ? 'mall_id' : 'id';
  const cases = convert.from.map((code, n) => {
    const currency = params.add(code, '::text');
    return `WHEN r.${level}_id IN (SELECT ${unit} FROM scope WHERE currency = ${currency})
      THEN (SELECT rates FROM fx_${n})[r.local_day - ${start} + 1]`;
  });
  return `(CASE ${cases.join(' ')} ELSE 1::float8 END)`;
}

/**
 * The `scope` CTE: the outlets of the report, with what the groupings need and their mall's currency; and the
 * rates of a converted report over `range` (ratesCte).
 */
function scopeCte(params: SqlParams, scope: ReportScope, range?: Pick<ReportRange, 'start' | 'end'>): string {
  const client = params.add(scope.clientId, '::int');
  const limited = scope.visibility.outletLimits.get(scope.clientId);
  const conditions = [`o.client_id = ${client}`];
  if (!scope.visibility.clientIds.includes(scope.clientId)) conditions.push('false');
  if (limited) conditions.push(`o.id = ANY(${params.add(limited, '::int[]')})`);
  if (scope.mallIds) conditions.push(`o.mall_id = ANY(${params.add(scope.mallIds, '::int[]')})`);
  if (scope.outletId !== undefined) conditions.push(`o.id = ${params.add(scope.outletId, '::int')}`);
  return `scope AS MATERIALIZED (
    SELECT o.id, o.name, o.mall_id, m.name AS mall_name, o.category, o.level, m.currency
    FROM outlets o JOIN malls m ON m.client_id = o.client_id AND m.id = o.mall_id
    WHERE ${conditions.join(' AND ')}
  )${range ? ratesCte(params, scope, range) : ''}`;
}

type SalesMeasure = (typeof SALES_HOUR_MEASURES)[number];
const MONEY: Record<SalesMeasure, boolean> = {
  gmv: true,
  transactions: false,
  member_gmv: true,
  member_transactions: false,
};

interface Source {
  /** FROM and WHERE over rollup rows `r` of the scope in the range. */
  from: string;
  /** Rows are per mall (r.mall_id) or per outlet (r.outlet_id). */
  level: 'mall' | 'outlet';
  /** A measure of row `r` over the range's hours, in cents for money (a number). */
  value: (measure: SalesMeasure) => string;
  /** A LATERAL list of the row's hours of the filter, `hv(hour, <measures>)` in cents for money. */
  hours: () => string;
  /** A measure of one of those hours (`hv`), converted like `value`. */
  hourValue: (measure: SalesMeasure) => string;
}

/** Whether the caller sees every outlet of the selected malls, so the mall rows answer for them. */
const wholeMalls = (scope: ReportScope) =>
  scope.outletId === undefined && !scope.visibility.outletLimits.has(scope.clientId);

/**
 * The rollup to read. `level` 'mall' reads the mall rows when the caller sees whole malls (else outlet rows);
 * outlet rows come from rollup_outlet_daily for whole days unless `needHours`, else rollup_outlet_day_hours.
 * `= ANY(ARRAY(...))` keeps the primary-key index scans.
 */
function rollupSource(
  params: SqlParams,
  scope: ReportScope,
  range: ReportRange,
  level: 'mall' | 'outlet',
  needHours = false,
): Source {
  const client = params.add(scope.clientId, '::int');
  const days = `r.local_day BETWEEN ${params.add(range.start, '::date')} AND ${params.add(range.end, '::date')}`;
  const hours = () => hourRowsSql('r', SALES_HOUR_MEASURES, range.startHour, range.endHour, 'hv');
  const overHours = (measure: SalesMeasure) => overHoursSql('r', measure, range.startHour, range.endHour);
  // A converted report multiplies every amount by its row's rate (rateOf); counts stay as they are.
  const rowLevel = level === 'mall' && wholeMalls(scope) ? 'mall' : 'outlet';
  const rate = rateOf(params, scope, range, rowLevel);
  const converted = (value: (measure: SalesMeasure) => string) => (measure: SalesMeasure) =>
    rate !== '1' && MONEY[measure] ? `(${value(measure)} * ${rate})` : value(measure);
  const hourValue = converted((measure) => `hv.${measure}`);
  if (rowLevel === 'mall') {
    return {
      from: `rollup_mall_day_hours r WHERE r.client_id = ${client} AND r.mall_id = ANY(ARRAY(SELECT DISTINCT mall_id FROM scope)) AND ${days}`,
      level: 'mall',
      value: converted(overHours),
      hours,
      hourValue,
    };
  }
  const outlets = 'r.outlet_id = ANY(ARRAY(SELECT id FROM scope))';
  if (isWholeDay(range) && !needHours) {
    return {
      from: `rollup_outlet_daily r WHERE r.client_id = ${client} AND ${outlets} AND ${days}`,
      level: 'outlet',
      value: converted((measure) => (MONEY[measure] ? `(r.${measure} * 100)` : `r.${measure}`)),
      hours,
      hourValue,
    };
  }
  return {
    from: `rollup_outlet_day_hours r WHERE r.client_id = ${client} AND ${outlets} AND ${days}`,
    level: 'outlet',
    value: converted(overHours),
    hours,
    hourValue,
  };
}

/** A sum of cents as money (rounded to the cent: converted sums have fractions of one). */
const money = (cents: string) => `round(((${cents}) / 100.0)::numeric, 2)`;

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
function seriesSql(params: SqlParams, range: ReportRange, hourly: boolean): string {
  const start = params.add(range.start, '::date');
  const end = params.add(range.end, '::date');
  if (!hourly) return `generate_series(${start}::timestamp, ${end}::timestamp, interval '1 day') g`;
  const from = params.add(range.startHour, '::int');
  const to = params.add(range.endHour, '::int');
  return `generate_series(${start}::timestamp, ${end}::timestamp + interval '23 hours', interval '1 hour') g
    WHERE extract(hour FROM g) BETWEEN ${from} AND ${to}`;
}

// ------------------------------------------------------------------ series

export type DailyRow = Schemas['DailyReportRow'];

/** One row per local day of the range (zeros included), oldest first. */
export async function dailyReport(db: Queryable, scope: ReportScope, range: ReportRange): Promise<DailyRow[]> {
  const params = new SqlParams();
  const cte = scopeCte(params, scope, range);
  const source = rollupSource(params, scope, range, 'mall');
  const series = seriesSql(params, { ...range, startHour: 0, endHour: 23 }, false);
  const { rows } = await db.query<DailyRow>(
    `WITH ${cte},
     agg AS (SELECT r.local_day AS day, sum(${source.value('gmv')}) AS gc, sum(${source.value('transactions')}) AS tc
             FROM ${source.from} GROUP BY 1)
     SELECT to_char(g, 'YYYY-MM-DD') AS date, coalesce(${money('a.gc')}, 0)::float8 AS gmv, coalesce(a.tc, 0)::int AS transactions
     FROM ${series} LEFT JOIN agg a ON a.day = g::date ORDER BY g`,
    params.values,
  );
  return rows;
}

export type MonthlyRow = Schemas['MonthlyReportRow'];

/** One row per month the range touches (zeros included), oldest first. */
export async function monthlyReport(db: Queryable, scope: ReportScope, range: ReportRange): Promise<MonthlyRow[]> {
  const params = new SqlParams();
  const cte = scopeCte(params, scope, range);
  const source = rollupSource(params, scope, range, 'mall');
  const start = params.add(range.start, '::date');
  const end = params.add(range.end, '::date');
  const { rows } = await db.query<MonthlyRow>(
    `WITH ${cte},
     agg AS (SELECT date_trunc('month', r.local_day) AS month, sum(${source.value('gmv')}) AS gc, sum(${source.value('transactions')}) AS tc
             FROM ${source.from} GROUP BY 1)
     SELECT to_char(g, 'YYYY-MM') AS month, coalesce(${money('a.gc')}, 0)::float8 AS gmv, coalesce(a.tc, 0)::int AS transactions
     FROM generate_series(date_trunc('month', ${start}::timestamp), ${end}::timestamp, interval '1 month') g
     LEFT JOIN agg a ON a.month = g ORDER BY g`,
    params.values,
  );
  return rows;
}

export type MemberOverall = Schemas['MemberOverallResponse'];

/** Members against non-members per bucket (zeros included), oldest first, and over the whole range. */
export async function memberOverall(
  db: Queryable,
  scope: ReportScope,
  range: ReportRange,
  timeRange: TimeRange,
  metric: Metric,
): Promise<MemberOverall> {
  const params = new SqlParams();
  const cte = scopeCte(params, scope, range);
  const hourly = timeRange === 'hourly';
  const source = rollupSource(params, scope, range, 'mall', hourly);
  const series = seriesSql(params, range, hourly);
  // hourly buckets read each hour of a row; other buckets the row's sums over the hours
  const [from, time, value] = hourly
    ? [
        `${source.from.replace(' WHERE ', `, ${source.hours()} WHERE `)}`,
        `r.local_day + hv.hour * interval '1 hour'`,
        source.hourValue,
      ]
    : [source.from, 'r.local_day::timestamp', source.value];
  const member = metricSql(metric, money('sum(mg)'), 'sum(mt)');
  const nonMember = metricSql(metric, money('sum(g) - sum(mg)'), 'sum(t) - sum(mt)');
  const { rows } = await db.query<{ period: string | null; member: number; non_member: number }>(
    `WITH ${cte},
     agg AS (SELECT ${bucketKey(timeRange, time)} AS period, sum(${value('member_gmv')}) AS mg, sum(${value('member_transactions')}) AS mt,
               sum(${value('gmv')}) AS g, sum(${value('transactions')}) AS t
             FROM ${from} GROUP BY 1),
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
    data: rows.flatMap((row) =>
      row.period === null ? [] : [{ period: row.period, member: row.member, non_member: row.non_member }],
    ),
    total: { member: total?.member ?? 0, non_member: total?.non_member ?? 0 },
  };
}

export type PeakHourRow = Schemas['PeakHourRow'];

/** The metric per period and local hour of day: every period of the range × every hour of the filter. */
export async function peakHours(
  db: Queryable,
  scope: ReportScope,
  range: ReportRange,
  timeRange: TimeRange,
  metric: Metric,
): Promise<PeakHourRow[]> {
  const params = new SqlParams();
  const cte = scopeCte(params, scope, range);
  const source = rollupSource(params, scope, range, 'mall', true);
  const series = seriesSql(params, range, true);
  const bucketRange: TimeRange = timeRange === 'hourly' ? 'daily' : timeRange;
  const { rows } = await db.query<PeakHourRow>(
    `WITH ${cte},
     agg AS (SELECT ${bucketKey(bucketRange, 'r.local_day::timestamp')} AS period, hv.hour, sum(${source.hourValue('gmv')}) AS g, sum(hv.transactions) AS t
             FROM ${source.from.replace(' WHERE ', `, ${source.hours()} WHERE `)} GROUP BY 1, 2),
     cells AS (SELECT DISTINCT ${bucketKey(bucketRange, 'g')} AS period, extract(hour FROM g)::int AS hour FROM ${series})
     SELECT ${bucketLabel(bucketRange, 'c.period')} AS period, c.hour, ${metricSql(metric, money('a.g'), 'a.t')} AS value
     FROM cells c LEFT JOIN agg a ON a.period = c.period AND a.hour = c.hour
     ORDER BY c.period, c.hour`,
    params.values,
  );
  return rows;
}

// ------------------------------------------------------------------ rankings and groupings

export type MallRankRow = Schemas['MallRankRow'];

/** One row per selected mall (zeros included), best first by `rankBy`, then by name. */
export async function mallRanking(
  db: Queryable,
  scope: ReportScope,
  range: ReportRange,
  rankBy: Metric,
): Promise<MallRankRow[]> {
  const params = new SqlParams();
  const cte = scopeCte(params, scope, range);
  const source = rollupSource(params, scope, range, 'mall');
  const mallOf = source.level === 'mall' ? 'r.mall_id' : '(SELECT s.mall_id FROM scope s WHERE s.id = r.outlet_id)';
  const { rows } = await db.query<MallRankRow>(
    `WITH ${cte},
     agg AS (SELECT ${mallOf} AS mall_id, sum(${source.value('gmv')}) AS g, sum(${source.value('transactions')}) AS t
             FROM ${source.from} GROUP BY 1),
     malls AS (SELECT DISTINCT mall_id, mall_name FROM scope)
     SELECT m.mall_id, m.mall_name, ${measures(money('a.g'), 'a.t')}
     FROM malls m LEFT JOIN agg a ON a.mall_id = m.mall_id
     ORDER BY ${ORDER_BY_METRIC[rankBy]}, lower(m.mall_name), m.mall_id`,
    params.values,
  );
  return rows;
}

export type GroupRow = Schemas['MallGroupRow'];

const GROUP_COLUMNS: Record<GroupBy, { key: string; name: string }> = {
  outlet: { key: 's.id::text', name: 's.name' },
  mall: { key: 's.mall_id::text', name: 's.mall_name' },
  category: { key: 's.category', name: 's.category' },
  level: { key: 's.level', name: 's.level' },
};

/** GMV and transactions per group with sales in the range, GMV descending, then by name. */
export async function groupReport(
  db: Queryable,
  scope: ReportScope,
  range: ReportRange,
  groupBy: GroupBy,
): Promise<GroupRow[]> {
  const params = new SqlParams();
  const cte = scopeCte(params, scope, range);
  const source = rollupSource(params, scope, range, 'outlet');
  const { key, name } = GROUP_COLUMNS[groupBy];
  const { rows } = await db.query<GroupRow>(
    `WITH ${cte},
     agg AS (SELECT r.outlet_id, sum(${source.value('gmv')}) AS g, sum(${source.value('transactions')}) AS t FROM ${source.from} GROUP BY 1)
     SELECT ${key} AS key, ${name} AS name, ${measures(money('sum(a.g)'), 'sum(a.t)')}
     FROM scope s JOIN agg a ON a.outlet_id = s.id
     GROUP BY 1, 2
     HAVING sum(a.t) > 0 OR sum(a.g) <> 0
     ORDER BY gmv DESC, lower(${name}), 1`,
    params.values,
  );
  return rows;
}

export type CategoryOutletRow = Schemas['MallCategoryOutletRow'];

/**
 * Every outlet of the scope ranked by GMV within its category (zeros included, ties by name, then id), with how many
 * outlets its category has: at most `limit` a category, and `outletId`'s row whatever its rank. `category` keeps one
 * category; `outletId` keeps its category (no rows when it is not in the scope). Sorted by category, then rank.
 */
export async function categoryOutletReport(
  db: Queryable,
  scope: ReportScope,
  range: ReportRange,
  options: { category?: string | undefined; outletId?: number | undefined; limit: number },
): Promise<CategoryOutletRow[]> {
  const params = new SqlParams();
  const cte = scopeCte(params, scope, range);
  const source = rollupSource(params, scope, range, 'outlet');
  const kept: string[] = [];
  if (options.category !== undefined) kept.push(`s.category = ${params.add(options.category, '::text')}`);
  const outlet = options.outletId === undefined ? undefined : params.add(options.outletId, '::int');
  if (outlet !== undefined) kept.push(`s.category = (SELECT category FROM scope WHERE id = ${outlet})`);
  const limit = params.add(options.limit, '::int');
  const { rows } = await db.query<CategoryOutletRow>(
    `WITH ${cte},
     agg AS (SELECT r.outlet_id, sum(${source.value('gmv')}) AS g, sum(${source.value('transactions')}) AS t FROM ${source.from} GROUP BY 1),
     ranked AS (
       SELECT s.id, s.name, s.mall_id, s.mall_name, s.category, s.level, a.g, a.t,
              row_number() OVER (PARTITION BY s.category ORDER BY coalesce(${money('a.g')}, 0) DESC, lower(s.name), s.id) AS rank,
              count(*) OVER (PARTITION BY s.category) AS category_outlets
       FROM scope s LEFT JOIN agg a ON a.outlet_id = s.id
       ${kept.length > 0 ? `WHERE ${kept.join(' AND ')}` : ''}
     )
     SELECT category, id AS outlet_id, name AS outlet_name, mall_id, mall_name, level, rank::int AS rank,
            category_outlets::int AS category_outlets, ${measures(money('g'), 't')}
     FROM ranked
     WHERE rank <= ${limit}${outlet === undefined ? '' : ` OR id = ${outlet}`}
     ORDER BY category, rank`,
    params.values,
  );
  return rows;
}

export type OutletRankRow = Schemas['OutletRankRow'];

/** The top `limit` outlets by member (or non-member) sales in the range, best first; outlets without such sales left out. */
export async function memberOutletRanking(
  db: Queryable,
  scope: ReportScope,
  range: ReportRange,
  options: { member: boolean; rankBy: Metric; limit: number },
): Promise<OutletRankRow[]> {
  const params = new SqlParams();
  const cte = scopeCte(params, scope, range);
  const source = rollupSource(params, scope, range, 'outlet');
  const [g, t] = options.member
    ? [`sum(${source.value('member_gmv')})`, `sum(${source.value('member_transactions')})`]
    : [
        `sum(${source.value('gmv')} - ${source.value('member_gmv')})`,
        `sum(${source.value('transactions')} - ${source.value('member_transactions')})`,
      ];
  const limit = params.add(options.limit, '::int');
  const { rows } = await db.query<OutletRankRow>(
    `WITH ${cte},
     agg AS (SELECT r.outlet_id, ${g} AS g, ${t} AS t FROM ${source.from} GROUP BY 1)
     SELECT s.id AS outlet_id, s.name AS outlet_name, s.mall_id, s.mall_name, ${measures(money('a.g'), 'a.t')}
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
  const params = new SqlParams();
  const cte = scopeCte(params, scope, range);
  const source = rollupSource(params, scope, range, 'mall');
  const { rows } = await db.query<SalesMeasures>(
    `WITH ${cte} SELECT ${measures(money(`sum(${source.value('gmv')})`), `sum(${source.value('transactions')})`)} FROM ${source.from}`,
    params.values,
  );
  return rows[0] ?? { gmv: 0, transactions: 0, average_transaction_value: 0 };
}

export type CurrencyFigures = Schemas['CurrencyFigures'];

/**
 * GMV and transactions of the scope over the range per currency of its malls, each in its own currency: what a
 * report shows instead of a total when its malls' currencies cannot be converted (a month without a rate).
 * Reads the rollups as they are, whatever `scope.convert` says.
 */
export async function totalsByCurrency(
  db: Queryable,
  scope: ReportScope,
  range: ReportRange,
): Promise<CurrencyFigures[]> {
  const { convert: _convert, ...unconverted } = scope;
  const params = new SqlParams();
  const cte = scopeCte(params, unconverted);
  const source = rollupSource(params, unconverted, range, 'mall');
  const [key, unit] = source.level === 'mall' ? ['r.mall_id', 'mall_id'] : ['r.outlet_id', 'id'];
  const { rows } = await db.query<CurrencyFigures>(
    `WITH ${cte},
     agg AS (SELECT ${key} AS unit, sum(${source.value('gmv')}) AS g, sum(${source.value('transactions')}) AS t
             FROM ${source.from} GROUP BY 1),
     units AS (SELECT DISTINCT ${unit} AS unit, currency FROM scope)
     SELECT u.currency, coalesce(${money('sum(a.g)')}, 0)::float8 AS gmv, coalesce(sum(a.t), 0)::int AS transactions
     FROM units u LEFT JOIN agg a ON a.unit = u.unit
     GROUP BY u.currency ORDER BY u.currency`,
    params.values,
  );
  return rows;
}

/** The scope's outlet (id, name), or undefined when the caller cannot see it. */
export async function scopeOutlet(db: Queryable, scope: ReportScope): Promise<Schemas['NameOption'] | undefined> {
  const params = new SqlParams();
  const cte = scopeCte(params, scope);
  const { rows } = await db.query<{ id: number; name: string }>(
    `WITH ${cte} SELECT id, name FROM scope`,
    params.values,
  );
  return rows[0];
}

// ------------------------------------------------------------------ payment methods

/**
 * The top `limit` payment methods of the range and hours by sum, grouped by the §9 rule (upper-cased; empty
 * and NONE in OTHERS, only if non-zero; sum descending). Methods with nothing in those hours are left out.
 */
export async function paymentMethodOverall(
  db: Queryable,
  scope: ReportScope,
  range: ReportRange,
  limit: number,
): Promise<PaymentMethodSum[]> {
  const params = new SqlParams();
  const cte = scopeCte(params, scope, range);
  const client = params.add(scope.clientId, '::int');
  const days = `r.local_day BETWEEN ${params.add(range.start, '::date')} AND ${params.add(range.end, '::date')}`;
  const [measure] = PAYMENT_HOUR_MEASURES;
  const rate = rateOf(params, scope, range, wholeMalls(scope) ? 'mall' : 'outlet');
  const cents = overHoursSql('r', measure, range.startHour, range.endHour);
  const amount = money(`sum(${rate === '1' ? cents : `${cents} * ${rate}`})`);
  const from = wholeMalls(scope)
    ? `rollup_mall_payment_day_hours r WHERE r.client_id = ${client} AND r.mall_id = ANY(ARRAY(SELECT DISTINCT mall_id FROM scope))`
    : `rollup_outlet_payment_daily r WHERE r.client_id = ${client} AND r.outlet_id = ANY(ARRAY(SELECT id FROM scope))`;
  const { rows } = await db.query<PaymentMethodSum>(
    `WITH ${cte}
     SELECT r.payment_method, (${amount})::float8 AS sum
     FROM ${from} AND ${days}
     GROUP BY 1
     HAVING ${amount} <> 0`,
    params.values,
  );
  return groupPaymentMethods(rows).slice(0, limit);
}

// ------------------------------------------------------------------ refunds and voucher redemptions

/** The rollup_outlet_daily columns of an amount report: refunds, or the part paid with mall vouchers. */
const AMOUNT_COLUMNS = {
  refund: { amount: 'refund_amount', count: 'refund_count' },
  voucher: { amount: 'voucher_amount', count: 'voucher_count' },
} as const;
export type AmountKind = keyof typeof AMOUNT_COLUMNS;
export type MallAmountReport = Schemas['MallAmountReport'];

/**
 * Refunds or voucher redemptions of the scope (rollup_outlet_daily: whole days) over `range` against `previous`
 * (the days just before), with GMV and transactions beside them: totals of both periods, every day of the range
 * (zeros included) and the outlets with any, largest amount first (at most 100). Converted like the other
 * reports when the malls use several currencies.
 */
export async function amountReport(
  db: Queryable,
  scope: ReportScope,
  range: Pick<ReportRange, 'start' | 'end'>,
  previous: Pick<ReportRange, 'start' | 'end'>,
  kind: AmountKind,
): Promise<Omit<MallAmountReport, 'previous_start_time' | 'previous_end_time'>> {
  const params = new SqlParams();
  const both = { start: previous.start, end: range.end, startHour: 0, endHour: 23 };
  const cte = scopeCte(params, scope, both);
  const rate = rateOf(params, scope, both, 'outlet');
  const client = params.add(scope.clientId, '::int');
  const first = params.add(previous.start, '::date');
  const start = params.add(range.start, '::date');
  const end = params.add(range.end, '::date');
  const { amount, count } = AMOUNT_COLUMNS[kind];
  const cents = (column: string) => (rate === '1' ? `(r.${column} * 100)` : `(r.${column} * 100 * ${rate})`);
  const { rows } = await db.query<{ report: Omit<MallAmountReport, 'previous_start_time' | 'previous_end_time'> }>(
    `WITH ${cte},
     d AS MATERIALIZED (
       SELECT r.outlet_id, r.local_day, r.local_day >= ${start} AS current, ${cents(amount)} AS a, r.${count} AS c,
         ${cents('gmv')} AS g, r.transactions AS t
       FROM rollup_outlet_daily r
       WHERE r.client_id = ${client} AND r.outlet_id = ANY(ARRAY(SELECT id FROM scope)) AND r.local_day BETWEEN ${first} AND ${end}
     ),
     tot AS (
       SELECT current, ${money('sum(a)')}::float8 AS amount, sum(c)::int AS count, ${money('sum(g)')}::float8 AS gmv,
         sum(t)::int AS transactions
       FROM d GROUP BY current
     ),
     days AS (SELECT local_day, sum(a) AS a, sum(c) AS c FROM d WHERE current GROUP BY 1),
     outl AS (
       SELECT outlet_id, sum(a) AS a, sum(c) AS c, sum(g) AS g, sum(t) AS t FROM d WHERE current GROUP BY 1
       HAVING sum(a) <> 0 OR sum(c) > 0
     )
     SELECT json_build_object(
       'current', coalesce((SELECT row_to_json(x) FROM (SELECT amount, count, gmv, transactions FROM tot WHERE current) x),
                           json_build_object('amount', 0, 'count', 0, 'gmv', 0, 'transactions', 0)),
       'previous', coalesce((SELECT row_to_json(x) FROM (SELECT amount, count, gmv, transactions FROM tot WHERE NOT current) x),
                            json_build_object('amount', 0, 'count', 0, 'gmv', 0, 'transactions', 0)),
       'daily', (SELECT json_agg(json_build_object('date', to_char(g, 'YYYY-MM-DD'),
                   'amount', coalesce(${money('x.a')}, 0)::float8, 'count', coalesce(x.c, 0)::int) ORDER BY g)
                 FROM generate_series(${start}::timestamp, ${end}::timestamp, interval '1 day') g
                 LEFT JOIN days x ON x.local_day = g::date),
       'outlets', coalesce((SELECT json_agg(o ORDER BY o.amount DESC, lower(o.outlet_name), o.outlet_id) FROM (
                   SELECT s.id AS outlet_id, s.name AS outlet_name, s.mall_id, s.mall_name, ${money('x.a')}::float8 AS amount,
                     x.c::int AS count, ${money('x.g')}::float8 AS gmv, x.t::int AS transactions
                   FROM outl x JOIN scope s ON s.id = x.outlet_id
                   ORDER BY x.a DESC, lower(s.name), s.id LIMIT 100) o), '[]'::json)
     ) AS report`,
    params.values,
  );
  const report = rows[0]?.report;
  if (!report) throw new Error('amountReport: no answer');
  return report;
}
