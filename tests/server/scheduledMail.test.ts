import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inTransaction } from '../../server/db/pool.js';
import { type Jobs, startJobs } from '../../server/jobs/queue.js';
import { sendVoidAlerts, VOID_ALERTS_QUEUE } from '../../server/jobs/voidAlerts.js';
import { createMailer } from '../../server/mail/mailer.js';
import { ingestReceipts, type ReceiptInput } from '../../server/repositories/ingestion.js';
import { listOutlets } from '../../server/repositories/lookup.js';
import { emailSubscribers, subscriberSees } from '../../server/repositories/scheduledMail.js';
import { loadUserGrants } from '../../server/repositories/users.js';
import { receiptInput, seedWorld, WORLD } from './fixtures.js';
import { createTestDatabase, type TestDatabase, waitUntil } from './helpers.js';

/*
 * Void alerts on the fixture world, through pg-boss on the test's database and the local outbox (no SMTP_URL).
 *
 * Zenith Malls (client 1): Central Mall (Singapore, SGD: Cafe Uno, Boutique Duo), Harbour Mall (New York, USD:
 * kiosk tres). apex retail (client 2): Apex Plaza (Jakarta, IDR: Apex Shop).
 * Void e-mails on: admin (super admin, no membership: sees every client) for Zenith; operator1 (Zenith, every
 * outlet); tenant (Zenith, limited to Boutique Duo); disabled (Zenith, deactivated); operator2 for apex (a member)
 * and for Zenith (not a member: a stale subscription). mfa has the daily summary only; the partner analyst has
 * both off.
 */

let db: TestDatabase;
let jobs: Jobs;
const PUBLIC_URL = 'https://mall.example';
const { cafe, boutique, kiosk, apexShop } = WORLD.outlets;
const silent = { info: () => {}, error: () => {} };

const mailer = () => createMailer({ smtpUrl: undefined, mailFrom: 'test@mall.example' }, db.pool, silent);
const start = () =>
  startJobs({
    databaseUrl: db.url,
    pool: db.pool,
    mailer: mailer(),
    publicUrl: PUBLIC_URL,
    log: silent,
    voidAlertsEveryMinutes: 0,
    dailySummaryEveryMinutes: 0,
    pollingIntervalSeconds: 0.5,
  });

