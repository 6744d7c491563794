import { randomUUID } from 'node:crypto';
import type PgBoss from 'pg-boss';
import { inTransaction, type Pool, type Queryable } from '../db/pool.js';
import type { Mailer } from '../mail/mailer.js';
import { insertOutboxMail } from '../repositories/outbox.js';
import {
  insertScheduledMail,
  lockScheduledMail,
  markScheduledMailDelivered,
  type NewScheduledMail,
  type ScheduledMailRef,
} from '../repositories/scheduledMail.js';
import { createQueue } from './createQueue.js';
import type { JobLog } from './queue.js';

/**
 * Delivery of scheduled mails: one pg-boss job a mail, enqueued in the transaction that records the mail in
 * scheduled_mails (enqueueMail), so a decision to send is committed with its job or not at all.
 *
 * - Outbox (no SMTP_URL): exactly once. The mail goes into the outbox and is marked delivered in one transaction
 *   that holds the mail's row lock; a job run again (a retry, an expired job, a crash before pg-boss recorded the
 *   job as done) finds it delivered and does nothing.
 * - SMTP: at least once. The mail is sent while the row is locked and marked delivered after the server accepted
 *   it; a crash between the two sends it again on the job's retry, with the same Message-ID, by which mail
 *   clients and servers recognise the copy. A refused or failed send throws, and pg-boss retries the job after
 *   the queue's retryDelay, doubled on each attempt (retryBackoff), up to retryLimit times.
 */

export const MAIL_DELIVERY_QUEUE = 'scheduled-mail-delivery';

export interface DeliveryRetry {
  retryLimit: number;
  /** Seconds before the first retry; with retryBackoff each retry waits about twice as long as the one before. */
  retryDelay: number;
  retryBackoff: boolean;
}

/** Ten retries from 30 s on, doubling: the last about four to eight hours after the first attempt. */
export const DEFAULT_DELIVERY_RETRY: DeliveryRetry = { retryLimit: 10, retryDelay: 30, retryBackoff: true };

/** pg-boss's executor for the caller's transaction: a job sent through it commits or rolls back with it. */
export function transactionExecutor(db: Queryable): PgBoss.Db {
  return { executeSql: (text, values) => db.query(text, values) };
}

/** A Message-ID of the app's host, unique to one mail. */
export function newMessageId(publicUrl: string): string {
  return `<${randomUUID()}@${new URL(publicUrl).hostname || 'mall-analytics.local'}>`;
}

/**
 * Records `mail` and enqueues its delivery, both in the caller's transaction `db` (the mail's Message-ID is made
 * here when not given).
 */
export async function enqueueMail(
  boss: PgBoss,
  db: Queryable,
  mail: Omit<NewScheduledMail, 'messageId'> & { messageId?: string },
  publicUrl: string,
): Promise<ScheduledMailRef> {
  const ref = await insertScheduledMail(db, { ...mail, messageId: mail.messageId ?? newMessageId(publicUrl) });
  const jobId = await boss.send(MAIL_DELIVERY_QUEUE, ref, { db: transactionExecutor(db) });
  if (!jobId) throw new Error(`The delivery of scheduled mail ${ref.mailId} could not be enqueued`);
  return ref;
}

export type DeliveryOutcome = 'delivered' | 'already delivered' | 'missing';

/** Delivers one scheduled mail (see the top for what once means with and without SMTP). */
export async function deliverScheduledMail(
  deps: { pool: Pool; mailer: Mailer; log: JobLog },
  ref: ScheduledMailRef,
): Promise<DeliveryOutcome> {
  return inTransaction(deps.pool, async (tx) => {
    const mail = await lockScheduledMail(tx, ref);
    if (!mail) return 'missing';
    if (mail.delivered) return 'already delivered';
    if (deps.mailer.kind === 'outbox') {
      await insertOutboxMail(tx, {
        recipient: mail.recipient,
        subject: mail.subject,
        text: mail.text,
        attachments: mail.attachments,
      });
    } else {
      await deps.mailer.send({
        to: mail.recipient,
        subject: mail.subject,
        text: mail.text,
        messageId: mail.messageId,
        attachments: mail.attachments,
      });
    }
    await markScheduledMailDelivered(tx, ref);
    deps.log.info(
      { to: mail.recipient, subject: mail.subject, mailId: ref.mailId, via: deps.mailer.kind },
      'scheduled mail delivered',
    );
    return 'delivered';
  });
}

/**
 * The delivery queue (retries as `retry`) and `workers` workers taking up to `batchSize` jobs at a time (a worker
 * waits its polling interval between fetches, so one job a fetch would deliver one mail a poll). Each job of a
 * batch is delivered on its own: one that fails is failed alone (and so retried), the others complete.
 */
export async function registerMailDelivery(
  boss: PgBoss,
  deps: { pool: Pool; mailer: Mailer; log: JobLog },
  options: { retry: DeliveryRetry; workers: number; batchSize?: number; pollingIntervalSeconds?: number },
): Promise<void> {
  const queue: PgBoss.Queue = { name: MAIL_DELIVERY_QUEUE, policy: 'standard', ...options.retry };
  await createQueue(boss, MAIL_DELIVERY_QUEUE, queue);
  await boss.updateQueue(MAIL_DELIVERY_QUEUE, queue);
  const work = {
    batchSize: options.batchSize ?? 20,
    ...(options.pollingIntervalSeconds === undefined ? {} : { pollingIntervalSeconds: options.pollingIntervalSeconds }),
  };
  for (let i = 0; i < options.workers; i++) {
    await boss.work<ScheduledMailRef>(MAIL_DELIVERY_QUEUE, work, async (jobs) => {
      for (const job of jobs) {
        try {
          await deliverScheduledMail(deps, job.data);
        } catch (error) {
          deps.log.error({ err: error, mailId: job.data.mailId }, 'scheduled mail not delivered; it will be retried');
          // Failed alone: the worker then completes only the jobs still active.
          await boss.fail(MAIL_DELIVERY_QUEUE, job.id, {
            message: error instanceof Error ? error.message : String(error),
          });
        }
      }
    });
  }
}
