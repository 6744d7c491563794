import type { components } from '../../src/api/schema.js';
import type { Queryable } from '../db/pool.js';
import { escapeLike, SqlParams } from '../db/sqlParams.js';
import { ok, type Result, refuse } from './domainError.js';
import { hourRowsSql, overHoursSql } from './hourColumns.js';

/**
 * The outlet reports of the sales analysis page (§7 outlet reports), all from rollups kept by ingestion
 * (migrations 006 and 016), never from receipts:
 * - revenue, transactions and units over time, the daily breakdown and the comparison of two periods read
 *   rollup_outlet_day_hours, whose running totals by hour answer any whole-hour window exactly;
 * - top SKUs and the item breakdown read rollup_outlet_sku_daily (per outlet, local day and SKU);
 * - the meal-timing report reads rollup_outlet_meal_daily (per outlet, local day and meal timing).
 * Money is summed in cents and answered in the outlets' currency; outlets of several currencies are refused
 * (sameCurrency) rather than added together. Days and hours are the outlet's mall's local time.
 */

type Schemas = components['schemas'];

/** Days `start`..`end`, from `startHour` of the first to `endHour` of the last (both included, 0..23). */
export interface HourWindow {
  start: string;
  end: string;
  startHour: number;
  endHour: number;
}

export interface DayWindow {
  start: string;
  end: string;
}

export interface OutletSelection {
  clientId: number;
  outletIds: readonly number[];
}

/** The measures with running totals by hour on the outlet day rows: revenue in cents, counts as they are. */
export type HourMeasure = 'gmv' | 'transactions' | 'units';
export type Bucket = 'hourly' | 'daily' | 'weekly' | 'monthly';

/**
 * Refused (a conflict) when the outlets use more than one currency: an outlet report never adds amounts of
 * different currencies (the caller asks one currency's outlets instead).
 */
/** The malls of some outlets of a client, in the order of the outlets. */
export async function mallsOfOutlets(db: Queryable, selection: OutletSelection): Promise<number[]> {
  const { rows } = await db.query<{ mall_id: number }>(
    `SELECT o.mall_id FROM unnest($2::int[]) WITH ORDINALITY AS u(id, n)
     JOIN outlets o ON o.client_id = $1 AND o.id = u.id ORDER BY u.n`,
    [selection.clientId, selection.outletIds],
  );
  return rows.map((row) => row.mall_id);
}

export async function sameCurrency(db: Queryable, selection: OutletSelection): Promise<Result<void>> {
  const { rows } = await db.query<{ currency: string }>(
    'SELECT DISTINCT currency FROM outlets WHERE client_id = $1 AND id = ANY($2::int[]) ORDER BY 1',
    [selection.clientId, selection.outletIds],
  );
  if (rows.length > 1) {
    const names = rows.map((row) => row.currency).join(', ');
    return refuse(
      'conflict',
      `The selected outlets use more than one currency (${names}); their amounts are not added together: choose outlets of one currency.`,
    );
  }
  return ok(undefined);
}

/** `measure` of day row `r` within the window's hours (the first and last day may be partial). */
function windowValue(measure: HourMeasure, window: HourWindow, params: SqlParams): string {
  const whole = `r.${measure}_h24`;
  if (window.startHour === 0 && window.endHour === 23) return whole;
  if (window.start === window.end) return overHoursSql('r', measure, window.startHour, window.endHour);
  return `CASE r.local_day WHEN ${params.add(window.start, '::date')} THEN ${overHoursSql('r', measure, window.startHour, 23)}
    WHEN ${params.add(window.end, '::date')} THEN ${overHoursSql('r', measure, 0, window.endHour)} ELSE ${whole} END`;
}

/** The condition on day rows `r` of a rollup: the selection's outlets over the window's days (its primary key). */
function dayRowsWhere(selection: OutletSelection, window: DayWindow, params: SqlParams): string {
  return `r.client_id = ${params.add(selection.clientId, '::int')}
    AND r.outlet_id = ANY(${params.add(selection.outletIds, '::int[]')})
    AND r.local_day BETWEEN ${params.add(window.start, '::date')} AND ${params.add(window.end, '::date')}`;
}

