import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inTransaction } from '../../server/db/pool.js';
import { checkAlertRules } from '../../server/jobs/alertRules.js';
import { type Jobs, startJobs } from '../../server/jobs/queue.js';
import { createMailer } from '../../server/mail/mailer.js';
import { ingestReceipts, type ReceiptInput } from '../../server/repositories/ingestion.js';
import type { components } from '../../src/api/schema.js';
import { ACCESS_CALLERS, grantOperatorPermissions, PASSWORD, receiptInput, seedWorld, WORLD } from './fixtures.js';
import {
  type Agent,
  createTestApp,
  createTestDatabase,
  deliveredOutbox,
  signInAgents,
  type TestDatabase,
} from './helpers.js';

/*
 * Alert rules on the fixture world with a controlled clock: every check is given its now, so nothing waits.
 *
 * Central Mall (Singapore, UTC+8, SGD) has Cafe Uno and Boutique Duo. On Tuesday 10 March 2026 Cafe Uno sold one
 * receipt of 30.00 and Boutique Duo one of 20.00 (GMV 50.00, 2 transactions); on each of the four Tuesdays before
 * (3 March, 24, 17 and 10 February) Cafe Uno sold four receipts of 10.00. Wednesday 11 March 08:05 in Singapore
 * (00:05 UTC) is after the daily rules' 08:00, so their period is the 10th.
 */

type AlertRule = components['schemas']['AlertRule'];
type AlertRuleRequest = components['schemas']['AlertRuleRequest'];

let db: TestDatabase;
let jobs: Jobs;
let app: FastifyInstance;
let agents: Record<keyof typeof ACCESS_CALLERS, Agent>;
const PUBLIC_URL = 'https://mall.example';
const { cafe, boutique, kiosk } = WORLD.outlets;
const { central, harbour } = WORLD.malls;
const silent = { info: () => {}, error: () => {} };
const NOW = new Date('2026-03-11T00:05:00Z');
const PREVIOUS_TUESDAYS = ['2026-03-03', '2026-02-24', '2026-02-17', '2026-02-10'];
const users: Record<string, number> = {};

const outbox = () => deliveredOutbox(db.pool, 'subject');

const ingest = (clientId: number, receipts: ReceiptInput[]) =>
  inTransaction(db.pool, (tx) => ingestReceipts(tx, clientId, receipts));
const sale = (outletId: number, iso: string, amount: number) => receiptInput(outletId, iso, amount, [['CASH', amount]]);
const check = (now: Date) => checkAlertRules({ pool: db.pool, boss: jobs.boss, publicUrl: PUBLIC_URL, now });

/** A rule of Zenith's Central Mall: GMV below 100.00, daily at 08:00, to operator1, with `change`. */
const ruleRequest = (change: Partial<AlertRuleRequest> = {}): AlertRuleRequest => ({
  client_id: 1,
  name: 'Central GMV low',
  metric: 'gmv',
  mall_ids: [central],
  condition_kind: 'below',
  condition_value: 100,
  weeks: 4,
  schedule_kind: 'daily',
  schedule_time: '08:00',
  recipient_ids: [users[WORLD.users.operator1] as number],
  active: true,
  ...change,
});

/** Creates a rule through the API as the operator, made on 1 March (so the March periods are judged). */
async function createRule(change: Partial<AlertRuleRequest> = {}): Promise<AlertRule> {
  const response = await agents.operator.request('POST', '/api/alertRules', { body: ruleRequest(change) });
  expect(response.statusCode, response.body).toBe(200);
  const rule = response.json() as AlertRule;
  await db.pool.query(`UPDATE alert_rules SET created_at = '2026-03-01T00:00:00Z' WHERE id = $1`, [rule.id]);
  return rule;
}

const deactivate = (id: number) => db.pool.query('UPDATE alert_rules SET active = false WHERE id = $1', [id]);

