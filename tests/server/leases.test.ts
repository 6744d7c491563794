import ExcelJS from 'exceljs';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inTransaction } from '../../server/db/pool.js';
import { RENT_WORKBOOK_SHEETS } from '../../server/exports/rentStatementsWorkbook.js';
import { moneyFormat } from '../../server/exports/workbook.js';
import { ingestReceipts } from '../../server/repositories/ingestion.js';
import { fillMonthProjections } from '../../server/repositories/monthFigures.js';
import { currencyFormat } from '../../src/domain/format.js';
import { LEASE_MESSAGES } from '../../src/domain/leases.js';
import {
  leaseTermsInWords,
  NO_DECLARATION_NOTE,
  NO_LEASE_MESSAGE,
  statementLines,
} from '../../src/domain/rentStatements.js';
import {
  ACCESS_CALLERS,
  grantOperatorPermissions,
  PASSWORD,
  receiptInput as receipt,
  seedWorld,
  WORLD,
} from './fixtures.js';
import { type Agent, createTestApp, createTestDatabase, signInAgents, type TestDatabase } from './helpers.js';

/*
 * Leases and their rent on the fixture world: Zenith's Central Mall (Singapore, GST 9 %) has Cafe Uno and Boutique
 * Duo, Harbour Mall (New York, USD) kiosk tres. September 2026 (30 days, over in every zone) is the month of the
 * statements; every figure below is computed by hand.
 */
let db: TestDatabase;
let app: FastifyInstance;
let agents: Record<'operator' | 'tenant' | 'otherClient' | 'noPermission', Agent>;
const { cafe, boutique, kiosk } = WORLD.outlets;
const { central, harbour } = WORLD.malls;

beforeAll(async () => {
  db = await createTestDatabase();
  await seedWorld(db.pool);
  await grantOperatorPermissions(db.pool, [
    '/api/leases::Read',
    '/api/leases::Create',
    '/api/leases::Update',
    '/api/rentStatements::Read',
    '/api/rentStatements/workbook::Read',
    '/api/tenant/rentStatement::Read',
    '/api/tenant/rentStatement/workbook::Read',
    '/api/occupancyBands::Read',
    '/api/occupancyBands::Update',
    '/api/gtoReport/summary::Read',
  ]);
  await db.pool.query('UPDATE malls SET gst_percent = 9 WHERE id = $1', [central]);
  await inTransaction(db.pool, (client) =>
    ingestReceipts(client, 1, [
      // Cafe Uno captures 250,000 in September and declares 200,000.
      receipt(cafe, '2026-09-02T02:00:00Z', 150_000, [['VISA', 150_000]]),
      receipt(cafe, '2026-09-20T02:00:00Z', 100_000, [['VISA', 100_000]]),
      receipt(cafe, '2026-09-21T02:00:00Z', 5_000, [['VISA', 5_000]], { void: true }),
      // Boutique Duo captures 70,000 and declares nothing.
      receipt(boutique, '2026-09-15T04:00:00Z', 70_000, [['VISA', 70_000]]),
    ]),
  );
  await db.pool.query(
    `INSERT INTO gto_submissions (client_id, outlet_id, month, gto_amount) VALUES (1, $1, '2026-09-01', 200000)`,
    [cafe],
  );
  app = await createTestApp(db.pool);
  agents = await signInAgents(app, ACCESS_CALLERS, PASSWORD);
});
afterAll(async () => {
  await app?.close();
  await db?.drop();
});

const PATH = '/api/leases';
const cafeLease = (overrides: Record<string, unknown> = {}) => ({
  client_id: 1,
  outlet_id: cafe,
  start_date: '2026-01-01',
  end_date: '2027-12-31',
  gla_sqm: 120,
  base_rent: 10_000,
  service_charge: 1_500,
  turnover_rent: {
    model: 'higher_of',
    tiers: [
      { from: 0, rate_percent: 8 },
      { from: 200_000, rate_percent: 10 },
    ],
  },
  notice_date: '2027-06-30',
  renewal_date: null,
  ...overrides,
});
const boutiqueLease = {
  client_id: 1,
  outlet_id: boutique,
  start_date: '2026-09-11',
  end_date: '2029-09-10',
  gla_sqm: 60,
  base_rent: 9_000,
  service_charge: 1_200,
  turnover_rent: { model: 'base_plus_overage', tiers: [{ from: 90_000, rate_percent: 12 }] },
};
const statementsUrl = (malls: number[], month = '2026-09') =>
  `/api/rentStatements?client_id=1&month=${month}&${malls.map((id) => `mall_ids=${id}`).join('&')}`;

