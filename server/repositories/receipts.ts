import type { components, operations } from '../../src/api/schema.js';
import { normalisePaymentMethod } from '../../src/domain/paymentMethods.js';
import { netAmount, receiptStatusText } from '../../src/domain/receipts.js';
import { groupPaymentMethods } from '../../src/domain/reports.js';
import type { Queryable } from '../db/pool.js';
import { escapeLike, SqlParams } from '../db/sqlParams.js';
import { decodeRawTexts } from './receiptTexts.js';
import { TENDER_METHODS, TENDERS } from './tenders.js';

type Schemas = components['schemas'];

/**
 * The receipts of outlets (§3, §7): the paged transactions list with its summary, the option lists of its
 * filters, the payment summary and breakdown (from rollup_outlet_payment_daily), one receipt's raw text and the
 * tenant's receipt list. Times are the outlet's mall's local time. Callers have already been checked for the
 * client and outlet ids by the access gate; every query still names client_id first.
 */

export type TimeType = 'date' | 'datetime';

export interface TimeWindow {
  startTime: string;
  endTime: string;
  timeType?: TimeType;
}

export type ReceiptTypeFilter =
  | 'allReceipts'
  | 'openReceipts'
  | 'voidReceipts'
  | 'focReceipts'
  | 'discountReceipts'
  | 'redeemReceipts';

export type TransactionSortColumn = NonNullable<
  NonNullable<operations['getTransactions']['parameters']['query']>['sortColumn']
>;
type TenantSortColumn = NonNullable<
  NonNullable<operations['getTenantReceiptData']['parameters']['query']>['sortColumn']
>;

/** The SQL of each sortable column: the whitelist (nothing else reaches ORDER BY). */
const STATUS_SQL = `CASE WHEN r.void THEN 'Void' WHEN r.opened_bill AND NOT r.closed_bill THEN 'Opened' ELSE 'Closed' END`;
const SORT_SQL: Record<TransactionSortColumn, string> = {
  datetime: 'r.datetime',
  total_amount: 'r.total_amount',
  receipt_id: 'r.receipt_id',
  payment_method: 'r.payment_method',
  receipt_status: STATUS_SQL,
  opened_bill: 'r.opened_bill',
  void: 'r.void',
  closed_bill: 'r.closed_bill',
  foc_bill: 'r.foc_bill',
  redeem_bill: 'r.redeem_bill',
  discount: 'r.discount',
};

export interface TransactionFilters extends TimeWindow {
  clientId: number;
  outletIds: number[];
  outletType?: 1 | 2;
  receiptType?: ReceiptTypeFilter;
  focReason?: string;
  paymentMethod?: string[];
  receiptId?: string;
  sortColumn?: TransactionSortColumn;
  orderByMethod?: 'asc' | 'desc';
  page?: number;
  rowsPerPage?: number;
}

export type ReceiptRow = Schemas['ReceiptRow'];
export type ReceiptSummary = Schemas['ReceiptSummary'];

interface OutletZone {
  id: number;
  type: 1 | 2;
  time_zone: string;
}

async function outletZones(db: Queryable, clientId: number, outletIds: number[]): Promise<OutletZone[]> {
  const { rows } = await db.query<OutletZone>(
    `SELECT o.id, o.type, m.time_zone FROM outlets o JOIN malls m ON m.client_id = o.client_id AND m.id = o.mall_id
     WHERE o.client_id = $1 AND o.id = ANY($2::int[]) ORDER BY o.id`,
    [clientId, outletIds],
  );
  return rows;
}

/**
 * The local [start, end) of a window (checked by the routes' rules): dates are whole days (end inclusive),
 * datetimes end inclusive to the second.
 */
export function localBounds(window: TimeWindow): { start: string; end: string; endInclusive: boolean } {
  const datetime = window.timeType === 'datetime';
  return {
    start: datetime ? window.startTime : window.startTime.slice(0, 10),
    end: datetime ? window.endTime : window.endTime.slice(0, 10),
    endInclusive: datetime,
  };
}

/**
 * The outlet and time condition on receipts `r`: one group per mall time zone, each bounded by the local window
 * converted to instants (so that the (client_id, outlet_id, datetime) index answers it).
 */
