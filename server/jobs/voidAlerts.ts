import dayjs from 'dayjs';
import type PgBoss from 'pg-boss';
import { currencyFormat, formatMoney } from '../../src/domain/format.js';
import { inTransaction, type Pool, type PoolClient } from '../db/pool.js';
import type { Mail } from '../mail/mailer.js';
import {
  emailSubscribers,
  type Subscriber,
  subscriberSees,
  takePendingVoids,
  type VoidReceipt,
  voidReceipts,
} from '../repositories/scheduledMail.js';
import { enqueueMail } from './mailDelivery.js';
import { registerPeriodic } from './periodic.js';
import type { JobContext } from './queue.js';

/**
 * Void alerts (the Settings subscription email_subscribe). A void receipt is queued for its alert by a trigger
 * on receipts in the transaction that ingests it (migration 020); this job takes the queued receipts, and in one
 * transaction mails each subscriber who sees a receipt's outlet one alert listing all of theirs and deletes the
 * queue rows: a run that fails leaves them queued for the next, a committed run never sends them again.
 */

export const VOID_ALERTS_QUEUE = 'void-alerts';

/** Queue rows taken per transaction. */
const BATCH_SIZE = 1000;
/** Receipts listed in one mail; the rest are counted. */
const MAX_LISTED = 100;

/** Money in a currency's own minor units, with its code: '$12.50 SGD', 'Rp15,000 IDR'. */
export function money(amount: number, currency: string): string {
  return `${formatMoney(amount, currencyFormat(currency))} ${currency}`;
}

/** The alert of `voids` (all of one client, in time order) to `subscriber`. */
export function voidAlertMail(subscriber: Subscriber, voids: readonly VoidReceipt[], publicUrl: string): Mail {
  const count = voids.length;
  const receipts = count === 1 ? '1 void receipt' : `${count} void receipts`;
  const lines = voids
    .slice(0, MAX_LISTED)
    .map(
      (receipt) =>
        `- ${receipt.outletName} (${receipt.mallName}): receipt ${receipt.receiptNo}, ` +
        `${dayjs(receipt.localTime).format('D MMM YYYY HH:mm')} (${receipt.timeZone}), ${money(receipt.amount, receipt.currency)}`,
    );
  if (count > MAX_LISTED) lines.push(`… and ${count - MAX_LISTED} more`);
  return {
    to: subscriber.email,
    subject: `${receipts} at ${subscriber.clientName}`,
    text: [
      `${receipts} recorded at outlets of ${subscriber.clientName}:`,
      '',
      ...lines,
      '',
      `You get these alerts because void receipt e-mails are on in your settings: ${publicUrl}/settings`,
    ].join('\n'),
  };
}

/**
 * Sends the alerts of the void receipts queued so far (a receipt made more than `maxAgeHours` before `now` gets
 * none), a transaction per batch of the queue. Answers the receipts taken from the queue and the mails enqueued.
 */
export async function sendVoidAlerts(deps: {
  pool: Pool;
  boss: PgBoss;
  publicUrl: string;
  now?: Date;
  maxAgeHours?: number;
}): Promise<{ voids: number; mails: number }> {
  const now = deps.now ?? new Date();
  const since = new Date(now.getTime() - (deps.maxAgeHours ?? 24) * 60 * 60 * 1000);
  const total = { voids: 0, mails: 0 };
  for (;;) {
    const batch = await inTransaction(deps.pool, async (tx) => {
      const taken = await takePendingVoids(tx, BATCH_SIZE);
      const voids = await voidReceipts(tx, taken, since);
      const subscribers = await emailSubscribers(tx, [...new Set(voids.map((receipt) => receipt.clientId))], 'void');
      let mails = 0;
      for (const subscriber of subscribers) {
        const seen = voids.filter(
          (receipt) => receipt.clientId === subscriber.clientId && subscriberSees(subscriber, receipt.outletId),
        );
        if (seen.length === 0) continue;
        const mail = voidAlertMail(subscriber, seen, deps.publicUrl);
        await enqueueMail(
          deps.boss,
          tx,
          {
            clientId: subscriber.clientId,
            kind: 'void_alert',
            userId: subscriber.userId,
            recipient: mail.to,
            subject: mail.subject,
            text: mail.text,
          },
          deps.publicUrl,
        );
        mails += 1;
      }
      return { taken: taken.length, voids: voids.length, mails };
    });
    total.voids += batch.voids;
    total.mails += batch.mails;
    if (batch.taken < BATCH_SIZE) return total;
  }
}