const count = async (sql: string, values: unknown[] = []) =>
  (await db.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${sql}`, values)).rows[0]?.n ?? 0;

/** Waits until every scheduled mail is delivered, then answers the outbox, oldest first. */
async function outbox(): Promise<{ recipient: string; subject: string; text: string }[]> {
  await waitUntil(
    'every scheduled mail is delivered',
    async () => (await count('scheduled_mails WHERE delivered_at IS NULL')) === 0,
  );
  const { rows } = await db.pool.query<{ recipient: string; subject: string; text: string }>(
    'SELECT recipient, subject, text FROM outbox ORDER BY id',
  );
  return rows;
}

const ingest = (clientId: number, receipts: ReceiptInput[]) =>
  inTransaction(db.pool, (tx) => ingestReceipts(tx, clientId, receipts));

const voidReceipt = (outletId: number, iso: string, amount: number, receiptId: string) =>
  receiptInput(outletId, iso, amount, [['CASH', amount]], { void: true, receiptId });

async function subscribe(email: string, clientId: number, voidMails: boolean, summary: boolean) {
  await db.pool.query(
    `INSERT INTO email_subscriptions (client_id, user_id, email_subscribe, summary_email_subscribe)
     SELECT $1, id, $3, $4 FROM users WHERE email = $2`,
    [clientId, email, voidMails, summary],
  );
}

beforeAll(async () => {
  db = await createTestDatabase();
  await seedWorld(db.pool);
  const { users } = WORLD;
  for (const email of [users.admin, users.operator1, users.tenant, users.disabled, users.operator2]) {
    await subscribe(email, 1, true, false);
  }
  await subscribe(users.operator2, 2, true, false);
  await subscribe(users.mfa, 1, false, true);
  await subscribe(users.partner, 1, false, false);
  jobs = await start();
});
afterAll(async () => {
  await jobs?.stop();
  await db?.drop();
});

describe('queueing void receipts', () => {
  it('queues a void receipt with the transaction that ingests it, and nothing for other receipts', async () => {
    await ingest(1, [receiptInput(cafe, '2026-03-02T05:00:00Z', 30, [['CASH', 30]])]);
    expect(await count('void_alert_pending')).toBe(0);

    const failing = inTransaction(db.pool, async (tx) => {
      await ingestReceipts(tx, 1, [voidReceipt(cafe, '2026-03-02T05:01:00Z', 9, 'ROLLED-BACK')]);
      expect(await count('void_alert_pending')).toBe(0); // not committed yet: invisible to others
      const own = await tx.query<{ n: number }>('SELECT count(*)::int AS n FROM void_alert_pending');
      expect(own.rows[0]?.n).toBe(1);
      throw new Error('the batch fails');
    });
    await expect(failing).rejects.toThrow('the batch fails');
    expect(await count('void_alert_pending')).toBe(0);
  });
});

describe('void alerts', () => {
  const now = new Date('2026-03-02T06:30:00Z');

  it('mails each subscriber who sees the outlets one alert of all their voids, and nobody else', async () => {
    await ingest(1, [
      voidReceipt(cafe, '2026-03-02T06:05:00Z', 12.5, 'V-100'),
      receiptInput(cafe, '2026-03-02T06:06:00Z', 40, [['VISA', 40]]),
      voidReceipt(boutique, '2026-03-02T06:07:00Z', 1234.5, 'V-200'),
      voidReceipt(kiosk, '2026-03-02T06:10:00Z', 7.25, 'V-300'),
    ]);
    await ingest(2, [voidReceipt(apexShop, '2026-03-02T06:12:00Z', 15000, 'V-400')]);
    expect(await count('void_alert_pending')).toBe(4);

    expect(await sendVoidAlerts({ pool: db.pool, boss: jobs.boss, publicUrl: PUBLIC_URL, now })).toEqual({
      voids: 4,
      mails: 4,
    });
    expect(await count('void_alert_pending')).toBe(0);

    const mails = await outbox();
    expect(mails.map((mail) => mail.recipient).sort()).toEqual(
      [WORLD.users.admin, WORLD.users.operator1, WORLD.users.operator2, WORLD.users.tenant].sort(),
    );
    const cafeLine = '- Cafe Uno (Central Mall): receipt V-100, 2 Mar 2026 14:05 (Asia/Singapore), $12.50 SGD';
    const boutiqueLine =
      '- Boutique Duo (Central Mall): receipt V-200, 2 Mar 2026 14:07 (Asia/Singapore), $1,234.50 SGD';
    const kioskLine = '- kiosk tres (Harbour Mall): receipt V-300, 2 Mar 2026 01:10 (America/New_York), $7.25 USD';
    for (const email of [WORLD.users.admin, WORLD.users.operator1]) {
      const mail = mails.find((candidate) => candidate.recipient === email);
      expect(mail?.subject).toBe('3 void receipts at Zenith Malls');
      expect(mail?.text.split('\n')).toEqual([
        '3 void receipts recorded at outlets of Zenith Malls:',
        '',
        cafeLine,
        boutiqueLine,
        kioskLine,
        '',
        `You get these alerts because void receipt e-mails are on in your settings: ${PUBLIC_URL}/settings`,
      ]);
    }
    const tenant = mails.find((mail) => mail.recipient === WORLD.users.tenant);
    expect(tenant?.subject).toBe('1 void receipt at Zenith Malls');
    expect(tenant?.text).toContain(boutiqueLine);
    expect(tenant?.text).not.toContain('Cafe Uno');
    expect(tenant?.text).not.toContain('kiosk');
    const apex = mails.find((mail) => mail.recipient === WORLD.users.operator2);
    expect(apex?.subject).toBe('1 void receipt at apex retail');
    expect(apex?.text).toContain(
      '- Apex Shop (Apex Plaza): receipt V-400, 2 Mar 2026 13:12 (Asia/Jakarta), Rp15,000 IDR',
    );
    expect(apex?.text).not.toContain('Zenith');
  });

  it('sends nothing again when the job runs again, or after a restart', async () => {
    expect(await sendVoidAlerts({ pool: db.pool, boss: jobs.boss, publicUrl: PUBLIC_URL, now })).toEqual({
      voids: 0,
      mails: 0,
    });
    await jobs.stop();
    jobs = await start();
    expect(await sendVoidAlerts({ pool: db.pool, boss: jobs.boss, publicUrl: PUBLIC_URL, now })).toEqual({
      voids: 0,
      mails: 0,
    });
    expect(await outbox()).toHaveLength(4);

    await ingest(1, [voidReceipt(kiosk, '2026-03-02T06:40:00Z', 3, 'V-500')]);
    await sendVoidAlerts({
      pool: db.pool,
      boss: jobs.boss,
      publicUrl: PUBLIC_URL,
      now: new Date('2026-03-02T06:41:00Z'),
    });
    const added = (await outbox()).slice(4);
    expect(added.map((mail) => mail.recipient).sort()).toEqual([WORLD.users.admin, WORLD.users.operator1].sort());
    for (const mail of added) {
      expect(mail.subject).toBe('1 void receipt at Zenith Malls');
      expect(mail.text).toContain('receipt V-500');
      expect(mail.text).not.toContain('V-300');
    }
  });

  it('sends no alert for a void receipt made too long before it is seen', async () => {
    const before = (await outbox()).length;
    await ingest(1, [voidReceipt(cafe, '2026-02-27T06:00:00Z', 5, 'V-OLD')]);
    expect(
      await sendVoidAlerts({ pool: db.pool, boss: jobs.boss, publicUrl: PUBLIC_URL, now, maxAgeHours: 24 }),
    ).toEqual({ voids: 0, mails: 0 });
    expect(await count('void_alert_pending')).toBe(0);
    expect(await outbox()).toHaveLength(before);
  });

  it('runs from its queue, at the time it runs', async () => {
    const before = (await outbox()).length;
    const made = new Date(Date.now() - 60_000).toISOString();
    await ingest(1, [voidReceipt(boutique, made, 20, 'V-NOW')]);
    await jobs.boss.send(VOID_ALERTS_QUEUE, {});
    await waitUntil('the queued void is taken', async () => (await count('void_alert_pending')) === 0);
    const added = (await outbox()).slice(before);
    expect(added.map((mail) => mail.recipient).sort()).toEqual(
      [WORLD.users.admin, WORLD.users.operator1, WORLD.users.tenant].sort(),
    );
  });
});

describe('the alert of a void as soon as it is stored', () => {
  it('goes out seconds after the commit, the voids of those seconds in one mail, with no minute schedule run', async () => {
    await jobs.stop();
    // the schedule on, but its next run minutes away: only the wake-up of the commit can send the alert in time
    jobs = await startJobs({
      databaseUrl: db.url,
      pool: db.pool,
      mailer: mailer(),
      publicUrl: PUBLIC_URL,
      log: silent,
      voidAlertsEveryMinutes: 60,
      dailySummaryEveryMinutes: 0,
      pollingIntervalSeconds: 0.5,
      voidAlertBatchSeconds: 2,
    });
    const before = (await outbox()).length;
    const made = new Date(Date.now() - 30_000).toISOString();
    const committed = Date.now();
    await ingest(1, [voidReceipt(cafe, made, 11, 'V-SOON-1')]);
    await ingest(1, [voidReceipt(cafe, new Date(Date.now() - 20_000).toISOString(), 12, 'V-SOON-2')]);
    await waitUntil('the voids are alerted', async () => (await count('void_alert_pending')) === 0, 20_000);
    const added = (await outbox()).slice(before);
    expect(Date.now() - committed).toBeLessThan(30_000);
    const operator = added.filter((mail) => mail.recipient === WORLD.users.operator1);
    expect(operator).toHaveLength(1);
    expect(operator[0]?.subject).toBe('2 void receipts at Zenith Malls');
    expect(operator[0]?.text).toContain('receipt V-SOON-1');
    expect(operator[0]?.text).toContain('receipt V-SOON-2');
  });

  it('stops listening when the jobs stop', async () => {
    const listening = async () =>
      (
        await db.pool.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM pg_stat_activity
           WHERE datname = current_database() AND query = 'LISTEN void_alert_pending'`,
        )
      ).rows[0]?.n ?? 0;
    expect(await listening()).toBe(1);
    await jobs.stop();
    await waitUntil('the listener is gone', async () => (await listening()) === 0);
    jobs = await start();
  });
});

