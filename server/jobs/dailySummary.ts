import dayjs from 'dayjs';
import type PgBoss from 'pg-boss';
import { inTransaction, type Pool } from '../db/pool.js';
import type { Mail } from '../mail/mailer.js';
import {
  claimSummaryDays,
  dueSummaryDays,
  emailSubscribers,
  type OutletDayFigures,
  pruneScheduledMail,
  type Subscriber,
  subscriberSees,
  summaryFigures,
} from '../repositories/scheduledMail.js';
import { enqueueMail } from './mailDelivery.js';
import { registerPeriodic } from './periodic.js';
import type { JobContext } from './queue.js';
import { type UnusualDay, unusualDays, unusualDaysSeen, whatChangedLines } from './unusualDays.js';
import { money } from './voidAlerts.js';

/**
 * The daily summary (the Settings subscription summary_email_subscribe): yesterday's GMV, transactions, ATV and
 * voids of each mall and outlet a subscriber sees, from rollup_outlet_daily, sent at 08:00 in each mall's own time
 * zone. Each run looks for mall days due and not yet decided (daily_summary_days); for each day it records the
 * malls' day and enqueues the subscribers' mails in one transaction, so a day is summarised once whatever runs,
 * restarts or servers there are. After a downtime the missed days are caught up, at most the last
 * SUMMARY_CATCH_UP_DAYS. Money is never added across currencies: totals are one per currency. Its "What changed"
 * lists the days of the malls and outlets the subscriber sees that are far from their usual (./unusualDays.ts).
 */

export const DAILY_SUMMARY_QUEUE = 'daily-summary';
/** The local hour at which a mall's summary of the day before is due. */
export const SUMMARY_HOUR = 8;
export const SUMMARY_CATCH_UP_DAYS = 7;
/** Delivered mails and decided days are kept this long. */
const KEEP_DAYS = 90;

interface Totals {
  gmv: number;
  transactions: number;
  voids: number;
  voidAmount: number;
}

const cents = (amount: number) => Math.round(amount * 100);

/** `rows` summed per currency (money added in cents, exactly), in the order of the currencies' codes. */
function totalsByCurrency(rows: readonly OutletDayFigures[]): [string, Totals][] {
  const totals = new Map<string, Totals>();
  for (const row of rows) {
    const sum = totals.get(row.currency) ?? { gmv: 0, transactions: 0, voids: 0, voidAmount: 0 };
    sum.gmv += cents(row.gmv);
    sum.transactions += row.transactions;
    sum.voids += row.voids;
    sum.voidAmount += cents(row.voidAmount);
    totals.set(row.currency, sum);
  }
  return [...totals.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([currency, sum]) => [currency, { ...sum, gmv: sum.gmv / 100, voidAmount: sum.voidAmount / 100 }]);
}

/** 'GMV $180.50 SGD, 3 transactions, ATV $60.17 SGD, 1 void ($20.00 SGD)'; 'no sales' without any receipt. */
export function figuresLine(totals: Totals, currency: string): string {
  if (totals.transactions === 0 && totals.voids === 0) return 'no sales';
  const atv = totals.transactions > 0 ? totals.gmv / totals.transactions : 0;
  const transactions = totals.transactions === 1 ? '1 transaction' : `${totals.transactions} transactions`;
  const voids =
    totals.voids === 0
      ? 'no voids'
      : `${totals.voids === 1 ? '1 void' : `${totals.voids} voids`} (${money(totals.voidAmount, currency)})`;
  return `GMV ${money(totals.gmv, currency)}, ${transactions}, ATV ${money(atv, currency)}, ${voids}`;
}

/**
 * The summary of `day` to `subscriber` of `outlets`, the outlets of the subscriber's client they see (in mall
 * and outlet order): what changed (`unusual`, the unusual days the subscriber sees; left out when there are
 * none), each mall (its visible outlets' figures, per currency) with its outlets, then the totals, one per currency.
 */
