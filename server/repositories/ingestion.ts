import { normalisePaymentMethod } from '../../src/domain/paymentMethods.js';
import type { PoolClient } from '../db/pool.js';
import { encodeLineItems } from '../receipts/lineItems.js';
import { encodeRawText, type TextDictionary } from '../receipts/rawText.js';
import { LIKE_FOR_LIKE_SILENCE_DAYS } from './comparisons.js';
import {
  addRunningColumnsSql,
  PAYMENT_HOUR_MEASURES,
  runningColumns,
  runningTotalsSql,
  SALES_HOUR_MEASURES,
  sumRunningColumnsSql,
  UNIT_HOUR_MEASURES,
} from './hourColumns.js';
import { outletTextDictionaries } from './receiptTexts.js';
import { TENDERS } from './tenders.js';

/**
 * Receipt ingestion: the one code path by which receipts enter the database (the demo generator included).
 *
 * In the caller's transaction it inserts the receipts, their payments and line items, and adds their
 * figures to the rollups that reports read. Rollup hours and days are the outlet's mall's local time
 * (`malls.time_zone`, `datetime AT TIME ZONE tz`).
 *
 * rollup_outlet_daily measures:
 * - gmv, transactions: sum of total_amount and count of receipts that are not void;
 * - member_gmv, member_transactions: the same over non-void receipts of members (is_member);
 * - discount, discount_count: sum of discount and count over non-void receipts with discount > 0;
 * - voucher_amount, voucher_count: sum of voucher_amount and count over non-void receipts with voucher_amount > 0;
 * - refund_amount, refund_count: sum of refund_amount and count over non-void receipts with refund_amount > 0;
 * - void_amount, void_count: sum of total_amount and count of void receipts;
 * - foc_count: count of non-void receipts with foc_bill.
 * Payment methods (the receipt's and every tender's) are stored normalised (normalisePaymentMethod of
 * src/domain/paymentMethods.ts, the rule of §9): ' visa ' and 'VISA' are stored as VISA, '' and 'NONE' as OTHERS;
 * migration 008 rewrote the rows stored before by the same rule.
 * rollup_outlet_payment_daily: amount = sum of the tenders' amounts and payments = count of tenders,
 * over non-void receipts, by normalised payment method. A receipt given without payments has no payment rows
 * and adds nothing to the payment rollup.
 * Running totals by local hour of the day (hourColumns.ts, migration 006): gmv, transactions, member_gmv and
 * member_transactions per outlet and day (rollup_outlet_day_hours) and per mall and day
 * (rollup_mall_day_hours); the payment amount per outlet, day and method (amount_h* of
 * rollup_outlet_payment_daily) and per mall, day and method (rollup_mall_payment_day_hours). Money in cents.
 * Line items and meal timings (migration 016): units sold (the quantities of the line items of non-void receipts)
 * as running totals by hour on the outlet's day rows (units_h*); quantity and amount per outlet, local day and SKU
 * (rollup_outlet_sku_daily); revenue and transactions per outlet, local day and meal timing of the outlet whose
 * [start_time, end_time) holds the receipt's local time of day (rollup_outlet_meal_daily). The outlets are locked
 * FOR NO KEY UPDATE for the transaction, so a meal timing change (which locks its outlet FOR UPDATE and counts the
 * timing again from the receipts) never runs beside a batch of the same outlet, nor do two batches of one outlet
 * (whose day bounds are checked against what is stored: below).
 * Members (migration 018): spend (cents) and visits per outlet, local day and member id over non-void receipts
 * with a member id (rollup_member_outlet_daily), for cross spending.
 *
 * Amounts are rounded to 2 decimals once (numeric(14,2)) and the same rounded values feed the receipts and
 * the rollups, so the rollups always equal an aggregation over the stored receipts.
 *
 * Day bounds (migration 027, DAY_BOUNDS): an outlet's local day holds at most 1,000,000 receipts; over all of
 * them (void ones included) the absolute values of each of total_amount, discount, voucher_amount and
 * refund_amount add up to at most 1,000,000,000,000 (the *_volume columns of rollup_outlet_daily keep those sums),
 * and so do, over its receipts that are not void, the absolute amounts of the tenders of each payment method
 * (volume of rollup_outlet_payment_daily) and of the line items of each SKU (volume of rollup_outlet_sku_daily).
 * A receipt that would take a bound past it is refused with its field, and the others are stored: a day full of
 * VISA still takes CASH. Every money figure a rollup row keeps is a sum of some of those values, so none is beyond
 * 10^12 (numeric(16,2) holds 10^14, an int8 of cents 9.2 * 10^16: a mall's day of 92,000 full outlets), and every
 * count at most 50 tenders of 1,000,000 receipts a day (integer columns hold 2.1 * 10^9); units are at most
 * 5 * 10^13 a day (int8).
 */

export interface ReceiptPaymentInput {
  /** As the point of sale captured it ('visa', ' VISA', '', 'NONE'); stored normalised (VISA, OTHERS). */
  method: string;
  amount: number;
}

export interface ReceiptItemInput {
  skuId: number;
  quantity: number;
  unitPrice: number;
  amount: number;
}

/** One receipt as a point of sale sends it. Money in the outlet's currency; amounts are rounded to cents. */
export interface ReceiptInput {
  outletId: number;
  /** The point of sale's receipt number; some systems send a bare Unix timestamp instead. */
  receiptId: string;
  /** When the receipt was made (an instant; reports use the mall's local time). */
  datetime: Date;
  /** When the diners left (F&B dine-in), else null. */
  dineOutTime: Date | null;
  /** What the receipt totals after discounts: the GMV of the receipt. */
  totalAmount: number;
  discount: number;
  /** The part paid with mall vouchers. */
  voucherAmount: number;
  refundAmount: number;
  /** The receipt's main payment method, as captured; stored normalised like the tenders'. */
  paymentMethod: string;
  isMember: boolean;
  /** The loyalty member who presented a card (the client's member number); absent or null for non-members. */
  memberId?: string | null;
  nameReason: string | null;
  tableNo: string | null;
  takeAway: boolean;
  deliveryInfo: string | null;
  openedBill: boolean;
  void: boolean;
  closedBill: boolean;
  focBill: boolean;
  focReason: string | null;
  redeemBill: boolean;
  /** Most receipts have none; codes 99 and 100 mark printer drivers whose raw text needs cleaning when shown. */
  receiptCode: number | null;
  /** The receipt as printed, plain text. */
  rawReceipt: string;
  /** The tenders, in order; a receipt without payments adds nothing to the payment rollup. */
  payments: ReceiptPaymentInput[];
  items: ReceiptItemInput[];
}

/**
 * The sums of absolute values over all of an outlet day's receipts that DAY_BOUNDS limits on rollup_outlet_daily
 * (migration 027), by the receipt field each comes from.
 */
const VOLUME_FIELDS = {
  total_volume: 'total_amount',
  discount_volume: 'discount',
  voucher_volume: 'voucher_amount',
  refund_volume: 'refund_amount',
} as const;
type DayVolume = keyof typeof VOLUME_FIELDS;
const DAY_VOLUMES = Object.keys(VOLUME_FIELDS) as DayVolume[];

/** Receipts per statement: large enough to amortise round trips, small enough to keep memory flat. */
export const INGEST_BATCH_SIZE = 2500;

/** The amounts of rollup_outlet_daily that rollup_mall_daily and rollup_outlet_monthly sum (migration 036). */
const AMOUNT_MEASURES = [
  'gmv',
  'transactions',
  'refund_amount',
  'refund_count',
  'voucher_amount',
  'voucher_count',
] as const;

