import ExcelJS from 'exceljs';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inTransaction } from '../../server/db/pool.js';
import { ingestReceipts } from '../../server/repositories/ingestion.js';
import {
  alreadyDeclaredMessage,
  MALL_DECLARED_MESSAGE,
  NOT_DECLARED_MESSAGE,
} from '../../server/routes/nonTradingDays.js';
import { addDays } from '../../src/domain/reports.js';
import {
  ACCESS_CALLERS,
  grantOperatorPermissions,
  PASSWORD,
  receiptInput as receipt,
  seedWorld,
  WORLD,
} from './fixtures.js';
import { Agent, createTestApp, createTestDatabase, signInAgents, type TestDatabase } from './helpers.js';

/*
 * Non-trading days and the sales review on the fixture world (Zenith: Central Mall in SGD, Singapore; Harbour Mall
 * in USD, New York). Days are counted from Singapore's today (T):
 *
 *   cafe (Central)      T-3 10:00 100.00, T-3 12:00 50.50, T-1 10:00 25.25      first day of sales T-3
 *   boutique (Central)  T-3 15:00 200.00, T-2 11:00 a void receipt of 999.00     opened T-30
 *   kiosk (Harbour)     nothing                                                 no opening day, no sales
 *
 * The tenant sees the boutique only.
 */
let db: TestDatabase;
let app: FastifyInstance;
let agents: Record<'operator' | 'tenant' | 'otherClient' | 'noPermission', Agent>;
const { cafe, boutique, kiosk } = WORLD.outlets;

const TODAY = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Singapore' }).format(new Date());
const day = (offset: number) => addDays(TODAY, offset);
/** The UTC instant of a Singapore local hour of day T+offset. */
const singaporeAt = (offset: number, hour: number) =>
  new Date(Date.parse(`${day(offset)}T00:00:00Z`) + (hour - 8) * 3_600_000).toISOString();

const PERMISSIONS = [
  '/api/nonTradingDays::Read',
  '/api/nonTradingDays::Create',
  '/api/nonTradingDays::Delete',
  '/api/salesReview/daily::Read',
  '/api/salesReview/workbook::Read',
  '/api/salesReview/nonTradingDays::Read',
  '/api/salesReview/nonTradingDays::Create',
  '/api/salesReview/nonTradingDays::Delete',
];

beforeAll(async () => {
  db = await createTestDatabase();
  await seedWorld(db.pool);
  await grantOperatorPermissions(db.pool, PERMISSIONS);
  await db.pool.query('UPDATE outlets SET opened_on = $1::date WHERE id = $2', [day(-30), boutique]);
  await inTransaction(db.pool, async (client) => {
    await ingestReceipts(client, 1, [
      receipt(cafe, singaporeAt(-3, 10), 100, [['VISA', 100]]),
      receipt(cafe, singaporeAt(-3, 12), 50.5, [['CASH', 50.5]]),
      receipt(cafe, singaporeAt(-1, 10), 25.25, [['VISA', 25.25]]),
      receipt(boutique, singaporeAt(-3, 15), 200, [['VISA', 200]]),
      receipt(boutique, singaporeAt(-2, 11), 999, [['VISA', 999]], { void: true }),
    ]);
  });
  app = await createTestApp(db.pool);
  agents = await signInAgents(app, ACCESS_CALLERS, PASSWORD);
});
afterAll(async () => {
  await app?.close();
  await db?.drop();
});

const MALL = '/api/nonTradingDays';
const TENANT = '/api/salesReview/nonTradingDays';

function declare(agent: Agent, path: string, body: Record<string, unknown>, csrf?: null) {
  return agent.request('POST', path, { body: { client_id: 1, ...body }, ...(csrf === null ? { csrf } : {}) });
}

const removeUrl = (path: string, outlet: number, when: string, client = 1) =>
  `${path}?client_id=${client}&outlet_id=${outlet}&day=${when}`;

