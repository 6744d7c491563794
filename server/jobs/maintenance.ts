import { DEVICE_TTL_SECONDS } from '../auth/devices.js';
import { deleteOldThrottleRecords } from '../repositories/authFlows.js';
import { fillMonthProjections } from '../repositories/monthFigures.js';
import { deleteExpiredSessions } from '../repositories/sessions.js';
import { sendGtoReminders } from './gtoReminders.js';
import { registerPeriodic } from './periodic.js';
import type { JobContext, JobRegistration } from './queue.js';
import { maintainReceiptPartitions } from './receiptPartitions.js';

/**
 * The server's own periodic work, on pg-boss schedules like the mail jobs (queue.ts), so that it runs once a tick
 * whatever the number of instances (never once an instance, as timers in each process would):
 * - `session-sweep`, hourly: sessions past their expiry, and sign-in throttle records older than any window that
 *   reads them;
 * - `receipt-partitions`, every 6 hours: this month's and the next month's receipt partitions, and the retention;
 * - `gto-reminders`, every GTO_REMINDERS_EVERY_MINUTES: tenants past the due day without a submission (each outlet at
 *   most once a day, recorded with its mails in one transaction: gtoReminders.ts);
 * - `month-projections`, every MONTH_PROJECTIONS_EVERY_MINUTES (1): each outlet's projection of its open month kept
 *   for its mall's today (fillMonthProjections: after each local midnight, and again after a past day changes), so
 *   that breakeven and the rent statements read one row an outlet, not its days.
 * main.ts also runs the first two once at start, before it listens.
 */

export const SESSION_SWEEP_QUEUE = 'session-sweep';
export const RECEIPT_PARTITIONS_QUEUE = 'receipt-partitions';
export const GTO_REMINDERS_QUEUE = 'gto-reminders';
export const MONTH_PROJECTIONS_QUEUE = 'month-projections';

/** Sessions past their expiry, and sign-in throttle records older than any window that reads them. */
export async function sweepSessions(pool: JobContext['pool']): Promise<void> {
  await deleteExpiredSessions(pool);
  await deleteOldThrottleRecords(pool, 2 * 24 * 60 * 60, DEVICE_TTL_SECONDS);
}

/** The receipts' monthly partitions (receiptPartitions.ts); answers the months dropped. */
export async function keepReceiptMonths(pool: JobContext['pool'], retentionMonths: number): Promise<string[]> {
  return (await maintainReceiptPartitions(pool, { retentionMonths })).dropped;
}

export interface MaintenanceOptions {
  /** RECEIPTS_RETENTION_MONTHS (0: keep every month). */
  receiptsRetentionMonths: number;
  /** GTO_REMINDERS_EVERY_MINUTES (0: no reminders, the schedule removed). */
  gtoRemindersEveryMinutes: number;
  /** MONTH_PROJECTIONS_EVERY_MINUTES (0: none kept, the schedule removed). Default 1. */
  monthProjectionsEveryMinutes?: number;
  pollingIntervalSeconds?: number;
}

/** The registration of the four maintenance queues and their schedules, for startJobs. */
export function maintenanceJobs(options: MaintenanceOptions): JobRegistration {
  const polling =
    options.pollingIntervalSeconds === undefined ? {} : { pollingIntervalSeconds: options.pollingIntervalSeconds };
  return async (context) => {
    await registerPeriodic(context.boss, {
      queue: SESSION_SWEEP_QUEUE,
      minutes: 60,
      log: context.log,
      ...polling,
      run: () => sweepSessions(context.pool),
    });
    await registerPeriodic(context.boss, {
      queue: RECEIPT_PARTITIONS_QUEUE,
      minutes: 6 * 60,
      log: context.log,
      ...polling,
      run: async () => {
        const dropped = await keepReceiptMonths(context.pool, options.receiptsRetentionMonths);
        if (dropped.length > 0) context.log.info({ dropped }, 'receipt months dropped (RECEIPTS_RETENTION_MONTHS)');
      },
    });
    await registerPeriodic(context.boss, {
      queue: GTO_REMINDERS_QUEUE,
      minutes: options.gtoRemindersEveryMinutes,
      log: context.log,
      ...polling,
      run: async () => {
        const outlets = await sendGtoReminders(context);
        if (outlets > 0) context.log.info({ outlets }, 'GTO reminders sent');
      },
    });
    await registerPeriodic(context.boss, {
      queue: MONTH_PROJECTIONS_QUEUE,
      minutes: options.monthProjectionsEveryMinutes ?? 1,
      log: context.log,
      ...polling,
      run: async () => {
        await fillMonthProjections(context.pool);
      },
    });
  };
}
