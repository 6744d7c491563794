import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inTransaction } from '../../server/db/pool.js';
import { ingestReceipts } from '../../server/repositories/ingestion.js';
import { PASSWORD, receiptInput as receipt, seedWorld, WORLD } from './fixtures.js';
import { Agent, createTestApp, createTestDatabase, type TestDatabase } from './helpers.js';

/*
 * Zenith reports in SGD; Central Mall is in SGD and Harbour Mall in USD. USD is worth 1.35 SGD in March 2026 and
 * 1.3 in April; February has no rate.
 *
 *   cafe (Central, SGD)   Mon 2 March 10:15   100.00   VISA
 *   cafe (Central, SGD)   Wed 1 April 10:00    10.00   CASH
 *   kiosk (Harbour, USD)  Mon 2 March 10:00    60.00   VISA
 *   kiosk (Harbour, USD)  Wed 1 April 10:00    20.00   VISA
 *   kiosk (Harbour, USD)  Mon 2 Feb 10:00       5.00   VISA   (a month without a rate)
 */
let db: TestDatabase;
let app: FastifyInstance;
let agent: Agent;
const { cafe, kiosk } = WORLD.outlets;
const { central, harbour } = WORLD.malls;

beforeAll(async () => {
  db = await createTestDatabase();
  await seedWorld(db.pool);
  await db.pool.query(
    `INSERT INTO role_api_permissions (role_id, permission)
     SELECT 2, '/api/mall_report/' || p || '::Read'
     FROM unnest(ARRAY['daily', 'monthly', 'mall', 'outlet', 'payment_method/overall', 'member/overall',
       'peak_hour']) p`,
  );
  await db.pool.query(`INSERT INTO exchange_rates (client_id, month, currency, rate) VALUES
    (1, '2026-03-01', 'USD', 1.35), (1, '2026-04-01', 'USD', 1.3)`);
  await inTransaction(db.pool, async (client) => {
    await ingestReceipts(client, 1, [
      receipt(cafe, '2026-03-02T02:15:00Z', 100, [['VISA', 100]]),
      receipt(cafe, '2026-04-01T02:00:00Z', 10, [['CASH', 10]]),
      receipt(kiosk, '2026-03-02T15:00:00Z', 60, [['VISA', 60]]),
      receipt(kiosk, '2026-04-01T14:00:00Z', 20, [['VISA', 20]]),
      receipt(kiosk, '2026-02-02T15:00:00Z', 5, [['VISA', 5]]),
    ]);
  });
  app = await createTestApp(db.pool);
  agent = new Agent(app);
  expect((await agent.login(WORLD.users.operator1, PASSWORD)).statusCode).toBe(200);
});
afterAll(async () => {
  await app?.close();
  await db?.drop();
});

function report(path: string, malls: number[], start: string, end: string, extra = '') {
  const ids = malls.map((id) => `mall_ids=${id}`).join('&');
  return agent.get(`/api/mall_report/${path}?client_id=1&${ids}&start_time=${start}&end_time=${end}${extra}`);
}

async function data(path: string, malls: number[], start: string, end: string, extra = '') {
  const response = await report(path, malls, start, end, extra);
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data;
}

