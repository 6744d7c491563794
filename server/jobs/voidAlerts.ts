import dayjs from 'dayjs';
import type PgBoss from 'pg-boss';
import { currencyFormat, formatMoney } from '../../src/domain/format.js';
import { inTransaction, type Pool } from '../db/pool.js';
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

export async function registerVoidAlerts(
  context: JobContext,
  options: { everyMinutes: number; maxAgeHours: number; pollingIntervalSeconds?: number },
): Promise<void> {
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
}
