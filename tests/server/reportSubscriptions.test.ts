import ExcelJS from 'exceljs';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openRenderSession } from '../../server/auth/renderSessions.js';
import { hashSecret } from '../../server/auth/sessions.js';
import { inTransaction } from '../../server/db/pool.js';
import { ExportSlots } from '../../server/exports/exportSlots.js';
import { MALL_HOME_SHEETS } from '../../server/exports/mallHomeWorkbook.js';
import type { PageRenderer, PdfRequest } from '../../server/exports/pageRenderer.js';
import { REPORT_WORKBOOK_SHEETS } from '../../server/exports/reportWorkbooks.js';
import { type Jobs, startJobs } from '../../server/jobs/queue.js';
import {
  checkSubscriptions,
  pageOptionsOf,
  type ReportSubscriptionRuntime,
  reportSubscriptionJobs,
  type SubscriptionDeps,
  sendSubscriptionPeriod,
} from '../../server/jobs/reportSubscriptions.js';
import { createMailer } from '../../server/mail/mailer.js';
import { loadSpecification } from '../../server/openapi.js';
import { ingestReceipts } from '../../server/repositories/ingestion.js';
import { findSubscription } from '../../server/repositories/reportSubscriptions.js';
import type { TenantRentStatement } from '../../src/api/rentStatements.js';
import { categoryLabel } from '../../src/domain/crossSpending.js';
import { formatMonth } from '../../src/domain/format.js';
import { leaseTermsInWords, statementLines } from '../../src/domain/rentStatements.js';
import { SUBSCRIBABLE_PAGES } from '../../src/domain/reportSubscriptions.js';
import {
  COMPARISON_MODES,
  kpiFigures,
  type OutletComparisonAnswer,
  type SeriesAnswer,
  salesKpisOf,
} from '../../src/domain/salesAnalysis.js';
import { grantOperatorPermissions, PASSWORD, receiptInput as receipt, seedWorld, WORLD } from './fixtures.js';
import { Agent, createTestApp, createTestDatabase, defined, type TestDatabase, waitUntil } from './helpers.js';

/*
 * Report subscriptions (issue 34): the API's rules (scope, formats, schedule, recipients, audit), the job on a
 * controlled clock (due once a period in the mall's zone, a recipient who lost access gets nothing, two sends of a
 * period mail once) and the mail's files: the workbook attached is read back against Mall Home's operations for the
 * same filters. The PDF is the browser's (tests/e2e/subscriptions.spec.ts, on the built app); here the renderer is
 * a stand-in that records what it was asked (the page, its filters, the recipient's render-only session).
 *
 * The week of mallHomeWorkbook.test.ts: Central Mall (Asia/Singapore) and Harbour Mall, Monday 2 to Sunday 8 March
 * 2026. A daily subscription at 08:00 of the 7 days up to yesterday, made on the 8th, is due from 08:00 Singapore
 * time on the 9th (00:00 UTC) and reports the same week.
 */
let db: TestDatabase;
let app: FastifyInstance;
let jobs: Jobs;
let operator: Agent;
let admin: Agent;
let tenant: Agent;
const rendered: { request: PdfRequest; renderOnly: boolean | undefined; userId: number | undefined }[] = [];
const silent = { info: () => {}, error: () => {} };
const PUBLIC_URL = 'http://mall.test';

const { cafe, boutique, kiosk, apexShop } = WORLD.outlets;
const { central, harbour, apexPlaza } = WORLD.malls;
const FILTERS = `client=1&malls=${central},${harbour}&from=2026-03-02&to=2026-03-08`;

/** The users whose renders the stand-in fails (a page that never says it has loaded). */
const failRendersOf = new Set<number>();
/** A stand-in for the browser: a tiny PDF naming the page, and what it was asked, with its session's kind. */
const renderer: PageRenderer = {
  state: { available: true, message: '' },
  async renderPdf(request) {
    const { rows } = await db.pool.query<{ render_only: boolean; user_id: number }>(
      'SELECT render_only, user_id FROM sessions WHERE token_hash = $1',
      [hashSecret(request.cookie.value)],
    );
    rendered.push({ request, renderOnly: rows[0]?.render_only, userId: rows[0]?.user_id });
    if (rows[0] !== undefined && failRendersOf.has(rows[0].user_id)) {
      throw new Error('render: the page did not finish loading in time');
    }
    return Buffer.from(`%PDF-1.4\n% ${request.target}\n%%EOF\n`);
  },
  close: async () => {},
};
const runtime: ReportSubscriptionRuntime = {
  renderer,
  slots: new ExportSlots({ perUser: 2, max: 4 }),
  boss: undefined,
};
let ids: { operator: number; partner: number; tenant: number; otherClient: number };

beforeAll(async () => {
  db = await createTestDatabase();
  await seedWorld(db.pool);
  await db.pool.query(
    `INSERT INTO exchange_rates (client_id, month, currency, rate)
     SELECT 1, m::date, 'USD', 1 FROM generate_series('2025-01-01'::date, '2026-12-01', interval '1 month') m`,
  );
  await grantOperatorPermissions(db.pool, [
    ...['daily', 'mall', 'outlet', 'growth', 'payment_method/overall', 'member/overall', 'mall_home/workbook']
      .concat(['member/outlet', 'member/workbook'])
      .map((path) => `/api/mall_report/${path}::Read`),
    '/api/mall_report/refund::Read',
    '/api/mall_report/refund/workbook::Read',
    '/api/reportSubscriptions::Read',
    '/api/reportSubscriptions::Create',
    '/api/reportSubscriptions::Update',
    '/api/reportSubscriptions::Delete',
    '/api/reportSubscriptions/send::Create',
    '/api/reportSubscriptions/recipients::Read',
  ]);
  await inTransaction(db.pool, async (client) => {
    await ingestReceipts(client, 1, [
      receipt(cafe, '2026-03-02T02:15:00Z', 100, [['VISA', 100]], { isMember: true }),
      receipt(cafe, '2026-03-02T04:40:00Z', 50.5, [['VISA', 50.5]]),
      receipt(boutique, '2026-03-04T06:00:00Z', 200, [['MASTER', 200]], { isMember: true }),
      receipt(kiosk, '2026-03-03T02:00:00Z', 40, [['Cash', 40]], { isMember: true }),
    ]);
  });
  const { rows } = await db.pool.query<{ email: string; id: number }>('SELECT email, id FROM users');
  const idOf = (email: string) => defined(rows.find((row) => row.email === email)?.id, email);
  ids = {
    operator: idOf(WORLD.users.operator1),
    partner: idOf(WORLD.users.partner),
    tenant: idOf(WORLD.users.tenant),
    otherClient: idOf(WORLD.users.operator2),
  };
  jobs = await startJobs({
    databaseUrl: db.url,
    pool: db.pool,
    mailer: createMailer({ smtpUrl: undefined, mailFrom: 'test@mall.example' }, db.pool, silent),
    publicUrl: PUBLIC_URL,
    log: silent,
    voidAlertsEveryMinutes: 0,
    dailySummaryEveryMinutes: 0,
    feedCheckEveryMinutes: 0,
    pollingIntervalSeconds: 0.5,
    registrations: [
      reportSubscriptionJobs(runtime, { everyMinutes: 0, renderTimeoutMs: 10_000, pollingIntervalSeconds: 0.5 }),
    ],
  });
  app = await createTestApp(db.pool, { reportSubscriptions: runtime });
  operator = new Agent(app);
  admin = new Agent(app);
  tenant = new Agent(app);
  expect((await operator.login(WORLD.users.operator1, PASSWORD)).statusCode).toBe(200);
  expect((await admin.login(WORLD.users.admin, PASSWORD)).statusCode).toBe(200);
  expect((await tenant.login(WORLD.users.tenant, PASSWORD)).statusCode).toBe(200);
});
afterAll(async () => {
  await app?.close();
  await jobs?.stop();
  await db?.drop();
});

const deps = (): SubscriptionDeps => ({
  pool: db.pool,
  boss: jobs.boss,
  publicUrl: PUBLIC_URL,
  runtime,
  log: silent,
  renderTimeoutMs: 10_000,
});

function body(overrides: Record<string, unknown> = {}) {
  return {
    client_id: 1,
    name: 'Weekly figures',
    page_path: '/shopper-connect/mall-home',
    filters: FILTERS,
    formats: ['pdf', 'workbook'],
    frequency: 'daily',
    hour: 8,
    recipient_ids: [ids.operator, ids.partner],
    active: true,
    ...overrides,
  };
}

/** Creates a subscription through the API, dated `createdAt` (the clock the schedule counts from). */
async function subscribe(overrides: Record<string, unknown> = {}, createdAt = '2026-03-08T00:00:00Z') {
  const response = await operator.request('POST', '/api/reportSubscriptions', { body: body(overrides) });
  expect(response.statusCode, response.body).toBe(200);
  const { id } = response.json() as { id: number };
  await db.pool.query('UPDATE report_subscriptions SET created_at = $2 WHERE id = $1', [id, createdAt]);
  return id;
}

async function outboxOf(recipient: string) {
  const response = await admin.get(`/api/admin/outbox?search=${encodeURIComponent(recipient)}&rowsPerPage=50`);
  expect(response.statusCode, response.body).toBe(200);
  return (
    response.json() as {
      data: {
        id: number;
        subject: string;
        text: string;
        attachments: { position: number; filename: string; media_type: string; size: number }[];
      }[];
    }
  ).data;
}

