import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type PgBoss from 'pg-boss';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExportSlots } from '../../server/exports/exportSlots.js';
import { listOperations, type Operation, permissionFor } from '../../server/openapi.js';
import { saveXeroAccounts, saveXeroConnection } from '../../server/repositories/xero.js';
import { NOT_IMPLEMENTED_OPERATIONS } from '../../server/routes/notImplemented.js';
import type { BodyOf, OperationId, QueryOf } from '../../server/routes/types.js';
import { encryptToken, parseTokenKey } from '../../server/xero/tokenCrypto.js';
import { PASSWORD, seedWorld, WORLD } from './fixtures.js';
import { Agent, createTestApp, createTestDatabase, signInAgents, type TestDatabase } from './helpers.js';

/**
 * Every operation of openapi.yaml called as anonymous, as a user without the permission, as a user of the other
 * client, as a tenant limited to one outlet, as a department user and as the super admin.
 */
let db: TestDatabase;
let app: FastifyInstance;
let agents: Record<'admin' | 'noLookup' | 'otherClient' | 'tenant' | 'department' | 'partner', Agent>;
const operations = listOperations();
const DEPARTMENT_PERMISSIONS = [
  '/clients::Read',
  '/malls::Read',
  '/outlets::Read',
  '/api/mall_report/breakeven_target::Read',
];

beforeAll(async () => {
  db = await createTestDatabase();
  await seedWorld(db.pool);
  // A role holding every path::Action permission, for the users whose ids (not permissions) must stop them.
  await db.pool.query(`INSERT INTO roles (name) VALUES ('full access'), ('leasing')`);
  await db.pool.query(
    `INSERT INTO role_api_permissions (role_id, permission) SELECT (SELECT id FROM roles WHERE name = 'full access'), unnest($1::text[])`,
    [operations.filter((operation) => operation.access === 'permission').map(permissionFor)],
  );
  await db.pool.query(
    `INSERT INTO role_api_permissions (role_id, permission) SELECT (SELECT id FROM roles WHERE name = 'leasing'), unnest($1::text[])`,
    [DEPARTMENT_PERMISSIONS],
  );
  await db.pool.query(
    `UPDATE user_roles SET role_id = (SELECT id FROM roles WHERE name = 'full access')
     WHERE user_id IN (SELECT id FROM users WHERE email = ANY($1))`,
    [[WORLD.users.operator2, WORLD.users.tenant, WORLD.users.partner]],
  );
  await db.pool.query(
    `UPDATE user_roles SET role_id = (SELECT id FROM roles WHERE name = 'leasing')
     WHERE user_id = (SELECT id FROM users WHERE email = $1)`,
    [WORLD.users.operator1],
  );
  await seedSettings();
  // Report subscriptions with a stand-in renderer and job queue: "send now" is queued, never rendered here.
  const renderer = {
    state: { available: true, message: '' },
    renderPdf: async () => Buffer.alloc(0),
    close: async () => {},
  };
  const boss = { send: async () => 'matrix-job' } as unknown as PgBoss;
  app = await createTestApp(db.pool, {
    env: XERO_ENV,
    reportSubscriptions: { renderer, slots: new ExportSlots({ perUser: 2, max: 4 }), boss },
  });
  agents = await signInAgents(
    app,
    {
      admin: WORLD.users.admin,
      noLookup: WORLD.users.noLookup,
      otherClient: WORLD.users.operator2,
      tenant: WORLD.users.tenant,
      department: WORLD.users.operator1,
      partner: WORLD.users.partner,
    },
    PASSWORD,
  );
});
afterAll(async () => {
  await app.close();
  await db.drop();
});

interface Ids {
  client: number;
  outlet: number;
  mall: number;
}

/** What an operation needs besides the ids its x-scope names (call() puts those in). */
interface Input<Id extends OperationId> {
  query?: Partial<QueryOf<Id>>;
  body?: BodyOf<Id>;
}

const OUTLET_WINDOW = { startTime: '2026-03-01', endTime: '2026-03-07' } as const;
const MALL_RANGE = { start_time: '2026-03-01', end_time: '2026-03-07' } as const;
let invitations = 0;

/** Xero set up at an address where nothing answers (port 9): the calls that reach Xero fail, and say so. */
const XERO_TOKEN_KEY = randomBytes(32).toString('base64');
const XERO_ENV = {
  XERO_CLIENT_ID: 'access-matrix',
  XERO_CLIENT_SECRET: 'access-matrix-secret',
  XERO_TOKEN_KEY,
  XERO_AUTHORIZE_URL: 'http://127.0.0.1:9/connect/authorize',
  XERO_TOKEN_URL: 'http://127.0.0.1:9/connect/token',
  XERO_REVOKE_URL: 'http://127.0.0.1:9/connect/revocation',
  XERO_CONNECTIONS_URL: 'http://127.0.0.1:9/connections',
  XERO_API_URL: 'http://127.0.0.1:9/api.xro/2.0',
};
/** Three days ago: a day that has ended in every fixture mall. */
const XERO_DAY = new Date(Date.now() - 3 * 86_400_000).toISOString().slice(0, 10);

