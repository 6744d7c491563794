import type PgBoss from 'pg-boss';
import { addDays } from '../../src/domain/apps.js';
import { inTransaction } from '../db/pool.js';
import {
  claimXeroPosting,
  earliestMallToday,
  finishXeroPosting,
  outletDaySales,
  type PostingOutcome,
  workingXeroConnections,
} from '../repositories/xero.js';
import { failedPosting, postManualJournal } from '../xero/api.js';
import { type XeroDeps, xeroAccess } from '../xero/connection.js';
import { cachedOptionsOf, dailySalesJournal, idempotencyKeyOf, type OutletDaySales } from '../xero/journal.js';
import { createQueue } from './createQueue.js';
import { type OutletPostingResult, type PostingRunResult, postEach, refusedRun } from './xeroRuns.js';

/**
 * The daily sales journals: each outlet's day (rollup_outlet_daily, in the outlet's currency) posted to the client's
 * Xero organisation as one manual journal, at most once. Each outlet's day is decided in one transaction: its row of
 * xero_postings is claimed (a row already posted is never claimed again; a second run waits on the lock and then
 * finds it posted), the journal is sent with an Idempotency-Key of that outlet, day and organisation, and the
 * outcome is written before the commit. A crash before the commit leaves no record, and the next run sends the same
 * key again, so Xero answers the journal it made instead of making a second one.
 */

/** What posting a day did. */
export type PostDayResult = PostingRunResult;

type OutletResult = OutletPostingResult;

const currencyMessage = (outletCurrency: string, baseCurrency: string | null) =>
  baseCurrency === null
    ? "The organisation's base currency is not known: nothing is posted until Xero tells it."
    : `The outlet's sales are in ${outletCurrency} and the organisation's base currency is ${baseCurrency}: ` +
      'manual journals are in the base currency, so this outlet is not posted.';

/** Posts the client's sales of `day` (a day that has ended in the outlets' malls); idempotent. */
export async function postDailySales(
  deps: XeroDeps,
  { clientId, day }: { clientId: number; day: string },
): Promise<PostDayResult> {
  const refused = refusedRun(await xeroAccess(deps, clientId), (connection) =>
    Boolean(connection.salesAccount && connection.taxType && connection.clearingAccount),
  );
  if (refused) return refused;
  return postEach(await outletDaySales(deps.pool, clientId, day), (sales) => postOutletDay(deps, clientId, sales));
}

async function postOutletDay(deps: XeroDeps, clientId: number, sales: OutletDaySales): Promise<OutletResult> {
  // The token of each journal: a long run outlives an access token.
  const access = await xeroAccess(deps, clientId);
  if (access.status !== 'ok') return 'stopped';
  const { connection, accessToken } = access;
  const { salesAccount, taxType, clearingAccount } = connection;
  if (!salesAccount || !taxType || !clearingAccount) return 'stopped';
  const key = { clientId, outletId: sales.outletId, day: sales.day };
  return inTransaction(deps.pool, async (tx): Promise<OutletResult> => {
    const claim = await claimXeroPosting(tx, {
      ...key,
      tenantId: connection.tenantId,
      amount: sales.amount,
      currency: sales.currency,
    });
    if (!claim) return 'alreadyPosted';
    if (sales.currency !== connection.baseCurrency) {
      await finishXeroPosting(tx, key, {
        status: 'skipped',
        message: currencyMessage(sales.currency, connection.baseCurrency),
      });
      return 'skipped';
    }
    const journal = dailySalesJournal(sales, {
      salesAccount,
      taxType,
      clearingAccount,
      clearingTaxType: cachedOptionsOf(connection.options).clearingTaxTypes[clearingAccount],
    });
    const idempotencyKey = idempotencyKeyOf(clientId, sales.outletId, sales.day, connection.tenantId, claim.generation);
    let outcome: PostingOutcome;
    try {
      const journalId = await postManualJournal(
        deps.setting,
        accessToken,
        connection.tenantId,
        journal,
        idempotencyKey,
      );
      outcome = { status: 'posted', journalId };
    } catch (error) {
      outcome = failedPosting(error);
      const reason = outcome.message;
      deps.log?.warn({ clientId, outletId: sales.outletId, day: sales.day, reason }, 'Xero refused a daily journal');
    }
    await finishXeroPosting(tx, key, outcome);
    return outcome.status;
  });
}

