import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config.js';
import {
  GTO_REMINDERS_QUEUE,
  maintenanceJobs,
  RECEIPT_PARTITIONS_QUEUE,
  SESSION_SWEEP_QUEUE,
} from '../../server/jobs/maintenance.js';
import { cronEvery } from '../../server/jobs/periodic.js';
import { type Jobs, startJobs } from '../../server/jobs/queue.js';
import { createMailer } from '../../server/mail/mailer.js';
import { seedWorld, WORLD } from './fixtures.js';
import { createTestDatabase, type TestDatabase, waitUntil } from './helpers.js';

/*
 * The server's periodic work runs on pg-boss schedules, not on timers of each process: two instances on one
 * database (two startJobs, as two servers would) keep one schedule a queue, and a tick sends one job whatever the
 * number of instances.
 */

let db: TestDatabase;
const instances: Jobs[] = [];
const silent = { info: () => {}, error: () => {} };

const start = (gtoRemindersEveryMinutes: number) =>
  startJobs({
    databaseUrl: db.url,
    pool: db.pool,
    mailer: createMailer({ smtpUrl: undefined, mailFrom: 'test@mall.example' }, db.pool, silent),
    publicUrl: 'https://mall.example',
    log: silent,
    voidAlertsEveryMinutes: 0,
    dailySummaryEveryMinutes: 0,
    pollingIntervalSeconds: 0.5,
    cronMonitorIntervalSeconds: 1,
    registrations: [maintenanceJobs({ receiptsRetentionMonths: 0, gtoRemindersEveryMinutes })],
  });

/** The jobs of a queue, done or not, by the minute pg-boss made them. */
async function jobsByMinute(queue: string): Promise<{ minute: string; n: number }[]> {
  const { rows } = await db.pool.query<{ minute: string; n: number }>(
    `SELECT to_char(date_trunc('minute', created_on), 'HH24:MI') AS minute, count(*)::int AS n
     FROM (SELECT created_on FROM pgboss.job WHERE name = $1 UNION ALL SELECT created_on FROM pgboss.archive WHERE name = $1) j
     GROUP BY 1 ORDER BY 1`,
    [queue],
  );
  return rows;
}

beforeAll(async () => {
  db = await createTestDatabase();
  await seedWorld(db.pool);
}, 120_000);

afterAll(async () => {
  for (const jobs of instances) await jobs.stop(5_000).catch(() => {});
  await db?.drop();
});

describe('cron expressions of the settings', () => {
  it('runs every few minutes from the hour, or every few hours from midnight UTC', () => {
    expect(cronEvery(1)).toBe('* * * * *');
    expect(cronEvery(15)).toBe('*/15 * * * *');
    expect(cronEvery(60)).toBe('0 * * * *');
    expect(cronEvery(360)).toBe('0 */6 * * *');
    expect(cronEvery(1440)).toBe('0 0 * * *');
    expect(() => cronEvery(90)).toThrow(/hours that divide a day/);
  });

  it('refuses a GTO reminder interval no schedule can keep, naming the setting', () => {
    expect(loadConfig({ GTO_REMINDERS_EVERY_MINUTES: '120' }).gtoRemindersEveryMinutes).toBe(120);
    expect(() => loadConfig({ GTO_REMINDERS_EVERY_MINUTES: '90' })).toThrow(/GTO_REMINDERS_EVERY_MINUTES must be 0/);
  });
});

describe('periodic work with two instances', () => {
  it('keeps one schedule a queue, and sends one job a tick whatever the number of instances', async () => {
    const startedAt = Date.now();
    instances.push(await start(1), await start(1));
    const { rows: schedules } = await db.pool.query<{ name: string; cron: string }>(
      'SELECT name, cron FROM pgboss.schedule WHERE name = ANY($1::text[]) ORDER BY name',
      [[GTO_REMINDERS_QUEUE, RECEIPT_PARTITIONS_QUEUE, SESSION_SWEEP_QUEUE]],
    );
    expect(schedules).toEqual([
      { name: GTO_REMINDERS_QUEUE, cron: '* * * * *' },
      { name: RECEIPT_PARTITIONS_QUEUE, cron: '0 */6 * * *' },
      { name: SESSION_SWEEP_QUEUE, cron: '0 * * * *' },
    ]);
    // Each instance looks every second whether the minute's job is due: the first look of the minute sends it,
    // and the other instance's looks (and its own later ones) send nothing more that minute.
    await waitUntil(
      'the minute’s GTO reminder job is sent',
      async () => (await jobsByMinute(GTO_REMINDERS_QUEUE)).length > 0,
    );
    await new Promise((resolve) => setTimeout(resolve, 4_000));
    const minutes = await jobsByMinute(GTO_REMINDERS_QUEUE);
    expect(minutes.length).toBeGreaterThan(0);
    // pg-boss sends a tick's job a moment after the tick (its send-it queue), so a tick's job may be made in the
    // next minute beside that minute's own: count the jobs against the ticks since the instances started (the
    // minute in progress and each minute begun since), never more than one a tick.
    const ticks = Math.floor(Date.now() / 60_000) - Math.floor(startedAt / 60_000) + 1;
    const made = minutes.reduce((sum, { n }) => sum + n, 0);
    expect(made, `GTO reminder jobs made over ${ticks} ticks: ${JSON.stringify(minutes)}`).toBeLessThanOrEqual(ticks);
  }, 60_000);

  it('sweeps expired sessions when its job runs, on whichever instance takes it', async () => {
    const { rows } = await db.pool.query<{ id: number }>('SELECT id FROM users WHERE email = $1', [
      WORLD.users.operator1,
    ]);
    await db.pool.query(
      `INSERT INTO sessions (token_hash, user_id, csrf_token, mfa_pending, expires_at)
       VALUES ('expired-token', $1, 'csrf', false, now() - interval '1 minute'),
              ('live-token', $1, 'csrf', false, now() + interval '1 hour')`,
      [rows[0]?.id],
    );
    await instances[1]?.boss.send(SESSION_SWEEP_QUEUE, {});
    await waitUntil('the expired session is swept', async () => {
      const { rows: left } = await db.pool.query<{ token_hash: string }>(
        "SELECT token_hash FROM sessions WHERE token_hash IN ('expired-token', 'live-token')",
      );
      return left.length === 1 && left[0]?.token_hash === 'live-token';
    });
  }, 30_000);

  it('removes the GTO reminder schedule when the setting is 0', async () => {
    instances.push(await start(0));
    const { rows } = await db.pool.query('SELECT 1 FROM pgboss.schedule WHERE name = $1', [GTO_REMINDERS_QUEUE]);
    expect(rows).toEqual([]);
  }, 30_000);
});
