import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import PgBoss from 'pg-boss';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app.js';
import { loadConfig } from '../../server/config.js';
import { inTransaction } from '../../server/db/pool.js';
import { DEMO_XERO_ORGANISATIONS, type DemoXero, startDemoXero } from '../../server/demo/xeroFake.js';
import {
  dueMonthOf,
  monthBefore,
  postRentInvoices,
  RENT_INVOICES_CRON,
  RENT_INVOICES_MONTH_QUEUE,
  RENT_INVOICES_QUEUE,
  registerRentInvoiceJobs,
  runMonthlyRentInvoices,
} from '../../server/jobs/rentInvoices.js';
import { ingestReceipts } from '../../server/repositories/ingestion.js';
import { earliestMallToday } from '../../server/repositories/xero.js';
import { createInvoice } from '../../server/xero/api.js';
import type { XeroDeps } from '../../server/xero/connection.js';
import { monthName, rentAdjustmentKeyOf, rentInvoice, rentInvoiceKeyOf } from '../../server/xero/invoice.js';
import { decryptToken, parseTokenKey } from '../../server/xero/tokenCrypto.js';
import { addDays } from '../../src/domain/apps.js';
import { firstDayOfNextMonth } from '../../src/domain/reports.js';
import { authorizeAtXero } from '../support/xeroBrowser.js';
import { grantOperatorPermissions, PASSWORD, receiptInput as receipt, seedWorld, WORLD } from './fixtures.js';
import { Agent, createTestDatabase, defined, type TestDatabase } from './helpers.js';

/*
 * The turnover-rent invoices against the demo's stand-in for Xero, on the fixture world: Zenith (client 1) is
 * connected to the Harbourfront organisation (SGD, sales account 200, tax rate OUTPUT 9 %). Central Mall's Cafe Uno
 * (higher_of: base 10,000, 8 % to 200,000 then 10 %) and Boutique Duo (base_plus_overage: 12 % above 50,000) are in
 * SGD, Harbour Mall's kiosk tres (higher_of: base 1,000, 10 %) in USD. Each test takes a month of its own, counted
 * back from the malls' earliest today, every lease covering it whole; every amount below is computed by hand.
 */

const PUBLIC_URL = 'http://app.test';
const TOKEN_KEY = randomBytes(32).toString('base64');
const HARBOURFRONT = defined(DEMO_XERO_ORGANISATIONS[0], 'organisation');
const { cafe, boutique, kiosk } = WORLD.outlets;

let db: TestDatabase;
let demo: DemoXero;
let app: FastifyInstance;
let admin: Agent;
let deps: XeroDeps;
let today: string;
let leaseStart: string;
let leaseEnd: string;
const leaseIds: Record<number, number> = {};

/** The month `back` months before the malls' earliest today's. */
const monthsBack = (back: number) => {
  let month = today.slice(0, 7);
  for (let step = 0; step < back; step += 1) month = monthBefore(month);
  return month;
};

/** Each outlet's month of sales: one receipt on the 15th, ingested as a device's would be (every rollup kept). */
async function seedSales(month: string, rows: [outletId: number, gmv: number][]) {
  const receipts = rows.map(([outletId, gmv]) => receipt(outletId, `${month}-15T12:00:00+08:00`, gmv, [['VISA', gmv]]));
  await inTransaction(db.pool, (client) => ingestReceipts(client, 1, receipts));
}

const declare = (month: string, outletId: number, amount: number) =>
  db.pool.query(`INSERT INTO gto_submissions (client_id, outlet_id, month, gto_amount) VALUES (1, $1, $2, $3)`, [
    outletId,
    `${month}-01`,
    amount,
  ]);

const postMonth = (month: string, agent = admin) =>
  agent.request('POST', '/api/rentStatements/invoices', { body: { client_id: WORLD.clients.zenith, month } });

const invoicesOf = (month: string) =>
  demo.api.invoices(HARBOURFRONT.tenantId).filter((invoice) => invoice.Reference.startsWith(`GTO ${month} `));
