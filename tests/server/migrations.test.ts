import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from '../../server/db/migrate.js';
import type { Pool } from '../../server/db/pool.js';
import { generateDemoData } from '../../server/demo/generate.js';
import { rollupMismatches } from '../../server/repositories/ingestion.js';
import { createTestDatabase, type TestDatabase } from './helpers.js';

/** Copies the rows of `table` from one database to another with the same columns (those of `into`). */
async function copyTable(from: Pool, into: Pool, table: string): Promise<void> {
  const { rows } = await from.query(`SELECT * FROM ${table}`);
  await into.query(`INSERT INTO ${table} SELECT * FROM json_populate_recordset(NULL::${table}, $1)`, [
    JSON.stringify(rows),
  ]);
}

/*
 * Migration 006 replaced the hourly rollup with day rows of running totals by hour. A database of the version
 * before (migrations up to 005, receipts and the three rollups of that version) must come out of it with the
 * new rollups equal to an aggregation of its receipts.
 */
describe('migration 006 (hour-of-day running totals)', () => {
  let current: TestDatabase;
  let earlier: TestDatabase;

  beforeAll(async () => {
    current = await createTestDatabase();
    await generateDemoData(current.pool, { seed: 6, receipts: 4000, endDate: '2026-10-31' });
    earlier = await createTestDatabase({ empty: true });
    await migrate(earlier.pool, { until: '005_rollup_covering_keys.sql' });
    for (const table of ['clients', 'malls', 'outlets', 'receipts', 'receipt_payments']) {
      await copyTable(current.pool, earlier.pool, table);
    }
    // The rollups as the earlier version kept them.
    await earlier.pool.query(`
      INSERT INTO rollup_outlet_hourly (client_id, outlet_id, local_hour, gmv, transactions, member_gmv, member_transactions)
      SELECT r.client_id, r.outlet_id, date_trunc('hour', r.datetime AT TIME ZONE m.time_zone),
        coalesce(sum(r.total_amount) FILTER (WHERE NOT r.void), 0), count(*) FILTER (WHERE NOT r.void),
        coalesce(sum(r.total_amount) FILTER (WHERE NOT r.void AND r.is_member), 0),
        count(*) FILTER (WHERE NOT r.void AND r.is_member)
      FROM receipts r JOIN outlets o ON o.client_id = r.client_id AND o.id = r.outlet_id
      JOIN malls m ON m.client_id = o.client_id AND m.id = o.mall_id
      GROUP BY 1, 2, 3`);
    await copyTable(current.pool, earlier.pool, 'rollup_outlet_daily');
    await copyTable(current.pool, earlier.pool, 'rollup_outlet_payment_daily');
    expect(await migrate(earlier.pool)).toContain('006_hour_of_day_rollups.sql');
  });

  afterAll(async () => {
    await current?.drop();
    await earlier?.drop();
  });

  it('fills the running totals from the earlier rollups and receipts', async () => {
    expect(await rollupMismatches(earlier.pool)).toEqual({
      daily: 0,
      outletDayHours: 0,
      mallDayHours: 0,
      payment: 0,
      mallPayment: 0,
    });
    const count =
      'SELECT (SELECT count(*) FROM rollup_outlet_day_hours)::int AS outlet, (SELECT count(*) FROM rollup_mall_day_hours)::int AS mall';
    const counts = (await earlier.pool.query(count)).rows[0];
    expect(counts).toEqual((await current.pool.query(count)).rows[0]);
    expect(counts.outlet).toBeGreaterThan(1000);
  });

  it('drops the hourly rollup', async () => {
    const { rows } = await earlier.pool.query("SELECT to_regclass('rollup_outlet_hourly') AS hourly");
    expect(rows[0]).toEqual({ hourly: null });
  });
});
