import { deflateRawSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inTransaction } from '../../server/db/pool.js';
import { maintainReceiptPartitions } from '../../server/jobs/receiptPartitions.js';
import { decodeRawText, encodeRawText, TEXT_DICTIONARY_BYTES } from '../../server/receipts/rawText.js';
import { ingestReceipts } from '../../server/repositories/ingestion.js';
import { ensureReceiptMonths, listReceiptMonths } from '../../server/repositories/receiptPartitions.js';
import { decodeRawTexts } from '../../server/repositories/receiptTexts.js';
import { receiptInput, seedWorld, WORLD } from './fixtures.js';
import { createTestDatabase, type TestDatabase } from './helpers.js';

let db: TestDatabase;
const { cafe, boutique, kiosk } = WORLD.outlets;

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

  it('makes a month once when instances make it together, none of them failing', async () => {
    // Five instances starting at once, each making the same two months not made before (separate connections).
    const days = ['2031-05-10', '2031-06-01'];
    const results = await Promise.allSettled(Array.from({ length: 5 }, () => ensureReceiptMonths(db.pool, days)));
    expect(results.filter((result) => result.status === 'rejected')).toEqual([]);
    const months = (await listReceiptMonths(db.pool)).map((partition) => partition.month);
    expect(months.filter((month) => month.startsWith('2031-'))).toEqual(['2031-05-01', '2031-06-01']);
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

  /** A receipt as a shop prints it: the same header, menu lines and footer, its own number, time and items. */
  const printed = (n: number) => {
    const lines = [
      '          THE LINEN ROOM',
      '     Harbourfront Centre #01-12',
      `Receipt: L${String(100000 + n)}`,
      `Date: 2026-03-01 ${String(10 + (n % 10)).padStart(2, '0')}:${String(n % 60).padStart(2, '0')}:00`,
      '-'.repeat(40),
      ...['Cotton Shirt          39.90', 'Linen Trousers        89.00', 'Silk Scarf            29.50']
        .filter((_, k) => (n + k) % 2 === 0)
        .map((line) => `1 x ${line}`),
      '-'.repeat(40),
      `TOTAL SGD                         ${(n % 90) + 10}.00`,
      'VISA',
      '  Thank you for shopping with us!',
      '  Goods sold are not refundable.',
    ];
    return lines.join('\n');
  };
  const batch = (outletId: number, from: number, count: number) =>
    Array.from({ length: count }, (_, k) =>
      receiptInput(outletId, new Date(Date.UTC(2026, 2, 1, 2, from + k)).toISOString(), 10, [['VISA', 10]], {
        rawReceipt: printed(from + k),
      }),
    );
  const dictionaries = async (outletId: number) =>
    (
      await db.pool.query<{ id: number; size: number }>(
        'SELECT id, octet_length(dictionary) AS size FROM receipt_text_dictionaries WHERE outlet_id = $1 ORDER BY id',
        [outletId],
      )
    ).rows;
  const stored = async (outletId: number) =>
    (
      await db.pool.query<{ raw_receipt: Buffer; receipt_id: string }>(
        'SELECT raw_receipt, receipt_id FROM receipts WHERE outlet_id = $1 ORDER BY datetime',
        [outletId],
      )
    ).rows;

  it("compresses an outlet's texts with a dictionary of its own, and reads every one back as printed", async () => {
    await inTransaction(db.pool, (tx) => ingestReceipts(tx, 1, batch(boutique, 0, 40)));
    const [first, ...others] = await dictionaries(boutique);
    expect(first?.size).toBeGreaterThanOrEqual((TEXT_DICTIONARY_BYTES * 3) / 4);
    expect(others).toEqual([]);
    const rows = await stored(boutique);
    expect(rows.map((row) => row.raw_receipt[0])).toEqual(rows.map(() => 2));
    expect(rows.map((row) => row.raw_receipt.readUInt32BE(1))).toEqual(rows.map(() => first?.id));
    const average = rows.reduce((sum, row) => sum + row.raw_receipt.length, 0) / rows.length;
    const withCommonDictionary = rows.reduce((sum, _, k) => sum + encodeRawText(printed(k)).length, 0) / rows.length;
    expect(average).toBeLessThan(withCommonDictionary / 2);
    expect(
      await decodeRawTexts(
        db.pool,
        1,
        rows.map((row) => row.raw_receipt),
      ),
    ).toEqual(rows.map((_, k) => printed(k)));
    expect(() => decodeRawText(rows[0]?.raw_receipt)).toThrow(/dictionary \d+ is not loaded/);
  });

  it("makes a new dictionary when the outlet's printout changes, and none while it stays the same", async () => {
    const before = await dictionaries(boutique);
    await inTransaction(db.pool, (tx) => ingestReceipts(tx, 1, batch(boutique, 100, 20)));
    expect(await dictionaries(boutique)).toEqual(before);
    // a new till: another header, other products, another layout
    const renewed = (n: number) =>
      [
        '*** LINEN ROOM by HARBOURFRONT ***',
        'GST Reg No. 201912345K   Tel 6123 4567',
        `Tax Invoice No: TI/2026/${String(n).padStart(6, '0')}`,
        `Cashier: ${['Mei', 'Arun', 'Siti'][n % 3]}    Terminal 02`,
        '========================================',
        ...['Bamboo Towel Set      SGD 45.00', 'Duvet Cover (Queen)   SGD 129.00', 'Pillow Case x2        SGD 38.00']
          .filter((_, k) => (n + k) % 2 === 1)
          .map((line) => `QTY 1  ${line}`),
        '========================================',
        `Amount due      SGD ${(n % 70) + 30}.00`,
        'Paid by card (contactless)',
        'Exchanges within 14 days with this invoice.',
        'Follow us @linenroom for new arrivals!',
      ].join('\n');
    const renewedBatch = Array.from({ length: 20 }, (_, k) =>
      receiptInput(boutique, new Date(Date.UTC(2026, 3, 1, 2, k)).toISOString(), 10, [['VISA', 10]], {
        rawReceipt: renewed(k),
      }),
    );
    await inTransaction(db.pool, (tx) => ingestReceipts(tx, 1, renewedBatch));
    const after = await dictionaries(boutique);
    expect(after).toHaveLength(before.length + 1);
    const rows = await stored(boutique);
    const latest = rows.slice(-20);
    expect(latest.map((row) => row.raw_receipt.readUInt32BE(1))).toEqual(latest.map(() => after.at(-1)?.id));
    const average = latest.reduce((sum, row) => sum + row.raw_receipt.length, 0) / latest.length;
    expect(average).toBeLessThan(Buffer.byteLength(renewed(7)) / 4);
    const texts = await decodeRawTexts(
      db.pool,
      1,
      rows.map((row) => row.raw_receipt),
    );
    expect(texts.slice(0, 40)).toEqual(Array.from({ length: 40 }, (_, k) => printed(k)));
    expect(texts.slice(-20)).toEqual(Array.from({ length: 20 }, (_, k) => renewed(k)));
  });

  it('grows a small first dictionary with later batches, and keeps the older ones for the texts that need them', async () => {
    await inTransaction(db.pool, (tx) => ingestReceipts(tx, 1, batch(kiosk, 0, 1)));
    const [small] = await dictionaries(kiosk);
    expect(small?.size).toBeLessThan(1024);
    await inTransaction(db.pool, (tx) => ingestReceipts(tx, 1, batch(kiosk, 1, 30)));
    const after = await dictionaries(kiosk);
    expect(after).toHaveLength(2);
    expect(after[1]?.size).toBeGreaterThan(small?.size ?? 0);
    await inTransaction(db.pool, (tx) => ingestReceipts(tx, 1, batch(kiosk, 31, 5)));
    expect(await dictionaries(kiosk)).toHaveLength(2);
    const rows = await stored(kiosk);
    expect(new Set(rows.map((row) => row.raw_receipt.readUInt32BE(1)))).toEqual(new Set(after.map((d) => d.id)));
    expect(
      await decodeRawTexts(
        db.pool,
        1,
        rows.map((row) => row.raw_receipt),
      ),
    ).toEqual(rows.map((_, k) => printed(k)));
  });

  it('keeps no dictionary of a batch that was rolled back', async () => {
    const failing = inTransaction(db.pool, async (tx) => {
      await ingestReceipts(tx, WORLD.clients.apex, batch(WORLD.outlets.apexShop, 0, 3));
      throw new Error('the batch fails after its texts were compressed');
    });
    await expect(failing).rejects.toThrow(/batch fails/);
    expect(await dictionaries(WORLD.outlets.apexShop)).toEqual([]);
  });
});

describe('outlet dictionaries in memory', () => {
  it('compress to the bytes zlib makes with the same settings, text after text, and by the bytes of a dictionary, not its id', () => {
    const texts = Array.from(
      { length: 50 },
      (_, n) =>
        `THE CORNER CAFE\nRECEIPT ${n}\n${'1 x Latte   5.50\n'.repeat(2 + (n % 5))}TOTAL ${n}.00\nThank you for coming`,
    );
    const one = { id: 7, bytes: Buffer.from(texts.slice(0, 10).join('\n')) };
    const other = { id: 7, bytes: Buffer.from(`another outlet's texts\n${'2 x Bagel   7.00\n'.repeat(30)}`) };
    for (const dictionary of [one, other, one]) {
      for (const text of texts) {
        const stored = encodeRawText(text, dictionary);
        expect(stored[0]).toBe(2);
        expect(stored.subarray(5)).toEqual(
          deflateRawSync(Buffer.from(text), { dictionary: dictionary.bytes, level: 6, memLevel: 5, windowBits: 12 }),
        );
        expect(decodeRawText(stored, () => dictionary.bytes)).toBe(text);
      }
    }
  });
});
