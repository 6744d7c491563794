import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inTransaction } from '../../server/db/pool.js';
import { ingestReceipts } from '../../server/repositories/ingestion.js';
import { receiptInput as receipt, seedWorld, WORLD } from './fixtures.js';
import { createTestDatabase, type TestDatabase } from './helpers.js';

/*
 * The month rollups (migration 057): every batch of receipts adds to its outlets' month rows, and those updates must
 * stay on their rows' pages (fillfactor 50: HOT updates, dead versions reclaimed in place), not write a new version
 * on another page each time: a month of batches once left 31 kB of pages for each 1 kB row.
 */
let db: TestDatabase;
const { cafe, boutique } = WORLD.outlets;
const MONTHS = 16;
const BATCHES = 60;

beforeAll(async () => {
  db = await createTestDatabase();
  await seedWorld(db.pool);
});
afterAll(async () => {
  await db?.drop();
});

/** The pages a table takes (its heap, not its indexes). */
async function pagesOf(table: string): Promise<number> {
  const { rows } = await db.pool.query<{ pages: number }>(
    `SELECT (pg_relation_size($1::regclass) / current_setting('block_size')::int)::int AS pages`,
    [table],
  );
  return rows[0]?.pages ?? Number.NaN;
}

/** Noon in Singapore on day `day` of month `month` (0: January 2025) and second `second`, as an instant. */
const noon = (month: number, day: number, second = 0) =>
  new Date(Date.UTC(2025, month, day, 4, 0, second)).toISOString();

describe('the month rollups under a month of batches', () => {
  it('keep their rows on their pages however often batches add to them, and the sums right', async () => {
    // Two outlets' rows of sixteen months, written together: they fill the tables' first pages.
    const outlets = [cafe, boutique];
    /** One batch: a receipt of `amount` for each outlet in each month, on day `day` at second `second`. */
    const addToEveryRow = (day: number, second: number, amount: number) =>
      inTransaction(db.pool, (client) =>
        ingestReceipts(
          client,
          1,
          outlets.flatMap((outlet) =>
            Array.from({ length: MONTHS }, (_, month) =>
              receipt(outlet, noon(month, day, second), amount, [['CASH', amount]]),
            ),
          ),
        ),
      );
    await addToEveryRow(15, 0, 10);
    const before = { hours: await pagesOf('rollup_outlet_month_hours'), sums: await pagesOf('rollup_outlet_monthly') };
    // Batch after batch adds a receipt to every one of those rows, as a day of a live mall's tills does.
    for (let batch = 1; batch <= BATCHES; batch++) await addToEveryRow(16, batch, 1);
    expect(await pagesOf('rollup_outlet_month_hours')).toBeLessThanOrEqual(before.hours + 1);
    expect(await pagesOf('rollup_outlet_monthly')).toBeLessThanOrEqual(before.sums + 1);
    // Each month row holds its receipts: 10.00 and then 1.00 a batch.
    const { rows } = await db.pool.query<{ months: number; gmv: number; transactions: number }>(
      `SELECT count(*)::int AS months, min(gmv)::float8 AS gmv, min(transactions)::int AS transactions
       FROM rollup_outlet_monthly WHERE client_id = 1 AND outlet_id = ANY($1::int[]) HAVING max(gmv) = min(gmv)`,
      [outlets],
    );
    expect(rows).toEqual([{ months: MONTHS * outlets.length, gmv: 10 + BATCHES, transactions: 1 + BATCHES }]);
  });
});
