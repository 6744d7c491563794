import ExcelJS from 'exceljs';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inTransaction } from '../../server/db/pool.js';
import { BREAKEVEN_WORKBOOK_SHEETS } from '../../server/exports/breakevenWorkbook.js';
import { moneyFormat } from '../../server/exports/workbook.js';
import { ingestReceipts } from '../../server/repositories/ingestion.js';
import { fillMonthProjections } from '../../server/repositories/monthFigures.js';
import { OTHER_DEPARTMENT_MESSAGE } from '../../server/routes/breakeven.js';
import { currencyFormat } from '../../src/domain/format.js';
import { PASSWORD, receiptInput as receipt, seedWorld, WORLD } from './fixtures.js';
import { Agent, createTestApp, createTestDatabase, signInAgents, type TestDatabase } from './helpers.js';

/*
 * Breakeven targets on the fixture world (Zenith: Central Mall in SGD, Singapore, GST 9 % here; Harbour Mall in
 * USD, New York, no GST). March 2026, closed:
 *
 *   cafe       2 Mar 109.00 + 10 Mar 218.00 (+ a void 500.00)   with GST 327.00, without 300.00
 *   boutique   3 Mar  54.50                                      with GST  54.50, without  50.00
 *   kiosk      nothing                                                       0.00
 *
 * Leasing targets: cafe 200.00, boutique 100.00, kiosk none. Marcom: cafe 400.00.
 */
let db: TestDatabase;
let app: FastifyInstance;
let agents: Record<'operator' | 'leasing' | 'tenant' | 'otherClient', Agent>;
const { cafe, boutique, kiosk } = WORLD.outlets;
const { central, harbour } = WORLD.malls;
const LEASING_USER = 'leasing@fixture.test';