function outletWindowSql(p: SqlParams, clientId: number, zones: OutletZone[], window: TimeWindow): string {
  const { start, end, endInclusive } = localBounds(window);
  const byZone = new Map<string, number[]>();
  for (const zone of zones) byZone.set(zone.time_zone, [...(byZone.get(zone.time_zone) ?? []), zone.id]);
  const startParam = p.add(start);
  const endParam = p.add(end);
  const groups = [...byZone].map(([timeZone, ids]) => {
    const tz = p.add(timeZone);
    const upper = endInclusive
      ? `r.datetime < ((${endParam}::timestamp + interval '1 second') AT TIME ZONE ${tz})`
      : `r.datetime < ((${endParam}::date + 1)::timestamp AT TIME ZONE ${tz})`;
    return `(r.outlet_id = ANY(${p.add(ids)}::int[]) AND r.datetime >= (${startParam}::timestamp AT TIME ZONE ${tz}) AND ${upper})`;
  });
  return `r.client_id = ${p.add(clientId)} AND (${groups.length > 0 ? groups.join(' OR ') : 'false'})`;
}

/**
 * The payment methods of a filter, normalised, as a text[] parameter; undefined for every method (no filter, or
 * 'all' among them).
 */
function methodsParam(p: SqlParams, paymentMethod: readonly string[] | undefined): string | undefined {
  const methods = paymentMethod ?? [];
  if (methods.length === 0 || methods.some((method) => method.toLowerCase() === 'all')) return undefined;
  return `${p.add([...new Set(methods.map(normalisePaymentMethod))])}::text[]`;
}

/** The tenders `rp` of receipt `r` (payment_method, amount), in order. */
const TENDERS_OF_R = TENDERS('r', 'rp');

/**
 * The WHERE clause of the transactions list (every filter of §7). With payment methods, a receipt matches when
 * one of its tenders was paid with one of them, or, having no tenders, when its own method is one of them.
 */
function transactionWhere(p: SqlParams, filters: TransactionFilters, zones: OutletZone[]): string {
  const conditions = [outletWindowSql(p, filters.clientId, zones, filters)];
  switch (filters.receiptType ?? 'allReceipts') {
    case 'openReceipts':
      conditions.push('r.opened_bill');
      break;
    case 'voidReceipts':
      conditions.push('r.void');
      break;
    case 'focReceipts':
      conditions.push('r.foc_bill');
      break;
    case 'discountReceipts':
      conditions.push('r.discount > 0');
      break;
    case 'redeemReceipts':
      conditions.push('r.redeem_bill');
      break;
    default:
      break;
  }
  if (filters.focReason) conditions.push(`r.foc_bill AND r.foc_reason = ${p.add(filters.focReason)}`);
  const methods = methodsParam(p, filters.paymentMethod);
  if (methods) {
    conditions.push(`${TENDER_METHODS('r')} && ${methods}`);
  }
  if (filters.receiptId) conditions.push(`r.receipt_id ILIKE ${p.add(`%${escapeLike(filters.receiptId)}%`)}`);
  return conditions.join(' AND ');
}

export function sortSql(sortColumn: TransactionSortColumn | undefined, order: 'asc' | 'desc' | undefined): string {
  const direction = order === 'asc' ? 'ASC' : 'DESC';
  return `${SORT_SQL[sortColumn ?? 'datetime']} ${direction}, r.id ${direction}`;
}

const LOCAL = (column: string, format: string) => `to_char(${column} AT TIME ZONE m.time_zone, '${format}')`;

function rowSelect(extra: boolean): string {
  return `r.id, r.outlet_id, octet_length(r.raw_receipt) > 0 AS has_image,
    ${LOCAL('r.datetime', 'YYYY-MM-DD HH24:MI:SS')} AS datetime,
    ${LOCAL('r.datetime', 'HH24:MI:SS')} AS time, ${LOCAL('r.dine_out_time', 'HH24:MI:SS')} AS dine_out_time,
    r.receipt_id, r.payment_method, r.total_amount, r.discount, r.opened_bill, r.void, r.closed_bill, r.foc_bill,
    r.redeem_bill${extra ? ', r.name_reason, r.table_no AS "table", r.take_away, r.delivery_info' : ''}`;
}

const RECEIPT_ZONE_JOIN = `JOIN outlets o ON o.client_id = r.client_id AND o.id = r.outlet_id
  JOIN malls m ON m.client_id = o.client_id AND m.id = o.mall_id`;

type StoredRow = Omit<ReceiptRow, 'receipt_status'>;

function shapeRow(row: StoredRow, extra: boolean): ReceiptRow {
  const shaped: ReceiptRow = { ...row, receipt_status: receiptStatusText(row) };
  if (!extra) {
    delete shaped.name_reason;
    delete shaped.table;
    delete shaped.take_away;
    delete shaped.delivery_info;
  }
  return shaped;
}