/**
 * The void alert queue, run every `everyMinutes` and woken by every committed void (NOTIFY void_alert_pending,
 * migration 025) for a run `batchSeconds` later, so that the voids of those seconds go out in one mail and each
 * within a minute of being stored. The queue keeps at most one job waiting (registerPeriodic), however many
 * notices come. `everyMinutes` 0 sends no alert at all. Answers a function that stops listening.
 */
export async function registerVoidAlerts(
  context: JobContext,
  options: { everyMinutes: number; maxAgeHours: number; batchSeconds: number; pollingIntervalSeconds?: number },
): Promise<() => Promise<void>> {
  await registerPeriodic(context.boss, {
    queue: VOID_ALERTS_QUEUE,
    minutes: options.everyMinutes,
    log: context.log,
    ...(options.pollingIntervalSeconds === undefined ? {} : { pollingIntervalSeconds: options.pollingIntervalSeconds }),
    run: async () => {
      const sent = await sendVoidAlerts({ ...context, maxAgeHours: options.maxAgeHours });
      if (sent.mails > 0) context.log.info(sent, 'void alerts enqueued');
    },
  });
  if (options.everyMinutes === 0) return async () => {};
  return listenForVoids(context, options.batchSeconds);
}

/** How long to wait before listening again after the connection was lost. */
const RELISTEN_MS = 5000;

/**
 * LISTEN void_alert_pending on a connection of the pool, held while the jobs run; on a notice, a job of the queue
 * `batchSeconds` later. A lost connection is replaced after RELISTEN_MS; meanwhile the minute schedule alerts.
 */
async function listenForVoids(context: JobContext, batchSeconds: number): Promise<() => Promise<void>> {
  let stopped = false;
  let client: PoolClient | undefined;
  let retry: NodeJS.Timeout | undefined;
  const wake = () => {
    context.boss.send(VOID_ALERTS_QUEUE, {}, { startAfter: batchSeconds }).catch((error: unknown) => {
      context.log.error({ err: error }, 'could not wake the void alert queue; the minute schedule will');
    });
  };
  const relisten = () => {
    if (!stopped) retry = setTimeout(() => void listen(), RELISTEN_MS);
  };
  const listen = async (): Promise<void> => {
    retry = undefined;
    if (stopped) return;
    let connection: PoolClient | undefined;
    try {
      connection = await context.pool.connect();
      const held = connection;
      held.on('notification', wake);
      held.on('error', (error) => {
        if (client !== held) return;
        client = undefined;
        context.log.error({ err: error }, 'the void alert listener lost its connection');
        held.release(error);
        relisten();
      });
      await held.query('LISTEN void_alert_pending');
      client = held;
      if (stopped) await unlisten();
    } catch (error) {
      connection?.release(error instanceof Error ? error : true);
      context.log.error({ err: error }, 'the void alert listener could not listen');
      relisten();
    }
  };
  const unlisten = async () => {
    const held = client;
    client = undefined;
    if (!held) return;
    held.removeListener('notification', wake);
    await held.query('UNLISTEN void_alert_pending').then(
      () => held.release(),
      (error: unknown) => held.release(error instanceof Error ? error : true),
    );
  };
  await listen();
  return async () => {
    stopped = true;
    if (retry) clearTimeout(retry);
    await unlisten();
  };
}