async function auditRows(outlet: number, when: string) {
  const { rows } = await db.pool.query<{ action: string; user_id: number; detail: Record<string, unknown> }>(
    `SELECT action, user_id, detail FROM audit_log WHERE entity = 'non_trading_day' AND entity_id = $1 ORDER BY id`,
    [`${outlet}:${when}`],
  );
  return rows;
}

async function stored(outlet: number, when: string) {
  const { rows } = await db.pool.query(
    'SELECT reason, declared_by FROM non_trading_days WHERE outlet_id = $1 AND day = $2',
    [outlet, when],
  );
  return rows;
}

const userId = async (email: string) =>
  (await db.pool.query<{ id: number }>('SELECT id FROM users WHERE email = $1', [email])).rows[0]?.id;

describe('the mall declares and removes a day', () => {
  it('declares a day for the mall, trimmed, with who and when, and audits it', async () => {
    const response = await declare(agents.operator, MALL, { outlet_id: cafe, day: day(-2), reason: '  Stocktake  ' });
    expect(response.statusCode, response.body).toBe(200);
    const declared = response.json();
    expect(declared).toEqual({
      outlet_id: cafe,
      outlet_name: 'Cafe Uno',
      day: day(-2),
      reason: 'Stocktake',
      declared_by: 'mall',
      user_email: WORLD.users.operator1,
      declared_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
    });
    expect(Math.abs(Date.parse(declared.declared_at) - Date.now())).toBeLessThan(60_000);
    expect(await auditRows(cafe, day(-2))).toEqual([
      {
        action: 'create',
        user_id: await userId(WORLD.users.operator1),
        detail: {
          before: null,
          after: { outlet_id: cafe, day: day(-2), reason: 'Stocktake', declared_by: 'mall' },
        },
      },
    ]);
  });

  it('refuses the same day of the outlet twice (400 naming day), changing nothing', async () => {
    const again = await declare(agents.operator, MALL, { outlet_id: cafe, day: day(-2), reason: 'Again' });
    expect(again.statusCode).toBe(400);
    expect(again.json().message).toBe(alreadyDeclaredMessage(day(-2)));
    expect(again.json().message).toMatch(/^day: /);
    // The tenant's way in is refused the same (another outlet: its own).
    const tenantTwice = await declare(agents.tenant, TENANT, {
      outlet_id: boutique,
      day: day(-5),
      reason: 'Private event',
    });
    expect(tenantTwice.statusCode, tenantTwice.body).toBe(200);
    const second = await declare(agents.tenant, TENANT, { outlet_id: boutique, day: day(-5), reason: 'Private event' });
    expect(second.statusCode).toBe(400);
    expect(second.json().message).toBe(alreadyDeclaredMessage(day(-5)));
    expect(await stored(cafe, day(-2))).toEqual([{ reason: 'Stocktake', declared_by: 'mall' }]);
    expect(await auditRows(cafe, day(-2))).toHaveLength(1);
    expect(await auditRows(boutique, day(-5))).toHaveLength(1);
  });

  it('refuses a blank reason, a day before the outlet’s first day or too far ahead, naming the field', async () => {
    const blank = await declare(agents.operator, MALL, { outlet_id: cafe, day: day(-1), reason: '   ' });
    expect(blank.statusCode).toBe(400);
    expect(blank.json().message).toBe('reason must not be blank.');
    // The cafe has no opening day: its first day of sales (T-3) is its first day.
    const beforeSales = await declare(agents.operator, MALL, { outlet_id: cafe, day: day(-4), reason: 'Closed' });
    expect(beforeSales.statusCode).toBe(400);
    expect(beforeSales.json().message).toMatch(/^day must not be before .+, the outlet's first day\.$/);
    // The boutique opened T-30.
    const beforeOpening = await declare(agents.operator, MALL, {
      outlet_id: boutique,
      day: day(-31),
      reason: 'Closed',
    });
    expect(beforeOpening.statusCode).toBe(400);
    expect(beforeOpening.json().message).toMatch(/^day must not be before /);
    expect(
      (await declare(agents.operator, MALL, { outlet_id: boutique, day: day(-30), reason: 'Vacant unit' })).statusCode,
    ).toBe(200);
    // The kiosk has neither: from its today (New York) on.
    const kioskPast = await declare(agents.operator, MALL, { outlet_id: kiosk, day: day(-2), reason: 'Closed' });
    expect(kioskPast.statusCode).toBe(400);
    expect(kioskPast.json().message).toMatch(/^day must not be before /);
    const far = await declare(agents.operator, MALL, { outlet_id: cafe, day: day(367), reason: 'Renovation' });
    expect(far.statusCode).toBe(400);
    expect(far.json().message).toMatch(/^day must be at most 366 days after the outlet's today/);
    const latest = await declare(agents.operator, MALL, { outlet_id: cafe, day: day(366), reason: 'Renovation' });
    expect(latest.statusCode, latest.body).toBe(200);
    for (const when of [day(-4), day(367)]) expect(await stored(cafe, when)).toEqual([]);
    expect(await stored(kiosk, day(-2))).toEqual([]);
  });

  it('refuses what the contract refuses: an impossible day, a long reason, an unknown field', async () => {
    const impossible = await declare(agents.operator, MALL, { outlet_id: cafe, day: '2026-02-30', reason: 'x' });
    expect(impossible.statusCode).toBe(400);
    expect(impossible.json().message).toMatch(/day/);
    const long = await declare(agents.operator, MALL, { outlet_id: cafe, day: day(1), reason: 'x'.repeat(201) });
    expect(long.statusCode).toBe(400);
    expect(long.json().message).toMatch(/reason/);
    const unknown = await declare(agents.operator, MALL, {
      outlet_id: cafe,
      day: day(1),
      reason: 'x',
      declared_by: 'tenant',
    });
    expect(unknown.statusCode).toBe(400);
    expect(await stored(cafe, day(1))).toEqual([]);
  });

  it('removes any day, whoever declared it, and audits the removal; a day not declared is 404', async () => {
    const tenantDay = await declare(agents.tenant, TENANT, {
      outlet_id: boutique,
      day: day(-1),
      reason: 'Private event',
    });
    expect(tenantDay.statusCode, tenantDay.body).toBe(200);
    const response = await agents.operator.request('DELETE', removeUrl(MALL, boutique, day(-1)));
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ success: true });
    expect(await stored(boutique, day(-1))).toEqual([]);
    const audit = await auditRows(boutique, day(-1));
    expect(audit.map((row) => row.action)).toEqual(['create', 'delete']);
    expect(audit[1]).toEqual({
      action: 'delete',
      user_id: await userId(WORLD.users.operator1),
      detail: {
        before: { outlet_id: boutique, day: day(-1), reason: 'Private event', declared_by: 'tenant' },
        after: null,
      },
    });
    const gone = await agents.operator.request('DELETE', removeUrl(MALL, boutique, day(-1)));
    expect(gone.statusCode).toBe(404);
    expect(gone.json().message).toBe(NOT_DECLARED_MESSAGE);
    expect(await auditRows(boutique, day(-1))).toHaveLength(2);
  });
});