/** The page of receipts and the summary over every matching receipt. */
export async function listTransactions(
  db: Queryable,
  filters: TransactionFilters,
): Promise<{ data: ReceiptRow[]; summary: [ReceiptSummary] }> {
  const order = sortSql(filters.sortColumn, filters.orderByMethod);
  const zones = await outletZones(db, filters.clientId, filters.outletIds);
  const extra = (filters.outletType ?? zones[0]?.type ?? 2) === 1;
  const rowsPerPage = filters.rowsPerPage ?? 10;
  const page = filters.page ?? 1;

  // Totals leave out void receipts (as the payment summary, which reads the tenders of receipts that are not
  // void); with payment methods the sum is what was paid with them, so the two agree for the same filters.
  const summaryParams = new SqlParams();
  const summaryWhere = transactionWhere(summaryParams, filters, zones);
  const methods = methodsParam(summaryParams, filters.paymentMethod);
  const amount = methods
    ? `coalesce((SELECT sum(rp.amount) FROM ${TENDERS_OF_R} WHERE rp.payment_method = ANY(${methods})), r.total_amount)`
    : 'r.total_amount';
  const summarySql = `SELECT count(*)::int AS total, count(*) FILTER (WHERE r.void)::int AS void_count,
      coalesce(sum(${amount}) FILTER (WHERE NOT r.void), 0)::numeric AS sum,
      coalesce(sum(r.discount) FILTER (WHERE NOT r.void), 0)::numeric AS discount
    FROM receipts r WHERE ${summaryWhere}`;
  const summaryResult = await db.query<ReceiptSummary>(summarySql, summaryParams.values);
  const summary = summaryResult.rows[0] ?? { total: 0, void_count: 0, sum: 0, discount: 0 };

  // A page in the back half is read from the other end (reversed order, small offset): the sort keeps only the
  // rows up to the page (a top-N sort) instead of sorting the whole window. The order is total (ties by id),
  // so the reversed page is exactly the same rows.
  const offsetRows = (page - 1) * rowsPerPage;
  const fromEnd = offsetRows > summary.total / 2 && offsetRows < summary.total;
  const pageOrder = fromEnd ? sortSql(filters.sortColumn, filters.orderByMethod === 'asc' ? 'desc' : 'asc') : order;
  const pageLimit = fromEnd ? Math.min(rowsPerPage, summary.total - offsetRows) : rowsPerPage;
  const pageOffset = fromEnd ? Math.max(0, summary.total - offsetRows - rowsPerPage) : offsetRows;

  const pageParams = new SqlParams();
  const pageWhere = transactionWhere(pageParams, filters, zones);
  const limit = pageParams.add(pageLimit);
  const offset = pageParams.add(pageOffset);
  // The page's ids first (an index-only scan of the window), then their display columns.
  const pageSql = `WITH ids AS (
      SELECT r.id, r.client_id, r.datetime FROM receipts r WHERE ${pageWhere} ORDER BY ${pageOrder}
      LIMIT ${limit} OFFSET ${offset}
    )
    SELECT ${rowSelect(extra)} FROM ids
    JOIN receipts r ON r.client_id = ids.client_id AND r.id = ids.id AND r.datetime = ids.datetime
    ${RECEIPT_ZONE_JOIN} ORDER BY ${order}`;
  const pageResult = await db.query<StoredRow>(pageSql, pageParams.values);
  return { data: pageResult.rows.map((row) => shapeRow(row, extra)), summary: [summary] };
}

/* ---------------------------------------------------------------- the receipts PDF */

/** The filters of the PDF: the list's, without paging. */
export type PdfFilters = Omit<TransactionFilters, 'page' | 'rowsPerPage'>;

/** Receipts with their raw text are read this many at a time for the PDF. */
export const PDF_BATCH_SIZE = 100;

export type PdfReceiptRow = ReceiptRow & { raw_receipt: string; receipt_code: number | null; outlet_name: string };

/** The receipts a PDF holds: how many the filters select, and the ids of the first `cap` of them in list order. */
export interface PdfSelection {
  total: number;
  ids: number[];
}

/**
 * The receipts of the PDF: the number the filters select and the ids of the first `cap` in the list's order (one
 * sort of the window, ids only, so at most `cap` numbers are held whatever the selection).
 */