/** The measure columns of rollup_outlet_daily. */
const ROLLUP_MEASURES = [
  'gmv',
  'transactions',
  'member_gmv',
  'member_transactions',
  'discount',
  'discount_count',
  'voucher_amount',
  'voucher_count',
  'refund_amount',
  'refund_count',
  'void_amount',
  'void_count',
  'foc_count',
  ...DAY_VOLUMES,
] as const;
/** ON CONFLICT: a batch's figures add to the row already there. */
const ADD_MEASURES = ROLLUP_MEASURES.map((column) => `${column} = t.${column} + excluded.${column}`).join(',\n    ');

/** The rollup measures aggregated over receipts `r` (the rules in the comment at the top). */
const MEASURES = `
  coalesce(sum(r.total_amount) FILTER (WHERE NOT r.void), 0) AS gmv,
  count(*) FILTER (WHERE NOT r.void) AS transactions,
  coalesce(sum(r.total_amount) FILTER (WHERE NOT r.void AND r.is_member), 0) AS member_gmv,
  count(*) FILTER (WHERE NOT r.void AND r.is_member) AS member_transactions,
  coalesce(sum(r.discount) FILTER (WHERE NOT r.void AND r.discount > 0), 0) AS discount,
  count(*) FILTER (WHERE NOT r.void AND r.discount > 0) AS discount_count,
  coalesce(sum(r.voucher_amount) FILTER (WHERE NOT r.void AND r.voucher_amount > 0), 0) AS voucher_amount,
  count(*) FILTER (WHERE NOT r.void AND r.voucher_amount > 0) AS voucher_count,
  coalesce(sum(r.refund_amount) FILTER (WHERE NOT r.void AND r.refund_amount > 0), 0) AS refund_amount,
  count(*) FILTER (WHERE NOT r.void AND r.refund_amount > 0) AS refund_count,
  coalesce(sum(r.total_amount) FILTER (WHERE r.void), 0) AS void_amount,
  count(*) FILTER (WHERE r.void) AS void_count,
  count(*) FILTER (WHERE NOT r.void AND r.foc_bill) AS foc_count,
  coalesce(sum(abs(r.total_amount)), 0) AS total_volume,
  coalesce(sum(abs(r.discount)), 0) AS discount_volume,
  coalesce(sum(abs(r.voucher_amount)), 0) AS voucher_volume,
  coalesce(sum(abs(r.refund_amount)), 0) AS refund_volume`;

/** Epoch milliseconds to timestamptz, exactly (no floating point). */
const TS = (param: string) => `(timestamptz 'epoch' + ${param} * interval '1 millisecond')`;

/** Running totals by hour of `h` rows (outlet or mall, local day, hour of day, measures in cents). */
/** The outlet day rows also hold the units sold by hour (migration 016); the mall rows do not. */
const OUTLET_HOUR_MEASURES = [...SALES_HOUR_MEASURES, ...UNIT_HOUR_MEASURES] as const;
const PAYMENT_RUNNING = runningTotalsSql(PAYMENT_HOUR_MEASURES, 'hr', () => 'cents');
const PAYMENT_COLUMNS = runningColumns(PAYMENT_HOUR_MEASURES).join(', ');

/** Adds the running totals of `measures` of the batch's `hc` rows to the day rows of `table`, by `key` and day. */
const salesDayHoursInsert = (table: string, key: 'outlet_id' | 'mall_id', measures: readonly string[]) => `
  INSERT INTO ${table} AS t (client_id, ${key}, local_day, ${runningColumns(measures).join(', ')})
  SELECT $1, ${key}, local_day, ${runningTotalsSql(measures, 'hr', (measure) => measure)}
  FROM hc GROUP BY ${key}, local_day
  ON CONFLICT (client_id, ${key}, local_day) DO UPDATE SET
    ${addRunningColumnsSql(measures, 't')}
`;

/*
 * One statement a batch. $1 client id; receipts $2..$24 and $35 (member ids); payments $25..$28; items $29..$34;
 * each receipt's tenders and items as it stores them (migrations 022 and 023: array literals of the tenders,
 *   NULL for one tender of the receipt's method for its total; the items' bytes) $36..$38.
 * - ins_r inserts the receipts (not those already stored: ON CONFLICT DO NOTHING) and returns the stored
 *   (rounded) figures; it holds the line items of the batch (joined to r, only the inserted ones count), ru their units
 *   per receipt; r adds the mall, its local time and the units;
 * - h aggregates by outlet and local hour; hc is h in cents by local day and hour of the day, from which the
 *   outlet and mall day rows of running totals (migration 006) are summed; d sums h by local day;
 * - pr joins the payments to r (outlet, mall, local day and hour, void flag) for the payment rollups;
 * - ins_sku sums the items of non-void receipts by outlet, local day and SKU; ins_meal sums non-void receipts by
 *   outlet, local day and the outlet's meal timing that holds their local time of day; ins_member sums
 *   non-void receipts with a member id by outlet, local day and member.
 */