describe('the mall’s list', () => {
  // Up to 300 days ahead: the day declared 366 days ahead is beyond the longest range.
  const listUrl = (extra = '') => `${MALL}?client_id=1&from=${day(-40)}&to=${day(300)}${extra}`;
  const days = async (agent: Agent, extra = '') =>
    (await agent.get(listUrl(extra)))
      .json()
      .data.map((row: { outlet_id: number; day: string }) => [row.outlet_id, row.day]);

  it('lists the days of the outlets the caller sees, newest first, with how many match', async () => {
    const response = await agents.operator.get(listUrl());
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json();
    expect(body.total).toBe(3);
    expect(body.data.map((row: { outlet_id: number; day: string }) => [row.outlet_id, row.day])).toEqual([
      [cafe, day(-2)],
      [boutique, day(-5)],
      [boutique, day(-30)],
    ]);
    expect(body.data[1]).toMatchObject({
      outlet_name: 'Boutique Duo',
      reason: 'Private event',
      declared_by: 'tenant',
      user_email: WORLD.users.tenant,
    });
  });

  it('sorts by any column either way, filters by outlet and by days, and pages', async () => {
    expect(await days(agents.operator, '&sortColumn=outlet_name&orderByMethod=asc')).toEqual([
      [boutique, day(-30)],
      [boutique, day(-5)],
      [cafe, day(-2)],
    ]);
    expect(await days(agents.operator, '&sortColumn=reason&orderByMethod=asc')).toEqual([
      [boutique, day(-5)],
      [cafe, day(-2)],
      [boutique, day(-30)],
    ]);
    expect(await days(agents.operator, '&sortColumn=declared_by&orderByMethod=asc')).toEqual([
      [boutique, day(-30)],
      [cafe, day(-2)],
      [boutique, day(-5)],
    ]);
    expect((await days(agents.operator, '&sortColumn=user_email&orderByMethod=desc'))[0]).toEqual([boutique, day(-5)]);
    expect((await days(agents.operator, '&sortColumn=declared_at&orderByMethod=desc'))[0]).toEqual([
      boutique,
      day(-30),
    ]);
    expect(await days(agents.operator, `&outlet_id=${boutique}&orderByMethod=asc`)).toEqual([
      [boutique, day(-30)],
      [boutique, day(-5)],
    ]);
    const window = await agents.operator.get(`${MALL}?client_id=1&from=${day(-5)}&to=${day(0)}`);
    expect(window.json().total).toBe(2);
    const second = (await agents.operator.get(listUrl('&rowsPerPage=10&page=2'))).json();
    expect(second).toEqual({ data: [], total: 3 });
  });

  it('refuses a range out of order or over 366 days, naming the field', async () => {
    const reversed = await agents.operator.get(`${MALL}?client_id=1&from=${day(0)}&to=${day(-1)}`);
    expect(reversed.statusCode).toBe(400);
    expect(reversed.json().message).toMatch(/^from must not be after to/);
    const long = await agents.operator.get(`${MALL}?client_id=1&from=${day(-366)}&to=${day(0)}`);
    expect(long.statusCode).toBe(400);
    expect(long.json().message).toMatch(/^to: /);
  });
});