const singaporeToday = () => new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Singapore' }).format(new Date());
const addDays = (day: string, days: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
/** Noon in Singapore of a day, as an instant. */
const noonIn = (day: string) => `${addDays(day, 0)}T04:00:00Z`;

beforeAll(async () => {
  db = await createTestDatabase();
  await seedWorld(db.pool);
  await db.pool.query('UPDATE malls SET gst_percent = 9 WHERE id = $1', [central]);
  await db.pool.query(
    `INSERT INTO role_api_permissions (role_id, permission)
     SELECT 2, unnest(ARRAY['/api/mall_report/breakeven_target::Read', '/api/mall_report/breakeven_target::Update',
                            '/api/mall_report/breakeven_target/workbook::Read'])`,
  );
  // A leasing department user of Zenith, with the same permissions.
  await db.pool.query(`INSERT INTO roles (id, name) VALUES (10, 'leasing')`);
  await db.pool.query(
    `INSERT INTO role_api_permissions (role_id, permission) SELECT 10, permission FROM role_api_permissions WHERE role_id = 2`,
  );
  const { rows } = await db.pool.query<{ id: number }>(
    `INSERT INTO users (email, password_hash, default_client_id)
     SELECT $1, password_hash, 1 FROM users WHERE email = $2 RETURNING id`,
    [LEASING_USER, WORLD.users.operator1],
  );
  await db.pool.query('INSERT INTO user_clients (client_id, user_id) VALUES (1, $1)', [rows[0]?.id]);
  await db.pool.query('INSERT INTO user_roles (user_id, role_id) VALUES ($1, 10)', [rows[0]?.id]);

  await inTransaction(db.pool, async (client) => {
    await ingestReceipts(client, 1, [
      receipt(cafe, '2026-03-02T04:00:00Z', 109, [['VISA', 109]]),
      receipt(cafe, '2026-03-10T04:00:00Z', 218, [['CASH', 218]]),
      receipt(cafe, '2026-03-11T04:00:00Z', 500, [['CASH', 500]], { void: true }),
      receipt(boutique, '2026-03-03T04:00:00Z', 54.5, [['VISA', 54.5]]),
    ]);
  });
  await db.pool.query(
    `INSERT INTO breakeven_targets (client_id, outlet_id, department, month, target) VALUES
       (1, $1, 'leasing', '2026-03-01', 200), (1, $2, 'leasing', '2026-03-01', 100), (1, $1, 'marcom', '2026-03-01', 400)`,
    [cafe, boutique],
  );
  app = await createTestApp(db.pool);
  agents = await signInAgents(
    app,
    {
      operator: WORLD.users.operator1,
      leasing: LEASING_USER,
      tenant: WORLD.users.tenant,
      otherClient: WORLD.users.operator2,
    },
    PASSWORD,
  );
});
afterAll(async () => {
  await app?.close();
  await db?.drop();
});

const url = (query: string) =>
  `/api/mall_report/breakeven_target?client_id=1&mall_ids=${central}&mall_ids=${harbour}&${query}`;

describe('a closed month', () => {
  it('sets the GTO without GST against the department’s targets, by progress, rows without a target last', async () => {
    const response = await agents.operator.get(url('date=2026-03-01&department=leasing'));
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json();
    expect(body.month).toBe('2026-03');
    expect(body.month_open).toBe(false);
    expect(body.data).toEqual([
      {
        outlet_id: cafe,
        outlet_name: 'Cafe Uno',
        mall_id: central,
        mall_name: 'Central Mall',
        currency: 'SGD',
        gto: 300,
        breakeven_target: 200,
        difference: 100,
        progress: 150,
        projected_gto: null,
        projected_progress: null,
        on_track: null,
      },
      {
        outlet_id: boutique,
        outlet_name: 'Boutique Duo',
        mall_id: central,
        mall_name: 'Central Mall',
        currency: 'SGD',
        gto: 50,
        breakeven_target: 100,
        difference: -50,
        progress: 50,
        projected_gto: null,
        projected_progress: null,
        on_track: null,
      },
      {
        outlet_id: kiosk,
        outlet_name: 'kiosk tres',
        mall_id: harbour,
        mall_name: 'Harbour Mall',
        currency: 'USD',
        gto: 0,
        breakeven_target: null,
        difference: null,
        progress: null,
        projected_gto: null,
        projected_progress: null,
        on_track: null,
      },
    ]);
    // One total per currency; outlets without a target are left out of target, difference and progress.
    expect(body.totals).toEqual([
      { currency: 'SGD', gto: 350, breakeven_target: 300, difference: 50, progress: (350 / 300) * 100, outlets: 2 },
      { currency: 'USD', gto: 0, breakeven_target: 0, difference: 0, progress: null, outlets: 1 },
    ]);
  });

  it('orders rows of the same progress by name, whatever their ids, and a zero target as no progress', async () => {
    // Operations: cafe 300.00 of 300.00 and boutique 50.00 of 50.00, both 100 %; kiosk 0.00 of a target of 0.
    await db.pool.query(
      `INSERT INTO breakeven_targets (client_id, outlet_id, department, month, target) VALUES
         (1, $1, 'operations', '2026-03-01', 300), (1, $2, 'operations', '2026-03-01', 50),
         (1, $3, 'operations', '2026-03-01', 0)`,
      [cafe, boutique, kiosk],
    );
    expect(cafe).toBeLessThan(boutique);
    const body = (await agents.operator.get(url('date=2026-03-01&department=operations'))).json();
    expect(
      body.data.map((row: { outlet_id: number; progress: number | null; difference: number | null }) => [
        row.outlet_id,
        row.progress,
        row.difference,
      ]),
    ).toEqual([
      [boutique, 100, 0],
      [cafe, 100, 0],
      [kiosk, null, 0],
    ]);
  });

  it('includes GST on the Marcom page, against Marcom’s targets', async () => {
    const body = (await agents.operator.get(url('date=2026-03-15&department=marcom&include_gst=true'))).json();
    expect(
      body.data.map(
        (row: { outlet_id: number; gto: number; breakeven_target: number | null; progress: number | null }) => [
          row.outlet_id,
          row.gto,
          row.breakeven_target,
          row.progress,
        ],
      ),
    ).toEqual([
      [cafe, 327, 400, 81.75],
      [boutique, 54.5, null, null],
      [kiosk, 0, null, null],
    ]);
  });

  it('shows a limited caller only its outlets', async () => {
    const body = (
      await agents.tenant.get(
        `/api/mall_report/breakeven_target?client_id=1&mall_ids=${central}&date=2026-03-01&department=leasing`,
      )
    ).json();
    expect(body.data.map((row: { outlet_id: number }) => row.outlet_id)).toEqual([boutique]);
  });
});

describe('the page as a workbook', () => {
  const workbookUrl = (query: string) =>
    `/api/mall_report/breakeven_target/workbook?client_id=1&mall_ids=${central}&mall_ids=${harbour}&${query}`;
  async function loaded(response: { rawPayload: Buffer }) {
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(response.rawPayload as unknown as ExcelJS.Buffer);
    const sheetRows = (name: string) => {
      const rows: ExcelJS.Row[] = [];
      workbook.getWorksheet(name)?.eachRow((row, number) => {
        if (number > 1) rows.push(row);
      });
      return rows;
    };
    return { workbook, sheetRows };
  }

  it('holds the page’s rows and totals per currency, each amount in its outlet’s currency', async () => {
    const response = await agents.operator.get(workbookUrl('month=2026-03&department=leasing'));
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-disposition']).toBe(
      'attachment; filename="breakeven-target-leasing_2026-03.xlsx"',
    );
    const { workbook, sheetRows } = await loaded(response);
    expect(workbook.worksheets.map((sheet) => sheet.name)).toEqual([...BREAKEVEN_WORKBOOK_SHEETS, 'Filters']);
    // Outlet, currency, GTO, target, difference, progress, status: the hand-worked figures above, without GST.
    const outlets = sheetRows('Outlets').map((row) =>
      [2, 4, 5, 6, 7, 8, 11].map((column) => row.getCell(column).value),
    );
    expect(outlets).toEqual([
      ['Cafe Uno', 'SGD', 300, 200, 100, 150, null],
      ['Boutique Duo', 'SGD', 50, 100, -50, 50, null],
      ['kiosk tres', 'USD', 0, null, null, null, null],
    ]);
    const sgd = currencyFormat('SGD');
    const usd = currencyFormat('USD');
    expect(sheetRows('Outlets')[0]?.getCell(5).numFmt).toBe(moneyFormat(sgd.symbol, sgd.digits));
    expect(sheetRows('Outlets')[2]?.getCell(5).numFmt).toBe(moneyFormat(usd.symbol, usd.digits));
    // One total per currency, as the page's answer adds them: SGD 350 against 300, progress 116.7 %.
    const totals = sheetRows('Totals per currency').map((row) => [1, 2, 3, 4, 5, 6].map((c) => row.getCell(c).value));
    expect(totals).toEqual([
      ['SGD', 2, 350, 300, 50, 116.7],
      ['USD', 1, 0, 0, 0, null],
    ]);
    const filters = new Map(sheetRows('Filters').map((row) => [row.getCell(1).value, row.getCell(2).value]));
    expect(filters.get('Department')).toBe('Leasing');
    expect(filters.get('GTO')).toBe('GTO: sales captured from receipts in the month, GST excluded.');
    expect(filters.get('Month still open (projected to its end)')).toBe('No');
  });

  it('includes GST on Marcom’s workbook, as its page reads it', async () => {
    const response = await agents.operator.get(workbookUrl('month=2026-03&department=marcom'));
    expect(response.statusCode, response.body).toBe(200);
    const { sheetRows } = await loaded(response);
    expect(sheetRows('Outlets').map((row) => [2, 5, 6, 8].map((column) => row.getCell(column).value))).toEqual([
      ['Cafe Uno', 327, 400, 81.8],
      ['Boutique Duo', 54.5, null, null],
      ['kiosk tres', 0, null, null],
    ]);
  });

  it('keeps a department to its own targets, a limited caller to its outlets, a client to its malls', async () => {
    const other = await agents.leasing.get(workbookUrl('month=2026-03&department=marcom'));
    expect(other.statusCode).toBe(403);
    expect(other.json().message).toBe(OTHER_DEPARTMENT_MESSAGE);
    const own = await agents.leasing.get(workbookUrl('month=2026-03&department=leasing'));
    expect(own.statusCode, own.body).toBe(200);
    const tenant = await agents.tenant.get(
      `/api/mall_report/breakeven_target/workbook?client_id=1&mall_ids=${central}&month=2026-03&department=leasing`,
    );
    expect(tenant.statusCode, tenant.body).toBe(200);
    expect((await loaded(tenant)).sheetRows('Outlets').map((row) => row.getCell(1).value)).toEqual([boutique]);
    expect((await agents.otherClient.get(workbookUrl('month=2026-03&department=leasing'))).statusCode).toBe(403);
    expect((await agents.operator.get(workbookUrl('month=2026-3&department=leasing'))).statusCode).toBe(400);
  });
});

