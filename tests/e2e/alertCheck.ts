import pg from 'pg';
import PgBoss from 'pg-boss';
import { checkAlertRules } from '../../server/jobs/alertRules.js';

/*
 * The alert rules' check run now, for a clock the test gives, on the database of the server under test (the embedded
 * PostgreSQL beside it on the loopback; see playwright.config.ts). The server's own check runs every
 * ALERT_CHECK_EVERY_MINUTES at the real time, and a rule never judges a period that ended before it was made, so a
 * browser path that makes a rule cannot wait for a period to close: it runs the same function the job runs, with a
 * later now. The mails it enqueues go to the server's delivery queue, whose workers send them through the SMTP sink.
 * Nothing of the server is opened for this: the test reaches the database as the tests of the currencies do.
 */

const PORT = Number(process.env.E2E_PORT ?? 18080);

/** The demo database of the server under test. */
export const E2E_DATABASE_URL = `postgres://postgres:postgres@127.0.0.1:${PORT + 1}/postgres`;

/** What one check did: the rules judged, the firings recorded and the mails enqueued. */
export type AlertCheckResult = Awaited<ReturnType<typeof checkAlertRules>>;

/** Runs the alert rules' check once as if it were `now`. */
export async function runAlertCheck(now: Date): Promise<AlertCheckResult> {
  const pool = new pg.Pool({ connectionString: E2E_DATABASE_URL, max: 2 });
  // Only to enqueue the mails: no maintenance, no schedules, no migration (the server's pg-boss does those).
  const boss = new PgBoss({
    connectionString: E2E_DATABASE_URL,
    schema: 'pgboss',
    max: 2,
    supervise: false,
    schedule: false,
    migrate: false,
  });
  boss.on('error', () => undefined);
  await boss.start();
  try {
    return await checkAlertRules({ pool, boss, publicUrl: `http://127.0.0.1:${PORT}`, now });
  } finally {
    await boss.stop({ graceful: false, wait: true });
    await pool.end();
  }
}

/** Counts rows of the e2e database: `SELECT count(*) FROM <from>` with `values`. */
export async function countRows(from: string, values: unknown[]): Promise<number> {
  const pool = new pg.Pool({ connectionString: E2E_DATABASE_URL, max: 1 });
  try {
    const { rows } = await pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${from}`, values);
    return rows[0]?.n ?? 0;
  } finally {
    await pool.end();
  }
}