/** A month that has ended in every fixture mall and lies within the last 12 months (40 days ago's). */
const RENT_INVOICE_MONTH = new Date(Date.now() - 40 * 86_400_000).toISOString().slice(0, 7);

/** A connection of the client to Xero with its accounts chosen and a token good for an hour. */
async function prepareXeroConnection(ids: Ids) {
  const key = parseTokenKey(XERO_TOKEN_KEY);
  const account = (code: string) => ({ code, name: code });
  await saveXeroConnection(db.pool, {
    clientId: ids.client,
    tenantId: '00000000-0000-4000-8000-000000000001',
    organisationName: 'Matrix Ltd',
    baseCurrency: 'SGD',
    accessTokenEnc: encryptToken(key, ids.client, 'access', 'matrix-access-token'),
    refreshTokenEnc: encryptToken(key, ids.client, 'refresh', 'matrix-refresh-token'),
    accessExpiresAt: new Date(Date.now() + 3_600_000),
    scope: 'accounting.transactions accounting.settings',
    connectedBy: 1,
    options: {
      salesAccounts: [account('200')],
      taxAccounts: [account('OUTPUT')],
      clearingAccounts: [account('090')],
      currency: ['SGD'],
      clearingTaxTypes: {},
    },
  });
  await saveXeroAccounts(db.pool, ids.client, { salesAccount: '200', taxType: 'OUTPUT', clearingAccount: '090' });
}

