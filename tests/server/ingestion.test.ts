import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inTransaction, type Pool } from '../../server/db/pool.js';
import {
  INGEST_BATCH_SIZE,
  ingestReceipts,
  type ReceiptInput,
  rollupMismatches,
} from '../../server/repositories/ingestion.js';
import { decodeRawTexts } from '../../server/repositories/receiptTexts.js';
import { receiptInput as receipt } from './fixtures.js';
import { createTestDatabase, defined, type TestDatabase } from './helpers.js';

/*
 * A hand-made dataset: one client, a mall in Singapore (UTC+8) and one in New York (UTC-5 in January,
 * UTC-4 in July), three outlets and thirteen receipts whose rollups are worked out by hand below.
 */
const CLIENT = 1;
const A1 = 11; // Singapore
const A2 = 12; // Singapore
const B1 = 21; // New York

async function seed(pool: Pool): Promise<void> {
  await pool.query(`
    INSERT INTO clients (id, name) VALUES (1, 'Test Client'), (2, 'Other Client');
    INSERT INTO malls (client_id, id, name, currency, time_zone) VALUES
      (1, 1, 'Marina Mall', 'SGD', 'Asia/Singapore'),
      (1, 2, 'Hudson Mall', 'USD', 'America/New_York'),
      (2, 3, 'Elsewhere Mall', 'SGD', 'Asia/Singapore');
    INSERT INTO outlets (client_id, id, mall_id, name, outlet_code, type) VALUES
      (1, 11, 1, 'Noodle Bar', 'A1', 1),
      (1, 12, 1, 'Shoe Shop', 'A2', 2),
      (1, 21, 2, 'Deli', 'B1', 1),
      (2, 31, 3, 'Not Ours', 'C1', 2);
  `);
}

const RECEIPTS: ReceiptInput[] = [
  // A1, Saturday 10 January 2026, Singapore time.
  receipt(A1, '2026-01-10T02:30:00Z', 10, [['VISA', 10]], {
    isMember: true,
    tableNo: 'T1',
    dineOutTime: new Date('2026-01-10T03:10:00Z'),
    items: [
      { skuId: 501, quantity: 2, unitPrice: 3.5, amount: 7 },
      { skuId: 502, quantity: 1, unitPrice: 3, amount: 3 },
    ],
  }), // 10:30
  receipt(
    A1,
    '2026-01-10T02:45:00Z',
    20.5,
    [
      ['VISA', 15.5],
      ['CASH', 5],
    ],
    { discount: 2.5, nameReason: 'Staff discount' },
  ), // 10:45, split
  receipt(A1, '2026-01-10T03:05:00Z', 7.25, [['', 7.25]], { isMember: true, voucherAmount: 5, redeemBill: true }), // 11:05
  receipt(A1, '2026-01-10T03:10:00Z', 30, [['VISA', 30]], {
    void: true,
    closedBill: false,
    isMember: true,
    discount: 3,
  }), // 11:10 void
  receipt(A1, '2026-01-10T15:59:59Z', 5, [['NONE', 5]]), // 23:59:59
  // A2: 23:30 UTC on 10 January is 07:30 on 11 January in Singapore.
  receipt(A2, '2026-01-10T23:30:00Z', 12, [['MASTERCARD', 12]]),
  receipt(A2, '2026-01-11T04:00:00Z', 0, [['NONE', 0]], { focBill: true, focReason: 'Staff meal' }), // 12:00 FOC
  receipt(A2, '2026-01-11T04:20:00Z', 40, [['visa', 40]], { refundAmount: 15, nameReason: 'Refund: wrong size' }), // 12:20
  // B1: 03:30 UTC on 10 January is 22:30 on 9 January in New York.
  receipt(B1, '2026-01-10T03:30:00Z', 100, [['AMEX', 100]], { isMember: true }),
  receipt(B1, '2026-01-10T04:59:59Z', 1.99, [['CASH', 1.99]]), // 23:59:59 on the 9th
  receipt(B1, '2026-01-10T05:00:00Z', 3.01, [['CASH', 3.01]], { discount: 0.99 }), // 00:00 on the 10th
  receipt(B1, '2026-01-10T05:30:00Z', 8, [['VISA', 8]], { void: true, isMember: true, closedBill: false }), // 00:30 void
  // Summer time: 16:15 UTC on 4 July is 12:15 in New York (UTC-4).
  receipt(
    B1,
    '2026-07-04T16:15:00Z',
    50,
    [
      ['GRABPAY', 30],
      ['', 20],
    ],
    {
      takeAway: true,
      items: [{ skuId: 601, quantity: 5, unitPrice: 10, amount: 50 }],
    },
  ),
];

