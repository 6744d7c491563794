import ExcelJS from 'exceljs';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inTransaction } from '../../server/db/pool.js';
import { moneyFormat } from '../../server/exports/workbook.js';
import { ingestReceipts, rollupMismatches } from '../../server/repositories/ingestion.js';
import { PASSWORD, receiptInput as receipt, seedWorld, WORLD } from './fixtures.js';
import { type Agent, createTestApp, createTestDatabase, defined, signInAgents, type TestDatabase } from './helpers.js';

/*
 * GET /api/mall_report/crossSpending and /crossSpending/details on a hand-built week, Monday 9 to Sunday 15 March
 * 2026, in Central Mall (Asia/Singapore, SGD): Cafe Uno (F&B), Boutique Duo (Fashion), and two outlets added here,
 * Noodle Bar (F&B) and Shoe Hub (Fashion). Members A, B, C, D; local days:
 *
 *   cafe      A Mon 09 10.00   B Mon 09 20.00   C Tue 10 30.00   A Wed 11 5.00   a non-member 100.00
 *             B Mon 02 8.00 (the week before)
 *   boutique  A Mon 09 100.00  A Thu 12 50.00   B Fri 13 70.00   C Tue 10 500.00 VOID
 *   noodle    C Tue 10 15.00   D Tue 10 99.00
 *   shoe hub  A Fri 20 60.00 (after the week)
 *   kiosk     A Mon 09 USD 40.00 (Harbour Mall: another mall)
 *
 * Cafe Uno's shoppers in the week: A, B, C (3), who spent 65.00 there. Boutique Duo: A and B (2 of 3, 66.7%),
 * 220.00 in 3 visits; Noodle Bar: C (33.3%), 15.00 in 1. By category: Fashion 2, 220.00; F&B 1, 15.00.
 */

let db: TestDatabase;
let app: FastifyInstance;
let agents: Record<'operator' | 'tenant' | 'otherClient', Agent>;
const { cafe, boutique, kiosk } = WORLD.outlets;
let noodle = 0;
let shoes = 0;
const WEEK = { start_time: '2026-03-09', end_time: '2026-03-15' };

const bought = (outletId: number, iso: string, amount: number, memberId: string | null, extra = {}) =>
  receipt(outletId, iso, amount, [['VISA', amount]], { isMember: memberId !== null, memberId, ...extra });

