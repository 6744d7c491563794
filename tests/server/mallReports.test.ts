import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inTransaction } from '../../server/db/pool.js';
import { ingestReceipts } from '../../server/repositories/ingestion.js';
import { growthRate } from '../../src/domain/reports.js';
import { PASSWORD, receiptInput as receipt, seedWorld, WORLD } from './fixtures.js';
import { Agent, createTestApp, createTestDatabase, type TestDatabase } from './helpers.js';

/*
 * A hand-built week, Monday 2 to Sunday 8 March 2026, on the fixture world: Central Mall (Asia/Singapore, UTC+8)
 * with Cafe Uno (F&B, L1) and Boutique Duo (Fashion, L2), Harbour Mall (America/New_York, UTC-5 until 8 March)
 * with kiosk tres (F&B, L1), and Apex Plaza of the other client. Every figure below is worked out by hand from
 * these receipts (local times in the comments):
 *
 *   cafe      c1 Mon 02 10:15  100.00 member      VISA 100
 *   cafe      c2 Mon 02 12:40   50.50             visa 30.50 + '' 20
 *   cafe      c3 Tue 03 01:30   20.00             NONE 20            (Monday 17:30 UTC: Tuesday in Singapore)
 *   cafe      c4 Mon 02 13:00  999.00 VOID        MASTER 999         (void: counts nowhere)
 *   cafe      c5 Tue 24 Feb 11:00  80.00 member   VISA 80            (the previous period)
 *   boutique  b1 Wed 04 14:00  200.00 member      MASTER 200
 *   boutique  b2 Sun 08 23:59   30.00             CASH 30
 *   boutique  b3 Mon 09 00:00 1000.00             CASH 1000          (8 March 16:00 UTC: after the range locally)
 *   kiosk     k1 Mon 02 21:00   40.00 member      Cash 40            (3 March 02:00 UTC: Monday in New York)
 *   kiosk     k2 Mon 02 10:00   60.00             VISA 60 + NONE 0
 *   apex      a1 Mon 02 11:00 5000.00             VISA 5000          (other client)
 */
let db: TestDatabase;
let app: FastifyInstance;
const admin = {} as { agent: Agent };
const operator = {} as { agent: Agent };
const tenant = {} as { agent: Agent };

const { cafe, boutique, kiosk, apexShop } = WORLD.outlets;
const { central, harbour, apexPlaza } = WORLD.malls;

beforeAll(async () => {
  db = await createTestDatabase();
  await seedWorld(db.pool);
  await db.pool.query(`
    UPDATE outlets SET category = 'F&B', level = 'L1' WHERE id IN (1, 3);
    UPDATE outlets SET category = 'Fashion', level = 'L2' WHERE id = 2;
  `);
  // Harbour Mall is in USD and Zenith reports in SGD: a rate of 1 keeps the hand-worked sums below (conversion
  // itself is tested in reportCurrency.test.ts).
  await db.pool.query(
    `INSERT INTO exchange_rates (client_id, month, currency, rate)
     SELECT 1, m::date, 'USD', 1 FROM generate_series('2025-01-01'::date, '2026-12-01', interval '1 month') m`,
  );
  // The mall operator role (operator1, tenant) may read every mall report.
  await db.pool.query(
    `INSERT INTO role_api_permissions (role_id, permission)
     SELECT 2, '/api/mall_report/' || p || '::Read'
     FROM unnest(ARRAY['daily', 'monthly', 'mall', 'outlet', 'category', 'level', 'peak_hour', 'payment_method/overall',
       'member/overall', 'member/outlet', 'outlet/overallComparison', 'outlet/daily']) p`,
  );
  await inTransaction(db.pool, async (client) => {
    await ingestReceipts(client, 1, [
      receipt(cafe, '2026-03-02T02:15:00Z', 100, [['VISA', 100]], { isMember: true }),
      receipt(cafe, '2026-03-02T04:40:00Z', 50.5, [
        ['visa', 30.5],
        ['', 20],
      ]),
      receipt(cafe, '2026-03-02T17:30:00Z', 20, [['NONE', 20]]),
      receipt(cafe, '2026-03-02T05:00:00Z', 999, [['MASTER', 999]], { void: true }),
      receipt(cafe, '2026-02-24T03:00:00Z', 80, [['VISA', 80]], { isMember: true }),
      receipt(boutique, '2026-03-04T06:00:00Z', 200, [['MASTER', 200]], { isMember: true }),
      receipt(boutique, '2026-03-08T15:59:00Z', 30, [['CASH', 30]]),
      receipt(boutique, '2026-03-08T16:00:00Z', 1000, [['CASH', 1000]]),
      receipt(kiosk, '2026-03-03T02:00:00Z', 40, [['Cash', 40]], { isMember: true }),
      receipt(kiosk, '2026-03-02T15:00:00Z', 60, [
        ['VISA', 60],
        ['NONE', 0],
      ]),
    ]);
    await ingestReceipts(client, 2, [receipt(apexShop, '2026-03-02T04:00:00Z', 5000, [['VISA', 5000]])]);
  });
  app = await createTestApp(db.pool);
  for (const [holder, email] of [
    [admin, WORLD.users.admin],
    [operator, WORLD.users.operator1],
    [tenant, WORLD.users.tenant],
  ] as const) {
    holder.agent = new Agent(app);
    expect((await holder.agent.login(email, PASSWORD)).statusCode).toBe(200);
  }
});
afterAll(async () => {
  await app?.close();
  await db?.drop();
});