describe('the tenant’s view', () => {
  it('declares a day of its outlet for the tenant, and withdraws it', async () => {
    const response = await declare(agents.tenant, TENANT, { outlet_id: boutique, day: day(-2), reason: 'Renovation' });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({
      declared_by: 'tenant',
      user_email: WORLD.users.tenant,
      reason: 'Renovation',
    });
    const list = await agents.tenant.get(`${TENANT}?client_id=1&outlet_id=${boutique}&from=${day(-3)}&to=${day(0)}`);
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json().data.map((row: { day: string }) => row.day)).toEqual([day(-2)]);
    const withdrawn = await agents.tenant.request('DELETE', removeUrl(TENANT, boutique, day(-2)));
    expect(withdrawn.statusCode, withdrawn.body).toBe(200);
    expect(await stored(boutique, day(-2))).toEqual([]);
    expect((await auditRows(boutique, day(-2))).map((row) => row.action)).toEqual(['create', 'delete']);
  });

  it('cannot withdraw a day the mall declared (409), which stays', async () => {
    const mallDay = await declare(agents.operator, MALL, {
      outlet_id: boutique,
      day: day(-4),
      reason: 'Mall maintenance',
    });
    expect(mallDay.statusCode, mallDay.body).toBe(200);
    const refused = await agents.tenant.request('DELETE', removeUrl(TENANT, boutique, day(-4)));
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(MALL_DECLARED_MESSAGE);
    expect(await stored(boutique, day(-4))).toEqual([{ reason: 'Mall maintenance', declared_by: 'mall' }]);
    expect(await auditRows(boutique, day(-4))).toHaveLength(1);
    // The mall's list shows the tenant the mall's days of its outlet too, and only its outlet.
    const mallList = (await agents.tenant.get(`${MALL}?client_id=1&from=${day(-40)}&to=${day(300)}`)).json();
    expect(new Set(mallList.data.map((row: { outlet_id: number }) => row.outlet_id))).toEqual(new Set([boutique]));
  });
});