const UNIT: Record<Exclude<Bucket, 'hourly'>, string> = { daily: 'day', weekly: 'week', monthly: 'month' };

/** A bucket's key from its start: 'YYYY-MM-DD HH:00', 'YYYY-MM-DD' (days, weeks from Monday) or 'YYYY-MM'. */
function bucketKey(bucket: Bucket, start: string): string {
  if (bucket === 'hourly') return `to_char(${start}, 'YYYY-MM-DD HH24:00')`;
  return bucket === 'monthly' ? `to_char(${start}, 'YYYY-MM')` : `to_char(${start}, 'YYYY-MM-DD')`;
}

const asNumber = (value: string | number) => Number(value);
const money = (cents: string | number) => Number(cents) / 100;

export type PointSeries = Schemas['PointSeries'];

/**
 * One measure per bucket of the window, every bucket of it (zeros included), oldest first, and its total.
 * Revenue in the outlets' currency (2 decimals), transactions and units as counts.
 */
export async function pointSeries(
  db: Queryable,
  selection: OutletSelection,
  window: HourWindow,
  measure: HourMeasure,
  bucket: Bucket,
): Promise<PointSeries> {
  const params = new SqlParams();
  const where = dayRowsWhere(selection, window, params);
  const first = `(${params.add(window.start, '::date')} + ${params.add(window.startHour, '::int')} * interval '1 hour')`;
  const last = `(${params.add(window.end, '::date')} + ${params.add(window.endHour, '::int')} * interval '1 hour')`;
  let sql: string;
  if (bucket === 'hourly') {
    sql = `WITH agg AS (
        SELECT r.local_day + hv.hour * interval '1 hour' AS t, sum(hv.${measure}) AS v
        FROM rollup_outlet_day_hours r, ${hourRowsSql('r', [measure], 0, 23, 'hv')} WHERE ${where}
        GROUP BY 1
      )
      SELECT ${bucketKey('hourly', 'g')} AS key, coalesce(a.v, 0)::int8 AS value
      FROM generate_series(${first}, ${last}, interval '1 hour') g LEFT JOIN agg a ON a.t = g
      ORDER BY g`;
  } else {
    const unit = UNIT[bucket];
    sql = `WITH agg AS (
        SELECT r.local_day AS day, sum(${windowValue(measure, window, params)}) AS v
        FROM rollup_outlet_day_hours r WHERE ${where} GROUP BY 1
      )
      SELECT ${bucketKey(bucket, `date_trunc('${unit}', g)`)} AS key, coalesce(sum(a.v), 0)::int8 AS value
      FROM generate_series(date_trunc('day', ${first}), ${last}, interval '1 day') g LEFT JOIN agg a ON a.day = g::date
      GROUP BY date_trunc('${unit}', g) ORDER BY date_trunc('${unit}', g)`;
  }
  const result = await db.query<{ key: string; value: string }>(sql, params.values);
  const scale = measure === 'gmv' ? money : asNumber;
  const totalRaw = result.rows.reduce((sum, row) => sum + Number(row.value), 0);
  return {
    data: result.rows.map((row) => ({ key: row.key, value: scale(row.value) })),
    total: scale(totalRaw),
  };
}

export type BreakdownRow = Schemas['BreakdownRow'];

/** Revenue per local day of the window (zeros included), key 'YYYY/MM/DD', oldest first. */
export async function dailyBreakdown(
  db: Queryable,
  selection: OutletSelection,
  window: HourWindow,
): Promise<BreakdownRow[]> {
  const { data } = await pointSeries(db, selection, window, 'gmv', 'daily');
  return data.map((point) => ({ key: point.key.replaceAll('-', '/'), value: point.value }));
}

export type ComparisonTotals = Schemas['ComparisonTotals'];

