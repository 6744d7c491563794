import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inTransaction } from '../../server/db/pool.js';
import { sendDailySummaries } from '../../server/jobs/dailySummary.js';
import { type Jobs, startJobs } from '../../server/jobs/queue.js';
import { createMailer } from '../../server/mail/mailer.js';
import { ingestReceipts, type ReceiptInput } from '../../server/repositories/ingestion.js';
import { receiptInput, seedWorld, WORLD } from './fixtures.js';
import { createTestDatabase, type TestDatabase, waitUntil } from './helpers.js';

/*
 * The daily summary on the fixture world, at 08:00 in each mall's time zone: Central Mall (Asia/Singapore, UTC+8,
 * SGD: Boutique Duo, Cafe Uno), Harbour Mall (America/New_York, UTC-5 until 8 March 2026, then UTC-4, USD: kiosk
 * tres) of Zenith Malls; Apex Plaza (Asia/Jakarta, UTC+7, IDR: Apex Shop) of apex retail.
 *
 * Summaries on: operator1 (Zenith, every outlet), tenant (Zenith, Boutique Duo only), disabled (Zenith,
 * deactivated), operator2 (apex). admin has void alerts only. The Zenith malls have been summarised up to
 * 28 February; Apex Plaza never has.
 *
 * Sales of Sunday 1 March 2026, local days:
 *   Cafe Uno      10.00 (01:00, 28 Feb in UTC) + 100.00 + 50.50, and a void of 20.00; 999.00 at 00:30 on 2 March
 *   Boutique Duo  29.50
 *   kiosk tres    40.00 (22:00, 2 March in UTC); 5.00 at 23:00 on 28 February
 *   Apex Shop     150,000 IDR
 */

let db: TestDatabase;
let jobs: Jobs;
const PUBLIC_URL = 'https://mall.example';
const { cafe, boutique, kiosk, apexShop } = WORLD.outlets;
const { central, harbour, apexPlaza } = WORLD.malls;
const silent = { info: () => {}, error: () => {} };

const start = () =>
  startJobs({
    databaseUrl: db.url,
    pool: db.pool,
    mailer: createMailer({ smtpUrl: undefined, mailFrom: 'test@mall.example' }, db.pool, silent),
    publicUrl: PUBLIC_URL,
    log: silent,
    voidAlertsEveryMinutes: 0,
    dailySummaryEveryMinutes: 0,
    pollingIntervalSeconds: 0.5,
  });

const summarise = (iso: string) =>
  sendDailySummaries({ pool: db.pool, boss: jobs.boss, publicUrl: PUBLIC_URL, now: new Date(iso) });

interface Row {
  recipient: string;
  subject: string;
  text: string;
  day: string;
}

/** The summaries decided so far, in the order they were decided. */
async function decided(): Promise<Row[]> {
  const { rows } = await db.pool.query<Row>(
    `SELECT recipient, subject, text, to_char(summary_day, 'YYYY-MM-DD') AS day FROM scheduled_mails
     WHERE kind = 'daily_summary' ORDER BY id`,
  );
  return rows;
}

const mallDays = async (mallId: number) =>
  (
    await db.pool.query<{ day: string }>(
      `SELECT to_char(day, 'YYYY-MM-DD') AS day FROM daily_summary_days WHERE mall_id = $1 ORDER BY day`,
      [mallId],
    )
  ).rows.map((row) => row.day);

const sale = (outletId: number, iso: string, amount: number, extra: Partial<ReceiptInput> = {}) =>
  receiptInput(outletId, iso, amount, [['CASH', amount]], extra);

const FOOTER = `You get this summary because daily summary e-mails are on in your settings: ${PUBLIC_URL}/settings`;