const ZERO = {
  gmv: 0,
  transactions: 0,
  member_gmv: 0,
  member_transactions: 0,
  discount: 0,
  discount_count: 0,
  voucher_amount: 0,
  voucher_count: 0,
  refund_amount: 0,
  refund_count: 0,
  void_amount: 0,
  void_count: 0,
  foc_count: 0,
};

const EXPECTED_HOURLY = [
  {
    outlet_id: A1,
    local_hour: '2026-01-10 10:00:00',
    ...ZERO,
    gmv: 30.5,
    transactions: 2,
    member_gmv: 10,
    member_transactions: 1,
    discount: 2.5,
    discount_count: 1,
  },
  {
    outlet_id: A1,
    local_hour: '2026-01-10 11:00:00',
    ...ZERO,
    gmv: 7.25,
    transactions: 1,
    member_gmv: 7.25,
    member_transactions: 1,
    voucher_amount: 5,
    voucher_count: 1,
    void_amount: 30,
    void_count: 1,
  },
  { outlet_id: A1, local_hour: '2026-01-10 23:00:00', ...ZERO, gmv: 5, transactions: 1 },
  { outlet_id: A2, local_hour: '2026-01-11 07:00:00', ...ZERO, gmv: 12, transactions: 1 },
  {
    outlet_id: A2,
    local_hour: '2026-01-11 12:00:00',
    ...ZERO,
    gmv: 40,
    transactions: 2,
    refund_amount: 15,
    refund_count: 1,
    foc_count: 1,
  },
  {
    outlet_id: B1,
    local_hour: '2026-01-09 22:00:00',
    ...ZERO,
    gmv: 100,
    transactions: 1,
    member_gmv: 100,
    member_transactions: 1,
  },
  { outlet_id: B1, local_hour: '2026-01-09 23:00:00', ...ZERO, gmv: 1.99, transactions: 1 },
  {
    outlet_id: B1,
    local_hour: '2026-01-10 00:00:00',
    ...ZERO,
    gmv: 3.01,
    transactions: 1,
    discount: 0.99,
    discount_count: 1,
    void_amount: 8,
    void_count: 1,
  },
  { outlet_id: B1, local_hour: '2026-07-04 12:00:00', ...ZERO, gmv: 50, transactions: 1 },
];

const EXPECTED_DAILY = [
  {
    outlet_id: A1,
    local_day: '2026-01-10',
    ...ZERO,
    gmv: 42.75,
    transactions: 4,
    member_gmv: 17.25,
    member_transactions: 2,
    discount: 2.5,
    discount_count: 1,
    voucher_amount: 5,
    voucher_count: 1,
    void_amount: 30,
    void_count: 1,
  },
  {
    outlet_id: A2,
    local_day: '2026-01-11',
    ...ZERO,
    gmv: 52,
    transactions: 3,
    refund_amount: 15,
    refund_count: 1,
    foc_count: 1,
  },
  {
    outlet_id: B1,
    local_day: '2026-01-09',
    ...ZERO,
    gmv: 101.99,
    transactions: 2,
    member_gmv: 100,
    member_transactions: 1,
  },
  {
    outlet_id: B1,
    local_day: '2026-01-10',
    ...ZERO,
    gmv: 3.01,
    transactions: 1,
    discount: 0.99,
    discount_count: 1,
    void_amount: 8,
    void_count: 1,
  },
  { outlet_id: B1, local_day: '2026-07-04', ...ZERO, gmv: 50, transactions: 1 },
];