beforeAll(async () => {
  db = await createTestDatabase();
  await seedWorld(db.pool);
  const { rows } = await db.pool.query<{ id: number; email: string }>('SELECT id, email FROM users');
  for (const row of rows) users[row.email] = row.id;
  // Singapore is UTC+8: noon local is 04:00 UTC.
  await ingest(1, [
    sale(cafe, '2026-03-10T04:00:00Z', 30),
    sale(boutique, '2026-03-10T05:00:00Z', 20),
    ...PREVIOUS_TUESDAYS.flatMap((day) => [1, 2, 3, 4].map((minute) => sale(cafe, `${day}T04:0${minute}:00Z`, 10))),
  ]);
  jobs = await startJobs({
    databaseUrl: db.url,
    pool: db.pool,
    mailer: createMailer({ smtpUrl: undefined, mailFrom: 'test@mall.example' }, db.pool, silent),
    publicUrl: PUBLIC_URL,
    log: silent,
    voidAlertsEveryMinutes: 0,
    dailySummaryEveryMinutes: 0,
    feedCheckEveryMinutes: 0,
    alertCheckEveryMinutes: 0,
    pollingIntervalSeconds: 0.5,
  });
  await grantOperatorPermissions(db.pool, [
    '/api/alertRules::Read',
    '/api/alertRules::Create',
    '/api/alertRules::Update',
    '/api/alertRules::Delete',
    '/api/alertRules/firings::Read',
    '/api/alertRules/firings/acknowledge::Update',
    '/api/mall_report/daily::Read',
  ]);
  app = await createTestApp(db.pool);
  agents = await signInAgents(app, ACCESS_CALLERS, PASSWORD);
});
afterAll(async () => {
  await app?.close();
  await jobs?.stop();
  await db?.drop();
});

describe('a daily rule below a value', () => {
  it('fires once for the day, mails the recipient with the value, the bound and the link, and never twice', async () => {
    const rule = await createRule();
    expect(rule).toMatchObject({ time_zone: 'Asia/Singapore', currency: 'SGD', outlet_ids: [], firing_count: 0 });
    // Before 08:00 on the 11th the 10th is not judged yet; the 9th ended after the rule was made and sold nothing.
    expect(await check(new Date('2026-03-10T23:59:00Z'))).toMatchObject({ fired: 1 });
    expect(await check(NOW)).toEqual({ judged: 1, fired: 1, mails: 1 });
    expect(await check(NOW)).toEqual({ judged: 0, fired: 0, mails: 0 });
    expect(await check(new Date('2026-03-11T10:00:00Z'))).toEqual({ judged: 0, fired: 0, mails: 0 });
    const { rows } = await db.pool.query(
      `SELECT period_key, value::float8 AS value, compared_value::float8 AS compared, period_start, period_end,
         compared_start, currency FROM alert_firings WHERE rule_id = $1 ORDER BY period_key`,
      [rule.id],
    );
    expect(rows).toEqual([
      expect.objectContaining({ period_key: '2026-03-09', value: 0, compared: 100 }),
      {
        period_key: '2026-03-10',
        value: 50,
        compared: 100,
        period_start: new Date('2026-03-09T16:00:00Z'),
        period_end: new Date('2026-03-10T16:00:00Z'),
        compared_start: null,
        currency: 'SGD',
      },
    ]);
    const mails = await outbox();
    expect(mails).toHaveLength(2);
    expect(mails[1]).toEqual({
      recipient: WORLD.users.operator1,
      subject: 'Alert: Central GMV low (2026-03-10)',
      text: [
        'Your alert rule "Central GMV low" fired: GMV below $100.00.',
        '',
        'Scope: Central Mall',
        'Period: 2026-03-10 (Asia/Singapore)',
        'GMV: $50.00',
        'Compared with: $100.00, the set value',
        '',
        `See it on Mall Home: ${PUBLIC_URL}/shopper-connect/mall-home?client=1&malls=1&from=2026-03-10&to=2026-03-10`,
        `The rule and its history, for Zenith Malls: ${PUBLIC_URL}/shopper-connect/alerts`,
      ].join('\n'),
    });
    const history = (
      await agents.operator.get(`/api/alertRules/firings?client_id=1&rule_id=${rule.id}`)
    ).json() as components['schemas']['AlertFiringList'];
    expect(history.firings.map((firing) => [firing.period_key, firing.value, firing.acknowledged_by])).toEqual([
      ['2026-03-10', 50, null],
      ['2026-03-09', 0, null],
    ]);
    const first = history.firings[0] as components['schemas']['AlertFiring'];
    const acknowledged = await agents.operator.request('PUT', '/api/alertRules/firings/acknowledge', {
      body: { client_id: 1, id: first.id },
    });
    expect(acknowledged.statusCode).toBe(200);
    expect(acknowledged.json()).toMatchObject({ acknowledged_by: WORLD.users.operator1 });
    await deactivate(rule.id);
    await db.pool.query('DELETE FROM outbox; DELETE FROM scheduled_mails');
  });
});

