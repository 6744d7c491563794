import type { components, operations } from '../../src/api/schema.js';
import { normalisePaymentMethod } from '../../src/domain/paymentMethods.js';
import {
  addDays,
  eachDay,
  earlierDay,
  firstDayOfNextMonth,
  groupPaymentMethods,
  isoWeekday,
  laterDay,
  type PaymentMethodSum,
} from '../../src/domain/reports.js';
import type { Queryable } from '../db/pool.js';
import { SqlParams } from '../db/sqlParams.js';
import {
  apportion,
  apportionNested,
  averageMoney,
  type Exact,
  exactCents,
  money as moneyOf,
  roundCents,
} from './cents.js';
import {
  hourRowsSql,
  overHoursSql,
  PAYMENT_HOUR_MEASURES,
  runningColumns,
  SALES_HOUR_MEASURES,
} from './hourColumns.js';
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
  /**
   * Outlets left out (a like-for-like comparison): not in the `scope` CTE, so outlet rows never count them; mall rows
   * are read less theirs (rollupSource), which for most outlets kept is far fewer rows than the kept outlets' own.
   */
  leftOut?: readonly number[];
}

/** The days of one mall that a comparison reads (they may differ by the mall's country, and leave gaps). */
export interface MallDays {
  mallId: number;
  days: readonly string[];
}

/**
 * The rows of a comparison's days: `filter` keeps a rollup row `r` whose day is one its mall reads, with `ctes`
 * (each followed by a comma, or empty) to put in its WITH. When every mall reads the same days (one country, or a
 * rule without festivals) it is a day list the index scan reads; else the (mall, day) pairs `wanted` (`m`, `d`),
 * met by mall (`level` 'mall', r.mall_id) or by the scope's outlets of each mall (r.outlet_id): a hash join, not a
 * lookup of each row's mall.
 */
