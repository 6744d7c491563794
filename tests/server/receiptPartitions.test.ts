import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inTransaction } from '../../server/db/pool.js';
import { maintainReceiptPartitions } from '../../server/jobs/receiptPartitions.js';
import { decodeRawText, encodeRawText } from '../../server/receipts/rawText.js';
import { ingestReceipts } from '../../server/repositories/ingestion.js';
import { listReceiptMonths } from '../../server/repositories/receiptPartitions.js';
import { receiptInput, seedWorld, WORLD } from './fixtures.js';
import { createTestDatabase, type TestDatabase } from './helpers.js';

let db: TestDatabase;
const { cafe } = WORLD.outlets;

beforeAll(async () => {
  db = await createTestDatabase();
  await seedWorld(db.pool);
});
afterAll(async () => {
  await db?.drop();
});

const count = async (sql: string) => Number((await db.pool.query<{ n: string }>(sql)).rows[0]?.n);

describe('receipts by month', () => {
  it('stores each receipt in the partition of its month (UTC), creating a month not seen before', async () => {
    await inTransaction(db.pool, (tx) =>
      ingestReceipts(tx, 1, [
        receiptInput(cafe, '2025-01-31T23:59:59Z', 10, [['VISA', 10]]),
        receiptInput(cafe, '2025-02-01T00:00:00Z', 20, [['CASH', 20]]),
        receiptInput(
          cafe,
          '2025-03-15T12:00:00Z',
          30,
          [
            ['VISA', 25],
            ['CASH', 5],
          ],
          { void: true },
        ),
      ]),
    );
    const months = (await listReceiptMonths(db.pool)).map((partition) => partition.month);
    expect(months).toEqual(expect.arrayContaining(['2025-01-01', '2025-02-01', '2025-03-01']));
    expect(await count('SELECT count(*) AS n FROM receipts_2025_01')).toBe(1);
    expect(await count('SELECT count(*) AS n FROM receipts_2025_02')).toBe(1);
    const tenders = await db.pool.query('SELECT payment_method, amount FROM receipt_payments ORDER BY amount');
    expect(tenders.rows).toEqual([
      { payment_method: 'CASH', amount: 5 },
      { payment_method: 'VISA', amount: 10 },
      { payment_method: 'CASH', amount: 20 },
      { payment_method: 'VISA', amount: 25 },
    ]);
  });

  it('keeps the retention: older months are dropped whole, the figures of every report stay', async () => {
    const rollupsBefore = await db.pool.query('SELECT * FROM rollup_outlet_daily ORDER BY local_day');
    const result = await maintainReceiptPartitions(db.pool, {
      retentionMonths: 2,
      now: new Date('2025-03-20T00:00:00Z'),
    });
    expect(result.dropped).toEqual(['2025-01-01']);
    const months = (await listReceiptMonths(db.pool)).map((partition) => partition.month);
    expect(months[0]).toBe('2025-02-01');
    expect(months).toContain('2025-04-01');
    expect(await count('SELECT count(*) AS n FROM receipts')).toBe(2);
    expect((await db.pool.query('SELECT * FROM rollup_outlet_daily ORDER BY local_day')).rows).toEqual(
      rollupsBefore.rows,
    );
    expect(
      (await maintainReceiptPartitions(db.pool, { retentionMonths: 2, now: new Date('2025-03-21T00:00:00Z') })).dropped,
    ).toEqual([]);
    expect((await maintainReceiptPartitions(db.pool, { retentionMonths: 0 })).dropped).toEqual([]);
  });
});

describe('the printed text', () => {
  it('is stored compressed and read back as it was printed', async () => {
    const text = `  CAFÉ UNO  ☕\n${'-'.repeat(40)}\n2 x Flat White                     11.00\nTOTAL SGD                          11.00\nThank you! Please come again.`;
    const stored = encodeRawText(text);
    expect(stored[0]).toBe(1);
    expect(stored.length).toBeLessThan(Buffer.byteLength(text) / 2);
    expect(decodeRawText(stored)).toBe(text);
    expect(encodeRawText('')).toHaveLength(0);
    expect(decodeRawText(encodeRawText('short'))).toBe('short');
    expect(decodeRawText(Buffer.concat([Buffer.of(0), Buffer.from('stored before 022', 'utf8')]))).toBe(
      'stored before 022',
    );
    expect(() => decodeRawText(Buffer.of(9, 1, 2))).toThrow(/unknown format/);
  });
});