/** A complete, valid input for every operation that takes more than its scoped ids, typed by the contract. */
const INPUTS: { [Id in OperationId]?: (ids: Ids) => Input<Id> } = {
  verifyOtp: () => ({ body: { code: '000000' } }),
  updateXeroSettings: (ids) => ({
    body: { client_id: ids.client, sales_account: '200', tax_account: 'OUTPUT', clearing_account: '090' },
  }),
  postXeroDay: (ids) => ({ body: { client_id: ids.client, day: XERO_DAY } }),
  postRentInvoices: (ids) => ({ body: { client_id: ids.client, month: RENT_INVOICE_MONTH } }),
  inviteUser: (ids) => ({ body: { client_id: ids.client, email: `invited${++invitations}@fixture.test` } }),
  getPaymentAndSum: () => ({ query: OUTLET_WINDOW }),
  getPaymentMethodBreakdown: () => ({ query: OUTLET_WINDOW }),
  getTransactions: () => ({ query: OUTLET_WINDOW }),
  generateTransactionsPdf: () => ({ query: OUTLET_WINDOW }),
  createTransactionsPdfLink: () => ({ query: OUTLET_WINDOW }),
  getTenantReceiptData: () => ({ query: OUTLET_WINDOW }),
  getReceiptImage: () => ({ query: { aimbox_id: 'R-none' } }),
  getTopSkus: () => ({ query: OUTLET_WINDOW }),
  getTotalRevenuePoints: () => ({ query: OUTLET_WINDOW }),
  getTotalTransactionPoints: () => ({ query: OUTLET_WINDOW }),
  getTotalUnitSalePoints: () => ({ query: OUTLET_WINDOW }),
  getSalesBreakdown: () => ({ query: OUTLET_WINDOW }),
  getMealTimingReport: () => ({ query: OUTLET_WINDOW }),
  getItemSalesBreakdown: () => ({ query: OUTLET_WINDOW }),
  getOutletOverallComparison: () => ({
    query: { ...OUTLET_WINDOW, comparedStartTime: '2026-02-22', comparedEndTime: '2026-02-28' },
  }),
  getSalesAnalysisWorkbook: () => ({ query: OUTLET_WINDOW }),
  getMallOutletReport: () => ({ query: MALL_RANGE }),
  getMallDailyReport: () => ({ query: MALL_RANGE }),
  getMallRefundReport: () => ({ query: MALL_RANGE }),
  getCrossSpending: () => ({ query: MALL_RANGE }),
  // The outlet paired with itself: past the access checks, never a pair (404; the figures are tested on their own).
  getCrossSpendingDetails: (ids) => ({ query: { ...MALL_RANGE, other_outlet_id: ids.outlet } }),
  getCrossSpendingWorkbook: () => ({ query: MALL_RANGE }),
  getCrossSpendingDetailsWorkbook: (ids) => ({ query: { ...MALL_RANGE, other_outlet_id: ids.outlet } }),
  getMallVoucherReport: () => ({ query: MALL_RANGE }),
  getMallMonthlyReport: () => ({ query: MALL_RANGE }),
  getMallRanking: () => ({ query: MALL_RANGE }),
  getMallGrowth: () => ({ query: { ...MALL_RANGE, compare: 'festival_aligned', like_for_like: true } }),
  getMallHomeWorkbook: () => ({ query: { ...MALL_RANGE, compare: 'same_weekday_last_year', like_for_like: true } }),
  getMallGmvWorkbook: () => ({ query: MALL_RANGE }),
  getMallPeakHoursWorkbook: () => ({ query: { ...MALL_RANGE, start_hour: 9, end_hour: 21, time_range: 'weekly' } }),
  getMallPaymentMethodsWorkbook: () => ({ query: MALL_RANGE }),
  getMemberWorkbook: () => ({ query: { ...MALL_RANGE, metric: 'transactions' } }),
  getMallRefundWorkbook: () => ({ query: MALL_RANGE }),
  getMallVoucherWorkbook: () => ({ query: { ...MALL_RANGE, compare: 'same_weekday_last_year' } }),
  getMemberOverall: () => ({ query: MALL_RANGE }),
  getMemberOutletRanking: () => ({ query: MALL_RANGE }),
  getMallCategoryReport: () => ({ query: MALL_RANGE }),
  getMallLevelReport: () => ({ query: MALL_RANGE }),
  getMallCategoryOutletReport: () => ({ query: MALL_RANGE }),
  getMallPeakHours: () => ({ query: MALL_RANGE }),
  getMallPaymentMethodOverall: () => ({ query: MALL_RANGE }),
  getMallOutletOverallComparison: () => ({ query: MALL_RANGE }),
  getMallOutletDailyReport: () => ({ query: MALL_RANGE }),
  getMallOutletWorkbook: () => ({ query: MALL_RANGE }),
  getBreakevenTarget: () => ({ query: { date: '2026-03-01', department: 'leasing' } }),
  getBreakevenWorkbook: () => ({ query: { month: '2026-03', department: 'leasing' } }),
  updateBreakevenTargets: (ids) => ({
    body: {
      client_id: ids.client,
      department: 'leasing',
      month: '2026-03',
      targets: [{ outlet_id: ids.outlet, target: 100 }],
    },
  }),
  updateOutletCodes: (ids) => ({
    body: { client_id: ids.client, data: [{ outlet_id: ids.outlet, outlet_code: 'X-1' }] },
  }),
  getGtoSummary: () => ({ query: { date: '2026-03-01' } }),
  getGtoSummaryWorkbook: () => ({ query: { date: '2026-03-01' } }),
  getGtoSubmission: () => ({ query: { searchedMonth: '2026-03' } }),
  getGtoOutletMonths: () => ({ query: { from: '2026-01', to: '2026-03' } }),
  getGtoOutletMonthsWorkbook: () => ({ query: { month: '2026-03' } }),
  createGtoSubmission: (ids) => ({ body: gtoSubmission(ids) }),
  updateGtoSubmission: (ids) => ({ body: gtoSubmission(ids) }),
  updateGtoSettings: (ids) => ({
    body: { client_id: ids.client, variance_threshold: 5, due_day: 7, reminders: true },
  }),
  updateFeedAlertSettings: (ids) => ({
    body: { client_id: ids.client, silence_minutes: 60, unusual_threshold: 3.5, unusual_min_baseline: 5 },
  }),
  updateEmailSubscriptions: () => ({ query: { void_email: true, summary_email: false } }),
  getProcessingFees: () => ({ query: OUTLET_WINDOW }),
  createProcessingFees: (ids) => ({ body: processingFees(ids) }),
  updateProcessingFees: (ids) => ({ body: processingFees(ids) }),
  getSalesTargets: () => ({ query: { date: '2026-03-01' } }),
  saveSalesTargets: (ids) => ({
    body: { client_id: ids.client, date: '2026-03-01', outlet_target: [{ outlet_id: ids.outlet, target: 1000 }] },
  }),
  createCategory: (ids) => ({ body: { client_id: ids.client, name: `Food ${++categories}`, isCategory: true } }),
  deleteCategory: (ids) => ({ body: { client_id: ids.client, category_id: DISPOSABLE + ids.client } }),
  assignSubcategories: (ids) => ({
    body: { client_id: ids.client, category_id: ids.client, subcategory_ids: [ids.client] },
  }),
  getSubcategoryNameOptions: (ids) => ({ query: { category_id: ids.client } }),
  getSkuNameOptions: (ids) => ({ query: { subcategory_id: ids.client } }),
  assignSkus: (ids) => ({ body: { client_id: ids.client, subcategory_id: ids.client, sku_ids: [ids.client] } }),
  createMealTiming: (ids) => ({ body: { client_id: ids.client, outlet_id: ids.outlet } }),
  updateMealTimings: (ids) => ({
    body: {
      client_id: ids.client,
      outlet_id: ids.outlet,
      meal_timing: [{ id: ids.outlet, name: 'Lunch', start_time: '11:00', end_time: '14:00' }],
    },
  }),
  deleteMealTiming: (ids) => ({ query: { id: DISPOSABLE + ids.outlet } }),
  getNonTradingDays: () => ({ query: NON_TRADING_RANGE }),
  declareNonTradingDay: (ids) => ({ body: nonTradingDay(ids) }),
  removeNonTradingDay: () => ({ query: { day: NON_TRADING_DAY } }),
  getOutletNonTradingDays: () => ({ query: NON_TRADING_RANGE }),
  declareOutletNonTradingDay: (ids) => ({ body: nonTradingDay(ids) }),
  withdrawOutletNonTradingDay: () => ({ query: { day: NON_TRADING_DAY } }),
  getSalesReview: () => ({ query: MALL_RANGE }),
  getSalesReviewWorkbook: () => ({ query: MALL_RANGE }),
  inviteTenantUser: (ids) => ({
    body: {
      client_id: ids.client,
      email: `tenant${++invitations}@fixture.test`,
      name: 'New Tenant',
      outlet_ids: String(ids.outlet),
    },
  }),
  resendTenantInvitation: (ids) => ({ body: { client_id: ids.client, user_id: TENANT_USER + ids.client } }),
  setTenantUserStatus: (ids) => ({ body: { client_id: ids.client, user_id: TENANT_USER + ids.client, active: false } }),
  createDeviceKey: (ids) => ({ body: { client_id: ids.client, outlet_id: ids.outlet, name: 'Till 1' } }),
  // A key of the call's outlet (PREPARE); revoking it again answers 200 as well.
  revokeDeviceKey: (ids) => ({ query: { id: DISPOSABLE + ids.outlet } }),
  getCalendar: () => ({ query: { country: 'SG', year: 2026 } }),
  createCalendarEntry: (ids) => ({ body: calendarEntry(ids) }),
  updateCalendarEntry: (ids) => ({ body: { ...calendarEntry(ids), id: CALENDAR_ROW + ids.client } }),
  deleteCalendarEntry: (ids) => ({ query: { id: CALENDAR_ROW + ids.client } }),
  getMallEvents: () => ({ query: MALL_RANGE }),
  createAlertRule: (ids) => ({ body: alertRule(ids) }),
  updateAlertRule: (ids) => ({ body: { ...alertRule(ids), id: ALERT_ROW + ids.outlet } }),
  deleteAlertRule: (ids) => ({ query: { id: ALERT_ROW + ids.outlet } }),
  getAlertFirings: (ids) => ({ query: { rule_id: ALERT_ROW + ids.outlet } }),
  acknowledgeAlertFiring: (ids) => ({ body: { client_id: ids.client, id: ALERT_ROW + ids.outlet } }),
  createMallEvent: (ids) => ({ body: mallEvent(ids) }),
  updateMallEvent: (ids) => ({ body: { ...mallEvent(ids), id: CALENDAR_ROW + ids.mall } }),
  deleteMallEvent: (ids) => ({ query: { id: CALENDAR_ROW + ids.mall } }),
  getLeases: () => ({ query: { search: 'a', status: 'all', expiring_within_months: 12 } }),
  createLease: (ids) => ({ body: lease(ids) }),
  updateLease: (ids) => ({ body: { ...lease(ids), id: LEASE_ROW + ids.outlet } }),
  getRentStatements: () => ({ query: { month: '2026-03' } }),
  getRentStatementsWorkbook: () => ({ query: { month: '2026-03' } }),
  getSalesTrendsWorkbook: () => ({ query: { year: 2026, compare: 'festival_aligned' } }),
  getTenantRentStatement: () => ({ query: { month: '2026-03' } }),
  getTenantRentStatementWorkbook: () => ({ query: { month: '2026-03' } }),
  updateOccupancyBands: (ids) => ({
    body: { client_id: ids.client, bands: [{ category: 'Matrix', low_percent: 5, high_percent: 9 }] },
  }),
  createReportSubscription: (ids) => ({ body: reportSubscription(ids) }),
  updateReportSubscription: (ids) => ({ query: { id: SUBSCRIPTION_ROW + ids.client }, body: reportSubscription(ids) }),
  deleteReportSubscription: (ids) => ({ query: { id: SUBSCRIPTION_ROW + ids.client } }),
  sendReportSubscription: (ids) => ({ body: { client_id: ids.client, id: SUBSCRIPTION_ROW + ids.client } }),
  downloadOutboxAttachment: () => ({ query: { id: OUTBOX_MAIL, position: 1 } }),
};