/** Revenue, transactions, units and the average transaction value (revenue / transactions) over the window. */
export async function comparisonTotals(
  db: Queryable,
  selection: OutletSelection,
  window: HourWindow,
  days?: readonly string[],
): Promise<ComparisonTotals> {
  const params = new SqlParams();
  // Only some days of the window (a festival-aligned comparison), when given.
  const where = dayRowsWhere(selection, window, params);
  const only = days ? ` AND r.local_day = ANY(${params.add(days, '::date[]')})` : '';
  const { rows: result } = await db.query<{ gmv: string; transactions: string; units: string }>(
    `SELECT coalesce(sum(${windowValue('gmv', window, params)}), 0)::int8 AS gmv,
       coalesce(sum(${windowValue('transactions', window, params)}), 0)::int8 AS transactions,
       coalesce(sum(${windowValue('units', window, params)}), 0)::int8 AS units
     FROM rollup_outlet_day_hours r WHERE ${where}${only}`,
    params.values,
  );
  const cents = Number(result[0]?.gmv ?? 0);
  const transactions = Number(result[0]?.transactions ?? 0);
  return {
    revenue: money(cents),
    transactions,
    unit_sales: Number(result[0]?.units ?? 0),
    average_transaction_value: transactions === 0 ? 0 : Math.round(cents / transactions) / 100,
  };
}

export type TopSkuResponse = Schemas['TopSkuResponse'];

export interface TopSkuQuery {
  skuId?: number;
  sortMethod: 'quantity' | 'amount';
  orderByMethod: 'asc' | 'desc';
  page: number;
  rowsPerPage: number;
}

/**
 * The SKUs sold in the window ranked by quantity or amount (ties by SKU id, so pages never overlap), one page of
 * them, and over all of them: how many, the highest quantity and the highest revenue.
 */
export async function topSkus(
  db: Queryable,
  selection: OutletSelection,
  window: DayWindow,
  query: TopSkuQuery,
): Promise<TopSkuResponse> {
  const params = new SqlParams();
  const where = dayRowsWhere(selection, window, params);
  const only = query.skuId === undefined ? '' : `AND r.sku_id = ${params.add(query.skuId, '::int')}`;
  const direction = query.orderByMethod === 'asc' ? 'ASC' : 'DESC';
  const order = `${query.sortMethod === 'amount' ? 's.amount' : 's.quantity'} ${direction}, s.sku_id`;
  const client = params.add(selection.clientId, '::int');
  const limit = params.add(query.rowsPerPage, '::int');
  const offset = params.add((query.page - 1) * query.rowsPerPage, '::int');
  const { rows: result } = await db.query<{
    rows_total: number;
    max_quantity: string | null;
    max_amount: string | null;
    sku_id: number | null;
    barcode: string | null;
    item_name: string | null;
    quantity: string | null;
    amount: string | null;
  }>(
    `WITH s AS MATERIALIZED (
       SELECT r.sku_id, sum(r.quantity)::int8 AS quantity, sum(r.amount)::int8 AS amount
       FROM rollup_outlet_sku_daily r WHERE ${where} ${only}
       GROUP BY r.sku_id
     ),
     t AS (SELECT count(*)::int AS rows_total, max(quantity) AS max_quantity, max(amount) AS max_amount FROM s)
     SELECT t.*, p.* FROM t LEFT JOIN LATERAL (
       SELECT s.sku_id, k.barcode, coalesce(k.item_name, '') AS item_name, s.quantity, s.amount
       FROM s LEFT JOIN skus k ON k.client_id = ${client} AND k.id = s.sku_id
       ORDER BY ${order} LIMIT ${limit} OFFSET ${offset}
     ) p ON true`,
    params.values,
  );
  const first = result[0];
  const data = result.flatMap((row) =>
    row.sku_id === null
      ? []
      : [
          {
            sku_id: row.sku_id,
            barcode: row.barcode,
            item_name: row.item_name ?? '',
            quantity: Number(row.quantity),
            unit_price: Number(row.quantity) === 0 ? 0 : Math.round(Number(row.amount) / Number(row.quantity)) / 100,
            amount: money(row.amount ?? 0),
          },
        ],
  );
  return {
    data,
    total: {
      rows_total: first?.rows_total ?? 0,
      max_quantity: Number(first?.max_quantity ?? 0),
      max_revenue: money(first?.max_amount ?? 0),
    },
  };
}

export type ItemSalesBreakdownRow = Schemas['ItemSalesBreakdownRow'];

