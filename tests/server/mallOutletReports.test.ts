import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inTransaction } from '../../server/db/pool.js';
import { ingestReceipts } from '../../server/repositories/ingestion.js';
import { PASSWORD, receiptInput as receipt, seedWorld, WORLD } from './fixtures.js';
import { Agent, createTestApp, createTestDatabase, signInAgents, type TestDatabase } from './helpers.js';

/*
 * GET /api/mall_report/category/outlet: outlets ranked within their category, the peers of one outlet. A hand-built
 * week, Monday 2 to Sunday 8 March 2026, on the fixture world plus two F&B outlets of Central Mall added here
 * (Noodle Bar on L2 with sales, Bakery Ace on L1 without). Central Mall is Asia/Singapore (UTC+8) in SGD, Harbour
 * Mall America/New_York (UTC-5) in USD, converted to Zenith's SGD at 1.35 in March 2026; February has no rate.
 * Local times in the comments:
 *
 *   cafe      (F&B, L1)      c1 Mon 02 10:15  100.00      c2 Mon 02 12:40  50.50      c3 Mon 02 13:00 999.00 VOID
 *                             c4 Tue 24 Feb 11:00 80.00  (outside the week)
 *   noodle    (F&B, L2)      n1 Wed 04 12:30  120.00      n2 Thu 05 19:00  60.25
 *   bakery    (F&B, L1)      no receipts
 *   boutique  (Fashion, L2)  b1 Wed 04 14:00  200.00
 *   kiosk     (F&B, L1)      k1 Mon 02 10:00 USD 60.00    k2 Mon 02 21:00 USD 40.00   (= SGD 135.00 for both)
 *                             k0 Wed 25 Feb 10:00 USD 30.00  (outside the week: a February sale without a rate)
 *   apex shop (other client) a1 Mon 02 11:00 5000.00
 *
 * Central's F&B in the week: Noodle Bar 180.25 (2, ATV 90.13 from 90.125), Cafe Uno 150.50 (2, 75.25), Bakery Ace 0.
 */

let db: TestDatabase;
let app: FastifyInstance;
let agents: Record<'operator' | 'tenant' | 'otherClient' | 'admin', Agent>;
const { cafe, boutique, kiosk, apexShop } = WORLD.outlets;
const { central, harbour, apexPlaza } = WORLD.malls;
let noodle: number;
let bakery: number;

const WEEK = { start_time: '2026-03-02', end_time: '2026-03-08' };
const LUNCH = { start_hour: 10, end_hour: 12 };

beforeAll(async () => {
  db = await createTestDatabase();
  await seedWorld(db.pool);
  await db.pool.query(`
    UPDATE outlets SET category = 'F&B', level = 'L1' WHERE id IN (1, 3);
    UPDATE outlets SET category = 'Fashion', level = 'L2' WHERE id = 2;
  `);
  const added = await db.pool.query<{ id: number; name: string }>(
    `INSERT INTO outlets (client_id, mall_id, name, outlet_code, type, currency, category, level) VALUES
       (1, 1, 'Noodle Bar', 'N-05', 1, 'SGD', 'F&B', 'L2'),
       (1, 1, 'Bakery Ace', 'A-06', 1, 'SGD', 'F&B', 'L1')
     RETURNING id, name`,
  );
  const idOf = (name: string) => added.rows.find((row) => row.name === name)?.id ?? 0;
  noodle = idOf('Noodle Bar');
  bakery = idOf('Bakery Ace');
  await db.pool.query(
    `INSERT INTO exchange_rates (client_id, month, currency, rate) VALUES (1, '2026-03-01', 'USD', 1.35)`,
  );
  await db.pool.query(
    `INSERT INTO role_api_permissions (role_id, permission) VALUES (2, '/api/mall_report/category/outlet::Read')`,
  );
  await inTransaction(db.pool, async (client) => {
    await ingestReceipts(client, 1, [
      receipt(cafe, '2026-03-02T02:15:00Z', 100, [['VISA', 100]]),
      receipt(cafe, '2026-03-02T04:40:00Z', 50.5, [['CASH', 50.5]]),
      receipt(cafe, '2026-03-02T05:00:00Z', 999, [['MASTER', 999]], { void: true }),
      receipt(cafe, '2026-02-24T03:00:00Z', 80, [['VISA', 80]]),
      receipt(noodle, '2026-03-04T04:30:00Z', 120, [['VISA', 120]]),
      receipt(noodle, '2026-03-05T11:00:00Z', 60.25, [['CASH', 60.25]]),
      receipt(boutique, '2026-03-04T06:00:00Z', 200, [['MASTER', 200]]),
      receipt(kiosk, '2026-03-02T15:00:00Z', 60, [['VISA', 60]]),
      receipt(kiosk, '2026-03-03T02:00:00Z', 40, [['CASH', 40]]),
      receipt(kiosk, '2026-02-25T15:00:00Z', 30, [['CASH', 30]]),
    ]);
    await ingestReceipts(client, 2, [receipt(apexShop, '2026-03-02T04:00:00Z', 5000, [['VISA', 5000]])]);
  });
  app = await createTestApp(db.pool);
  agents = await signInAgents(
    app,
    {
      operator: WORLD.users.operator1,
      tenant: WORLD.users.tenant,
      otherClient: WORLD.users.operator2,
      admin: WORLD.users.admin,
    },
    PASSWORD,
  );
});
afterAll(async () => {
  await app?.close();
  await db?.drop();
});

