import ExcelJS from 'exceljs';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inTransaction } from '../../server/db/pool.js';
import { MALL_OUTLET_WORKBOOK_SHEETS } from '../../server/exports/mallOutletWorkbook.js';
import { moneyFormat, SHARE_FORMAT } from '../../server/exports/workbook.js';
import { ingestReceipts } from '../../server/repositories/ingestion.js';
import { addDays } from '../../src/domain/dateLimits.js';
import { mallOutletKpis, outletPlacement, PEERS_SHOWN } from '../../src/domain/mallOutlet.js';
import { PASSWORD, receiptInput as receipt, seedWorld, WORLD } from './fixtures.js';
import { Agent, createTestApp, createTestDatabase, signInAgents, type TestDatabase } from './helpers.js';

/*
 * GET /api/mall_report/category/outlet: outlets ranked within their category, the peers of one outlet; and the Mall
 * Outlet page's workbook (GET /api/mall_report/outlet/workbook), which shows them with the outlet's own figures. A hand-built
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
    `INSERT INTO role_api_permissions (role_id, permission)
     SELECT 2, '/api/mall_report/' || p || '::Read'
     FROM unnest(ARRAY['category/outlet', 'level', 'outlet/overallComparison', 'outlet/daily', 'outlet/workbook']) p`,
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

/** The answer of one of the page's operations to the operator. */
async function answer(path: string, params: Params, agent = agents.operator) {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    for (const item of Array.isArray(value) ? value : [value]) query.append(key, String(item));
  }
  const response = await agent.get(`/api/mall_report/${path}?${query}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

const workbookUrl = (params: Params) => {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) query.append(key, String(value));
  return `/api/mall_report/outlet/workbook?${query}`;
};

/** The workbook's sheets, each as its rows of values below the header. */
async function workbookOf(params: Params, agent = agents.operator) {
  const response = await agent.get(workbookUrl(params));
  expect(response.statusCode, response.body).toBe(200);
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(response.rawPayload as unknown as ExcelJS.Buffer);
  const cells = (name: string) => {
    const sheet = workbook.getWorksheet(name);
    if (!sheet) throw new Error(`no sheet ${name}`);
    const rows: ExcelJS.Cell[][] = [];
    sheet.eachRow((row, number) => {
      if (number > 1) rows.push(Array.from({ length: sheet.columnCount }, (_, index) => row.getCell(index + 1)));
    });
    return rows;
  };
  const values = (name: string) => cells(name).map((row) => row.map((cell) => cell.value));
  return { response, workbook, cells, values };
}

const day = (value: string) => new Date(`${value}T00:00:00Z`);
const SGD = moneyFormat('$', 2);

describe('the Mall Outlet page as a workbook', () => {
  it('writes the outlet’s key figures, place, days and peers as the page’s operations answer them', async () => {
    const { response, workbook, cells, values } = await workbookOf({ client_id: 1, outlet_id: cafe, ...WEEK });
    expect(response.headers['content-disposition']).toBe(
      `attachment; filename="mall-outlet-${cafe}_2026-03-02_2026-03-08.xlsx"`,
    );
    expect(workbook.worksheets.map((sheet) => sheet.name)).toEqual([...MALL_OUTLET_WORKBOOK_SHEETS, 'Filters']);
    const [kpiName, placeName, dailyName, peersName] = MALL_OUTLET_WORKBOOK_SHEETS;

    // By hand: Cafe Uno's 150.50 in 2 (100.00 and 50.50 on the 2nd, the void left out) against the whole week
    // before's 80.00 in 1 (24 February): GMV +88.13 %, transactions +100 %, ATV 75.25 against 80.00, -5.94 %.
    expect(values(kpiName)).toEqual([
      ['GMV', 150.5, day('2026-03-02'), day('2026-03-08'), 150.5, day('2026-02-23'), day('2026-03-01'), 80, 0.8813],
      ['Transactions', 2, day('2026-03-02'), day('2026-03-08'), 2, day('2026-02-23'), day('2026-03-01'), 1, 1],
      [
        'Average Transaction Value',
        75.25,
        day('2026-03-02'),
        day('2026-03-08'),
        75.25,
        day('2026-02-23'),
        day('2026-03-01'),
        80,
        -0.0594,
      ],
    ]);
    expect(cells(kpiName).map((row) => row[1]?.numFmt)).toEqual([SGD, '#,##0', SGD]);
    // The same through the page's own rule over its operation's answer.
    const whole = await answer('outlet/overallComparison', { client_id: 1, outlet_id: cafe, ...WEEK });
    const kpis = mallOutletKpis(
      whole,
      { answer: whole, todayLeftOut: false },
      { start: '2026-03-02', end: '2026-03-08' },
    );
    expect(values(kpiName).map((row) => [row[1], row[4], row[7]])).toEqual(
      [kpis.gmv, kpis.transactions, kpis.averageTransactionValue].map((kpi) => [
        kpi.current,
        kpi.growth?.current,
        kpi.growth?.previous,
      ]),
    );

    // Its place: 2nd of Central's 3 F&B outlets behind Noodle Bar's 180.25; L1 of Central is Cafe Uno's 150.50 (and
    // Bakery Ace's nothing), so all of the level's GMV.
    expect(values(placeName)).toEqual([
      ['Category', 'F&B'],
      ['Rank in the category', 2],
      ['Outlets in the category', 3],
      ['Ranked', 'By GMV among the 3 F&B outlets of Central Mall'],
      ['Level', 'L1'],
      ['Level’s GMV', 150.5],
      ['Level’s transactions', 2],
      ['The outlet’s share of the level’s GMV', 1],
    ]);
    expect(cells(placeName)[5]?.[1]?.numFmt).toBe(SGD);
    expect(cells(placeName)[7]?.[1]?.numFmt).toBe(SHARE_FORMAT);

    const daily = (await answer('outlet/daily', { client_id: 1, outlet_id: cafe, ...WEEK })).data as {
      date: string;
      gmv: number;
      transactions: number;
    }[];
    expect(values(dailyName)).toEqual(daily.map((row) => [day(row.date), row.gmv, row.transactions]));
    expect(values(dailyName)[0]).toEqual([day('2026-03-02'), 150.5, 2]);
    expect(values(dailyName)).toHaveLength(7);

    const peers = (
      await answer('category/outlet', {
        client_id: 1,
        mall_ids: [central],
        ...WEEK,
        outlet_id: cafe,
        limit: PEERS_SHOWN,
      })
    ).data;
    const levels = (await answer('level', { client_id: 1, mall_ids: [central], ...WEEK })).data;
    const placement = outletPlacement(cafe, peers, levels);
    expect(values(peersName)).toEqual(
      (placement?.peers ?? []).map((row) => [
        row.rank,
        row.outlet_id,
        row.outlet_name,
        row.level,
        row.gmv,
        row.transactions,
        row.average_transaction_value,
        row.current ? 'Yes' : null,
      ]),
    );
    expect(values(peersName)).toEqual([
      [1, noodle, 'Noodle Bar', 'L2', 180.25, 2, 90.13, null],
      [2, cafe, 'Cafe Uno', 'L1', 150.5, 2, 75.25, 'Yes'],
      [3, bakery, 'Bakery Ace', 'L1', 0, 0, 0, null],
    ]);

    const filters = new Map(values('Filters').map(([name, value]) => [name, value]));
    expect(filters.get('Client')).toBe('Zenith Malls');
    expect(filters.get('Malls')).toBe('Central Mall');
    expect(filters.get('Outlet')).toBe('Cafe Uno');
    expect(filters.get('Outlet ID')).toBe(cafe);
    expect(filters.get('From')).toEqual(day('2026-03-02'));
    expect(filters.get('To')).toEqual(day('2026-03-08'));
    expect(filters.get('Currency')).toBe('SGD (the outlet’s mall’s)');
    expect(filters.get('Comparison')).toBe('Previous whole weeks');
    expect(filters.get('Like for like')).toBe('No');
  });

  it('compares as the page’s comparison says', async () => {
    const { values } = await workbookOf({ client_id: 1, outlet_id: cafe, ...WEEK, compare: 'same_weekday_last_year' });
    const whole = await answer('outlet/overallComparison', {
      client_id: 1,
      outlet_id: cafe,
      ...WEEK,
      compare: 'same_weekday_last_year',
    });
    // 364 days back: 3 to 9 March 2025, without a sale.
    expect(values('Key figures')[0]).toEqual([
      'GMV',
      150.5,
      day('2026-03-02'),
      day('2026-03-08'),
      150.5,
      day(whole.previous_start_time),
      day(whole.previous_end_time),
      0,
      0,
    ]);
    expect(whole.previous_start_time).toBe('2025-03-03');
    expect(new Map(values('Filters').map(([name, value]) => [name, value])).get('Comparison')).toBe(
      'Same weekdays last year',
    );
  });

  it('leaves the malls’ today out of the growth, as the page’s cards do', async () => {
    // Central Mall's today (Singapore's, the latest of the client's malls) holds 12.34 from its first second.
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Singapore' }).format(new Date());
    await inTransaction(db.pool, (client) =>
      ingestReceipts(client, 1, [receipt(cafe, `${today}T00:00:01+08:00`, 12.34, [['VISA', 12.34]])]),
    );
    const range = { start_time: addDays(today, -6), end_time: today };
    const { values } = await workbookOf({ client_id: 1, outlet_id: cafe, ...range });
    const whole = await answer('outlet/overallComparison', { client_id: 1, outlet_id: cafe, ...range });
    const complete = await answer('outlet/overallComparison', {
      client_id: 1,
      outlet_id: cafe,
      start_time: range.start_time,
      end_time: addDays(today, -1),
    });
    const [gmv] = values('Key figures');
    // The range's figure has today's 12.34; the growth compares the six days before it (nothing), as the page asks.
    expect(gmv?.slice(0, 5)).toEqual(['GMV', 12.34, day(range.start_time), day(addDays(today, -1)), 0]);
    expect([gmv?.[1], gmv?.[4], gmv?.[7]]).toEqual([whole.current.gmv, complete.current.gmv, complete.previous.gmv]);
    expect(values('Daily').at(-1)).toEqual([day(today), 12.34, 1]);
    const filters = new Map(values('Filters').map(([name, value]) => [name, value]));
    expect(filters.get('Malls’ today (left out of the growth)')).toEqual(day(today));
  });

  it('is the caller’s outlet’s only, of the client it names, for a range in order', async () => {
    // The tenant sees Boutique Duo alone: its own, ranked among the outlets it sees.
    const own = await workbookOf({ client_id: 1, outlet_id: boutique, ...WEEK }, agents.tenant);
    expect(own.values('Category peers')).toEqual([[1, boutique, 'Boutique Duo', 'L2', 200, 1, 200, 'Yes']]);
    expect((await agents.tenant.get(workbookUrl({ client_id: 1, outlet_id: cafe, ...WEEK }))).statusCode).toBe(403);
    // Another client's outlet, and this client's outlet to the other client's operator.
    expect((await agents.operator.get(workbookUrl({ client_id: 2, outlet_id: apexShop, ...WEEK }))).statusCode).toBe(
      403,
    );
    expect((await agents.otherClient.get(workbookUrl({ client_id: 1, outlet_id: cafe, ...WEEK }))).statusCode).toBe(
      403,
    );
    const reversed = await agents.operator.get(
      workbookUrl({ client_id: 1, outlet_id: cafe, start_time: '2026-03-08', end_time: '2026-03-02' }),
    );
    expect(reversed.statusCode).toBe(400);
    expect(reversed.json().message).toMatch(/^start_time must be on or before end_time/);
    expect((await new Agent(app).get(workbookUrl({ client_id: 1, outlet_id: cafe, ...WEEK }))).statusCode).toBe(401);
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
