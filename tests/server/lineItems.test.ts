import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { centsOf, encodeLineItems } from '../../server/receipts/lineItems.js';
import { createTestDatabase, type TestDatabase } from './helpers.js';

/*
 * Line items are stored as bytes written in Node (server/receipts/lineItems.ts) and read in SQL
 * (receipt_line_items, migration 023); their cents must be PostgreSQL's own rounding of the amounts, which the
 * rollups use.
 */
describe('line items in PostgreSQL', () => {
  let db: TestDatabase;

  beforeAll(async () => {
    db = await createTestDatabase();
  });

  afterAll(async () => {
    await db?.drop();
  });

  it('rounds amounts to cents as numeric(14,2) does, half cents included', async () => {
    const halfCents = fc
      .tuple(fc.integer({ min: -999999999, max: 999999999 }), fc.constantFrom(0.005, 0.015, 0.125, 0.675, 0.995))
      .map(([whole, part]) => whole + Math.sign(whole || 1) * part);
    const amounts = fc.sample(fc.oneof(fc.double({ min: -9999999999, max: 9999999999, noNaN: true }), halfCents), {
      numRuns: 3000,
      seed: 23,
    });
    const { rows } = await db.pool.query<{ cents: string }>(
      'SELECT (a::numeric(14,2) * 100)::int8::text AS cents FROM unnest($1::text[]) WITH ORDINALITY AS t(a, k) ORDER BY k',
      [amounts.map(String)],
    );
    expect(amounts.map(centsOf)).toEqual(rows.map((row) => Number(row.cents)));
  });

  it('reads back in SQL what Node wrote', async () => {
    const item = fc.record({
      skuId: fc.integer({ min: 1, max: 2147483647 }),
      quantity: fc.integer({ min: -100000, max: 100000 }),
      unitPrice: fc.integer({ min: -999999999999, max: 999999999999 }).map((cents) => cents / 100),
      amount: fc.integer({ min: -999999999999, max: 999999999999 }).map((cents) => cents / 100),
    });
    const lists = fc.sample(fc.array(item, { maxLength: 8 }), { numRuns: 300, seed: 23 });
    const { rows } = await db.pool.query<{
      k: string;
      sku_id: number;
      quantity: number;
      unit_price: number;
      amount: number;
    }>(
      `SELECT t.k, i.sku_id, i.quantity, i.unit_price, i.amount
       FROM unnest($1::bytea[]) WITH ORDINALITY AS t(b, k) CROSS JOIN LATERAL receipt_line_items(t.b) AS i
       ORDER BY t.k, i.seq`,
      [lists.map((items) => encodeLineItems(items))],
    );
    const read = lists.map((_, k) =>
      rows
        .filter((row) => Number(row.k) === k + 1)
        .map((row) => ({ skuId: row.sku_id, quantity: row.quantity, unitPrice: row.unit_price, amount: row.amount })),
    );
    expect(read).toEqual(lists);
  });
});
