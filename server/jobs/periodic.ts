import type PgBoss from 'pg-boss';
import { createQueue } from './createQueue.js';
import type { JobLog } from './queue.js';

/** Whether a run every `minutes` has a cron expression: 1 to 60 minutes, or whole hours that divide a day. */
export const isCronInterval = (minutes: number) =>
  Number.isInteger(minutes) &&
  ((minutes >= 1 && minutes <= 60) || (minutes % 60 === 0 && minutes <= 24 * 60 && (24 * 60) % minutes === 0));

/** The cron expression of a run every `minutes` (isCronInterval) from the full hour (or midnight UTC). */
export function cronEvery(minutes: number): string {
  if (!isCronInterval(minutes)) throw new Error(`Not 1 to 60 minutes, nor hours that divide a day: ${minutes}`);
  if (minutes === 24 * 60) return '0 0 * * *';
  if (minutes > 60) return `0 */${minutes / 60} * * *`;
  if (minutes === 60) return '0 * * * *';
  return minutes === 1 ? '* * * * *' : `*/${minutes} * * * *`;
}

/**
 * A queue run on a schedule: at most one job waiting and one running (policy `stately`), each handled by `run`.
 * The schedule is kept in the database, across restarts; `minutes` 0 removes it (a job sent to the queue by hand
 * still runs).
 */
export async function registerPeriodic(
  boss: PgBoss,
  options: {
    queue: string;
    minutes: number;
    log: JobLog;
    run: () => Promise<void>;
    pollingIntervalSeconds?: number;
  },
): Promise<void> {
  const queue: PgBoss.Queue = { name: options.queue, policy: 'stately', retryLimit: 0, expireInSeconds: 15 * 60 };
  await createQueue(boss, options.queue, queue);
  await boss.updateQueue(options.queue, queue);
  const work =
    options.pollingIntervalSeconds === undefined ? {} : { pollingIntervalSeconds: options.pollingIntervalSeconds };
  await boss.work(options.queue, work, async () => {
    try {
      await options.run();
    } catch (error) {
      options.log.error({ err: error, queue: options.queue }, 'scheduled job failed; the next run tries again');
      throw error;
    }
  });
  if (options.minutes > 0) await boss.schedule(options.queue, cronEvery(options.minutes), {}, { tz: 'UTC' });
  else await boss.unschedule(options.queue);
}
