import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from '../../server/db/migrate.js';
import type { Pool } from '../../server/db/pool.js';
import { generateDemoData } from '../../server/demo/generate.js';
import { PAYMENT_HOUR_MEASURES, runningColumns, runningTotalsSql } from '../../server/repositories/hourColumns.js';
import { rollupMismatches } from '../../server/repositories/ingestion.js';
import { createTestDatabase, type TestDatabase } from './helpers.js';

/** Copies the rows of `table` from one database to another with the same columns (those of `into`). */
async function copyTable(from: Pool, into: Pool, table: string): Promise<void> {
  const { rows } = await from.query(`SELECT * FROM ${table}`);
  await into.query(`INSERT INTO ${table} SELECT * FROM json_populate_recordset(NULL::${table}, $1)`, [
    JSON.stringify(rows),
  ]);
}

/** An empty database migrated up to `until`, holding client 1 and its mall 1 (Marina Mall, SGD, Singapore). */
async function databaseUpTo(until: string): Promise<TestDatabase> {
  const db = await createTestDatabase({ empty: true });
  await migrate(db.pool, { until });
  await db.pool.query(`
    INSERT INTO clients (id, name) VALUES (1, 'Test Client');
    INSERT INTO malls (client_id, id, name, currency, time_zone) VALUES (1, 1, 'Marina Mall', 'SGD', 'Asia/Singapore');
  `);
  return db;
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
      skuDaily: 0,
      mealDaily: 0,
      memberDaily: 0,
      outletMonthHours: 0,
      mallDaily: 0,
      outletMonthly: 0,
      tradingRuns: 0,
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

/*
 * Migration 008 stores payment methods normalised. A database of the version before (migrations up to 007) holds
 * receipts, tenders, payment rollups and processing fees with methods as captured ('VISA', ' visa ', 'Visa', '',
 * 'NONE', 'none'); after it every method is normalised and rows whose keys meet are merged, their measures summed.
 */
describe('migration 008 (normalised payment methods)', () => {
  let earlier: TestDatabase;
  const PAY = `SELECT r.client_id, r.outlet_id, o.mall_id, (r.datetime AT TIME ZONE m.time_zone)::date AS local_day,
      date_part('hour', r.datetime AT TIME ZONE m.time_zone)::int AS hr, p.payment_method, p.amount
    FROM receipts r JOIN outlets o ON o.client_id = r.client_id AND o.id = r.outlet_id
    JOIN malls m ON m.client_id = o.client_id AND m.id = o.mall_id
    JOIN receipt_payments p ON p.client_id = r.client_id AND p.receipt_id = r.id
    WHERE NOT r.void`;
  const RUNNING = runningTotalsSql(PAYMENT_HOUR_MEASURES, 'hr', () => '(amount * 100)::int8');
  const COLUMNS = runningColumns(PAYMENT_HOUR_MEASURES).join(', ');

  beforeAll(async () => {
    earlier = await databaseUpTo('007_sign_in_throttles.sql');
    await earlier.pool.query(`
      INSERT INTO outlets (client_id, id, mall_id, name, outlet_code, type) VALUES
        (1, 11, 1, 'Noodle Bar', 'A1', 1), (1, 12, 1, 'Shoe Shop', 'A2', 2);
      -- Singapore times: 10:00, 11:00, 12:00, 13:00 and 14:00 on 1 February 2026; the last one is void.
      INSERT INTO receipts (client_id, id, outlet_id, receipt_id, datetime, total_amount, payment_method, void) VALUES
        (1, 1, 11, 'R1', '2026-02-01T02:00:00Z', 10, 'VISA', false),
        (1, 2, 11, 'R2', '2026-02-01T03:00:00Z', 5, ' visa ', false),
        (1, 3, 11, 'R3', '2026-02-01T04:00:00Z', 7, 'Visa', false),
        (1, 4, 11, 'R4', '2026-02-01T05:00:00Z', 6, '', false),
        (1, 5, 12, 'R5', '2026-02-01T06:00:00Z', 8, 'none', false),
        (1, 6, 11, 'R6', '2026-02-01T06:00:00Z', 9, 'visa', true);
      INSERT INTO receipt_payments (client_id, receipt_id, seq, payment_method, amount) VALUES
        (1, 1, 1, 'VISA', 10), (1, 2, 1, ' visa ', 5), (1, 3, 1, 'Visa', 4), (1, 3, 2, 'NONE', 3),
        (1, 4, 1, '', 6), (1, 5, 1, 'none', 8), (1, 6, 1, 'visa', 9);
      INSERT INTO processing_fees (client_id, outlet_id, payment_method, processing_fees) VALUES
        (1, 11, 'VISA', 2.5), (1, 11, 'visa', 2.0), (1, 11, 'Nets', 0.7), (1, 12, 'VISA', 1.5);
    `);
    // The payment rollups as the earlier version kept them: by method as captured.
    await earlier.pool.query(`
      INSERT INTO rollup_outlet_payment_daily (client_id, outlet_id, local_day, payment_method, amount, payments, ${COLUMNS})
      SELECT client_id, outlet_id, local_day, payment_method, sum(amount), count(*), ${RUNNING}
      FROM (${PAY}) pay GROUP BY 1, 2, 3, 4`);
    await earlier.pool.query(`
      INSERT INTO rollup_mall_payment_day_hours (client_id, mall_id, local_day, payment_method, ${COLUMNS})
      SELECT client_id, mall_id, local_day, payment_method, ${RUNNING}
      FROM (${PAY}) pay GROUP BY 1, 2, 3, 4`);
    const before = await earlier.pool.query('SELECT count(*)::int AS n FROM rollup_outlet_payment_daily');
    expect(before.rows[0]).toEqual({ n: 6 });
    expect(await migrate(earlier.pool)).toContain('008_normalised_payment_methods.sql');
  });

  afterAll(async () => {
    await earlier?.drop();
  });

  it('normalises the methods of receipts and tenders', async () => {
    const receipts = await earlier.pool.query('SELECT receipt_id, payment_method FROM receipts ORDER BY id');
    expect(receipts.rows.map((row) => row.payment_method)).toEqual([
      'VISA',
      'VISA',
      'VISA',
      'OTHERS',
      'OTHERS',
      'VISA',
    ]);
    const tenders = await earlier.pool.query(
      'SELECT DISTINCT payment_method FROM receipt_payments ORDER BY payment_method',
    );
    expect(tenders.rows).toEqual([{ payment_method: 'OTHERS' }, { payment_method: 'VISA' }]);
  });

  it('merges the payment rollups whose methods meet, summing their measures', async () => {
    const outlet = await earlier.pool.query(
      `SELECT outlet_id, payment_method, amount, payments, amount_h11, amount_h12, amount_h13, amount_h24
       FROM rollup_outlet_payment_daily ORDER BY outlet_id, payment_method COLLATE "C"`,
    );
    // Outlet 11: VISA 10 (10:00) + 5 (11:00) + 4 (12:00); OTHERS NONE 3 (12:00) + '' 6 (13:00); void visa 9 left out.
    expect(outlet.rows).toEqual([
      {
        outlet_id: 11,
        payment_method: 'OTHERS',
        amount: 9,
        payments: 2,
        amount_h11: 0,
        amount_h12: 0,
        amount_h13: 300,
        amount_h24: 900,
      },
      {
        outlet_id: 11,
        payment_method: 'VISA',
        amount: 19,
        payments: 3,
        amount_h11: 1000,
        amount_h12: 1500,
        amount_h13: 1900,
        amount_h24: 1900,
      },
      {
        outlet_id: 12,
        payment_method: 'OTHERS',
        amount: 8,
        payments: 1,
        amount_h11: 0,
        amount_h12: 0,
        amount_h13: 0,
        amount_h24: 800,
      },
    ]);
    const mall = await earlier.pool.query(
      'SELECT payment_method, amount_h24 FROM rollup_mall_payment_day_hours ORDER BY payment_method COLLATE "C"',
    );
    expect(mall.rows).toEqual([
      { payment_method: 'OTHERS', amount_h24: 1700 },
      { payment_method: 'VISA', amount_h24: 1900 },
    ]);
    expect(await rollupMismatches(earlier.pool)).toMatchObject({ payment: 0, mallPayment: 0 });
  });

  it('keeps the highest processing fee of methods that meet', async () => {
    const fees = await earlier.pool.query(
      'SELECT outlet_id, payment_method, processing_fees FROM processing_fees ORDER BY outlet_id, payment_method',
    );
    expect(fees.rows).toEqual([
      { outlet_id: 11, payment_method: 'NETS', processing_fees: 0.7 },
      { outlet_id: 11, payment_method: 'VISA', processing_fees: 2.5 },
      { outlet_id: 12, payment_method: 'VISA', processing_fees: 1.5 },
    ]);
  });
});

/*
 * Migration 023 stores line items as bytes and a receipt's one tender of its own method for its total as NULL
 * arrays. Receipts of the version before (022) must read the same through the views after it.
 */
describe('migration 023 (compact receipts)', () => {
  let earlier: TestDatabase;

  beforeAll(async () => {
    earlier = await databaseUpTo('022_receipts_by_month.sql');
    await earlier.pool.query(`
      INSERT INTO outlets (client_id, id, mall_id, name, outlet_code, type) VALUES (1, 11, 1, 'Noodle Bar', 'A1', 1);
      SELECT receipts_month_partition('2026-02-01');
      INSERT INTO receipts (client_id, id, outlet_id, receipt_id, datetime, total_amount, payment_method,
        payment_methods, payment_amounts, items) VALUES
        (1, 1, 11, 'R1', '2026-02-01T02:00:00Z', 10.50, 'VISA', '{VISA}', '{10.50}',
          '{{301,2,5.25,10.50}}'),
        (1, 2, 11, 'R2', '2026-02-01T03:00:00Z', 7, 'VISA', '{VISA,CASH}', '{4,3}',
          '{{301,1,5.25,5.25},{70000,-1,1.75,-1.75},{302,300,123456.78,37037034.00}}'),
        (1, 3, 11, 'R3', '2026-02-01T04:00:00Z', 6, 'CASH', '{}', '{}', '{}'),
        (1, 4, 11, 'R4', '2026-02-01T05:00:00Z', 6, 'CASH', '{NETS}', '{6}', '{}');
    `);
    expect(await migrate(earlier.pool)).toContain('023_compact_receipts.sql');
  });

  afterAll(async () => {
    await earlier?.drop();
  });

  it('keeps every line item, in order, with its amounts to the cent', async () => {
    const { rows } = await earlier.pool.query(
      'SELECT receipt_id, seq, sku_id, quantity, unit_price, amount FROM receipt_items ORDER BY receipt_id, seq',
    );
    expect(rows).toEqual([
      { receipt_id: 1, seq: 1, sku_id: 301, quantity: 2, unit_price: 5.25, amount: 10.5 },
      { receipt_id: 2, seq: 1, sku_id: 301, quantity: 1, unit_price: 5.25, amount: 5.25 },
      { receipt_id: 2, seq: 2, sku_id: 70000, quantity: -1, unit_price: 1.75, amount: -1.75 },
      { receipt_id: 2, seq: 3, sku_id: 302, quantity: 300, unit_price: 123456.78, amount: 37037034 },
    ]);
  });

  it('keeps every tender, and arrays only for receipts not paid with one tender of their method for their total', async () => {
    const tenders = await earlier.pool.query(
      'SELECT receipt_id, seq, payment_method, amount FROM receipt_payments ORDER BY receipt_id, seq',
    );
    expect(tenders.rows).toEqual([
      { receipt_id: 1, seq: 1, payment_method: 'VISA', amount: 10.5 },
      { receipt_id: 2, seq: 1, payment_method: 'VISA', amount: 4 },
      { receipt_id: 2, seq: 2, payment_method: 'CASH', amount: 3 },
      { receipt_id: 4, seq: 1, payment_method: 'NETS', amount: 6 },
    ]);
    const stored = await earlier.pool.query('SELECT id, payment_methods, payment_amounts FROM receipts ORDER BY id');
    expect(stored.rows).toEqual([
      { id: 1, payment_methods: null, payment_amounts: null },
      { id: 2, payment_methods: ['VISA', 'CASH'], payment_amounts: [4, 3] },
      { id: 3, payment_methods: [], payment_amounts: [] },
      { id: 4, payment_methods: ['NETS'], payment_amounts: [6] },
    ]);
  });
});