beforeAll(async () => {
  db = await createTestDatabase();
  await seedWorld(db.pool);
  await db.pool.query(`UPDATE outlets SET category = 'F&B' WHERE id = ${cafe}`);
  await db.pool.query(`UPDATE outlets SET category = 'Fashion' WHERE id = ${boutique}`);
  const added = await db.pool.query<{ id: number; name: string }>(
    `INSERT INTO outlets (client_id, mall_id, name, outlet_code, type, currency, category) VALUES
       (1, 1, 'Noodle Bar', 'N-05', 1, 'SGD', 'F&B'), (1, 1, 'Shoe Hub', 'S-06', 2, 'SGD', 'Fashion')
     RETURNING id, name`,
  );
  noodle = added.rows.find((row) => row.name === 'Noodle Bar')?.id ?? 0;
  shoes = added.rows.find((row) => row.name === 'Shoe Hub')?.id ?? 0;
  await db.pool.query(
    `INSERT INTO role_api_permissions (role_id, permission) VALUES
       (2, '/api/mall_report/crossSpending::Read'), (2, '/api/mall_report/crossSpending/details::Read'),
       (2, '/api/mall_report/crossSpending/workbook::Read'),
       (2, '/api/mall_report/crossSpending/details/workbook::Read')`,
  );
  await inTransaction(db.pool, async (client) => {
    await ingestReceipts(client, 1, [
      bought(cafe, '2026-03-09T02:00:00Z', 10, 'A'),
      bought(cafe, '2026-03-09T03:00:00Z', 20, 'B'),
      bought(cafe, '2026-03-10T03:00:00Z', 30, 'C'),
      bought(cafe, '2026-03-11T03:00:00Z', 5, 'A'),
      bought(cafe, '2026-03-11T04:00:00Z', 100, null),
      bought(cafe, '2026-03-02T03:00:00Z', 8, 'B'),
      bought(boutique, '2026-03-09T05:00:00Z', 100, 'A'),
      bought(boutique, '2026-03-12T05:00:00Z', 50, 'A'),
      bought(boutique, '2026-03-13T05:00:00Z', 70, 'B'),
      bought(boutique, '2026-03-10T05:00:00Z', 500, 'C', { void: true }),
      bought(noodle, '2026-03-10T04:00:00Z', 15, 'C'),
      bought(noodle, '2026-03-10T05:00:00Z', 99, 'D'),
      bought(shoes, '2026-03-20T05:00:00Z', 60, 'A'),
      bought(kiosk, '2026-03-09T15:00:00Z', 40, 'A'),
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

function ask(path: string, params: Record<string, string | number>, agent = agents.operator) {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries({ client_id: 1, outlet_id: cafe, ...WEEK, ...params })) {
    query.set(key, String(value));
  }
  return agent.get(`/api/mall_report/${path}?${query}`);
}

async function answer(path: string, params: Record<string, string | number> = {}, agent?: Agent) {
  const response = await ask(path, params, agent);
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

const CAFE = {
  outlet_id: cafe,
  outlet_name: 'Cafe Uno',
  mall_id: 1,
  mall_name: 'Central Mall',
  category: 'F&B',
  currency: 'SGD',
};

describe('cross spending', () => {
  it("answers where the outlet's members also spent in its mall, by outlet and by category", async () => {
    expect(await answer('crossSpending')).toEqual({
      outlet: CAFE,
      shoppers: 3,
      spend: 65,
      outlets: [
        {
          outlet_id: boutique,
          outlet_name: 'Boutique Duo',
          category: 'Fashion',
          shared_shoppers: 2,
          share_percent: 66.7,
          spend: 220,
          visits: 3,
        },
        {
          outlet_id: noodle,
          outlet_name: 'Noodle Bar',
          category: 'F&B',
          shared_shoppers: 1,
          share_percent: 33.3,
          spend: 15,
          visits: 1,
        },
      ],
      categories: [
        { category: 'Fashion', shared_shoppers: 2, share_percent: 66.7, spend: 220, visits: 3 },
        { category: 'F&B', shared_shoppers: 1, share_percent: 33.3, spend: 15, visits: 1 },
      ],
    });
  });

  it('answers no shoppers for a range without members', async () => {
    expect(await answer('crossSpending', { start_time: '2025-01-01', end_time: '2025-01-31' })).toEqual({
      outlet: CAFE,
      shoppers: 0,
      spend: 0,
      outlets: [],
      categories: [],
    });
  });

  it('answers one pair day by day, zeros included', async () => {
    const details = await answer('crossSpending/details', { other_outlet_id: boutique });
    expect(details).toMatchObject({ outlet: CAFE, shoppers: 3, shared_shoppers: 2 });
    expect(details.other_outlet).toMatchObject({ outlet_id: boutique, outlet_name: 'Boutique Duo' });
    expect(details.daily).toEqual([
      { date: '2026-03-09', shoppers: 1, visits: 1, spend: 100 },
      { date: '2026-03-10', shoppers: 0, visits: 0, spend: 0 },
      { date: '2026-03-11', shoppers: 0, visits: 0, spend: 0 },
      { date: '2026-03-12', shoppers: 1, visits: 1, spend: 50 },
      { date: '2026-03-13', shoppers: 1, visits: 1, spend: 70 },
      { date: '2026-03-14', shoppers: 0, visits: 0, spend: 0 },
      { date: '2026-03-15', shoppers: 0, visits: 0, spend: 0 },
    ]);
  });

  it('refuses an outlet of another mall or the outlet itself as the pair (404), and a range backwards (400)', async () => {
    expect((await ask('crossSpending/details', { other_outlet_id: kiosk })).statusCode).toBe(404);
    expect((await ask('crossSpending/details', { other_outlet_id: cafe })).statusCode).toBe(404);
    const backwards = await ask('crossSpending', { start_time: '2026-03-16' });
    expect(backwards.statusCode).toBe(400);
    expect(backwards.json().message).toMatch(/^start_time/);
  });

  it('shows a caller only the outlets they see', async () => {
    // The tenant sees Boutique Duo alone: its shoppers, and no other outlet.
    expect(await answer('crossSpending', { outlet_id: boutique }, agents.tenant)).toMatchObject({
      shoppers: 2,
      spend: 220,
      outlets: [],
    });
    expect((await ask('crossSpending', {}, agents.tenant)).statusCode).toBe(403);
    expect(
      (await ask('crossSpending/details', { outlet_id: boutique, other_outlet_id: cafe }, agents.tenant)).statusCode,
    ).toBe(404);
    expect((await ask('crossSpending', {}, agents.otherClient)).statusCode).toBe(403);
  });

  it('as one workbook of the pair: its shoppers and what they spent at the other outlet, day by day', async () => {
    const response = await ask('crossSpending/details/workbook', { other_outlet_id: boutique });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-disposition']).toBe(
      'attachment; filename="cross-spending-details_2026-03-09_2026-03-15.xlsx"',
    );
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(response.rawPayload as unknown as ExcelJS.Buffer);
    expect(workbook.worksheets.map((sheet) => sheet.name)).toEqual(['Pair', 'Daily', 'Filters']);
    const rowsOf = (name: string) => {
      const rows: unknown[][] = [];
      workbook.getWorksheet(name)?.eachRow((row, number) => {
        if (number > 1) rows.push((row.values as unknown[]).slice(1));
      });
      return rows;
    };
    // By hand: A and B of Cafe Uno's 3 shoppers (66.7%) spent 220.00 at Boutique Duo in 3 visits.
    expect(rowsOf('Pair')).toEqual([['Cafe Uno', 3, 'Boutique Duo', 2, 0.667, 220, 3]]);
    const details = await answer('crossSpending/details', { other_outlet_id: boutique });
    expect(rowsOf('Daily').map((row) => row.slice(1, 4))).toEqual(
      details.daily.map((day: { shoppers: number; visits: number; spend: number }) => [
        day.shoppers,
        day.visits,
        day.spend,
      ]),
    );
    const filters = new Map(rowsOf('Filters').map((row) => [row[0], row[1]]));
    expect(filters.get('As the page says it')).toBe(
      '2 of the 3 members who bought at Cafe Uno from 9 Mar 2026 to 15 Mar 2026 also bought at Boutique Duo (66.7%).',
    );
    // The page's refusals: another mall's outlet, or one the tenant does not see, is no pair (404, as the page's
    // operation answers); another client's outlet 403.
    expect((await ask('crossSpending/details/workbook', { other_outlet_id: kiosk })).statusCode).toBe(404);
    expect(
      (await ask('crossSpending/details/workbook', { outlet_id: boutique, other_outlet_id: cafe }, agents.tenant))
        .statusCode,
    ).toBe(404);
    expect(
      (await ask('crossSpending/details/workbook', { other_outlet_id: boutique }, agents.otherClient)).statusCode,
    ).toBe(403);
    expect(
      (await ask('crossSpending/details/workbook', { other_outlet_id: boutique, end_time: '2026-03-01' })).statusCode,
    ).toBe(400);
  });

  it('as one workbook: the shoppers, the outlets and the categories as the page shows them', async () => {
    const response = await ask('crossSpending/workbook', {});
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-disposition']).toBe(
      'attachment; filename="cross-spending_2026-03-09_2026-03-15.xlsx"',
    );
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(response.rawPayload as unknown as ExcelJS.Buffer);
    expect(workbook.worksheets.map((sheet) => sheet.name)).toEqual(['Shoppers', 'Outlets', 'Categories', 'Filters']);
    const rowsOf = (name: string) => {
      const rows: unknown[][] = [];
      workbook.getWorksheet(name)?.eachRow((row, number) => {
        if (number > 1) rows.push((row.values as unknown[]).slice(1));
      });
      return rows;
    };
    // Hand-worked from the week's receipts: A, B and C bought at Cafe Uno, 65.00 there; A and B at Boutique Duo
    // (2 of 3, 66.7%) 220.00 in 3 visits, C at Noodle Bar 15.00 in 1; Fashion before F&B.
    expect(rowsOf('Shoppers')).toEqual([[cafe, 'Cafe Uno', 3, 65]]);
    expect(rowsOf('Outlets')).toEqual([
      [boutique, 'Boutique Duo', 'Fashion', 2, 0.667, 220, 3],
      [noodle, 'Noodle Bar', 'F&B', 1, 0.333, 15, 1],
    ]);
    expect(rowsOf('Categories')).toEqual([
      ['Fashion', 2, 0.667, 220, 3],
      ['F&B', 1, 0.333, 15, 1],
    ]);
    // Each row is the page's answer for the same filters, its share as a ratio shown to 1 decimal.
    const page = await answer('crossSpending');
    type Figures = { shared_shoppers: number; share_percent: number; spend: number; visits: number };
    const figures = (row: Figures) => [
      row.shared_shoppers,
      Math.round(row.share_percent * 10) / 1000,
      row.spend,
      row.visits,
    ];
    expect(rowsOf('Outlets')).toEqual(
      page.outlets.map((row: Figures & { outlet_id: number; outlet_name: string; category: string }) => [
        row.outlet_id,
        row.outlet_name,
        row.category,
        ...figures(row),
      ]),
    );
    expect(rowsOf('Categories')).toEqual(
      page.categories.map((row: Figures & { category: string }) => [row.category, ...figures(row)]),
    );
    const outlets = defined(workbook.getWorksheet('Outlets'));
    expect(outlets.getCell('E2').numFmt).toBe('0.0%');
    expect(outlets.getCell('F2').numFmt).toBe(moneyFormat('$', 2));
    expect(outlets.getCell('D2').type).toBe(ExcelJS.ValueType.Number);
    const filters = new Map<unknown, unknown>();
    workbook.getWorksheet('Filters')?.eachRow((row) => {
      filters.set(row.getCell(1).value, row.getCell(2).value);
    });
    expect(filters.get('Outlet')).toBe('Cafe Uno');
    expect(filters.get('Malls')).toBe('Central Mall');
    expect(filters.get('Currency')).toBe("SGD (the mall's)");
    expect(filters.get('From')).toEqual(new Date('2026-03-09T00:00:00Z'));
    // The tenant takes its own outlet's (no other outlet it sees), not another's; nor does another client.
    const own = await ask('crossSpending/workbook', { outlet_id: boutique }, agents.tenant);
    expect(own.statusCode, own.body).toBe(200);
    const owned = new ExcelJS.Workbook();
    await owned.xlsx.load(own.rawPayload as unknown as ExcelJS.Buffer);
    expect((defined(owned.getWorksheet('Shoppers')).getRow(2).values as unknown[]).slice(1)).toEqual([
      boutique,
      'Boutique Duo',
      2,
      220,
    ]);
    expect(owned.getWorksheet('Outlets')?.rowCount).toBe(1);
    expect((await ask('crossSpending/workbook', {}, agents.tenant)).statusCode).toBe(403);
    expect((await ask('crossSpending/workbook', {}, agents.otherClient)).statusCode).toBe(403);
    // The range's rules are the page's.
    const backwards = await ask('crossSpending/workbook', { start_time: '2026-03-16' });
    expect(backwards.statusCode).toBe(400);
    expect(backwards.json().message).toMatch(/^start_time must be on or before end_time/);
  });

  it('keeps the member rollup equal to the receipts', async () => {
    expect(await rollupMismatches(db.pool)).toMatchObject({ memberDaily: 0 });
  });
});