let cafeLeaseId = 0;

describe('POST and PUT /api/leases', () => {
  it('adds a lease with its audit row and answers it as stored', async () => {
    const created = await agents.operator.request('POST', PATH, { body: cafeLease() });
    expect(created.statusCode).toBe(200);
    const lease = created.json();
    cafeLeaseId = lease.id;
    expect(lease).toMatchObject({
      outlet_id: cafe,
      outlet_name: 'Cafe Uno',
      outlet_code: 'C-01',
      mall_id: central,
      mall_name: 'Central Mall',
      currency: 'SGD',
      gst_percent: 9,
      start_date: '2026-01-01',
      end_date: '2027-12-31',
      gla_sqm: 120,
      base_rent: 10_000,
      turnover_rent: {
        model: 'higher_of',
        tiers: [
          { from: 0, rate_percent: 8 },
          { from: 200_000, rate_percent: 10 },
        ],
      },
      notice_date: '2027-06-30',
      renewal_date: null,
    });
    const { rows } = await db.pool.query(
      `SELECT action, detail FROM audit_log WHERE entity = 'lease' AND entity_id = $1 ORDER BY id`,
      [lease.id],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0].action).toBe('create');
    const second = await agents.operator.request('POST', PATH, { body: boutiqueLease });
    expect(second.statusCode).toBe(200);
  });

  it('refuses the rules between fields with 400 naming the field', async () => {
    const refused = async (body: Record<string, unknown>, field: string, message?: string) => {
      const response = await agents.operator.request('POST', PATH, { body });
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json().message).toContain(field);
      if (message) expect(response.json().message).toBe(`${field}: ${message}`);
    };
    // Overlapping terms: Cafe Uno is leased until the end of 2027.
    await refused(
      cafeLease({ start_date: '2027-12-31', end_date: '2028-12-31', notice_date: null }),
      'start_date',
      LEASE_MESSAGES.overlapping,
    );
    await refused(
      cafeLease({
        outlet_id: kiosk,
        start_date: '2026-01-01',
        turnover_rent: {
          model: 'higher_of',
          tiers: [
            { from: 0, rate_percent: 8 },
            { from: 0, rate_percent: 10 },
          ],
        },
      }),
      'turnover_rent.tiers.1.from',
      LEASE_MESSAGES.tiersNotAscending,
    );
    await refused(
      cafeLease({ outlet_id: kiosk, turnover_rent: { model: 'higher_of', tiers: [{ from: 0, rate_percent: -1 }] } }),
      'rate_percent',
    );
    await refused(
      cafeLease({ outlet_id: kiosk, start_date: '2026-05-01', end_date: '2026-04-30' }),
      'end_date',
      LEASE_MESSAGES.endBeforeStart,
    );
    await refused(
      cafeLease({ outlet_id: kiosk, notice_date: '2028-01-01' }),
      'notice_date',
      LEASE_MESSAGES.noticeAfterEnd,
    );
    await refused(cafeLease({ outlet_id: kiosk, gla_sqm: 0 }), 'gla_sqm');
    const { rows } = await db.pool.query('SELECT count(*)::int AS n FROM leases WHERE outlet_id = $1', [kiosk]);
    expect(rows[0].n).toBe(0);
  });

  it('changes a lease with before and after in the audit log; another outlet or an unknown id is refused', async () => {
    const changed = await agents.operator.request('PUT', PATH, {
      body: { ...cafeLease({ service_charge: 1_600 }), id: cafeLeaseId },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json().service_charge).toBe(1_600);
    const { rows } = await db.pool.query(
      `SELECT detail FROM audit_log WHERE entity = 'lease' AND entity_id = $1 AND action = 'update'`,
      [cafeLeaseId],
    );
    expect(JSON.stringify(rows[0].detail)).toContain('1600');
    const moved = await agents.operator.request('PUT', PATH, {
      body: { ...cafeLease({ outlet_id: kiosk }), id: cafeLeaseId },
    });
    expect(moved.statusCode).toBe(400);
    expect(moved.json().message).toBe(`outlet_id: ${LEASE_MESSAGES.otherOutlet}`);
    const unknown = await agents.operator.request('PUT', PATH, { body: { ...cafeLease(), id: 999_999 } });
    expect(unknown.statusCode).toBe(404);
    // Back to the terms the statements below are computed from.
    const back = await agents.operator.request('PUT', PATH, { body: { ...cafeLease(), id: cafeLeaseId } });
    expect(back.statusCode).toBe(200);
  });

  it('a tenant changes no lease of an outlet it does not see', async () => {
    const response = await agents.tenant.request('PUT', PATH, { body: { ...cafeLease(), id: cafeLeaseId } });
    expect(response.statusCode).toBe(403);
    const other = await agents.otherClient.request('POST', PATH, { body: cafeLease({ outlet_id: kiosk }) });
    expect(other.statusCode).toBe(403);
  });
});