/* ---------------------------------------------------------------- the job queue */

/** The daily run: every connected client's recent days. */
export const XERO_DAILY_QUEUE = 'xero-daily-sales';
/** One client's day now: `{ clientId, day }`. */
export const XERO_POST_DAY_QUEUE = 'xero-post-day';
/** 01:30 UTC: the day before has ended in every time zone east of UTC-1:30, the rest is posted the next day. */
export const XERO_DAILY_CRON = '30 1 * * *';
/** How many ended days each daily run covers (a day missed while Xero was down is posted by a later run). */
export const XERO_DAILY_DAYS = 3;

export interface XeroPostDayJob {
  clientId: number;
  day: string;
}

const isPostDayJob = (data: unknown): data is XeroPostDayJob =>
  typeof data === 'object' &&
  data !== null &&
  Number.isInteger((data as XeroPostDayJob).clientId) &&
  typeof (data as XeroPostDayJob).day === 'string' &&
  /^\d{4}-\d{2}-\d{2}$/.test((data as XeroPostDayJob).day);

/**
 * The daily run: each connection's token refreshed (a refresh token unused for 60 days expires), and for each client
 * whose accounts are chosen, the last `days` days that have ended in all its malls posted.
 */
export async function runDailyXeroPosting(deps: XeroDeps, days = XERO_DAILY_DAYS): Promise<number> {
  let posted = 0;
  for (const { clientId, accountsChosen } of await workingXeroConnections(deps.pool)) {
    if (!accountsChosen) {
      await xeroAccess(deps, clientId);
      continue;
    }
    const today = await earliestMallToday(deps.pool, clientId);
    if (today === undefined) continue;
    for (let back = days; back >= 1; back -= 1) {
      const result = await postDailySales(deps, { clientId, day: addDays(today, -back) });
      posted += result.posted;
      if (result.status !== 'done') break;
    }
  }
  return posted;
}

export interface XeroJobOptions {
  /** Default XERO_DAILY_CRON, in UTC unless `tz`. */
  cron?: string;
  tz?: string;
  days?: number;
  /** How often the workers look for jobs (pg-boss's pollingIntervalSeconds, default 2). */
  pollingIntervalSeconds?: number;
}

/**
 * The queues, the daily schedule and the workers of the Xero posting on a started PgBoss. A "post now" is
 * `boss.send(XERO_POST_DAY_QUEUE, { clientId, day })`. Every job is idempotent: several servers may work the queues.
 */
export async function registerXeroJobs(boss: PgBoss, deps: XeroDeps, options: XeroJobOptions = {}): Promise<void> {
  await createQueue(boss, XERO_DAILY_QUEUE, { name: XERO_DAILY_QUEUE, policy: 'singleton', retryLimit: 2 });
  await createQueue(boss, XERO_POST_DAY_QUEUE, { name: XERO_POST_DAY_QUEUE, policy: 'standard', retryLimit: 2 });
  await boss.schedule(XERO_DAILY_QUEUE, options.cron ?? XERO_DAILY_CRON, {}, { tz: options.tz ?? 'UTC' });
  const polling = { pollingIntervalSeconds: options.pollingIntervalSeconds ?? 2 };
  await boss.work(XERO_DAILY_QUEUE, polling, async () => {
    const posted = await runDailyXeroPosting(deps, options.days ?? XERO_DAILY_DAYS);
    if (posted > 0) deps.log?.info({ posted }, 'Xero daily sales journals posted');
  });
  await boss.work<unknown>(XERO_POST_DAY_QUEUE, polling, async (jobs) => {
    for (const job of jobs) {
      if (!isPostDayJob(job.data)) {
        deps.log?.warn({ jobId: job.id }, 'Xero post-day job without a client and day: ignored');
        continue;
      }
      const result = await postDailySales(deps, job.data);
      deps.log?.info({ clientId: job.data.clientId, day: job.data.day, ...result }, 'Xero post-day job done');
    }
  });
}