export async function selectPdfReceipts(db: Queryable, filters: PdfFilters, cap: number): Promise<PdfSelection> {
  const zones = await outletZones(db, filters.clientId, filters.outletIds);
  const countParams = new SqlParams();
  const countSql = `SELECT count(*)::int AS total FROM receipts r WHERE ${transactionWhere(countParams, filters, zones)}`;
  const idParams = new SqlParams();
  const idWhere = transactionWhere(idParams, filters, zones);
  const idSql = `SELECT r.id FROM receipts r WHERE ${idWhere}
    ORDER BY ${sortSql(filters.sortColumn, filters.orderByMethod)} LIMIT ${idParams.add(cap)}`;
  const [count, page] = await Promise.all([
    db.query<{ total: number }>(countSql, countParams.values),
    db.query<{ id: number }>(idSql, idParams.values),
  ]);
  const ids = page.rows.map((row) => row.id);
  return { total: Math.max(count.rows[0]?.total ?? 0, ids.length), ids };
}

/**
 * The receipts of `ids` with their raw text and outlet name, in the order of `ids`, read `batchSize` at a time:
 * one query a batch, each run when the caller asks for the next, so only one batch is held at once.
 */
export async function* readPdfReceipts(
  db: Queryable,
  clientId: number,
  ids: readonly number[],
  batchSize: number = PDF_BATCH_SIZE,
): AsyncGenerator<PdfReceiptRow[]> {
  for (let start = 0; start < ids.length; start += batchSize) {
    const batch = ids.slice(start, start + batchSize);
    const { rows } = await db.query<
      StoredRow & { raw_receipt: Buffer; receipt_code: number | null; outlet_name: string }
    >(
      `SELECT ${rowSelect(true)}, r.raw_receipt, r.receipt_code, o.name AS outlet_name
       FROM unnest($2::bigint[]) WITH ORDINALITY AS batch(id, position)
       JOIN receipts r ON r.client_id = $1 AND r.id = batch.id ${RECEIPT_ZONE_JOIN}
       ORDER BY batch.position`,
      [clientId, batch],
    );
    const texts = await decodeRawTexts(
      db,
      clientId,
      rows.map((row) => row.raw_receipt),
    );
    yield rows.map((row, i) => ({
      ...row,
      raw_receipt: texts[i] ?? '',
      receipt_status: receiptStatusText(row),
    }));
  }
}

/* ---------------------------------------------------------------- option lists */

/** The receipt-type flags that occur in the outlets' receipts (any time). */
const RECEIPT_TYPE_FLAGS = [
  'opened_bill',
  'void',
  'foc_bill',
  'discount',
  'redeem',
] as const satisfies readonly Schemas['ReceiptTypeFlag'][];

export async function receiptTypeFlags(
  db: Queryable,
  clientId: number,
  outletIds: number[],
): Promise<Schemas['ReceiptTypeFlag'][]> {
  // One probe per flag: each stops at the first receipt that has it.
  const probe = (condition: string) =>
    `EXISTS (SELECT 1 FROM receipts r WHERE r.client_id = $1 AND r.outlet_id = ANY($2::int[]) AND ${condition})`;
  const { rows } = await db.query<Record<string, boolean>>(
    `SELECT ${probe('r.opened_bill')} AS opened_bill, ${probe('r.void')} AS void, ${probe('r.foc_bill')} AS foc_bill,
       ${probe('r.discount > 0')} AS discount, ${probe('r.redeem_bill')} AS redeem`,
    [clientId, outletIds],
  );
  const row = rows[0] ?? {};
  return RECEIPT_TYPE_FLAGS.filter((flag) => row[flag] === true);
}

/** The most values an option list answers (stated in the contract). */
export const MAX_OPTIONS = 1000;

export async function focReasons(db: Queryable, clientId: number, outletIds: number[]): Promise<string[]> {
  const { rows } = await db.query<{ reason: string }>(
    `SELECT DISTINCT r.foc_reason AS reason FROM receipts r
     WHERE r.client_id = $1 AND r.outlet_id = ANY($2::int[]) AND r.foc_bill AND coalesce(r.foc_reason, '') <> ''
     ORDER BY 1 LIMIT $3`,
    [clientId, outletIds, MAX_OPTIONS],
  );
  return rows.map((row) => row.reason);
}