/** The report subscription each change, removal or send names (PREPARE), and the outbox mail with a file. */
const SUBSCRIPTION_ROW = 100_000;
const OUTBOX_MAIL = 100_000;
const reportSubscription = (ids: Ids): BodyOf<'createReportSubscription'> => ({
  client_id: ids.client,
  name: 'Matrix report',
  page_path: '/shopper-connect/mall-home',
  filters: `client=${ids.client}&malls=${ids.mall}&from=2026-03-01&to=2026-03-07`,
  formats: ['pdf'],
  frequency: 'daily',
  hour: 8,
  recipient_ids: [recipientOf(ids.client)],
  active: true,
});
/** A user of each client every caller may name: the client's tenant user (PREPARE), limited to the call's outlet. */
const recipientOf = (client: number) => TENANT_USER + client;
async function prepareReportSubscription(ids: Ids) {
  await prepareTenantUser(ids, false);
  await db.pool.query(
    `INSERT INTO report_subscriptions (client_id, id, name, page_path, filters, mall_ids, formats, frequency, hour,
       recipient_ids) OVERRIDING SYSTEM VALUE
     VALUES ($1, $2, 'Matrix report', '/shopper-connect/mall-home', $3, $4::int[], '{pdf}', 'daily', 8, $5::int[])
     ON CONFLICT DO NOTHING`,
    [
      ids.client,
      SUBSCRIPTION_ROW + ids.client,
      `client=${ids.client}&malls=${ids.mall}`,
      [ids.mall],
      [TENANT_USER + ids.client],
    ],
  );
}