/**
 * Payment methods normalised (trimmed, upper-cased; '' and 'NONE' are OTHERS), so '' and 'NONE' are one row and
 * 'visa' is VISA; void receipts are left out.
 */
const EXPECTED_PAYMENTS = [
  { outlet_id: A1, local_day: '2026-01-10', payment_method: 'CASH', amount: 5, payments: 1 },
  { outlet_id: A1, local_day: '2026-01-10', payment_method: 'OTHERS', amount: 12.25, payments: 2 },
  { outlet_id: A1, local_day: '2026-01-10', payment_method: 'VISA', amount: 25.5, payments: 2 },
  { outlet_id: A2, local_day: '2026-01-11', payment_method: 'MASTERCARD', amount: 12, payments: 1 },
  { outlet_id: A2, local_day: '2026-01-11', payment_method: 'OTHERS', amount: 0, payments: 1 },
  { outlet_id: A2, local_day: '2026-01-11', payment_method: 'VISA', amount: 40, payments: 1 },
  { outlet_id: B1, local_day: '2026-01-09', payment_method: 'AMEX', amount: 100, payments: 1 },
  { outlet_id: B1, local_day: '2026-01-09', payment_method: 'CASH', amount: 1.99, payments: 1 },
  { outlet_id: B1, local_day: '2026-01-10', payment_method: 'CASH', amount: 3.01, payments: 1 },
  { outlet_id: B1, local_day: '2026-07-04', payment_method: 'GRABPAY', amount: 30, payments: 1 },
  { outlet_id: B1, local_day: '2026-07-04', payment_method: 'OTHERS', amount: 20, payments: 1 },
];

const MEASURES = Object.keys(ZERO).join(', ');
const NO_MISMATCHES = {
  daily: 0,
  outletDayHours: 0,
  mallDayHours: 0,
  payment: 0,
  mallPayment: 0,
  skuDaily: 0,
  mealDaily: 0,
  memberDaily: 0,
  outletMonthHours: 0,
  mallDaily: 0,
  outletMonthly: 0,
  tradingRuns: 0,
};
const MALL_OF: Record<number, number> = { [A1]: 1, [A2]: 1, [B1]: 2 };

/** The sales of EXPECTED_HOURLY by outlet (or by mall) and local hour, hours without sales left out. */
function expectedSalesByHour(by: 'outlet_id' | 'mall_id') {
  const rows = new Map<
    string,
    {
      key: number;
      local_hour: string;
      gmv: number;
      transactions: number;
      member_gmv: number;
      member_transactions: number;
    }
  >();
  for (const row of EXPECTED_HOURLY) {
    const key = by === 'outlet_id' ? row.outlet_id : defined(MALL_OF[row.outlet_id], `mall of ${row.outlet_id}`);
    const id = `${key} ${row.local_hour}`;
    const sum = rows.get(id) ?? {
      key,
      local_hour: row.local_hour,
      gmv: 0,
      transactions: 0,
      member_gmv: 0,
      member_transactions: 0,
    };
    sum.gmv = Math.round((sum.gmv + row.gmv) * 100) / 100;
    sum.transactions += row.transactions;
    sum.member_gmv = Math.round((sum.member_gmv + row.member_gmv) * 100) / 100;
    sum.member_transactions += row.member_transactions;
    rows.set(id, sum);
  }
  return [...rows.values()]
    .filter((row) => row.gmv !== 0 || row.transactions !== 0)
    .sort((x, y) => x.key - y.key || x.local_hour.localeCompare(y.local_hour))
    .map(({ key, ...rest }) => ({ [by]: key, ...rest }));
}