/** Payment method names seen at the outlets (stored normalised: upper-cased, OTHERS), sorted. */
export async function paymentMethodNames(db: Queryable, clientId: number, outletIds: number[]): Promise<string[]> {
  const { rows } = await db.query<{ method: string }>(
    `SELECT DISTINCT p.payment_method AS method FROM rollup_outlet_payment_daily p
     WHERE p.client_id = $1 AND p.outlet_id = ANY($2::int[]) ORDER BY 1 LIMIT $3`,
    [clientId, outletIds, MAX_OPTIONS],
  );
  return rows.map((row) => row.method);
}

/* ---------------------------------------------------------------- payment summary and breakdown */

export type PaymentSummaryRow = Schemas['PaymentSummary'];

function dayBounds(window: TimeWindow): { start: string; end: string } {
  const { start, end } = localBounds(window);
  return { start: start.slice(0, 10), end: end.slice(0, 10) };
}

/**
 * Sum per payment method over the local days of the window (rollup_outlet_payment_daily), grouped by §9, with
 * the fee percent of each method (processing_fees of the outlet: methods are stored normalised on both sides,
 * normalisePaymentMethod) and the net amount. Over
 * several outlets the net is summed per outlet and the fee shown is the effective one.
 */
export async function paymentSummary(
  db: Queryable,
  clientId: number,
  outletIds: number[],
  window: TimeWindow,
  paymentMethod?: readonly string[],
): Promise<PaymentSummaryRow[]> {
  const { start, end } = dayBounds(window);
  const p = new SqlParams(clientId, outletIds, start, end);
  const methods = methodsParam(p, paymentMethod);
  const { rows } = await db.query<{ outlet_id: number; method: string; sum: number; fee: number }>(
    `WITH s AS (
       SELECT p.outlet_id, p.payment_method AS method, sum(p.amount) AS sum
       FROM rollup_outlet_payment_daily p
       WHERE p.client_id = $1 AND p.outlet_id = ANY($2::int[]) AND p.local_day BETWEEN $3::date AND $4::date
         ${methods ? `AND p.payment_method = ANY(${methods})` : ''}
       GROUP BY 1, 2
     )
     SELECT s.outlet_id, s.method, s.sum, coalesce(f.fee, 0) AS fee FROM s
     LEFT JOIN LATERAL (
       SELECT max(pf.processing_fees) AS fee FROM processing_fees pf
       WHERE pf.client_id = $1 AND pf.outlet_id = s.outlet_id AND pf.payment_method = s.method
     ) f ON true`,
    p.values,
  );
  const grouped = groupPaymentMethods(rows.map((row) => ({ payment_method: row.method, sum: row.sum })));
  return grouped.map(({ payment_method, sum }) => {
    const parts = rows.filter((row) => row.method === payment_method);
    const fees = [...new Set(parts.map((row) => row.fee))];
    const net = Math.round(parts.reduce((total, row) => total + netAmount(row.sum, row.fee), 0) * 100) / 100;
    const fee = fees.length === 1 ? (fees[0] ?? 0) : sum === 0 ? 0 : Math.round(((sum - net) / sum) * 10000) / 100;
    return { payment_method, sum, processing_fees: fee, net_amount: net };
  });
}

export type BreakdownSeries = Schemas['PaymentMethodBreakdownSeries'];

/** One series per payment method (grouped by §9, sorted by sum descending), a point per local day 'YYYY/MM/DD'. */
export async function paymentBreakdown(
  db: Queryable,
  clientId: number,
  outletIds: number[],
  window: TimeWindow,
  paymentMethod?: readonly string[],
): Promise<BreakdownSeries[]> {
  const { start, end } = dayBounds(window);
  const p = new SqlParams(clientId, outletIds, start, end);
  const methods = methodsParam(p, paymentMethod);
  const { rows } = await db.query<{ method: string; day: string; sum: number }>(
    `SELECT p.payment_method AS method, to_char(p.local_day, 'YYYY/MM/DD') AS day, sum(p.amount) AS sum
     FROM rollup_outlet_payment_daily p
     WHERE p.client_id = $1 AND p.outlet_id = ANY($2::int[]) AND p.local_day BETWEEN $3::date AND $4::date
       ${methods ? `AND p.payment_method = ANY(${methods})` : ''}
     GROUP BY 1, 2`,
    p.values,
  );
  const days: string[] = [];
  for (
    let day = new Date(`${start}T00:00:00Z`);
    day <= new Date(`${end}T00:00:00Z`);
    day.setUTCDate(day.getUTCDate() + 1)
  ) {
    days.push(day.toISOString().slice(0, 10).replace(/-/g, '/'));
  }
  const grouped = groupPaymentMethods(rows.map((row) => ({ payment_method: row.method, sum: row.sum })));
  return grouped.map(({ payment_method, sum }) => {
    const byDay = new Map(rows.filter((row) => row.method === payment_method).map((row) => [row.day, row.sum]));
    return { payment_method, sum, data: days.map((key) => ({ key, value: byDay.get(key) ?? 0 })) };
  });
}