const INGEST_SQL = `
WITH zones AS (
  SELECT o.id AS outlet_id, o.mall_id, m.time_zone
  FROM outlets o JOIN malls m ON m.client_id = o.client_id AND m.id = o.mall_id
  WHERE o.client_id = $1
),
ins_r AS (
  INSERT INTO receipts (client_id, id, outlet_id, receipt_id, datetime, dine_out_time, total_amount, discount,
    voucher_amount, refund_amount, payment_method, is_member, name_reason, table_no, take_away, delivery_info,
    opened_bill, void, closed_bill, foc_bill, foc_reason, redeem_bill, receipt_code, raw_receipt, member_id,
    payment_methods, payment_amounts, items)
  SELECT $1, u.id, u.outlet_id, u.receipt_id, ${TS('u.ms')}, ${TS('u.out_ms')}, u.total_amount, u.discount,
    u.voucher_amount, u.refund_amount, u.payment_method, u.is_member, u.name_reason, u.table_no, u.take_away,
    u.delivery_info, u.opened_bill, u.void, u.closed_bill, u.foc_bill, u.foc_reason, u.redeem_bill,
    u.receipt_code, u.raw_receipt, u.member_id, CASE WHEN t.one_tender THEN NULL ELSE t.methods END,
    CASE WHEN t.one_tender THEN NULL ELSE t.amounts END, u.items
  FROM unnest($2::int8[], $3::int4[], $4::text[], $5::int8[], $6::int8[], $7::numeric(14,2)[],
    $8::numeric(14,2)[], $9::numeric(14,2)[], $10::numeric(14,2)[], $11::text[], $12::bool[], $13::text[],
    $14::text[], $15::bool[], $16::text[], $17::bool[], $18::bool[], $19::bool[], $20::bool[], $21::text[],
    $22::bool[], $23::int2[], $24::bytea[], $35::text[], $36::text[], $37::text[], $38::bytea[])
    AS u(id, outlet_id, receipt_id, ms, out_ms, total_amount, discount, voucher_amount, refund_amount,
      payment_method, is_member, name_reason, table_no, take_away, delivery_info, opened_bill, void,
      closed_bill, foc_bill, foc_reason, redeem_bill, receipt_code, raw_receipt, member_id, payment_methods,
      payment_amounts, items)
  CROSS JOIN LATERAL (
    SELECT u.payment_methods::text[] AS methods, u.payment_amounts::numeric(14,2)[] AS amounts,
      u.payment_methods::text[] = ARRAY[u.payment_method]
        AND u.payment_amounts::numeric(14,2)[] = ARRAY[u.total_amount] AS one_tender
  ) t
  ON CONFLICT (client_id, outlet_id, datetime, receipt_id) DO NOTHING
  RETURNING id, outlet_id, datetime, total_amount, discount, voucher_amount, refund_amount, is_member, void, foc_bill,
    member_id
),
it AS MATERIALIZED (
  SELECT * FROM unnest($29::int8[], $30::int2[], $31::int4[], $32::int4[], $33::numeric(14,2)[], $34::numeric(14,2)[])
    AS u(receipt_id, seq, sku_id, quantity, unit_price, amount)
),
ru AS (SELECT receipt_id, sum(quantity)::int8 AS units FROM it GROUP BY receipt_id),
r AS MATERIALIZED (
  SELECT i.id, i.outlet_id, z.mall_id, i.datetime AT TIME ZONE z.time_zone AS local_ts, i.total_amount, i.discount,
    i.voucher_amount, i.refund_amount, i.is_member, i.void, i.foc_bill, coalesce(ru.units, 0) AS units, i.member_id
  FROM ins_r i JOIN zones z ON z.outlet_id = i.outlet_id LEFT JOIN ru ON ru.receipt_id = i.id
),
h AS MATERIALIZED (
  SELECT r.outlet_id, r.mall_id, date_trunc('hour', r.local_ts) AS local_hour, ${MEASURES},
    coalesce(sum(r.units) FILTER (WHERE NOT r.void), 0) AS units
  FROM r GROUP BY r.outlet_id, r.mall_id, date_trunc('hour', r.local_ts)
),
hc AS MATERIALIZED (
  SELECT outlet_id, mall_id, local_hour::date AS local_day, date_part('hour', local_hour)::int AS hr,
    (gmv * 100)::int8 AS gmv, transactions::int8 AS transactions, (member_gmv * 100)::int8 AS member_gmv,
    member_transactions::int8 AS member_transactions, units::int8 AS units
  FROM h
),
ins_oh AS (${salesDayHoursInsert('rollup_outlet_day_hours', 'outlet_id', OUTLET_HOUR_MEASURES)}),
ins_mh AS (${salesDayHoursInsert('rollup_mall_day_hours', 'mall_id', SALES_HOUR_MEASURES)}),
ins_d AS (
  INSERT INTO rollup_outlet_daily AS t (client_id, outlet_id, local_day, gmv, transactions, member_gmv,
    member_transactions, discount, discount_count, voucher_amount, voucher_count, refund_amount, refund_count,
    void_amount, void_count, foc_count, ${DAY_VOLUMES.join(', ')})
  SELECT $1, outlet_id, local_hour::date, sum(gmv), sum(transactions), sum(member_gmv), sum(member_transactions),
    sum(discount), sum(discount_count), sum(voucher_amount), sum(voucher_count), sum(refund_amount),
    sum(refund_count), sum(void_amount), sum(void_count), sum(foc_count),
    ${DAY_VOLUMES.map((column) => `sum(${column})`).join(', ')}
  FROM h GROUP BY outlet_id, local_hour::date
  ON CONFLICT (client_id, outlet_id, local_day) DO UPDATE SET
    ${ADD_MEASURES}
),
p AS MATERIALIZED (
  SELECT * FROM unnest($25::int8[], $26::int2[], $27::text[], $28::numeric(14,2)[])
    AS u(receipt_id, seq, payment_method, amount)
),
ins_sku AS (
  INSERT INTO rollup_outlet_sku_daily AS t (client_id, outlet_id, local_day, sku_id, quantity, amount, volume)
  SELECT $1, r.outlet_id, r.local_ts::date, it.sku_id, sum(it.quantity), sum((it.amount * 100)::int8),
    sum(abs(it.amount))
  FROM it JOIN r ON r.id = it.receipt_id
  WHERE NOT r.void
  GROUP BY r.outlet_id, r.local_ts::date, it.sku_id
  ON CONFLICT (client_id, outlet_id, local_day, sku_id) DO UPDATE SET
    quantity = t.quantity + excluded.quantity, amount = t.amount + excluded.amount, volume = t.volume + excluded.volume
),
ins_member AS (
  INSERT INTO rollup_member_outlet_daily AS t (client_id, outlet_id, local_day, member_id, spend, visits)
  SELECT $1, r.outlet_id, r.local_ts::date, r.member_id, sum((r.total_amount * 100)::int8), count(*)
  FROM r
  WHERE NOT r.void AND r.member_id IS NOT NULL
  GROUP BY r.outlet_id, r.local_ts::date, r.member_id
  ON CONFLICT (client_id, outlet_id, local_day, member_id) DO UPDATE SET
    spend = t.spend + excluded.spend, visits = t.visits + excluded.visits
),
ins_meal AS (
  INSERT INTO rollup_outlet_meal_daily AS t (client_id, outlet_id, local_day, meal_timing_id, revenue, transactions)
  SELECT $1, r.outlet_id, r.local_ts::date, mt.id, sum((r.total_amount * 100)::int8), count(*)
  FROM r JOIN meal_timings mt ON mt.client_id = $1 AND mt.outlet_id = r.outlet_id
    AND r.local_ts::time >= mt.start_time AND r.local_ts::time < mt.end_time
  WHERE NOT r.void
  GROUP BY r.outlet_id, r.local_ts::date, mt.id
  ON CONFLICT (client_id, outlet_id, local_day, meal_timing_id) DO UPDATE SET
    revenue = t.revenue + excluded.revenue, transactions = t.transactions + excluded.transactions
),
pr AS MATERIALIZED (
  SELECT r.outlet_id, r.mall_id, r.local_ts::date AS local_day, date_part('hour', r.local_ts)::int AS hr,
    p.payment_method, p.amount, (p.amount * 100)::int8 AS cents
  FROM p JOIN r ON r.id = p.receipt_id
  WHERE NOT r.void
),
ins_mp AS (
  INSERT INTO rollup_mall_payment_day_hours AS t (client_id, mall_id, local_day, payment_method, ${PAYMENT_COLUMNS})
  SELECT $1, mall_id, local_day, payment_method, ${PAYMENT_RUNNING}
  FROM pr GROUP BY mall_id, local_day, payment_method
  ON CONFLICT (client_id, mall_id, local_day, payment_method) DO UPDATE SET
    ${addRunningColumnsSql(PAYMENT_HOUR_MEASURES, 't')}
),
ins_op AS (
  INSERT INTO rollup_outlet_payment_daily AS t (client_id, outlet_id, local_day, payment_method, amount, payments,
    volume, ${PAYMENT_COLUMNS})
  SELECT $1, outlet_id, local_day, payment_method, sum(amount), count(*), sum(abs(amount)), ${PAYMENT_RUNNING}
  FROM pr GROUP BY outlet_id, local_day, payment_method
  ON CONFLICT (client_id, outlet_id, local_day, payment_method) DO UPDATE SET
    amount = t.amount + excluded.amount,
    payments = t.payments + excluded.payments,
    volume = t.volume + excluded.volume,
    ${addRunningColumnsSql(PAYMENT_HOUR_MEASURES, 't')}
)
SELECT count(*)::int AS inserted FROM r`;

const ID_SQL = `SELECT nextval('receipt_ids') AS id FROM generate_series(1, $1::int)`;

/**
 * Outlet ids of `outletIds` that do not belong to the client (or do not exist). The others are locked FOR KEY
 * SHARE until the transaction ends: a meal timing change of one of them waits for the batch (see the top).
 */
async function unknownOutlets(db: PoolClient, clientId: number, outletIds: number[]): Promise<number[]> {
  const { rows } = await db.query<{ id: number }>(
    'SELECT id FROM outlets WHERE client_id = $1 AND id = ANY($2::int[]) ORDER BY id FOR NO KEY UPDATE',
    [clientId, outletIds],
  );
  const known = new Set(rows.map((row) => row.id));
  return outletIds.filter((id) => !known.has(id));
}

/**
 * The monthly partitions (migration 022) of the receipts' months, created when missing, in the caller's
 * transaction. The server creates the current and the next month ahead (receiptPartitions.ts), so a batch of
 * today's receipts creates nothing; one of a month long past may.
 */
