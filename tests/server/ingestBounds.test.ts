import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inTransaction } from '../../server/db/pool.js';
import { createDeviceKey } from '../../server/repositories/deviceKeys.js';
import { DAY_BOUNDS, localDays, type ReceiptInput, rollupMismatches } from '../../server/repositories/ingestion.js';
import type { IngestResult, PosReceipt } from '../support/posDevice.js';
import { receiptInput, seedWorld, WORLD } from './fixtures.js';
import { createTestApp, createTestDatabase, type TestDatabase } from './helpers.js';

/*
 * What an outlet's local day may hold (issue 29): 201 receipts of 50 payments of 9,999,999,999 each overflowed the
 * payment rollup (numeric(16,2)) with a 500, and then every batch with a VISA receipt of that day answered 500 and
 * lost its good receipts too. Cafe Uno (Central Mall, Asia/Singapore) on the fixture world; each test its own day.
 */
let db: TestDatabase;
let app: FastifyInstance;
let key: string;
const CAFE = WORLD.outlets.cafe;
const LARGEST = 9_999_999_999;
const BOUND = DAY_BOUNDS.volumeCents / 100;

/** A receipt of the cafe at `minute` minutes past 09:00 local time of March `day`, 2026. */
function receipt(id: string, day: number, minute: number, extra: Partial<PosReceipt> = {}): PosReceipt {
  return {
    receipt_id: id,
    datetime: new Date(Date.UTC(2026, 2, day, 1, minute)).toISOString(),
    total_amount: 5,
    payments: [{ method: 'CASH', amount: 5 }],
    ...extra,
    // The fields with a default in the contract may be left out (the server fills them in).
  } as PosReceipt;
}

async function post(receipts: readonly unknown[]) {
  return app.inject({
    method: 'POST',
    url: '/api/ingest/receipts',
    headers: { authorization: `Bearer ${key}` },
    payload: { receipts },
  });
}

async function ingest(receipts: readonly unknown[]): Promise<IngestResult> {
  const response = await post(receipts);
  expect(response.statusCode, response.body.slice(0, 500)).toBe(200);
  return response.json();
}

const paymentAmount = async (day: string, method: string) =>
  (
    await db.pool.query<{ amount: number }>(
      `SELECT amount FROM rollup_outlet_payment_daily
       WHERE client_id = 1 AND outlet_id = $1 AND local_day = $2::date AND payment_method = $3`,
      [CAFE, day, method],
    )
  ).rows[0]?.amount;

const noMismatches = async () =>
  expect(Object.values(await rollupMismatches(db.pool)).every((n) => n === 0)).toBe(true);

beforeAll(async () => {
  db = await createTestDatabase();
  await seedWorld(db.pool);
  await db.pool.query(
    `INSERT INTO skus (client_id, id, outlet_id, barcode, item_name, unit_price) VALUES
       (1, 101, $1, '0101', 'Latte', 2.5), (1, 102, $1, '0102', 'Scone', 2.5)`,
    [CAFE],
  );
  key = (await createDeviceKey(db.pool, { clientId: 1, outletId: CAFE, name: 'Till 1', createdBy: null })).key;
  app = await createTestApp(db.pool);
});
afterAll(async () => {
  await app?.close();
  await db?.drop();
});