beforeAll(async () => {
  db = await createTestDatabase();
  await seedWorld(db.pool);
  const subscriptions: [string, number, boolean, boolean][] = [
    [WORLD.users.operator1, 1, false, true],
    [WORLD.users.tenant, 1, false, true],
    [WORLD.users.disabled, 1, true, true],
    [WORLD.users.admin, 1, true, false],
    [WORLD.users.operator2, 2, false, true],
  ];
  for (const [email, clientId, voids, summary] of subscriptions) {
    await db.pool.query(
      `INSERT INTO email_subscriptions (client_id, user_id, email_subscribe, summary_email_subscribe)
       SELECT $1, id, $3, $4 FROM users WHERE email = $2`,
      [clientId, email, voids, summary],
    );
  }
  await db.pool.query(
    `INSERT INTO daily_summary_days (client_id, mall_id, day) VALUES (1, $1, '2026-02-28'), (1, $2, '2026-02-28')`,
    [central, harbour],
  );
  await inTransaction(db.pool, async (tx) => {
    await ingestReceipts(tx, 1, [
      sale(cafe, '2026-02-28T17:00:00Z', 10),
      sale(cafe, '2026-03-01T02:00:00Z', 100),
      sale(cafe, '2026-03-01T10:00:00Z', 50.5),
      sale(cafe, '2026-03-01T11:00:00Z', 20, { void: true }),
      sale(cafe, '2026-03-01T16:30:00Z', 999),
      sale(boutique, '2026-03-01T05:00:00Z', 29.5),
      sale(kiosk, '2026-03-02T03:00:00Z', 40),
      sale(kiosk, '2026-03-01T04:00:00Z', 5),
    ]);
    await ingestReceipts(tx, 2, [sale(apexShop, '2026-03-01T03:00:00Z', 150000)]);
  });
  // The void above is no part of these tests.
  await db.pool.query('DELETE FROM void_alert_pending');
  jobs = await start();
});
afterAll(async () => {
  await jobs?.stop();
  await db?.drop();
});