async function ensureMonthPartitions(db: PoolClient, receipts: readonly ReceiptInput[]): Promise<void> {
  const months = new Set<string>();
  for (const receipt of receipts) {
    const ms = receipt.datetime.getTime();
    if (Number.isFinite(ms)) months.add(`${new Date(ms).toISOString().slice(0, 7)}-01`);
  }
  await db.query('SELECT receipts_month_partition(month) FROM unnest($1::date[]) AS month', [[...months]]);
}

/*
 * PostgreSQL array literals, built here rather than by pg so that a batch can be serialised while the previous
 * one is executing (pg serialises parameters only when it sends the query).
 */
class NumberArray {
  private parts: string[] = [];
  constructor(private readonly what: string) {}
  push(value: number | null): void {
    if (value === null) {
      this.parts.push('NULL');
      return;
    }
    if (!Number.isFinite(value)) throw new Error(`ingestReceipts: ${this.what} must be a finite number, got ${value}`);
    this.parts.push(String(value));
  }
  toString(): string {
    return `{${this.parts.join(',')}}`;
  }
}

class TextArray {
  private parts: string[] = [];
  push(value: string | null): void {
    if (value === null) this.parts.push('NULL');
    else if (value.includes('"') || value.includes('\\')) this.parts.push(`"${value.replace(/[\\"]/g, '\\$&')}"`);
    else this.parts.push(`"${value}"`);
  }
  toString(): string {
    return `{${this.parts.join(',')}}`;
  }
}

class BoolArray {
  private parts: string[] = [];
  push(value: boolean): void {
    this.parts.push(value ? 't' : 'f');
  }
  toString(): string {
    return `{${this.parts.join(',')}}`;
  }
}

/** An element of an array literal: a quoted text (quotes and backslashes escaped), or a finite number. */
const textElement = (value: string) => `"${value.replace(/[\\"]/g, '\\$&')}"`;
function numberElement(value: number, what: string): string {
  if (!Number.isFinite(value)) throw new Error(`ingestReceipts: ${what} must be a finite number, got ${value}`);
  return String(value);
}
const arrayLiteral = (elements: readonly string[]) => `{${elements.join(',')}}`;

function timeMs(value: Date | null, what: string): number | null {
  if (value === null) return null;
  const ms = value.getTime();
  if (!Number.isFinite(ms)) throw new Error(`ingestReceipts: invalid ${what}`);
  return ms;
}

/** A receipt's instant and amounts are finite numbers (the bounds are counted from them before they are sent). */
function checkFinite(receipt: ReceiptInput): void {
  timeMs(receipt.datetime, 'datetime');
  const amounts: [string, number][] = [
    ['totalAmount', receipt.totalAmount],
    ['discount', receipt.discount],
    ['voucherAmount', receipt.voucherAmount],
    ['refundAmount', receipt.refundAmount],
    ...receipt.payments.map((payment): [string, number] => ['payment amount', payment.amount]),
    ...receipt.items.map((item): [string, number] => ['item amount', item.amount]),
  ];
  for (const [what, value] of amounts) numberElement(value, what);
}

/** The parameters of INGEST_SQL for one batch, receipt i getting ids[i]. */
function batchParameters(
  clientId: number,
  batch: readonly ReceiptInput[],
  ids: readonly number[],
  dictionaries: ReadonlyMap<number, TextDictionary>,
): string[] {
  const id = new NumberArray('id');
  const outletId = new NumberArray('outletId');
  const receiptId = new TextArray();
  const datetime = new NumberArray('datetime');
  const dineOutTime = new NumberArray('dineOutTime');
  const totalAmount = new NumberArray('totalAmount');
  const discount = new NumberArray('discount');
  const voucherAmount = new NumberArray('voucherAmount');
  const refundAmount = new NumberArray('refundAmount');
  const paymentMethod = new TextArray();
  const isMember = new BoolArray();
  const nameReason = new TextArray();
  const tableNo = new TextArray();
  const takeAway = new BoolArray();
  const deliveryInfo = new TextArray();
  const openedBill = new BoolArray();
  const isVoid = new BoolArray();
  const closedBill = new BoolArray();
  const focBill = new BoolArray();
  const focReason = new TextArray();
  const redeemBill = new BoolArray();
  const receiptCode = new NumberArray('receiptCode');
  const rawReceipt = new TextArray();
  const memberId = new TextArray();
  const storedMethods = new TextArray();
  const storedAmounts = new TextArray();
  const storedItems = new TextArray();
  const payReceipt = new NumberArray('payment receipt');
  const paySeq = new NumberArray('payment seq');
  const payMethod = new TextArray();
  const payAmount = new NumberArray('payment amount');
  const itemReceipt = new NumberArray('item receipt');
  const itemSeq = new NumberArray('item seq');
  const itemSku = new NumberArray('item skuId');
  const itemQuantity = new NumberArray('item quantity');
  const itemPrice = new NumberArray('item unitPrice');
  const itemAmount = new NumberArray('item amount');

  batch.forEach((receipt, i) => {
    const rid = ids[i];
    if (rid === undefined) throw new Error('ingestReceipts: the sequence returned too few ids');
    id.push(rid);
    outletId.push(receipt.outletId);
    receiptId.push(receipt.receiptId);
    datetime.push(timeMs(receipt.datetime, 'datetime'));
    dineOutTime.push(timeMs(receipt.dineOutTime, 'dineOutTime'));
    totalAmount.push(receipt.totalAmount);
    discount.push(receipt.discount);
    voucherAmount.push(receipt.voucherAmount);
    refundAmount.push(receipt.refundAmount);
    paymentMethod.push(normalisePaymentMethod(receipt.paymentMethod));
    isMember.push(receipt.isMember);
    nameReason.push(receipt.nameReason);
    tableNo.push(receipt.tableNo);
    takeAway.push(receipt.takeAway);
    deliveryInfo.push(receipt.deliveryInfo);
    openedBill.push(receipt.openedBill);
    isVoid.push(receipt.void);
    closedBill.push(receipt.closedBill);
    focBill.push(receipt.focBill);
    focReason.push(receipt.focReason);
    redeemBill.push(receipt.redeemBill);
    receiptCode.push(receipt.receiptCode);
    rawReceipt.push(`\\x${encodeRawText(receipt.rawReceipt, dictionaries.get(receipt.outletId)).toString('hex')}`);
    memberId.push(receipt.memberId ?? null);
    storedMethods.push(
      arrayLiteral(receipt.payments.map((payment) => textElement(normalisePaymentMethod(payment.method)))),
    );
    storedAmounts.push(
      arrayLiteral(receipt.payments.map((payment) => numberElement(payment.amount, 'payment amount'))),
    );
    storedItems.push(`\\x${encodeLineItems(receipt.items).toString('hex')}`);
    receipt.payments.forEach((payment, j) => {
      payReceipt.push(rid);
      paySeq.push(j + 1);
      payMethod.push(normalisePaymentMethod(payment.method));
      payAmount.push(payment.amount);
    });
    receipt.items.forEach((item, j) => {
      itemReceipt.push(rid);
      itemSeq.push(j + 1);
      itemSku.push(item.skuId);
      itemQuantity.push(item.quantity);
      itemPrice.push(item.unitPrice);
      itemAmount.push(item.amount);
    });
  });
  return [
    String(clientId),
    ...[id, outletId, receiptId, datetime, dineOutTime, totalAmount, discount, voucherAmount, refundAmount],
    ...[paymentMethod, isMember, nameReason, tableNo, takeAway, deliveryInfo, openedBill, isVoid, closedBill],
    ...[focBill, focReason, redeemBill, receiptCode, rawReceipt],
    ...[payReceipt, paySeq, payMethod, payAmount],
    ...[itemReceipt, itemSeq, itemSku, itemQuantity, itemPrice, itemAmount],
    memberId,
    ...[storedMethods, storedAmounts, storedItems],
  ].map(String);
}

