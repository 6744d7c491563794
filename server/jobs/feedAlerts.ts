import type PgBoss from 'pg-boss';
import { hasResumed, isSilent } from '../../src/domain/dataFeeds.js';
import { formatDateTime } from '../../src/domain/format.js';
import { inTransaction, type Pool } from '../db/pool.js';
import type { Mail } from '../mail/mailer.js';
import {
  closeSilences,
  FEED_LOOKBACK_DAYS,
  type FeedOutlet,
  feedFactsOf,
  feedOutlets,
  type NewSilence,
  openSilences,
} from '../repositories/feeds.js';
import { emailSubscribers, type Subscriber } from '../repositories/scheduledMail.js';
import { enqueueMail } from './mailDelivery.js';
import { registerPeriodic } from './periodic.js';
import type { JobContext } from './queue.js';

/**
 * Feed alerts (issue 34): an outlet that usually trades at this hour and has sent no receipt for its client's set
 * time, on a day it has not declared non-trading (the rule of src/domain/dataFeeds.ts), raises one alert to the
 * mall's operators: the users who get void alerts and see all of the client's outlets (not a tenant, whose
 * account is limited to its own); when its receipts resume, one recovery note. A silence is a row
 * of feed_silences from the alert to the recovery, written or deleted in the transaction that enqueues the mails,
 * so checks run again, on several instances at once, or after a restart raise each silence once.
 */

export const FEED_ALERTS_QUEUE = 'feed-alerts';

/** An instant in the outlet's mall's time zone, 'YYYY-MM-DD HH:mm:ss (Asia/Singapore)'; 'none' without one. */
function localTime(instant: Date | null, outlet: FeedOutlet, none: string): string {
  return instant === null ? none : `${formatDateTime(instant.toISOString(), outlet.timeZone)} (${outlet.timeZone})`;
}

const NO_RECEIPT = `none in the last ${FEED_LOOKBACK_DAYS} days`;

/** A quiet time in words: '70 minutes' up to two hours, '5 hours' up to two days, then '7 days'. */
export function howLong(ms: number): string {
  const minutes = Math.floor(ms / 60_000);
  if (minutes < 120) return minutes === 1 ? '1 minute' : `${minutes} minutes`;
  const hours = Math.floor(minutes / 60);
  return hours < 48 ? `${hours} hours` : `${Math.floor(hours / 24)} days`;
}

/** The alert of `outlet`, silent at `now`, to `subscriber`. */
export function feedAlertMail(subscriber: Subscriber, outlet: FeedOutlet, now: Date, publicUrl: string): Mail {
  const quiet =
    outlet.lastReceiptAt === null
      ? `for over ${outlet.silenceMinutes} minutes`
      : `for ${howLong(now.getTime() - outlet.lastReceiptAt.getTime())}`;
  return {
    to: subscriber.email,
    subject: `No receipts from ${outlet.outletName} (${outlet.mallName})`,
    text: [
      `${outlet.outletName} at ${outlet.mallName} usually trades at this hour and has sent no receipt ${quiet}.`,
      '',
      `Last receipt: ${localTime(outlet.lastReceiptAt, outlet, NO_RECEIPT)}`,
      `Device's last call: ${localTime(outlet.lastCallAt, outlet, 'never')}`,
      '',
      `Check the outlet's till and its capture device. You get one note when its receipts resume.`,
      `Data feeds of ${subscriber.clientName}: ${publicUrl}/shopper-connect/data-feeds`,
      '',
      `You get these alerts because void receipt e-mails are on in your settings: ${publicUrl}/settings`,
    ].join('\n'),
  };
}

/** The recovery note of `outlet`, silent since `since`, to `subscriber`. */
export function feedRecoveryMail(subscriber: Subscriber, outlet: FeedOutlet, since: Date, publicUrl: string): Mail {
  return {
    to: subscriber.email,
    subject: `Receipts resumed from ${outlet.outletName} (${outlet.mallName})`,
    text: [
      `${outlet.outletName} at ${outlet.mallName} is sending receipts again.`,
      '',
      `Silent since: ${localTime(since, outlet, '')}`,
      `Latest receipt: ${localTime(outlet.lastReceiptAt, outlet, '')}`,
      `Device's last call: ${localTime(outlet.lastCallAt, outlet, 'never')}`,
      '',
      `Data feeds of ${subscriber.clientName}: ${publicUrl}/shopper-connect/data-feeds`,
      '',
      `You get these notes because void receipt e-mails are on in your settings: ${publicUrl}/settings`,
    ].join('\n'),
  };
}