describe("a payment method's day", () => {
  const attack = Array.from({ length: 201 }, (_, n) =>
    receipt(`ATTACK-${n}`, 10, n % 600, {
      total_amount: LARGEST,
      payment_method: 'VISA',
      payments: Array.from({ length: 50 }, () => ({ method: 'VISA', amount: LARGEST })),
    }),
  );

  it('stores what fits of 201 receipts of 50 payments of 9,999,999,999 and refuses each of the others alone', async () => {
    const result = await ingest(attack);
    // Two receipts are 999,999,999,900 of VISA: the third would pass 10^12.
    expect(result).toMatchObject({ received: 201, new: 2, already_stored: 0, stored: [0, 1] });
    expect(result.rejected).toHaveLength(199);
    expect(result.rejected[0]).toEqual({
      index: 2,
      receipt_id: 'ATTACK-2',
      field: 'payments/0/amount',
      message:
        "would take the outlet's day 2026-03-10 past 1,000,000,000,000, the most the amounts of the day's payments of this method may add up to (as absolute values)",
    });
    expect(result.rejected.every((entry) => entry.field === 'payments/0/amount')).toBe(true);
    expect(await paymentAmount('2026-03-10', 'VISA')).toBe(999_999_999_900);
    await noMismatches();
  });

  it('sent again answers what is stored and refuses the same receipts, never a 500', async () => {
    const result = await ingest(attack);
    expect(result).toMatchObject({ new: 0, already_stored: 2, stored: [0, 1] });
    expect(result.rejected.map(({ index }) => index)).toEqual(attack.slice(2).map((_, n) => n + 2));
  });

  it('then stores a normal receipt, and refuses only the one that would pass the bound: [VISA 10000, CASH 5]', async () => {
    const result = await ingest([
      receipt('NORMAL-VISA', 10, 700, { total_amount: 10_000, payments: [{ method: 'visa', amount: 10_000 }] }),
      receipt('NORMAL-CASH', 10, 701),
    ]);
    expect(result).toMatchObject({ received: 2, new: 1, stored: [1] });
    expect(result.rejected).toMatchObject([{ index: 0, receipt_id: 'NORMAL-VISA', field: 'payments/0/amount' }]);
    expect(await paymentAmount('2026-03-10', 'CASH')).toBe(5);
    // VISA holds its day up to the bound exactly, and not a cent more.
    const exact = await ingest([
      receipt('EXACT-VISA', 10, 702, { total_amount: 100, payments: [{ method: 'VISA', amount: 100 }] }),
      receipt('CENT-VISA', 10, 703, { total_amount: 0.01, payments: [{ method: 'VISA', amount: -0.01 }] }),
    ]);
    expect(exact).toMatchObject({ new: 1, stored: [0], rejected: [{ index: 1, field: 'payments/0/amount' }] });
    expect(await paymentAmount('2026-03-10', 'VISA')).toBe(BOUND);
    // A void receipt's tenders reach no payment rollup, so they count nothing.
    const voided = receipt('VOID-VISA', 10, 704, { void: true, payments: [{ method: 'VISA', amount: 5 }] });
    expect(await ingest([voided])).toMatchObject({ new: 1, rejected: [] });
    // The next day is a day of its own.
    expect(await ingest([{ ...attack[0], receipt_id: 'NEXT-DAY', datetime: '2026-03-11T01:00:00Z' }])).toMatchObject({
      new: 1,
      rejected: [],
    });
    await noMismatches();
  });
});

describe("the day's receipts", () => {
  it('hold total_amount up to the bound, refuse the receipt that would pass it alone, and store the next that fits', async () => {
    const full = Array.from({ length: 100 }, (_, n) =>
      receipt(`FULL-${n}`, 12, n, { total_amount: -LARGEST, payments: [] }),
    );
    expect(await ingest(full)).toMatchObject({ new: 100, rejected: [] });
    const result = await ingest([
      receipt('PAST', 12, 200, { total_amount: 101, payments: [] }),
      receipt('FITS', 12, 201, { total_amount: 100, payments: [] }),
    ]);
    expect(result).toMatchObject({ new: 1, stored: [1] });
    expect(result.rejected).toEqual([
      {
        index: 0,
        receipt_id: 'PAST',
        field: 'total_amount',
        message:
          "would take the outlet's day 2026-03-12 past 1,000,000,000,000, the most total_amount over the day's receipts may add up to (as absolute values)",
      },
    ]);
    const { rows } = await db.pool.query(
      'SELECT gmv, total_volume FROM rollup_outlet_daily WHERE outlet_id = $1 AND local_day = $2',
      [CAFE, '2026-03-12'],
    );
    expect(rows).toEqual([{ gmv: 100 - 100 * LARGEST, total_volume: BOUND }]);
    await noMismatches();
  });

  it("bound an SKU's line items and the count of receipts", async () => {
    const items = Array.from({ length: 100 }, () => ({
      sku_id: 101,
      quantity: 1,
      unit_price: LARGEST,
      amount: LARGEST,
    }));
    const result = await ingest([
      receipt('SKU-FULL', 13, 0, { items }),
      receipt('SKU-PAST', 13, 1, {
        items: [{ sku_id: 102, quantity: 1, unit_price: 1, amount: 1 }, ...items.slice(0, 1)],
      }),
      receipt('SKU-OTHER', 13, 2, { items: [{ sku_id: 102, quantity: 1, unit_price: 5, amount: 5 }] }),
      receipt('DISCOUNT-FULL', 13, 3, { discount: LARGEST }),
    ]);
    expect(result).toMatchObject({ new: 3, stored: [0, 2, 3] });
    expect(result.rejected).toMatchObject([{ index: 1, field: 'items/1/amount' }]);

    // A day that holds the most receipts a day may hold refuses the next one, with the receipt as the field.
    const day = { outlet_id: CAFE, local_day: '2026-03-13' };
    const before = (
      await db.pool.query<{ transactions: number }>(
        'SELECT transactions FROM rollup_outlet_daily WHERE outlet_id = $1 AND local_day = $2',
        [day.outlet_id, day.local_day],
      )
    ).rows[0]?.transactions;
    await db.pool.query(
      `UPDATE rollup_outlet_daily SET transactions = $3 - void_count - 1 WHERE outlet_id = $1 AND local_day = $2`,
      [CAFE, '2026-03-13', DAY_BOUNDS.receipts],
    );
    const counted = await ingest([receipt('LAST', 13, 10), receipt('ONE-TOO-MANY', 13, 11)]);
    expect(counted).toMatchObject({ new: 1, stored: [0], rejected: [{ index: 1, field: '' }] });
    expect(counted.rejected[0]?.message).toBe(
      "the outlet's day 2026-03-13 holds 1,000,000 receipts already, the most a day may hold",
    );
    await db.pool.query('UPDATE rollup_outlet_daily SET transactions = $3 WHERE outlet_id = $1 AND local_day = $2', [
      day.outlet_id,
      day.local_day,
      Number(before) + 1,
    ]);
    await noMismatches();
  });
});