type Params = Record<string, string | number | number[]>;

function url(params: Params): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    for (const item of Array.isArray(value) ? value : [value]) query.append(key, String(item));
  }
  return `/api/mall_report/category/outlet?${query}`;
}

const ask = (params: Params, agent = agents.operator) =>
  agent.get(url({ client_id: 1, mall_ids: [central], ...WEEK, ...params }));

async function rows(params: Params, agent = agents.operator) {
  const response = await ask(params, agent);
  expect(response.statusCode, response.body).toBe(200);
  return (response.json() as { data: unknown[] }).data;
}

/** A row of Central Mall. */
function centralRow(
  outlet: { id: number; name: string; category: string; level: string },
  rank: number,
  categoryOutlets: number,
  figures: { gmv: number; transactions: number; average_transaction_value: number },
) {
  return {
    category: outlet.category,
    outlet_id: outlet.id,
    outlet_name: outlet.name,
    mall_id: central,
    mall_name: 'Central Mall',
    level: outlet.level,
    rank,
    category_outlets: categoryOutlets,
    ...figures,
  };
}

const ZERO = { gmv: 0, transactions: 0, average_transaction_value: 0 };
const outlets = () => ({
  cafe: { id: cafe, name: 'Cafe Uno', category: 'F&B', level: 'L1' },
  noodle: { id: noodle, name: 'Noodle Bar', category: 'F&B', level: 'L2' },
  bakery: { id: bakery, name: 'Bakery Ace', category: 'F&B', level: 'L1' },
  boutique: { id: boutique, name: 'Boutique Duo', category: 'Fashion', level: 'L2' },
});