const invoicePuts = () =>
  demo.api.calls.filter((call) => call.method === 'PUT' && call.path === '/api.xro/2.0/Invoices').length;

type Row = { outlet_id: number; status: string; amount: number; invoice_number: string | null; message: string };

beforeAll(async () => {
  db = await createTestDatabase();
  await seedWorld(db.pool);
  await grantOperatorPermissions(db.pool, ['/api/rentStatements/invoices::Create']);
  await db.pool.query('UPDATE malls SET gst_percent = 9 WHERE id = $1', [WORLD.malls.central]);
  today = defined(await earliestMallToday(db.pool, WORLD.clients.zenith), 'today');
  leaseStart = `${monthsBack(12)}-01`;
  leaseEnd = `${Number(today.slice(0, 4)) + 3}-12-31`;
  const leases: [number, number, string, { from: number; rate_percent: number }[]][] = [
    [
      cafe,
      10_000,
      'higher_of',
      [
        { from: 0, rate_percent: 8 },
        { from: 200_000, rate_percent: 10 },
      ],
    ],
    [boutique, 9_000, 'base_plus_overage', [{ from: 50_000, rate_percent: 12 }]],
    [kiosk, 1_000, 'higher_of', [{ from: 0, rate_percent: 10 }]],
  ];
  for (const [outletId, baseRent, model, tiers] of leases) {
    const { rows } = await db.pool.query<{ id: number }>(
      `INSERT INTO leases (client_id, outlet_id, start_date, end_date, gla_sqm, base_rent, service_charge,
         turnover_model, turnover_tiers)
       VALUES (1, $1, $2, $3, 100, $4, 1000, $5, $6) RETURNING id`,
      [outletId, leaseStart, leaseEnd, baseRent, model, JSON.stringify(tiers)],
    );
    leaseIds[outletId] = defined(rows[0], 'lease').id;
  }
  demo = await startDemoXero({ publicUrl: PUBLIC_URL });
  const config = {
    ...loadConfig({}),
    staticDir: '/nonexistent',
    publicUrl: PUBLIC_URL,
    xero: { ...demo.setting, tokenKey: TOKEN_KEY },
  };
  app = await buildApp({ pool: db.pool, config, logger: false });
  await app.ready();
  admin = new Agent(app);
  expect((await admin.login(WORLD.users.admin, PASSWORD)).statusCode).toBe(200);
  deps = { pool: db.pool, setting: config.xero, key: parseTokenKey(TOKEN_KEY) };
});
afterAll(async () => {
  await app?.close();
  await demo?.stop();
  await db?.drop();
});

describe('before the client is ready to invoice', () => {
  it('answers 409 while the client is not connected, then while its accounts are not chosen', async () => {
    const month = monthsBack(2);
    const refused = await postMonth(month);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe('The client is not connected to Xero.');

    const started = await admin.request('POST', '/api/apps/xero/connect', { body: { client_id: 1 } });
    expect(started.statusCode, started.body).toBe(200);
    const callback = await authorizeAtXero(started.json().authorizationUrl, `${PUBLIC_URL}/api/apps/xero/callback`, {
      tenantId: HARBOURFRONT.tenantId,
    });
    const connected = await admin.get(callback.slice(PUBLIC_URL.length));
    expect(connected.headers.location).toBe('/apps/xero?xero=connected');
    const noAccounts = await postMonth(month);
    expect(noAccounts.statusCode).toBe(409);
    expect(noAccounts.json().message).toContain('sales account and the tax rate');

    const chosen = await admin.request('PUT', '/api/apps/xero/settings', {
      body: { client_id: 1, sales_account: '200', tax_account: 'OUTPUT', clearing_account: '615' },
    });
    expect(chosen.statusCode, chosen.body).toBe(200);
  });

  it('refuses a month not ended in every mall, or more than 12 months ago, naming it', async () => {
    const next = firstDayOfNextMonth(today.slice(0, 7)).slice(0, 7);
    for (const month of [today.slice(0, 7), next, monthsBack(13)]) {
      const response = await postMonth(month);
      expect(response.statusCode, month).toBe(400);
      expect(response.json().message).toContain('body/month');
    }
    expect(invoicePuts()).toBe(0);
  });

  it('refuses a caller limited to some outlets of the client', async () => {
    const tenant = new Agent(app);
    expect((await tenant.login(WORLD.users.tenant, PASSWORD)).statusCode).toBe(200);
    const response = await postMonth(monthsBack(2), tenant);
    expect(response.statusCode).toBe(403);
    expect(response.json().message).toBe('Only a user who sees every outlet of the client can post its rent invoices.');
  });
});

