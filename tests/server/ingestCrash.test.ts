import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDeviceKey } from '../../server/repositories/deviceKeys.js';
import { rollupMismatches } from '../../server/repositories/ingestion.js';
import { type PosReceipt, posReceipt, postBatch } from '../support/posDevice.js';
import { freePort } from '../support/postgres.js';
import { type ServerProcess, startServerProcess } from '../support/serverProcess.js';
import { seedWorld, WORLD } from './fixtures.js';
import { createTestDatabase, type TestDatabase } from './helpers.js';

/*
 * The server process (server/main.ts on the test's database) is killed with SIGKILL while a device streams batches of
 * receipts, three times; after each restart the device sends again every batch it has no answer for. At the end every
 * receipt is stored exactly once and every rollup equals a recomputation from the stored receipts.
 */
let db: TestDatabase;
let key: string;
let server: ServerProcess | undefined;
const BATCHES = 24;
const BATCH_SIZE = 250;
const SKUS = [101, 102];

const start = (port: number) => startServerProcess({ databaseUrl: db.url, port });

beforeAll(async () => {
  db = await createTestDatabase();
  await seedWorld(db.pool);
  await db.pool.query(`
    INSERT INTO skus (client_id, id, outlet_id, barcode, item_name, unit_price) VALUES
      (1, 101, 1, '0101', 'Latte', 2.5), (1, 102, 1, '0102', 'Scone', 2.5)`);
  key = (await createDeviceKey(db.pool, { clientId: 1, outletId: WORLD.outlets.cafe, name: 'Till 1', createdBy: null }))
    .key;
});
afterAll(async () => {
  await server?.kill();
  await db?.drop();
});

describe('a server killed while a device streams receipts', () => {
  it('keeps every acknowledged receipt exactly once, and rollups that match the receipts', async () => {
    const batches: PosReceipt[][] = Array.from({ length: BATCHES }, (_, b) =>
      Array.from({ length: BATCH_SIZE }, (_, i) => posReceipt(b * BATCH_SIZE + i, '2026-05-01T00:00:00Z', SKUS)),
    );
    const acknowledged = new Set<number>();
    const crashes: { killedDuring: number; resentAlreadyStored: number }[] = [];
    let next = 0;
    // Kill the server while batch 3, 9 and 15 is on its way (or has just been stored and not yet answered).
    const killAt = new Set([3, 9, 15]);
    const port = await freePort();
    server = await start(port);
    const url = server.url;

    while (next < BATCHES) {
      const batch = batches[next] ?? [];
      const sending = postBatch(url, key, batch);
      if (killAt.has(next)) {
        killAt.delete(next);
        // The answer may never come: the failed request is one outcome, never an error of the test.
        const outcome = sending.then(
          (answer) => answer,
          () => undefined,
        );
        await new Promise((resolve) => setTimeout(resolve, 5 + next));
        await server.kill();
        const lost = await outcome;
        if (lost?.status === 200) acknowledged.add(next);
        server = await start(port);
        // The device sends again what it has no answer for.
        if (!acknowledged.has(next)) {
          const resent = await postBatch(url, key, batch);
          expect(resent.status).toBe(200);
          expect(resent.body.new + resent.body.already_stored).toBe(BATCH_SIZE);
          crashes.push({ killedDuring: next, resentAlreadyStored: resent.body.already_stored });
          acknowledged.add(next);
        }
      } else {
        const answer = await sending;
        expect(answer.status, JSON.stringify(answer.body).slice(0, 200)).toBe(200);
        expect(answer.body).toMatchObject({ new: BATCH_SIZE, already_stored: 0, rejected: [] });
        acknowledged.add(next);
      }
      next += 1;
    }
    // A device that is not sure sends the whole stream again: nothing changes.
    const before = await db.pool.query('SELECT * FROM rollup_outlet_daily ORDER BY local_day');
    for (const batch of batches.slice(0, 4)) {
      expect((await postBatch(url, key, batch)).body).toMatchObject({ new: 0, already_stored: BATCH_SIZE });
    }
    expect((await db.pool.query('SELECT * FROM rollup_outlet_daily ORDER BY local_day')).rows).toEqual(before.rows);

    expect(acknowledged.size).toBe(BATCHES);
    expect(crashes.length).toBeGreaterThan(0);
    const { rows } = await db.pool.query<{ receipts: number; distinct_ids: number; items: number; payments: number }>(
      `SELECT (SELECT count(*)::int FROM receipts) AS receipts,
              (SELECT count(DISTINCT (outlet_id, receipt_id, datetime))::int FROM receipts) AS distinct_ids,
              (SELECT count(*)::int FROM receipt_items) AS items,
              (SELECT count(*)::int FROM receipt_payments) AS payments`,
    );
    expect(rows[0]).toEqual({
      receipts: BATCHES * BATCH_SIZE,
      distinct_ids: BATCHES * BATCH_SIZE,
      items: BATCHES * BATCH_SIZE * SKUS.length,
      payments: BATCHES * BATCH_SIZE,
    });
    const sent = new Set(batches.flat().map((receipt) => receipt.receipt_id));
    const stored = await db.pool.query<{ receipt_id: string }>('SELECT receipt_id FROM receipts');
    expect(new Set(stored.rows.map((row) => row.receipt_id))).toEqual(sent);
    expect(await rollupMismatches(db.pool)).toEqual({
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
    });
  }, 180_000);
});