/**
 * What an outlet's local day may hold (see the top): receipts, and each sum of absolute amounts (of the day, of a
 * payment method's tenders, of an SKU's line items), in cents. The contract's IngestReceipt states the same.
 */
export const DAY_BOUNDS = { receipts: 1_000_000, volumeCents: 100_000_000_000_000 } as const;

/** A receipt refused because it would take its outlet's day past a bound: its position in the input. */
export interface RefusedReceipt {
  position: number;
  /** The receipt's field at fault ('total_amount', 'payments/3/amount', 'items/0/amount'; '' for the count). */
  field: string;
  message: string;
}

/**
 * Cents of an amount as PostgreSQL rounds the text it is sent (String(value), numeric(14,2): half away from zero),
 * without sign. An amount of whole cents is read at once; others from their text. Below 10^-6 JavaScript writes
 * an exponent: no cent; a huge amount is beyond every bound.
 */
export function absoluteCents(value: number): number {
  const scaled = Math.abs(value) * 100;
  const whole = Math.round(scaled);
  if (Math.abs(scaled - whole) < 1e-6) return whole;
  const text = String(Math.abs(value));
  if (text.includes('e-')) return 0;
  if (text.includes('e')) return Number.POSITIVE_INFINITY;
  const [units = '0', fraction = ''] = text.split('.');
  const cents = Number(units) * 100 + Number(fraction.slice(0, 2).padEnd(2, '0'));
  return fraction.charAt(2) >= '5' ? cents + 1 : cents;
}

/** The numeric text of a volume column ('12.50', '3') in cents: exact below 2^53 cents, past every bound above. */
function centsOfText(text: string): number {
  const [whole = '0', fraction = ''] = text.split('.');
  return Number(whole) * 100 + Number(fraction.slice(0, 2).padEnd(2, '0'));
}

/**
 * One bounded figure of a rollup row (a bin), keyed by outlet and local day ('12|2026-03-02|') and what it sums:
 * the day's count of receipts or one of its DAY_VOLUMES, a payment method's tenders or an SKU's line items.
 */
const RECEIPTS_BIN = 'receipts';
const boundOf = (bin: string) => (bin.endsWith(RECEIPTS_BIN) ? DAY_BOUNDS.receipts : DAY_BOUNDS.volumeCents);

/** Visits what a receipt adds to each bin of its outlet day (`prefix`), with the receipt's field that adds it. */
type ShareVisitor = (bin: string, amount: number, field: string) => void;

/**
 * What a receipt adds to the bins of its outlet day. Tenders and items of a void receipt reach no rollup (the
 * payment and SKU rows are of receipts that are not void), so they count nothing.
 */
function visitShares(receipt: ReceiptInput, prefix: string, visit: ShareVisitor): void {
  visit(`${prefix}${RECEIPTS_BIN}`, 1, '');
  visit(`${prefix}day|total_volume`, absoluteCents(receipt.totalAmount), VOLUME_FIELDS.total_volume);
  visit(`${prefix}day|discount_volume`, absoluteCents(receipt.discount), VOLUME_FIELDS.discount_volume);
  visit(`${prefix}day|voucher_volume`, absoluteCents(receipt.voucherAmount), VOLUME_FIELDS.voucher_volume);
  visit(`${prefix}day|refund_volume`, absoluteCents(receipt.refundAmount), VOLUME_FIELDS.refund_volume);
  if (receipt.void) return;
  receipt.payments.forEach((payment, j) => {
    visit(
      `${prefix}method|${normalisePaymentMethod(payment.method)}`,
      absoluteCents(payment.amount),
      `payments/${j}/amount`,
    );
  });
  receipt.items.forEach((item, j) => {
    visit(`${prefix}sku|${item.skuId}`, absoluteCents(item.amount), `items/${j}/amount`);
  });
}

/** What one receipt adds to one bin (its tenders of one method, its items of one SKU added up), and its first field. */
interface Share {
  bin: string;
  amount: number;
  field: string;
}

function sharesOf(receipt: ReceiptInput, prefix: string): Share[] {
  const shares = new Map<string, Share>();
  visitShares(receipt, prefix, (bin, amount, field) => {
    const share = shares.get(bin);
    if (share) share.amount += amount;
    else shares.set(bin, { bin, amount, field });
  });
  return [...shares.values()];
}

/**
 * Receipts' local days are read by quarter hours of UTC (a batch's receipts share a few), as PostgreSQL reads them
 * in INGEST_SQL. A quarter hour whose local clock runs on without a jump (no change of offset inside; two are never
 * a quarter hour apart) and whose first and last instants lie in one local day lies in that day whole, as it does
 * everywhere with offsets of whole quarter hours; any other is read receipt by receipt.
 */
const QUARTER_HOUR_MS = 15 * 60 * 1000;
const DAYS_SQL = `
  SELECT u.key, l.first_local::date::text AS first_day,
    l.first_local::date = l.last_local::date
      AND l.last_local - l.first_local = (u.last_ms - u.first_ms) * interval '1 millisecond' AS whole
  FROM unnest($2::text[], $3::int4[], $4::int8[], $5::int8[]) AS u(key, outlet_id, first_ms, last_ms)
  JOIN outlets o ON o.client_id = $1 AND o.id = u.outlet_id
  JOIN malls m ON m.client_id = o.client_id AND m.id = o.mall_id
  CROSS JOIN LATERAL (
    SELECT ${TS('u.first_ms')} AT TIME ZONE m.time_zone AS first_local, ${TS('u.last_ms')} AT TIME ZONE m.time_zone AS last_local
  ) l`;

/** The local day (YYYY-MM-DD, its mall's time zone) of each receipt, by position. */
export async function localDays(
  db: PoolClient,
  clientId: number,
  receipts: readonly ReceiptInput[],
): Promise<string[]> {
  const spans = new Map<string, { outletId: number; first: number; last: number }>();
  const keys = receipts.map((receipt) => {
    const ms = receipt.datetime.getTime();
    const start = Math.floor(ms / QUARTER_HOUR_MS) * QUARTER_HOUR_MS;
    const key = `${receipt.outletId}|${start}`;
    if (!spans.has(key))
      spans.set(key, { outletId: receipt.outletId, first: start, last: start + QUARTER_HOUR_MS - 1 });
    return key;
  });
  const read = async (entries: [string, { outletId: number; first: number; last: number }][]) =>
    (
      await db.query<{ key: string; first_day: string; whole: boolean }>(DAYS_SQL, [
        clientId,
        entries.map(([key]) => key),
        entries.map(([, span]) => span.outletId),
        entries.map(([, span]) => span.first),
        entries.map(([, span]) => span.last),
      ])
    ).rows;
  const dayOf = new Map<string, string>();
  const split = new Set<string>();
  for (const row of await read([...spans])) {
    if (row.whole) dayOf.set(row.key, row.first_day);
    else split.add(row.key);
  }
  if (split.size > 0) {
    const single = receipts
      .map((receipt, position): [string, { outletId: number; first: number; last: number }] => {
        const ms = receipt.datetime.getTime();
        return [`@${position}`, { outletId: receipt.outletId, first: ms, last: ms }];
      })
      .filter((_, position) => split.has(keys[position] ?? ''));
    for (const row of await read(single)) dayOf.set(row.key, row.first_day);
  }
  return keys.map((key, position) => dayOf.get(key) ?? dayOf.get(`@${position}`) ?? '');
}