describe('posting each outlet’s month as a sales invoice, once', () => {
  it('posts one invoice per outlet with turnover rent due, and skips the USD outlet', async () => {
    const month = monthsBack(2);
    // Cafe Uno captures 250,000 and declares 200,000: due on the declaration, P = 200,000 × 8 % = 16,000, turnover
    // rent 16,000 − 10,000 = 6,000. Boutique Duo captures 70,000 without a declaration: (70,000 − 50,000) × 12 %
    // = 2,400. kiosk tres captures 20,000: 2,000 − 1,000 = 1,000 USD, not the organisation's currency.
    await seedSales(month, [
      [cafe, 250_000],
      [boutique, 70_000],
      [kiosk, 20_000],
    ]);
    await declare(month, cafe, 200_000);
    const response = await postMonth(month);
    expect(response.statusCode, response.body).toBe(200);
    const result = response.json() as { month: string; postedNow: number; rows: Row[] };
    expect(result.month).toBe(month);
    expect(result.postedNow).toBe(2);
    expect(result.rows.map(({ outlet_id, status, amount }) => [outlet_id, status, amount])).toEqual([
      [boutique, 'posted', 2_400],
      [cafe, 'posted', 6_000],
      [kiosk, 'skipped', 1_000],
    ]);
    expect(result.rows[2]?.message).toContain('USD');
    expect(result.rows[2]?.invoice_number).toBeNull();

    const invoices = invoicesOf(month);
    expect(invoices).toHaveLength(2);
    expect(invoices.map((invoice) => invoice.InvoiceNumber)).toEqual(['INV-0001', 'INV-0002']);
    const cafeInvoice = defined(
      invoices.find((invoice) => invoice.Contact.Name === 'Cafe Uno'),
      'Cafe Uno invoice',
    );
    expect(result.rows[1]?.invoice_number).toBe(cafeInvoice.InvoiceNumber);
    const date = firstDayOfNextMonth(month);
    expect(cafeInvoice).toMatchObject({
      Type: 'ACCREC',
      Date: date,
      DueDate: addDays(date, 14),
      Status: 'AUTHORISED',
      LineAmountTypes: 'Exclusive',
      CurrencyCode: 'SGD',
      Reference: `GTO ${month} C-01`,
      SubTotal: 6_000,
      TotalTax: 540,
      Total: 6_540,
    });
    expect(cafeInvoice.LineItems.map(({ LineItemID: _, AccountID: __, ...line }) => line)).toEqual([
      {
        Description: `Turnover rent ${monthName(month)}, C-01`,
        Quantity: 1,
        UnitAmount: 6_000,
        LineAmount: 6_000,
        AccountCode: '200',
        TaxType: 'OUTPUT',
        TaxAmount: 540,
      },
    ]);
    expect(cafeInvoice.idempotencyKey).toBe(rentInvoiceKeyOf(1, cafe, month, HARBOURFRONT.tenantId, 0));
    const boutiqueInvoice = invoices.find((invoice) => invoice.Contact.Name === 'Boutique Duo');
    expect(boutiqueInvoice).toMatchObject({ SubTotal: 2_400, TotalTax: 216, Total: 2_616 });
    // One contact an outlet, found by its name on the next invoice.
    expect(demo.api.contacts(HARBOURFRONT.tenantId).map((contact) => contact.Name)).toEqual([
      'Boutique Duo',
      'Cafe Uno',
    ]);
    expect(invoicePuts()).toBe(2);
  });

  it('shows the invoice number on the rent statements and the tenant’s statement', async () => {
    const month = monthsBack(2);
    const numbers = Object.fromEntries(
      invoicesOf(month).map((invoice) => [invoice.Contact.Name, invoice.InvoiceNumber]),
    );
    const statements = await admin.get(
      `/api/rentStatements?client_id=1&month=${month}&mall_ids=${WORLD.malls.central}&mall_ids=${WORLD.malls.harbour}`,
    );
    expect(statements.statusCode, statements.body).toBe(200);
    const rows = statements.json().rows as { outlet_id: number; invoice_number: string | null }[];
    expect(Object.fromEntries(rows.map((row) => [row.outlet_id, row.invoice_number]))).toEqual({
      [cafe]: numbers['Cafe Uno'],
      [boutique]: numbers['Boutique Duo'],
      [kiosk]: null,
    });
    const tenant = await admin.get(`/api/tenant/rentStatement?client_id=1&outlet_id=${boutique}&month=${month}`);
    expect(tenant.json().statement).toMatchObject({ turnover_rent: 2_400, invoice_number: numbers['Boutique Duo'] });
    // Another month has no invoice.
    const other = await admin.get(`/api/tenant/rentStatement?client_id=1&outlet_id=${boutique}&month=${monthsBack(3)}`);
    expect(other.json().statement.invoice_number).toBeNull();
  });

  it('posts nothing again: a second call, a direct run and concurrent runs, and Xero saw each invoice once', async () => {
    const month = monthsBack(2);
    const second = await postMonth(month);
    expect(second.statusCode).toBe(200);
    expect(second.json().postedNow).toBe(0);
    expect(second.json().rows.map((row: Row) => row.status)).toEqual(['posted', 'posted', 'skipped']);
    expect(await postRentInvoices(deps, { clientId: 1, month })).toEqual({
      status: 'done',
      posted: 0,
      failed: 0,
      skipped: 1,
      alreadyPosted: 2,
    });
    const runs = await Promise.all([1, 2, 3, 4].map(() => postRentInvoices(deps, { clientId: 1, month })));
    expect(runs.reduce((sum, run) => sum + run.posted, 0)).toBe(0);
    expect(invoicesOf(month)).toHaveLength(2);
    expect(invoicePuts()).toBe(2);

    // Four runs at once on a month not posted yet: one posts it, the others wait on its row and find it posted.
    const fresh = monthsBack(7);
    // 200,000 × 8 % + 5,000 × 10 % = 16,500, less 10,000.
    await seedSales(fresh, [[cafe, 205_000]]);
    const together = await Promise.all([1, 2, 3, 4].map(() => postRentInvoices(deps, { clientId: 1, month: fresh })));
    expect(together.reduce((sum, run) => sum + run.posted, 0)).toBe(1);
    expect(together.reduce((sum, run) => sum + run.alreadyPosted, 0)).toBe(3);
    expect(invoicesOf(fresh).map((invoice) => invoice.SubTotal)).toEqual([6_500]);
    expect(invoicePuts()).toBe(3);
  });

  it('records a month without turnover rent due as skipped, saying why, and posts nothing', async () => {
    const month = monthsBack(3);
    // Cafe Uno: 100,000 × 8 % = 8,000, below the base rent 10,000. Boutique Duo: 40,000, below the breakpoint.
    await seedSales(month, [
      [cafe, 100_000],
      [boutique, 40_000],
    ]);
    const response = await postMonth(month);
    expect(response.statusCode, response.body).toBe(200);
    const rows = response.json().rows as Row[];
    expect(response.json().postedNow).toBe(0);
    expect(rows.map(({ outlet_id, status, amount }) => [outlet_id, status, amount])).toEqual([
      [boutique, 'skipped', 0],
      [cafe, 'skipped', 0],
      [kiosk, 'skipped', 0],
    ]);
    expect(rows[0]?.message).toBe(
      `No turnover rent is due for ${monthName(month)} (the turnover stayed within the base rent or below the ` +
        'breakpoint): there is nothing to invoice.',
    );
    expect(rows[2]?.message).toContain('USD');
    expect(invoicesOf(month)).toHaveLength(0);
  });

  it('sends the same Idempotency-Key after a crash: the invoice Xero made is not made again', async () => {
    const month = monthsBack(4);
    // Cafe Uno captures 250,000 without a declaration: 200,000 × 8 % + 50,000 × 10 % = 21,000, less 10,000.
    await seedSales(month, [[cafe, 250_000]]);
    const { rows: tokens } = await db.pool.query<{ access: string }>(
      'SELECT access_token_enc AS access FROM xero_connections WHERE client_id = 1',
    );
    const access = decryptToken(deps.key, 1, 'access', defined(tokens[0], 'connection').access);
    // The invoice reached Xero, and the process stopped before its transaction committed: no row.
    const rent = {
      outletId: cafe,
      outletName: 'Cafe Uno',
      outletCode: 'C-01',
      currency: 'SGD',
      month,
      leases: [{ leaseId: defined(leaseIds[cafe]), startDate: leaseStart, endDate: leaseEnd, turnoverRent: 11_000 }],
      amount: 11_000,
    };
    const madeBefore = await createInvoice(
      deps.setting,
      access,
      HARBOURFRONT.tenantId,
      rentInvoice(rent, { salesAccount: '200', taxType: 'OUTPUT' }),
      rentInvoiceKeyOf(1, cafe, month, HARBOURFRONT.tenantId, 0),
    );
    const result = await postRentInvoices(deps, { clientId: 1, month });
    expect(result).toMatchObject({ status: 'done', posted: 1 });
    expect(invoicesOf(month)).toHaveLength(1);
    const { rows } = await db.pool.query<{ invoice_id: string; invoice_number: string; amount: number }>(
      `SELECT invoice_id, invoice_number, amount FROM rent_invoices WHERE client_id = 1 AND outlet_id = $1
         AND month = $2::date`,
      [cafe, `${month}-01`],
    );
    expect(rows[0]).toEqual({
      invoice_id: madeBefore.invoiceId,
      invoice_number: madeBefore.invoiceNumber,
      amount: 11_000,
    });
  });

  it('records Xero’s refusal, and posts the month with a new key once the tax rate is right', async () => {
    const month = monthsBack(5);
    // 200,000 × 8 % + 10,000 × 10 % = 17,000, less 10,000.
    await seedSales(month, [[cafe, 210_000]]);
    await db.pool.query(`UPDATE xero_connections SET tax_type = 'INPUT' WHERE client_id = 1`);
    const refused = await postMonth(month);
    const cafeRow = (refused.json().rows as Row[]).find((row) => row.outlet_id === cafe);
    expect(cafeRow).toMatchObject({ status: 'failed', amount: 7_000, invoice_number: null });
    expect(cafeRow?.message).toContain("TaxType code 'INPUT' does not exist or cannot be used");
    expect(invoicesOf(month)).toHaveLength(0);
    await db.pool.query(`UPDATE xero_connections SET tax_type = 'OUTPUT' WHERE client_id = 1`);
    const posted = await postMonth(month);
    expect(posted.json().postedNow).toBe(1);
    expect(invoicesOf(month)[0]).toMatchObject({
      Total: 7_630,
      idempotencyKey: rentInvoiceKeyOf(1, cafe, month, HARBOURFRONT.tenantId, 1),
    });
  });
});