describe('who gets the alerts', () => {
  it('is every active subscriber whose reports show the outlet', async () => {
    const subscribers = await emailSubscribers(db.pool, [1, 2], 'void');
    const { rows: subscribed } = await db.pool.query<{ client_id: number; user_id: number; disabled: boolean }>(
      `SELECT s.client_id, s.user_id, u.disabled FROM email_subscriptions s JOIN users u ON u.id = s.user_id
       WHERE s.email_subscribe`,
    );
    for (const row of subscribed) {
      const grants = await loadUserGrants(db.pool, row.user_id);
      const visibility = { clientIds: grants.clientIds, outletLimits: grants.outletLimits };
      const seen = grants.clientIds.includes(row.client_id)
        ? (await listOutlets(db.pool, visibility, row.client_id)).map((outlet) => outlet.id)
        : [];
      const subscriber = subscribers.find(
        (candidate) => candidate.clientId === row.client_id && candidate.userId === row.user_id,
      );
      const { rows: outlets } = await db.pool.query<{ id: number }>('SELECT id FROM outlets WHERE client_id = $1', [
        row.client_id,
      ]);
      const alerted = subscriber
        ? outlets.map((outlet) => outlet.id).filter((outlet) => subscriberSees(subscriber, outlet))
        : [];
      const expected = row.disabled ? [] : seen;
      expect(alerted.sort(), `user ${row.user_id} in client ${row.client_id}`).toEqual([...expected].sort());
    }
  });
});