describe('a change against the same weekday of the last weeks', () => {
  it('compares Cafe Uno’s 1 transaction with the mean of 4 over four Tuesdays: -75 % is beyond 50 %', async () => {
    const rule = await createRule({
      name: 'Cafe transactions',
      metric: 'transactions',
      outlet_ids: String(cafe),
      condition_kind: 'change_vs_weekdays',
      condition_value: 50,
      weeks: 4,
    });
    expect(await check(NOW)).toEqual({ judged: 1, fired: 1, mails: 1 });
    const { rows } = await db.pool.query(
      `SELECT period_key, value::float8 AS value, compared_value::float8 AS compared, compared_start, compared_end,
         currency FROM alert_firings WHERE rule_id = $1`,
      [rule.id],
    );
    expect(rows).toEqual([
      {
        period_key: '2026-03-10',
        value: 1,
        compared: 4,
        // 10 February 00:00 to 4 March 00:00 in Singapore.
        compared_start: new Date('2026-02-09T16:00:00Z'),
        compared_end: new Date('2026-03-03T16:00:00Z'),
        currency: null,
      },
    ]);
    const [mail] = await outbox();
    expect(mail?.text).toContain('Transactions: 1 (-75%)');
    expect(mail?.text).toContain(
      'Compared with: 4, the mean of the same weekday of the last 4 weeks (2026-02-10 to 2026-03-03)',
    );
    expect(mail?.text).toContain('mall-home?client=1&malls=1&outlet=1&from=2026-03-10&to=2026-03-10');
    // A change of 50 % or less does not fire: 75 % is not beyond 80 %.
    await db.pool.query('DELETE FROM alert_firings WHERE rule_id = $1', [rule.id]);
    await db.pool.query('UPDATE alert_rules SET condition_value = 80 WHERE id = $1', [rule.id]);
    expect(await check(NOW)).toEqual({ judged: 1, fired: 0, mails: 0 });
    await deactivate(rule.id);
    await db.pool.query('DELETE FROM outbox; DELETE FROM scheduled_mails');
  });
});

describe('recipients', () => {
  it('mails only those who still see the whole scope: not a user deactivated, nor one limited to some outlets', async () => {
    await createRule({
      name: 'Everyone',
      recipient_ids: [WORLD.users.operator1, WORLD.users.mfa, WORLD.users.tenant, WORLD.users.partner].map(
        (email) => users[email] as number,
      ),
    });
    // The MFA user is deactivated and the partner's role loses the reports after the rule was made; the tenant
    // sees Boutique Duo only, not the mall.
    await db.pool.query('UPDATE users SET disabled = true WHERE email = $1', [WORLD.users.mfa]);
    await db.pool.query(`INSERT INTO roles (id, name, is_super_admin) VALUES (9, 'reader', false)`);
    await db.pool.query('UPDATE user_roles SET role_id = 9 WHERE user_id = $1', [users[WORLD.users.partner]]);
    expect(await check(NOW)).toMatchObject({ fired: 1, mails: 1 });
    expect((await outbox()).map((mail) => mail.recipient)).toEqual([WORLD.users.operator1]);
  });
});