describe('a posted month whose rent due changes afterwards', () => {
  const creditNotesOf = (month: string) =>
    demo.api.creditNotes(HARBOURFRONT.tenantId).filter((note) => note.Reference.startsWith(`GTO ${month} `));
  const redeclare = (month: string, amount: number) =>
    db.pool.query(
      `UPDATE gto_submissions SET gto_amount = $3 WHERE client_id = 1 AND outlet_id = $1 AND month = $2::date`,
      [cafe, `${month}-01`, amount],
    );
  type Adjusted = Row & { adjustments: { sequence: number; kind: string; amount: number; status: string }[] };
  const cafeRowOf = async (month: string) => {
    const response = await postMonth(month);
    expect(response.statusCode, response.body).toBe(200);
    const row = (response.json().rows as Adjusted[]).find((candidate) => candidate.outlet_id === cafe);
    return { postedNow: response.json().postedNow as number, row: defined(row, 'Cafe Uno row') };
  };
  const statementNumbers = async (month: string) => {
    const response = await admin.get(`/api/rentStatements?client_id=1&month=${month}&mall_ids=${WORLD.malls.central}`);
    const rows = response.json().rows as { outlet_id: number; invoice_number: string | null }[];
    return rows.find((row) => row.outlet_id === cafe)?.invoice_number;
  };

  it('is corrected once by the difference: an adjustment invoice when more is due, a credit note when less', async () => {
    const month = monthsBack(8);
    // Cafe Uno captures 250,000 and declares 200,000: 16,000 − 10,000 = 6,000 invoiced.
    await seedSales(month, [[cafe, 250_000]]);
    await declare(month, cafe, 200_000);
    const first = await cafeRowOf(month);
    expect(first.row).toMatchObject({ status: 'posted', amount: 6_000, adjustments: [] });
    const invoice = defined(invoicesOf(month)[0], 'invoice');

    // The tenant corrects its declaration to 250,000: 21,000 − 10,000 = 11,000 due, 5,000 more than invoiced.
    await redeclare(month, 250_000);
    const more = await cafeRowOf(month);
    expect(more.postedNow).toBe(1);
    expect(more.row.adjustments).toMatchObject([{ sequence: 1, kind: 'invoice', amount: 5_000, status: 'posted' }]);
    const adjustment = defined(invoicesOf(month)[1], 'adjustment invoice');
    const today = new Date().toISOString().slice(0, 10);
    expect(adjustment).toMatchObject({
      Type: 'ACCREC',
      Date: today,
      DueDate: addDays(today, 14),
      Reference: `GTO ${month} C-01 adjustment 1`,
      SubTotal: 5_000,
      TotalTax: 450,
      Total: 5_450,
    });
    expect(adjustment.LineItems[0]?.Description).toBe(
      `Turnover rent adjustment ${monthName(month)}, C-01: 11000.00 due, 6000.00 invoiced`,
    );
    // The invoice itself is unchanged, and nothing more is posted while the rent due stays.
    expect(invoicesOf(month)[0]).toEqual(invoice);
    expect((await cafeRowOf(month)).postedNow).toBe(0);
    expect(await postRentInvoices(deps, { clientId: 1, month })).toMatchObject({ posted: 0, alreadyPosted: 1 });
    expect(invoicesOf(month)).toHaveLength(2);

    // Corrected down to 100,000: 8,000 is below the base rent, nothing due; the 11,000 invoiced is credited, once
    // Xero takes it (the first attempt is refused for its tax rate, and the same correction is decided again).
    await redeclare(month, 100_000);
    await db.pool.query(`UPDATE xero_connections SET tax_type = 'INPUT' WHERE client_id = 1`);
    const refused = await cafeRowOf(month);
    expect(refused.postedNow).toBe(0);
    expect(refused.row.adjustments[1]).toMatchObject({ sequence: 2, kind: 'credit_note', status: 'failed' });
    await db.pool.query(`UPDATE xero_connections SET tax_type = 'OUTPUT' WHERE client_id = 1`);
    const less = await cafeRowOf(month);
    expect(less.postedNow).toBe(1);
    expect(less.row.adjustments.map(({ sequence, kind, amount, status }) => [sequence, kind, amount, status])).toEqual([
      [1, 'invoice', 5_000, 'posted'],
      [2, 'credit_note', 11_000, 'posted'],
    ]);
    const notes = creditNotesOf(month);
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatchObject({
      Type: 'ACCRECCREDIT',
      Reference: `GTO ${month} C-01 adjustment 2`,
      SubTotal: 11_000,
      TotalTax: 990,
      Total: 11_990,
      idempotencyKey: rentAdjustmentKeyOf(1, cafe, month, HARBOURFRONT.tenantId, 2, 1),
    });
    expect((await cafeRowOf(month)).postedNow).toBe(0);
    expect(creditNotesOf(month)).toHaveLength(1);
    // The statements name every document of the month, in order.
    expect(await statementNumbers(month)).toBe(
      `${invoice.InvoiceNumber}, ${adjustment.InvoiceNumber}, ${defined(notes[0], 'note').InvoiceNumber}`,
    );
    expect(notes[0]?.InvoiceNumber).toMatch(/^CN-\d{4}$/);
  });
});