/** The lease of each outlet a change names (PREPARE); a new lease needs the outlet without one. */
const LEASE_ROW = 100_000;
const lease = (ids: Ids): BodyOf<'createLease'> => ({
  client_id: ids.client,
  outlet_id: ids.outlet,
  start_date: '2026-01-01',
  end_date: '2026-12-31',
  gla_sqm: 80,
  base_rent: 5000,
  service_charge: 800,
  turnover_rent: { model: 'higher_of', tiers: [{ from: 0, rate_percent: 8 }] },
  notice_date: '2026-09-30',
  renewal_date: null,
});
const freeOutletOfLeases = (ids: Ids) =>
  db.pool.query('DELETE FROM leases WHERE client_id = $1 AND outlet_id = $2', [ids.client, ids.outlet]);
const prepareLease = async (ids: Ids) => {
  await freeOutletOfLeases(ids);
  await db.pool.query(
    `INSERT INTO leases (client_id, id, outlet_id, start_date, end_date, gla_sqm, base_rent, service_charge,
       turnover_model, turnover_tiers)
     VALUES ($1, $2, $3, '2026-01-01', '2026-12-31', 80, 5000, 800, 'higher_of', '[{"from": 0, "rate_percent": 8}]')`,
    [ids.client, LEASE_ROW + ids.outlet, ids.outlet],
  );
};

/** The calendar entry of each client and the event of each mall a change or removal names (PREPARE). */
const CALENDAR_ROW = 100_000;
const calendarEntry = (ids: Ids): BodyOf<'createCalendarEntry'> => ({
  client_id: ids.client,
  country: 'SG',
  start_date: '2026-03-01',
  end_date: '2026-03-02',
  name: 'Matrix day',
  kind: 'public_holiday',
});
const mallEvent = (ids: Ids): BodyOf<'createMallEvent'> => ({
  client_id: ids.client,
  mall_id: ids.mall,
  title: 'Matrix sale',
  start_date: '2026-03-01',
  end_date: '2026-03-02',
  kind: 'sale',
});
const prepareCalendarEntry = (ids: Ids) =>
  db.pool.query(
    `INSERT INTO calendar_entries (client_id, id, country, start_date, end_date, name, kind)
     VALUES ($1, $2, 'SG', '2026-03-01', '2026-03-01', 'Matrix day', 'public_holiday') ON CONFLICT DO NOTHING`,
    [ids.client, CALENDAR_ROW + ids.client],
  );
const prepareMallEvent = (ids: Ids) =>
  db.pool.query(
    `INSERT INTO mall_events (client_id, id, mall_id, title, start_date, end_date, kind, created_by)
     VALUES ($1, $2, $3, 'Matrix sale', '2026-03-01', '2026-03-01', 'sale', 'matrix') ON CONFLICT DO NOTHING`,
    [ids.client, CALENDAR_ROW + ids.mall, ids.mall],
  );

/**
 * The alert rule of each outlet (on its mall and that outlet alone, so a tenant limited to it sees it) and its
 * firing, which a change, removal, history or acknowledgement names (PREPARE); its recipient is the client's
 * tenant user.
 */
const ALERT_ROW = 100_000;
const alertRule = (ids: Ids): BodyOf<'createAlertRule'> => ({
  client_id: ids.client,
  name: 'Matrix alert',
  metric: 'gmv',
  mall_ids: [ids.mall],
  outlet_ids: String(ids.outlet),
  condition_kind: 'below',
  condition_value: 100,
  weeks: 4,
  schedule_kind: 'daily',
  schedule_time: '08:00',
  recipient_ids: [TENANT_USER + ids.client],
  active: true,
});
async function prepareAlertRule(ids: Ids) {
  await prepareTenantUser(ids, false);
  await db.pool.query(
    `INSERT INTO alert_rules (client_id, id, name, metric, mall_ids, outlet_ids, condition_kind, condition_value,
       schedule_kind, recipient_ids)
     VALUES ($1, $2, 'Matrix alert', 'gmv', $3::int[], $4::int[], 'below', 100, 'daily', $5::int[])
     ON CONFLICT DO NOTHING`,
    [ids.client, ALERT_ROW + ids.outlet, [ids.mall], [ids.outlet], [TENANT_USER + ids.client]],
  );
  await db.pool.query(
    `INSERT INTO alert_firings (client_id, id, rule_id, period_key, period_start, period_end, value, compared_value,
       fired_at)
     VALUES ($1, $2, $2, '2026-03-01', '2026-03-01', '2026-03-02', 50, 100, now()) ON CONFLICT DO NOTHING`,
    [ids.client, ALERT_ROW + ids.outlet],
  );
}

let categories = 0;
/** Ids above this are rows a delete may remove: put back before each call (PREPARE). */
const DISPOSABLE = 100;
/** The id of each client's tenant user (PREPARE: invited, or active, at the call's outlet). */
const TENANT_USER = 1000;