/** Items per bucket (daily, weekly from Monday, monthly): each bucket's 10 best by amount, oldest bucket first. */
export async function itemSalesBreakdown(
  db: Queryable,
  selection: OutletSelection,
  window: DayWindow,
  bucket: Exclude<Bucket, 'hourly'>,
): Promise<ItemSalesBreakdownRow[]> {
  const params = new SqlParams();
  const where = dayRowsWhere(selection, window, params);
  const start = `date_trunc('${UNIT[bucket]}', r.local_day)`;
  const { rows: result } = await db.query<{
    key: string;
    sku_id: number;
    item_name: string;
    quantity: string;
    amount: string;
  }>(
    `WITH s AS (
       SELECT ${start} AS b, r.sku_id, sum(r.quantity)::int8 AS quantity, sum(r.amount)::int8 AS amount
       FROM rollup_outlet_sku_daily r WHERE ${where} GROUP BY 1, 2
     ),
     ranked AS (
       SELECT s.*, row_number() OVER (PARTITION BY s.b ORDER BY s.amount DESC, s.quantity DESC, s.sku_id) AS n FROM s
     )
     SELECT ${bucketKey(bucket, 'x.b')} AS key, x.sku_id, coalesce(k.item_name, '') AS item_name, x.quantity, x.amount
     FROM ranked x LEFT JOIN skus k ON k.client_id = ${params.add(selection.clientId, '::int')} AND k.id = x.sku_id
     WHERE x.n <= 10
     ORDER BY x.b, x.n`,
    params.values,
  );
  return result.map((row) => ({
    key: row.key,
    sku_id: row.sku_id,
    item_name: row.item_name,
    quantity: Number(row.quantity),
    amount: money(row.amount),
  }));
}

export type MealTimingReportRow = Schemas['MealTimingReportRow'];

/** Revenue and transactions of each meal timing of the outlets over the window's days, in start-time order. */
export async function mealTimingReport(
  db: Queryable,
  selection: OutletSelection,
  window: DayWindow,
): Promise<MealTimingReportRow[]> {
  const { rows } = await db.query<{
    meal_timing_id: number;
    name: string;
    start_time: string;
    end_time: string;
    revenue: string;
    transactions: string;
  }>(
    `SELECT t.id AS meal_timing_id, t.name, to_char(t.start_time, 'HH24:MI') AS start_time,
       to_char(t.end_time, 'HH24:MI') AS end_time, coalesce(sum(m.revenue), 0)::int8 AS revenue,
       coalesce(sum(m.transactions), 0)::int8 AS transactions
     FROM meal_timings t
     LEFT JOIN rollup_outlet_meal_daily m ON m.client_id = t.client_id AND m.outlet_id = t.outlet_id
       AND m.meal_timing_id = t.id AND m.local_day BETWEEN $3::date AND $4::date
     WHERE t.client_id = $1 AND t.outlet_id = ANY($2::int[])
     GROUP BY t.client_id, t.id
     ORDER BY t.start_time, t.outlet_id, t.id`,
    [selection.clientId, selection.outletIds, window.start, window.end],
  );
  return rows.map((row) => ({
    meal_timing_id: row.meal_timing_id,
    name: row.name,
    start_time: row.start_time,
    end_time: row.end_time,
    revenue: money(row.revenue),
    transactions: Number(row.transactions),
  }));
}

export type Sku = Schemas['Sku'];

/** At most 100 SKUs of the outlets whose item name or barcode contains `searchText` (any case), by name. */
export async function searchSkus(db: Queryable, selection: OutletSelection, searchText?: string): Promise<Sku[]> {
  const params = new SqlParams(selection.clientId, selection.outletIds);
  const text = searchText?.trim() ?? '';
  const match =
    text === ''
      ? ''
      : `AND (item_name ILIKE ${params.add(`%${escapeLike(text)}%`)} OR barcode ILIKE ${params.add(`%${escapeLike(text)}%`)})`;
  const { rows } = await db.query<Sku>(
    `SELECT id, barcode, item_name FROM skus
     WHERE client_id = $1 AND outlet_id = ANY($2::int[]) ${match}
     ORDER BY lower(item_name), id LIMIT 100`,
    params.values,
  );
  return rows;
}
