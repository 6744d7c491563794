import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inTransaction } from '../../server/db/pool.js';
import { sendDailySummaries } from '../../server/jobs/dailySummary.js';
import { type Jobs, startJobs } from '../../server/jobs/queue.js';
import { unusualDays } from '../../server/jobs/unusualDays.js';
import { createMailer } from '../../server/mail/mailer.js';
import { ingestReceipts, type ReceiptInput } from '../../server/repositories/ingestion.js';
import { receiptInput, seedWorld, WORLD } from './fixtures.js';
import { createTestDatabase, type TestDatabase } from './helpers.js';

/*
 * Unusual days in the daily summary (issue 34) on the fixture world: Central Mall (Asia/Singapore, SGD) with Cafe
 * Uno and Boutique Duo. Its summary of Tuesday 31 March 2026 is due at 08:00 in Singapore (00:00 UTC on 1 April);
 * Harbour Mall has been summarised up to 30 March, so it is not due then. Subscribers: operator1 (every outlet) and
 * tenant (Boutique Duo only).
 *
 * Tuesdays, one receipt a day at noon unless said (GMV in SGD):
 *                3 Feb  10 Feb  17 Feb  24 Feb  3 Mar  10 Mar  17 Mar  24 Mar | 31 Mar
 *   Cafe Uno      100    110     400     90     105     -       95    120    | 180
 *   Boutique Duo   50     52      80     48      51     49       50     53    | 51 (3 receipts of 17)
 *   Central Mall  150    162     480    138     156     49      145    173    | 231 (4 transactions)
 * 17 February is Chinese New Year (a festival of the seed calendar): left out of every baseline. Cafe Uno declared
 * 10 March non-trading: left out of its baseline (not the mall's). 31 March is made a public holiday of Singapore
 * ('Founders Day'), which each flag of the day names.
 *
 * Cafe Uno, GMV: 100 110 90 105 95 120 -> sorted 90 95 100 105 110 120, median 102.50; deviations 2.5 7.5 12.5 2.5
 *   7.5 17.5 -> MAD 7.5; z = (180 - 102.5) / (1.4826 x 7.5) = 77.5 / 11.1195 = +6.97; 77.5 / 102.5 = 75.6 % above.
 *   (With the festival and the non-trading day in, the MAD would be 10 and z +5.23.) Transactions 1 against 1: not
 *   flagged.
 * Boutique Duo, GMV: 50 52 48 51 49 50 53 -> median 50, MAD 1; 51 is z +0.67, 2 %: not flagged. Transactions: 3
 *   against seven 1s (no spread at all) -> 200.0 % above, flagged without a z.
 * Central Mall, GMV: 150 162 138 156 49 145 173 -> sorted 49 138 145 150 156 162 173, median 150; deviations 0 12 12 6
 *   101 5 23 -> sorted 0 5 6 12 12 23 101, MAD 12; z = 81 / 17.7912 = +4.55; 54.0 % above. Transactions 2 2 2 2 1 2 2
 *   -> median 2, MAD 0, mean absolute deviation 1/7; z = 2 / (1.2533 / 7) = +11.17; 4 is 100.0 % above.
 */

let db: TestDatabase;
let jobs: Jobs;
const PUBLIC_URL = 'https://mall.example';
const { cafe, boutique } = WORLD.outlets;
const { central, harbour } = WORLD.malls;
const silent = { info: () => {}, error: () => {} };

const TUESDAYS = ['02-03', '02-10', '02-17', '02-24', '03-03', '03-10', '03-17', '03-24', '03-31'];
const CAFE = [100, 110, 400, 90, 105, null, 95, 120, 180];
const BOUTIQUE = [50, 52, 80, 48, 51, 49, 50, 53, 51];

const sale = (outletId: number, iso: string, amount: number, extra: Partial<ReceiptInput> = {}) =>
  receiptInput(outletId, iso, amount, [['CASH', amount]], extra);

const summarise = (iso: string) =>
  sendDailySummaries({ pool: db.pool, boss: jobs.boss, publicUrl: PUBLIC_URL, now: new Date(iso) });

interface Row {
  recipient: string;
  text: string;
  day: string;
}

async function summaries(day: string): Promise<Row[]> {
  const { rows } = await db.pool.query<Row>(
    `SELECT recipient, text, to_char(summary_day, 'YYYY-MM-DD') AS day FROM scheduled_mails
     WHERE kind = 'daily_summary' AND summary_day = $1::date ORDER BY id`,
    [day],
  );
  return rows;
}