describe('the stand-in checks each invoice as Xero does', () => {
  it('refuses a request without a token or tenant, and an invoice Xero would refuse, naming the problem', async () => {
    const { rows } = await db.pool.query<{ access: string }>(
      'SELECT access_token_enc AS access FROM xero_connections WHERE client_id = 1',
    );
    const access = decryptToken(deps.key, 1, 'access', defined(rows[0], 'connection').access);
    const good = {
      Type: 'ACCREC',
      Contact: { Name: 'Cafe Uno' },
      Date: '2026-03-01',
      DueDate: '2026-03-15',
      LineAmountTypes: 'Exclusive',
      LineItems: [{ Description: 'Rent', Quantity: 1, UnitAmount: 10, AccountCode: '200', TaxType: 'OUTPUT' }],
      CurrencyCode: 'SGD',
      Status: 'AUTHORISED',
    };
    const put = (invoice: unknown, headers: Record<string, string> = {}) =>
      fetch(`${demo.api.apiUrl}/Invoices`, {
        method: 'PUT',
        headers: {
          authorization: `Bearer ${access}`,
          'xero-tenant-id': HARBOURFRONT.tenantId,
          'content-type': 'application/json',
          ...headers,
        },
        body: JSON.stringify({ Invoices: [invoice] }),
      });
    const messagesOf = async (response: Response) => {
      expect(response.status).toBe(400);
      const body = (await response.json()) as { Elements: { ValidationErrors: { Message: string }[] }[] };
      return body.Elements.flatMap((element) => element.ValidationErrors.map((error) => error.Message));
    };
    const before = demo.api.invoices().length;
    expect((await put(good, { authorization: 'Bearer nonsense' })).status).toBe(401);
    expect((await put(good, { 'xero-tenant-id': 'not-a-guid' })).status).toBe(400);
    expect(await messagesOf(await put({ ...good, CurrencyCode: 'USD' }))).toEqual([
      'Organisation is not subscribed to currency USD',
    ]);
    expect(await messagesOf(await put({ ...good, Type: 'SALES', Contact: {} }))).toEqual([
      "'SALES' is not a valid invoice type.",
      'A Contact must be specified for this type of transaction: a ContactID, or a Name of 255 characters or less.',
    ]);
    const bank = { ...good, LineItems: [{ ...good.LineItems[0], AccountCode: '090' }] };
    expect(await messagesOf(await put(bank))).toEqual(["Account code '090' is not a valid code for this document."]);
    const { DueDate: _, ...undated } = good;
    expect(await messagesOf(await put(undated))).toEqual(['Due Date is required for a submitted or approved invoice.']);
    expect(demo.api.invoices()).toHaveLength(before);
  });
});