describe('an open month', () => {
  it('projects the month’s end from the same weekdays of the four weeks before today, today left out', async () => {
    const today = singaporeToday();
    const first = `${today.slice(0, 8)}01`;
    const last = addDays(`${addDays(first, 40).slice(0, 8)}01`, -1);
    // The weekday of today: 70.00 on each of the four weeks before, and 1,000.00 today (partial, not projected from).
    const weeks = [7, 14, 21, 28].map((back) => addDays(today, -back));
    await inTransaction(db.pool, async (client) => {
      await ingestReceipts(client, 1, [
        ...weeks.map((day) => receipt(cafe, noonIn(day), 70, [['CASH', 70]])),
        receipt(cafe, noonIn(today), 1000, [['CASH', 1000]]),
      ]);
    });
    await db.pool.query(
      `INSERT INTO breakeven_targets (client_id, outlet_id, department, month, target) VALUES (1, $1, 'marcom', $2, 500)`,
      [cafe, first],
    );
    const soFar = weeks.filter((day) => day >= first).length * 70;
    let sameWeekdaysLeft = 0;
    for (let day = today; day <= last; day = addDays(day, 7)) sameWeekdaysLeft += 1;
    const projected = soFar + 70 * sameWeekdaysLeft;

    const body = (await agents.operator.get(url(`date=${today}&department=marcom&include_gst=true`))).json();
    expect(body.month_open).toBe(true);
    const row = body.data.find((candidate: { outlet_id: number }) => candidate.outlet_id === cafe);
    expect(row).toMatchObject({
      gto: soFar + 1000,
      breakeven_target: 500,
      projected_gto: projected,
      projected_progress: expect.closeTo((projected / 500) * 100, 6),
      on_track: projected >= 500,
    });
    // Boutique captured nothing in the four weeks: it projects what it has.
    const boutiqueRow = body.data.find((candidate: { outlet_id: number }) => candidate.outlet_id === boutique);
    expect(boutiqueRow).toMatchObject({ gto: 0, projected_gto: 0, on_track: null });
  });

  it('weights each weekday’s average by the days of it left: one more of the weekdays from today’s on', async () => {
    const today = singaporeToday();
    const first = `${today.slice(0, 8)}01`;
    const last = addDays(`${addDays(first, 40).slice(0, 8)}01`, -1);
    const isoWeekday = (day: string) => new Date(`${day}T00:00:00Z`).getUTCDay() || 7;
    // Each of the 28 days before today its own amount: ten times its weekday plus its week (1 to 4 back).
    const days = Array.from({ length: 28 }, (_, index) => {
      const day = addDays(today, -(index + 1));
      return { day, amount: 10 * isoWeekday(day) + Math.ceil((index + 1) / 7) };
    });
    await inTransaction(db.pool, async (client) => {
      await ingestReceipts(
        client,
        1,
        days.map(({ day, amount }) => receipt(boutique, noonIn(day), amount, [['CASH', amount]])),
      );
    });
    const soFar = days.filter(({ day }) => day >= first).reduce((sum, { amount }) => sum + amount, 0);
    let rest = 0;
    for (let day = today; day <= last; day = addDays(day, 1)) {
      const same = days.filter((candidate) => isoWeekday(candidate.day) === isoWeekday(day));
      rest += same.reduce((sum, { amount }) => sum + amount, 0) / 4;
    }

    const body = (await agents.operator.get(url(`date=${today}&department=marcom&include_gst=true`))).json();
    const row = body.data.find((candidate: { outlet_id: number }) => candidate.outlet_id === boutique);
    expect(row).toMatchObject({ gto: soFar, projected_gto: Math.round((soFar + rest) * 100) / 100 });
  });
});