/** The client's tenant user at the call's outlet: invited (no password) or active, and not deactivated. */
async function prepareTenantUser(ids: Ids, invited: boolean) {
  const userId = TENANT_USER + ids.client;
  await db.pool.query(
    `INSERT INTO users (id, email, display_name, password_hash, default_client_id) VALUES ($1, $2, 'Tenant', $3, $4)
     ON CONFLICT (id) DO UPDATE SET password_hash = excluded.password_hash, disabled = false`,
    [userId, `tenant-user${ids.client}@fixture.test`, invited ? null : 'not-a-hash', ids.client],
  );
  await db.pool.query('INSERT INTO user_clients (client_id, user_id) VALUES ($1, $2) ON CONFLICT DO NOTHING', [
    ids.client,
    userId,
  ]);
  await db.pool.query(
    'INSERT INTO user_outlets (client_id, user_id, outlet_id) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING',
    [ids.client, userId, ids.outlet],
  );
}

/**
 * The settings rows the calls name, for each client: category, subcategory and SKU with the client's id (the SKU
 * at the outlet the tenant sees, in client 1), and a meal timing with each outlet's id.
 */
async function seedSettings() {
  await db.pool.query(`
    INSERT INTO categories (client_id, id, name) VALUES (1, 1, 'Drinks'), (2, 2, 'Apparel');
    INSERT INTO subcategories (client_id, id, category_id, name) VALUES (1, 1, NULL, 'Tea'), (2, 2, NULL, 'Shirts');
    INSERT INTO skus (client_id, id, outlet_id, barcode, item_name, unit_price)
      VALUES (1, 1, 2, 'B-1', 'Scarf', 10), (2, 2, 4, 'A-1', 'Cap', 5);
    INSERT INTO meal_timings (client_id, id, outlet_id, name, start_time, end_time)
      SELECT client_id, id, id, 'Lunch', '11:00', '14:00' FROM outlets;
  `);
  for (const table of ['categories', 'subcategories', 'skus', 'meal_timings']) {
    await db.pool.query(`SELECT setval(pg_get_serial_sequence('${table}', 'id'), 1000)`);
  }
}

/** The month before Singapore's current one: open for GTO submissions in every fixture mall's time zone. */
const GTO_MONTH = (() => {
  const [year = 0, month = 0] = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Singapore' })
    .format(new Date())
    .split('-')
    .map(Number);
  return new Date(Date.UTC(year, month - 2, 1)).toISOString().slice(0, 7);
})();

function gtoSubmission(ids: Ids): BodyOf<'createGtoSubmission'> {
  return {
    client_id: ids.client,
    outlet_id: ids.outlet,
    searchedMonth: GTO_MONTH,
    gtoSubmissionData: [{ date: `${GTO_MONTH}-01`, gto: 100 }],
  };
}

/**
 * A non-trading day two days after Singapore's today: every fixture outlet (no opening day, no sales: days from its
 * own today on) may declare it.
 */
const NON_TRADING_DAY = new Date(Date.now() + 2 * 86_400_000 + 8 * 3_600_000).toISOString().slice(0, 10);
const NON_TRADING_RANGE = { from: '2026-03-01', to: '2026-03-07' } as const;

function nonTradingDay(ids: Ids): BodyOf<'declareNonTradingDay'> {
  return { client_id: ids.client, outlet_id: ids.outlet, day: NON_TRADING_DAY, reason: 'Stocktake' };
}

/** A declaration needs the day free; a removal or withdrawal needs it declared, by the tenant. */
const freeNonTradingDay = (ids: Ids) =>
  db.pool.query('DELETE FROM non_trading_days WHERE client_id = $1 AND outlet_id = $2 AND day = $3::date', [
    ids.client,
    ids.outlet,
    NON_TRADING_DAY,
  ]);
const declaredNonTradingDay = (ids: Ids) =>
  db.pool.query(
    `INSERT INTO non_trading_days (client_id, outlet_id, day, reason, declared_by) VALUES ($1, $2, $3::date, 'Stocktake', 'tenant')
     ON CONFLICT (client_id, outlet_id, day) DO UPDATE SET declared_by = 'tenant'`,
    [ids.client, ids.outlet, NON_TRADING_DAY],
  );

/**
 * What must hold before a call for it to answer 200 whichever caller made it first: a first submission needs the
 * month not submitted yet, a correction needs it submitted.
 */
