import ExcelJS from 'exceljs';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inTransaction } from '../../server/db/pool.js';
import { buildGtoReviewWorkbook, GTO_REVIEW_WORKBOOK_SHEETS } from '../../server/exports/gtoReviewWorkbook.js';
import { moneyFormat } from '../../server/exports/workbook.js';
import { ingestReceipts } from '../../server/repositories/ingestion.js';
import { ALREADY_SUBMITTED_MESSAGE, MONTH_CLOSED_MESSAGE, NOT_SUBMITTED_MESSAGE } from '../../server/routes/gto.js';
import { currencyFormat, formatMonth } from '../../src/domain/format.js';
import { grossTurnoverRange } from '../../src/domain/gto.js';
import { PASSWORD, receiptInput as receipt, seedWorld, WORLD } from './fixtures.js';
import { Agent, createTestApp, createTestDatabase, defined, signInAgents, type TestDatabase } from './helpers.js';

/*
 * The GTO workflow on the fixture world (Zenith: Central Mall in SGD, Singapore; Harbour Mall in USD, New York).
 * The month under test is the one before Singapore's current month (open until the end of this month):
 *
 *   cafe (Central)      day 2 10:00  100.00,  day 3 10:00  50.00        captured 150.00
 *   boutique (Central)  day 2 12:00  200.00, and a void receipt of 999   captured 200.00
 *   kiosk (Harbour)     nothing                                          captured   0.00
 */
let db: TestDatabase;
let app: FastifyInstance;
let agents: Record<'operator' | 'tenant' | 'otherClient', Agent>;
const { cafe, boutique, kiosk } = WORLD.outlets;

/** 'YYYY-MM' of the month `offset` months from Singapore's current month. */
function singaporeMonth(offset: number): string {
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Singapore' }).format(new Date());
  const [year = 0, month = 0] = today.split('-').map(Number);
  const date = new Date(Date.UTC(year, month - 1 + offset, 1));
  return date.toISOString().slice(0, 7);
}
const MONTH = singaporeMonth(-1);
const day = (n: number) => `${MONTH}-${String(n).padStart(2, '0')}`;
/** The month is due on the client's due day (7 by default) of the following month. */
const DUE_ON = `${singaporeMonth(0)}-07`;
const todayIn = (timeZone: string) => new Intl.DateTimeFormat('en-CA', { timeZone }).format(new Date());