describe('an open month kept by the month-projections job', () => {
  const marcomUrl = () => url(`date=${singaporeToday()}&department=marcom&include_gst=true`);
  const projectedOf = (body: { data: { outlet_id: number; projected_gto: number | null }[] }, outlet: number) =>
    body.data.find((row) => row.outlet_id === outlet)?.projected_gto;
  const keptOutlets = async () =>
    // Each outlet's row of its mall's today (Harbour Mall's is New York's).
    (
      await db.pool.query<{ outlet_id: number }>(
        `SELECT p.outlet_id FROM month_projections p
         JOIN outlets o ON o.client_id = p.client_id AND o.id = p.outlet_id
         JOIN malls m ON m.client_id = o.client_id AND m.id = o.mall_id
         WHERE p.client_id = 1 AND p.today = (now() AT TIME ZONE m.time_zone)::date ORDER BY p.outlet_id`,
      )
    ).rows.map((row) => row.outlet_id);
  /** A receipt of cafe's yesterday, a day over, that arrives late (at 13:00 in Singapore). */
  const lateReceipt = (amount: number, id: string) =>
    receipt(cafe, `${addDays(singaporeToday(), -1)}T05:00:00Z`, amount, [['CASH', amount]], { receiptId: id });

  it('answers as the days do, from one row an outlet kept for its today', async () => {
    await db.pool.query('DELETE FROM month_projections');
    const fromDays = (await agents.operator.get(marcomUrl())).json();
    expect(fromDays.month_open).toBe(true);
    expect(await fillMonthProjections(db.pool)).toBeGreaterThanOrEqual(3);
    expect(await keptOutlets()).toEqual(expect.arrayContaining([cafe, boutique, kiosk]));
    // Nothing left to keep until a day changes or the malls' today moves on.
    expect(await fillMonthProjections(db.pool)).toBe(0);
    expect((await agents.operator.get(marcomUrl())).json()).toEqual(fromDays);
  });

  it('forgets an outlet’s kept row when a receipt of a past day arrives, until the next run keeps it again', async () => {
    await fillMonthProjections(db.pool);
    const before = (await agents.operator.get(marcomUrl())).json();
    await inTransaction(db.pool, (client) => ingestReceipts(client, 1, [lateReceipt(350, 'late-1')]));
    expect(await keptOutlets()).not.toContain(cafe);
    expect(await keptOutlets()).toContain(boutique);
    const afterLate = (await agents.operator.get(marcomUrl())).json();
    // Yesterday counts in the four weeks (and in the month so far unless today is the 1st): the projection rises.
    expect(projectedOf(afterLate, cafe)).toBeGreaterThan(projectedOf(before, cafe) ?? 0);
    expect(projectedOf(afterLate, boutique)).toBe(projectedOf(before, boutique));
    expect(await fillMonthProjections(db.pool)).toBe(1);
    expect((await agents.operator.get(marcomUrl())).json()).toEqual(afterLate);
  });

  it('keeps no outlet whose batch is in flight, and a batch waiting for a run forgets what the run kept', async () => {
    await fillMonthProjections(db.pool);
    await db.pool.query('DELETE FROM month_projections WHERE outlet_id = $1', [cafe]);
    // A batch in flight holds cafe (ingestion locks its outlets before it writes their days): the run skips it
    // rather than keep figures the batch is about to change, or wait for it.
    const batch = await db.pool.connect();
    try {
      await batch.query('BEGIN');
      await ingestReceipts(batch, 1, [lateReceipt(20, 'late-2')]);
      expect(await fillMonthProjections(db.pool)).toBe(0);
      expect(await keptOutlets()).not.toContain(cafe);
      await batch.query('COMMIT');
    } finally {
      batch.release();
    }
    expect(await fillMonthProjections(db.pool)).toBe(1);

    // A run holds cafe (FOR SHARE, as fillMonthProjections does) and has kept a row for it, not yet committed: a
    // batch of a past day waits, and once the run commits it removes that row.
    const run = await db.pool.connect();
    const waiting = await db.pool.connect();
    try {
      await db.pool.query('DELETE FROM month_projections WHERE outlet_id = $1', [cafe]);
      await run.query('BEGIN');
      await run.query('SELECT 1 FROM outlets WHERE id = $1 FOR SHARE', [cafe]);
      await run.query(
        `INSERT INTO month_projections (client_id, outlet_id, today, so_far, rest) VALUES (1, $1, $2::date, 0, 0)`,
        [cafe, singaporeToday()],
      );
      await waiting.query('BEGIN');
      const ingest = ingestReceipts(waiting, 1, [lateReceipt(30, 'late-3')]);
      const waited = await Promise.race([
        ingest.then(() => false),
        new Promise<boolean>((resolve) => setTimeout(() => resolve(true), 300)),
      ]);
      expect(waited).toBe(true);
      await run.query('COMMIT');
      await ingest;
      await waiting.query('COMMIT');
    } finally {
      run.release();
      waiting.release();
    }
    expect(await keptOutlets()).not.toContain(cafe);
    const fromDays = (await agents.operator.get(marcomUrl())).json();
    await fillMonthProjections(db.pool);
    expect((await agents.operator.get(marcomUrl())).json()).toEqual(fromDays);
  });
});

