import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inTransaction } from '../../server/db/pool.js';
import { checkFeeds } from '../../server/jobs/feedAlerts.js';
import { type Jobs, startJobs } from '../../server/jobs/queue.js';
import { createMailer } from '../../server/mail/mailer.js';
import { feedOutlets } from '../../server/repositories/feeds.js';
import { ingestReceipts, type ReceiptInput } from '../../server/repositories/ingestion.js';
import type { components } from '../../src/api/schema.js';
import { ACCESS_CALLERS, grantOperatorPermissions, PASSWORD, receiptInput, seedWorld, WORLD } from './fixtures.js';
import {
  type Agent,
  countRows,
  createTestApp,
  createTestDatabase,
  deliveredOutbox,
  signInAgents,
  type TestDatabase,
} from './helpers.js';

/*
 * Feed alerts on the fixture world with a controlled clock: every check is given its now, so nothing waits.
 *
 * Wednesday 11 March 2026, 12:30 in Singapore (04:30 UTC) is the check's now. Cafe Uno and Boutique Duo (Central
 * Mall, Singapore) sold at 11:15 and 12:15 on each of the four Wednesdays before; today Cafe Uno's last receipt is
 * at 11:20, so at 12:30 it has been quiet for 70 minutes in hours it usually trades. Boutique Duo's today is
 * declared non-trading. Each has a till (a device key; only Cafe Uno's has called). kiosk tres (Harbour Mall, New York, UTC-4 since 8 March: 00:30 on the same Wednesday
 * there) sold only at 10:00 on the Wednesdays before. Void e-mails are on for admin (super admin: every client), operator1 (Zenith, every outlet) and
 * the tenant (Zenith, Boutique Duo only).
 */

let db: TestDatabase;
let jobs: Jobs;
let app: FastifyInstance;
let agents: Record<keyof typeof ACCESS_CALLERS, Agent>;
const PUBLIC_URL = 'https://mall.example';
const { cafe, boutique, kiosk } = WORLD.outlets;
const { central, harbour, apexPlaza } = WORLD.malls;
const silent = { info: () => {}, error: () => {} };
const NOW = new Date('2026-03-11T04:30:00Z');
const minutesLater = (minutes: number) => new Date(NOW.getTime() + minutes * 60_000);
const PREVIOUS_WEDNESDAYS = ['2026-03-04', '2026-02-25', '2026-02-18', '2026-02-11'];

const count = (sql: string, values: unknown[] = []) => countRows(db.pool, sql, values);
const outbox = () => deliveredOutbox(db.pool);

const ingest = (clientId: number, receipts: ReceiptInput[]) =>
  inTransaction(db.pool, (tx) => ingestReceipts(tx, clientId, receipts));
const sale = (outletId: number, iso: string) => receiptInput(outletId, iso, 10, [['CASH', 10]]);
const check = (now: Date) => checkFeeds({ pool: db.pool, boss: jobs.boss, publicUrl: PUBLIC_URL, now });