describe('what a request must hold', () => {
  const refused = async (change: Partial<AlertRuleRequest>, field: string) => {
    const response = await agents.operator.request('POST', '/api/alertRules', { body: ruleRequest(change) });
    expect(response.statusCode, JSON.stringify(change)).toBe(400);
    expect(response.body).toContain(field);
  };

  it('answers 400 naming the field', async () => {
    await refused({ name: '   ' }, 'name');
    await refused({ metric: 'refunds', schedule_kind: 'hourly' }, 'schedule_kind');
    await refused({ condition_kind: 'change_vs_weekdays', schedule_kind: 'monthly' }, 'condition_kind');
    await refused({ condition_kind: 'change_vs_previous', condition_value: 0 }, 'condition_value');
    await refused({ condition_kind: 'above', condition_value: 1e13 }, 'condition_value');
    await refused({ weeks: 13 }, 'weeks');
    await refused({ schedule_time: '24:00' }, 'schedule_time');
    await refused({ mall_ids: [central, harbour] }, 'mall_ids');
    await refused({ outlet_ids: String(kiosk) }, 'outlet_ids');
    await refused({ category: 'Jewellery' }, 'category');
    await refused({ recipient_ids: [users[WORLD.users.operator2] as number] }, 'recipient_ids');
    await refused({ recipient_ids: [] }, 'recipient_ids');
  });

  it('audit-logs a change with before and after', async () => {
    const rule = await createRule({ name: 'Audited' });
    const { client_id: _client, ...fields } = ruleRequest({ name: 'Audited again', condition_value: 75.5 });
    const response = await agents.operator.request('PUT', '/api/alertRules', {
      body: { client_id: 1, id: rule.id, ...fields },
    });
    expect(response.statusCode).toBe(200);
    const { rows } = await db.pool.query(
      `SELECT action, detail FROM audit_log WHERE entity = 'alert_rule' AND entity_id = $1 ORDER BY id`,
      [String(rule.id)],
    );
    expect(rows.map((row) => row.action)).toEqual(['create', 'update']);
    expect(rows[1]?.detail).toMatchObject({
      before: { name: 'Audited', condition_value: 100 },
      after: { name: 'Audited again', condition_value: 75.5 },
    });
    const removed = await agents.operator.request('DELETE', `/api/alertRules?client_id=1&id=${rule.id}`);
    expect(removed.json()).toEqual({ id: rule.id });
  });
});

describe('tenants of the product', () => {
  it('never shows a client’s rule to another client, nor a mall’s rule to a caller limited to some outlets', async () => {
    const rule = await createRule({ name: 'Private' });
    expect((await agents.otherClient.get('/api/alertRules?client_id=1')).statusCode).toBe(403);
    const theirs = (await agents.otherClient.get('/api/alertRules?client_id=2')).json() as { rules: AlertRule[] };
    expect(theirs.rules).toEqual([]);
    expect((await agents.otherClient.get(`/api/alertRules/firings?client_id=2&rule_id=${rule.id}`)).statusCode).toBe(
      404,
    );
    const { client_id: _client, ...fields } = ruleRequest();
    expect(
      (
        await agents.otherClient.request('PUT', '/api/alertRules', {
          body: { client_id: 2, id: rule.id, ...fields, mall_ids: [WORLD.malls.apexPlaza] },
        })
      ).statusCode,
    ).toBe(404);
    expect((await agents.otherClient.request('DELETE', `/api/alertRules?client_id=2&id=${rule.id}`)).statusCode).toBe(
      404,
    );
    const tenantList = (await agents.tenant.get('/api/alertRules?client_id=1')).json() as {
      rules: AlertRule[];
      categories: { mall_id: number; name: string }[];
    };
    expect(tenantList.rules.map((shown) => shown.id)).not.toContain(rule.id);
    // The categories offered are those of the outlets the caller sees: the tenant's boutique's alone.
    await db.pool.query(`UPDATE outlets SET category = 'F&B' WHERE id IN (${cafe}, ${kiosk})`);
    await db.pool.query(`UPDATE outlets SET category = 'Fashion' WHERE id = ${boutique}`);
    const operatorList = (await agents.operator.get('/api/alertRules?client_id=1')).json() as typeof tenantList;
    expect(operatorList.categories).toEqual([
      { mall_id: central, name: 'F&B' },
      { mall_id: central, name: 'Fashion' },
      { mall_id: harbour, name: 'F&B' },
    ]);
    const tenantCategories = (await agents.tenant.get('/api/alertRules?client_id=1')).json() as typeof tenantList;
    expect(tenantCategories.categories).toEqual([{ mall_id: central, name: 'Fashion' }]);
    await db.pool.query(`UPDATE outlets SET category = 'Others' WHERE id IN (${cafe}, ${kiosk}, ${boutique})`);
    const tenantRule = await agents.tenant.request('POST', '/api/alertRules', { body: ruleRequest() });
    expect(tenantRule.statusCode).toBe(400);
    expect(tenantRule.body).toContain('outlet_ids');
  });
});
