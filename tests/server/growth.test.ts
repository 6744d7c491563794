import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inTransaction } from '../../server/db/pool.js';
import { ingestReceipts } from '../../server/repositories/ingestion.js';
import { grantOperatorPermissions, PASSWORD, receiptInput as receipt, seedWorld, WORLD } from './fixtures.js';
import { type Agent, createTestApp, createTestDatabase, signInAgents, type TestDatabase } from './helpers.js';

/*
 * GET /api/mall_report/growth: a range against the days it is compared with, by each rule, figures computed by
 * hand. Central Mall is Asia/Singapore (UTC+8, country SG); local times below.
 *
 *   cafe      2025-01-29 Wed 10:00  400.00   Chinese New Year 2025, first day
 *             2025-01-31 Fri 10:00   70.00   its third day (no festival day this year meets it)
 *             2025-02-06 Thu 10:00   30.00   the first Thursday after last year's festival
 *             2025-02-18 Tue 10:00   50.00   364 days before Chinese New Year 2026
 *             2025-03-02 Sun 10:00  999.00   the calendar date a year before 2 Mar 2026 (a Monday then)
 *             2025-03-03 Mon 10:00   80.00   the same weekday a year before 2 Mar 2026
 *             2026-02-17 Tue 10:00  500.00   Chinese New Year 2026, first day
 *             2026-02-20 Fri 10:00   10.00
 *             2026-02-25 Wed 10:00   60.00
 *             2026-03-02 Mon 10:00  100.00   30.00 of it refunded
 *   boutique  2026-03-05 Thu 14:00  200.00   its first sale: it opened in the week of 2-8 Mar; 45.00 refunded
 */

let db: TestDatabase;
let app: FastifyInstance;
let agents: Record<'operator' | 'tenant' | 'otherClient', Agent>;
const { cafe, boutique } = WORLD.outlets;
const { central, apexPlaza } = WORLD.malls;
const at = (day: string, hour = 10) => new Date(Date.UTC(...ymd(day), hour - 8)).toISOString();
function ymd(day: string): [number, number, number] {
  const [y = 0, m = 1, d = 1] = day.split('-').map(Number);
  return [y, m - 1, d];
}

beforeAll(async () => {
  db = await createTestDatabase();
  await seedWorld(db.pool);
  await grantOperatorPermissions(db.pool, [
    '/api/mall_report/growth::Read',
    '/api/mall_report/refund::Read',
    '/outlets/overallComparison::Read',
  ]);
  await db.pool.query(`
    DELETE FROM calendar_entries WHERE client_id = 1;
    INSERT INTO calendar_entries (client_id, country, start_date, end_date, name, kind, festival) VALUES
      (1, 'SG', '2025-01-29', '2025-01-30', 'Chinese New Year', 'festival', 'chinese_new_year'),
      (1, 'SG', '2026-02-17', '2026-02-18', 'Chinese New Year', 'festival', 'chinese_new_year'),
      (1, 'SG', '2025-12-25', '2025-12-25', 'Christmas Day', 'festival', 'christmas');
  `);
  const sale = (outletId: number, day: string, amount: number, hour = 10, refundAmount = 0) =>
    receipt(outletId, at(day, hour), amount, [['VISA', amount]], { refundAmount });
  await inTransaction(db.pool, async (client) => {
    await ingestReceipts(client, 1, [
      sale(cafe, '2025-01-29', 400),
      sale(cafe, '2025-01-31', 70),
      sale(cafe, '2025-02-06', 30),
      sale(cafe, '2025-02-18', 50),
      sale(cafe, '2025-03-02', 999),
      sale(cafe, '2025-03-03', 80),
      sale(cafe, '2026-02-17', 500),
      sale(cafe, '2026-02-20', 10),
      sale(cafe, '2026-02-25', 60),
      sale(cafe, '2026-03-02', 100, 10, 30),
      sale(boutique, '2026-03-05', 200, 14, 45),
    ]);
  });
  app = await createTestApp(db.pool);
  agents = await signInAgents(
    app,
    { operator: WORLD.users.operator1, tenant: WORLD.users.tenant, otherClient: WORLD.users.operator2 },
    PASSWORD,
  );
});
afterAll(async () => {
  await app?.close();
  await db?.drop();
});