describe('GET /api/mall_report/category/outlet', () => {
  it('ranks every outlet of each category by GMV, zeros included, sorted by category then rank', async () => {
    const o = outlets();
    expect(await rows({})).toEqual([
      centralRow(o.noodle, 1, 3, { gmv: 180.25, transactions: 2, average_transaction_value: 90.13 }),
      centralRow(o.cafe, 2, 3, { gmv: 150.5, transactions: 2, average_transaction_value: 75.25 }),
      centralRow(o.bakery, 3, 3, ZERO),
      centralRow(o.boutique, 1, 1, { gmv: 200, transactions: 1, average_transaction_value: 200 }),
    ]);
  });

  it('ranks within the hour filter (10:00 to 12:59 local)', async () => {
    const o = outlets();
    // c1 100 at 10:15 and c2 50.50 at 12:40; n1 120 at 12:30 (n2 is at 19:00); b1 is at 14:00.
    expect(await rows(LUNCH)).toEqual([
      centralRow(o.cafe, 1, 3, { gmv: 150.5, transactions: 2, average_transaction_value: 75.25 }),
      centralRow(o.noodle, 2, 3, { gmv: 120, transactions: 1, average_transaction_value: 120 }),
      centralRow(o.bakery, 3, 3, ZERO),
      centralRow(o.boutique, 1, 1, ZERO),
    ]);
  });

  it('keeps one category, and at most `limit` outlets of each', async () => {
    const o = outlets();
    expect(await rows({ category: 'Fashion' })).toEqual([
      centralRow(o.boutique, 1, 1, { gmv: 200, transactions: 1, average_transaction_value: 200 }),
    ]);
    expect(await rows({ limit: 1 })).toEqual([
      centralRow(o.noodle, 1, 3, { gmv: 180.25, transactions: 2, average_transaction_value: 90.13 }),
      centralRow(o.boutique, 1, 1, { gmv: 200, transactions: 1, average_transaction_value: 200 }),
    ]);
    expect(await rows({ category: 'Toys' })).toEqual([]);
  });

  it('gives the peers of one outlet: its category only, with its own row past the limit', async () => {
    const o = outlets();
    // Bakery Ace and Cafe Uno tie at zero before 4 March: the name decides (Bakery before Cafe).
    expect(await rows({ outlet_id: bakery, limit: 1, start_time: '2026-03-04', end_time: '2026-03-04' })).toEqual([
      centralRow(o.noodle, 1, 3, { gmv: 120, transactions: 1, average_transaction_value: 120 }),
      centralRow(o.bakery, 2, 3, ZERO),
    ]);
    expect(await rows({ outlet_id: bakery, limit: 1 })).toEqual([
      centralRow(o.noodle, 1, 3, { gmv: 180.25, transactions: 2, average_transaction_value: 90.13 }),
      centralRow(o.bakery, 3, 3, ZERO),
    ]);
    expect(await rows({ outlet_id: boutique })).toEqual([
      centralRow(o.boutique, 1, 1, { gmv: 200, transactions: 1, average_transaction_value: 200 }),
    ]);
  });

  it('converts the malls of another currency at the month’s rate before ranking', async () => {
    // kiosk: USD 100.00 × 1.35 = SGD 135.00, below Cafe Uno's 150.50; ATV 135.00 / 2 = 67.50.
    const data = (await rows({ mall_ids: [central, harbour], category: 'F&B' })) as {
      outlet_name: string;
      mall_name: string;
      rank: number;
      category_outlets: number;
      gmv: number;
      transactions: number;
      average_transaction_value: number;
    }[];
    expect(data.map((row) => [row.outlet_name, row.mall_name, row.rank, row.category_outlets, row.gmv])).toEqual([
      ['Noodle Bar', 'Central Mall', 1, 4, 180.25],
      ['Cafe Uno', 'Central Mall', 2, 4, 150.5],
      ['kiosk tres', 'Harbour Mall', 3, 4, 135],
      ['Bakery Ace', 'Central Mall', 4, 4, 0],
    ]);
    expect(data[2]).toMatchObject({ transactions: 2, average_transaction_value: 67.5 });
  });

  it('refuses to add currencies without a rate (409), giving the figures per currency instead', async () => {
    const response = await ask({ mall_ids: [central, harbour], start_time: '2026-02-20', end_time: '2026-02-28' });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({
      statusCode: 409,
      by_currency: [
        { currency: 'SGD', gmv: 80, transactions: 1 },
        { currency: 'USD', gmv: 30, transactions: 1 },
      ],
    });
    expect(response.json().message).toMatch(/USD in February 2026/);
  });

  it('covers only the outlets a tenant may see', async () => {
    const o = outlets();
    expect(await rows({}, agents.tenant)).toEqual([
      centralRow(o.boutique, 1, 1, { gmv: 200, transactions: 1, average_transaction_value: 200 }),
    ]);
  });

  it('refuses an outlet of another mall, and category with outlet_id, naming outlet_id', async () => {
    const otherMall = await ask({ outlet_id: kiosk });
    expect(otherMall.statusCode).toBe(400);
    expect(otherMall.json().message).toMatch(/^outlet_id/);
    const both = await ask({ outlet_id: cafe, category: 'F&B' });
    expect(both.statusCode).toBe(400);
    expect(both.json().message).toMatch(/^outlet_id/);
  });
});

describe('access to GET /api/mall_report/category/outlet', () => {
  it('answers 401 without a session', async () => {
    const response = await ask({}, new Agent(app));
    expect(response.statusCode).toBe(401);
  });

  it('refuses another client’s mall and outlet (403)', async () => {
    expect((await ask({ mall_ids: [apexPlaza] })).statusCode).toBe(403);
    expect((await ask({ outlet_id: apexShop })).statusCode).toBe(403);
    // The other client's user asking for this client's mall and outlet.
    expect((await ask({}, agents.otherClient)).statusCode).toBe(403);
    expect(
      (await agents.otherClient.get(url({ client_id: 2, mall_ids: [apexPlaza], ...WEEK, outlet_id: cafe }))).statusCode,
    ).toBe(403);
  });

  it('refuses a tenant an outlet that is not theirs, in a mall they see (403)', async () => {
    expect((await ask({ outlet_id: cafe }, agents.tenant)).statusCode).toBe(403);
    expect((await rows({ outlet_id: boutique }, agents.tenant)).length).toBe(1);
  });

  it('gives the super admin the other client’s figures, and only those', async () => {
    const data = await rows({ client_id: 2, mall_ids: [apexPlaza] }, agents.admin);
    expect(data).toEqual([
      {
        category: 'Others',
        outlet_id: apexShop,
        outlet_name: 'Apex Shop',
        mall_id: apexPlaza,
        mall_name: 'Apex Plaza',
        level: 'L1',
        rank: 1,
        category_outlets: 1,
        gmv: 5000,
        transactions: 1,
        average_transaction_value: 5000,
      },
    ]);
  });
});

describe('the rollups, not the receipts', () => {
  it('answers the same figures once the receipts are gone', async () => {
    const before = await rows({});
    const lunch = await rows(LUNCH);
    await db.pool.query('DELETE FROM receipts WHERE client_id = 1');
    expect(await rows({})).toEqual(before);
    expect(await rows(LUNCH)).toEqual(lunch);
  });
});