export function mallDaysFilter(
  params: SqlParams,
  mallDays: readonly MallDays[],
  level: 'mall' | 'outlet',
): { ctes: string; filter: string } {
  const [first, ...rest] = mallDays;
  const same = (days: readonly string[]) =>
    first !== undefined && days.length === first.days.length && days.every((day, index) => day === first.days[index]);
  if (first === undefined || rest.every((entry) => same(entry.days))) {
    return { ctes: '', filter: `r.local_day = ANY(${params.add(first?.days ?? [], '::date[]')})` };
  }
  const malls = params.add(
    mallDays.flatMap((entry) => entry.days.map(() => entry.mallId)),
    '::int[]',
  );
  const days = params.add(
    mallDays.flatMap((entry) => entry.days),
    '::date[]',
  );
  const ctes = `wanted AS MATERIALIZED (SELECT DISTINCT m, d FROM unnest(${malls}, ${days}) AS u(m, d)),`;
  return level === 'mall'
    ? { ctes, filter: '(r.mall_id, r.local_day) IN (SELECT m, d FROM wanted)' }
    : {
        ctes,
        filter: '(r.outlet_id, r.local_day) IN (SELECT s.id, w.d FROM scope s JOIN wanted w ON w.m = s.mall_id)',
      };
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
 * each month of the range as one array (a short one: numeric elements are found by walking the array), built once
 * by one join.
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
        SELECT array_agg(e.rate ORDER BY m) AS rates
        FROM generate_series(date_trunc('month', ${start}::timestamp), ${end}::timestamp, interval '1 month') m
        LEFT JOIN exchange_rates e ON e.client_id = ${client} AND e.currency = ${currency} AND e.month = m::date
      )`;
    })
    .join('');
}

/**
 * The rate of row `r` of a converted report as an exact numeric expression (never float8: amounts times it stay
 * exact, so every grouping of them sums to the same figure): for a mall (or outlet) in a converted currency, that
 * currency's rate in the row's month (ratesCte), else 1. The rollup rows are read as they are.
 */
function rateOf(params: SqlParams, scope: ReportScope, range: ReportRange, level: 'mall' | 'outlet'): string {
  const convert = scope.convert;
  if (!convert || convert.from.length === 0) return '1';
  // The row's month as an index of the arrays: months since the range's first month, from 1
  const [year = 0, month = 0] = range.start.split('-').map(Number);
  const before = params.add(year * 12 + month - 1, '::int');
  const index = `date_part('year', r.local_day)::int * 12 + date_part('month', r.local_day)::int - ${before}`;
  return byConvertedCurrency(params, convert.from, level, (n) => `(SELECT rates FROM fx_${n})[${index}]`, '1::numeric');
}

/**
 * `CASE` over the converted currencies of row `r` (a mall's or an outlet's): `then(n)` for a row in the n-th of
 * `from`, else `otherwise` (the reporting currency).
 */
function byConvertedCurrency(
  params: SqlParams,
  from: readonly string[],
  level: 'mall' | 'outlet',
  then: (n: number) => string,
  otherwise: string,
): string {
  const unit = level === 'mall' ? 'mall_id' : 'id';
  const cases = from.map((code, n) => {
    const currency = params.add(code, '::text');
    return `WHEN r.${level}_id IN (SELECT ${unit} FROM scope WHERE currency = ${currency}) THEN ${then(n)}`;
  });
  return `(CASE ${cases.join(' ')} ELSE ${otherwise} END)`;
}

/**
 * Which converted currency outlet row `r` is in, as a number to group rows by (0 when nothing is converted, -1 for
 * the reporting currency): rows of one group and month share one rate (rateOf).
 */
function currencyGroupOf(params: SqlParams, scope: ReportScope): string {
  const convert = scope.convert;
  if (!convert || convert.from.length === 0) return '0';
  return byConvertedCurrency(params, convert.from, 'outlet', String, '-1');
}

/**
 * The `scope` CTE: the outlets of the report, with what the groupings need and their mall's currency; and the
 * rates of a converted report over `range` (ratesCte).
 */
export function scopeCte(params: SqlParams, scope: ReportScope, range?: Pick<ReportRange, 'start' | 'end'>): string {
  const client = params.add(scope.clientId, '::int');
  const limited = scope.visibility.outletLimits.get(scope.clientId);
  const conditions = [`o.client_id = ${client}`];
  if (!scope.visibility.clientIds.includes(scope.clientId)) conditions.push('false');
  if (limited) conditions.push(`o.id = ANY(${params.add(limited, '::int[]')})`);
  if (scope.mallIds) conditions.push(`o.mall_id = ANY(${params.add(scope.mallIds, '::int[]')})`);
  if (scope.outletId !== undefined) conditions.push(`o.id = ${params.add(scope.outletId, '::int')}`);
  if (scope.leftOut?.length) conditions.push(`NOT (o.id = ANY(${params.add(scope.leftOut, '::int[]')}))`);
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
  /**
   * A LATERAL list of the row's hours of the filter, `hv(hour, <measures>)` in cents for money (after the row's
   * rate, `fx`, in a converted report: found once a row, not once an hour).
   */
  hours: () => string;
  /** A measure of one of those hours (`hv`), converted like `value`. */
  hourValue: (measure: SalesMeasure) => string;
  /** The rate of row `r` as an exact numeric expression ('1' when nothing is converted; rateOf). */
  rate: string;
}

/** Whether the caller sees every outlet of the selected malls, so the mall rows answer for them. */
const wholeMalls = (scope: ReportScope) =>
  scope.outletId === undefined && !scope.visibility.outletLimits.has(scope.clientId);

/**
 * The whole calendar months within the range: the first day of the first and of the last, and the days of the range
 * before and after them (undefined when the range holds no whole month).
 */
export function wholeMonthsOf(
  range: Pick<ReportRange, 'start' | 'end'>,
): { first: string; last: string; edges: { start: string; end: string }[] } | undefined {
  const first = range.start.endsWith('-01') ? range.start : firstDayOfNextMonth(range.start.slice(0, 7));
  const afterEnd = addDays(range.end, 1);
  const last = afterEnd.endsWith('-01')
    ? `${range.end.slice(0, 8)}01`
    : `${addDays(`${range.end.slice(0, 8)}01`, -1).slice(0, 8)}01`;
  if (first > last) return undefined;
  const afterLast = firstDayOfNextMonth(last.slice(0, 7));
  const edges = [
    ...(range.start < first ? [{ start: range.start, end: addDays(first, -1) }] : []),
    ...(afterLast <= range.end ? [{ start: afterLast, end: range.end }] : []),
  ];
  return { first, last, edges };
}

/**
 * The rollup to read. `level` 'mall' reads the mall rows when the caller sees whole malls (else outlet rows);
 * outlet rows come from rollup_outlet_daily for whole days unless `needHours`, else rollup_outlet_day_hours.
 * `byMonth` (for a caller that only sums the rows over the whole range, never by day or hour): outlet rows of the
 * range's whole months come from rollup_outlet_month_hours (one row an outlet and month, dated its first day, so
 * its rate is its month's), its other days from rollup_outlet_day_hours.
 * `= ANY(ARRAY(...))` keeps the primary-key index scans.
 */
export function rollupSource(
  params: SqlParams,
  scope: ReportScope,
  range: ReportRange,
  level: 'mall' | 'outlet',
  needHours = false,
  byMonth = false,
): Source {
  const client = params.add(scope.clientId, '::int');
  const days = () => `r.local_day BETWEEN ${params.add(range.start, '::date')} AND ${params.add(range.end, '::date')}`;
  const hourRows = hourRowsSql('r', SALES_HOUR_MEASURES, range.startHour, range.endHour, 'hv');
  const overHours = (measure: SalesMeasure) => overHoursSql('r', measure, range.startHour, range.endHour);
  // A converted report multiplies every amount by its row's rate (rateOf); counts stay as they are.
  const rowLevel = level === 'mall' && wholeMalls(scope) ? 'mall' : 'outlet';
  const rate = rateOf(params, scope, range, rowLevel);
  const converted = (value: (measure: SalesMeasure) => string) => (measure: SalesMeasure) =>
    rate !== '1' && MONEY[measure] ? `(${value(measure)} * ${rate})` : value(measure);
  const hours = () => (rate === '1' ? hourRows : `LATERAL (SELECT ${rate} AS rate OFFSET 0) fx, ${hourRows}`);
  const hourValue = (measure: SalesMeasure) =>
    rate !== '1' && MONEY[measure] ? `(hv.${measure} * fx.rate)` : `hv.${measure}`;
  if (rowLevel === 'mall') {
    return {
      from: `${mallRows(params, scope, range)} r WHERE r.client_id = ${client} AND r.mall_id = ANY(ARRAY(SELECT DISTINCT mall_id FROM scope)) AND ${days()}`,
      level: 'mall',
      value: converted(overHours),
      hours,
      hourValue,
      rate,
    };
  }
  const outlets = 'r.outlet_id = ANY(ARRAY(SELECT id FROM scope))';
  const months = byMonth ? wholeMonthsOf(range) : undefined;
  if (months) {
    const columns = runningColumns(SALES_HOUR_MEASURES).join(', ');
    const within = (start: string, end: string) =>
      `BETWEEN ${params.add(start, '::date')} AND ${params.add(end, '::date')}`;
    const edgeRows = months.edges.map(
      (edge) => `UNION ALL
        SELECT r.client_id, r.outlet_id, r.local_day, ${columns} FROM rollup_outlet_day_hours r
        WHERE r.client_id = ${client} AND ${outlets} AND r.local_day ${within(edge.start, edge.end)}`,
    );
    return {
      from: `(SELECT r.client_id, r.outlet_id, r.month AS local_day, ${columns} FROM rollup_outlet_month_hours r
        WHERE r.client_id = ${client} AND ${outlets} AND r.month ${within(months.first, months.last)}
        ${edgeRows.join('\n')}) r WHERE true`,
      level: 'outlet',
      value: converted(overHours),
      hours,
      hourValue,
      rate,
    };
  }
  if (isWholeDay(range) && !needHours) {
    return {
      from: `rollup_outlet_daily r WHERE r.client_id = ${client} AND ${outlets} AND ${days()}`,
      level: 'outlet',
      value: converted((measure) => (MONEY[measure] ? `(r.${measure} * 100)` : `r.${measure}`)),
      hours,
      hourValue,
      rate,
    };
  }
  return {
    from: `rollup_outlet_day_hours r WHERE r.client_id = ${client} AND ${outlets} AND ${days()}`,
    level: 'outlet',
    value: converted(overHours),
    hours,
    hourValue,
    rate,
  };
}

/**
 * The mall rows of a scope: rollup_mall_day_hours, or with outlets left out (scope.leftOut) the mall rows and, for
 * each left-out outlet's day, its row with every running total negated, so that any sum over a mall's rows (its
 * hours, at its rate) is the sum over the outlets kept. Exact: whole cents and counts, each mall's rows in one rate.
 */
function mallRows(params: SqlParams, scope: ReportScope, range: Pick<ReportRange, 'start' | 'end'>): string {
  if (!scope.leftOut?.length) return 'rollup_mall_day_hours';
  const client = params.add(scope.clientId, '::int');
  const leftOut = params.add(scope.leftOut, '::int[]');
  const days = `d.local_day BETWEEN ${params.add(range.start, '::date')} AND ${params.add(range.end, '::date')}`;
  const columns = runningColumns(SALES_HOUR_MEASURES);
  return `(SELECT d.client_id, d.mall_id, d.local_day, ${columns.map((column) => `d.${column}`).join(', ')}
      FROM rollup_mall_day_hours d
      UNION ALL
      SELECT d.client_id, o.mall_id, d.local_day, ${columns.map((column) => `-d.${column} AS ${column}`).join(', ')}
      FROM rollup_outlet_day_hours d
      JOIN outlets o ON o.client_id = d.client_id AND o.id = d.outlet_id AND o.id = ANY(${leftOut})
      WHERE d.client_id = ${client} AND d.outlet_id = ANY(${leftOut}) AND ${days})`;
}

/** A sum of cents as money (rounded to the cent: converted sums have fractions of one). */
export const money = (cents: string) => `round(((${cents}) / 100.0)::numeric, 2)`;

/**
 * A sum of cents as exact decimal text (exactCents reads it): converted sums keep their fractions of a cent, to be
 * rounded together by the breakdown they belong to (cents.ts), never one by one.
 */
const exact = (cents: string) => `(${cents})::numeric::text`;

/** SQL of the three measures over sums `g` (gmv) and `t` (transactions). */
export const measures = (g: string, t: string) =>
  `coalesce(${g}, 0)::float8 AS gmv, coalesce(${t}, 0)::int AS transactions,
   coalesce(round(${g} / nullif(${t}, 0), 2), 0)::float8 AS average_transaction_value`;

/**
 * The measures of rows with exact GMV `g` and transactions `t`: their GMV rounded together (apportion: the rows
 * add up to their exact sum rounded) and the average of each row's rounded GMV, in the rows' order.
 */
function withMeasures<R extends { g: string | null; t: number }>(rows: readonly R[]) {
  const cents = apportion(rows.map((row) => exactCents(row.g)));
  return rows.map((row, index) => {
    const gmv = cents[index] ?? 0n;
    const figures: SalesMeasures = {
      gmv: moneyOf(gmv),
      transactions: row.t,
      average_transaction_value: averageMoney(gmv, row.t),
    };
    return { row, cents: gmv, figures };
  });
}

/** A stable sort's comparison by a metric, largest first (rows already in their order of ties). */
const byMetric = (metric: Metric) => (a: SalesMeasures, b: SalesMeasures) => b[metric] - a[metric];

const ORDER_BY_METRIC: Record<Metric, string> = {
  gmv: 'gmv DESC',
  transactions: 'transactions DESC',
  average_transaction_value: 'average_transaction_value DESC',
};

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

/**
 * Every local day of the range (zeros included), oldest first, with its GMV in cents and its transactions. The days'
 * exact (converted) GMV is rounded together (apportion): the days add up to the range's GMV rounded, as the malls,
 * outlets and categories of the same range do.
 */
async function dayFigures(
  db: Queryable,
  scope: ReportScope,
  range: ReportRange,
): Promise<{ date: string; gmv: bigint; transactions: number }[]> {
  const params = new SqlParams();
  const cte = scopeCte(params, scope, range);
  const source = rollupSource(params, scope, range, 'mall');
  const series = seriesSql(params, { ...range, startHour: 0, endHour: 23 }, false);
  const { rows } = await db.query<{ date: string; gc: string | null; transactions: number }>(
    `WITH ${cte},
     agg AS (SELECT r.local_day AS day, sum(${source.value('gmv')}) AS gc, sum(${source.value('transactions')}) AS tc
             FROM ${source.from} GROUP BY 1)
     SELECT to_char(g, 'YYYY-MM-DD') AS date, ${exact('a.gc')} AS gc, coalesce(a.tc, 0)::int AS transactions
     FROM ${series} LEFT JOIN agg a ON a.day = g::date ORDER BY g`,
    params.values,
  );
  const cents = apportion(rows.map((row) => exactCents(row.gc)));
  return rows.map((row, index) => ({ date: row.date, gmv: cents[index] ?? 0n, transactions: row.transactions }));
}

/** One row per local day of the range (zeros included), oldest first. */
export async function dailyReport(db: Queryable, scope: ReportScope, range: ReportRange): Promise<DailyRow[]> {
  const days = await dayFigures(db, scope, range);
  return days.map((day) => ({ date: day.date, gmv: moneyOf(day.gmv), transactions: day.transactions }));
}

export type MonthlyRow = Schemas['MonthlyReportRow'];

/** One row per month the range touches (zeros included), oldest first: the sums of its days' rows. */
export async function monthlyReport(db: Queryable, scope: ReportScope, range: ReportRange): Promise<MonthlyRow[]> {
  const months = new Map<string, { gmv: bigint; transactions: number }>();
  for (const day of await dayFigures(db, scope, range)) {
    const month = day.date.slice(0, 7);
    const known = months.get(month) ?? { gmv: 0n, transactions: 0 };
    months.set(month, { gmv: known.gmv + day.gmv, transactions: known.transactions + day.transactions });
  }
  return [...months].map(([month, figures]) => ({
    month,
    gmv: moneyOf(figures.gmv),
    transactions: figures.transactions,
  }));
}

/** The figures of one day, or one hour of a day, with its exact (converted) money. */
interface UnitFigures {
  g: Exact;
  t: number;
  mg: Exact;
  mt: number;
}

/** The label of the period of `bucket` that holds hour `hour` of `day`, as bucketLabel writes it. */
function periodOf(bucket: TimeRange, day: string, hour: number): string {
  if (bucket === 'hourly') return `${day} ${String(hour).padStart(2, '0')}:00`;
  if (bucket === 'monthly') return day.slice(0, 7);
  if (bucket === 'daily') return day;
  // The week's Monday.
  return addDays(day, 1 - isoWeekday(day));
}

/** The running totals before each hour of the range's filter and after its last: hour h is bounds[h + 1] − bounds[h]. */
const hourBounds = (range: ReportRange) =>
  Array.from({ length: range.endHour - range.startHour + 2 }, (_, i) => range.startHour + i);

/**
 * SQL of a measure's running totals at `bounds` (hourBounds) as one comma-separated text, cheaper to send and read
 * than an array: `column` gives the total at hour k (a column, or its sum).
 */
const runningTotalsText = (bounds: readonly number[], column: (k: number) => string) =>
  `concat_ws(',', ${bounds.map((k) => (k === 0 ? '0' : column(k))).join(', ')})`;

/**
 * The hours of a runningTotalsText (0 for every hour when there is none): hour i is the i-th difference. Running
 * totals of cents and counts are whole numbers well inside a double's exact range; only money times a rate needs
 * exact integers (bigint).
 */
function hoursOf(totals: string | null | undefined): (i: number) => number {
  if (!totals) return () => 0;
  const sums = totals.split(',').map(Number);
  return (i) => (sums[i + 1] ?? 0) - (sums[i] ?? 0);
}

/**
 * The exact figures of each day with sales, one a unit (an hour of the filter, or the day: `width` 1), keyed by day.
 * SQL gives the hours' running totals (hourColumns.ts) in whole cents and counts with the rate as exact decimal text:
 * a row a day and currency (one rate), their sums (or for a few malls a row a mall and day). Each hour's cents times
 * the rate are summed here in exact integers: the same exact figures as SQL's sum of each row's hours times its rate,
 * without a row a day and hour to send.
 */
async function hourFigures(
  db: Queryable,
  scope: ReportScope,
  range: ReportRange,
  members: boolean,
): Promise<Map<string, UnitFigures[]>> {
  const params = new SqlParams();
  const cte = scopeCte(params, scope, range);
  const source = rollupSource(params, scope, range, 'mall', true);
  const bounds = hourBounds(range);
  const measures: SalesMeasure[] = members ? [...SALES_HOUR_MEASURES] : ['gmv', 'transactions'];
  // Rows are summed by day and currency (one rate), unless they are mall rows of no more malls than currencies: then
  // a sum a column and row would cost more than reading the rows as they are.
  const currencies = (scope.convert?.from.length ?? 0) + 1;
  const grouped = source.level === 'outlet' || scope.mallIds === undefined || scope.mallIds.length > currencies;
  const column = (measure: SalesMeasure, k: number) => (grouped ? `sum(r.${measure}_h${k})` : `r.${measure}_h${k}`);
  const totals = (measure: SalesMeasure) => `${runningTotalsText(bounds, (k) => column(measure, k))} AS ${measure}`;
  const currency =
    grouped && scope.convert?.from.length
      ? byConvertedCurrency(params, scope.convert.from, source.level, String, '-1')
      : '0';
  const { rows } = await db.query<{ day: string; rate: string } & Partial<Record<SalesMeasure, string>>>(
    `WITH ${cte}
     SELECT to_char(r.local_day, 'YYYY-MM-DD') AS day, ${grouped ? `max(${source.rate})` : source.rate}::text AS rate,
       ${measures.map(totals).join(', ')}
     FROM ${source.from}${grouped ? ` GROUP BY r.local_day${currency === '0' ? '' : `, ${currency}`}` : ''}`,
    params.values,
  );
  const width = bounds.length - 1;
  const days = new Map<string, UnitFigures[]>();
  for (const row of rows) {
    const rate = exactCents(row.rate);
    const [gmv, transactions, memberGmv, memberTransactions] = [
      hoursOf(row.gmv),
      hoursOf(row.transactions),
      hoursOf(row.member_gmv),
      hoursOf(row.member_transactions),
    ];
    let cells = days.get(row.day);
    if (!cells) {
      cells = Array.from({ length: width }, () => ({ g: 0n, t: 0, mg: 0n, mt: 0 }));
      days.set(row.day, cells);
    }
    cells.forEach((cell, i) => {
      const g = gmv(i);
      if (g !== 0) cell.g += BigInt(g) * rate;
      cell.t += transactions(i);
      const mg = memberGmv(i);
      if (mg !== 0) cell.mg += BigInt(mg) * rate;
      cell.mt += memberTransactions(i);
    });
  }
  return days;
}

/** The exact figures of each day with sales over the filter's hours, keyed by day (one unit a day). */
async function dayUnitFigures(
  db: Queryable,
  scope: ReportScope,
  range: ReportRange,
  members: boolean,
): Promise<Map<string, UnitFigures[]>> {
  const params = new SqlParams();
  const cte = scopeCte(params, scope, range);
  const source = rollupSource(params, scope, range, 'mall');
  const { rows } = await db.query<{ day: string; g: string | null; t: number; mg: string | null; mt: number }>(
    `WITH ${cte}
     SELECT to_char(r.local_day, 'YYYY-MM-DD') AS day, ${exact(`sum(${source.value('gmv')})`)} AS g,
       coalesce(sum(${source.value('transactions')}), 0)::int AS t,
       ${members ? exact(`sum(${source.value('member_gmv')})`) : 'NULL'} AS mg,
       ${members ? `coalesce(sum(${source.value('member_transactions')}), 0)::int` : '0'} AS mt
     FROM ${source.from} GROUP BY r.local_day`,
    params.values,
  );
  return new Map(
    rows.map((row) => [row.day, [{ g: exactCents(row.g), t: row.t, mg: exactCents(row.mg), mt: row.mt }]]),
  );
}

/** One local day of a report: its period in the report's bucket and its units' exact figures. */
interface DayUnits {
  day: string;
  /** The day's period label (daily, weekly or monthly; hourly reports label each hour with periodOf). */
  period: string;
  /** The hours of the filter (or one unit for the day), zeros included. */
  units: UnitFigures[];
  /** The units' GMV in cents (dayCents), once apportioned. */
  cents: bigint[];
}

/**
 * Every local day of the range, oldest first, with its units: every hour of the filter (`hourly`) or the day, zeros
 * included, and their exact GMV, member GMV (unless not `members`) and transactions. The query gives the days with
 * sales; the others are added here. The units' GMV is then rounded: the days are apportioned as the daily report
 * does, then each day's hours to the day's cents (apportionNested).
 */
async function dayUnits(
  db: Queryable,
  scope: ReportScope,
  range: ReportRange,
  hourly: boolean,
  bucket: TimeRange,
  members = true,
): Promise<DayUnits[]> {
  const found = await (hourly ? hourFigures : dayUnitFigures)(db, scope, range, members);
  const width = hourly ? range.endHour - range.startHour + 1 : 1;
  const days = eachDay(range.start, range.end).map((day) => ({
    day,
    period: bucket === 'hourly' ? day : periodOf(bucket, day, 0),
    units: found.get(day) ?? Array.from({ length: width }, () => ({ g: 0n, t: 0, mg: 0n, mt: 0 })),
    cents: [] as bigint[],
  }));
  const cents = apportionNested(days.map((entry) => entry.units.map((unit) => unit.g)));
  days.forEach((entry, index) => {
    entry.cents = cents[index] ?? [];
  });
  return days;
}

/**
 * GMV and transactions by week (from its Monday) or month and local hour, every period × hour of the filter (zeros
 * included), oldest first: the rows summed by period in SQL (their running totals, hourColumns.ts), taken apart into
 * hours here. Read for a year of peak hours, where a row a day and hour is slow.
 * Nothing converted: whole cents, nothing to round. Converted: the rows are summed by period, month and currency
 * (one rate each) and multiplied by their rate here, in exact decimals; each period's cents are the sum of its days'
 * cents in the daily report (dayFigures), and its hours are rounded together to them (apportion). So a period's
 * hours add up to its days, and every cell of the range to its total.
 */
async function periodHours(
  db: Queryable,
  scope: ReportScope,
  range: ReportRange,
  bucket: 'weekly' | 'monthly',
): Promise<{ period: string; hour: number; g: bigint; t: number }[]> {
  const params = new SqlParams();
  const cte = scopeCte(params, scope, range);
  const source = rollupSource(params, scope, range, 'mall', true);
  // Grouped by the period's first day, formatted once a group.
  const start = bucket === 'monthly' ? `date_trunc('month', r.local_day)` : `date_trunc('week', r.local_day)`;
  const period = `to_char(${start}, '${bucket === 'monthly' ? 'YYYY-MM' : 'YYYY-MM-DD'}')`;
  const bounds = hourBounds(range);
  const totals = (measure: 'gmv' | 'transactions') => runningTotalsText(bounds, (k) => `sum(r.${measure}_h${k})`);
  const convert = source.rate !== '1' && scope.convert ? scope.convert : undefined;
  // A converted report's rows of one month and currency share one rate: the malls' (or outlets') rows by currency.
  const byRate = convert
    ? `${bucket === 'monthly' ? '' : `, date_trunc('month', r.local_day)`}, ${byConvertedCurrency(params, convert.from, source.level, String, '-1')}`
    : '';
  const [{ rows }, days] = await Promise.all([
    db.query<{ period: string; rate: string | null; g: string; t: string }>(
      `WITH ${cte}
       SELECT ${period} AS period, ${convert ? `max(${source.rate})::text` : 'NULL'} AS rate,
         ${totals('gmv')} AS g, ${totals('transactions')} AS t
       FROM ${source.from} GROUP BY ${start}${byRate}`,
      params.values,
    ),
    convert ? dayFigures(db, scope, range) : undefined,
  ]);
  const width = bounds.length - 1;
  const found = new Map<string, { g: Exact[]; t: number[] }>();
  for (const row of rows) {
    let sums = found.get(row.period);
    if (!sums) {
      sums = { g: Array.from({ length: width }, () => 0n), t: Array.from({ length: width }, () => 0) };
      found.set(row.period, sums);
    }
    const rate = convert ? exactCents(row.rate) : 1n;
    const [gmv, transactions] = [hoursOf(row.g), hoursOf(row.t)];
    for (let i = 0; i < width; i++) {
      const cents = gmv(i);
      if (cents !== 0) sums.g[i] = (sums.g[i] ?? 0n) + BigInt(cents) * rate;
      sums.t[i] = (sums.t[i] ?? 0) + transactions(i);
    }
  }
  // Each day's period, worked out once; converted, each period's cents are the sum of its days' cents.
  const periodOfDay = new Map(eachDay(range.start, range.end).map((day) => [day, periodOf(bucket, day, 0)]));
  const periodCents = new Map<string, bigint>();
  for (const day of days ?? []) {
    const label = periodOfDay.get(day.date) ?? periodOf(bucket, day.date, 0);
    periodCents.set(label, (periodCents.get(label) ?? 0n) + day.gmv);
  }
  const periods = [...new Set(periodOfDay.values())];
  return periods.flatMap((label) => {
    const sums = found.get(label);
    const cents = sums && convert ? apportion(sums.g, periodCents.get(label) ?? 0n) : sums?.g;
    return bounds.slice(1).map((_, i) => ({
      period: label,
      hour: range.startHour + i,
      g: cents?.[i] ?? 0n,
      t: sums?.t[i] ?? 0,
    }));
  });
}

/** One metric of GMV `cents` over `count` transactions. */
function metricOf(metric: Metric, cents: bigint, count: number): number {
  if (metric === 'gmv') return moneyOf(cents);
  return metric === 'transactions' ? count : averageMoney(cents, count);
}

export type MemberOverall = Schemas['MemberOverallResponse'];

/**
 * Members against non-members per bucket (zeros included), oldest first, and over the whole range. Each day (or
 * hour) has the GMV in cents of the daily report (or peak hours), split between members and non-members; the
 * buckets and the total are the sums of their days (or hours).
 */
export async function memberOverall(
  db: Queryable,
  scope: ReportScope,
  range: ReportRange,
  timeRange: TimeRange,
  metric: Metric,
): Promise<MemberOverall> {
  const hourly = timeRange === 'hourly';
  const days = await dayUnits(db, scope, range, hourly, timeRange);
  const periods = new Map<string, { mg: bigint; ng: bigint; mt: number; nt: number }>();
  const total = { mg: 0n, ng: 0n, mt: 0, nt: 0 };
  for (const { day, period, units, cents } of days) {
    units.forEach((unit, index) => {
      const [mg = 0n, ng = 0n] = apportion([unit.mg, unit.g - unit.mg], cents[index] ?? 0n);
      const label = hourly ? periodOf('hourly', day, range.startHour + index) : period;
      const known = periods.get(label) ?? { mg: 0n, ng: 0n, mt: 0, nt: 0 };
      for (const sums of [known, total]) {
        sums.mg += mg;
        sums.ng += ng;
        sums.mt += unit.mt;
        sums.nt += unit.t - unit.mt;
      }
      periods.set(label, known);
    });
  }
  return {
    data: [...periods].map(([period, sums]) => ({
      period,
      member: metricOf(metric, sums.mg, sums.mt),
      non_member: metricOf(metric, sums.ng, sums.nt),
    })),
    total: { member: metricOf(metric, total.mg, total.mt), non_member: metricOf(metric, total.ng, total.nt) },
  };
}

/** The hours of the filter of each period (a day's for hourly), oldest first: the sums of its days' hours. */
function periodCells(
  range: ReportRange,
  days: readonly DayUnits[],
): { period: string; hour: number; g: bigint; t: number }[] {
  const periods = new Map<string, { period: string; hour: number; g: bigint; t: number }[]>();
  for (const { period, units, cents } of days) {
    let hours = periods.get(period);
    if (!hours) {
      hours = units.map((_, index) => ({ period, hour: range.startHour + index, g: 0n, t: 0 }));
      periods.set(period, hours);
    }
    hours.forEach((hour, index) => {
      hour.g += cents[index] ?? 0n;
      hour.t += units[index]?.t ?? 0;
    });
  }
  return [...periods.values()].flat();
}

export type PeakHourRow = Schemas['PeakHourRow'];

/**
 * The metric per period and local hour of day: every period of the range × every hour of the filter. A day's hours
 * add up to the day's GMV in the daily report; weekly and monthly periods are the sums of their days' hours.
 */
export async function peakHours(
  db: Queryable,
  scope: ReportScope,
  range: ReportRange,
  timeRange: TimeRange,
  metric: Metric,
): Promise<PeakHourRow[]> {
  const cells =
    timeRange === 'weekly' || timeRange === 'monthly'
      ? await periodHours(db, scope, range, timeRange)
      : periodCells(range, await dayUnits(db, scope, range, true, timeRange, false));
  return cells.map((cell) => ({
    period: cell.period,
    hour: cell.hour,
    value: metricOf(metric, cell.g, cell.t),
  }));
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
  const { rows } = await db.query<{ mall_id: number; mall_name: string; g: string | null; t: number }>(
    `WITH ${cte},
     agg AS (SELECT ${mallOf} AS mall_id, sum(${source.value('gmv')}) AS g, sum(${source.value('transactions')}) AS t
             FROM ${source.from} GROUP BY 1),
     malls AS (SELECT DISTINCT mall_id, mall_name FROM scope)
     SELECT m.mall_id, m.mall_name, ${exact('a.g')} AS g, coalesce(a.t, 0)::int AS t
     FROM malls m LEFT JOIN agg a ON a.mall_id = m.mall_id
     ORDER BY lower(m.mall_name), m.mall_id`,
    params.values,
  );
  const ranked = withMeasures(rows);
  return ranked
    .map(({ row, figures }) => ({ mall_id: row.mall_id, mall_name: row.mall_name, ...figures }))
    .sort(byMetric(rankBy));
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
  const source = rollupSource(params, scope, range, 'outlet', false, true);
  const { key, name } = GROUP_COLUMNS[groupBy];
  const { rows } = await db.query<{ key: string; name: string; g: string | null; t: number }>(
    `WITH ${cte},
     agg AS (SELECT r.outlet_id, sum(${source.value('gmv')}) AS g, sum(${source.value('transactions')}) AS t FROM ${source.from} GROUP BY 1)
     SELECT ${key} AS key, ${name} AS name, ${exact('sum(a.g)')} AS g, coalesce(sum(a.t), 0)::int AS t
     FROM scope s JOIN agg a ON a.outlet_id = s.id
     GROUP BY 1, 2
     HAVING sum(a.t) > 0 OR sum(a.g) <> 0
     ORDER BY lower(${name}), 1`,
    params.values,
  );
  return withMeasures(rows)
    .map(({ row, figures }) => ({ key: row.key, name: row.name, ...figures }))
    .sort(byMetric('gmv'));
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
  const source = rollupSource(params, scope, range, 'outlet', false, true);
  // Every outlet of the scope, in the order of the outlet report's ties (its GMV rounded as the outlet report's)
  const { rows } = await db.query<{
    id: number;
    name: string;
    mall_id: number;
    mall_name: string;
    category: string;
    level: string;
    g: string | null;
    t: number;
    by_name: number;
    by_category: number;
  }>(
    `WITH ${cte},
     agg AS (SELECT r.outlet_id, sum(${source.value('gmv')}) AS g, sum(${source.value('transactions')}) AS t FROM ${source.from} GROUP BY 1)
     SELECT s.id, s.name, s.mall_id, s.mall_name, s.category, s.level, ${exact('a.g')} AS g, coalesce(a.t, 0)::int AS t,
            row_number() OVER (ORDER BY lower(s.name), s.id)::int AS by_name,
            dense_rank() OVER (ORDER BY s.category)::int AS by_category
     FROM scope s LEFT JOIN agg a ON a.outlet_id = s.id
     ORDER BY lower(s.name), s.id::text`,
    params.values,
  );
  const outletCategory = rows.find((row) => row.id === options.outletId)?.category;
  if (options.outletId !== undefined && outletCategory === undefined) return [];
  const kept = withMeasures(rows)
    .filter(({ row }) => options.category === undefined || row.category === options.category)
    .filter(({ row }) => outletCategory === undefined || row.category === outletCategory)
    .sort(
      (a, b) => a.row.by_category - b.row.by_category || b.figures.gmv - a.figures.gmv || a.row.by_name - b.row.by_name,
    );
  const counts = new Map<string, number>();
  for (const { row } of kept) counts.set(row.category, (counts.get(row.category) ?? 0) + 1);
  const ranks = new Map<string, number>();
  return kept.flatMap(({ row, figures }) => {
    const rank = (ranks.get(row.category) ?? 0) + 1;
    ranks.set(row.category, rank);
    if (rank > options.limit && row.id !== options.outletId) return [];
    return [
      {
        category: row.category,
        outlet_id: row.id,
        outlet_name: row.name,
        mall_id: row.mall_id,
        mall_name: row.mall_name,
        level: row.level,
        rank,
        category_outlets: counts.get(row.category) ?? 0,
        ...figures,
      },
    ];
  });
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
  const source = rollupSource(params, scope, range, 'outlet', false, true);
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

/** The scope's outlet (id, name, mall), or undefined when the caller cannot see it. */
export async function scopeOutlet(
  db: Queryable,
  scope: ReportScope,
): Promise<{ id: number; name: string; mall_id: number } | undefined> {
  const params = new SqlParams();
  const cte = scopeCte(params, scope);
  const { rows } = await db.query<{ id: number; name: string; mall_id: number }>(
    `WITH ${cte} SELECT id, name, mall_id FROM scope`,
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
  const amount = `sum(${rate === '1' ? cents : `${cents} * ${rate}`})`;
  const from = wholeMalls(scope)
    ? `rollup_mall_payment_day_hours r WHERE r.client_id = ${client} AND r.mall_id = ANY(ARRAY(SELECT DISTINCT mall_id FROM scope))`
    : `rollup_outlet_payment_daily r WHERE r.client_id = ${client} AND r.outlet_id = ANY(ARRAY(SELECT id FROM scope))`;
  const { rows } = await db.query<{ payment_method: string; sum: string }>(
    `WITH ${cte}
     SELECT r.payment_method, ${exact(amount)} AS sum
     FROM ${from} AND ${days}
     GROUP BY 1
     HAVING ${amount} <> 0`,
    params.values,
  );
  // The methods as the §9 rule groups them, their exact sums rounded together (they add up to the total rounded).
  const methods = new Map<string, Exact>();
  for (const row of rows) {
    const method = normalisePaymentMethod(row.payment_method);
    methods.set(method, (methods.get(method) ?? 0n) + exactCents(row.sum));
  }
  const rounded = apportion([...methods.values()]);
  const sums = [...methods.keys()].flatMap((payment_method, index) => {
    const sum = rounded[index] ?? 0n;
    return sum === 0n ? [] : [{ payment_method, sum: moneyOf(sum) }];
  });
  return groupPaymentMethods(sums).slice(0, limit);
}

// ------------------------------------------------------------------ refunds and voucher redemptions

/** The rollup_outlet_daily columns of an amount report: refunds, or the part paid with mall vouchers. */
const AMOUNT_COLUMNS = {
  refund: { amount: 'refund_amount', count: 'refund_count' },
  voucher: { amount: 'voucher_amount', count: 'voucher_count' },
} as const;
export type AmountKind = keyof typeof AMOUNT_COLUMNS;
export type MallAmountReport = Schemas['MallAmountReport'];
/** The report as the repository answers it: the route adds the compared days and how they were chosen. */
export type AmountReportAnswer = Omit<MallAmountReport, 'previous_start_time' | 'previous_end_time' | 'comparison'> & {
  /** Whether the compared days hold any sale, refund or voucher of the scope. */
  previous_has_data: boolean;
};

/** One side's totals of an amount report, money exact (text). */
interface ExactAmountTotals {
  amount: string;
  count: number;
  gmv: string;
  transactions: number;
}

/** A row of the amount report's query: a side's totals, one of its days or one of its outlets (`grain`). */
interface AmountReportRow extends ExactAmountTotals {
  current: boolean;
  grain: 'total' | 'day' | 'outlet';
  day: string | null;
  outlet_id: number | null;
  outlet_name: string | null;
  mall_id: number | null;
  mall_name: string | null;
  /** Whether any row of the group holds a sale, a refund or a voucher. */
  seen: boolean;
}

/** The whole days from the earlier start to the later end of a range and the span it is compared with. */
const wholeDaysOfBoth = (range: Pick<ReportRange, 'start' | 'end'>, span: Pick<ReportRange, 'start' | 'end'>) => ({
  start: earlierDay(span.start, range.start),
  end: laterDay(span.end, range.end),
  startHour: 0,
  endHour: 23,
});

/** The amount report's rows (AmountReportRow) of the groups `x` (grain 0 the totals, 1 the days, 2 the outlets). */
const AMOUNT_ROWS = `SELECT x.current, (ARRAY['total', 'day', 'outlet'])[x.grain + 1] AS grain,
    to_char(x.local_day, 'YYYY-MM-DD') AS day, x.outlet_id, s.name AS outlet_name, s.mall_id, s.mall_name,
    ${exact('x.a')} AS amount, x.c::int AS count, ${exact('x.g')} AS gmv, x.t::int AS transactions, x.seen
  FROM x LEFT JOIN scope s ON s.id = x.outlet_id
  ORDER BY x.grain, lower(s.name), x.outlet_id, x.local_day`;

/** The refund or voucher report's rows (amountReport) from the outlets' days: for callers limited to some outlets. */
async function amountRowsByOutletDay(
  db: Queryable,
  scope: ReportScope,
  range: Pick<ReportRange, 'start' | 'end'>,
  compared: { span: Pick<ReportRange, 'start' | 'end'>; mallDays: readonly MallDays[] },
  kind: AmountKind,
): Promise<AmountReportRow[]> {
  const params = new SqlParams();
  const both = wholeDaysOfBoth(range, compared.span);
  const comparedDays = mallDaysFilter(params, compared.mallDays, 'outlet');
  const cte = scopeCte(params, scope, both);
  // Rates apply to the groups of p below, each one currency's day or one outlet's month: a rate is one a currency
  // and a month, and exact decimals times a rate sum the same grouped or not. A day's group takes the rate of one
  // of its outlets (all of them in its currency).
  const rate = rateOf(params, scope, both, 'outlet');
  const currency = currencyGroupOf(params, scope);
  const client = params.add(scope.clientId, '::int');
  const inScope = 'r.outlet_id = ANY(ARRAY(SELECT id FROM scope))';
  const { amount, count } = AMOUNT_COLUMNS[kind];
  const cents = (column: string) => (rate === '1' ? `(r.${column} * 100)` : `(r.${column} * 100 * ${rate})`);
  const side = (current: boolean, days: string) =>
    `SELECT r.outlet_id, r.local_day, date_trunc('month', r.local_day)::date AS month, ${currency} AS currency,
       ${current} AS current, r.${amount} AS a, r.${count} AS c, r.gmv AS g, r.transactions AS t
     FROM rollup_outlet_daily r WHERE r.client_id = ${client} AND ${inScope} AND ${days}`;
  const within = (span: Pick<ReportRange, 'start' | 'end'>) =>
    `r.local_day BETWEEN ${params.add(span.start, '::date')} AND ${params.add(span.end, '::date')}`;
  const sums = `sum(a) AS a, sum(c) AS c, sum(g) AS g, sum(t) AS t, bool_or(seen) AS seen`;
  const { rows } = await db.query<AmountReportRow>(
    `WITH ${comparedDays.ctes} ${cte},
     d AS (
       ${side(true, within(range))}
       UNION ALL
       ${side(false, `${within(compared.span)} AND ${comparedDays.filter}`)}
     ),
     p AS (
       SELECT current, min(outlet_id) AS outlet_id, coalesce(local_day, month) AS local_day,
         GROUPING(outlet_id) = 1 AS by_day, sum(a) AS a, sum(c) AS c, sum(g) AS g, sum(t) AS t,
         bool_or(t > 0 OR c > 0 OR g <> 0 OR a <> 0) AS seen
       FROM d GROUP BY GROUPING SETS ((current, currency, local_day), (current, outlet_id, month))
     ),
     v AS (
       SELECT r.current, r.by_day, r.local_day, r.outlet_id, ${cents('a')} AS a, r.c, ${cents('g')} AS g, r.t, r.seen
       FROM p r
     ),
     x AS (
       SELECT current, 0 AS grain, NULL::date AS local_day, NULL::int AS outlet_id, ${sums}
       FROM v WHERE by_day GROUP BY current
       UNION ALL
       SELECT current, 1, local_day, NULL, ${sums} FROM v WHERE by_day AND current GROUP BY current, local_day
       UNION ALL
       SELECT current, 2, NULL, outlet_id, ${sums} FROM v WHERE NOT by_day AND current GROUP BY current, outlet_id
       HAVING sum(a) <> 0 OR sum(c) > 0
     )
     ${AMOUNT_ROWS}`,
    params.values,
  );
  return rows;
}

/**
 * The refund or voucher report's rows (amountReport) for a caller who sees whole malls: totals and days from the
 * malls' days (rollup_mall_daily), outlets from their whole months (rollup_outlet_monthly) and their other days
 * (rollup_outlet_daily); each row at its mall's or outlet's rate of its month, in exact decimals, so that the days
 * and the outlets sum to the same total. The days and the outlets are two statements run side by side.
 */
async function amountRowsByMallDay(
  db: Queryable,
  scope: ReportScope,
  range: Pick<ReportRange, 'start' | 'end'>,
  compared: { span: Pick<ReportRange, 'start' | 'end'>; mallDays: readonly MallDays[] },
  kind: AmountKind,
): Promise<AmountReportRow[]> {
  const both = wholeDaysOfBoth(range, compared.span);
  const { amount, count } = AMOUNT_COLUMNS[kind];
  // The rows of `from` (a table aliased r and its WHERE) with their rate, worked out once a row (OFFSET 0 keeps the
  // planner from copying it into each amount), and their amounts in cents at that rate.
  const rated = (from: string, rate: string) =>
    rate === '1' ? from : `(SELECT r.*, ${rate} AS rate FROM ${from} OFFSET 0) r WHERE true`;
  const values = (rate: string) =>
    `${rate === '1' ? `(r.${amount} * 100)` : `(r.${amount} * 100 * r.rate)`} AS a, r.${count} AS c,
     ${rate === '1' ? '(r.gmv * 100)' : `(r.gmv * 100 * r.rate)`} AS g, r.transactions AS t`;
  const sums = `sum(a) AS a, sum(c) AS c, sum(g) AS g, sum(t) AS t, bool_or(t > 0 OR c > 0 OR g <> 0 OR a <> 0) AS seen`;
  // Each part's rows as the report reads them; a part is one statement with parameters of its own.
  const rowsOf = (params: SqlParams, ctes: string, x: string) =>
    db.query<AmountReportRow>(
      `WITH ${ctes} ${scopeCte(params, scope, both)}, ${x}
       ${AMOUNT_ROWS}`,
      params.values,
    );
  const within = (params: SqlParams, column: string, span: Pick<ReportRange, 'start' | 'end'>) =>
    `r.${column} BETWEEN ${params.add(span.start, '::date')} AND ${params.add(span.end, '::date')}`;

  // The totals and the days, from the malls' days; with outlets left out (like-for-like), less those outlets' days.
  const daysPart = () => {
    const params = new SqlParams();
    const comparedDays = mallDaysFilter(params, compared.mallDays, 'mall');
    const mallRate = rateOf(params, scope, both, 'mall');
    const client = params.add(scope.clientId, '::int');
    const malls = `r.client_id = ${client} AND r.mall_id = ANY(ARRAY(SELECT DISTINCT mall_id FROM scope))`;
    const leftOut = scope.leftOut?.length ? params.add(scope.leftOut, '::int[]') : undefined;
    const mallDays = leftOut
      ? `(SELECT r.client_id, r.mall_id, r.local_day, r.gmv, r.transactions, r.${amount}, r.${count} FROM rollup_mall_daily r
          UNION ALL
          SELECT d.client_id, o.mall_id, d.local_day, -d.gmv, -d.transactions, -d.${amount}, -d.${count}
          FROM rollup_outlet_daily d
          JOIN outlets o ON o.client_id = d.client_id AND o.id = d.outlet_id AND o.id = ANY(${leftOut})
          WHERE d.client_id = ${client} AND d.outlet_id = ANY(${leftOut}))`
      : 'rollup_mall_daily';
    return rowsOf(
      params,
      comparedDays.ctes,
      `days AS (
         SELECT true AS current, r.local_day, ${values(mallRate)}
         FROM ${rated(`${mallDays} r WHERE ${malls} AND ${within(params, 'local_day', range)}`, mallRate)}
         UNION ALL
         SELECT false, r.local_day, ${values(mallRate)}
         FROM ${rated(
           `${mallDays} r WHERE ${malls} AND ${within(params, 'local_day', compared.span)} AND ${comparedDays.filter}`,
           mallRate,
         )}
       ),
       day_sums AS (
         SELECT current, local_day, sum(a) AS a, sum(c) AS c, sum(g) AS g, sum(t) AS t FROM days GROUP BY 1, 2
       ),
       x AS (
         SELECT current, 0 AS grain, NULL::date AS local_day, NULL::int AS outlet_id, ${sums}
         FROM day_sums GROUP BY current
         UNION ALL
         SELECT true, 1, local_day, NULL, ${sums} FROM day_sums WHERE current GROUP BY local_day
       )`,
    );
  };

  // The outlets, from their whole months (rollup_outlet_monthly) and their other days (rollup_outlet_daily).
  const outletsPart = () => {
    const params = new SqlParams();
    const outletRate = rateOf(params, scope, both, 'outlet');
    const client = params.add(scope.clientId, '::int');
    const outlets = `r.client_id = ${client} AND r.outlet_id = ANY(ARRAY(SELECT id FROM scope))`;
    const months = wholeMonthsOf(range);
    const outletRows = [
      ...(months
        ? [
            `SELECT r.outlet_id, ${values(outletRate)}
             FROM ${rated(
               `(SELECT r.*, r.month AS local_day FROM rollup_outlet_monthly r
                   WHERE ${outlets} AND ${within(params, 'month', { start: months.first, end: months.last })}) r WHERE true`,
               outletRate,
             )}`,
          ]
        : []),
      ...(months ? months.edges : [range]).map(
        (span) =>
          `SELECT r.outlet_id, ${values(outletRate)}
           FROM ${rated(`rollup_outlet_daily r WHERE ${outlets} AND ${within(params, 'local_day', span)}`, outletRate)}`,
      ),
    ];
    // A range of one whole month (or of one day) is one row an outlet, taken as it is: summing 2,000 outlets' single
    // rows into groups took a third of the statement (a regional operator's month: 13 to 9.7 ms).
    const oneRowAnOutlet =
      outletRows.length === 1 && (months ? months.first === months.last : range.start === range.end);
    return rowsOf(
      params,
      '',
      oneRowAnOutlet
        ? `x AS (
             SELECT true AS current, 2 AS grain, NULL::date AS local_day, outlet_id, a, c, g, t,
               t > 0 OR c > 0 OR g <> 0 OR a <> 0 AS seen
             FROM (${outletRows.join('')}) o WHERE a <> 0 OR c > 0
           )`
        : `x AS (
             SELECT true AS current, 2 AS grain, NULL::date AS local_day, outlet_id, ${sums}
             FROM (${outletRows.join(' UNION ALL ')}) o
             GROUP BY outlet_id HAVING sum(a) <> 0 OR sum(c) > 0
           )`,
    );
  };

  // Two statements side by side (each about half the work at a regional operator's size), in the order the one
  // statement gave before: totals, days, outlets by name.
  const [days, outlets] = await Promise.all([daysPart(), outletsPart()]);
  return [...days.rows, ...outlets.rows];
}

/**
 * Refunds or voucher redemptions of the scope (rollup_outlet_daily: whole days) over `range` against the days it is
 * compared with (`compared`: each mall's days), with GMV and transactions beside them: totals of both periods, every
 * day of the range (zeros included) and the outlets with any, largest amount first (at most 100). Converted like
 * the other reports when the malls use several currencies. One pass over the rows of both sides, grouped three ways
 * at once (GROUPING SETS).
 */
export async function amountReport(
  db: Queryable,
  scope: ReportScope,
  range: Pick<ReportRange, 'start' | 'end'>,
  compared: { span: Pick<ReportRange, 'start' | 'end'>; mallDays: readonly MallDays[] },
  kind: AmountKind,
): Promise<AmountReportAnswer> {
  const rows = wholeMalls(scope)
    ? await amountRowsByMallDay(db, scope, range, compared, kind)
    : await amountRowsByOutletDay(db, scope, range, compared, kind);
  const zero: ExactAmountTotals = { amount: '0', count: 0, gmv: '0', transactions: 0 };
  const totalOf = (current: boolean) =>
    rows.find((row) => row.grain === 'total' && row.current === current) ?? { ...zero, seen: false };
  const byDay = new Map(rows.flatMap((row) => (row.grain === 'day' && row.day ? [[row.day, row]] : [])));
  const report = {
    previous_has_data: totalOf(false).seen,
    current: totalOf(true),
    previous: totalOf(false),
    daily: eachDay(range.start, range.end).map((date) => ({
      date,
      amount: byDay.get(date)?.amount ?? null,
      count: byDay.get(date)?.count ?? 0,
    })),
    outlets: rows.flatMap((row) =>
      row.grain === 'outlet' && row.outlet_id !== null && row.mall_id !== null
        ? [
            {
              outlet_id: row.outlet_id,
              outlet_name: row.outlet_name ?? '',
              mall_id: row.mall_id,
              mall_name: row.mall_name ?? '',
              amount: row.amount,
              count: row.count,
              gmv: row.gmv,
              transactions: row.transactions,
            },
          ]
        : [],
    ),
  };
  // The days and the outlets (all of them, before the first 100) rounded together to the range's amount.
  const totalsOf = ({ amount, count, gmv, transactions }: ExactAmountTotals) => ({
    amount: moneyOf(roundCents(exactCents(amount))),
    count,
    gmv: moneyOf(roundCents(exactCents(gmv))),
    transactions,
  });
  const amountCents = roundCents(exactCents(report.current.amount));
  const days = apportion(
    report.daily.map((day) => exactCents(day.amount)),
    amountCents,
  );
  const outlets = apportion(
    report.outlets.map((outlet) => exactCents(outlet.amount)),
    amountCents,
  );
  return {
    previous_has_data: report.previous_has_data,
    current: totalsOf(report.current),
    previous: totalsOf(report.previous),
    daily: report.daily.map((day, index) => ({ ...day, amount: moneyOf(days[index] ?? 0n) })),
    // The first 100 by amount; only their GMV read from its exact text (2,000 outlets' took 1.3 ms of the call).
    outlets: report.outlets
      .map((outlet, index) => ({ outlet, amount: moneyOf(outlets[index] ?? 0n) }))
      .sort((a, b) => b.amount - a.amount)
      .slice(0, 100)
      .map(({ outlet, amount }) => ({ ...outlet, amount, gmv: moneyOf(roundCents(exactCents(outlet.gmv))) })),
  };
}