describe('the daily summary', () => {
  it('is not sent before 08:00 in the mall’s time zone', async () => {
    // Singapore 07:59 on 2 March, New York 18:59 on 1 March (the day before is summarised), Jakarta 06:59.
    expect(await summarise('2026-03-01T23:59:00Z')).toEqual({ mallDays: 0, mails: 0 });
  });

  it('is sent at 08:00 in Singapore for Central Mall, with the outlets each subscriber sees', async () => {
    expect(await summarise('2026-03-02T00:00:00Z')).toEqual({ mallDays: 1, mails: 2 });
    const [operator, tenant, ...rest] = await decided();
    expect(rest).toEqual([]);
    expect(operator?.recipient).toBe(WORLD.users.operator1);
    expect(operator?.subject).toBe('Daily summary of 1 March 2026, Zenith Malls: Central Mall');
    expect(operator?.day).toBe('2026-03-01');
    expect(operator?.text.split('\n')).toEqual([
      "Zenith Malls: the sales of Sunday 1 March 2026, each mall's day in its own time zone.",
      '',
      'Central Mall (Asia/Singapore)',
      '  GMV $190.00 SGD, 4 transactions, ATV $47.50 SGD, 1 void ($20.00 SGD)',
      '  - Boutique Duo: GMV $29.50 SGD, 1 transaction, ATV $29.50 SGD, no voids',
      '  - Cafe Uno: GMV $160.50 SGD, 3 transactions, ATV $53.50 SGD, 1 void ($20.00 SGD)',
      '',
      'Total',
      '  SGD: GMV $190.00 SGD, 4 transactions, ATV $47.50 SGD, 1 void ($20.00 SGD)',
      '',
      FOOTER,
    ]);
    expect(tenant?.recipient).toBe(WORLD.users.tenant);
    expect(tenant?.text.split('\n').slice(2, 9)).toEqual([
      'Central Mall (Asia/Singapore)',
      '  GMV $29.50 SGD, 1 transaction, ATV $29.50 SGD, no voids',
      '  - Boutique Duo: GMV $29.50 SGD, 1 transaction, ATV $29.50 SGD, no voids',
      '',
      'Total',
      '  SGD: GMV $29.50 SGD, 1 transaction, ATV $29.50 SGD, no voids',
      '',
    ]);
    expect(tenant?.text).not.toContain('Cafe Uno');
  });

  it('is sent once, whatever runs again and restarts', async () => {
    expect(await summarise('2026-03-02T00:00:00Z')).toEqual({ mallDays: 0, mails: 0 });
    expect(await summarise('2026-03-02T00:30:00Z')).toEqual({ mallDays: 0, mails: 0 });
    await jobs.stop();
    jobs = await start();
    expect(await summarise('2026-03-02T00:45:00Z')).toEqual({ mallDays: 0, mails: 0 });
    expect(await decided()).toHaveLength(2);
  });

  it('starts a mall never summarised with its yesterday, at 08:00 in Jakarta', async () => {
    expect(await summarise('2026-03-02T00:59:00Z')).toEqual({ mallDays: 0, mails: 0 });
    expect(await summarise('2026-03-02T01:00:00Z')).toEqual({ mallDays: 1, mails: 1 });
    const apex = (await decided()).at(-1);
    expect(apex?.recipient).toBe(WORLD.users.operator2);
    expect(apex?.subject).toBe('Daily summary of 1 March 2026, apex retail: Apex Plaza');
    expect(apex?.text).toContain(
      'Apex Plaza (Asia/Jakarta)\n  GMV Rp150,000 IDR, 1 transaction, ATV Rp150,000 IDR, no voids',
    );
    expect(await mallDays(apexPlaza)).toEqual(['2026-03-01']);
  });

  it('is sent at 08:00 in New York for Harbour Mall, to those who see it', async () => {
    expect(await summarise('2026-03-02T12:59:00Z')).toEqual({ mallDays: 0, mails: 0 });
    expect(await summarise('2026-03-02T13:00:00Z')).toEqual({ mallDays: 1, mails: 1 });
    const harbourMail = (await decided()).at(-1);
    expect(harbourMail?.recipient).toBe(WORLD.users.operator1);
    expect(harbourMail?.text.split('\n').slice(2, 8)).toEqual([
      'Harbour Mall (America/New_York)',
      '  GMV $40.00 USD, 1 transaction, ATV $40.00 USD, no voids',
      '  - kiosk tres: GMV $40.00 USD, 1 transaction, ATV $40.00 USD, no voids',
      '',
      'Total',
      '  USD: GMV $40.00 USD, 1 transaction, ATV $40.00 USD, no voids',
    ]);
  });

  it('catches up the days missed while down, one mail a subscriber and day, totals per currency', async () => {
    const before = (await decided()).length;
    // Singapore 22:00 on 5 March, New York 09:00, Jakarta 21:00: 2, 3 and 4 March of each mall.
    expect(await summarise('2026-03-05T14:00:00Z')).toEqual({ mallDays: 9, mails: 9 });
    const added = (await decided()).slice(before);
    expect(added.map((mail) => `${mail.day} ${mail.recipient}`).sort()).toEqual(
      ['2026-03-02', '2026-03-03', '2026-03-04']
        .flatMap((day) =>
          [WORLD.users.operator1, WORLD.users.tenant, WORLD.users.operator2].map((to) => `${day} ${to}`),
        )
        .sort(),
    );
    const both = added.find((mail) => mail.day === '2026-03-02' && mail.recipient === WORLD.users.operator1);
    expect(both?.subject).toBe('Daily summary of 2 March 2026, Zenith Malls: Central Mall, Harbour Mall');
    const lines = both?.text.split('\n') ?? [];
    expect(lines).toContain('Central Mall (Asia/Singapore)');
    expect(lines).toContain('Harbour Mall (America/New_York)');
    expect(lines.slice(lines.indexOf('Total'))).toEqual([
      'Total',
      '  SGD: GMV $999.00 SGD, 1 transaction, ATV $999.00 SGD, no voids',
      '  USD: no sales',
      '',
      FOOTER,
    ]);
  });

  it('catches up at most the last 7 days after a long downtime', async () => {
    // Singapore 09:00 on 25 March, New York (UTC-4 by then) 21:00 on 24 March, Jakarta 08:00 on 25 March.
    expect((await summarise('2026-03-25T01:00:00Z')).mallDays).toBe(21);
    const days = (from: number, to: number) =>
      Array.from({ length: to - from + 1 }, (_, index) => `2026-03-${String(from + index).padStart(2, '0')}`);
    expect(await mallDays(central)).toEqual(['2026-02-28', ...days(1, 4), ...days(18, 24)]);
    expect(await mallDays(harbour)).toEqual(['2026-02-28', ...days(1, 4), ...days(17, 23)]);
    expect(await mallDays(apexPlaza)).toEqual([...days(1, 4), ...days(18, 24)]);
  });

  it('delivers each decided summary once', async () => {
    const all = await decided();
    expect(all.some((mail) => mail.recipient === WORLD.users.disabled || mail.recipient === WORLD.users.admin)).toBe(
      false,
    );
    await waitUntil('every summary is in the outbox', async () => {
      const { rows } = await db.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM outbox');
      return rows[0]?.n === all.length;
    });
    const { rows } = await db.pool.query<{ recipient: string; subject: string; text: string }>(
      'SELECT recipient, subject, text FROM outbox',
    );
    const key = (mail: { recipient: string; subject: string; text: string }) =>
      `${mail.recipient}\n${mail.subject}\n${mail.text}`;
    expect(rows.map(key).sort()).toEqual(all.map(key).sort());
    expect(new Set(rows.map(key)).size).toBe(rows.length);
  });
});