type Params = Record<string, string | number | boolean | number[]>;
function url(params: Params): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    for (const item of Array.isArray(value) ? value : [value]) query.append(key, String(item));
  }
  return `/api/mall_report/growth?${query}`;
}

interface Side {
  start_time: string;
  end_time: string;
  days: number;
  has_data: boolean;
  gmv: number;
  transactions: number;
}
interface Growth {
  compare: string;
  current: Side;
  compared: Side;
  aligned: { festival: string; start_time: string; compared_start_time: string }[];
  like_for_like: { kept: number; left_out: number } | null;
}

async function growth(params: Params, agent = agents.operator): Promise<Growth> {
  const response = await agent.get(url({ client_id: 1, mall_ids: [central], ...params }));
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as Growth;
}

describe('GET /api/mall_report/growth', () => {
  it('compares with as many days just before by default', async () => {
    const report = await growth({ start_time: '2026-03-02', end_time: '2026-03-08' });
    expect(report.compare).toBe('previous');
    expect(report.current).toMatchObject({ start_time: '2026-03-02', end_time: '2026-03-08', days: 7, gmv: 300 });
    expect(report.compared).toMatchObject({ start_time: '2026-02-23', end_time: '2026-03-01', days: 7, gmv: 60 });
    expect(report.like_for_like).toBeNull();
  });

  it('compares each day with the same weekday 52 weeks before, not the same date', async () => {
    const report = await growth({
      start_time: '2026-03-02',
      end_time: '2026-03-08',
      compare: 'same_weekday_last_year',
    });
    expect(report.compared).toMatchObject({
      start_time: '2025-03-03',
      end_time: '2025-03-09',
      gmv: 80,
      transactions: 1,
    });
  });

  it('compares each day with the same date a year before, like for like when asked', async () => {
    const range = { start_time: '2026-03-02', end_time: '2026-03-08' };
    const report = await growth({ ...range, compare: 'same_date_last_year' });
    // 2-8 Mar 2025: 999.00 on the 2nd and 80.00 on the 3rd; this year 100.00 (cafe) and 200.00 (boutique).
    expect(report.compare).toBe('same_date_last_year');
    expect(report.current).toMatchObject({ gmv: 300, transactions: 2 });
    expect(report.compared).toMatchObject({
      start_time: '2025-03-02',
      end_time: '2025-03-08',
      days: 7,
      gmv: 1079,
      transactions: 2,
    });
    // Like for like: boutique, opened on the 5th, is left out; cafe traded through both weeks.
    const likeForLike = await growth({ ...range, compare: 'same_date_last_year', like_for_like: true });
    expect(likeForLike.current.gmv).toBe(100);
    expect(likeForLike.compared.gmv).toBe(1079);
    expect(likeForLike.like_for_like).toEqual({ kept: 1, left_out: 1 });
  });

  it("meets Chinese New Year 2026 (17 Feb) with 2025's (29 Jan), the other days by weekday", async () => {
    const range = { start_time: '2026-02-15', end_time: '2026-02-21' };
    const aligned = await growth({ ...range, compare: 'festival_aligned' });
    // 15-16 Feb: 26-27 Jan 2025; 17-18 Feb: 29-30 Jan; 19-21 Feb: 6-8 Feb (400.00 + 30.00, not 31 Jan's 70.00).
    expect(aligned.current).toMatchObject({ gmv: 510, transactions: 2 });
    expect(aligned.compared).toMatchObject({ start_time: '2025-01-26', end_time: '2025-02-08', days: 7, gmv: 430 });
    expect(aligned.aligned).toEqual([
      expect.objectContaining({
        festival: 'chinese_new_year',
        start_time: '2026-02-17',
        compared_start_time: '2025-01-29',
      }),
    ]);
    // The same weekdays last year meet 18 Feb 2025's 50.00 instead.
    const weekdays = await growth({ ...range, compare: 'same_weekday_last_year' });
    expect(weekdays.compared).toMatchObject({ start_time: '2025-02-16', end_time: '2025-02-22', gmv: 50 });
  });

  it('keeps, like for like, only the outlets trading through both periods and says how many it left out', async () => {
    const range = { start_time: '2026-03-02', end_time: '2026-03-08' };
    const report = await growth({ ...range, like_for_like: true });
    expect(report.current.gmv).toBe(100);
    expect(report.compared.gmv).toBe(60);
    expect(report.like_for_like).toEqual({ kept: 1, left_out: 1 });
  });

  it('leaves the same outlets out of the refunds, like for like, whether it reads the malls or the outlets', async () => {
    const query = (likeForLike: boolean) =>
      `/api/mall_report/refund?client_id=1&mall_ids=${central}&start_time=2026-03-02&end_time=2026-03-08&like_for_like=${likeForLike}`;
    const read = async (agent: Agent, likeForLike: boolean) => {
      const response = await agent.get(query(likeForLike));
      expect(response.statusCode, response.body).toBe(200);
      return response.json() as {
        current: { amount: number; count: number; gmv: number };
        daily: { date: string; amount: number | null }[];
        outlets: { outlet_id: number; amount: number }[];
        comparison: { like_for_like: { kept: number; left_out: number } | null };
      };
    };
    const all = await read(agents.operator, false);
    expect(all.current).toMatchObject({ amount: 75, count: 2, gmv: 300 });
    expect(all.outlets.map((row) => [row.outlet_id, row.amount])).toEqual([
      [boutique, 45],
      [cafe, 30],
    ]);
    const kept = await read(agents.operator, true);
    expect(kept.current).toMatchObject({ amount: 30, count: 1, gmv: 100 });
    expect(kept.daily.find((day) => day.date === '2026-03-05')?.amount).toBe(0);
    expect(kept.outlets.map((row) => [row.outlet_id, row.amount])).toEqual([[cafe, 30]]);
    expect(kept.comparison.like_for_like).toEqual({ kept: 1, left_out: 1 });
    expect(all.comparison.like_for_like).toBeNull();
    // The tenant sees the boutique alone, which opened this week: nothing is left to compare
    const tenant = await read(agents.tenant, true);
    expect(tenant.current).toMatchObject({ amount: 0, count: 0, gmv: 0 });
    expect(tenant.comparison.like_for_like).toEqual({ kept: 0, left_out: 1 });
  });

  it('says a side without any sale has no data, rather than a zero', async () => {
    const report = await growth({ start_time: '2024-06-03', end_time: '2024-06-09' });
    expect(report.current).toMatchObject({ has_data: false, gmv: 0 });
    expect(report.compared.has_data).toBe(false);
    const half = await growth({ start_time: '2026-02-16', end_time: '2026-02-22' });
    expect(half.current.has_data).toBe(true);
    expect(half.compared.has_data).toBe(false);
  });

  it("counts only the outlets a tenant sees, and refuses another client's mall", async () => {
    const report = await growth({ start_time: '2026-03-02', end_time: '2026-03-08' }, agents.tenant);
    expect(report.current.gmv).toBe(200);
    const refused = await agents.otherClient.get(
      url({ client_id: 1, mall_ids: [central], start_time: '2026-03-02', end_time: '2026-03-08' }),
    );
    expect(refused.statusCode).toBe(403);
    const foreign = await agents.operator.get(
      url({ client_id: 1, mall_ids: [apexPlaza], start_time: '2026-03-02', end_time: '2026-03-08' }),
    );
    expect(foreign.statusCode).toBe(403);
  });

  it("meets an outlet's Chinese New Year with last year's in the sales analysis comparison", async () => {
    const query = new URLSearchParams({
      client_id: '1',
      id: String(cafe),
      startTime: '2026-02-15',
      endTime: '2026-02-21',
      comparedStartTime: '2026-02-08',
      comparedEndTime: '2026-02-14',
      compare: 'festival_aligned',
    });
    const response = await agents.operator.get(`/outlets/overallComparison?${query}`);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({
      current: { revenue: 510, transactions: 2 },
      compared: { revenue: 430, transactions: 2 },
      compared_start_time: '2025-01-26',
      compared_end_time: '2025-02-08',
      comparison: { compare: 'festival_aligned', has_data: true },
    });
    // Without it, the period asked (the week before: nothing).
    query.delete('compare');
    const period = await agents.operator.get(`/outlets/overallComparison?${query}`);
    expect(period.json().compared.revenue).toBe(0);
  });

  it('names a bad rule', async () => {
    const response = await agents.operator.get(
      url({ client_id: 1, mall_ids: [central], start_time: '2026-03-02', end_time: '2026-03-08', compare: 'lunar' }),
    );
    expect(response.statusCode).toBe(400);
    expect(response.body).toContain('compare');
  });
});