const PREPARE: { [Id in OperationId]?: (ids: Ids) => Promise<unknown> } = {
  updateXeroSettings: prepareXeroConnection,
  postXeroDay: prepareXeroConnection,
  postRentInvoices: prepareXeroConnection,
  deleteCategory: (ids) =>
    db.pool.query(`INSERT INTO categories (client_id, id, name) VALUES ($1, $2, 'Disposable') ON CONFLICT DO NOTHING`, [
      ids.client,
      DISPOSABLE + ids.client,
    ]),
  deleteMealTiming: (ids) =>
    db.pool.query(
      `INSERT INTO meal_timings (client_id, id, outlet_id, name, start_time, end_time)
       VALUES ($1, $2, $3, 'Disposable', '23:00', '23:30') ON CONFLICT DO NOTHING`,
      [ids.client, DISPOSABLE + ids.outlet, ids.outlet],
    ),
  createGtoSubmission: (ids) =>
    db.pool.query('DELETE FROM gto_submissions WHERE client_id = $1 AND outlet_id = $2 AND month = $3::date', [
      ids.client,
      ids.outlet,
      `${GTO_MONTH}-01`,
    ]),
  updateGtoSubmission: (ids) =>
    db.pool.query(
      `INSERT INTO gto_submissions (client_id, outlet_id, month, gto_amount) VALUES ($1, $2, $3::date, 1)
       ON CONFLICT DO NOTHING`,
      [ids.client, ids.outlet, `${GTO_MONTH}-01`],
    ),
  resendTenantInvitation: (ids) => prepareTenantUser(ids, true),
  setTenantUserStatus: (ids) => prepareTenantUser(ids, false),
  revokeDeviceKey: (ids) =>
    db.pool.query(
      `INSERT INTO device_keys (id, client_id, outlet_id, name, key_hash, key_prefix) OVERRIDING SYSTEM VALUE
       VALUES ($2, $1, $3, 'Matrix till', sha256(convert_to($4, 'UTF8')), 'pos_matrix')
       ON CONFLICT DO NOTHING`,
      [ids.client, DISPOSABLE + ids.outlet, ids.outlet, `matrix-${DISPOSABLE + ids.outlet}`],
    ),
  declareNonTradingDay: freeNonTradingDay,
  declareOutletNonTradingDay: freeNonTradingDay,
  removeNonTradingDay: declaredNonTradingDay,
  withdrawOutletNonTradingDay: declaredNonTradingDay,
  updateCalendarEntry: prepareCalendarEntry,
  deleteCalendarEntry: prepareCalendarEntry,
  updateMallEvent: prepareMallEvent,
  deleteMallEvent: prepareMallEvent,
  createAlertRule: (ids) => prepareTenantUser(ids, false),
  updateAlertRule: prepareAlertRule,
  deleteAlertRule: prepareAlertRule,
  getAlertFirings: prepareAlertRule,
  acknowledgeAlertFiring: prepareAlertRule,
  createLease: freeOutletOfLeases,
  updateLease: prepareLease,
  createReportSubscription: (ids) => prepareTenantUser(ids, false),
  updateReportSubscription: prepareReportSubscription,
  deleteReportSubscription: prepareReportSubscription,
  sendReportSubscription: prepareReportSubscription,
  downloadOutboxAttachment: async () => {
    await db.pool.query(
      `INSERT INTO outbox (id, recipient, subject, text) OVERRIDING SYSTEM VALUE
       VALUES ($1, 'matrix@fixture.test', 'Matrix', 'Attached') ON CONFLICT DO NOTHING`,
      [OUTBOX_MAIL],
    );
    await db.pool.query(
      `INSERT INTO outbox_attachments (outbox_id, position, filename, media_type, bytes)
       VALUES ($1, 1, 'matrix.pdf', 'application/pdf', '\\x25504446') ON CONFLICT DO NOTHING`,
      [OUTBOX_MAIL],
    );
  },
};

function processingFees(ids: Ids): BodyOf<'createProcessingFees'> {
  return {
    client_id: ids.client,
    id: String(ids.outlet),
    formData: [{ payment_method: 'VISA', processing_fees: '2.50' }],
  };
}

const isOperationId = (operationId: string): operationId is OperationId => Object.hasOwn(INPUTS, operationId);

/**
 * Calls an operation with a complete input: the given ids at the places its x-scope names, and what else it
 * needs from INPUTS.
 */
async function call(agent: Agent, operation: Operation, ids: Ids) {
  if (isOperationId(operation.operationId)) await PREPARE[operation.operationId]?.(ids);
  const input = isOperationId(operation.operationId) ? INPUTS[operation.operationId]?.(ids) : undefined;
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(input?.query ?? {})) {
    for (const item of Array.isArray(value) ? value : [value]) query.append(name, String(item));
  }
  const body: Record<string, unknown> = { ...(input?.body ?? {}) };
  for (const [kind, location] of Object.entries(operation.scope)) {
    const [source, name] = location.split('.') as ['query' | 'body', string];
    const value = kind === 'client' ? ids.client : kind.startsWith('outlet') ? ids.outlet : ids.mall;
    if (source === 'query') query.set(name, String(value));
    else body[name] = kind === 'malls' ? [value] : kind === 'outlets' ? String(value) : value;
  }
  const url = `${operation.path.replace(/\{\w+\}/g, '1')}${query.size ? `?${query}` : ''}`;
  return agent.request(operation.method, url, operation.method === 'GET' ? {} : { body });
}

/**
 * What a call with the caller's own ids and a complete input answers: 501 for the operations not built yet,
 * else 200, but for the receipt image, which asks for a receipt the fixtures do not hold, the cross-spending pair
 * of an outlet with itself (404), and the one-time code, which no signed-in session is waiting for (400).
 */
const NOT_FOUND: readonly string[] = ['getReceiptImage', 'getCrossSpendingDetails', 'getCrossSpendingDetailsWorkbook'];
const NO_CODE_AWAITED: readonly string[] = ['verifyOtp'];
function expectedStatus(operation: Operation): number {
  if (NOT_IMPLEMENTED_OPERATIONS.includes(operation.operationId)) return 501;
  if (NO_CODE_AWAITED.includes(operation.operationId)) return 400;
  return NOT_FOUND.includes(operation.operationId) ? 404 : 200;
}