/* ---------------------------------------------------------------- the job queue */

async function waitForJob(boss: PgBoss, queue: string, id: string) {
  for (let tries = 0; tries < 100; tries += 1) {
    const job = await boss.getJobById(queue, id);
    if (job && ['completed', 'failed'].includes(job.state)) return job.state;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`job ${id} did not finish`);
}

describe('from the job queue', () => {
  it('posts a month once, also with a new PgBoss after a restart, and keeps the daily schedule', async () => {
    const month = monthsBack(6);
    // 200,000 × 8 % + 20,000 × 10 % = 18,000, less 10,000.
    await seedSales(month, [[cafe, 220_000]]);
    for (let start = 0; start < 2; start += 1) {
      const boss = new PgBoss({ connectionString: db.url, max: 2 });
      boss.on('error', () => {});
      await boss.start();
      try {
        await registerRentInvoiceJobs(boss, deps, { pollingIntervalSeconds: 0.5 });
        const schedules = await boss.getSchedules();
        expect(schedules.find((schedule) => schedule.name === RENT_INVOICES_QUEUE)?.cron).toBe(RENT_INVOICES_CRON);
        const id = defined(await boss.send(RENT_INVOICES_MONTH_QUEUE, { clientId: 1, month }), 'job id');
        expect(await waitForJob(boss, RENT_INVOICES_MONTH_QUEUE, id)).toBe('completed');
      } finally {
        await boss.stop({ graceful: false, wait: true });
      }
      expect(invoicesOf(month)).toHaveLength(1);
      expect(invoicesOf(month)[0]?.Total).toBe(8_720);
    }
  });

  it('the daily look invoices the last month once the GTO due day has passed', async () => {
    expect(dueMonthOf('2026-12-08', 7)).toBe('2026-11');
    expect(dueMonthOf('2026-12-07', 7)).toBeUndefined();
    expect(dueMonthOf('2027-01-02', 1)).toBe('2026-12');
    const month = monthsBack(1);
    // 200,000 × 8 % + 30,000 × 10 % = 19,000, less 10,000.
    await seedSales(month, [[cafe, 230_000]]);
    const day = Number(today.slice(8, 10));
    // A due day is 1 to 28: on the 29th to the 31st every one has passed, on the 1st none has.
    if (day <= 28) {
      await db.pool.query('UPDATE clients SET gto_due_day = $1 WHERE id = 1', [day]);
      expect(await runMonthlyRentInvoices(deps)).toBe(0);
      expect(invoicesOf(month)).toHaveLength(0);
    }
    if (day === 1) return;
    await db.pool.query('UPDATE clients SET gto_due_day = $1 WHERE id = 1', [Math.min(day - 1, 28)]);
    expect(await runMonthlyRentInvoices(deps)).toBe(1);
    expect(invoicesOf(month)[0]?.Total).toBe(9_810);
    expect(await runMonthlyRentInvoices(deps)).toBe(0);
  });
});