/** What the receipts' outlet days hold already, bin by bin (the bin's key without its outlet day is kind|name). */
const HELD_SQL = `
  WITH k AS (SELECT * FROM unnest($2::int4[], $3::date[]) AS k(outlet_id, local_day))
  SELECT k.outlet_id, k.local_day::text AS local_day, '${RECEIPTS_BIN}' AS bin, (t.transactions + t.void_count)::text AS held
  FROM k JOIN rollup_outlet_daily t USING (outlet_id, local_day) WHERE t.client_id = $1
  ${DAY_VOLUMES.map(
    (column) => `UNION ALL SELECT k.outlet_id, k.local_day::text, 'day|${column}', t.${column}::text
  FROM k JOIN rollup_outlet_daily t USING (outlet_id, local_day) WHERE t.client_id = $1`,
  ).join('\n  ')}
  UNION ALL SELECT k.outlet_id, k.local_day::text, 'method|' || t.payment_method, t.volume::text
  FROM k JOIN rollup_outlet_payment_daily t USING (outlet_id, local_day) WHERE t.client_id = $1
  UNION ALL SELECT k.outlet_id, k.local_day::text, 'sku|' || t.sku_id, t.volume::text
  FROM k JOIN rollup_outlet_sku_daily t USING (outlet_id, local_day) WHERE t.client_id = $1`;

/** The ordinals (from 1) of the receipts that are stored already (the same outlet, receipt id and instant). */
const STORED_SQL = `
  SELECT u.ord::int AS ord
  FROM unnest($2::int4[], $3::text[], $4::int8[]) WITH ORDINALITY AS u(outlet_id, receipt_id, ms, ord)
  WHERE EXISTS (
    SELECT 1 FROM receipts r
    WHERE r.client_id = $1 AND r.outlet_id = u.outlet_id AND r.receipt_id = u.receipt_id AND r.datetime = ${TS('u.ms')}
  )`;

const identityOf = (receipt: ReceiptInput) => `${receipt.outletId} ${receipt.datetime.getTime()} ${receipt.receiptId}`;

function refusal(position: number, share: Share, day: string): RefusedReceipt {
  if (share.field === '') {
    return {
      position,
      field: '',
      message: `the outlet's day ${day} holds ${DAY_BOUNDS.receipts.toLocaleString('en-US')} receipts already, the most a day may hold`,
    };
  }
  const what = share.field.startsWith('payments/')
    ? "the amounts of the day's payments of this method"
    : share.field.startsWith('items/')
      ? "the amounts of the day's line items of this SKU"
      : `${share.field} over the day's receipts`;
  return {
    position,
    field: share.field,
    message: `would take the outlet's day ${day} past ${(DAY_BOUNDS.volumeCents / 100).toLocaleString('en-US')}, the most ${what} may add up to (as absolute values)`,
  };
}

/**
 * The receipts (positions in `receipts`) that would take a bin of their outlet day past its bound, in the order
 * given: each receipt not stored yet counts as it comes, and one that would pass a bound is refused (the ones after
 * it may still fit). A receipt stored before, or given earlier in the call, counts nothing (it is not stored
 * again). The caller holds the outlets' locks (unknownOutlets), so no other batch of them changes what is read here
 * before this transaction ends. When every bin fits with all the receipts counted, nothing more is asked.
 */
async function beyondDayBounds(
  db: PoolClient,
  clientId: number,
  receipts: readonly ReceiptInput[],
): Promise<RefusedReceipt[]> {
  const days = await localDays(db, clientId, receipts);
  const prefixes = receipts.map((receipt, position) => `${receipt.outletId}|${days[position]}|`);
  const outletDays = new Map<string, [number, string]>();
  receipts.forEach((receipt, position) => {
    outletDays.set(prefixes[position] as string, [receipt.outletId, days[position] as string]);
  });
  const { rows } = await db.query<{ outlet_id: number; local_day: string; bin: string; held: string }>(HELD_SQL, [
    clientId,
    [...outletDays.values()].map(([outletId]) => outletId),
    [...outletDays.values()].map(([, day]) => day),
  ]);
  const held = new Map<string, number>();
  for (const row of rows) {
    const bin = `${row.outlet_id}|${row.local_day}|${row.bin}`;
    held.set(bin, row.bin === RECEIPTS_BIN ? Number(row.held) : centsOfText(row.held));
  }

  const all = new Map(held);
  const addToAll: ShareVisitor = (bin, amount) => {
    all.set(bin, (all.get(bin) ?? 0) + amount);
  };
  receipts.forEach((receipt, position) => {
    visitShares(receipt, prefixes[position] as string, addToAll);
  });
  const crowded = new Set([...all].filter(([bin, amount]) => amount > boundOf(bin)).map(([bin]) => bin));
  if (crowded.size === 0) return [];

  const shares = new Map<number, Share[]>();
  receipts.forEach((receipt, position) => {
    const own = sharesOf(receipt, prefixes[position] as string).filter((share) => crowded.has(share.bin));
    if (own.length > 0) shares.set(position, own);
  });
  const candidates = [...shares.keys()];
  const given = candidates.map((position) => receipts[position] as ReceiptInput);
  const { rows: stored } = await db.query<{ ord: number }>(STORED_SQL, [
    clientId,
    given.map((receipt) => receipt.outletId),
    given.map((receipt) => receipt.receiptId),
    given.map((receipt) => receipt.datetime.getTime()),
  ]);
  const storedBefore = new Set(stored.map(({ ord }) => candidates[ord - 1]));
  const counted = new Set<string>();
  const refused: RefusedReceipt[] = [];
  for (const [position, own] of shares) {
    const receipt = receipts[position] as ReceiptInput;
    const identity = identityOf(receipt);
    if (storedBefore.has(position) || counted.has(identity)) continue;
    const past = own.find((share) => (held.get(share.bin) ?? 0) + share.amount > boundOf(share.bin));
    if (past) {
      refused.push(refusal(position, past, days[position] as string));
      continue;
    }
    counted.add(identity);
    for (const share of own) held.set(share.bin, (held.get(share.bin) ?? 0) + share.amount);
  }
  return refused;
}

/** What became of the receipts given to ingestWithinBounds. */
export interface IngestOutcome {
  /** The receipts inserted (not those stored before). */
  inserted: number;
  /** The receipts refused because they would take their outlet's day past DAY_BOUNDS, by position; none stored. */
  refused: RefusedReceipt[];
}

/**
 * Inserts receipts of one client with their payments and items and updates the rollups, in the caller's
 * transaction (`db` should be inside BEGIN ... COMMIT, e.g. through inTransaction: on an error the caller
 * must roll back). Every outlet must belong to the client. A receipt already stored (the same outlet, receipt id
 * and instant: migration 019), or given twice, is stored once: only the receipts this call inserts, and their
 * payments and items, reach the tables and the rollups. A receipt that would take its outlet's day past DAY_BOUNDS
 * is refused and the others are stored.
 *
 * Ids for the whole call come from the identity sequence in one round trip; the receipts then go in
 * statements of INGEST_BATCH_SIZE, the next one serialised while the previous one executes.
 */