/** A day row of running totals (migration 006) read back as one row per local hour with sales. */
async function salesByHour(
  pool: Pool,
  table: 'rollup_outlet_day_hours' | 'rollup_mall_day_hours',
  by: 'outlet_id' | 'mall_id',
) {
  const { rows } = await pool.query<Record<string, number | string>>(
    `SELECT * FROM ${table} WHERE client_id = $1 ORDER BY ${by}, local_day`,
    [CLIENT],
  );
  const hours = [];
  for (const row of rows) {
    for (let hour = 0; hour < 24; hour++) {
      const inHour = (measure: string) =>
        Number(row[`${measure}_h${hour + 1}`]) - (hour === 0 ? 0 : Number(row[`${measure}_h${hour}`]));
      const sales = {
        gmv: inHour('gmv') / 100,
        transactions: inHour('transactions'),
        member_gmv: inHour('member_gmv') / 100,
        member_transactions: inHour('member_transactions'),
      };
      if (sales.gmv !== 0 || sales.transactions !== 0) {
        hours.push({ [by]: row[by], local_hour: `${row.local_day} ${String(hour).padStart(2, '0')}:00:00`, ...sales });
      }
    }
  }
  return hours;
}

/** Running totals of payment `method` on a local day: amount_h1..amount_h24 in cents. */
async function paymentRunningTotals(
  pool: Pool,
  table: 'rollup_outlet_payment_daily' | 'rollup_mall_payment_day_hours',
  by: 'outlet_id' | 'mall_id',
  id: number,
  day: string,
  method: string,
) {
  const { rows } = await pool.query<Record<string, number>>(
    `SELECT * FROM ${table} WHERE client_id = $1 AND ${by} = $2 AND local_day = $3 AND payment_method = $4`,
    [CLIENT, id, day, method],
  );
  const row = rows[0];
  return row ? Array.from({ length: 24 }, (_, k) => row[`amount_h${k + 1}`]) : undefined;
}

/** amount_h1..amount_h24 of `cents` taken in local hour `hour`: 0 up to amount_h<hour>, then `cents`. */
const runningFrom = (hour: number, cents: number) => Array.from({ length: 24 }, (_, k) => (k + 1 > hour ? cents : 0));

async function rollups(pool: Pool) {
  const daily = await pool.query(
    `SELECT outlet_id, local_day, ${MEASURES} FROM rollup_outlet_daily WHERE client_id = $1 ORDER BY outlet_id, local_day`,
    [CLIENT],
  );
  const payments = await pool.query(
    `SELECT * FROM rollup_outlet_payment_daily WHERE client_id = $1 ORDER BY outlet_id, local_day, payment_method COLLATE "C"`,
    [CLIENT],
  );
  const mallPayments = await pool.query(
    `SELECT * FROM rollup_mall_payment_day_hours WHERE client_id = $1 ORDER BY mall_id, local_day, payment_method COLLATE "C"`,
    [CLIENT],
  );
  return {
    outletHours: await salesByHour(pool, 'rollup_outlet_day_hours', 'outlet_id'),
    mallHours: await salesByHour(pool, 'rollup_mall_day_hours', 'mall_id'),
    daily: daily.rows,
    payments: payments.rows,
    mallPayments: mallPayments.rows,
  };
}

