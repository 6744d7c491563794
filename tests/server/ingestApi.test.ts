import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDeviceKey, revokeDeviceKey } from '../../server/repositories/deviceKeys.js';
import { rollupMismatches } from '../../server/repositories/ingestion.js';
import { type IngestResult, type PosReceipt, posReceipt } from '../support/posDevice.js';
import { PASSWORD, seedWorld, WORLD } from './fixtures.js';
import { type Agent, createTestApp, createTestDatabase, signInAgents, type TestDatabase } from './helpers.js';

/*
 * POST /api/ingest/receipts on the fixture world: a device key of Cafe Uno (Central Mall, Asia/Singapore, client 1)
 * and one of Apex Shop (client 2); Cafe Uno sells SKUs 101 and 102, Boutique Duo SKU 201.
 */
let db: TestDatabase;
let app: FastifyInstance;
let cafeKey: string;
let apexKey: string;
let operator: Agent;
const START = '2026-03-02T01:00:00Z';
const CAFE_SKUS = [101, 102];

async function post(key: string | undefined, body: unknown, headers: Record<string, string> = {}) {
  return app.inject({
    method: 'POST',
    url: '/api/ingest/receipts',
    headers: { ...(key === undefined ? {} : { authorization: `Bearer ${key}` }), ...headers },
    payload: body as object,
  });
}

