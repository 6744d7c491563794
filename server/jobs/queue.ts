import PgBoss from 'pg-boss';
import type { Pool } from '../db/pool.js';
import type { Mailer } from '../mail/mailer.js';
import { registerAlertRules } from './alertRules.js';
import { registerDailySummary } from './dailySummary.js';
import { registerFeedAlerts } from './feedAlerts.js';
import { DEFAULT_DELIVERY_RETRY, type DeliveryRetry, registerMailDelivery } from './mailDelivery.js';
import { registerVoidAlerts } from './voidAlerts.js';

/**
 * Durable scheduled work on pg-boss: jobs, their schedules and their retries are rows in PostgreSQL (schema
 * `pgboss` of the app's database), so nothing is lost on a restart and several servers share the work (a cron
 * schedule sends one job a minute whatever the number of servers). The jobs record what they decided in the
 * app's own tables in the transaction that enqueues the resulting jobs (pg-boss's `db` executor).
 *
 * - void alerts (voidAlerts.ts): woken by each committed void, and every VOID_ALERTS_EVERY_MINUTES;
 * - daily summaries (dailySummary.ts): every DAILY_SUMMARY_EVERY_MINUTES, each mall's at 08:00 its local time;
 * - feed alerts (feedAlerts.ts): every FEED_CHECK_EVERY_MINUTES, silent outlets and their recovery;
 * - alert rules (alertRules.ts): every ALERT_CHECK_EVERY_MINUTES, the rules whose period has closed;
 * - mail delivery (mailDelivery.ts): one job a mail, retried with backoff;
 * - the server's maintenance (maintenance.ts, given by main.ts in `registrations`): sessions swept, receipt
 *   partitions kept, GTO reminders.
 *
 * Other modules add their queues through `registrations` (called with the started PgBoss once the built-in
 * queues exist), or later through the `boss` of the answer.
 */

export interface JobLog {
  info: (object: object, message: string) => void;
  error: (object: object, message: string) => void;
}

/** What a job module gets to register its queues, schedules and workers. */
export interface JobContext {
  boss: PgBoss;
  pool: Pool;
  mailer: Mailer;
  publicUrl: string;
  log: JobLog;
}

export type JobRegistration = (context: JobContext) => Promise<void>;

export interface StartJobsOptions {
  databaseUrl: string;
  /** The app's pool, for the jobs' own queries and transactions. */
  pool: Pool;
  mailer: Mailer;
  publicUrl: string;
  log: JobLog;
  /** How often void alerts go out; 0: never (the schedule is removed). Default 1. */
  voidAlertsEveryMinutes?: number;
  /** Void receipts older than this when the job takes them get no alert. Default 24. */
  voidAlertMaxAgeHours?: number;
  /** How long after a committed void its alert job runs, so that the voids of those seconds share a mail. Default 15. */
  voidAlertBatchSeconds?: number;
  /** How often malls are checked for a daily summary due; 0: never (the schedule is removed). Default 5. */
  dailySummaryEveryMinutes?: number;
  /** How often the outlets' feeds are checked for silences; 0: never (the schedule is removed). Default 5. */
  feedCheckEveryMinutes?: number;
  /** How often the alert rules whose period has closed are judged; 0: never (the schedule is removed). Default 5. */
  alertCheckEveryMinutes?: number;
  deliveryRetry?: DeliveryRetry;
  /** Concurrent delivery workers. Default 2. */
  deliveryWorkers?: number;
  /** How often idle workers look for jobs (pg-boss's default when absent: 2 s). */
  pollingIntervalSeconds?: number;
  /** How often each instance looks whether a schedule is due (default 10 s: a job due at a minute starts within
   * seconds of it); pg-boss sends one job a tick whatever the number of instances. */
  cronMonitorIntervalSeconds?: number;
  /** Connections of pg-boss's own pool (JOBS_POOL_SIZE). Default 4. */
  poolSize?: number;
  /** pg-boss's schema. Default `pgboss`. */
  schema?: string;
  registrations?: readonly JobRegistration[];
}

export interface Jobs {
  boss: PgBoss;
  /** Stops taking jobs, waits for those running (up to `timeoutMs`, default 20 s) and closes pg-boss's pool. */
  stop: (timeoutMs?: number) => Promise<void>;
}

/** Starts pg-boss on the app's database with the scheduled mail jobs and any `registrations`. */
export async function startJobs(options: StartJobsOptions): Promise<Jobs> {
  const boss = new PgBoss({
    connectionString: options.databaseUrl,
    schema: options.schema ?? 'pgboss',
    application_name: 'mall-analytics-jobs',
    max: options.poolSize ?? 4,
    cronMonitorIntervalSeconds: options.cronMonitorIntervalSeconds ?? 10,
    ...(options.pollingIntervalSeconds === undefined ? {} : { pollingIntervalSeconds: options.pollingIntervalSeconds }),
  });
  let stopping = false;
  // Without a listener an 'error' event (a lost connection, a failed maintenance run) would end the process. While
  // stopping, connections that PostgreSQL closes (it may be stopping too) are no news.
  boss.on('error', (error) => {
    if (!stopping) options.log.error({ err: error }, 'pg-boss error');
  });
  await boss.start();
  let stopListening = async () => {};
  try {
    const context: JobContext = {
      boss,
      pool: options.pool,
      mailer: options.mailer,
      publicUrl: options.publicUrl,
      log: options.log,
    };
    const polling =
      options.pollingIntervalSeconds === undefined ? {} : { pollingIntervalSeconds: options.pollingIntervalSeconds };
    await registerMailDelivery(boss, context, {
      retry: options.deliveryRetry ?? DEFAULT_DELIVERY_RETRY,
      workers: options.deliveryWorkers ?? 2,
      ...polling,
    });
    stopListening = await registerVoidAlerts(context, {
      everyMinutes: options.voidAlertsEveryMinutes ?? 1,
      maxAgeHours: options.voidAlertMaxAgeHours ?? 24,
      batchSeconds: options.voidAlertBatchSeconds ?? 15,
      ...polling,
    });
    await registerDailySummary(context, { everyMinutes: options.dailySummaryEveryMinutes ?? 5, ...polling });
    await registerFeedAlerts(context, { everyMinutes: options.feedCheckEveryMinutes ?? 5, ...polling });
    await registerAlertRules(context, { everyMinutes: options.alertCheckEveryMinutes ?? 5, ...polling });
    for (const register of options.registrations ?? []) await register(context);
  } catch (error) {
    await stopListening().catch(() => {});
    await boss.stop({ graceful: false }).catch(() => {});
    throw error;
  }
  return {
    boss,
    stop: async (timeoutMs = 20_000) => {
      stopping = true;
      await stopListening().catch(() => {});
      await boss.stop({ graceful: true, wait: true, timeout: timeoutMs });
    },
  };
}