describe('ingestReceipts', () => {
  let one: TestDatabase;
  let two: TestDatabase;

  beforeAll(async () => {
    one = await createTestDatabase();
    two = await createTestDatabase();
    await seed(one.pool);
    await seed(two.pool);
    // One call in one transaction ...
    const inserted = await inTransaction(one.pool, (tx) => ingestReceipts(tx, CLIENT, RECEIPTS));
    expect(inserted).toBe(RECEIPTS.length);
    // ... and the same receipts in two batches in two transactions, in another order.
    await inTransaction(two.pool, (tx) => ingestReceipts(tx, CLIENT, RECEIPTS.slice(7)));
    await inTransaction(two.pool, (tx) => ingestReceipts(tx, CLIENT, RECEIPTS.slice(0, 7)));
  });

  afterAll(async () => {
    await one?.drop();
    await two?.drop();
  });

  it('stores every receipt with its payments and items', async () => {
    const { rows } = await one.pool.query(
      `SELECT outlet_id, receipt_id, datetime, dine_out_time, total_amount, discount, voucher_amount, refund_amount,
         payment_method, is_member, table_no, void, closed_bill, foc_bill, foc_reason, redeem_bill, raw_receipt
       FROM receipts WHERE client_id = $1 ORDER BY datetime, outlet_id`,
      [CLIENT],
    );
    expect(rows).toHaveLength(13);
    const [text] = await decodeRawTexts(one.pool, CLIENT, [rows[0]?.raw_receipt]);
    expect({ ...rows[0], raw_receipt: text }).toEqual({
      outlet_id: A1,
      receipt_id: 'R-11-2026-01-10T02:30:00Z',
      datetime: new Date('2026-01-10T02:30:00Z'),
      dine_out_time: new Date('2026-01-10T03:10:00Z'),
      total_amount: 10,
      discount: 0,
      voucher_amount: 0,
      refund_amount: 0,
      payment_method: 'VISA',
      is_member: true,
      table_no: 'T1',
      void: false,
      closed_bill: true,
      foc_bill: false,
      foc_reason: null,
      redeem_bill: false,
      raw_receipt: 'receipt 2026-01-10T02:30:00Z',
    });
    const payments = await one.pool.query(
      `SELECT r.receipt_id, p.seq, p.payment_method, p.amount FROM receipt_payments p
       JOIN receipts r ON r.client_id = p.client_id AND r.id = p.receipt_id
       WHERE r.datetime = '2026-01-10T02:45:00Z' ORDER BY p.seq`,
    );
    expect(payments.rows).toEqual([
      { receipt_id: 'R-11-2026-01-10T02:45:00Z', seq: 1, payment_method: 'VISA', amount: 15.5 },
      { receipt_id: 'R-11-2026-01-10T02:45:00Z', seq: 2, payment_method: 'CASH', amount: 5 },
    ]);
    const items = await one.pool.query(
      `SELECT r.outlet_id, i.seq, i.sku_id, i.quantity, i.unit_price, i.amount FROM receipt_items i
       JOIN receipts r ON r.client_id = i.client_id AND r.id = i.receipt_id ORDER BY r.datetime, i.seq`,
    );
    expect(items.rows).toEqual([
      { outlet_id: A1, seq: 1, sku_id: 501, quantity: 2, unit_price: 3.5, amount: 7 },
      { outlet_id: A1, seq: 2, sku_id: 502, quantity: 1, unit_price: 3, amount: 3 },
      { outlet_id: B1, seq: 1, sku_id: 601, quantity: 5, unit_price: 10, amount: 50 },
    ]);
    const counts = await one.pool.query('SELECT (SELECT count(*) FROM receipt_payments)::int AS payments');
    expect(counts.rows[0]).toEqual({ payments: 15 });
  });

  it('keeps the sales of each local hour of the mall, by outlet and by mall', async () => {
    const { outletHours, mallHours } = await rollups(one.pool);
    expect(outletHours).toEqual(expectedSalesByHour('outlet_id'));
    expect(mallHours).toEqual(expectedSalesByHour('mall_id'));
    // A1 and A2 are both in mall 1; the void receipt at 11:10 adds nothing.
    expect(mallHours.filter((row) => (row as { mall_id?: number }).mall_id === 1)).toHaveLength(5);
  });

  it('keeps the running totals of payments by local hour, by outlet and by mall, without void receipts', async () => {
    // A1 on 10 January: VISA 10 at 10:30 and 15.50 at 10:45 (30 at 11:10 is void); CASH 5 at 10:45.
    const visa = runningFrom(10, 2550);
    expect(
      await paymentRunningTotals(one.pool, 'rollup_outlet_payment_daily', 'outlet_id', A1, '2026-01-10', 'VISA'),
    ).toEqual(visa);
    expect(
      await paymentRunningTotals(one.pool, 'rollup_mall_payment_day_hours', 'mall_id', 1, '2026-01-10', 'VISA'),
    ).toEqual(visa);
    expect(
      await paymentRunningTotals(one.pool, 'rollup_outlet_payment_daily', 'outlet_id', A1, '2026-01-10', 'CASH'),
    ).toEqual(runningFrom(10, 500));
    // B1, New York: CASH 1.99 at 23:59:59 on the 9th, 3.01 at 00:00 on the 10th.
    expect(
      await paymentRunningTotals(one.pool, 'rollup_mall_payment_day_hours', 'mall_id', 2, '2026-01-09', 'CASH'),
    ).toEqual(runningFrom(23, 199));
    expect(
      await paymentRunningTotals(one.pool, 'rollup_mall_payment_day_hours', 'mall_id', 2, '2026-01-10', 'CASH'),
    ).toEqual(runningFrom(0, 301));
    // mall 1 on 11 January: visa 40 at 12:20 (A2) is stored as VISA.
    expect(
      await paymentRunningTotals(one.pool, 'rollup_mall_payment_day_hours', 'mall_id', 1, '2026-01-11', 'VISA'),
    ).toEqual(runningFrom(12, 4000));
    // A1 on 10 January: '' 7.25 at 11:05 and NONE 5 at 23:59:59 are one method, OTHERS.
    const others = runningFrom(11, 725).map((cents, hour) => (hour === 23 ? cents + 500 : cents));
    expect(
      await paymentRunningTotals(one.pool, 'rollup_outlet_payment_daily', 'outlet_id', A1, '2026-01-10', 'OTHERS'),
    ).toEqual(others);
  });

  it('keeps the daily rollup on local calendar days', async () => {
    expect((await rollups(one.pool)).daily).toEqual(EXPECTED_DAILY);
  });

  it('keeps the payment rollup by normalised method, without void receipts', async () => {
    expect(
      (await rollups(one.pool)).payments.map(({ outlet_id, local_day, payment_method, amount, payments }) => ({
        outlet_id,
        local_day,
        payment_method,
        amount,
        payments,
      })),
    ).toEqual(EXPECTED_PAYMENTS);
  });

  it('gives the same rollups whether the receipts come in one batch or two', async () => {
    expect(await rollups(two.pool)).toEqual(await rollups(one.pool));
    expect(await rollupMismatches(one.pool)).toEqual(NO_MISMATCHES);
    expect(await rollupMismatches(two.pool)).toEqual(NO_MISMATCHES);
  });

  it('refuses outlets of another client and leaves nothing behind', async () => {
    const before = await one.pool.query('SELECT count(*)::int AS n FROM receipts');
    await expect(
      inTransaction(one.pool, (tx) =>
        ingestReceipts(tx, CLIENT, [
          receipt(A1, '2026-02-01T05:00:00Z', 1, [['CASH', 1]]),
          receipt(31, '2026-02-01T05:00:00Z', 1, [['CASH', 1]]),
        ]),
      ),
    ).rejects.toThrow(/outlet 31 does not belong to client 1/);
    const after = await one.pool.query('SELECT count(*)::int AS n FROM receipts');
    expect(after.rows[0]).toEqual(before.rows[0]);
  });

  it('rejects amounts that are not finite numbers', async () => {
    await expect(
      inTransaction(one.pool, (tx) =>
        ingestReceipts(tx, CLIENT, [receipt(A1, '2026-02-01T05:00:00Z', Number.NaN, [])]),
      ),
    ).rejects.toThrow(/totalAmount must be a finite number/);
  });

  it("stores payment methods normalised: ' visa ' and VISA are one method, '' and 'none' are OTHERS", async () => {
    const db = await createTestDatabase();
    try {
      await seed(db.pool);
      await inTransaction(db.pool, (tx) =>
        ingestReceipts(tx, CLIENT, [
          receipt(A1, '2026-02-01T02:00:00Z', 10, [[' visa ', 10]]), // 10:00
          receipt(A1, '2026-02-01T03:00:00Z', 5, [['VISA', 5]]), // 11:00
          receipt(A1, '2026-02-01T04:00:00Z', 7, [
            ['Visa', 4],
            ['', 3],
          ]), // 12:00
          receipt(A2, '2026-02-01T05:00:00Z', 2, [['none', 2]], { paymentMethod: ' none ' }), // 13:00
        ]),
      );
      const stored = await db.pool.query(
        `SELECT r.payment_method AS receipt, array_agg(p.payment_method ORDER BY p.seq) AS tenders
         FROM receipts r JOIN receipt_payments p ON p.client_id = r.client_id AND p.receipt_id = r.id
         GROUP BY r.id, r.payment_method, r.datetime ORDER BY r.datetime`,
      );
      expect(stored.rows).toEqual([
        { receipt: 'VISA', tenders: ['VISA'] },
        { receipt: 'VISA', tenders: ['VISA'] },
        { receipt: 'VISA', tenders: ['VISA', 'OTHERS'] },
        { receipt: 'OTHERS', tenders: ['OTHERS'] },
      ]);
      const outlet = await db.pool.query(
        `SELECT outlet_id, payment_method, amount, payments FROM rollup_outlet_payment_daily
         ORDER BY outlet_id, payment_method COLLATE "C"`,
      );
      expect(outlet.rows).toEqual([
        { outlet_id: A1, payment_method: 'OTHERS', amount: 3, payments: 1 },
        { outlet_id: A1, payment_method: 'VISA', amount: 19, payments: 3 },
        { outlet_id: A2, payment_method: 'OTHERS', amount: 2, payments: 1 },
      ]);
      const mall = await db.pool.query(
        'SELECT payment_method, amount_h24 FROM rollup_mall_payment_day_hours ORDER BY payment_method COLLATE "C"',
      );
      expect(mall.rows).toEqual([
        { payment_method: 'OTHERS', amount_h24: 500 },
        { payment_method: 'VISA', amount_h24: 1900 },
      ]);
      expect(await rollupMismatches(db.pool)).toEqual(NO_MISMATCHES);
    } finally {
      await db.drop();
    }
  });

  it('rounds amounts to cents once, the same for receipts and rollups, over several internal batches', async () => {
    const db = await createTestDatabase();
    try {
      await seed(db.pool);
      const many: ReceiptInput[] = [];
      const count = INGEST_BATCH_SIZE * 2 + 17;
      for (let i = 0; i < count; i++) {
        const outlet = defined([A1, A2, B1][i % 3]);
        const amount = 0.1 + 0.2 + (i % 7) * 1.005; // floating-point noise and half cents
        const ms = Date.UTC(2026, 2, 1) + i * 997_000;
        many.push(
          receipt(
            outlet,
            new Date(ms).toISOString(),
            amount,
            [
              ['CASH', amount / 3],
              ['VISA', amount - amount / 3],
            ],
            {
              isMember: i % 4 === 0,
              void: i % 50 === 0,
              discount: i % 5 === 0 ? 0.333 : 0,
              items: [{ skuId: 1, quantity: 1, unitPrice: amount, amount }],
            },
          ),
        );
      }
      await inTransaction(db.pool, (tx) => ingestReceipts(tx, CLIENT, many));
      const { rows } = await db.pool.query(
        `SELECT count(*)::int AS receipts, count(DISTINCT id)::int AS ids,
           (SELECT count(*)::int FROM receipt_items) AS items, (SELECT count(*)::int FROM receipt_payments) AS payments
         FROM receipts`,
      );
      expect(rows[0]).toEqual({ receipts: count, ids: count, items: count, payments: count * 2 });
      expect(await rollupMismatches(db.pool)).toEqual(NO_MISMATCHES);
    } finally {
      await db.drop();
    }
  });
});