describe('the sales review', () => {
  const reviewUrl = (outlet: number, from: string, to: string, client = 1) =>
    `/api/salesReview/daily?client_id=${client}&outlet_id=${outlet}&start_time=${from}&end_time=${to}`;

  it('gives every day of the range from the rollups, in the outlet’s currency, with today', async () => {
    const response = await agents.operator.get(reviewUrl(cafe, day(-4), day(0)));
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({
      currency: 'SGD',
      today: TODAY,
      data: [
        { date: day(-4), gmv: 0, transactions: 0, non_trading: null },
        { date: day(-3), gmv: 150.5, transactions: 2, non_trading: null },
        { date: day(-2), gmv: 0, transactions: 0, non_trading: { reason: 'Stocktake', declared_by: 'mall' } },
        { date: day(-1), gmv: 25.25, transactions: 1, non_trading: null },
        { date: day(0), gmv: 0, transactions: 0, non_trading: null },
      ],
    });
  });

  it('marks the tenant’s own outlet’s days, void receipts left out', async () => {
    const response = await agents.tenant.get(reviewUrl(boutique, day(-5), day(-2)));
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().data).toEqual([
      { date: day(-5), gmv: 0, transactions: 0, non_trading: { reason: 'Private event', declared_by: 'tenant' } },
      { date: day(-4), gmv: 0, transactions: 0, non_trading: { reason: 'Mall maintenance', declared_by: 'mall' } },
      { date: day(-3), gmv: 200, transactions: 1, non_trading: null },
      { date: day(-2), gmv: 0, transactions: 0, non_trading: null },
    ]);
  });

  it('as one workbook: the page’s days with their notes, in the outlet’s currency', async () => {
    const response = await agents.operator.get(reviewUrl(cafe, day(-4), day(0)).replace('/daily?', '/workbook?'));
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-disposition']).toBe(
      `attachment; filename="sales-review_${day(-4)}_${day(0)}.xlsx"`,
    );
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(response.rawPayload as unknown as ExcelJS.Buffer);
    expect(workbook.worksheets.map((sheet) => sheet.name)).toEqual(['Days', 'Filters']);
    const rows: unknown[][] = [];
    workbook.getWorksheet('Days')?.eachRow((row, number) => {
      if (number > 1) rows.push([2, 3, 4].map((column) => row.getCell(column).value));
    });
    // The answer above, day by day: T-3 150.50 in 2, the mall's stocktake on T-2, T-1 25.25, today so far.
    expect(rows).toEqual([
      [0, 0, null],
      [150.5, 2, null],
      [0, 0, 'Not trading: Stocktake (declared by the mall)'],
      [25.25, 1, null],
      [0, 0, 'Today, so far'],
    ]);
    const filters = new Map<unknown, unknown>();
    workbook.getWorksheet('Filters')?.eachRow((row) => {
      filters.set(row.getCell(1).value, row.getCell(2).value);
    });
    expect(filters.get('Outlet')).toBe('Cafe Uno');
    expect(filters.get('Malls')).toBe('Central Mall');
    expect(filters.get('Currency')).toBe("SGD (the outlet's own)");
    // The tenant takes its own outlet's, not another's; the range's rules are the page's.
    const own = await agents.tenant.get(reviewUrl(boutique, day(-5), day(-2)).replace('/daily?', '/workbook?'));
    expect(own.statusCode, own.body).toBe(200);
    const other = await agents.tenant.get(reviewUrl(cafe, day(-5), day(-2)).replace('/daily?', '/workbook?'));
    expect(other.statusCode).toBe(403);
    const reversed = await agents.operator.get(reviewUrl(cafe, day(0), day(-1)).replace('/daily?', '/workbook?'));
    expect(reversed.statusCode).toBe(400);
    expect(reversed.json().message).toMatch(/^start_time must be on or before end_time/);
  });

  it('refuses a range out of order or over 366 days, naming the field', async () => {
    const reversed = await agents.operator.get(reviewUrl(cafe, day(0), day(-1)));
    expect(reversed.statusCode).toBe(400);
    expect(reversed.json().message).toMatch(/^start_time must be on or before end_time/);
    const long = await agents.operator.get(reviewUrl(cafe, day(-366), day(0)));
    expect(long.statusCode).toBe(400);
    expect(long.json().message).toMatch(/^end_time: /);
  });
});