beforeAll(async () => {
  db = await createTestDatabase();
  await seedWorld(db.pool);
  await db.pool.query(
    `INSERT INTO role_api_permissions (role_id, permission)
     SELECT 2, unnest(ARRAY['/api/gtoReport/submissionData::Read', '/api/gtoReport/submissionData::Create',
       '/api/gtoReport/submissionData::Update', '/api/gtoReport/summary::Read', '/api/gtoReport/mallNameOption::Read',
       '/api/gtoReport/outletNameOption::Read', '/api/gtoReport/outletMonths::Read',
       '/api/gtoReport/outletMonths/workbook::Read', '/api/gtoReport/summary/workbook::Read'])`,
  );
  await inTransaction(db.pool, async (client) => {
    await ingestReceipts(client, 1, [
      receipt(cafe, `${day(2)}T02:00:00Z`, 100, [['VISA', 100]]),
      receipt(cafe, `${day(3)}T02:00:00Z`, 50, [['CASH', 50]]),
      receipt(boutique, `${day(2)}T04:00:00Z`, 200, [['VISA', 200]]),
      receipt(boutique, `${day(2)}T05:00:00Z`, 999, [['VISA', 999]], { void: true }),
    ]);
  });
  app = await createTestApp(db.pool);
  agents = await signInAgents(
    app,
    {
      operator: WORLD.users.operator1,
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

const submissionUrl = (outlet: number, month = MONTH, client = 1) =>
  `/api/gtoReport/submissionData?client_id=${client}&outlet_id=${outlet}&searchedMonth=${month}`;

function submit(
  agent: Agent,
  method: 'POST' | 'PUT',
  outlet: number,
  days: { date: string; gto: number }[],
  extra: Record<string, unknown> = {},
) {
  return agent.request(method, '/api/gtoReport/submissionData', {
    body: { client_id: 1, outlet_id: outlet, searchedMonth: MONTH, gtoSubmissionData: days, ...extra },
  });
}

async function auditRows(outlet: number) {
  const { rows } = await db.pool.query<{ action: string; entity: string; detail: Record<string, unknown> }>(
    `SELECT action, entity, detail FROM audit_log WHERE entity = 'gto_submission' AND entity_id = $1 ORDER BY id`,
    [`${outlet}:${MONTH}`],
  );
  return rows;
}

describe('a tenant submits and corrects a month', () => {
  it('shows an open month with nothing submitted yet', async () => {
    const response = await agents.operator.get(submissionUrl(cafe));
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({
      outlet_id: cafe,
      searchedMonth: MONTH,
      gtoSubmissionData: [],
      total: 0,
      submitted: false,
      submitted_at: null,
      submitted_by: null,
      updated_at: null,
      remarks: null,
      open: true,
      currency: 'SGD',
      today: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
    });
  });

  it('stores a submission with its days, total, remarks, who and when, and audits it', async () => {
    const response = await submit(
      agents.operator,
      'POST',
      cafe,
      [
        { date: day(3), gto: 60 },
        { date: day(2), gto: 100.1 },
      ],
      { remarks: '  Excludes GST  ' },
    );
    expect(response.statusCode, response.body).toBe(200);
    const stored = response.json();
    expect(stored).toMatchObject({
      gtoSubmissionData: [
        { date: day(2), gto: 100.1 },
        { date: day(3), gto: 60 },
      ],
      total: 160.1,
      submitted: true,
      submitted_by: WORLD.users.operator1,
      remarks: 'Excludes GST',
      open: true,
    });
    expect(stored.updated_at).toBe(stored.submitted_at);
    expect((await agents.operator.get(submissionUrl(cafe))).json()).toEqual(stored);
    expect(await auditRows(cafe)).toEqual([
      {
        action: 'create',
        entity: 'gto_submission',
        detail: {
          before: null,
          after: {
            outlet_id: cafe,
            month: MONTH,
            total: 160.1,
            days: [
              { date: day(2), gto: 100.1 },
              { date: day(3), gto: 60 },
            ],
            remarks: 'Excludes GST',
          },
        },
      },
    ]);
  });

  it('refuses a second submission of the month (409), changing nothing', async () => {
    const response = await submit(agents.operator, 'POST', cafe, [{ date: day(2), gto: 1 }]);
    expect(response.statusCode).toBe(409);
    expect(response.json().message).toBe(ALREADY_SUBMITTED_MESSAGE);
    expect((await agents.operator.get(submissionUrl(cafe))).json().total).toBe(160.1);
    expect(await auditRows(cafe)).toHaveLength(1);
  });

  it('corrects the month with PUT: the days replaced, before and after in the audit log', async () => {
    const response = await submit(agents.operator, 'PUT', cafe, [
      { date: day(2), gto: 100 },
      { date: day(3), gto: 50 },
    ]);
    expect(response.statusCode, response.body).toBe(200);
    const corrected = response.json();
    expect(corrected).toMatchObject({ total: 150, remarks: null, submitted: true });
    expect(Date.parse(corrected.updated_at)).toBeGreaterThanOrEqual(Date.parse(corrected.submitted_at));
    const audit = await auditRows(cafe);
    expect(audit.map((row) => row.action)).toEqual(['create', 'update']);
    expect(audit[1]?.detail).toMatchObject({
      before: { outlet_id: cafe, month: MONTH, total: 160.1, remarks: 'Excludes GST' },
      after: { outlet_id: cafe, month: MONTH, total: 150, remarks: null },
    });
  });

  it('answers 404 to a correction of a month not submitted', async () => {
    const response = await submit(agents.operator, 'PUT', boutique, [{ date: day(2), gto: 1 }]);
    expect(response.statusCode).toBe(404);
    expect(response.json().message).toBe(NOT_SUBMITTED_MESSAGE);
  });

  it('refuses days outside the month, days given twice and a closed month, naming the field', async () => {
    const outside = await submit(agents.operator, 'POST', boutique, [{ date: `${singaporeMonth(0)}-01`, gto: 1 }]);
    expect(outside.statusCode).toBe(400);
    expect(outside.json().message).toBe(`gtoSubmissionData/0/date must be a day of ${MONTH}.`);
    const twice = await submit(agents.operator, 'POST', boutique, [
      { date: day(2), gto: 1 },
      { date: day(2), gto: 2 },
    ]);
    expect(twice.statusCode).toBe(400);
    expect(twice.json().message).toBe('gtoSubmissionData/1/date is given twice.');
    const closedMonth = singaporeMonth(-3);
    const closed = await agents.operator.request('POST', '/api/gtoReport/submissionData', {
      body: {
        client_id: 1,
        outlet_id: boutique,
        searchedMonth: closedMonth,
        gtoSubmissionData: [{ date: `${closedMonth}-02`, gto: 1 }],
      },
    });
    expect(closed.statusCode).toBe(400);
    expect(closed.json().message).toBe(MONTH_CLOSED_MESSAGE);
    expect((await agents.operator.get(submissionUrl(boutique, closedMonth))).json().open).toBe(false);
    const negative = await submit(agents.operator, 'POST', boutique, [{ date: day(2), gto: -1 }]);
    expect(negative.statusCode).toBe(400);
    expect(negative.json().message).toMatch(/gtoSubmissionData/);
    expect((await agents.operator.get(submissionUrl(boutique))).json().submitted).toBe(false);
  });
});

describe('the mall reviews the month', () => {
  beforeAll(async () => {
    // Boutique declares 250.00 against 200.00 captured: 25 % over, beyond the 5 % threshold.
    const response = await submit(agents.tenant, 'POST', boutique, [{ date: day(2), gto: 250 }]);
    expect(response.statusCode, response.body).toBe(200);
  });

  const summaryUrl = (extra = '') => `/api/gtoReport/summary?client_id=1&date=${day(15)}${extra}`;

  it('lists every outlet with its submission, the captured sales, the variance and the flag', async () => {
    const response = await agents.operator.get(summaryUrl('&sortColumn=outlet_name&orderByMethod=asc'));
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json();
    expect(body.total).toBe(3);
    expect(body.threshold_percent).toBe(5);
    expect(
      body.data.map((row: Record<string, unknown>) => ({ ...row, submitted_at: typeof row.submitted_at })),
    ).toEqual([
      {
        outlet_id: boutique,
        outlet_name: 'Boutique Duo',
        mall_id: WORLD.malls.central,
        mall_name: 'Central Mall',
        month: MONTH,
        gto_amount: 250,
        status: 'submitted',
        submitted_at: 'string',
        currency: 'SGD',
        captured_sales: 200,
        variance_amount: 50,
        variance_percent: 25,
        flagged: true,
        due_on: DUE_ON,
        // Submitted today, in Singapore.
        late: todayIn('Asia/Singapore') > DUE_ON,
        last_reminded_on: null,
      },
      {
        outlet_id: cafe,
        outlet_name: 'Cafe Uno',
        mall_id: WORLD.malls.central,
        mall_name: 'Central Mall',
        month: MONTH,
        gto_amount: 150,
        status: 'submitted',
        submitted_at: 'string',
        currency: 'SGD',
        captured_sales: 150,
        variance_amount: 0,
        variance_percent: 0,
        flagged: false,
        due_on: DUE_ON,
        late: todayIn('Asia/Singapore') > DUE_ON,
        last_reminded_on: null,
      },
      {
        outlet_id: kiosk,
        outlet_name: 'kiosk tres',
        mall_id: WORLD.malls.harbour,
        mall_name: 'Harbour Mall',
        month: MONTH,
        gto_amount: null,
        status: 'notSubmitted',
        submitted_at: 'object',
        currency: 'USD',
        captured_sales: 0,
        variance_amount: null,
        variance_percent: null,
        flagged: false,
        due_on: DUE_ON,
        // Not submitted: late once New York's today is past the due day.
        late: todayIn('America/New_York') > DUE_ON,
        last_reminded_on: null,
      },
    ]);
  });

  it('filters flagged, submitted and missing months, pages and sorts', async () => {
    const ids = async (extra: string) =>
      (await agents.operator.get(summaryUrl(extra))).json().data.map((row: { outlet_id: number }) => row.outlet_id);
    expect(await ids('&filterOption=flagged')).toEqual([boutique]);
    expect(await ids('&filterOption=notSubmitted')).toEqual([kiosk]);
    expect(await ids('&filterOption=submitted&sortColumn=gto_amount&orderByMethod=asc')).toEqual([cafe, boutique]);
    expect(await ids('&sortColumn=variance_percent&orderByMethod=desc')).toEqual([boutique, cafe, kiosk]);
    const page = (
      await agents.operator.get(summaryUrl('&rowsPerPage=2&page=2&sortColumn=outlet_name&orderByMethod=asc'))
    ).json();
    expect(page.total).toBe(3);
    expect(page.data.map((row: { outlet_id: number }) => row.outlet_id)).toEqual([kiosk]);
    expect(await ids(`&mall_ids=${WORLD.malls.harbour}`)).toEqual([kiosk]);
  });

  it('flags by the client’s own threshold', async () => {
    await db.pool.query('UPDATE clients SET gto_variance_threshold = 30 WHERE id = 1');
    try {
      const body = (await agents.operator.get(summaryUrl('&filterOption=flagged'))).json();
      expect(body).toEqual({ data: [], total: 0, threshold_percent: 30 });
    } finally {
      await db.pool.query('UPDATE clients SET gto_variance_threshold = 5 WHERE id = 1');
    }
  });

  it('gives the name options of the malls and outlets the caller sees', async () => {
    expect((await agents.operator.get('/api/gtoReport/mallNameOption?client_id=1')).json()).toEqual({
      data: [
        { id: WORLD.malls.central, name: 'Central Mall' },
        { id: WORLD.malls.harbour, name: 'Harbour Mall' },
      ],
    });
    expect((await agents.tenant.get('/api/gtoReport/outletNameOption?client_id=1')).json()).toEqual({
      data: [{ id: boutique, name: 'Boutique Duo' }],
    });
  });
});

/** The workbook's sheet of rows and its Filters sheet, read back. */
async function readWorkbook(bytes: Buffer | Uint8Array) {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(bytes as unknown as ExcelJS.Buffer);
  const [reviewName] = GTO_REVIEW_WORKBOOK_SHEETS;
  const rows: ExcelJS.Row[] = [];
  workbook.getWorksheet(reviewName)?.eachRow((row, number) => {
    if (number > 1) rows.push(row);
  });
  const filters = new Map<unknown, unknown>();
  workbook.getWorksheet('Filters')?.eachRow((row) => {
    filters.set(row.getCell(1).value, row.getCell(2).value);
  });
  return { sheets: workbook.worksheets.map((sheet) => sheet.name), rows, filters };
}

/** A row's cells 1..14 (Outlet .. Last reminder), the instant to the second. */
const cellsOf = (row: ExcelJS.Row) =>
  Array.from({ length: 14 }, (_, index) => {
    const value = row.getCell(index + 1).value;
    return value instanceof Date ? value.toISOString().slice(0, 19) : value;
  });

describe('the review as one workbook', () => {
  const workbookUrl = (extra = '') => `/api/gtoReport/summary/workbook?client_id=1&date=${day(15)}${extra}`;

  it('holds the month’s whole list as the summary answers it, each amount in its row’s currency', async () => {
    const response = await agents.operator.get(workbookUrl());
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-disposition']).toBe(`attachment; filename="gto-review_${MONTH}.xlsx"`);
    const { sheets, rows, filters } = await readWorkbook(response.rawPayload);
    expect(sheets).toEqual(['GTO review', 'Filters']);
    // The summary's rows, fetched a page of 2 at a time in the page's default order (outlet name, A to Z).
    const answered: Record<string, unknown>[] = [];
    for (let page = 1; answered.length < 3 && page <= 3; page += 1) {
      const summary = await agents.operator.get(
        `/api/gtoReport/summary?client_id=1&date=${day(15)}&sortColumn=outlet_name&orderByMethod=asc&rowsPerPage=2&page=${page}`,
      );
      answered.push(...summary.json().data);
    }
    expect(answered).toHaveLength(3);
    expect(rows.map(cellsOf)).toEqual(
      answered.map((row) => [
        row.outlet_name,
        row.mall_name,
        row.month,
        row.currency,
        row.gto_amount,
        row.captured_sales,
        row.variance_amount,
        row.variance_percent,
        row.status === 'submitted' ? 'Submitted' : 'Not submitted',
        row.flagged ? 'Yes' : 'No',
        row.late ? 'Yes' : 'No',
        row.submitted_at === null ? null : String(row.submitted_at).slice(0, 19),
        `${row.due_on}T00:00:00`,
        row.last_reminded_on,
      ]),
    );
    // By hand, from the fixture: Boutique declared 250.00 against 200.00 captured (the void 999 left out), +50.00,
    // 25 % over the 5 % threshold: flagged; Cafe 150.00 against 150.00; the kiosk declared nothing, captured 0.00.
    expect(rows.map((row) => cellsOf(row).slice(0, 11))).toEqual([
      ['Boutique Duo', 'Central Mall', MONTH, 'SGD', 250, 200, 50, 25, 'Submitted', 'Yes', expect.any(String)],
      ['Cafe Uno', 'Central Mall', MONTH, 'SGD', 150, 150, 0, 0, 'Submitted', 'No', expect.any(String)],
      ['kiosk tres', 'Harbour Mall', MONTH, 'USD', null, 0, null, null, 'Not submitted', 'No', expect.any(String)],
    ]);
    // Each amount in its row's currency's format (Singapore dollars, then US dollars), the currency named beside.
    const formatOf = (currency: string) =>
      moneyFormat(currencyFormat(currency).symbol, currencyFormat(currency).digits);
    expect(rows[0]?.getCell(6).numFmt).toBe(formatOf('SGD'));
    expect(rows[2]?.getCell(6).numFmt).toBe(formatOf('USD'));
    expect(filters.get('Client')).toBe('Zenith Malls');
    expect(filters.get('Malls')).toBe('Central Mall, Harbour Mall');
    expect(filters.get('Month')).toBe(MONTH);
    expect(filters.get('Status')).toBe('All');
    expect(filters.get('Flagged')).toBe(
      'Flagged: declared GTO differs from the sales captured from receipts by more than 5%.',
    );
    expect(filters.get('Rows')).toBe('All 3');
  });

  it('keeps to what the caller sees: the tenant’s own outlet, never another client’s', async () => {
    const own = await agents.tenant.get(workbookUrl());
    expect(own.statusCode, own.body).toBe(200);
    const { rows, filters } = await readWorkbook(own.rawPayload);
    expect(rows.map((row) => row.getCell(1).value)).toEqual(['Boutique Duo']);
    expect(filters.get('Malls')).toBe('Central Mall');
    expect((await agents.otherClient.get(workbookUrl())).statusCode).toBe(403);
    expect((await agents.tenant.get(workbookUrl(`&mall_ids=${WORLD.malls.harbour}`))).statusCode).toBe(403);
    // The page's filters narrow it as they narrow the summary.
    const flagged = await agents.operator.get(workbookUrl('&filterOption=flagged'));
    const narrowed = await readWorkbook(flagged.rawPayload);
    expect(narrowed.rows.map((row) => row.getCell(1).value)).toEqual(['Boutique Duo']);
    expect(narrowed.filters.get('Status')).toBe('Flagged');
    const bad = await agents.operator.get('/api/gtoReport/summary/workbook?client_id=1&date=2026-13-01');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/date/);
  });

  it('stops at its bound and says so on the Filters sheet', async () => {
    const built = await buildGtoReviewWorkbook(
      db.pool,
      { visibility: { clientIds: [1], outletLimits: new Map() }, email: 'someone@fixture.test' },
      { client_id: 1, month: MONTH },
      { maxRows: 2 },
    );
    expect(built.name).toBe(`gto-review_${MONTH}.xlsx`);
    const { rows, filters } = await readWorkbook(built.bytes);
    expect(rows.map((row) => row.getCell(1).value)).toEqual(['Boutique Duo', 'Cafe Uno']);
    expect(filters.get('Rows')).toBe('The first 2 of 3: a workbook holds at most 2 rows');
  });
});

describe('access', () => {
  it('shows a tenant its own outlets only, and refuses another outlet by any id', async () => {
    const summary = (await agents.tenant.get(`/api/gtoReport/summary?client_id=1&date=${day(1)}`)).json();
    expect(summary.data.map((row: { outlet_id: number }) => row.outlet_id)).toEqual([boutique]);
    expect((await agents.tenant.get(submissionUrl(cafe))).statusCode).toBe(403);
    expect((await submit(agents.tenant, 'PUT', cafe, [{ date: day(2), gto: 1 }])).statusCode).toBe(403);
  });

  it('refuses another client’s caller, a caller without a session, and a write without the CSRF token', async () => {
    expect((await agents.otherClient.get(submissionUrl(cafe))).statusCode).toBe(403);
    expect((await agents.otherClient.get(`/api/gtoReport/summary?client_id=1&date=${day(1)}`)).statusCode).toBe(403);
    expect((await new Agent(app).get(submissionUrl(cafe))).statusCode).toBe(401);
    const noCsrf = await agents.operator.request('PUT', '/api/gtoReport/submissionData', {
      body: { client_id: 1, outlet_id: cafe, searchedMonth: MONTH, gtoSubmissionData: [{ date: day(2), gto: 1 }] },
      csrf: null,
    });
    expect(noCsrf.statusCode).toBe(403);
    expect((await agents.operator.get(submissionUrl(cafe))).json().total).toBe(150);
  });
});

describe('an outlet’s months', () => {
  const monthsUrl = (outlet: number, from: string, to: string) =>
    `/api/gtoReport/outletMonths?client_id=1&outlet_id=${outlet}&from=${from}&to=${to}`;

  it('gives the declared GTO beside the captured sales and their difference, month by month', async () => {
    const before = singaporeMonth(-2);
    const response = await agents.operator.get(monthsUrl(boutique, before, MONTH));
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json();
    expect(body.currency).toBe('SGD');
    expect(body.data).toEqual([
      { month: before, declared: null, captured: 0, difference: null, difference_percent: null, submitted_at: null },
      {
        month: MONTH,
        declared: 250,
        captured: 200,
        difference: 50,
        difference_percent: 25,
        submitted_at: expect.any(String),
      },
    ]);
    expect((await agents.tenant.get(monthsUrl(boutique, MONTH, MONTH))).statusCode).toBe(200);
  });

  it('refuses months out of order or more than 24 of them, and another outlet', async () => {
    const reversed = await agents.operator.get(monthsUrl(cafe, MONTH, singaporeMonth(-3)));
    expect(reversed.statusCode).toBe(400);
    expect(reversed.json().message).toMatch(/^from must not be after to/);
    const long = await agents.operator.get(monthsUrl(cafe, singaporeMonth(-25), MONTH));
    expect(long.statusCode).toBe(400);
    expect(long.json().message).toBe('to: a range spans at most 24 months.');
    expect((await agents.operator.get(monthsUrl(cafe, singaporeMonth(-24), MONTH))).statusCode).toBe(200);
    expect((await agents.tenant.get(monthsUrl(cafe, MONTH, MONTH))).statusCode).toBe(403);
  });

  it('as one workbook: the page’s months of the year to the month, in its columns and the outlet’s currency', async () => {
    const workbookUrl = (outlet: number, month = MONTH) =>
      `/api/gtoReport/outletMonths/workbook?client_id=1&outlet_id=${outlet}&month=${month}`;
    const response = await agents.operator.get(workbookUrl(boutique));
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-disposition']).toBe(`attachment; filename="gross-turnover_${MONTH}.xlsx"`);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(response.rawPayload as unknown as ExcelJS.Buffer);
    expect(workbook.worksheets.map((sheet) => sheet.name)).toEqual(['Months', 'Filters']);
    const sheet = defined(workbook.getWorksheet('Months'), 'Months');
    expect((sheet.getRow(1).values as unknown[]).slice(1)).toEqual([
      'Month',
      'Declared GTO',
      'Captured sales',
      'Difference',
      'Difference %',
    ]);
    const rows: unknown[][] = [];
    sheet.eachRow((row, number) => {
      if (number > 1) rows.push([1, 2, 3, 4, 5].map((column) => row.getCell(column).value));
    });
    // The page's answer for its twelve months (grossTurnoverRange), row by row, as the page shows it.
    const range = grossTurnoverRange(MONTH);
    const answer = await agents.operator.get(monthsUrl(boutique, range.from, range.to));
    expect(answer.statusCode, answer.body).toBe(200);
    const page = answer.json() as {
      data: {
        month: string;
        declared: number | null;
        captured: number;
        difference: number | null;
        difference_percent: number | null;
      }[];
    };
    expect(rows).toEqual(
      page.data.map((row) => [
        formatMonth(row.month),
        row.declared ?? 'Not submitted',
        row.captured,
        row.difference,
        row.difference_percent === null ? null : row.difference_percent / 100,
      ]),
    );
    // By hand: eleven months with nothing, then the month: 250.00 declared against the 200.00 captured, +25.00 %.
    expect(rows).toHaveLength(12);
    expect(rows[0]).toEqual([formatMonth(range.from), 'Not submitted', 0, null, null]);
    expect(rows[11]).toEqual([formatMonth(MONTH), 250, 200, 50, 0.25]);
    const sgd = currencyFormat('SGD');
    expect(sheet.getRow(13).getCell(2).numFmt).toBe(moneyFormat(sgd.symbol, sgd.digits));
    expect(sheet.getRow(13).getCell(5).numFmt).toBe('0.00%');
    const filters = new Map<unknown, unknown>();
    workbook.getWorksheet('Filters')?.eachRow((row) => {
      filters.set(row.getCell(1).value, row.getCell(2).value);
    });
    expect(filters.get('Client')).toBe('Zenith Malls');
    expect(filters.get('Malls')).toBe('Central Mall');
    expect(filters.get('Month')).toBe(MONTH);
    expect(filters.get('Outlet')).toBe('Boutique Duo');
    expect(filters.get('Currency')).toBe("SGD (the outlet's own)");
    expect(filters.get('From')).toEqual(new Date(`${range.from}-01T00:00:00Z`));

    // Nothing declared nor captured in the year: 'No Data', as the page says it, in the kiosk's dollars.
    const empty = await agents.operator.get(workbookUrl(kiosk));
    expect(empty.statusCode, empty.body).toBe(200);
    const emptyBook = new ExcelJS.Workbook();
    await emptyBook.xlsx.load(empty.rawPayload as unknown as ExcelJS.Buffer);
    expect(emptyBook.getWorksheet('Months')?.getRow(2).getCell(1).value).toBe('No Data');
    expect(emptyBook.getWorksheet('Months')?.rowCount).toBe(2);

    // The tenant takes its own outlet's, not another's nor another client's; a month that is none is refused.
    expect((await agents.tenant.get(workbookUrl(boutique))).statusCode).toBe(200);
    expect((await agents.tenant.get(workbookUrl(cafe))).statusCode).toBe(403);
    expect((await agents.otherClient.get(workbookUrl(boutique))).statusCode).toBe(403);
    const notMonth = await agents.operator.get(workbookUrl(boutique, `${MONTH.slice(0, 4)}-13`));
    expect(notMonth.statusCode).toBe(400);
    expect(notMonth.json().message).toMatch(/month/);
  });
});