beforeAll(async () => {
  db = await createTestDatabase();
  await seedWorld(db.pool);
  for (const email of [WORLD.users.admin, WORLD.users.operator1, WORLD.users.tenant]) {
    await db.pool.query(
      `INSERT INTO email_subscriptions (client_id, user_id, email_subscribe, summary_email_subscribe)
       SELECT 1, id, true, false FROM users WHERE email = $1`,
      [email],
    );
  }
  // Singapore is UTC+8: 11:15 and 12:15 local are 03:15 and 04:15 UTC. New York is UTC-5 until 8 March: 10:00
  // local on the Wednesdays before is 15:00 UTC.
  await ingest(1, [
    ...PREVIOUS_WEDNESDAYS.flatMap((day) =>
      [cafe, boutique].flatMap((outlet) => [sale(outlet, `${day}T03:15:00Z`), sale(outlet, `${day}T04:15:00Z`)]),
    ),
    ...PREVIOUS_WEDNESDAYS.map((day) => sale(kiosk, `${day}T15:00:00Z`)),
    sale(cafe, '2026-03-11T03:20:00Z'),
  ]);
  await db.pool.query(
    `INSERT INTO non_trading_days (client_id, outlet_id, day, reason, declared_by) VALUES (1, $1, '2026-03-11', 'Renovation', 'mall')`,
    [boutique],
  );
  await db.pool.query(
    `INSERT INTO device_keys (client_id, outlet_id, name, key_hash, key_prefix, last_used_at) VALUES
       (1, $1, 'Till 1', '\\x01', 'pos_test0001', '2026-03-11T03:21:00Z'),
       (1, $2, 'Till 2', '\\x02', 'pos_test0002', NULL),
       (1, $3, 'Till 3', '\\x03', 'pos_test0003', NULL)`,
    [cafe, boutique, kiosk],
  );
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
    '/api/dataFeeds::Read',
    '/api/dataFeeds/settings::Read',
    '/api/dataFeeds/settings::Update',
  ]);
  app = await createTestApp(db.pool);
  agents = await signInAgents(app, ACCESS_CALLERS, PASSWORD);
});
afterAll(async () => {
  await app?.close();
  await jobs?.stop();
  await db?.drop();
});

describe('what the check reads', () => {
  it('reads each outlet in its mall’s day and hour from the hour rollup', async () => {
    const outlets = await feedOutlets(db.pool, NOW, { kind: 'all' });
    const byId = new Map(outlets.map((outlet) => [outlet.outletId, outlet]));
    expect(byId.get(cafe)).toMatchObject({
      today: '2026-03-11',
      usualNow: 4,
      usualThen: 4,
      // By 12:30 on each Wednesday before: the 11:15 sale and half of the hour of the 12:15 one.
      usualByNow: 2,
      receiptsToday: 1,
      lastReceiptAt: new Date('2026-03-11T03:20:00Z'),
      lastCallAt: new Date('2026-03-11T03:21:00Z'),
      nonTrading: false,
      silenceMinutes: 60,
      silenceSince: null,
    });
    expect(byId.get(boutique)).toMatchObject({ usualNow: 4, nonTrading: true, receiptsToday: 0, lastCallAt: null });
    expect(byId.get(kiosk)).toMatchObject({ today: '2026-03-11', usualNow: 0, usualThen: 0, receiptsToday: 0 });
  });
});