/**
 * Checks every outlet's feed at `now`: raises the silences the rule finds and closes those whose receipts
 * resumed, mailing the recipients of each in the transaction that records it. Answers the silences raised and
 * closed and the mails enqueued.
 */
export async function checkFeeds(deps: {
  pool: Pool;
  boss: PgBoss;
  publicUrl: string;
  now: Date;
}): Promise<{ raised: number; resumed: number; mails: number }> {
  const { now } = deps;
  const outlets = await feedOutlets(deps.pool, now, { kind: 'all' });
  const silent: NewSilence[] = [];
  const resumed: { clientId: number; outletId: number; since: Date }[] = [];
  for (const outlet of outlets) {
    const ids = { clientId: outlet.clientId, outletId: outlet.outletId };
    if (outlet.silenceSince !== null) {
      if (hasResumed(outlet.lastReceiptAt?.getTime() ?? null, outlet.silenceSince.getTime())) {
        resumed.push({ ...ids, since: outlet.silenceSince });
      }
    } else if (isSilent(feedFactsOf(outlet), now.getTime())) {
      silent.push({
        ...ids,
        since: outlet.lastReceiptAt ?? new Date(now.getTime() - outlet.silenceMinutes * 60_000),
        lastReceiptAt: outlet.lastReceiptAt,
        lastCallAt: outlet.lastCallAt,
      });
    }
  }
  if (silent.length === 0 && resumed.length === 0) return { raised: 0, resumed: 0, mails: 0 };
  const byOutlet = new Map(outlets.map((outlet) => [`${outlet.clientId}:${outlet.outletId}`, outlet]));
  const outletOf = (ids: { clientId: number; outletId: number }) => {
    const outlet = byOutlet.get(`${ids.clientId}:${ids.outletId}`);
    if (!outlet) throw new Error(`feed check: outlet ${ids.outletId} of client ${ids.clientId} was not read`);
    return outlet;
  };
  return inTransaction(deps.pool, async (tx) => {
    const raised = await openSilences(tx, silent, now);
    const closed = await closeSilences(tx, resumed);
    const mails: { kind: 'feed_alert' | 'feed_recovery'; mail: Mail }[] = [];
    const clients = [...new Set([...raised, ...closed].map((silence) => silence.clientId))];
    const subscribers = await emailSubscribers(tx, clients, 'void');
    let count = 0;
    // The mall's operators: a user limited to some outlets is a tenant's.
    for (const subscriber of subscribers.filter((candidate) => candidate.outletIds === null)) {
      const sees = (silence: { clientId: number }) => silence.clientId === subscriber.clientId;
      for (const silence of raised.filter(sees)) {
        mails.push({ kind: 'feed_alert', mail: feedAlertMail(subscriber, outletOf(silence), now, deps.publicUrl) });
      }
      for (const silence of closed.filter(sees)) {
        const mail = feedRecoveryMail(subscriber, outletOf(silence), silence.since, deps.publicUrl);
        mails.push({ kind: 'feed_recovery', mail });
      }
      for (const { kind, mail } of mails.splice(0)) {
        await enqueueMail(
          deps.boss,
          tx,
          {
            clientId: subscriber.clientId,
            kind,
            userId: subscriber.userId,
            recipient: mail.to,
            subject: mail.subject,
            text: mail.text,
          },
          deps.publicUrl,
        );
        count += 1;
      }
    }
    return { raised: raised.length, resumed: closed.length, mails: count };
  });
}

/** The feed check, every `everyMinutes` (0: never). */
export async function registerFeedAlerts(
  context: JobContext,
  options: { everyMinutes: number; pollingIntervalSeconds?: number },
): Promise<void> {
  await registerPeriodic(context.boss, {
    queue: FEED_ALERTS_QUEUE,
    minutes: options.everyMinutes,
    log: context.log,
    ...(options.pollingIntervalSeconds === undefined ? {} : { pollingIntervalSeconds: options.pollingIntervalSeconds }),
    run: async () => {
      const checked = await checkFeeds({ ...context, now: new Date() });
      if (checked.raised > 0 || checked.resumed > 0) context.log.info(checked, 'feed alerts enqueued');
    },
  });
}