export function dailySummaryMail(
  subscriber: Subscriber,
  day: string,
  outlets: readonly OutletDayFigures[],
  publicUrl: string,
  unusual: readonly UnusualDay[] = [],
): Mail {
  const malls = new Map<number, OutletDayFigures[]>();
  for (const outlet of outlets) malls.set(outlet.mallId, [...(malls.get(outlet.mallId) ?? []), outlet]);
  const lines: string[] = [];
  for (const rows of malls.values()) {
    const first = rows[0];
    if (!first) continue;
    lines.push(`${first.mallName} (${first.timeZone})`);
    for (const [currency, totals] of totalsByCurrency(rows)) lines.push(`  ${figuresLine(totals, currency)}`);
    for (const row of rows) lines.push(`  - ${row.outletName}: ${figuresLine(row, row.currency)}`);
    lines.push('');
  }
  const date = dayjs(day).format('dddd D MMMM YYYY');
  const mallNames = [...malls.values()].map((rows) => rows[0]?.mallName ?? '');
  const named = mallNames.length <= 3 ? mallNames.join(', ') : `${mallNames.length} malls`;
  return {
    to: subscriber.email,
    subject: `Daily summary of ${dayjs(day).format('D MMMM YYYY')}, ${subscriber.clientName}: ${named}`,
    text: [
      `${subscriber.clientName}: the sales of ${date}, each mall's day in its own time zone.`,
      '',
      ...whatChangedLines(subscriber, day, unusual, publicUrl),
      ...lines,
      'Total',
      ...totalsByCurrency(outlets).map(([currency, totals]) => `  ${currency}: ${figuresLine(totals, currency)}`),
      '',
      `You get this summary because daily summary e-mails are on in your settings: ${publicUrl}/settings`,
    ].join('\n'),
  };
}

/**
 * Sends the summaries due at `now` (see the top), a transaction per day, oldest first. Answers the mall days
 * decided and the mails enqueued.
 */
export async function sendDailySummaries(deps: {
  pool: Pool;
  boss: PgBoss;
  publicUrl: string;
  now?: Date;
}): Promise<{ mallDays: number; mails: number }> {
  const now = deps.now ?? new Date();
  const due = await dueSummaryDays(deps.pool, now, { hour: SUMMARY_HOUR, catchUpDays: SUMMARY_CATCH_UP_DAYS });
  const byDay = new Map<string, { clientId: number; mallId: number }[]>();
  for (const { day, ...mall } of due) byDay.set(day, [...(byDay.get(day) ?? []), mall]);
  const total = { mallDays: 0, mails: 0 };
  for (const [day, malls] of [...byDay.entries()].sort(([a], [b]) => a.localeCompare(b))) {
    const decided = await inTransaction(deps.pool, async (tx) => {
      const claimed = await claimSummaryDays(tx, day, malls);
      const figures = await summaryFigures(tx, day, claimed);
      const unusual = await unusualDays(tx, day, claimed);
      const outletsOfMall = (clientId: number, mallId: number) =>
        figures.filter((row) => row.clientId === clientId && row.mallId === mallId).map((row) => row.outletId);
      const subscribers = await emailSubscribers(tx, [...new Set(claimed.map((mall) => mall.clientId))], 'summary');
      let mails = 0;
      for (const subscriber of subscribers) {
        const seen = figures.filter(
          (row) => row.clientId === subscriber.clientId && subscriberSees(subscriber, row.outletId),
        );
        if (seen.length === 0) continue;
        const mail = dailySummaryMail(
          subscriber,
          day,
          seen,
          deps.publicUrl,
          unusualDaysSeen(subscriber, unusual, outletsOfMall),
        );
        await enqueueMail(
          deps.boss,
          tx,
          {
            clientId: subscriber.clientId,
            kind: 'daily_summary',
            userId: subscriber.userId,
            recipient: mail.to,
            subject: mail.subject,
            text: mail.text,
            summaryDay: day,
          },
          deps.publicUrl,
        );
        mails += 1;
      }
      return { mallDays: claimed.length, mails };
    });
    total.mallDays += decided.mallDays;
    total.mails += decided.mails;
  }
  return total;
}

export async function registerDailySummary(
  context: JobContext,
  options: { everyMinutes: number; pollingIntervalSeconds?: number },
): Promise<void> {
  await registerPeriodic(context.boss, {
    queue: DAILY_SUMMARY_QUEUE,
    minutes: options.everyMinutes,
    log: context.log,
    ...(options.pollingIntervalSeconds === undefined ? {} : { pollingIntervalSeconds: options.pollingIntervalSeconds }),
    run: async () => {
      const now = new Date();
      const sent = await sendDailySummaries({ ...context, now });
      if (sent.mallDays > 0) context.log.info(sent, 'daily summaries enqueued');
      await pruneScheduledMail(context.pool, new Date(now.getTime() - KEEP_DAYS * 24 * 60 * 60 * 1000));
    },
  });
}