describe('GET /api/leases', () => {
  it('lists, searches, filters and sorts the leases of the selected malls', async () => {
    const list = async (query: string) => {
      const response = await agents.operator.get(`${PATH}?client_id=1&${query}`);
      expect(response.statusCode, response.body).toBe(200);
      return response.json() as { data: { outlet_name: string }[]; total: number };
    };
    const all = await list(`mall_ids=${central}&sortColumn=outlet_name&orderByMethod=asc`);
    expect(all.total).toBe(2);
    expect(all.data.map((row) => row.outlet_name)).toEqual(['Boutique Duo', 'Cafe Uno']);
    expect((await list(`search=c-0`)).data.map((row) => row.outlet_name)).toEqual(['Cafe Uno']);
    expect((await list(`mall_ids=${harbour}`)).total).toBe(0);
    const byRent = await list('sortColumn=base_rent&orderByMethod=desc');
    expect(byRent.data.map((row) => row.outlet_name)).toEqual(['Cafe Uno', 'Boutique Duo']);
    // Cafe Uno's lease ends 2027-12-31 and its notice date is 2027-06-30: within 12 months of today (Dec 2026).
    expect((await list('expiring_within_months=12')).data.map((row) => row.outlet_name)).toEqual(['Cafe Uno']);
    expect((await list('expiring_within_months=3')).total).toBe(0);
    expect((await list('status=ended')).total).toBe(0);
  });

  it('shows the tenant its own outlet’s lease only', async () => {
    const response = await agents.tenant.get(`${PATH}?client_id=1`);
    expect(response.json().data.map((row: { outlet_id: number }) => row.outlet_id)).toEqual([boutique]);
  });
});