/** The lines of `text` from its "What changed" heading to the blank line after it; [] without one. */
function whatChanged(text: string | undefined): string[] {
  const lines = (text ?? '').split('\n');
  const start = lines.findIndex((line) => line.startsWith('What changed'));
  if (start < 0) return [];
  return lines.slice(start, lines.indexOf('', start));
}

beforeAll(async () => {
  db = await createTestDatabase();
  await seedWorld(db.pool);
  for (const email of [WORLD.users.operator1, WORLD.users.tenant]) {
    await db.pool.query(
      `INSERT INTO email_subscriptions (client_id, user_id, email_subscribe, summary_email_subscribe)
       SELECT 1, id, false, true FROM users WHERE email = $1`,
      [email],
    );
  }
  await db.pool.query(`INSERT INTO daily_summary_days (client_id, mall_id, day) VALUES (1, $1, '2026-03-30')`, [
    harbour,
  ]);
  await db.pool.query(
    `INSERT INTO non_trading_days (client_id, outlet_id, day, reason, declared_by)
     VALUES (1, $1, '2026-03-10', 'Renovation', 'mall')`,
    [cafe],
  );
  await db.pool.query(
    `INSERT INTO calendar_entries (client_id, country, start_date, end_date, name, kind)
     VALUES (1, 'SG', '2026-03-31', '2026-03-31', 'Founders Day', 'public_holiday')`,
  );
  const receipts: ReceiptInput[] = [];
  TUESDAYS.forEach((day, index) => {
    const cafeGmv = CAFE[index];
    if (cafeGmv !== null && cafeGmv !== undefined) receipts.push(sale(cafe, `2026-${day}T04:00:00Z`, cafeGmv));
    const boutiqueGmv = BOUTIQUE[index] ?? 0;
    if (day === '03-31') {
      for (const hour of ['03', '05', '07']) receipts.push(sale(boutique, `2026-${day}T${hour}:00:00Z`, 17));
    } else receipts.push(sale(boutique, `2026-${day}T05:00:00Z`, boutiqueGmv));
  });
  await inTransaction(db.pool, (tx) => ingestReceipts(tx, 1, receipts));
  jobs = await startJobs({
    databaseUrl: db.url,
    pool: db.pool,
    mailer: createMailer({ smtpUrl: undefined, mailFrom: 'test@mall.example' }, db.pool, silent),
    publicUrl: PUBLIC_URL,
    log: silent,
    voidAlertsEveryMinutes: 0,
    dailySummaryEveryMinutes: 0,
    pollingIntervalSeconds: 0.5,
  });
});
afterAll(async () => {
  await jobs?.stop();
  await db?.drop();
});

const RANGE = 'from=2026-03-03&to=2026-03-31';