const WEEK = { start_time: '2026-03-02', end_time: '2026-03-08' };
const LUNCH = { start_hour: 10, end_hour: 12 };

function url(path: string, params: Record<string, string | number | boolean | number[]>): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    for (const item of Array.isArray(value) ? value : [value]) query.append(key, String(item));
  }
  return `/api/mall_report/${path}?${query}`;
}

async function get(path: string, params: Record<string, string | number | boolean | number[]>, agent = operator.agent) {
  const response = await agent.get(url(path, { client_id: 1, mall_ids: [central, harbour], ...WEEK, ...params }));
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

const zeroDays = (dates: string[]) => dates.map((date) => ({ date, gmv: 0, transactions: 0 }));

describe('GET /api/mall_report/daily', () => {
  it('sums each local day of both malls, zeros included, in each mall’s own time zone', async () => {
    expect((await get('daily', {})).data).toEqual([
      { date: '2026-03-02', gmv: 250.5, transactions: 4 },
      { date: '2026-03-03', gmv: 20, transactions: 1 },
      { date: '2026-03-04', gmv: 200, transactions: 1 },
      ...zeroDays(['2026-03-05', '2026-03-06', '2026-03-07']),
      { date: '2026-03-08', gmv: 30, transactions: 1 },
    ]);
  });

  it('applies the hour filter to local hours (10:00 to 12:59)', async () => {
    expect((await get('daily', LUNCH)).data).toEqual([
      { date: '2026-03-02', gmv: 210.5, transactions: 3 },
      ...zeroDays(['2026-03-03', '2026-03-04', '2026-03-05', '2026-03-06', '2026-03-07', '2026-03-08']),
    ]);
  });

  it('covers only the outlets a tenant may see', async () => {
    const { data } = await get('daily', { mall_ids: [central] }, tenant.agent);
    expect(data.filter((row: { gmv: number }) => row.gmv !== 0)).toEqual([
      { date: '2026-03-04', gmv: 200, transactions: 1 },
      { date: '2026-03-08', gmv: 30, transactions: 1 },
    ]);
  });

  it('gives all zeros for an empty range', async () => {
    expect((await get('daily', { start_time: '2025-01-01', end_time: '2025-01-02' })).data).toEqual(
      zeroDays(['2025-01-01', '2025-01-02']),
    );
  });

  it('refuses another client’s mall, a reversed range, reversed hours and a day that does not exist', async () => {
    expect((await operator.agent.get(url('daily', { client_id: 1, mall_ids: [apexPlaza], ...WEEK }))).statusCode).toBe(
      403,
    );
    const reversed = await operator.agent.get(
      url('daily', { client_id: 1, mall_ids: [central], start_time: '2026-03-08', end_time: '2026-03-02' }),
    );
    expect(reversed.statusCode).toBe(400);
    expect(reversed.json().message).toMatch(/end_time/);
    const hours = await operator.agent.get(
      url('daily', { client_id: 1, mall_ids: [central], ...WEEK, start_hour: 13, end_hour: 12 }),
    );
    expect(hours.statusCode).toBe(400);
    expect(hours.json().message).toMatch(/start_hour/);
    const missingDay = await operator.agent.get(
      url('daily', { client_id: 1, mall_ids: [central], start_time: '2026-02-29', end_time: '2026-03-08' }),
    );
    expect(missingDay.statusCode).toBe(400);
    expect(missingDay.json().message).toMatch(/start_time/);
  });
});

describe('GET /api/mall_report/monthly', () => {
  it('sums months (daily rollup for whole days), oldest first', async () => {
    expect((await get('monthly', { start_time: '2026-02-20' })).data).toEqual([
      { month: '2026-02', gmv: 80, transactions: 1 },
      { month: '2026-03', gmv: 500.5, transactions: 7 },
    ]);
  });
  it('applies the hour filter', async () => {
    expect((await get('monthly', { start_time: '2026-02-20', ...LUNCH })).data).toEqual([
      { month: '2026-02', gmv: 80, transactions: 1 },
      { month: '2026-03', gmv: 210.5, transactions: 3 },
    ]);
  });
});

describe('GET /api/mall_report/mall', () => {
  it('ranks the selected malls by GMV, with the average transaction value to 2 decimals', async () => {
    expect((await get('mall', {})).data).toEqual([
      { mall_id: central, mall_name: 'Central Mall', gmv: 400.5, transactions: 5, average_transaction_value: 80.1 },
      { mall_id: harbour, mall_name: 'Harbour Mall', gmv: 100, transactions: 2, average_transaction_value: 50 },
    ]);
  });
  it('with the hour filter, and ranked by average transaction value', async () => {
    expect((await get('mall', { ...LUNCH, rank_by: 'average_transaction_value' })).data).toEqual([
      { mall_id: central, mall_name: 'Central Mall', gmv: 150.5, transactions: 2, average_transaction_value: 75.25 },
      { mall_id: harbour, mall_name: 'Harbour Mall', gmv: 60, transactions: 1, average_transaction_value: 60 },
    ]);
  });
  it('keeps a mall without sales as zeros', async () => {
    expect((await get('mall', { start_time: '2026-03-05', end_time: '2026-03-07' })).data).toEqual([
      { mall_id: central, mall_name: 'Central Mall', gmv: 0, transactions: 0, average_transaction_value: 0 },
      { mall_id: harbour, mall_name: 'Harbour Mall', gmv: 0, transactions: 0, average_transaction_value: 0 },
    ]);
  });
});

describe('GET /api/mall_report/outlet, category and level', () => {
  it('groups by outlet, GMV descending', async () => {
    expect((await get('outlet', {})).data).toEqual([
      { key: String(boutique), name: 'Boutique Duo', gmv: 230, transactions: 2, average_transaction_value: 115 },
      { key: String(cafe), name: 'Cafe Uno', gmv: 170.5, transactions: 3, average_transaction_value: 56.83 },
      { key: String(kiosk), name: 'kiosk tres', gmv: 100, transactions: 2, average_transaction_value: 50 },
    ]);
  });
  it('groups by mall, category and level', async () => {
    expect((await get('outlet', { group_by: 'mall' })).data).toEqual([
      { key: String(central), name: 'Central Mall', gmv: 400.5, transactions: 5, average_transaction_value: 80.1 },
      { key: String(harbour), name: 'Harbour Mall', gmv: 100, transactions: 2, average_transaction_value: 50 },
    ]);
    expect((await get('category', {})).data).toEqual([
      { category: 'F&B', gmv: 270.5, transactions: 5, average_transaction_value: 54.1 },
      { category: 'Fashion', gmv: 230, transactions: 2, average_transaction_value: 115 },
    ]);
    expect((await get('level', LUNCH)).data).toEqual([
      { level: 'L1', gmv: 210.5, transactions: 3, average_transaction_value: 70.17 },
    ]);
  });
  it('is empty for an empty range', async () => {
    expect((await get('outlet', { start_time: '2026-03-05', end_time: '2026-03-07' })).data).toEqual([]);
  });
});

describe('GET /api/mall_report/member/overall and member/outlet', () => {
  it('splits members and non-members per day, with totals', async () => {
    const body = await get('member/overall', {});
    expect(body.total).toEqual({ member: 340, non_member: 160.5 });
    expect(body.data).toEqual([
      { period: '2026-03-02', member: 140, non_member: 110.5 },
      { period: '2026-03-03', member: 0, non_member: 20 },
      { period: '2026-03-04', member: 200, non_member: 0 },
      { period: '2026-03-05', member: 0, non_member: 0 },
      { period: '2026-03-06', member: 0, non_member: 0 },
      { period: '2026-03-07', member: 0, non_member: 0 },
      { period: '2026-03-08', member: 0, non_member: 30 },
    ]);
  });
  it('buckets by week (Monday) and month, for each metric', async () => {
    expect(await get('member/overall', { time_range: 'weekly', metric: 'transactions' })).toEqual({
      data: [{ period: '2026-03-02', member: 3, non_member: 4 }],
      total: { member: 3, non_member: 4 },
    });
    expect(await get('member/overall', { time_range: 'monthly', metric: 'average_transaction_value' })).toEqual({
      data: [{ period: '2026-03', member: 113.33, non_member: 40.13 }],
      total: { member: 113.33, non_member: 40.13 },
    });
  });
  it('buckets by local hour within the hour filter', async () => {
    const body = await get('member/overall', { time_range: 'hourly', ...LUNCH });
    expect(body.data).toHaveLength(7 * 3);
    expect(body.data.slice(0, 3)).toEqual([
      { period: '2026-03-02 10:00', member: 100, non_member: 60 },
      { period: '2026-03-02 11:00', member: 0, non_member: 0 },
      { period: '2026-03-02 12:00', member: 0, non_member: 50.5 },
    ]);
    expect(body.total).toEqual({ member: 100, non_member: 110.5 });
  });
  it('refuses hourly buckets over more than 31 days', async () => {
    const response = await operator.agent.get(
      url('member/overall', {
        client_id: 1,
        mall_ids: [central],
        start_time: '2026-01-01',
        end_time: '2026-03-08',
        time_range: 'hourly',
      }),
    );
    expect(response.statusCode).toBe(400);
  });
  it('ranks outlets by member or non-member sales', async () => {
    expect((await get('member/outlet', { limit: 2 })).data).toEqual([
      {
        outlet_id: boutique,
        outlet_name: 'Boutique Duo',
        mall_id: central,
        mall_name: 'Central Mall',
        gmv: 200,
        transactions: 1,
        average_transaction_value: 200,
      },
      {
        outlet_id: cafe,
        outlet_name: 'Cafe Uno',
        mall_id: central,
        mall_name: 'Central Mall',
        gmv: 100,
        transactions: 1,
        average_transaction_value: 100,
      },
    ]);
    const nonMembers = await get('member/outlet', { member: false, rank_by: 'average_transaction_value' });
    expect(
      nonMembers.data.map((row: { outlet_id: number; average_transaction_value: number }) => [
        row.outlet_id,
        row.average_transaction_value,
      ]),
    ).toEqual([
      [kiosk, 60],
      [cafe, 35.25],
      [boutique, 30],
    ]);
  });
});

describe('GET /api/mall_report/peak_hour', () => {
  it('gives every day × hour cell of the range, by local hour', async () => {
    const { data } = await get('peak_hour', {});
    expect(data).toHaveLength(7 * 24);
    expect(data.filter((cell: { value: number }) => cell.value !== 0)).toEqual([
      { period: '2026-03-02', hour: 10, value: 160 },
      { period: '2026-03-02', hour: 12, value: 50.5 },
      { period: '2026-03-02', hour: 21, value: 40 },
      { period: '2026-03-03', hour: 1, value: 20 },
      { period: '2026-03-04', hour: 14, value: 200 },
      { period: '2026-03-08', hour: 23, value: 30 },
    ]);
  });
  it('by week within the hour filter, for transactions', async () => {
    expect((await get('peak_hour', { time_range: 'weekly', metric: 'transactions', ...LUNCH })).data).toEqual([
      { period: '2026-03-02', hour: 10, value: 2 },
      { period: '2026-03-02', hour: 11, value: 0 },
      { period: '2026-03-02', hour: 12, value: 1 },
    ]);
  });
  it('by month, every hour of the day, the days of each hour summed', async () => {
    const { data } = await get('peak_hour', { time_range: 'monthly', metric: 'gmv' });
    expect(data).toHaveLength(24);
    expect(data.filter((cell: { value: number }) => cell.value !== 0)).toEqual([
      { period: '2026-03', hour: 1, value: 20 },
      { period: '2026-03', hour: 10, value: 160 },
      { period: '2026-03', hour: 12, value: 50.5 },
      { period: '2026-03', hour: 14, value: 200 },
      { period: '2026-03', hour: 21, value: 40 },
      { period: '2026-03', hour: 23, value: 30 },
    ]);
  });
});

describe('GET /api/mall_report/payment_method/overall', () => {
  it('upper-cases methods, folds empty and NONE into OTHERS and sorts by sum', async () => {
    expect((await get('payment_method/overall', {})).data).toEqual([
      { payment_method: 'MASTER', sum: 200 },
      { payment_method: 'VISA', sum: 190.5 },
      { payment_method: 'CASH', sum: 70 },
      { payment_method: 'OTHERS', sum: 40 },
    ]);
    expect((await get('payment_method/overall', { limit: 2 })).data).toEqual([
      { payment_method: 'MASTER', sum: 200 },
      { payment_method: 'VISA', sum: 190.5 },
    ]);
  });
  it('leaves OTHERS out when it sums to zero', async () => {
    expect((await get('payment_method/overall', { mall_ids: [harbour] })).data).toEqual([
      { payment_method: 'VISA', sum: 60 },
      { payment_method: 'CASH', sum: 40 },
    ]);
  });
  it('applies the hour filter, for whole malls and for the outlets a tenant may see', async () => {
    // Central 10:00–12:59: c1 VISA 100 (10:15), c2 visa 30.50 + '' 20 (12:40); c4 is void.
    expect((await get('payment_method/overall', { mall_ids: [central], ...LUNCH })).data).toEqual([
      { payment_method: 'VISA', sum: 130.5 },
      { payment_method: 'OTHERS', sum: 20 },
    ]);
    // The tenant sees the boutique only: b1 MASTER 200 at 14:00, b2 CASH 30 at 23:59.
    expect(
      (await get('payment_method/overall', { mall_ids: [central], start_hour: 14, end_hour: 22 }, tenant.agent)).data,
    ).toEqual([{ payment_method: 'MASTER', sum: 200 }]);
    expect(
      (await get('payment_method/overall', { mall_ids: [central], start_hour: 23, end_hour: 23 }, tenant.agent)).data,
    ).toEqual([{ payment_method: 'CASH', sum: 30 }]);
  });
});

describe('GET /api/mall_report/outlet/overallComparison and outlet/daily', () => {
  const comparison = (params: Record<string, string | number>) =>
    operator.agent.get(url('outlet/overallComparison', { client_id: 1, ...params }));

  it('compares a week with the week before', async () => {
    const response = await comparison({ outlet_id: cafe, ...WEEK });
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json();
    expect(body).toEqual({
      outlet: { id: cafe, name: 'Cafe Uno' },
      current: { gmv: 170.5, transactions: 3, average_transaction_value: 56.83 },
      previous: { gmv: 80, transactions: 1, average_transaction_value: 80 },
      previous_start_time: '2026-02-23',
      previous_end_time: '2026-03-01',
      comparison: { compare: 'previous', aligned: [], like_for_like: null, has_data: true },
    });
    expect(growthRate(body.current.gmv, body.previous.gmv)).toBe(113.13);
  });

  it('moves a 10-day period back by two whole weeks', async () => {
    const body = (await comparison({ outlet_id: cafe, start_time: '2026-03-02', end_time: '2026-03-11' })).json();
    expect([body.previous_start_time, body.previous_end_time]).toEqual(['2026-02-16', '2026-02-25']);
    expect(body.previous.gmv).toBe(80);
    const short = (
      await comparison({ outlet_id: cafe, start_time: '2026-03-02', end_time: '2026-03-04', ...LUNCH })
    ).json();
    expect([short.previous_start_time, short.previous_end_time]).toEqual(['2026-02-23', '2026-02-25']);
    expect(short.current).toEqual({ gmv: 150.5, transactions: 2, average_transaction_value: 75.25 });
    expect(short.previous).toEqual({ gmv: 80, transactions: 1, average_transaction_value: 80 });
  });

  it('gives a zero previous period, whose growth rate is 0.00', async () => {
    const body = (await comparison({ outlet_id: kiosk, ...WEEK })).json();
    expect(body.previous).toEqual({ gmv: 0, transactions: 0, average_transaction_value: 0 });
    expect(body.current.gmv).toBe(100);
    expect(growthRate(body.current.gmv, body.previous.gmv)).toBe(0);
  });

  it('gives one outlet’s days in its mall’s time zone; a tenant only its own outlet', async () => {
    const response = await operator.agent.get(
      url('outlet/daily', { client_id: 1, outlet_id: kiosk, start_time: '2026-03-01', end_time: '2026-03-03' }),
    );
    expect(response.json().data).toEqual([
      { date: '2026-03-01', gmv: 0, transactions: 0 },
      { date: '2026-03-02', gmv: 100, transactions: 2 },
      { date: '2026-03-03', gmv: 0, transactions: 0 },
    ]);
    expect((await tenant.agent.get(url('outlet/daily', { client_id: 1, outlet_id: cafe, ...WEEK }))).statusCode).toBe(
      403,
    );
  });
});

describe('the super admin', () => {
  it('sees the other client’s mall, and only its figures', async () => {
    const { data } = await get('mall', { client_id: 2, mall_ids: [apexPlaza] }, admin.agent);
    expect(data).toEqual([
      { mall_id: apexPlaza, mall_name: 'Apex Plaza', gmv: 5000, transactions: 1, average_transaction_value: 5000 },
    ]);
  });
});