describe('the invoice of a month two leases share', () => {
  it('has a line for each lease with turnover rent due, naming its start', () => {
    const invoice = rentInvoice(
      {
        outletId: cafe,
        outletName: 'Cafe Uno',
        outletCode: null,
        currency: 'SGD',
        month: '2026-02',
        leases: [
          { leaseId: 1, startDate: '2025-02-01', endDate: '2026-02-10', turnoverRent: 0 },
          { leaseId: 2, startDate: '2026-02-11', endDate: '2026-02-20', turnoverRent: 300 },
          { leaseId: 3, startDate: '2026-02-21', endDate: '2028-02-20', turnoverRent: 1_234.5 },
        ],
        amount: 1_534.5,
      },
      { salesAccount: '200', taxType: 'OUTPUT' },
    );
    expect(invoice).toMatchObject({
      Date: '2026-03-01',
      DueDate: '2026-03-15',
      Reference: 'GTO 2026-02 Cafe Uno',
      Contact: { Name: 'Cafe Uno' },
    });
    expect(invoice.LineItems.map((line) => [line.Description, line.UnitAmount])).toEqual([
      ['Turnover rent February 2026, Cafe Uno (lease from 2026-02-11)', 300],
      ['Turnover rent February 2026, Cafe Uno (lease from 2026-02-21)', 1_234.5],
    ]);
  });
});