export async function ingestWithinBounds(
  db: PoolClient,
  clientId: number,
  given: readonly ReceiptInput[],
): Promise<IngestOutcome> {
  if (given.length === 0) return { inserted: 0, refused: [] };
  if (!Number.isInteger(clientId)) throw new Error('ingestReceipts: clientId must be an integer');
  const outletIds = [...new Set(given.map((receipt) => receipt.outletId))];
  const unknown = await unknownOutlets(db, clientId, outletIds);
  if (unknown.length > 0) {
    throw new Error(`ingestReceipts: outlet ${unknown.join(', ')} does not belong to client ${clientId}`);
  }
  given.forEach(checkFinite);
  const refused = await beyondDayBounds(db, clientId, given);
  const refusedAt = new Set(refused.map(({ position }) => position));
  const receipts = refusedAt.size === 0 ? given : given.filter((_, position) => !refusedAt.has(position));
  if (receipts.length === 0) return { inserted: 0, refused };
  await ensureMonthPartitions(db, receipts);
  const dictionaries = await outletTextDictionaries(db, clientId, receipts);
  const { rows } = await db.query<{ id: number }>(ID_SQL, [receipts.length]);
  const ids = rows.map((row) => row.id);

  let inFlight: Promise<number> | undefined;
  let inserted = 0;
  try {
    for (let start = 0; start < receipts.length; start += INGEST_BATCH_SIZE) {
      const end = Math.min(start + INGEST_BATCH_SIZE, receipts.length);
      const parameters = batchParameters(clientId, receipts.slice(start, end), ids.slice(start, end), dictionaries);
      if (inFlight) inserted += await inFlight;
      inFlight = db
        .query<{ inserted: number }>({ name: 'ingest_receipts', text: INGEST_SQL, values: parameters })
        .then((result) => result.rows[0]?.inserted ?? 0);
    }
    if (inFlight) inserted += await inFlight;
  } catch (error) {
    // a statement may still be running when serialising the next batch throws: let it settle first
    await inFlight?.catch(() => {});
    throw error;
  }
  return { inserted, refused };
}

/**
 * ingestWithinBounds for receipts that must all fit (the demo generator, tests): one that would take its day past
 * DAY_BOUNDS is an error, on which the caller rolls its transaction back. Returns the number of receipts inserted.
 */
export async function ingestReceipts(db: PoolClient, clientId: number, receipts: ReceiptInput[]): Promise<number> {
  if (receipts.length === 0) return 0;
  const { inserted, refused } = await ingestWithinBounds(db, clientId, receipts);
  const [first] = refused;
  if (first) {
    throw new Error(
      `ingestReceipts: receipt ${first.position} refused (${first.field || 'receipt'}: ${first.message})`,
    );
  }
  return inserted;
}

/**
 * Counts meal timings `timingIds` of the outlet again from its stored receipts (rollup_outlet_meal_daily), for a
 * timing that was added or retimed, in the caller's transaction, which must hold the outlet's row FOR UPDATE (so
 * no batch of the outlet is being ingested meanwhile; see the top).
 */
export async function recountMealTimings(
  db: Pick<PoolClient, 'query'>,
  clientId: number,
  outletId: number,
  timingIds: readonly number[],
): Promise<void> {
  if (timingIds.length === 0) return;
  const values = [clientId, outletId, timingIds];
  await db.query(
    'DELETE FROM rollup_outlet_meal_daily WHERE client_id = $1 AND outlet_id = $2 AND meal_timing_id = ANY($3::int[])',
    values,
  );
  await db.query(
    `INSERT INTO rollup_outlet_meal_daily (client_id, outlet_id, local_day, meal_timing_id, revenue, transactions)
     SELECT $1, $2, l.local_ts::date, t.id, sum((l.total_amount * 100)::int8), count(*)
     FROM (
       SELECT r.datetime AT TIME ZONE m.time_zone AS local_ts, r.total_amount
       FROM receipts r
       JOIN outlets o ON o.client_id = r.client_id AND o.id = r.outlet_id
       JOIN malls m ON m.client_id = o.client_id AND m.id = o.mall_id
       WHERE r.client_id = $1 AND r.outlet_id = $2 AND NOT r.void
     ) l
     JOIN meal_timings t ON t.client_id = $1 AND t.outlet_id = $2 AND t.id = ANY($3::int[])
       AND l.local_ts::time >= t.start_time AND l.local_ts::time < t.end_time
     GROUP BY 3, 4`,
    values,
  );
}

/** Deletes a removed meal timing's rows of rollup_outlet_meal_daily, in the transaction that removes it. */
export async function forgetMealTiming(
  db: Pick<PoolClient, 'query'>,
  clientId: number,
  outletId: number,
  timingId: number,
): Promise<void> {
  await db.query(
    'DELETE FROM rollup_outlet_meal_daily WHERE client_id = $1 AND outlet_id = $2 AND meal_timing_id = $3',
    [clientId, outletId, timingId],
  );
}

const RECEIPTS_LOCAL = `receipts r
  JOIN outlets o ON o.client_id = r.client_id AND o.id = r.outlet_id
  JOIN malls m ON m.client_id = o.client_id AND m.id = o.mall_id`;

/**
 * A consistency check: how many rows of each rollup differ from an aggregation of the stored receipts from
 * scratch (missing, extra or with other figures). All zero when ingestion kept the rollups right.
 */
export interface RollupMismatches {
  daily: number;
  outletDayHours: number;
  mallDayHours: number;
  payment: number;
  mallPayment: number;
  skuDaily: number;
  mealDaily: number;
  memberDaily: number;
  /** Outlet months of rollup_outlet_month_hours that are not the sum of their days (a missing row counts as zeros). */
  outletMonthHours: number;
  /** Mall days of rollup_mall_daily that are not the sum of their outlets' days (a missing row counts as zeros). */
  mallDaily: number;
  /** Outlet months of rollup_outlet_monthly that are not the sum of their days (a missing row counts as zeros). */
  outletMonthly: number;
  /** Trading runs of outlet_trading_runs that are not the runs of the outlets' trading days, or missing. */
  tradingRuns: number;
}