describe('setting targets', () => {
  const save = (agent: Agent, body: Record<string, unknown>, csrf?: null) =>
    agent.request('PUT', '/api/mall_report/breakeven_target', { body, ...(csrf === null ? { csrf } : {}) });

  it('sets, changes and removes targets, and audit-logs each change', async () => {
    const response = await save(agents.leasing, {
      client_id: 1,
      department: 'leasing',
      month: '2026-04',
      targets: [
        { outlet_id: cafe, target: 250.555 },
        { outlet_id: boutique, target: 90 },
      ],
    });
    expect(response.statusCode, response.body).toBe(200);
    await save(agents.leasing, {
      client_id: 1,
      department: 'leasing',
      month: '2026-04',
      targets: [
        { outlet_id: cafe, target: 260 },
        { outlet_id: boutique, target: null },
        { outlet_id: kiosk, target: null },
      ],
    });
    const { rows } = await db.pool.query(
      `SELECT outlet_id, target::float8 AS target FROM breakeven_targets
       WHERE client_id = 1 AND department = 'leasing' AND month = '2026-04-01' ORDER BY outlet_id`,
    );
    expect(rows).toEqual([{ outlet_id: cafe, target: 260 }]);
    const audit = await db.pool.query(
      `SELECT action, entity_id, detail FROM audit_log WHERE entity = 'breakeven_target' ORDER BY id`,
    );
    expect(audit.rows).toEqual([
      {
        action: 'create',
        entity_id: `leasing:${cafe}:2026-04`,
        detail: { before: null, after: { department: 'leasing', month: '2026-04', outlet_id: cafe, target: 250.56 } },
      },
      {
        action: 'create',
        entity_id: `leasing:${boutique}:2026-04`,
        detail: { before: null, after: { department: 'leasing', month: '2026-04', outlet_id: boutique, target: 90 } },
      },
      {
        action: 'update',
        entity_id: `leasing:${cafe}:2026-04`,
        detail: {
          before: { department: 'leasing', month: '2026-04', outlet_id: cafe, target: 250.56 },
          after: { department: 'leasing', month: '2026-04', outlet_id: cafe, target: 260 },
        },
      },
      {
        action: 'delete',
        entity_id: `leasing:${boutique}:2026-04`,
        detail: { before: { department: 'leasing', month: '2026-04', outlet_id: boutique, target: 90 }, after: null },
      },
    ]);
  });

  it('refuses an outlet given twice, a negative target, another client’s outlet, and no CSRF token', async () => {
    const body = (targets: unknown[]) => ({ client_id: 1, department: 'leasing', month: '2026-04', targets });
    const twice = await save(
      agents.operator,
      body([
        { outlet_id: cafe, target: 1 },
        { outlet_id: cafe, target: 2 },
      ]),
    );
    expect(twice.statusCode).toBe(400);
    expect(twice.json().message).toContain('targets[1].outlet_id');
    const negative = await save(agents.operator, body([{ outlet_id: cafe, target: -1 }]));
    expect(negative.statusCode).toBe(400);
    expect(negative.json().message).toContain('target');
    expect((await save(agents.operator, body([{ outlet_id: WORLD.outlets.apexShop, target: 1 }]))).statusCode).toBe(
      403,
    );
    expect((await save(agents.tenant, body([{ outlet_id: cafe, target: 1 }]))).statusCode).toBe(403);
    expect((await save(agents.operator, body([{ outlet_id: cafe, target: 1 }]), null)).statusCode).toBe(403);
    const { rows } = await db.pool.query(
      `SELECT target::float8 AS target FROM breakeven_targets
       WHERE client_id = 1 AND department = 'leasing' AND month = '2026-04-01' AND outlet_id = $1`,
      [cafe],
    );
    expect(rows).toEqual([{ target: 260 }]);
  });
});

describe('access', () => {
  it('keeps a department to its own targets', async () => {
    const read = await agents.leasing.get(url('date=2026-03-01&department=marcom&include_gst=true'));
    expect(read.statusCode).toBe(403);
    expect(read.json().message).toBe(OTHER_DEPARTMENT_MESSAGE);
    const write = await agents.leasing.request('PUT', '/api/mall_report/breakeven_target', {
      body: { client_id: 1, department: 'finance', month: '2026-04', targets: [{ outlet_id: cafe, target: 1 }] },
    });
    expect(write.statusCode).toBe(403);
    expect((await agents.leasing.get(url('date=2026-03-01&department=leasing'))).statusCode).toBe(200);
  });

  it('refuses another client’s caller, no session, and a department that does not exist', async () => {
    expect((await agents.otherClient.get(url('date=2026-03-01&department=leasing'))).statusCode).toBe(403);
    expect((await new Agent(app).get(url('date=2026-03-01&department=leasing'))).statusCode).toBe(401);
    const unknown = await agents.operator.get(url('date=2026-03-01&department=sales'));
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toContain('department');
  });
});