/* ---------------------------------------------------------------- one receipt, tenant list */

export interface StoredReceipt {
  id: number;
  outlet_id: number;
  outlet_name: string;
  receipt_id: string;
  datetime: string;
  raw_receipt: string;
  receipt_code: number | null;
}

/** The receipt with this receipt id at the outlets (the latest when a point of sale reused the number). */
export async function findReceipt(
  db: Queryable,
  clientId: number,
  outletIds: number[],
  receiptId: string,
): Promise<StoredReceipt | undefined> {
  const { rows } = await db.query<Omit<StoredReceipt, 'raw_receipt'> & { raw_receipt: Buffer }>(
    `SELECT r.id, r.outlet_id, o.name AS outlet_name, r.receipt_id,
       ${LOCAL('r.datetime', 'YYYY-MM-DD HH24:MI:SS')} AS datetime, r.raw_receipt, r.receipt_code
     FROM receipts r ${RECEIPT_ZONE_JOIN}
     WHERE r.client_id = $1 AND r.outlet_id = ANY($2::int[]) AND r.receipt_id = $3
     ORDER BY r.datetime DESC, r.id DESC LIMIT 1`,
    [clientId, outletIds, receiptId],
  );
  const [row] = rows;
  if (!row) return undefined;
  const [text = ''] = await decodeRawTexts(db, clientId, [row.raw_receipt]);
  return { ...row, raw_receipt: text };
}

const TENANT_SORT: Record<TenantSortColumn, string> = {
  datetime: 'r.datetime',
  total_amount: 'r.total_amount',
  receipt_id: 'r.receipt_id',
  receipt_status: STATUS_SQL,
};

export interface TenantReceiptFilters extends TimeWindow {
  clientId: number;
  outletIds: number[];
  sortColumn?: TenantSortColumn;
  orderByMethod?: 'asc' | 'desc';
  page?: number;
  rowsPerPage?: number;
}

/** The tenant's receipts: a page with every tender's method, and the number of matching receipts. */
export async function listTenantReceipts(
  db: Queryable,
  filters: TenantReceiptFilters,
): Promise<Schemas['TenantReceiptListResponse']> {
  const column = TENANT_SORT[filters.sortColumn ?? 'datetime'];
  const direction = filters.orderByMethod === 'asc' ? 'ASC' : 'DESC';
  const zones = await outletZones(db, filters.clientId, filters.outletIds);
  const rowsPerPage = filters.rowsPerPage ?? 10;
  const page = filters.page ?? 1;
  const p = new SqlParams();
  const where = outletWindowSql(p, filters.clientId, zones, filters);
  const pageSql = `SELECT r.id, r.receipt_id, r.void, r.opened_bill, r.closed_bill, r.total_amount,
      octet_length(r.raw_receipt) > 0 AS has_image, ${LOCAL('r.datetime', 'YYYY-MM-DD HH24:MI:SS')} AS datetime,
      ${TENDER_METHODS('r')} AS payment_method
    FROM receipts r ${RECEIPT_ZONE_JOIN} WHERE ${where}
    ORDER BY ${column} ${direction}, r.id ${direction} LIMIT ${p.add(rowsPerPage)} OFFSET ${p.add((page - 1) * rowsPerPage)}`;
  const q = new SqlParams();
  const countSql = `SELECT count(*)::int AS total FROM receipts r WHERE ${outletWindowSql(q, filters.clientId, zones, filters)}`;
  const [pageResult, countResult] = await Promise.all([
    db.query<{
      id: number;
      receipt_id: string;
      void: boolean;
      opened_bill: boolean;
      closed_bill: boolean;
      total_amount: number;
      datetime: string;
      payment_method: string[];
      has_image: boolean;
    }>(pageSql, p.values),
    db.query<{ total: number }>(countSql, q.values),
  ]);
  return {
    data: pageResult.rows.map((row) => ({
      id: row.id,
      receipt_id: row.receipt_id,
      payment_method: row.payment_method,
      receipt_status: receiptStatusText(row),
      total_amount: row.total_amount,
      datetime: row.datetime,
      has_image: row.has_image,
    })),
    summary: [{ total: countResult.rows[0]?.total ?? 0 }],
  };
}