describe('unusual days in the daily summary', () => {
  it('flags the outlets and the mall far from their usual Tuesday, with how far, which way and a link', async () => {
    expect(await summarise('2026-04-01T00:00:00Z')).toEqual({ mallDays: 1, mails: 2 });
    const [operator, tenant] = await summaries('2026-03-31');
    expect(operator?.recipient).toBe(WORLD.users.operator1);
    expect(whatChanged(operator?.text)).toEqual([
      'What changed: days far from the same weekday of the last 8 weeks',
      '  - Central Mall: GMV $231.00 SGD, 54.0% above the usual $150.00 SGD (robust z +4.55); transactions 4, ' +
        '100.0% above the usual 2 (robust z +11.17); 31 March was Founders Day',
      `    ${PUBLIC_URL}/shopper-connect/mall-home?client=1&malls=${central}&${RANGE}`,
      '  - Boutique Duo (Central Mall): transactions 3, 200.0% above the usual 1 (the usual weeks alike); ' +
        '31 March was Founders Day',
      `    ${PUBLIC_URL}/shopper-connect/mall-outlet/${boutique}?client=1&malls=${central}&${RANGE}`,
      '  - Cafe Uno (Central Mall): GMV $180.00 SGD, 75.6% above the usual $102.50 SGD (robust z +6.97); ' +
        '31 March was Founders Day',
      `    ${PUBLIC_URL}/shopper-connect/mall-outlet/${cafe}?client=1&malls=${central}&${RANGE}`,
    ]);
    // The section comes before the malls' figures, which are as they were.
    const lines = operator?.text.split('\n') ?? [];
    expect(lines.slice(0, 2)).toEqual([
      "Zenith Malls: the sales of Tuesday 31 March 2026, each mall's day in its own time zone.",
      '',
    ]);
    expect(lines.slice(lines.indexOf('Central Mall (Asia/Singapore)'))).toEqual([
      'Central Mall (Asia/Singapore)',
      '  GMV $231.00 SGD, 4 transactions, ATV $57.75 SGD, no voids',
      '  - Boutique Duo: GMV $51.00 SGD, 3 transactions, ATV $17.00 SGD, no voids',
      '  - Cafe Uno: GMV $180.00 SGD, 1 transaction, ATV $180.00 SGD, no voids',
      '',
      'Total',
      '  SGD: GMV $231.00 SGD, 4 transactions, ATV $57.75 SGD, no voids',
      '',
      `You get this summary because daily summary e-mails are on in your settings: ${PUBLIC_URL}/settings`,
    ]);

    // The tenant sees its outlet's flag only (not the mall's, which holds the other tenants' sales), linked to the
    // outlet's Sales Analysis.
    expect(tenant?.recipient).toBe(WORLD.users.tenant);
    expect(whatChanged(tenant?.text)).toEqual([
      'What changed: days far from the same weekday of the last 8 weeks',
      '  - Boutique Duo (Central Mall): transactions 3, 200.0% above the usual 1 (the usual weeks alike); ' +
        '31 March was Founders Day',
      `    ${PUBLIC_URL}/tenant-connect/sales-analysis?client=1&outlet=${boutique}&${RANGE}`,
    ]);
    expect(tenant?.text).not.toContain('Cafe Uno');
  });

  it('leaves the section out of a day with nothing unusual', async () => {
    // Central Mall's Wednesday 1 April: no sales, as on every Wednesday before it. Harbour Mall's 31 March (20:00
    // in New York): no sales ever, so no baseline.
    expect(await summarise('2026-04-02T00:00:00Z')).toEqual({ mallDays: 2, mails: 3 });
    const mails = [...(await summaries('2026-04-01')), ...(await summaries('2026-03-31')).slice(2)];
    expect(mails.map((mail) => `${mail.day} ${mail.recipient}`)).toEqual([
      `2026-04-01 ${WORLD.users.operator1}`,
      `2026-04-01 ${WORLD.users.tenant}`,
      `2026-03-31 ${WORLD.users.operator1}`,
    ]);
    for (const mail of mails) expect(mail.text).not.toContain('What changed');
  });

  it('follows the client’s threshold', async () => {
    const malls = [{ clientId: 1, mallId: central }];
    // At 5, Cafe Uno's +6.97 still is unusual, the mall's GMV (+4.55) no longer; its transactions (+11.17) and
    // Boutique Duo's (no z) stay.
    await db.pool.query('UPDATE clients SET unusual_day_threshold = 5 WHERE id = 1');
    const atFive = await unusualDays(db.pool, '2026-03-31', malls);
    expect(atFive.map((flag) => [flag.outlet?.name ?? flag.mallName, flag.metrics.map((m) => m.metric)])).toEqual([
      ['Central Mall', ['transactions']],
      ['Boutique Duo', ['transactions']],
      ['Cafe Uno', ['gmv']],
    ]);
    await db.pool.query('UPDATE clients SET unusual_day_threshold = 7 WHERE id = 1');
    const atSeven = await unusualDays(db.pool, '2026-03-31', malls);
    expect(atSeven.some((flag) => flag.outlet?.id === cafe)).toBe(false);
    // Six usable days for Cafe Uno: a minimum of 7 leaves it unjudged, whatever the threshold.
    await db.pool.query('UPDATE clients SET unusual_day_threshold = 3.5, unusual_day_min_baseline = 7 WHERE id = 1');
    const atSevenDays = await unusualDays(db.pool, '2026-03-31', malls);
    expect(atSevenDays.map((flag) => flag.outlet?.name ?? flag.mallName)).toEqual(['Central Mall', 'Boutique Duo']);
    await db.pool.query('UPDATE clients SET unusual_day_min_baseline = 5 WHERE id = 1');
  });

  it('does not judge an outlet on a day it declared non-trading', async () => {
    await db.pool.query(
      `INSERT INTO non_trading_days (client_id, outlet_id, day, reason, declared_by)
       VALUES (1, $1, '2026-03-31', 'Stocktake', 'mall')`,
      [cafe],
    );
    const flags = await unusualDays(db.pool, '2026-03-31', [{ clientId: 1, mallId: central }]);
    expect(flags.map((flag) => flag.outlet?.name ?? flag.mallName)).toEqual(['Central Mall', 'Boutique Duo']);
    await db.pool.query(`DELETE FROM non_trading_days WHERE outlet_id = $1 AND day = '2026-03-31'`, [cafe]);
  });
});