describe('malls in several currencies', () => {
  it('converts each amount at its month’s rate before adding: 100 SGD + 60 USD × 1.35 = 181 SGD', async () => {
    const days = await data('daily', [central, harbour], '2026-03-02', '2026-03-03');
    expect(days).toEqual([
      { date: '2026-03-02', gmv: 181, transactions: 2 },
      { date: '2026-03-03', gmv: 0, transactions: 0 },
    ]);
    const months = await data('monthly', [central, harbour], '2026-03-01', '2026-04-30');
    expect(months).toEqual([
      { month: '2026-03', gmv: 181, transactions: 2 },
      { month: '2026-04', gmv: 36, transactions: 2 },
    ]);
  });

  it('ranks malls, groups outlets and sums payment methods in the reporting currency', async () => {
    const malls = await data('mall', [central, harbour], '2026-03-01', '2026-04-30', '&rank_by=gmv');
    expect(malls.map((row: { mall_name: string; gmv: number }) => [row.mall_name, row.gmv])).toEqual([
      ['Central Mall', 110],
      ['Harbour Mall', 107],
    ]);
    const outlets = await data('outlet', [central, harbour], '2026-03-01', '2026-03-31', '&group_by=outlet');
    expect(outlets.map((row: { name: string; gmv: number }) => [row.name, row.gmv])).toEqual([
      ['Cafe Uno', 100],
      ['kiosk tres', 81],
    ]);
    const payments = await data('payment_method/overall', [central, harbour], '2026-03-01', '2026-04-30');
    expect(payments).toEqual([
      { payment_method: 'VISA', sum: 207 },
      { payment_method: 'CASH', sum: 10 },
    ]);
  });

  it('converts hourly figures as well', async () => {
    const hours = await data('peak_hour', [central, harbour], '2026-03-02', '2026-03-02', '&time_range=daily');
    const tenOClock = hours.filter((row: { hour: number }) => row.hour === 10);
    expect(tenOClock).toEqual([{ period: '2026-03-02', hour: 10, value: 181 }]);
  });

  it('refuses to add them for a month without a rate (409 naming the currency and month), never a wrong sum', async () => {
    const response = await report('daily', [central, harbour], '2026-02-01', '2026-03-31');
    expect(response.statusCode).toBe(409);
    expect(response.json().message).toBe(
      'No exchange rate to SGD for USD in February 2026. Amounts in different currencies are not added without one: ' +
        'select malls that use one currency, or a period that has rates.',
    );
    // Instead of a total: each currency's figures of the range, in that currency.
    expect(response.json().by_currency).toEqual([
      { currency: 'SGD', gmv: 100, transactions: 1 },
      { currency: 'USD', gmv: 65, transactions: 2 },
    ]);
  });

  it('gives the figures per currency over the hours asked', async () => {
    // Every sale is at 10:xx local time: from 11:00 each currency has nothing, and says so.
    const response = await report('mall', [central, harbour], '2026-02-01', '2026-03-31', '&start_hour=11&end_hour=23');
    expect(response.statusCode, response.body).toBe(409);
    expect(response.json().by_currency).toEqual([
      { currency: 'SGD', gmv: 0, transactions: 0 },
      { currency: 'USD', gmv: 0, transactions: 0 },
    ]);
    const atTen = await report('mall', [central, harbour], '2026-02-01', '2026-03-31', '&start_hour=10&end_hour=10');
    expect(atTen.json().by_currency).toEqual([
      { currency: 'SGD', gmv: 100, transactions: 1 },
      { currency: 'USD', gmv: 65, transactions: 2 },
    ]);
  });

  it('needs no rate for a month without sales in that currency', async () => {
    expect(await data('daily', [central, harbour], '2026-01-05', '2026-01-06')).toEqual([
      { date: '2026-01-05', gmv: 0, transactions: 0 },
      { date: '2026-01-06', gmv: 0, transactions: 0 },
    ]);
    // February has a USD sale only on the 2nd: the days before it need no rate, the range over it does.
    expect((await report('daily', [central, harbour], '2026-02-01', '2026-02-01')).statusCode).toBe(200);
    expect((await report('daily', [central, harbour], '2026-02-01', '2026-02-02')).statusCode).toBe(409);
  });

  it('reports malls of one currency in it as they are, rates or not', async () => {
    expect(await data('daily', [harbour], '2026-02-02', '2026-02-02')).toEqual([
      { date: '2026-02-02', gmv: 5, transactions: 1 },
    ]);
    expect(await data('monthly', [harbour], '2026-03-01', '2026-03-31')).toEqual([
      { month: '2026-03', gmv: 60, transactions: 1 },
    ]);
  });
});