describe('any input the contract allows', () => {
  it('answers 200, never 500, and keeps every rollup equal to the receipts (fast-check)', async () => {
    const amount = fc.oneof(
      fc.constantFrom(LARGEST, -LARGEST, 0, 0.005, -0.005, 1e-7),
      fc.double({ min: -LARGEST, max: LARGEST, noNaN: true, noDefaultInfinity: true }),
    );
    const method = fc.constantFrom('VISA', 'visa ', 'CASH', '', 'NONE', 'X');
    const one = fc.record({
      minute: fc.integer({ min: 0, max: 1439 }),
      total_amount: amount,
      discount: amount,
      refund_amount: amount,
      void: fc.boolean(),
      payments: fc.array(fc.record({ method, amount }), { maxLength: 50 }),
      items: fc.array(
        fc.record({
          sku_id: fc.constantFrom(101, 102),
          quantity: fc.integer({ min: -100_000, max: 100_000 }),
          unit_price: amount,
          amount,
        }),
        { maxLength: 30 },
      ),
    });
    let n = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(one, { minLength: 1, maxLength: 40 }), async (batch) => {
        const receipts = batch.map(({ minute, ...fields }) => {
          n += 1;
          return receipt(`FUZZ-${n}`, 14 + (minute % 2), minute % 600, fields);
        });
        const response = await post(receipts);
        expect(response.statusCode, response.body.slice(0, 300)).toBe(200);
        const result = response.json() as IngestResult;
        expect(result.stored.length + result.rejected.length).toBe(receipts.length);
      }),
      { seed: 29, numRuns: 25 },
    );
    await noMismatches();
  });
});

describe("a receipt's local day for the bounds", () => {
  it('is the day PostgreSQL gives it, also in a quarter hour whose local clock jumps back over midnight', async () => {
    // Moncton turned its clocks back at 00:01 local time until 2006: 2005-10-30 00:01 ADT became 2005-10-29 23:01 AST.
    await db.pool.query(`
      INSERT INTO malls (client_id, id, name, currency, time_zone) VALUES (1, 90, 'Moncton Mall', 'CAD', 'America/Moncton');
      INSERT INTO outlets (client_id, id, mall_id, name, outlet_code, type, currency) VALUES (1, 90, 90, 'Moncton Cafe', 'M-90', 1, 'CAD')`);
    const instants = [
      '2005-10-30T02:59:59.999Z', // 23:59:59.999 ADT, 29 October
      '2005-10-30T03:00:30Z', // 00:00:30 ADT, 30 October
      '2005-10-30T03:01:00Z', // 23:01 AST, 29 October again
      '2005-10-30T03:14:59Z', // 23:14:59 AST
      '2005-10-30T04:00:00Z', // 00:00 AST, 30 October
      '2026-03-02T15:59:59Z', // 23:59:59 in Singapore (Cafe Uno)
      '2026-03-02T16:00:00Z',
    ];
    const receipts: ReceiptInput[] = instants.map((iso, n) =>
      receiptInput(n < 5 ? 90 : CAFE, iso, 1, [['CASH', 1]], { receiptId: `TZ-${n}` }),
    );
    const days = await inTransaction(db.pool, (tx) => localDays(tx, 1, receipts));
    expect(days).toEqual([
      '2005-10-29',
      '2005-10-30',
      '2005-10-29',
      '2005-10-29',
      '2005-10-30',
      '2026-03-02',
      '2026-03-03',
    ]);
  });
});