describe('GET /api/rentStatements (hand-computed)', () => {
  it('the rent on declared and on captured sales, the rent at stake, sorted by it', async () => {
    const response = await agents.operator.get(statementsUrl([central, harbour]));
    expect(response.statusCode, response.body).toBe(200);
    const report = response.json();
    expect(report).toMatchObject({ month: '2026-09', partial: false, threshold_percent: 5 });
    expect(report.rows).toHaveLength(2);
    // Cafe Uno, higher_of with two tiers, the whole month. Captured 250,000 (the void receipt left out): P = 200,000
    // × 8 % + 50,000 × 10 % = 21,000, turnover rent 21,000 − 10,000 = 11,000. Declared 200,000: P = 16,000,
    // turnover rent 6,000. At stake 5,000. Due on the declaration: 10,000 + 6,000 + 1,500 = 17,500, GST 9 % 1,575,
    // total 19,075. Occupancy cost on the captured sales: 22,500 / 250,000 = 9 %; sales per m² 250,000 × 12 / 120.
    expect(report.rows[0]).toEqual({
      lease_id: cafeLeaseId,
      outlet_id: cafe,
      outlet_name: 'Cafe Uno',
      mall_id: central,
      mall_name: 'Central Mall',
      category: 'Others',
      level: 'L1',
      currency: 'SGD',
      model: 'higher_of',
      gla_sqm: 120,
      days_leased: 30,
      days_in_month: 30,
      partial: false,
      basis: 'declared',
      sales_declared: 200_000,
      sales_captured: 250_000,
      sales_projected: null,
      base_rent: 10_000,
      turnover_rent_declared: 6_000,
      turnover_rent_captured: 11_000,
      turnover_rent_projected: null,
      rent_at_stake: 5_000,
      service_charge: 1_500,
      gst_percent: 9,
      gst: 1_575,
      total_due: 19_075,
      occupancy_cost_ratio: 9,
      sales_per_sqm: 25_000,
      flagged: true,
      invoice_number: null,
      // 'Others' is no kind the industry publishes a band for, and the client has set none yet.
      band_low_percent: null,
      band_high_percent: null,
      band_position: null,
    });
    // Boutique Duo, base_plus_overage from the 11th: 20 of 30 days. Base 9,000 × 20/30 = 6,000, service 800, the
    // breakpoint 90,000 × 20/30 = 60,000; captured 70,000 and no declaration: turnover rent (70,000 − 60,000) × 12 %
    // = 1,200 on the captured sales. Due 8,000, GST 720, total 8,720.
    expect(report.rows[1]).toMatchObject({
      outlet_name: 'Boutique Duo',
      model: 'base_plus_overage',
      days_leased: 20,
      basis: 'captured',
      sales_declared: null,
      sales_captured: 70_000,
      base_rent: 6_000,
      turnover_rent_declared: null,
      turnover_rent_captured: 1_200,
      rent_at_stake: 0,
      service_charge: 800,
      gst: 720,
      total_due: 8_720,
      flagged: false,
      // 8,000 / 70,000 = 11.43 %; 70,000 × 30/20 × 12 / 60 = 21,000.
      occupancy_cost_ratio: 11.43,
      sales_per_sqm: 21_000,
    });
  });

  it('flags the outlets the GTO review flags (one rule for both pages)', async () => {
    const statements = (await agents.operator.get(statementsUrl([central, harbour]))).json();
    const review = await agents.operator.get('/api/gtoReport/summary?client_id=1&date=2026-09-15&rowsPerPage=100');
    expect(review.statusCode, review.body).toBe(200);
    const reviewFlags = new Map<number, boolean>(
      review.json().data.map((row: { outlet_id: number; flagged: boolean }) => [row.outlet_id, row.flagged]),
    );
    const flags = statements.rows.map((row: { outlet_id: number; flagged: boolean }) => [row.outlet_id, row.flagged]);
    expect(flags).toEqual([
      [cafe, true],
      [boutique, false],
    ]);
    for (const [outlet, flagged] of flags) expect(reviewFlags.get(outlet)).toBe(flagged);
  });

  it('as one workbook: every statement in its currency’s format, the totals per currency, the groups', async () => {
    const response = await agents.operator.get(
      statementsUrl([central, harbour]).replace('rentStatements?', 'rentStatements/workbook?'),
    );
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-disposition']).toBe('attachment; filename="rent-statements_2026-09.xlsx"');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(response.rawPayload as unknown as ExcelJS.Buffer);
    expect(workbook.worksheets.map((sheet) => sheet.name)).toEqual([...RENT_WORKBOOK_SHEETS, 'Filters']);
    const sheetRows = (name: string) => {
      const rows: ExcelJS.Row[] = [];
      workbook.getWorksheet(name)?.eachRow((row, number) => {
        if (number > 1) rows.push(row);
      });
      return rows;
    };
    const report = (await agents.operator.get(statementsUrl([central, harbour]))).json();
    const statements = sheetRows('Statements');
    // The rows of the page's answer, in its order: outlet, currency, declared GTO, rent at stake, total due.
    expect(statements.map((row) => [1, 5, 11, 18, 22].map((column) => row.getCell(column).value))).toEqual(
      report.rows.map((row: Record<string, unknown>) => [
        row.outlet_name,
        row.currency,
        row.sales_declared,
        row.rent_at_stake,
        row.total_due,
      ]),
    );
    const sgd = currencyFormat('SGD');
    expect(statements[0]?.getCell(22).numFmt).toBe(moneyFormat(sgd.symbol, sgd.digits));
    // Hand-computed: two SGD leases, Cafe Uno flagged, due 19,075 + 8,720 = 27,795, at stake 5,000.
    const [totals] = sheetRows('Totals per currency');
    expect([1, 2, 3, 7, 10].map((column) => totals?.getCell(column).value)).toEqual(['SGD', 2, 1, 5_000, 27_795]);
    expect(sheetRows('Groups').map((row) => row.getCell(2).value)).toContain('Central Mall');
    const filters = new Map(sheetRows('Filters').map((row) => [String(row.getCell(1).value), row.getCell(2).value]));
    expect(filters.get('Month')).toBe('2026-09');
    // The tenant's workbook holds its own outlet's statement only; another client's mall is refused.
    const tenantBook = await agents.tenant.get(
      statementsUrl([central]).replace('rentStatements?', 'rentStatements/workbook?'),
    );
    expect(tenantBook.statusCode, tenantBook.body).toBe(200);
    const tenantWorkbook = new ExcelJS.Workbook();
    await tenantWorkbook.xlsx.load(tenantBook.rawPayload as unknown as ExcelJS.Buffer);
    const tenantOutlets: unknown[] = [];
    tenantWorkbook.getWorksheet('Statements')?.eachRow((row, number) => {
      if (number > 1) tenantOutlets.push(row.getCell(1).value);
    });
    expect(tenantOutlets).toEqual(['Boutique Duo']);
    const refused = await agents.operator.get(
      statementsUrl([WORLD.malls.apexPlaza]).replace('rentStatements?', 'rentStatements/workbook?'),
    );
    expect(refused.statusCode).toBe(403);
  });

  it('a month before any lease has no rows; a month not over is partial with a projection', async () => {
    expect((await agents.operator.get(statementsUrl([central], '2025-12'))).json().rows).toEqual([]);
    const now = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Singapore' }).format(new Date()).slice(0, 7);
    const open = (await agents.operator.get(statementsUrl([central], now))).json();
    expect(open.partial).toBe(true);
    expect(open.rows.every((row: { partial: boolean; sales_projected: number | null }) => row.partial)).toBe(true);
    expect(open.rows.every((row: { sales_projected: number | null }) => row.sales_projected !== null)).toBe(true);
  });

  it('projects an open month the same from the outlets’ days as from the rows the month-projections job keeps', async () => {
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Singapore' }).format(new Date());
    const daysBack = (days: number) => new Date(Date.parse(`${today}T04:00:00Z`) - days * 86_400_000).toISOString();
    const leased = (await agents.operator.get(statementsUrl([central], today.slice(0, 7)))).json().rows[0];
    const outlet: number = leased.outlet_id;
    await inTransaction(db.pool, (client) =>
      ingestReceipts(
        client,
        1,
        [0, 1, 8, 15, 22].map((back) =>
          receipt(outlet, daysBack(back), 40 + back, [['CASH', 40 + back]], { receiptId: `projection-${back}` }),
        ),
      ),
    );
    await db.pool.query('DELETE FROM month_projections');
    const fromDays = (await agents.operator.get(statementsUrl([central], today.slice(0, 7)))).json();
    const row = fromDays.rows.find((candidate: { outlet_id: number }) => candidate.outlet_id === outlet);
    expect(row.sales_projected).toBeGreaterThan(row.sales_captured);
    expect(await fillMonthProjections(db.pool)).toBeGreaterThan(0);
    expect((await agents.operator.get(statementsUrl([central], today.slice(0, 7)))).json()).toEqual(fromDays);
  });

  it('the tenant reads only its own outlet’s statement', async () => {
    const mine = await agents.tenant.get(`/api/tenant/rentStatement?client_id=1&outlet_id=${boutique}&month=2026-09`);
    expect(mine.statusCode, mine.body).toBe(200);
    expect(mine.json()).toMatchObject({
      month: '2026-09',
      outlet_id: boutique,
      currency: 'SGD',
      lease: { outlet_id: boutique, start_date: '2026-09-11' },
      statement: {
        days_leased: 20,
        days_in_month: 30,
        partial: false,
        basis: 'captured',
        sales: 70_000,
        base_rent: 6_000,
        percentage_rent: 1_200,
        turnover_rent: 1_200,
        service_charge: 800,
        gst_percent: 9,
        gst: 720,
        total_due: 8_720,
        tiers: [{ from: 60_000, to: null, rate_percent: 12, turnover: 10_000, rent: 1_200 }],
        invoice_number: null,
      },
    });
    const other = await agents.tenant.get(`/api/tenant/rentStatement?client_id=1&outlet_id=${cafe}&month=2026-09`);
    expect(other.statusCode).toBe(403);
    const none = await agents.operator.get(`/api/tenant/rentStatement?client_id=1&outlet_id=${kiosk}&month=2026-09`);
    expect(none.json()).toEqual({ month: '2026-09', outlet_id: kiosk, currency: 'USD' });
  });

  it('the tenant’s statement as one workbook: the lease’s terms and the month’s lines as the page words them', async () => {
    const workbookUrl = (outlet: number, month = '2026-09') =>
      `/api/tenant/rentStatement/workbook?client_id=1&outlet_id=${outlet}&month=${month}`;
    const response = await agents.tenant.get(workbookUrl(boutique));
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-disposition']).toBe('attachment; filename="rent-statement_2026-09.xlsx"');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(response.rawPayload as unknown as ExcelJS.Buffer);
    expect(workbook.worksheets.map((sheet) => sheet.name)).toEqual(['Lease terms', 'Rent', 'Filters']);
    const rowsOf = (book: ExcelJS.Workbook, name: string) => {
      const rows: unknown[][] = [];
      book.getWorksheet(name)?.eachRow((row, number) => {
        if (number > 1) rows.push([row.getCell(1).value, row.getCell(2).value]);
      });
      return rows;
    };
    // The page's answer, in the page's words.
    const answer = (
      await agents.tenant.get(`/api/tenant/rentStatement?client_id=1&outlet_id=${boutique}&month=2026-09`)
    ).json();
    const lines = statementLines(answer.statement, answer.lease.turnover_rent.model, answer.currency);
    expect(rowsOf(workbook, 'Lease terms')).toEqual(
      leaseTermsInWords(answer.lease).map((term) => [term.label, term.text]),
    );
    expect(rowsOf(workbook, 'Rent')).toEqual([...lines.lines, lines.total].map((line) => [line.text, line.amount]));
    // By hand: 70,000 captured; 20 of 30 days of 9,000 base rent and 1,200 service charge; 12 % of the 10,000 above
    // the prorated 60,000 breakpoint; 9 % GST on 8,000; the total due last.
    expect(rowsOf(workbook, 'Rent').map((row) => row[1])).toEqual([
      70_000, 6_000, 1_200, 1_200, 1_200, 800, 8_000, 720, 8_720,
    ]);
    expect(rowsOf(workbook, 'Rent').at(-1)).toEqual(['Total due', 8_720]);
    expect(rowsOf(workbook, 'Rent')[1]).toEqual(['Base rent, 20 of 30 days', 6_000]);
    const sgd = currencyFormat('SGD');
    expect(workbook.getWorksheet('Rent')?.getRow(10).getCell(2).numFmt).toBe(moneyFormat(sgd.symbol, sgd.digits));
    const filters = new Map<unknown, unknown>();
    workbook.getWorksheet('Filters')?.eachRow((row) => {
      filters.set(row.getCell(1).value, row.getCell(2).value);
    });
    expect(filters.get('Outlet')).toBe('Boutique Duo');
    expect(filters.get('Malls')).toBe('Central Mall');
    expect(filters.get('Month')).toBe('2026-09');
    expect(filters.get('Currency')).toBe("SGD (the outlet's own)");
    expect(filters.get('Statement')).toBe('Rent of September 2026');
    // The notes the page shows above the lines: no declaration this month; the month is over.
    expect(filters.get('No declaration')).toBe(NO_DECLARATION_NOTE);
    expect(filters.has('Partial month')).toBe(false);

    // No lease covers the month: the page's one sentence, in the kiosk's dollars.
    const none = await agents.operator.get(workbookUrl(kiosk));
    expect(none.statusCode, none.body).toBe(200);
    const noneBook = new ExcelJS.Workbook();
    await noneBook.xlsx.load(none.rawPayload as unknown as ExcelJS.Buffer);
    expect(rowsOf(noneBook, 'Lease terms')).toEqual([]);
    expect(rowsOf(noneBook, 'Rent')).toEqual([[NO_LEASE_MESSAGE, null]]);

    // The tenant takes its own outlet's only; another client's caller none; a month that is none is refused.
    expect((await agents.tenant.get(workbookUrl(cafe))).statusCode).toBe(403);
    expect((await agents.otherClient.get(workbookUrl(boutique))).statusCode).toBe(403);
    const notMonth = await agents.operator.get(workbookUrl(boutique, '2026-13'));
    expect(notMonth.statusCode).toBe(400);
    expect(notMonth.json().message).toMatch(/month/);
  });
});