function expectAnswer(response: { statusCode: number; body: string }, operation: Operation) {
  expect(response.statusCode, `${label(operation)}: ${response.body}`).toBe(expectedStatus(operation));
}

const own = { client: 1, outlet: WORLD.outlets.boutique, mall: WORLD.malls.central };
const label = (operation: Operation) => `${operation.method} ${operation.path}`;
const byAccess = (access: Operation['access']) => operations.filter((operation) => operation.access === access);
const scoped = operations.filter((operation) => Object.keys(operation.scope).length > 0);

describe('anonymous', () => {
  it.each(
    operations
      .filter((operation) => operation.access !== 'public')
      .map((operation) => [label(operation), operation] as const),
  )('%s answers 401', async (_, operation) => {
    const response = await call(new Agent(app), operation, own);
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({ statusCode: 401, error: 'Unauthorized' });
  });
});

describe('a user without the permission', () => {
  it.each(byAccess('permission').map((operation) => [label(operation), operation] as const))(
    '%s answers 403',
    async (_, operation) => {
      const response = await call(agents.noLookup, operation, own);
      expect(response.statusCode).toBe(403);
      expect(response.json().message).toBe('You do not have permission to do this.');
    },
  );
});

describe('a user of the other client', () => {
  it.each(scoped.map((operation) => [label(operation), operation] as const))(
    '%s with client 1 ids answers 403',
    async (_, operation) => {
      const response = await call(agents.otherClient, operation, {
        client: 1,
        outlet: WORLD.outlets.cafe,
        mall: WORLD.malls.central,
      });
      expect(response.statusCode).toBe(403);
      expect(response.json().message).toBe('You do not have access to this data.');
    },
  );

  it.each(scoped.map((operation) => [label(operation), operation] as const))(
    '%s with its own ids answers',
    async (_, operation) => {
      const response = await call(agents.otherClient, operation, {
        client: 2,
        outlet: WORLD.outlets.apexShop,
        mall: WORLD.malls.apexPlaza,
      });
      expectAnswer(response, operation);
    },
  );
});

describe('a tenant limited to one outlet', () => {
  const outletScoped = scoped.filter((operation) => operation.scope.outlet || operation.scope.outlets);
  it.each(outletScoped.map((operation) => [label(operation), operation] as const))(
    '%s for another outlet answers 403',
    async (_, operation) => {
      const response = await call(agents.tenant, operation, { ...own, outlet: WORLD.outlets.cafe });
      expect(response.statusCode).toBe(403);
    },
  );
  it.each(outletScoped.map((operation) => [label(operation), operation] as const))(
    '%s for its outlet answers',
    async (_, operation) => {
      expectAnswer(await call(agents.tenant, operation, own), operation);
    },
  );
});

describe('a department user', () => {
  it.each(byAccess('permission').map((operation) => [label(operation), operation] as const))(
    '%s follows its permission list',
    async (_, operation) => {
      const response = await call(agents.department, operation, own);
      if (DEPARTMENT_PERMISSIONS.includes(permissionFor(operation))) expectAnswer(response, operation);
      else expect(response.statusCode).toBe(403);
    },
  );
});

describe('the partner e-mail domain', () => {
  it.each(
    operations.filter((operation) => operation.receipts).map((operation) => [label(operation), operation] as const),
  )('%s answers 403', async (_, operation) => {
    expect((await call(agents.partner, operation, own)).statusCode).toBe(403);
  });
  it('still reaches the other calls its role allows', async () => {
    const response = await agents.partner.get('/outlets?client_id=1');
    expect(response.statusCode).toBe(200);
  });
});

describe('the super admin', () => {
  it.each(
    operations
      .filter((operation) => operation.access !== 'public' && operation.access !== 'device')
      .map((operation) => [label(operation), operation] as const),
  )('%s answers for either client', async (_, operation) => {
    for (const ids of [own, { client: 2, outlet: WORLD.outlets.apexShop, mall: WORLD.malls.apexPlaza }]) {
      // Logging out ends the session the other calls use: it gets a session of its own.
      const agent = operation.operationId === 'logout' ? new Agent(app) : agents.admin;
      if (agent !== agents.admin) await agent.login(WORLD.users.admin, PASSWORD);
      expectAnswer(await call(agent, operation, ids), operation);
    }
  });
});

// Every operation may be built: the list is empty then.
describe.skipIf(NOT_IMPLEMENTED_OPERATIONS.length === 0)('operations not built yet', () => {
  it.each(NOT_IMPLEMENTED_OPERATIONS.map((operationId) => [operationId]))(
    '%s is in the contract and answers 501 with its name',
    async (operationId) => {
      const operation = operations.find((candidate) => candidate.operationId === operationId);
      expect(operation).toBeDefined();
      if (!operation) return;
      const response = await call(agents.admin, operation, own);
      expect(response.statusCode).toBe(501);
      expect(response.json().message).toBe(`${operationId} is not available yet.`);
    },
  );
});