async function ingest(key: string, receipts: readonly unknown[]): Promise<IngestResult> {
  const response = await post(key, { receipts });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

const count = async (sql: string, values: unknown[] = []) =>
  Number((await db.pool.query<{ n: string }>(sql, values)).rows[0]?.n);

const dailyRollup = async () =>
  (await db.pool.query('SELECT * FROM rollup_outlet_daily ORDER BY client_id, outlet_id, local_day')).rows;

beforeAll(async () => {
  db = await createTestDatabase();
  await seedWorld(db.pool);
  await db.pool.query(`
    INSERT INTO skus (client_id, id, outlet_id, barcode, item_name, unit_price) VALUES
      (1, 101, 1, '0101', 'Latte', 2.5), (1, 102, 1, '0102', 'Scone', 2.5), (1, 201, 2, '0201', 'Scarf', 30)`);
  cafeKey = (
    await createDeviceKey(db.pool, { clientId: 1, outletId: WORLD.outlets.cafe, name: 'Till 1', createdBy: null })
  ).key;
  apexKey = (
    await createDeviceKey(db.pool, { clientId: 2, outletId: WORLD.outlets.apexShop, name: 'Till A', createdBy: null })
  ).key;
  app = await createTestApp(db.pool);
  ({ operator } = await signInAgents(app, { operator: WORLD.users.operator1 }, PASSWORD));
});
afterAll(async () => {
  await app?.close();
  await db?.drop();
});

describe('the device key', () => {
  const one = { receipts: [posReceipt(1, START, CAFE_SKUS)] };

  it('is required: none, a malformed one, an unknown one and a revoked one answer 401 and store nothing', async () => {
    const revoked = await createDeviceKey(db.pool, { clientId: 1, outletId: 1, name: 'Old till', createdBy: null });
    await revokeDeviceKey(db.pool, { clientId: 1, keyId: revoked.id, revokedBy: null });
    for (const key of [undefined, '', 'pos_', `${cafeKey}x`, 'nonsense key', revoked.key]) {
      const response = await post(key, one);
      expect(response.statusCode, String(key)).toBe(401);
      expect(response.json().message).toBe('Invalid or missing device key.');
    }
    const basic = await post(undefined, one, {
      authorization: `Basic ${Buffer.from(`x:${cafeKey}`).toString('base64')}`,
    });
    expect(basic.statusCode).toBe(401);
    expect(await count('SELECT count(*) AS n FROM receipts')).toBe(0);
  });

  it('is the only credential: a signed-in user with a CSRF token but no key gets 401', async () => {
    const response = await operator.request('POST', '/api/ingest/receipts', { body: one });
    expect(response.statusCode).toBe(401);
  });

  it('needs no session and no CSRF token, and stores to its own outlet and client only', async () => {
    const result = await ingest(apexKey, [posReceipt(1, START, [])]);
    expect(result).toMatchObject({ received: 1, new: 1, already_stored: 0, stored: [0], rejected: [] });
    const { rows } = await db.pool.query('SELECT client_id, outlet_id FROM receipts');
    expect(rows).toEqual([{ client_id: 2, outlet_id: WORLD.outlets.apexShop }]);
  });
});

describe('a batch', () => {
  const batch = Array.from({ length: 40 }, (_, n) => posReceipt(n + 1, START, CAFE_SKUS));

  it('is stored with its payments, items and every rollup, and answers how many were new', async () => {
    const result = await ingest(cafeKey, batch);
    expect(result).toMatchObject({ received: 40, new: 40, already_stored: 0, rejected: [] });
    expect(result.stored).toEqual(batch.map((_, index) => index));
    expect(await count('SELECT count(*) AS n FROM receipts WHERE outlet_id = 1')).toBe(40);
    expect(
      await count(
        'SELECT count(*) AS n FROM receipt_items i JOIN receipts r ON r.id = i.receipt_id WHERE r.outlet_id = 1',
      ),
    ).toBe(80);
    expect(
      await count(
        'SELECT count(*) AS n FROM receipt_payments p JOIN receipts r ON r.id = p.receipt_id WHERE r.outlet_id = 1',
      ),
    ).toBe(40);
    const day = await db.pool.query(
      `SELECT gmv, transactions, void_count FROM rollup_outlet_daily WHERE client_id = 1 AND outlet_id = 1`,
    );
    const sold = batch.filter((receipt) => !receipt.void);
    expect(day.rows).toEqual([
      {
        gmv: sold.reduce((sum, receipt) => sum + receipt.total_amount, 0),
        transactions: sold.length,
        void_count: batch.length - sold.length,
      },
    ]);
    expect(Object.values(await rollupMismatches(db.pool)).every((n) => n === 0)).toBe(true);
  });

  it('sent again changes nothing and says every receipt was already there', async () => {
    const before = await dailyRollup();
    const result = await ingest(cafeKey, batch);
    expect(result).toMatchObject({ received: 40, new: 0, already_stored: 40, rejected: [] });
    expect(result.stored).toHaveLength(40);
    expect(await dailyRollup()).toEqual(before);
    expect(await count('SELECT count(*) AS n FROM receipts WHERE outlet_id = 1')).toBe(40);
    expect(await count('SELECT count(*) AS n FROM receipt_items')).toBe(80);
  });

  it('overlapping an earlier one stores only the new receipts, once each, also when one is given twice', async () => {
    const overlap = [...batch.slice(30), ...Array.from({ length: 10 }, (_, n) => posReceipt(41 + n, START, CAFE_SKUS))];
    overlap.push(posReceipt(45, START, CAFE_SKUS));
    const result = await ingest(cafeKey, overlap);
    expect(result).toMatchObject({ received: 21, new: 10, already_stored: 11, rejected: [] });
    expect(await count('SELECT count(*) AS n FROM receipts WHERE outlet_id = 1')).toBe(50);
    expect(
      await count(
        'SELECT count(*) AS n FROM (SELECT 1 FROM receipts GROUP BY outlet_id, receipt_id, datetime HAVING count(*) > 1) d',
      ),
    ).toBe(0);
    expect(Object.values(await rollupMismatches(db.pool)).every((n) => n === 0)).toBe(true);
  });

  it('keeps a receipt id used again at another instant apart: the identity is outlet, receipt id and datetime', async () => {
    const again = posReceipt(1, '2026-03-03T01:00:00Z', CAFE_SKUS);
    expect(again.receipt_id).toBe(batch[0]?.receipt_id);
    expect(await ingest(cafeKey, [again])).toMatchObject({ new: 1, already_stored: 0 });
  });
});

describe('bad receipts', () => {
  it('are refused one by one with their index and field, and the good ones of the batch are stored', async () => {
    const good = (n: number) => posReceipt(1000 + n, START, CAFE_SKUS);
    const { datetime: _, ...noDatetime } = good(1);
    const receipts: unknown[] = [
      good(0),
      noDatetime,
      { ...good(2), total_amount: '12.50' },
      { ...good(3), datetime: '2026-02-30T10:00:00Z' },
      { ...good(4), datetime: new Date(Date.now() + 3 * 86_400_000).toISOString() },
      {
        ...good(5),
        items: [
          { sku_id: 101, quantity: 1, unit_price: 2.5, amount: 2.5 },
          { sku_id: 201, quantity: 1, unit_price: 30, amount: 30 },
        ],
      },
      { ...good(6), colour: 'red' },
      { ...good(7), void: 'yes' },
      { ...good(8), receipt_id: '' },
      { ...good(9), items: [{ sku_id: 0, quantity: 1, unit_price: 1, amount: 1 }] },
      { ...good(10), dine_out_time: '2026-03-01T00:00:00Z' },
      { ...good(11), raw_receipt: 'nul \u0000 byte' },
      good(12),
    ];
    const result = await ingest(cafeKey, receipts);
    expect(result.received).toBe(13);
    expect(result.stored).toEqual([0, 12]);
    expect(result.new).toBe(2);
    expect(result.rejected.map(({ index, field }) => [index, field])).toEqual([
      [1, 'datetime'],
      [2, 'total_amount'],
      [3, 'datetime'],
      [4, 'datetime'],
      [5, 'items/1/sku_id'],
      [6, 'colour'],
      [7, 'void'],
      [8, 'receipt_id'],
      [9, 'items/0/sku_id'],
      [10, 'dine_out_time'],
      [11, 'raw_receipt'],
    ]);
    expect(result.rejected.find((entry) => entry.index === 5)).toMatchObject({
      receipt_id: 'T1-001005',
      message: 'is not an SKU of the outlet',
    });
    expect(result.rejected.find((entry) => entry.index === 1)?.message).toBe('is required');
    expect(await count("SELECT count(*) AS n FROM receipts WHERE receipt_id LIKE 'T1-0010%'")).toBe(2);
  });

  it('a batch that is not a batch is a 400 naming the field, and stores nothing', async () => {
    const before = await count('SELECT count(*) AS n FROM receipts');
    const cases: [unknown, string][] = [
      [{}, 'body/receipts'],
      [{ receipts: [] }, 'body/receipts'],
      [{ receipts: 'x' }, 'body/receipts'],
      [{ receipts: ['not a receipt'] }, 'body/receipts/0'],
      [{ receipts: Array.from({ length: 1001 }, (_, n) => posReceipt(n, START, [])) }, 'body/receipts'],
      [{ receipts: [posReceipt(1, START, [])], device: 1 }, 'body/device'],
    ];
    for (const [body, field] of cases) {
      const response = await post(cafeKey, body);
      expect(response.statusCode, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(response.json().message.startsWith(field)).toBe(true);
    }
    expect(await count('SELECT count(*) AS n FROM receipts')).toBe(before);
  });

  it('takes a full batch of 1,000 receipts with long printed texts', async () => {
    const raw = 'x'.repeat(4000);
    const receipts: PosReceipt[] = Array.from({ length: 1000 }, (_, n) =>
      posReceipt(5000 + n, '2026-03-05T00:00:00Z', CAFE_SKUS, { raw_receipt: raw }),
    );
    const result = await ingest(cafeKey, receipts);
    expect(result).toMatchObject({ received: 1000, new: 1000, rejected: [] });
  });
});