describe('a silence', () => {
  it('raises nothing before the client’s set time has passed', async () => {
    await db.pool.query('UPDATE clients SET feed_silence_minutes = 90 WHERE id = 1');
    expect(await check(NOW)).toEqual({ raised: 0, resumed: 0, mails: 0 });
    await db.pool.query('UPDATE clients SET feed_silence_minutes = 60 WHERE id = 1');
  });

  it('raises one alert to each recipient who sees the outlet, even with two checks at once', async () => {
    const [first, second] = await Promise.all([check(NOW), check(NOW)]);
    expect(first.raised + second.raised).toBe(1);
    expect(first.mails + second.mails).toBe(2);
    const mails = await outbox();
    expect(mails.map((mail) => mail.recipient).sort()).toEqual([WORLD.users.admin, WORLD.users.operator1].sort());
    for (const mail of mails) {
      expect(mail.subject).toBe('No receipts from Cafe Uno (Central Mall)');
      expect(mail.text.split('\n')).toEqual([
        'Cafe Uno at Central Mall usually trades at this hour and has sent no receipt for 70 minutes.',
        '',
        'Last receipt: 2026-03-11 11:20:00 (Asia/Singapore)',
        "Device's last call: 2026-03-11 11:21:00 (Asia/Singapore)",
        '',
        "Check the outlet's till and its capture device. You get one note when its receipts resume.",
        `Data feeds of Zenith Malls: ${PUBLIC_URL}/shopper-connect/data-feeds`,
        '',
        `You get these alerts because void receipt e-mails are on in your settings: ${PUBLIC_URL}/settings`,
      ]);
    }
    expect(await count('feed_silences')).toBe(1);
  });

  it('raises nothing again at the next checks while the outlet stays silent', async () => {
    expect(await check(minutesLater(5))).toEqual({ raised: 0, resumed: 0, mails: 0 });
    expect(await check(minutesLater(10))).toEqual({ raised: 0, resumed: 0, mails: 0 });
    expect(await outbox()).toHaveLength(2);
  });

  it('sends one recovery note when receipts resume, and nothing after', async () => {
    await ingest(1, [sale(cafe, '2026-03-11T04:42:00Z')]);
    expect(await check(minutesLater(15))).toEqual({ raised: 0, resumed: 1, mails: 2 });
    expect(await check(minutesLater(20))).toEqual({ raised: 0, resumed: 0, mails: 0 });
    const added = (await outbox()).slice(2);
    expect(added.map((mail) => mail.recipient).sort()).toEqual([WORLD.users.admin, WORLD.users.operator1].sort());
    for (const mail of added) {
      expect(mail.subject).toBe('Receipts resumed from Cafe Uno (Central Mall)');
      expect(mail.text).toContain('Silent since: 2026-03-11 11:20:00 (Asia/Singapore)');
      expect(mail.text).toContain('Latest receipt: 2026-03-11 12:42:00 (Asia/Singapore)');
    }
    expect(await count('feed_silences')).toBe(0);
  });

  it('raises none on a declared non-trading day, nor for an outlet that never trades at that hour', async () => {
    const mails = (await outbox()).map((mail) => mail.subject).join('\n');
    expect(mails).not.toContain('Boutique Duo');
    expect(mails).not.toContain('kiosk tres');
    // Two hours on, past Cafe Uno's usual hours: nothing at all.
    expect(await check(minutesLater(120))).toEqual({ raised: 0, resumed: 0, mails: 0 });
  });

  it('mails the mall’s operators, never a tenant who sees the outlet', async () => {
    await db.pool.query('DELETE FROM non_trading_days WHERE outlet_id = $1', [boutique]);
    const before = (await outbox()).length;
    expect(await check(minutesLater(25))).toEqual({ raised: 1, resumed: 0, mails: 2 });
    const added = (await outbox()).slice(before);
    expect(added.map((mail) => mail.recipient).sort()).toEqual([WORLD.users.admin, WORLD.users.operator1].sort());
    expect(added[0]?.subject).toBe('No receipts from Boutique Duo (Central Mall)');
    // Its last receipt is a week old: the mail says so.
    expect(added[0]?.text).toContain('has sent no receipt for 7 days.');
    expect(added[0]?.text).toContain('Last receipt: 2026-03-04 12:15:00 (Asia/Singapore)');
    expect(added[0]?.text).toContain("Device's last call: never");
    await db.pool.query('DELETE FROM feed_silences');
  });

  it('watches only outlets with a capture device: without an active device key, nothing is raised', async () => {
    await db.pool.query('UPDATE device_keys SET revoked_at = now() WHERE outlet_id = $1', [boutique]);
    expect(await check(minutesLater(26))).toEqual({ raised: 0, resumed: 0, mails: 0 });
    await db.pool.query('UPDATE device_keys SET revoked_at = NULL WHERE outlet_id = $1', [boutique]);
    expect(await check(minutesLater(27))).toMatchObject({ raised: 1 });
    await db.pool.query('DELETE FROM feed_silences');
  });
});