describe('the API', () => {
  it('creates, lists, changes and deletes a subscription, each audit-logged with before and after', async () => {
    const created = await operator.request('POST', '/api/reportSubscriptions', { body: body() });
    expect(created.statusCode, created.body).toBe(200);
    const subscription = created.json();
    expect(subscription).toMatchObject({
      name: 'Weekly figures',
      page_title: 'Mall Home',
      formats: ['pdf', 'workbook'],
      time_zone: 'Asia/Singapore',
      owner_email: WORLD.users.operator1,
      last_delivery: null,
    });
    expect(subscription.recipients.map((user: { email: string }) => user.email).sort()).toEqual(
      [WORLD.users.partner, WORLD.users.operator1].sort(),
    );
    const list = await operator.get('/api/reportSubscriptions?client_id=1');
    expect(list.json().rendering).toEqual({ available: true, message: '' });
    expect(list.json().data.map((row: { id: number }) => row.id)).toContain(subscription.id);

    const changed = await operator.request('PUT', `/api/reportSubscriptions?id=${subscription.id}`, {
      body: body({ frequency: 'weekly', weekday: 1, hour: 9 }),
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toMatchObject({ frequency: 'weekly', weekday: 1, hour: 9 });
    const removed = await operator.request('DELETE', `/api/reportSubscriptions?client_id=1&id=${subscription.id}`);
    expect(removed.statusCode, removed.body).toBe(200);
    expect(
      (await operator.request('DELETE', `/api/reportSubscriptions?client_id=1&id=${subscription.id}`)).statusCode,
    ).toBe(404);
    const { rows } = await db.pool.query<{ action: string; detail: { before: unknown; after: unknown } }>(
      `SELECT action, detail FROM audit_log WHERE entity = 'report_subscription' AND entity_id = $1 ORDER BY id`,
      [String(subscription.id)],
    );
    expect(rows.map((row) => row.action)).toEqual(['create', 'update', 'delete']);
    expect(rows[1]?.detail).toMatchObject({ before: { frequency: 'daily' }, after: { frequency: 'weekly', hour: 9 } });
    expect(rows[2]?.detail.after).toBeNull();
  });

  it('refuses what the schema cannot: the field named in a 400, the malls of another client with a 403', async () => {
    const refused = async (overrides: Record<string, unknown>) => {
      const response = await operator.request('POST', '/api/reportSubscriptions', { body: body(overrides) });
      return { status: response.statusCode, message: response.json().message as string };
    };
    expect(await refused({ formats: ['pdf', 'csv'] })).toMatchObject({
      status: 400,
      message: expect.stringContaining('body/formats'),
    });
    expect(await refused({ frequency: 'weekly' })).toMatchObject({
      status: 400,
      message: expect.stringContaining('body/weekday'),
    });
    expect(await refused({ month_day: 3 })).toMatchObject({
      status: 400,
      message: expect.stringContaining('body/month_day'),
    });
    expect(await refused({ recipient_ids: [ids.otherClient] })).toMatchObject({
      status: 400,
      message: expect.stringContaining('body/recipient_ids'),
    });
    expect(await refused({ filters: 'client=2&malls=3' })).toMatchObject({
      status: 400,
      message: expect.stringContaining('body/filters'),
    });
    expect(await refused({ filters: `client=1&malls=${apexPlaza}` })).toMatchObject({ status: 403 });
    expect(await refused({ hour: 24 })).toMatchObject({ status: 400, message: expect.stringContaining('hour') });
  });

  it('subscribes the GTO Review of a client the caller sees, keeping the client’s malls the caller sees', async () => {
    const gto = (overrides: Record<string, unknown>) =>
      operator.request('POST', '/api/reportSubscriptions', {
        body: body({ page_path: '/tenant-connect/gto-review', filters: 'client=1&month=2026-02', ...overrides }),
      });
    const created = await gto({});
    expect(created.statusCode, created.body).toBe(200);
    const { id } = created.json() as { id: number };
    // Its malls are the client's the caller sees, by name (its schedule follows Central Mall's zone); the header's
    // malls and outlet are not its filters'.
    expect(defined(await findSubscription(db.pool, 1, id))).toMatchObject({
      page_title: 'GTO Review',
      formats: ['pdf', 'workbook'],
      mallIds: [central, harbour],
      time_zone: 'Asia/Singapore',
    });
    await db.pool.query('DELETE FROM report_subscriptions WHERE id = $1', [id]);
    const carried = await gto({ filters: `client=1&malls=${harbour}&outlet=${cafe}&month=2026-02` });
    expect(carried.statusCode, carried.body).toBe(200);
    expect(carried.json()).toMatchObject({ filters: 'client=1&month=2026-02' });
    expect(defined(await findSubscription(db.pool, 1, carried.json().id))).toMatchObject({
      mallIds: [central, harbour],
    });
    await db.pool.query('DELETE FROM report_subscriptions WHERE id = $1', [carried.json().id]);
    // Another client's is refused; filters without their client (or of another) name the field.
    const other = await gto({ client_id: 2, filters: 'client=2&month=2026-02', recipient_ids: [ids.otherClient] });
    expect(other.statusCode).toBe(403);
    for (const filters of ['month=2026-02', 'client=2&month=2026-02']) {
      const refused = await gto({ filters });
      expect(refused.statusCode).toBe(400);
      expect(refused.json().message).toBe('body/filters must name client_id (client=).');
    }
  });

  it('gives a caller limited to some outlets only recipients limited to outlets they see', async () => {
    const all = (await operator.get('/api/reportSubscriptions/recipients?client_id=1')).json().data;
    expect(all.map((user: { id: number }) => user.id)).toEqual(expect.arrayContaining([ids.operator, ids.tenant]));
    const limited = (await tenant.get('/api/reportSubscriptions/recipients?client_id=1')).json().data;
    expect(limited.map((user: { id: number }) => user.id)).toEqual([ids.tenant]);
  });

  it('answers 409 with the reason, never 500, when the server has no browser to render PDFs', async () => {
    const off: ReportSubscriptionRuntime = {
      renderer: { ...renderer, state: { available: false, message: 'Report subscriptions are off: no browser.' } },
      slots: new ExportSlots({ perUser: 1, max: 1 }),
      boss: undefined,
    };
    const offApp = await createTestApp(db.pool, { reportSubscriptions: off });
    try {
      const agent = new Agent(offApp);
      expect((await agent.login(WORLD.users.operator1, PASSWORD)).statusCode).toBe(200);
      const created = await agent.request('POST', '/api/reportSubscriptions', { body: body() });
      expect(created.statusCode).toBe(409);
      expect(created.json().message).toBe('Report subscriptions are off: no browser.');
      expect((await agent.get('/api/reportSubscriptions?client_id=1')).json().rendering).toEqual({
        available: false,
        message: 'Report subscriptions are off: no browser.',
      });
    } finally {
      await offApp.close();
    }
  });

  it('a render-only session reads the reports and writes nothing', async () => {
    const session = await openRenderSession(db.pool, ids.operator, 120);
    const agent = new Agent(app);
    agent.cookie = `${session.cookie.name}=${session.cookie.value}`;
    const { rows } = await db.pool.query<{ csrf_token: string }>(
      `SELECT csrf_token FROM sessions WHERE render_only AND user_id = $1`,
      [ids.operator],
    );
    agent.csrfToken = defined(rows[0]).csrf_token;
    expect(
      (
        await agent.get(
          `/api/mall_report/daily?client_id=1&mall_ids=${central}&start_time=2026-03-02&end_time=2026-03-08`,
        )
      ).statusCode,
    ).toBe(200);
    const write = await agent.request('POST', '/api/reportSubscriptions', { body: body() });
    expect(write.statusCode).toBe(403);
    expect(write.json().message).toBe('This session only renders reports: it cannot change anything.');
    await session.end();
    expect((await agent.get('/api/reportSubscriptions?client_id=1')).statusCode).toBe(401);
  });
});

describe('the job, on a controlled clock', () => {
  it('sends a period once, in the mall’s zone, to the recipients who still see its malls, with the page’s files', async () => {
    const id = await subscribe();
    // A recipient who lost the client since gets nothing.
    await db.pool.query('DELETE FROM user_clients WHERE user_id = $1', [ids.partner]);
    rendered.length = 0;
    // 07:30 on the 9th in Singapore: not yet.
    expect(await checkSubscriptions(deps(), new Date('2026-03-08T23:30:00Z'))).toEqual([]);
    // 08:05: due, sent once; again at 08:10 and the next hour, nothing.
    expect(await checkSubscriptions(deps(), new Date('2026-03-09T00:05:00Z'))).toEqual(['sent']);
    expect(await checkSubscriptions(deps(), new Date('2026-03-09T00:10:00Z'))).toEqual([]);
    expect(await checkSubscriptions(deps(), new Date('2026-03-09T01:00:00Z'))).toEqual([]);
    // The page as the operator sees it, with the 7 days up to yesterday, in a render-only session ended after.
    expect(rendered).toHaveLength(1);
    expect(rendered[0]?.request.target).toBe(`/shopper-connect/mall-home?${FILTERS}`);
    expect(rendered[0]?.renderOnly).toBe(true);
    const { rows: left } = await db.pool.query('SELECT 1 FROM sessions WHERE render_only');
    expect(left).toEqual([]);
    const stored = defined(await findSubscription(db.pool, 1, id));
    expect(stored.last_delivery).toMatchObject({ period_key: 'D:2026-03-09', state: 'sent', error: null });

    await waitUntil('the mail delivered', async () => (await outboxOf(WORLD.users.operator1)).length > 0);
    const [mail] = await outboxOf(WORLD.users.operator1);
    expect(mail?.subject).toBe('Weekly figures: Mall Home');
    expect(mail?.text).toContain(`${PUBLIC_URL}/shopper-connect/mall-home?${FILTERS}`);
    expect(mail?.attachments.map(({ filename, media_type }) => [filename, media_type])).toEqual([
      ['mall-home_2026-03-02_2026-03-08.pdf', 'application/pdf'],
      ['mall-home_2026-03-02_2026-03-08.xlsx', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
    ]);
    expect(await outboxOf(WORLD.users.partner)).toEqual([]);

    // The workbook's cells are Mall Home's answers for the same filters.
    const file = await admin.get(`/api/admin/outbox/attachment?id=${mail?.id}&position=2`);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-disposition']).toBe('attachment; filename="mall-home_2026-03-02_2026-03-08.xlsx"');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(file.rawPayload as unknown as ExcelJS.Buffer);
    const daily = (
      await operator.get(
        `/api/mall_report/daily?client_id=1&mall_ids=${central}&mall_ids=${harbour}&start_time=2026-03-02&end_time=2026-03-08`,
      )
    ).json().data as { date: string; gmv: number; transactions: number }[];
    const sheet = defined(workbook.getWorksheet(MALL_HOME_SHEETS.daily));
    const cells: unknown[][] = [];
    sheet.eachRow((row, number) => {
      if (number > 1) cells.push([row.getCell(1).value, row.getCell(2).value, row.getCell(3).value]);
    });
    expect(cells).toEqual(daily.map((row) => [new Date(`${row.date}T00:00:00Z`), row.gmv, row.transactions]));
    expect(cells.reduce((sum, row) => sum + Number(row[1]), 0)).toBeCloseTo(390.5, 10);
    const pdf = await admin.get(`/api/admin/outbox/attachment?id=${mail?.id}&position=1`);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.body.startsWith('%PDF-')).toBe(true);
    expect((await admin.get(`/api/admin/outbox/attachment?id=${mail?.id}&position=3`)).statusCode).toBe(404);
    await db.pool.query('INSERT INTO user_clients (client_id, user_id) VALUES (1, $1)', [ids.partner]);
    await db.pool.query('DELETE FROM report_subscriptions WHERE id = $1', [id]);
  });

  it('leaves out alone a recipient whose page could not be rendered, and fails the period only when all fail', async () => {
    const id = await subscribe({ recipient_ids: [ids.operator, ids.partner], name: 'Partly' });
    const subscription = defined(await findSubscription(db.pool, 1, id));
    const deliveryOf = async (periodKey: string) =>
      (
        await db.pool.query<{ state: string; recipients: number; error: string | null }>(
          `SELECT state, recipients, error FROM report_subscription_deliveries
           WHERE subscription_id = $1 AND period_key = $2`,
          [id, periodKey],
        )
      ).rows[0];
    try {
      // The partner's page never loads: the operator still gets theirs, and the period says whom it missed.
      failRendersOf.add(ids.partner);
      const partly = { key: 'D:2026-03-20', sendDay: '2026-03-20' };
      expect(await sendSubscriptionPeriod(deps(), subscription, partly, new Date('2026-03-20T01:00:00Z'))).toBe('sent');
      expect(await deliveryOf(partly.key)).toEqual({
        state: 'sent',
        recipients: 1,
        error: `Not sent to ${WORLD.users.partner}: render: the page did not finish loading in time`,
      });
      await waitUntil('the operator’s mail delivered', async () =>
        (await outboxOf(WORLD.users.operator1)).some((mail) => mail.subject === 'Partly: Mall Home'),
      );
      expect((await outboxOf(WORLD.users.partner)).filter((mail) => mail.subject === 'Partly: Mall Home')).toEqual([]);
      // Nobody's loads: the period is failed, with its reasons, and nothing is mailed.
      failRendersOf.add(ids.operator);
      const none = { key: 'D:2026-03-21', sendDay: '2026-03-21' };
      expect(await sendSubscriptionPeriod(deps(), subscription, none, new Date('2026-03-21T01:00:00Z'))).toBe('failed');
      expect(await deliveryOf(none.key)).toMatchObject({ state: 'failed', recipients: 0 });
      expect((await deliveryOf(none.key))?.error).toContain(WORLD.users.operator1);
    } finally {
      failRendersOf.clear();
      await db.pool.query('DELETE FROM report_subscriptions WHERE id = $1', [id]);
    }
  });

  it('two sends of one period at once mail it once', async () => {
    const id = await subscribe({ recipient_ids: [ids.operator], formats: ['pdf'], name: 'Twice' });
    const subscription = defined(await findSubscription(db.pool, 1, id));
    const period = { key: 'D:2026-03-10', sendDay: '2026-03-10' };
    const now = new Date('2026-03-10T01:00:00Z');
    const outcomes = await Promise.all([
      sendSubscriptionPeriod(deps(), subscription, period, now),
      sendSubscriptionPeriod(deps(), subscription, period, now),
    ]);
    expect(outcomes.sort()).toEqual(['already sent', 'sent']);
    const { rows } = await db.pool.query(
      `SELECT 1 FROM scheduled_mails WHERE kind = 'report_subscription' AND subject = 'Twice: Mall Home'`,
    );
    expect(rows).toHaveLength(1);
    await db.pool.query('DELETE FROM report_subscriptions WHERE id = $1', [id]);
  });

  it('mails the workbook of any report page, made with the page’s hours, time range and metric', async () => {
    const filters = `${FILTERS}&hours=9-21&time_range=daily&metric=transactions`;
    const id = await subscribe({
      page_path: '/shopper-connect/member-vs-non-member',
      filters,
      formats: ['workbook'],
      recipient_ids: [ids.operator],
      name: 'Members',
    });
    const subscription = defined(await findSubscription(db.pool, 1, id));
    const now = new Date('2026-03-09T01:00:00Z');
    expect(
      await sendSubscriptionPeriod(deps(), subscription, { key: 'D:2026-03-09', sendDay: '2026-03-09' }, now),
    ).toBe('sent');
    await waitUntil('the mail delivered', async () =>
      (await outboxOf(WORLD.users.operator1)).some((mail) => mail.subject === 'Members: Member vs Non-member'),
    );
    const mail = (await outboxOf(WORLD.users.operator1)).find(
      (sent) => sent.subject === 'Members: Member vs Non-member',
    );
    expect(mail?.attachments.map(({ filename }) => filename)).toEqual([
      'member-vs-non-member_2026-03-02_2026-03-08.xlsx',
    ]);
    const file = await admin.get(`/api/admin/outbox/attachment?id=${mail?.id}&position=1`);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(file.rawPayload as unknown as ExcelJS.Buffer);
    const [overTimeName] = REPORT_WORKBOOK_SHEETS.member;
    const overall = (
      await operator.get(
        `/api/mall_report/member/overall?client_id=1&mall_ids=${central}&mall_ids=${harbour}&start_time=2026-03-02` +
          '&end_time=2026-03-08&start_hour=9&end_hour=21&time_range=daily&metric=transactions',
      )
    ).json() as { data: { period: string; member: number; non_member: number }[] };
    const rows: unknown[][] = [];
    defined(workbook.getWorksheet(overTimeName)).eachRow((row, number) => {
      if (number > 1) rows.push([row.getCell(1).value, row.getCell(2).value, row.getCell(3).value]);
    });
    expect(rows.slice(0, -1)).toEqual(overall.data.map((row) => [row.period, row.member, row.non_member]));
    const filtersSheet = new Map<string, unknown>();
    defined(workbook.getWorksheet('Filters')).eachRow((row) => {
      filtersSheet.set(String(row.getCell(1).value), row.getCell(2).value);
    });
    expect(filtersSheet.get('Hours')).toBe('09:00 to 21:59');
    expect(filtersSheet.get('Metric')).toBe('Transactions');
    await db.pool.query('DELETE FROM report_subscriptions WHERE id = $1', [id]);
  });

  it('sends a month page as of the month of its last whole day, to recipients allowed that page’s figures', async () => {
    const id = await subscribe({
      page_path: '/tenant-connect/rent-statements',
      filters: `client=1&malls=${central}&month=2026-01`,
      recipient_ids: [ids.operator],
      name: 'Rent',
    });
    const subscription = defined(await findSubscription(db.pool, 1, id));
    expect(subscription.page_title).toBe('Rent Statements');
    rendered.length = 0;
    // The operator may read the mall reports but not the rent statements: nobody gets this page.
    const first = { key: 'M:2026-03', sendDay: '2026-03-01' };
    expect(await sendSubscriptionPeriod(deps(), subscription, first, new Date('2026-03-01T01:00:00Z'))).toBe('sent');
    expect(rendered).toEqual([]);
    const { rows: delivered } = await db.pool.query(
      'SELECT recipients FROM report_subscription_deliveries WHERE subscription_id = $1',
      [id],
    );
    expect(delivered).toEqual([{ recipients: 0 }]);
    // Allowed it, they get February on the 1st of March: the month just ended, its PDF and its workbook.
    await grantOperatorPermissions(db.pool, ['/api/rentStatements::Read', '/api/rentStatements/workbook::Read']);
    const second = { key: 'M:2026-03b', sendDay: '2026-03-01' };
    expect(await sendSubscriptionPeriod(deps(), subscription, second, new Date('2026-03-01T01:00:00Z'))).toBe('sent');
    expect(rendered.map((render) => render.request.target)).toEqual([
      `/tenant-connect/rent-statements?client=1&malls=${central}&month=2026-02`,
    ]);
    await waitUntil('the mail delivered', async () =>
      (await outboxOf(WORLD.users.operator1)).some((mail) => mail.subject === 'Rent: Rent Statements'),
    );
    const mail = (await outboxOf(WORLD.users.operator1)).find((sent) => sent.subject === 'Rent: Rent Statements');
    expect(mail?.attachments.map(({ filename }) => filename)).toEqual([
      'rent-statements_2026-02.pdf',
      'rent-statements_2026-02.xlsx',
    ]);
    await db.pool.query(`DELETE FROM role_api_permissions WHERE permission LIKE '/api/rentStatements%'`);
    await db.pool.query('DELETE FROM report_subscriptions WHERE id = $1', [id]);
  });

  it('mails Marcom’s breakeven page and workbook to the recipients of no department or Marcom’s', async () => {
    await grantOperatorPermissions(db.pool, [
      '/api/mall_report/breakeven_target::Read',
      '/api/mall_report/breakeven_target/workbook::Read',
    ]);
    // A Leasing department user of the client, with the operator's permissions: Marcom's targets are not theirs.
    await db.pool.query(`INSERT INTO roles (name) VALUES ('Leasing team')`);
    const { rows } = await db.pool.query<{ id: number }>(
      `INSERT INTO users (email, password_hash, default_client_id)
       SELECT 'leasing@subscriptions.test', password_hash, 1 FROM users WHERE email = $1 RETURNING id`,
      [WORLD.users.operator1],
    );
    const leasing = defined(rows[0]?.id, 'leasing user');
    await db.pool.query('INSERT INTO user_clients (client_id, user_id) VALUES (1, $1)', [leasing]);
    await db.pool.query(
      `INSERT INTO user_roles (user_id, role_id)
       SELECT $1::int, role_id FROM user_roles WHERE user_id = $2::int
       UNION ALL SELECT $1::int, id FROM roles WHERE name = 'Leasing team'`,
      [leasing, ids.operator],
    );
    const id = await subscribe({
      page_path: '/shopper-connect/breakeven-target/marcom',
      filters: `client=1&malls=${central},${harbour}&month=2026-01`,
      recipient_ids: [ids.operator, leasing],
      name: 'Marcom',
    });
    const subscription = defined(await findSubscription(db.pool, 1, id));
    expect(subscription.formats).toEqual(['pdf', 'workbook']);
    rendered.length = 0;
    // Sent on the 1st of April: March, to the operator alone.
    const period = { key: 'M:2026-04', sendDay: '2026-04-01' };
    expect(await sendSubscriptionPeriod(deps(), subscription, period, new Date('2026-04-01T01:00:00Z'))).toBe('sent');
    expect(rendered.map((render) => [render.request.target, render.userId])).toEqual([
      [`/shopper-connect/breakeven-target/marcom?client=1&malls=${central},${harbour}&month=2026-03`, ids.operator],
    ]);
    await waitUntil('the mail delivered', async () =>
      (await outboxOf(WORLD.users.operator1)).some((mail) => mail.subject === 'Marcom: Marcom Breakeven Target'),
    );
    expect(await outboxOf('leasing@subscriptions.test')).toEqual([]);
    const mail = defined(
      (await outboxOf(WORLD.users.operator1)).find((sent) => sent.subject === 'Marcom: Marcom Breakeven Target'),
      'mail',
    );
    expect(mail.attachments.map(({ filename }) => filename)).toEqual([
      'breakeven-target-marcom_2026-03.pdf',
      'breakeven-target-marcom_2026-03.xlsx',
    ]);
    // The workbook's outlets are the page's answer for March, GST included as Marcom's page reads it.
    const file = await admin.get(`/api/admin/outbox/attachment?id=${mail.id}&position=2`);
    expect(file.headers['content-disposition']).toBe('attachment; filename="breakeven-target-marcom_2026-03.xlsx"');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(file.rawPayload as unknown as ExcelJS.Buffer);
    const answer = await admin.get(
      `/api/mall_report/breakeven_target?client_id=1&mall_ids=${central}&mall_ids=${harbour}&date=2026-03-01&department=marcom&include_gst=true`,
    );
    expect(answer.statusCode, answer.body).toBe(200);
    const outlets: unknown[][] = [];
    workbook.getWorksheet('Outlets')?.eachRow((row, number) => {
      if (number > 1) outlets.push([row.getCell(1).value, row.getCell(5).value]);
    });
    const expected = (answer.json() as { data: { outlet_id: number; gto: number }[] }).data;
    expect(outlets).toEqual(expected.map((row) => [row.outlet_id, row.gto]));
    expect(expected.find((row) => row.outlet_id === cafe)?.gto).toBe(150.5);
    await db.pool.query('DELETE FROM report_subscriptions WHERE id = $1', [id]);
  });

  it('mails Sales Trends with the workbook of the year of its last whole day', async () => {
    await grantOperatorPermissions(db.pool, [
      '/api/mall_report/monthly::Read',
      '/api/mall_report/sales_trends/workbook::Read',
    ]);
    const id = await subscribe({
      page_path: '/shopper-connect/sales-trends',
      filters: `client=1&malls=${central},${harbour}`,
      recipient_ids: [ids.operator],
      name: 'Trends',
    });
    // The page has its workbook beside its PDF: the subscription was taken with both.
    const subscription = defined(await findSubscription(db.pool, 1, id));
    expect(subscription.formats).toEqual(['pdf', 'workbook']);
    rendered.length = 0;
    const period = { key: 'D:2026-03-09', sendDay: '2026-03-09' };
    expect(await sendSubscriptionPeriod(deps(), subscription, period, new Date('2026-03-09T01:00:00Z'))).toBe('sent');
    // The page is given the year of its last whole day, as its workbook: its filters had none.
    expect(rendered.map((render) => render.request.target)).toEqual([
      `/shopper-connect/sales-trends?client=1&malls=${central},${harbour}&year=2026`,
    ]);
    await waitUntil('the mail delivered', async () =>
      (await outboxOf(WORLD.users.operator1)).some((mail) => mail.subject === 'Trends: Sales Trends'),
    );
    const mail = (await outboxOf(WORLD.users.operator1)).find((sent) => sent.subject === 'Trends: Sales Trends');
    expect(mail?.attachments.map(({ filename }) => filename)).toEqual([
      'sales-trends_2026.pdf',
      'sales-trends_2026.xlsx',
    ]);
    // Sent on 1 January 2027: the year just ended, the page's as its files'.
    rendered.length = 0;
    const newYear = { key: 'D:2027-01-01', sendDay: '2027-01-01' };
    expect(await sendSubscriptionPeriod(deps(), subscription, newYear, new Date('2027-01-01T01:00:00Z'))).toBe('sent');
    expect(rendered.map((render) => render.request.target)).toEqual([
      `/shopper-connect/sales-trends?client=1&malls=${central},${harbour}&year=2026`,
    ]);
    const trendsMails = async () =>
      (await outboxOf(WORLD.users.operator1)).filter((sent) => sent.subject === 'Trends: Sales Trends');
    await waitUntil('the second mail delivered', async () => (await trendsMails()).length === 2);
    for (const sent of await trendsMails()) {
      expect(sent.attachments.map(({ filename }) => filename)).toEqual([
        'sales-trends_2026.pdf',
        'sales-trends_2026.xlsx',
      ]);
    }
    await db.pool.query('DELETE FROM report_subscriptions WHERE id = $1', [id]);
  });

  it('mails Refunds with its workbook, its days rolled to the last whole week', async () => {
    const id = await subscribe({
      page_path: '/shopper-connect/refunds',
      filters: `${FILTERS}&compare=same_weekday_last_year`,
      recipient_ids: [ids.operator],
      name: 'Refunds weekly',
    });
    const subscription = defined(await findSubscription(db.pool, 1, id));
    rendered.length = 0;
    const period = { key: 'D:2026-03-16', sendDay: '2026-03-16' };
    expect(await sendSubscriptionPeriod(deps(), subscription, period, new Date('2026-03-16T01:00:00Z'))).toBe('sent');
    const rolled = `client=1&malls=${central},${harbour}&from=2026-03-09&to=2026-03-15&compare=same_weekday_last_year`;
    expect(rendered.map((render) => render.request.target)).toEqual([`/shopper-connect/refunds?${rolled}`]);
    await waitUntil('the mail delivered', async () =>
      (await outboxOf(WORLD.users.operator1)).some((mail) => mail.subject === 'Refunds weekly: Refunds'),
    );
    const mail = (await outboxOf(WORLD.users.operator1)).find((sent) => sent.subject === 'Refunds weekly: Refunds');
    expect(mail?.attachments.map(({ filename }) => filename)).toEqual([
      'refunds_2026-03-09_2026-03-15.pdf',
      'refunds_2026-03-09_2026-03-15.xlsx',
    ]);
    const file = await admin.get(`/api/admin/outbox/attachment?id=${mail?.id}&position=2`);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(file.rawPayload as unknown as ExcelJS.Buffer);
    const filtersSheet = new Map<string, unknown>();
    defined(workbook.getWorksheet('Filters')).eachRow((row) => {
      filtersSheet.set(String(row.getCell(1).value), row.getCell(2).value);
    });
    expect(filtersSheet.get('Comparison')).toBe('Same weekdays last year');
    expect(filtersSheet.get('From')).toEqual(new Date('2026-03-09T00:00:00Z'));
    await db.pool.query('DELETE FROM report_subscriptions WHERE id = $1', [id]);
  });

  it('sends an outlet page to the recipients who see its outlet, in its mall’s zone', async () => {
    await grantOperatorPermissions(db.pool, ['/outlets/overallComparison::Read']);
    const page = { page_path: '/tenant-connect/sales-analysis', formats: ['pdf'] };
    const range = 'from=2026-03-02&to=2026-03-08';
    // Without its outlet, or with an outlet the caller does not see, it is refused.
    const noOutlet = await operator.request('POST', '/api/reportSubscriptions', {
      body: body({ ...page, filters: `client=1&malls=${central}&${range}` }),
    });
    expect(noOutlet.statusCode).toBe(400);
    expect(noOutlet.json().message).toMatch(/filters.*outlet=/);
    const notSeen = await tenant.request('POST', '/api/reportSubscriptions', {
      body: body({ ...page, filters: `client=1&outlet=${cafe}&${range}`, recipient_ids: [ids.tenant] }),
    });
    expect(notSeen.statusCode).toBe(403);
    expect(
      (
        await operator.request('POST', '/api/reportSubscriptions', {
          body: body({ ...page, filters: `client=1&outlet=${apexShop}&${range}` }),
        })
      ).statusCode,
    ).toBe(403);

    rendered.length = 0;
    const sendDay = { key: 'D:2026-03-09', sendDay: '2026-03-09' };
    const now = new Date('2026-03-09T01:00:00Z');
    // Boutique Duo: the operator and the tenant limited to it both get it.
    const boutiqueId = await subscribe({
      ...page,
      filters: `client=1&outlet=${boutique}&${range}`,
      recipient_ids: [ids.operator, ids.tenant],
      name: 'Boutique',
    });
    const boutiqueSubscription = defined(await findSubscription(db.pool, 1, boutiqueId));
    expect(boutiqueSubscription).toMatchObject({ mallIds: [central], time_zone: 'Asia/Singapore' });
    expect(await sendSubscriptionPeriod(deps(), boutiqueSubscription, sendDay, now)).toBe('sent');
    // Cafe Uno, to the same two: the tenant does not see it and gets nothing.
    const cafeId = await subscribe({
      ...page,
      filters: `client=1&outlet=${cafe}&${range}`,
      recipient_ids: [ids.operator, ids.tenant],
      name: 'Cafe',
    });
    expect(
      await sendSubscriptionPeriod(deps(), defined(await findSubscription(db.pool, 1, cafeId)), sendDay, now),
    ).toBe('sent');
    const { rows } = await db.pool.query<{ id: number }>('SELECT id FROM users WHERE email = $1', [WORLD.users.tenant]);
    const tenantSessions = rendered.filter((render) => render.userId === rows[0]?.id).map((r) => r.request.target);
    expect(tenantSessions).toEqual([`/tenant-connect/sales-analysis?client=1&outlet=${boutique}&${range}`]);
    expect(rendered.map((render) => render.request.target)).toEqual([
      `/tenant-connect/sales-analysis?client=1&outlet=${boutique}&${range}`,
      `/tenant-connect/sales-analysis?client=1&outlet=${boutique}&${range}`,
      `/tenant-connect/sales-analysis?client=1&outlet=${cafe}&${range}`,
    ]);
    await db.pool.query('DELETE FROM report_subscriptions WHERE id = ANY($1)', [[boutiqueId, cafeId]]);
  });

  it('mails Sales Review with its outlet’s workbook, to the tenant of that outlet', async () => {
    await grantOperatorPermissions(db.pool, ['/api/salesReview/daily::Read', '/api/salesReview/workbook::Read']);
    const filters = `client=1&outlet=${boutique}&from=2026-03-02&to=2026-03-08`;
    const id = await subscribe({
      page_path: '/tenant-connect/sales-review',
      filters,
      recipient_ids: [ids.tenant],
      name: 'Review',
    });
    const subscription = defined(await findSubscription(db.pool, 1, id));
    expect(subscription.formats).toEqual(['pdf', 'workbook']);
    const period = { key: 'W:2026-03-16', sendDay: '2026-03-16' };
    expect(await sendSubscriptionPeriod(deps(), subscription, period, new Date('2026-03-16T01:00:00Z'))).toBe('sent');
    await waitUntil('the mail delivered', async () =>
      (await outboxOf(WORLD.users.tenant)).some((mail) => mail.subject === 'Review: Sales Review'),
    );
    const mail = defined(
      (await outboxOf(WORLD.users.tenant)).find((sent) => sent.subject === 'Review: Sales Review'),
      'mail',
    );
    expect(mail.attachments.map(({ filename }) => filename)).toEqual([
      'sales-review_2026-03-09_2026-03-15.pdf',
      'sales-review_2026-03-09_2026-03-15.xlsx',
    ]);
    // Its days are the page's answer for the rolled week (the boutique's 200.00 of 4 March is the week before).
    const file = await admin.get(`/api/admin/outbox/attachment?id=${mail.id}&position=2`);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(file.rawPayload as unknown as ExcelJS.Buffer);
    const days: unknown[][] = [];
    workbook.getWorksheet('Days')?.eachRow((row, number) => {
      if (number > 1) days.push([row.getCell(2).value, row.getCell(3).value]);
    });
    const answer = await admin.get(
      `/api/salesReview/daily?client_id=1&outlet_id=${boutique}&start_time=2026-03-09&end_time=2026-03-15`,
    );
    expect(answer.statusCode, answer.body).toBe(200);
    const expected = (answer.json() as { data: { gmv: number; transactions: number }[] }).data;
    expect(days).toEqual(expected.map((day) => [day.gmv, day.transactions]));
    expect(days).toHaveLength(7);
    await db.pool.query('DELETE FROM report_subscriptions WHERE id = $1', [id]);
  });

  it('mails the tenant its outlet’s Rent Statement and Gross Turnover of the month just ended', async () => {
    await grantOperatorPermissions(db.pool, ['/api/tenant/rentStatement::Read', '/api/gtoReport/outletMonths::Read']);
    rendered.length = 0;
    const sent: number[] = [];
    for (const [path, name] of [
      ['/tenants/rent-statement', 'Rent'],
      ['/tenants/gross-turnover', 'GTO'],
    ] as const) {
      const id = await subscribe({
        page_path: path,
        filters: `client=1&outlet=${boutique}&month=2026-01`,
        formats: ['pdf'],
        frequency: 'monthly',
        month_day: 1,
        recipient_ids: [ids.tenant, ids.operator],
        name,
      });
      sent.push(id);
      const subscription = defined(await findSubscription(db.pool, 1, id));
      // The outlet's mall's zone; a PDF alone, as asked.
      expect(subscription).toMatchObject({ mallIds: [central], time_zone: 'Asia/Singapore', formats: ['pdf'] });
      const period = { key: 'M:2026-03', sendDay: '2026-03-01' };
      expect(await sendSubscriptionPeriod(deps(), subscription, period, new Date('2026-03-01T01:00:00Z'))).toBe('sent');
    }
    // Each to both, February, as each recipient (the tenant sees its boutique).
    expect(rendered.map((render) => [render.request.target, render.userId])).toEqual([
      [`/tenants/rent-statement?client=1&outlet=${boutique}&month=2026-02`, ids.tenant],
      [`/tenants/rent-statement?client=1&outlet=${boutique}&month=2026-02`, ids.operator],
      [`/tenants/gross-turnover?client=1&outlet=${boutique}&month=2026-02`, ids.tenant],
      [`/tenants/gross-turnover?client=1&outlet=${boutique}&month=2026-02`, ids.operator],
    ]);
    await waitUntil('the mails delivered', async () => {
      const subjects = (await outboxOf(WORLD.users.tenant)).map((mail) => mail.subject);
      return subjects.includes('Rent: Rent Statement') && subjects.includes('GTO: Gross Turnover');
    });
    const mails = await outboxOf(WORLD.users.tenant);
    expect(mails.find((mail) => mail.subject === 'Rent: Rent Statement')?.attachments.map((a) => a.filename)).toEqual([
      'rent-statement_2026-02.pdf',
    ]);
    // Another outlet than the tenant's goes to the operator alone.
    const cafeId = await subscribe({
      page_path: '/tenants/rent-statement',
      filters: `client=1&outlet=${cafe}&month=2026-01`,
      formats: ['pdf'],
      recipient_ids: [ids.tenant, ids.operator],
      name: 'Cafe rent',
    });
    sent.push(cafeId);
    rendered.length = 0;
    const cafeSubscription = defined(await findSubscription(db.pool, 1, cafeId));
    const period = { key: 'D:2026-03-01', sendDay: '2026-03-01' };
    expect(await sendSubscriptionPeriod(deps(), cafeSubscription, period, new Date('2026-03-01T01:00:00Z'))).toBe(
      'sent',
    );
    expect(rendered.map((render) => render.userId)).toEqual([ids.operator]);
    await db.pool.query('DELETE FROM report_subscriptions WHERE id = ANY($1)', [sent]);
  });

  it('mails the tenant its Rent Statement and Gross Turnover with their workbooks, whose cells are the pages’ answers', async () => {
    await grantOperatorPermissions(db.pool, [
      '/api/tenant/rentStatement::Read',
      '/api/tenant/rentStatement/workbook::Read',
      '/api/gtoReport/outletMonths::Read',
      '/api/gtoReport/outletMonths/workbook::Read',
    ]);
    // Boutique Duo leases from January 2026 (1,000.00 a month, 100.00 of service charge, 10 % of its turnover when
    // more) and declared 100.00 for February; it captured 200.00 on 4 March and declared nothing for it.
    const lease = await admin.request('POST', '/api/leases', {
      body: {
        client_id: 1,
        outlet_id: boutique,
        start_date: '2026-01-01',
        end_date: '2027-12-31',
        gla_sqm: 50,
        base_rent: 1_000,
        service_charge: 100,
        turnover_rent: { model: 'higher_of', tiers: [{ from: 0, rate_percent: 10 }] },
      },
    });
    expect(lease.statusCode, lease.body).toBe(200);
    await db.pool.query(
      `INSERT INTO gto_submissions (client_id, outlet_id, month, gto_amount) VALUES (1, $1, '2026-02-01', 100)`,
      [boutique],
    );
    const sent: number[] = [];
    const workbookOf = async (subject: string, files: string[]) => {
      await waitUntil('the mail delivered', async () =>
        (await outboxOf(WORLD.users.tenant)).some((mail) => mail.subject === subject),
      );
      const mail = defined(
        (await outboxOf(WORLD.users.tenant)).find((one) => one.subject === subject),
        subject,
      );
      expect(mail.attachments.map(({ filename }) => filename)).toEqual(files);
      const file = await admin.get(`/api/admin/outbox/attachment?id=${mail.id}&position=2`);
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.load(file.rawPayload as unknown as ExcelJS.Buffer);
      return workbook;
    };
    const rowsOf = (workbook: ExcelJS.Workbook, name: string, columns: number) => {
      const rows: unknown[][] = [];
      defined(workbook.getWorksheet(name), name).eachRow((row, number) => {
        if (number > 1) rows.push(Array.from({ length: columns }, (_, index) => row.getCell(index + 1).value));
      });
      return rows;
    };
    // Sent on 9 March: Rent Statement's last complete month (February), Gross Turnover's month of the last whole
    // day (March), each with both files.
    const period = { key: 'M:2026-03w', sendDay: '2026-03-09' };
    for (const [path, name] of [
      ['/tenants/rent-statement', 'Rent book'],
      ['/tenants/gross-turnover', 'GTO book'],
    ] as const) {
      const id = await subscribe({
        page_path: path,
        filters: `client=1&outlet=${boutique}&month=2026-01`,
        frequency: 'monthly',
        month_day: 9,
        recipient_ids: [ids.tenant],
        name,
      });
      sent.push(id);
      const subscription = defined(await findSubscription(db.pool, 1, id));
      expect(subscription.formats).toEqual(['pdf', 'workbook']);
      expect(await sendSubscriptionPeriod(deps(), subscription, period, new Date('2026-03-09T01:00:00Z'))).toBe('sent');
    }

    const rent = await workbookOf('Rent book: Rent Statement', [
      'rent-statement_2026-02.pdf',
      'rent-statement_2026-02.xlsx',
    ]);
    const statement = await admin.get(`/api/tenant/rentStatement?client_id=1&outlet_id=${boutique}&month=2026-02`);
    expect(statement.statusCode, statement.body).toBe(200);
    const answer = statement.json() as TenantRentStatement;
    const lines = statementLines(defined(answer.statement), defined(answer.lease).turnover_rent.model, answer.currency);
    expect(rowsOf(rent, 'Lease terms', 2)).toEqual(
      leaseTermsInWords(defined(answer.lease)).map((term) => [term.label, term.text]),
    );
    expect(rowsOf(rent, 'Rent', 2)).toEqual([...lines.lines, lines.total].map((line) => [line.text, line.amount]));
    // By hand: on the 100.00 declared, the base rent of the whole month and its service charge (the 10.00 of
    // percentage rent is below the base rent: no turnover rent), then the total due last, the page's.
    const rentRows = rowsOf(rent, 'Rent', 2);
    expect(rentRows[0]).toEqual(['Sales declared (GTO submission)', 100]);
    expect(rentRows[1]).toEqual(['Base rent, the whole month', 1_000]);
    expect(rentRows.find((row) => row[0] === 'Rent and service charge, without GST')?.[1]).toBe(1_100);
    expect(rentRows.at(-1)).toEqual(['Total due', defined(answer.statement).total_due]);

    const gto = await workbookOf('GTO book: Gross Turnover', [
      'gross-turnover_2026-03.pdf',
      'gross-turnover_2026-03.xlsx',
    ]);
    const months = await admin.get(
      `/api/gtoReport/outletMonths?client_id=1&outlet_id=${boutique}&from=2025-04&to=2026-03`,
    );
    expect(months.statusCode, months.body).toBe(200);
    type Month = {
      month: string;
      declared: number | null;
      captured: number;
      difference: number | null;
      difference_percent: number | null;
    };
    const expected = (months.json() as { data: Month[] }).data.map((row) => [
      formatMonth(row.month),
      row.declared ?? 'Not submitted',
      row.captured,
      row.difference,
      row.difference_percent === null ? null : row.difference_percent / 100,
    ]);
    const gtoRows = rowsOf(gto, 'Months', 5);
    expect(gtoRows).toEqual(expected);
    // By hand: February's 100.00 declared against nothing captured; March's 200.00 captured, not submitted.
    expect(gtoRows.slice(-2)).toEqual([
      ['February 2026', 100, 0, 100, null],
      ['March 2026', 'Not submitted', 200, null, null],
    ]);
    await db.pool.query('DELETE FROM report_subscriptions WHERE id = ANY($1)', [sent]);
    await db.pool.query(`DELETE FROM gto_submissions WHERE outlet_id = $1 AND month = '2026-02-01'`, [boutique]);
    await db.pool.query('DELETE FROM leases WHERE id = $1', [lease.json().id]);
  });

  it('mails the GTO Review of the last complete month, each recipient the list of the outlets they see', async () => {
    await grantOperatorPermissions(db.pool, ['/api/gtoReport/summary::Read', '/api/gtoReport/summary/workbook::Read']);
    // March 2026: the boutique declared 250.00 against its 200.00 captured; the cafe and kiosk declared nothing.
    await db.pool.query(
      `INSERT INTO gto_submissions (client_id, outlet_id, month, gto_amount, submitted_at)
       VALUES (1, $1, '2026-03-01', 250, '2026-04-02T03:00:00Z')`,
      [boutique],
    );
    const id = await subscribe({
      page_path: '/tenant-connect/gto-review',
      filters: 'client=1&month=2026-01',
      frequency: 'monthly',
      month_day: 3,
      recipient_ids: [ids.operator, ids.tenant],
      name: 'GTO',
    });
    const subscription = defined(await findSubscription(db.pool, 1, id));
    rendered.length = 0;
    // Sent on 3 April: March, the last complete month (the page's month picker ends there).
    const period = { key: 'M:2026-04', sendDay: '2026-04-03' };
    expect(await sendSubscriptionPeriod(deps(), subscription, period, new Date('2026-04-03T01:00:00Z'))).toBe('sent');
    expect(rendered.map((render) => [render.request.target, render.userId])).toEqual([
      ['/tenant-connect/gto-review?client=1&month=2026-03', ids.operator],
      ['/tenant-connect/gto-review?client=1&month=2026-03', ids.tenant],
    ]);
    const mailOf = async (recipient: string) => {
      await waitUntil('the mail delivered', async () =>
        (await outboxOf(recipient)).some((mail) => mail.subject === 'GTO: GTO Review'),
      );
      const mail = defined(
        (await outboxOf(recipient)).find((sent) => sent.subject === 'GTO: GTO Review'),
        'mail',
      );
      expect(mail.attachments.map(({ filename }) => filename)).toEqual([
        'gto-review_2026-03.pdf',
        'gto-review_2026-03.xlsx',
      ]);
      const file = await admin.get(`/api/admin/outbox/attachment?id=${mail.id}&position=2`);
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.load(file.rawPayload as unknown as ExcelJS.Buffer);
      const rows: unknown[][] = [];
      defined(workbook.getWorksheet('GTO review')).eachRow((row, number) => {
        if (number > 1) rows.push([1, 4, 5, 6, 7, 8, 9].map((column) => row.getCell(column).value));
      });
      return rows;
    };
    // The operator's rows are the summary's for March, fetched a page of 2 at a time in the page's order.
    const answered: Record<string, unknown>[] = [];
    for (let page = 1; page <= 2; page += 1) {
      const summary = await admin.get(
        `/api/gtoReport/summary?client_id=1&date=2026-03-01&sortColumn=outlet_name&orderByMethod=asc&rowsPerPage=2&page=${page}`,
      );
      expect(summary.statusCode, summary.body).toBe(200);
      answered.push(...summary.json().data);
    }
    const expected = answered.map((row) => [
      row.outlet_name,
      row.currency,
      row.gto_amount,
      row.captured_sales,
      row.variance_amount,
      row.variance_percent,
      row.status === 'submitted' ? 'Submitted' : 'Not submitted',
    ]);
    expect(await mailOf(WORLD.users.operator1)).toEqual(expected);
    // By hand: the boutique +50.00 (25 %) over 200.00, the cafe's 150.50 and the kiosk's 40.00 (USD) undeclared.
    expect(expected).toEqual([
      ['Boutique Duo', 'SGD', 250, 200, 50, 25, 'Submitted'],
      ['Cafe Uno', 'SGD', null, 150.5, null, null, 'Not submitted'],
      ['kiosk tres', 'USD', null, 40, null, null, 'Not submitted'],
    ]);
    // The tenant's holds its own outlet's row alone.
    expect(await mailOf(WORLD.users.tenant)).toEqual([expected[0]]);
    await db.pool.query('DELETE FROM gto_submissions WHERE client_id = 1');
    await db.pool.query('DELETE FROM report_subscriptions WHERE id = $1', [id]);
  });

  it('mails Cross Spending with its outlet’s workbook, whose tables are the page’s answer', async () => {
    await grantOperatorPermissions(db.pool, [
      '/api/mall_report/crossSpending::Read',
      '/api/mall_report/crossSpending/workbook::Read',
    ]);
    // A week of its own, long before the others' (Monday 2 to Sunday 8 September 2024, Singapore): members M1 and
    // M2 bought at Cafe Uno (30.00); both at Boutique Duo too, 50.00 in 3 visits; M1 at Harbour Mall's kiosk.
    await inTransaction(db.pool, async (client) => {
      const bought = (outletId: number, iso: string, amount: number, memberId: string) =>
        receipt(outletId, iso, amount, [['VISA', amount]], { isMember: true, memberId });
      await ingestReceipts(client, 1, [
        bought(cafe, '2024-09-02T03:00:00Z', 10, 'M1'),
        bought(cafe, '2024-09-03T03:00:00Z', 20, 'M2'),
        bought(boutique, '2024-09-04T03:00:00Z', 30, 'M1'),
        bought(boutique, '2024-09-05T03:00:00Z', 12.5, 'M1'),
        bought(boutique, '2024-09-06T03:00:00Z', 7.5, 'M2'),
        bought(kiosk, '2024-09-04T03:00:00Z', 40, 'M1'),
      ]);
    });
    const id = await subscribe(
      {
        page_path: '/shopper-connect/cross-spending',
        filters: `client=1&malls=${central}&outlet=${cafe}&from=2024-08-19&to=2024-08-25`,
        recipient_ids: [ids.operator],
        name: 'Cross',
      },
      '2024-08-26T00:00:00Z',
    );
    const subscription = defined(await findSubscription(db.pool, 1, id));
    expect(subscription.formats).toEqual(['pdf', 'workbook']);
    rendered.length = 0;
    const period = { key: 'D:2024-09-09', sendDay: '2024-09-09' };
    expect(await sendSubscriptionPeriod(deps(), subscription, period, new Date('2024-09-09T01:00:00Z'))).toBe('sent');
    expect(rendered.map((render) => render.request.target)).toEqual([
      `/shopper-connect/cross-spending?client=1&malls=${central}&outlet=${cafe}&from=2024-09-02&to=2024-09-08`,
    ]);
    await waitUntil('the mail delivered', async () =>
      (await outboxOf(WORLD.users.operator1)).some((mail) => mail.subject === 'Cross: Cross Spending'),
    );
    const mail = defined(
      (await outboxOf(WORLD.users.operator1)).find((sent) => sent.subject === 'Cross: Cross Spending'),
      'mail',
    );
    expect(mail.attachments.map(({ filename }) => filename)).toEqual([
      'cross-spending_2024-09-02_2024-09-08.pdf',
      'cross-spending_2024-09-02_2024-09-08.xlsx',
    ]);
    const file = await admin.get(`/api/admin/outbox/attachment?id=${mail.id}&position=2`);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(file.rawPayload as unknown as ExcelJS.Buffer);
    const rowsOf = (name: string) => {
      const rows: unknown[][] = [];
      defined(workbook.getWorksheet(name), name).eachRow((row, number) => {
        if (number > 1) rows.push((row.values as unknown[]).slice(1));
      });
      return rows;
    };
    // The page's answer for the rolled week, fetched as the admin (the operator's grants are cached).
    const answer = await admin.get(
      `/api/mall_report/crossSpending?client_id=1&outlet_id=${cafe}&start_time=2024-09-02&end_time=2024-09-08`,
    );
    expect(answer.statusCode, answer.body).toBe(200);
    type Figures = { shared_shoppers: number; share_percent: number; spend: number; visits: number };
    const page = answer.json() as {
      outlet: { outlet_id: number; outlet_name: string };
      shoppers: number;
      spend: number;
      outlets: (Figures & { outlet_id: number; outlet_name: string; category: string | null })[];
      categories: Figures[];
    };
    expect(rowsOf('Shoppers')).toEqual([[page.outlet.outlet_id, page.outlet.outlet_name, page.shoppers, page.spend]]);
    expect(rowsOf('Outlets')).toEqual(
      page.outlets.map((row) => [
        row.outlet_id,
        row.outlet_name,
        categoryLabel(row.category),
        row.shared_shoppers,
        row.share_percent / 100,
        row.spend,
        row.visits,
      ]),
    );
    // By hand: Cafe Uno's 2 shoppers spent 30.00 there; both also at Boutique Duo (100%), 50.00 in 3 visits.
    expect(rowsOf('Shoppers')).toEqual([[cafe, 'Cafe Uno', 2, 30]]);
    expect(rowsOf('Outlets')).toEqual([[boutique, 'Boutique Duo', 'Others', 2, 1, 50, 3]]);
    expect(rowsOf('Categories')).toEqual([['Others', 2, 1, 50, 3]]);
    await db.pool.query('DELETE FROM report_subscriptions WHERE id = $1', [id]);
  });

  it('mails Sales Analysis with its outlet’s workbook, whose cells are the page’s answers', async () => {
    await grantOperatorPermissions(db.pool, [
      '/outlets/overallComparison::Read',
      '/outlets/salesAnalysis/workbook::Read',
    ]);
    const id = await subscribe({
      page_path: '/tenant-connect/sales-analysis',
      filters: `client=1&outlet=${boutique}&from=2026-03-02&to=2026-03-08`,
      recipient_ids: [ids.tenant],
      name: 'Analysis',
    });
    const subscription = defined(await findSubscription(db.pool, 1, id));
    expect(subscription.formats).toEqual(['pdf', 'workbook']);
    const period = { key: 'D:2026-03-09', sendDay: '2026-03-09' };
    expect(await sendSubscriptionPeriod(deps(), subscription, period, new Date('2026-03-09T01:00:00Z'))).toBe('sent');
    await waitUntil('the mail delivered', async () =>
      (await outboxOf(WORLD.users.tenant)).some((mail) => mail.subject === 'Analysis: Sales Analysis'),
    );
    const mail = defined(
      (await outboxOf(WORLD.users.tenant)).find((sent) => sent.subject === 'Analysis: Sales Analysis'),
      'mail',
    );
    expect(mail.attachments.map(({ filename }) => filename)).toEqual([
      'sales-analysis_2026-03-02_2026-03-08.pdf',
      'sales-analysis_2026-03-02_2026-03-08.xlsx',
    ]);
    const file = await admin.get(`/api/admin/outbox/attachment?id=${mail.id}&position=2`);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(file.rawPayload as unknown as ExcelJS.Buffer);
    const rowsOf = (name: string, columns: readonly number[]) => {
      const rows: unknown[][] = [];
      defined(workbook.getWorksheet(name), name).eachRow((row, number) => {
        if (number > 1) rows.push(columns.map((column) => row.getCell(column).value));
      });
      return rows;
    };
    // The key figures of each comparison, as the page asks GET /outlets/overallComparison (fetched by the admin)
    // and shapes them: the boutique's 200.00 in 1 of 4 March, against days without a sale.
    const outlet = `client_id=1&id=${boutique}`;
    const ask = async (
      days: { start: string; end: string },
      compared: { start: string; end: string },
      compare: string,
    ) => {
      const response = await admin.get(
        `/outlets/overallComparison?${outlet}&startTime=${days.start}&endTime=${days.end}` +
          `&comparedStartTime=${compared.start}&comparedEndTime=${compared.end}&compare=${compare}`,
      );
      expect(response.statusCode, response.body).toBe(200);
      return response.json() as OutletComparisonAnswer;
    };
    const week = { start: '2026-03-02', end: '2026-03-08' };
    const expected: unknown[][] = [];
    for (const mode of COMPARISON_MODES) {
      const kpis = await salesKpisOf(week, mode, '2026-03-09', ask);
      for (const figure of kpiFigures(kpis)) expected.push([figure.current, figure.growth?.compared ?? null]);
    }
    expect(rowsOf('Key figures', [3, 9])).toEqual(expected);
    expect(rowsOf('Key figures', [2, 3]).slice(0, 2)).toEqual([
      ['Revenue', 200],
      ['Transactions', 1],
    ]);
    // Its days are GET /outlets/totalRevenuePoints' for the week, then the total.
    const points = await admin.get(`/outlets/totalRevenuePoints?${outlet}&startTime=2026-03-02&endTime=2026-03-08`);
    expect(points.statusCode, points.body).toBe(200);
    const revenue = points.json() as SeriesAnswer;
    expect(rowsOf('Trend', [3]).map(([value]) => value)).toEqual([
      ...revenue.data.map((point) => point.value),
      revenue.total,
    ]);
    expect(revenue.total).toBe(200);
    await db.pool.query('DELETE FROM report_subscriptions WHERE id = $1', [id]);
  });

  it('sends Cross Spending Details of a pair to the recipients who see both its outlets', async () => {
    await grantOperatorPermissions(db.pool, [
      '/api/mall_report/crossSpending/details::Read',
      '/api/mall_report/crossSpending/details/workbook::Read',
    ]);
    const page = { page_path: '/shopper-connect/cross-spending/details', formats: ['pdf', 'workbook'] };
    const range = 'from=2026-03-02&to=2026-03-08';
    const create = (agent: Agent, filters: string, recipients = [ids.operator, ids.tenant]) =>
      agent.request('POST', '/api/reportSubscriptions', {
        body: body({ ...page, filters, recipient_ids: recipients }),
      });
    // Its other outlet is named, of the outlet's mall, and seen by the caller.
    const noOther = await create(operator, `client=1&malls=${central}&outlet=${cafe}&${range}`);
    expect(noOther.statusCode).toBe(400);
    expect(noOther.json().message).toMatch(/other=/);
    expect((await create(operator, `client=1&outlet=${cafe}&other=${cafe}&${range}`)).statusCode).toBe(400);
    expect((await create(operator, `client=1&outlet=${cafe}&other=${kiosk}&${range}`)).statusCode).toBe(400);
    expect((await create(tenant, `client=1&outlet=${boutique}&other=${cafe}&${range}`, [ids.tenant])).statusCode).toBe(
      403,
    );
    const created = await create(operator, `client=1&malls=${central}&outlet=${cafe}&other=${boutique}&${range}`);
    expect(created.statusCode, created.body).toBe(200);
    const { id } = created.json() as { id: number };
    await db.pool.query('UPDATE report_subscriptions SET created_at = $2 WHERE id = $1', [id, '2026-03-08T00:00:00Z']);
    rendered.length = 0;
    const subscription = defined(await findSubscription(db.pool, 1, id));
    expect(subscription.page_title).toBe('Cross Spending Details');
    const period = { key: 'D:2026-03-16', sendDay: '2026-03-16' };
    expect(await sendSubscriptionPeriod(deps(), subscription, period, new Date('2026-03-16T01:00:00Z'))).toBe('sent');
    // The tenant sees the boutique but not the cafe: only the operator gets the pair, rolled to the last week.
    expect(rendered.map((render) => [render.request.target, render.userId])).toEqual([
      [
        `/shopper-connect/cross-spending/details?client=1&malls=${central}&outlet=${cafe}&other=${boutique}&from=2026-03-09&to=2026-03-15`,
        ids.operator,
      ],
    ]);
    await waitUntil('the mail delivered', async () =>
      (await outboxOf(WORLD.users.operator1)).some((mail) => mail.subject === 'Weekly figures: Cross Spending Details'),
    );
    const mail = (await outboxOf(WORLD.users.operator1)).find(
      (sent) => sent.subject === 'Weekly figures: Cross Spending Details',
    );
    expect(mail?.attachments.map(({ filename }) => filename)).toEqual([
      'cross-spending-details_2026-03-09_2026-03-15.pdf',
      'cross-spending-details_2026-03-09_2026-03-15.xlsx',
    ]);
    // Its days are the pair's answer for the rolled week, fetched as the admin.
    const file = await admin.get(`/api/admin/outbox/attachment?id=${mail?.id}&position=2`);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(file.rawPayload as unknown as ExcelJS.Buffer);
    const days: unknown[][] = [];
    workbook.getWorksheet('Daily')?.eachRow((row, number) => {
      if (number > 1) days.push([2, 3, 4].map((column) => row.getCell(column).value));
    });
    const answer = await admin.get(
      `/api/mall_report/crossSpending/details?client_id=1&outlet_id=${cafe}&other_outlet_id=${boutique}&start_time=2026-03-09&end_time=2026-03-15`,
    );
    expect(answer.statusCode, answer.body).toBe(200);
    const daily = (answer.json() as { daily: { shoppers: number; visits: number; spend: number }[] }).daily;
    expect(days).toEqual(daily.map((day) => [day.shoppers, day.visits, day.spend]));
    expect(days).toHaveLength(7);
    await db.pool.query('DELETE FROM report_subscriptions WHERE id = $1', [id]);
  });

  it('sends the Mall Outlet page of the outlet its path names', async () => {
    await grantOperatorPermissions(db.pool, ['/api/mall_report/outlet/overallComparison::Read']);
    const filters = `client=1&malls=${central}&from=2026-03-02&to=2026-03-08`;
    // The path's outlet decides: another client's outlet is refused, a path without an id is not a page.
    const other = await operator.request('POST', '/api/reportSubscriptions', {
      body: body({ page_path: `/shopper-connect/mall-outlet/${apexShop}`, filters, formats: ['pdf'] }),
    });
    expect(other.statusCode).toBe(403);
    const noId = await operator.request('POST', '/api/reportSubscriptions', {
      body: body({ page_path: '/shopper-connect/mall-outlet/x', filters, formats: ['pdf'] }),
    });
    expect(noId.statusCode).toBe(400);
    expect(noId.json().message).toMatch(/page_path/);
    const id = await subscribe({
      page_path: `/shopper-connect/mall-outlet/${cafe}`,
      filters,
      formats: ['pdf'],
      recipient_ids: [ids.operator, ids.tenant],
      name: 'Cafe outlet',
    });
    const subscription = defined(await findSubscription(db.pool, 1, id));
    expect(subscription).toMatchObject({ page_title: 'Mall Outlet', mallIds: [central] });
    rendered.length = 0;
    const period = { key: 'D:2026-03-09', sendDay: '2026-03-09' };
    expect(await sendSubscriptionPeriod(deps(), subscription, period, new Date('2026-03-09T01:00:00Z'))).toBe('sent');
    // The tenant, limited to Boutique Duo, does not see Cafe Uno: only the operator's page is rendered.
    expect(rendered.map((render) => [render.userId, render.request.target])).toEqual([
      [ids.operator, `/shopper-connect/mall-outlet/${cafe}?${filters}`],
    ]);
    await db.pool.query('DELETE FROM report_subscriptions WHERE id = $1', [id]);
  });

  it('mails the Mall Outlet page with its outlet’s workbook, both named after the path’s outlet', async () => {
    await grantOperatorPermissions(db.pool, [
      '/api/mall_report/outlet/overallComparison::Read',
      '/api/mall_report/outlet/workbook::Read',
    ]);
    const filters = `client=1&malls=${central}&from=2026-03-02&to=2026-03-08&compare=same_weekday_last_year`;
    const id = await subscribe({
      page_path: `/shopper-connect/mall-outlet/${cafe}`,
      filters,
      recipient_ids: [ids.operator],
      name: 'Cafe figures',
    });
    const subscription = defined(await findSubscription(db.pool, 1, id));
    expect(subscription.formats).toEqual(['pdf', 'workbook']);
    const period = { key: 'D:2026-03-09', sendDay: '2026-03-09' };
    expect(await sendSubscriptionPeriod(deps(), subscription, period, new Date('2026-03-09T01:00:00Z'))).toBe('sent');
    const subject = 'Cafe figures: Mall Outlet';
    await waitUntil('the mail delivered', async () =>
      (await outboxOf(WORLD.users.operator1)).some((mail) => mail.subject === subject),
    );
    const mail = defined(
      (await outboxOf(WORLD.users.operator1)).find((sent) => sent.subject === subject),
      'mail',
    );
    expect(mail.attachments.map(({ filename }) => filename)).toEqual([
      `mall-outlet-${cafe}_2026-03-02_2026-03-08.pdf`,
      `mall-outlet-${cafe}_2026-03-02_2026-03-08.xlsx`,
    ]);
    const file = await admin.get(`/api/admin/outbox/attachment?id=${mail.id}&position=2`);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(file.rawPayload as unknown as ExcelJS.Buffer);
    const values = (name: string) => {
      const rows: unknown[][] = [];
      workbook.getWorksheet(name)?.eachRow((row, number) => {
        if (number > 1) rows.push(Array.from({ length: 9 }, (_, index) => row.getCell(index + 1).value));
      });
      return rows;
    };
    // The page's answers for its outlet, week and comparison (the week ended before the send day: no today in it).
    const outletWeek = `client_id=1&outlet_id=${cafe}&start_time=2026-03-02&end_time=2026-03-08`;
    const answer = async (path: string) => {
      const response = await admin.get(`/api/mall_report/${path}`);
      expect(response.statusCode, response.body).toBe(200);
      return response.json();
    };
    const compared = await answer(`outlet/overallComparison?${outletWeek}&compare=same_weekday_last_year`);
    const day = (value: string) => new Date(`${value}T00:00:00Z`);
    expect(values('Key figures').map((row) => row.slice(0, 8))).toEqual(
      (['gmv', 'transactions', 'average_transaction_value'] as const).map((measure, index) => [
        ['GMV', 'Transactions', 'Average Transaction Value'][index],
        compared.current[measure],
        day('2026-03-02'),
        day('2026-03-08'),
        compared.current[measure],
        day(compared.previous_start_time),
        day(compared.previous_end_time),
        compared.previous[measure],
      ]),
    );
    expect(compared.current.gmv).toBe(150.5);
    const daily = (await answer(`outlet/daily?${outletWeek}`)).data as {
      date: string;
      gmv: number;
      transactions: number;
    }[];
    expect(values('Daily').map((row) => row.slice(0, 3))).toEqual(
      daily.map((row) => [day(row.date), row.gmv, row.transactions]),
    );
    const peers = (
      await answer(
        `category/outlet?client_id=1&mall_ids=${central}&start_time=2026-03-02&end_time=2026-03-08&outlet_id=${cafe}&limit=10`,
      )
    ).data as { outlet_id: number; gmv: number }[];
    expect(values('Category peers').map((row) => [row[1], row[4]])).toEqual(
      peers.map((row) => [row.outlet_id, row.gmv]),
    );
    const named = new Map(values('Filters').map(([name, value]) => [name, value]));
    expect(named.get('Outlet')).toBe('Cafe Uno');
    expect(named.get('Comparison')).toBe('Same weekdays last year');
    await db.pool.query('DELETE FROM report_subscriptions WHERE id = $1', [id]);
  });

  it('names in the contract exactly the pages a subscription may name', () => {
    const schemas = (loadSpecification() as { components: { schemas: Record<string, unknown> } }).components.schemas;
    const input = schemas.ReportSubscriptionInput as {
      properties: { page_path: { anyOf: { enum?: string[]; pattern?: string }[] } };
    };
    const [named, withId] = input.properties.page_path.anyOf;
    const paths = SUBSCRIBABLE_PAGES.map((page) => page.path);
    expect(named?.enum).toEqual(paths.filter((path) => !path.endsWith('/:id')));
    expect(paths.filter((path) => path.endsWith('/:id'))).toEqual(['/shopper-connect/mall-outlet/:id']);
    expect(new RegExp(withId?.pattern ?? '^$').test('/shopper-connect/mall-outlet/12')).toBe(true);
    expect(new RegExp(withId?.pattern ?? '^$').test('/shopper-connect/mall-outlet/x')).toBe(false);
  });

  it('reads a page’s hours, time range and metric from its filters, leaving out what the header would not write', () => {
    expect(pageOptionsOf(new URLSearchParams('hours=9-21&time_range=weekly&metric=gmv'))).toEqual({
      start_hour: 9,
      end_hour: 21,
      time_range: 'weekly',
      metric: 'gmv',
    });
    expect(pageOptionsOf(new URLSearchParams('hours=21-9&time_range=yearly&metric=profit'))).toEqual({});
    expect(pageOptionsOf(new URLSearchParams('hours=0-24'))).toEqual({});
  });

  it('a weekly subscription is due on its weekday from its hour, a monthly one on its day', async () => {
    // Monday 9 March 2026 at 08:00 Singapore time.
    const weekly = await subscribe({
      frequency: 'weekly',
      weekday: 1,
      formats: ['pdf'],
      recipient_ids: [ids.operator],
      name: 'W',
    });
    const monthly = await subscribe({
      frequency: 'monthly',
      month_day: 10,
      formats: ['pdf'],
      recipient_ids: [ids.operator],
      name: 'M',
    });
    const keys = async (now: string) => {
      await checkSubscriptions(deps(), new Date(now));
      const { rows } = await db.pool.query<{ period_key: string }>(
        'SELECT period_key FROM report_subscription_deliveries WHERE subscription_id = ANY($1) ORDER BY period_key',
        [[weekly, monthly]],
      );
      return rows.map((row) => row.period_key);
    };
    expect(await keys('2026-03-08T23:00:00Z')).toEqual([]);
    expect(await keys('2026-03-09T00:30:00Z')).toEqual(['W:2026-03-09']);
    expect(await keys('2026-03-10T00:30:00Z')).toEqual(['M:2026-03', 'W:2026-03-09']);
    expect(await keys('2026-03-12T00:30:00Z')).toEqual(['M:2026-03', 'W:2026-03-09']);
    expect(await keys('2026-03-16T00:30:00Z')).toEqual(['M:2026-03', 'W:2026-03-09', 'W:2026-03-16']);
    await db.pool.query('DELETE FROM report_subscriptions WHERE id = ANY($1)', [[weekly, monthly]]);
  });

  it('"send now" queues a delivery of its own, mailed off the request', async () => {
    const id = await subscribe({ recipient_ids: [ids.operator], formats: ['pdf'], name: 'Now' });
    const sent = await operator.request('POST', '/api/reportSubscriptions/send', { body: { client_id: 1, id } });
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json().period_key).toMatch(/^now:/);
    await waitUntil('the mail of send now', async () =>
      (await outboxOf(WORLD.users.operator1)).some((mail) => mail.subject === 'Now: Mall Home'),
    );
    expect(
      (await operator.request('POST', '/api/reportSubscriptions/send', { body: { client_id: 1, id: 999999 } }))
        .statusCode,
    ).toBe(404);
  });
});