export async function rollupMismatches(db: Pick<PoolClient, 'query'>): Promise<RollupMismatches> {
  const sales = runningColumns(SALES_HOUR_MEASURES);
  const outletSales = runningColumns(OUTLET_HOUR_MEASURES);
  const payment = runningColumns(PAYMENT_HOUR_MEASURES);
  const row = (alias: string, columns: readonly string[]) =>
    `(${columns.map((column) => `${alias}.${column}`).join(', ')})`;
  const sums = (alias: string, columns: readonly string[]) =>
    columns.map((column) => `sum(${alias}.${column}) AS ${column}`).join(', ');
  const zeroed = (alias: string, columns: readonly string[]) =>
    `(${columns.map((column) => `coalesce(${alias}.${column}, 0)`).join(', ')})`;
  const { rows } = await db.query<RollupMismatches>(`
    WITH lr AS MATERIALIZED (
      SELECT r.*, o.mall_id, r.datetime AT TIME ZONE m.time_zone AS local_ts,
        date_part('hour', r.datetime AT TIME ZONE m.time_zone)::int AS hr
      FROM ${RECEIPTS_LOCAL}
    ), ed AS (
      SELECT r.client_id, r.outlet_id, r.local_ts::date AS local_day, ${MEASURES}
      FROM lr r GROUP BY 1, 2, 3
    ), li AS (
      SELECT r.client_id, r.outlet_id, r.local_ts::date AS local_day, r.id AS receipt_id, i.sku_id, i.quantity,
        i.amount
      FROM lr r CROSS JOIN LATERAL receipt_line_items(r.items) AS i
      WHERE NOT r.void
    ), ru AS (
      SELECT client_id, receipt_id, sum(quantity)::int8 AS units FROM li GROUP BY 1, 2
    ), sales AS (
      SELECT lr.client_id, outlet_id, mall_id, local_ts::date AS local_day, hr,
        CASE WHEN void THEN 0 ELSE total_amount * 100 END::int8 AS gmv, CASE WHEN void THEN 0 ELSE 1 END AS transactions,
        CASE WHEN void OR NOT is_member THEN 0 ELSE total_amount * 100 END::int8 AS member_gmv,
        CASE WHEN void OR NOT is_member THEN 0 ELSE 1 END AS member_transactions, coalesce(ru.units, 0) AS units
      FROM lr LEFT JOIN ru ON ru.client_id = lr.client_id AND ru.receipt_id = lr.id
    ), eoh AS (
      SELECT client_id, outlet_id, local_day, ${runningTotalsSql(OUTLET_HOUR_MEASURES, 'hr', (measure) => measure)}
      FROM sales GROUP BY 1, 2, 3
    ), emh AS (
      SELECT client_id, mall_id, local_day, ${runningTotalsSql(SALES_HOUR_MEASURES, 'hr', (measure) => measure)}
      FROM sales GROUP BY 1, 2, 3
    ), pay AS (
      SELECT r.client_id, r.outlet_id, r.mall_id, r.local_ts::date AS local_day, r.hr, p.payment_method, p.amount
      FROM lr r CROSS JOIN LATERAL ${TENDERS('r', 'p')}
      WHERE NOT r.void
    ), ep AS (
      SELECT client_id, outlet_id, local_day, payment_method, sum(amount) AS amount, count(*) AS payments,
        sum(abs(amount)) AS volume,
        ${runningTotalsSql(PAYMENT_HOUR_MEASURES, 'hr', () => '(amount * 100)::int8')}
      FROM pay GROUP BY 1, 2, 3, 4
    ), emp AS (
      SELECT client_id, mall_id, local_day, payment_method,
        ${runningTotalsSql(PAYMENT_HOUR_MEASURES, 'hr', () => '(amount * 100)::int8')}
      FROM pay GROUP BY 1, 2, 3, 4
    ), esku AS (
      SELECT client_id, outlet_id, local_day, sku_id, sum(quantity)::int8 AS quantity,
        sum((amount * 100)::int8)::int8 AS amount, sum(abs(amount)) AS volume
      FROM li GROUP BY 1, 2, 3, 4
    ), emember AS (
      SELECT client_id, outlet_id, local_ts::date AS local_day, member_id,
        sum((total_amount * 100)::int8)::int8 AS spend, count(*)::int AS visits
      FROM lr WHERE NOT void AND member_id IS NOT NULL
      GROUP BY 1, 2, 3, 4
    ), emeal AS (
      SELECT r.client_id, r.outlet_id, r.local_ts::date AS local_day, t.id AS meal_timing_id,
        sum((r.total_amount * 100)::int8)::int8 AS revenue, count(*)::int8 AS transactions
      FROM lr r JOIN meal_timings t ON t.client_id = r.client_id AND t.outlet_id = r.outlet_id
        AND r.local_ts::time >= t.start_time AND r.local_ts::time < t.end_time
      WHERE NOT r.void
      GROUP BY 1, 2, 3, 4
    )
    SELECT
      (SELECT count(*)::int FROM ed e FULL JOIN rollup_outlet_daily t USING (client_id, outlet_id, local_day)
        WHERE ${row('e', ROLLUP_MEASURES)} IS DISTINCT FROM ${row('t', ROLLUP_MEASURES)}) AS daily,
      (SELECT count(*)::int FROM eoh e FULL JOIN rollup_outlet_day_hours t USING (client_id, outlet_id, local_day)
        WHERE ${row('e', outletSales)} IS DISTINCT FROM ${row('t', outletSales)}) AS "outletDayHours",
      (SELECT count(*)::int FROM emh e FULL JOIN rollup_mall_day_hours t USING (client_id, mall_id, local_day)
        WHERE ${row('e', sales)} IS DISTINCT FROM ${row('t', sales)}) AS "mallDayHours",
      (SELECT count(*)::int FROM ep e FULL JOIN rollup_outlet_payment_daily t
          USING (client_id, outlet_id, local_day, payment_method)
        WHERE ${row('e', ['amount', 'payments', 'volume', ...payment])} IS DISTINCT FROM ${row('t', ['amount', 'payments', 'volume', ...payment])}) AS payment,
      (SELECT count(*)::int FROM emp e FULL JOIN rollup_mall_payment_day_hours t
          USING (client_id, mall_id, local_day, payment_method)
        WHERE ${row('e', payment)} IS DISTINCT FROM ${row('t', payment)}) AS "mallPayment",
      (SELECT count(*)::int FROM esku e FULL JOIN rollup_outlet_sku_daily t USING (client_id, outlet_id, local_day, sku_id)
        WHERE (e.quantity, e.amount, e.volume) IS DISTINCT FROM (t.quantity, t.amount, t.volume)) AS "skuDaily",
      (SELECT count(*)::int FROM emeal e FULL JOIN rollup_outlet_meal_daily t
          USING (client_id, outlet_id, local_day, meal_timing_id)
        WHERE (e.revenue, e.transactions) IS DISTINCT FROM (t.revenue, t.transactions)) AS "mealDaily",
      (SELECT count(*)::int FROM emember e FULL JOIN rollup_member_outlet_daily t
          USING (client_id, outlet_id, local_day, member_id)
        WHERE (e.spend, e.visits) IS DISTINCT FROM (t.spend, t.visits)) AS "memberDaily",
      (SELECT count(*)::int FROM (
          SELECT client_id, outlet_id, date_trunc('month', local_day)::date AS month, ${sumRunningColumnsSql(OUTLET_HOUR_MEASURES, 'eoh')}
          FROM eoh GROUP BY 1, 2, 3
        ) e FULL JOIN rollup_outlet_month_hours t USING (client_id, outlet_id, month)
        WHERE ${zeroed('e', outletSales)} IS DISTINCT FROM ${zeroed('t', outletSales)}) AS "outletMonthHours",
      (SELECT count(*)::int FROM (
          SELECT e.client_id, o.mall_id, e.local_day, ${sums('e', AMOUNT_MEASURES)}
          FROM ed e JOIN outlets o ON o.client_id = e.client_id AND o.id = e.outlet_id GROUP BY 1, 2, 3
        ) e FULL JOIN rollup_mall_daily t USING (client_id, mall_id, local_day)
        WHERE ${zeroed('e', AMOUNT_MEASURES)} IS DISTINCT FROM ${zeroed('t', AMOUNT_MEASURES)}) AS "mallDaily",
      (SELECT count(*)::int FROM (
          SELECT e.client_id, e.outlet_id, date_trunc('month', e.local_day)::date AS month, ${sums('e', AMOUNT_MEASURES)}
          FROM ed e GROUP BY 1, 2, 3
        ) e FULL JOIN rollup_outlet_monthly t USING (client_id, outlet_id, month)
        WHERE ${zeroed('e', AMOUNT_MEASURES)} IS DISTINCT FROM ${zeroed('t', AMOUNT_MEASURES)}) AS "outletMonthly",
      (SELECT count(*)::int FROM (
          SELECT client_id, outlet_id, min(local_day) AS start_day, max(local_day) AS end_day
          FROM (
            SELECT client_id, outlet_id, local_day,
              sum(brk) OVER (PARTITION BY client_id, outlet_id ORDER BY local_day) AS run
            FROM (
              SELECT client_id, outlet_id, local_day,
                CASE WHEN local_day - lag(local_day) OVER (PARTITION BY client_id, outlet_id ORDER BY local_day) - 1
                          <= ${LIKE_FOR_LIKE_SILENCE_DAYS} THEN 0 ELSE 1 END AS brk
              FROM ed WHERE transactions > 0
            ) d
          ) r GROUP BY client_id, outlet_id, run
        ) e FULL JOIN outlet_trading_runs t USING (client_id, outlet_id, start_day)
        WHERE e.end_day IS DISTINCT FROM t.end_day) AS "tradingRuns"`);
  const [result] = rows;
  if (!result) throw new Error('rollupMismatches: no answer');
  return result;
}

/** The ids of `skuIds` that are SKUs of the outlet. */
export async function outletSkuIds(
  db: Pick<PoolClient, 'query'>,
  clientId: number,
  outletId: number,
  skuIds: readonly number[],
): Promise<Set<number>> {
  if (skuIds.length === 0) return new Set();
  const { rows } = await db.query<{ id: number }>(
    'SELECT id FROM skus WHERE client_id = $1 AND outlet_id = $2 AND id = ANY($3::int[])',
    [clientId, outletId, [...new Set(skuIds)]],
  );
  return new Set(rows.map((row) => row.id));
}