describe('access', () => {
  it('refuses the tenant another outlet’s days by any id: read, declare, withdraw, sales', async () => {
    const refusals = [
      await agents.tenant.get(`${TENANT}?client_id=1&outlet_id=${cafe}&from=${day(-5)}&to=${day(0)}`),
      await agents.tenant.get(`${MALL}?client_id=1&outlet_id=${cafe}&from=${day(-5)}&to=${day(0)}`),
      await agents.tenant.get(
        `/api/salesReview/daily?client_id=1&outlet_id=${cafe}&start_time=${day(-3)}&end_time=${day(0)}`,
      ),
      await declare(agents.tenant, TENANT, { outlet_id: cafe, day: day(-1), reason: 'Mine now' }),
      await declare(agents.tenant, MALL, { outlet_id: kiosk, day: day(1), reason: 'Mine now' }),
      await agents.tenant.request('DELETE', removeUrl(TENANT, cafe, day(-2))),
      await agents.tenant.request('DELETE', removeUrl(MALL, cafe, day(-2))),
      // Its own outlet named under the other client.
      await agents.tenant.get(`${TENANT}?client_id=2&outlet_id=${boutique}&from=${day(-5)}&to=${day(0)}`),
      await agents.tenant.request('DELETE', removeUrl(TENANT, boutique, day(-4), 2)),
    ];
    for (const response of refusals) {
      expect(response.statusCode, response.body).toBe(403);
      expect(response.json().message).toBe('You do not have access to this data.');
    }
    expect(await stored(cafe, day(-2))).toEqual([{ reason: 'Stocktake', declared_by: 'mall' }]);
    expect(await stored(cafe, day(-1))).toEqual([]);
    expect(await stored(boutique, day(-4))).toEqual([{ reason: 'Mall maintenance', declared_by: 'mall' }]);
  });

  it('refuses another client’s caller, a caller without the permission or a session, and a write without CSRF', async () => {
    expect((await agents.otherClient.get(`${MALL}?client_id=1&from=${day(-5)}&to=${day(0)}`)).statusCode).toBe(403);
    expect((await declare(agents.otherClient, MALL, { outlet_id: cafe, day: day(2), reason: 'x' })).statusCode).toBe(
      403,
    );
    const noPermission = await agents.noPermission.get(`${MALL}?client_id=1&from=${day(-5)}&to=${day(0)}`);
    expect(noPermission.statusCode).toBe(403);
    expect(noPermission.json().message).toBe('You do not have permission to do this.');
    expect((await new Agent(app).get(`${MALL}?client_id=1&from=${day(-5)}&to=${day(0)}`)).statusCode).toBe(401);
    const noCsrf = await declare(agents.operator, MALL, { outlet_id: cafe, day: day(2), reason: 'x' }, null);
    expect(noCsrf.statusCode).toBe(403);
    const noCsrfRemoval = await agents.operator.request('DELETE', removeUrl(MALL, cafe, day(-2)), { csrf: null });
    expect(noCsrfRemoval.statusCode).toBe(403);
    expect(await stored(cafe, day(2))).toEqual([]);
    expect(await stored(cafe, day(-2))).toHaveLength(1);
  });
});