describe('occupancy cost bands', () => {
  it('answers the published band of a kind, or none, until the client sets its own', async () => {
    await db.pool.query(`UPDATE outlets SET category = 'F&B' WHERE id = $1`, [kiosk]);
    const before = await agents.operator.get('/api/occupancyBands?client_id=1');
    expect(before.statusCode, before.body).toBe(200);
    expect(before.json().bands).toEqual([
      { category: 'F&B', low_percent: 6, high_percent: 10, source: 'default' },
      { category: 'Others', low_percent: null, high_percent: null, source: 'none' },
    ]);
    const set = await agents.operator.request('PUT', '/api/occupancyBands', {
      body: { client_id: 1, bands: [{ category: 'Others', low_percent: 5, high_percent: 8 }] },
    });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json().bands[1]).toEqual({ category: 'Others', low_percent: 5, high_percent: 8, source: 'client' });
    const { rows } = await db.pool.query(`SELECT action, entity_id FROM audit_log WHERE entity = 'occupancy_band'`);
    expect(rows).toEqual([{ action: 'create', entity_id: 'Others' }]);
  });

  it('refuses a band upside down or half given, naming the field', async () => {
    const refused = async (bands: unknown[], field: string) => {
      const response = await agents.operator.request('PUT', '/api/occupancyBands', { body: { client_id: 1, bands } });
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json().message).toContain(field);
    };
    await refused([{ category: 'Others', low_percent: 9, high_percent: 8 }], 'bands.0.low_percent');
    await refused([{ category: 'Others', low_percent: 5, high_percent: null }], 'bands.0.high_percent');
    await refused(
      [
        { category: 'F&B', low_percent: 5, high_percent: 8 },
        { category: 'F&B', low_percent: 5, high_percent: 8 },
      ],
      'bands.1.category',
    );
  });

  it('places each statement against its band, and sums the rows per mall, floor and category (hand-computed)', async () => {
    const report = (await agents.operator.get(statementsUrl([central, harbour]))).json();
    // Cafe Uno pays 9 % of its sales, above the 5-8 % band; Boutique Duo 11.43 %, above too.
    expect(report.rows[0]).toMatchObject({ band_low_percent: 5, band_high_percent: 8, band_position: 'above' });
    expect(report.rows[1].band_position).toBe('above');
    // Central Mall: sales 250,000 + 70,000, cost 22,500 + 8,000 = 30,500 (9.53 %); a year's sales 250,000 × 12 +
    // 70,000 × 30/20 × 12 = 4,260,000 over 180 m² = 23,666.67.
    const mall = report.groups.find((group: { by: string }) => group.by === 'mall');
    expect(mall).toEqual({
      by: 'mall',
      key: 'Central Mall',
      currency: 'SGD',
      outlets: 2,
      sales: 320_000,
      occupancy_cost: 30_500,
      gla_sqm: 180,
      occupancy_cost_ratio: 9.53,
      sales_per_sqm: 23_666.67,
    });
    expect(report.groups.map((group: { by: string; key: string }) => `${group.by}:${group.key}`)).toEqual([
      'category:Others',
      'level:L1',
      'mall:Central Mall',
    ]);
  });
});