describe('GET /api/dataFeeds', () => {
  type Report = components['schemas']['DataFeedReport'];

  it('answers every outlet the caller sees in the malls, with an open silence', async () => {
    await db.pool.query(
      `INSERT INTO feed_silences (client_id, outlet_id, since, raised_at) VALUES (1, $1, now() - interval '2 hours', now())`,
      [cafe],
    );
    const response = await agents.operator.get(`/api/dataFeeds?client_id=1&mall_ids=${central}&mall_ids=${harbour}`);
    expect(response.statusCode, response.body).toBe(200);
    const report = response.json() as Report;
    expect(report.silence_minutes).toBe(60);
    expect(report.rows.map((row) => row.outlet_name)).toEqual(['Boutique Duo', 'Cafe Uno', 'kiosk tres']);
    const cafeRow = report.rows.find((row) => row.outlet_id === cafe);
    expect(cafeRow?.state).toBe('silent');
    expect(cafeRow?.silent_since).not.toBeNull();
    expect(cafeRow?.last_receipt_at).toBeNull(); // nothing in the last 35 days of the real clock
    expect(report.rows.find((row) => row.outlet_id === kiosk)?.state).toBe('idle');
  });

  it('answers the tenant its own outlet only', async () => {
    const response = await agents.tenant.get(`/api/dataFeeds?client_id=1&mall_ids=${central}`);
    expect(response.statusCode, response.body).toBe(200);
    expect((response.json() as Report).rows.map((row) => row.outlet_id)).toEqual([boutique]);
  });

  it('refuses another client’s mall ids like every other scoped id', async () => {
    const response = await agents.operator.get(`/api/dataFeeds?client_id=1&mall_ids=${apexPlaza}`);
    expect(response.statusCode).toBe(403);
    const other = await agents.otherClient.get(`/api/dataFeeds?client_id=1&mall_ids=${central}`);
    expect(other.statusCode).toBe(403);
  });
});

describe('/api/dataFeeds/settings', () => {
  const put = (agent: Agent, body: Record<string, unknown>) =>
    agent.request('PUT', '/api/dataFeeds/settings', {
      body: { client_id: 1, silence_minutes: 30, unusual_threshold: 2.5, unusual_min_baseline: 4, ...body },
    });

  it('answers the defaults, saves the rules (audit-logged) and the feed report and checks read them', async () => {
    const before = await agents.operator.get('/api/dataFeeds/settings?client_id=1');
    expect(before.statusCode, before.body).toBe(200);
    expect(before.json()).toEqual({ silence_minutes: 60, unusual_threshold: 3.5, unusual_min_baseline: 5 });
    const saved = await put(agents.operator, { unusual_threshold: 2.555 });
    expect(saved.statusCode, saved.body).toBe(200);
    // Kept to 2 decimals, as stored.
    expect(saved.json()).toEqual({ silence_minutes: 30, unusual_threshold: 2.56, unusual_min_baseline: 4 });
    expect((await agents.operator.get('/api/dataFeeds/settings?client_id=1')).json()).toEqual(saved.json());
    const { rows } = await db.pool.query<{ detail: unknown; email: string }>(
      `SELECT a.detail, u.email FROM audit_log a JOIN users u ON u.id = a.user_id
       WHERE a.entity = 'feed_alert_settings' ORDER BY a.id DESC LIMIT 1`,
    );
    expect(rows[0]).toEqual({ email: WORLD.users.operator1, detail: { before: before.json(), after: saved.json() } });
    const report = await agents.operator.get(`/api/dataFeeds?client_id=1&mall_ids=${central}`);
    expect(report.json().silence_minutes).toBe(30);
    await put(agents.operator, { silence_minutes: 60, unusual_threshold: 3.5, unusual_min_baseline: 5 });
  });

  it('refuses a rule out of bounds naming the field, and another client', async () => {
    for (const [field, value] of [
      ['silence_minutes', 10],
      ['silence_minutes', 1441],
      ['unusual_threshold', 0.5],
      ['unusual_min_baseline', 9],
    ] as const) {
      const response = await put(agents.operator, { [field]: value });
      expect(response.statusCode, `${field} ${value}`).toBe(400);
      expect(response.json().message).toContain(field);
    }
    expect((await put(agents.otherClient, {})).statusCode).toBe(403);
    expect((await agents.otherClient.get('/api/dataFeeds/settings?client_id=1')).statusCode).toBe(403);
    expect((await put(agents.noPermission, {})).statusCode).toBe(403);
  });
});
