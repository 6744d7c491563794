import type PgBoss from 'pg-boss';
import type { Department } from '../../src/domain/breakeven.js';
import { isCompareRule } from '../../src/domain/comparisonUrl.js';
import { addDays, isMetric, isTimeRange, type Metric, type TimeRange } from '../../src/domain/dateLimits.js';
import { FILTER_QUERY_KEYS } from '../../src/domain/filterUrl.js';
import { formatFileDateRange } from '../../src/domain/format.js';
import { hasPermission } from '../../src/domain/permissions.js';
import {
  daysOfFilters,
  departmentForRecipient,
  duePeriod,
  localClock,
  rolledFilters,
  type SubscriptionPeriod,
  scheduleText,
  scopeOfSubscription,
  subscribablePage,
  subscriptionFileBase,
  YEAR_QUERY_KEY,
} from '../../src/domain/reportSubscriptions.js';
import { workbookOfPagePath } from '../../src/domain/reportWorkbooks.js';
import { openRenderSession, renderSessionSeconds } from '../auth/renderSessions.js';
import { inTransaction, type Pool } from '../db/pool.js';
import { type ExportSlots, exportOwner } from '../exports/exportSlots.js';
import type { PageRenderer } from '../exports/pageRenderer.js';
import { buildReportWorkbook } from '../exports/reportWorkbooks.js';
import { WORKBOOK_MEDIA_TYPE } from '../exports/workbookParts.js';
import { MAX_ATTACHMENT_BYTES, type MailAttachment } from '../mail/mailer.js';
import { type CurrencyOf, reportCurrencyCache } from '../reports/mallAnswers.js';
import { countVisibleMalls, countVisibleOutlets } from '../repositories/lookup.js';
import {
  activeSubscriptions,
  claimDelivery,
  findSubscription,
  hasDelivery,
  type StoredSubscription,
} from '../repositories/reportSubscriptions.js';
import { findUserById, loadUserGrants } from '../repositories/users.js';
import { createQueue } from './createQueue.js';
import { enqueueMail } from './mailDelivery.js';
import { registerPeriodic } from './periodic.js';
import type { JobContext, JobLog } from './queue.js';

/**
 * Report subscriptions (issue 34, reports by e-mail). Every SUBSCRIPTION_CHECK_EVERY_MINUTES a pg-boss job looks
 * which subscriptions have a period due in their mall's time zone (the rule of src/domain/reportSubscriptions.ts)
 * and sends each: for every recipient who still sees the page's malls and may read its figures at that moment, the
 * page is rendered as that recipient (a render-only session, the server's browser: pageRenderer.ts) and, for Mall
 * Home, its workbook built from the same answers; then, in one transaction, the period's delivery row is inserted
 * (its primary key: a period is sent once, however many instances or runs try) together with one scheduled mail a
 * recipient with its files (enqueueMail: the outbox's exactly-once delivery). Renders happen before that
 * transaction, so two instances may render a period twice but only one mails it. A recipient whose render fails is
 * left out alone, the others mailed, and the period says whom it missed and why (shown in the list); when it fails for
 * every recipient the period is recorded as failed with its reason rather than tried every few minutes; "send now"
 * tries again.
 *
 * "Send now" (POST /api/reportSubscriptions/send) sends a job to REPORT_SUBSCRIPTION_SEND_QUEUE with a period key of
 * its own, and the same code sends it.
 */

export const REPORT_SUBSCRIPTIONS_QUEUE = 'report-subscriptions';
export const REPORT_SUBSCRIPTION_SEND_QUEUE = 'report-subscription-send';

/** What the routes and the job share: the renderer, the export slots, and pg-boss once the jobs have started. */
export interface ReportSubscriptionRuntime {
  readonly renderer: PageRenderer;
  readonly slots: ExportSlots;
  /** Set when the jobs start; "send now" answers 503 before. */
  boss: PgBoss | undefined;
}

/** A "send now" job: the subscription and its own period key. */
export interface SendNowJob {
  clientId: number;
  subscriptionId: number;
  periodKey: string;
  /** The mall's day it is sent on, whose day before its range ends. */
  sendDay: string;
}

export interface SubscriptionDeps {
  pool: Pool;
  boss: PgBoss;
  publicUrl: string;
  runtime: ReportSubscriptionRuntime;
  log: JobLog;
  currencyOf?: CurrencyOf;
  /** The longest a render waits for an export slot and runs (RENDER_TIMEOUT_SECONDS), ms. */
  renderTimeoutMs: number;
}

interface Recipient {
  userId: number;
  email: string;
  mayReadWorkbook: boolean;
  visibility: { clientIds: number[]; outletLimits: Map<number, number[]> };
  /** A breakeven page's department for them (departmentForRecipient). */
  department: Department | undefined;
}

/**
 * The recipient as of now, or undefined when they no longer may get the report: gone or disabled, no longer of
 * the client, no longer allowed the page's figures (a breakeven page's department included: another department's
 * member may not read Marcom's), or no longer seeing every mall of its filters (an outlet page's outlet; a client
 * page, whose list is of the outlets the recipient sees, asks the client alone).
 */
async function recipientNow(
  deps: Pick<SubscriptionDeps, 'pool'>,
  subscription: StoredSubscription,
  userId: number,
): Promise<Recipient | undefined> {
  const user = await findUserById(deps.pool, userId);
  if (!user || user.disabled) return undefined;
  const grants = await loadUserGrants(deps.pool, userId);
  if (!grants.clientIds.includes(subscription.client_id)) return undefined;
  const allowed = (path: string) => grants.isSuperAdmin || hasPermission(grants.apiPermissions, path, 'GET');
  const page = subscribablePage(subscription.page_path);
  if (page === undefined || !allowed(page.read)) return undefined;
  const department = departmentForRecipient(page, grants.roles);
  if (department === null) return undefined;
  const visibility = { clientIds: grants.clientIds, outletLimits: grants.outletLimits };
  const scope = scopeOfSubscription(subscription.page_path, subscription.filters);
  // An outlet page's outlet, and a pair's second outlet, must both be seen; a client page (the GTO Review) lists the
  // client's outlets the recipient sees: the client is theirs (above).
  const outletIds = [scope?.outletId, scope?.pairedOutletId].filter((id): id is number => id !== undefined);
  const seen =
    page.scope === 'client' ||
    (outletIds.length === 0
      ? (await countVisibleMalls(deps.pool, visibility, subscription.mallIds, subscription.client_id)) ===
        subscription.mallIds.length
      : (await countVisibleOutlets(deps.pool, visibility, outletIds, subscription.client_id)) === outletIds.length);
  if (!seen) return undefined;
  const workbook = workbookOfPagePath(subscription.page_path);
  return {
    userId,
    email: user.email,
    mayReadWorkbook: workbook !== undefined && allowed(workbook.operationPath),
    visibility,
    department,
  };
}

/** Renders the page as `recipient` within an export slot of theirs, waiting for one up to the time limit. */
async function inSlot<T>(deps: SubscriptionDeps, userId: number, work: () => Promise<T>): Promise<T> {
  const release = await deps.runtime.slots.waitFor(exportOwner(userId), { timeoutMs: deps.renderTimeoutMs });
  if (!release) throw new Error('no export slot came free in time: the server is busy with other exports');
  try {
    return await work();
  } finally {
    release();
  }
}

/**
 * The hours, time range and metric of a page's filters as its workbook takes them (the pages without them ignore
 * them); a value the header would not have written is left out, and the page's default is used.
 */
export function pageOptionsOf(params: URLSearchParams): {
  start_hour?: number;
  end_hour?: number;
  time_range?: TimeRange;
  metric?: Metric;
} {
  const hours = /^(\d{1,2})-(\d{1,2})$/.exec(params.get(FILTER_QUERY_KEYS.hours) ?? '');
  const [from, to] = hours ? [Number(hours[1]), Number(hours[2])] : [Number.NaN, Number.NaN];
  const timeRange = params.get(FILTER_QUERY_KEYS.timeRange) ?? '';
  const metric = params.get(FILTER_QUERY_KEYS.metric) ?? '';
  return {
    ...(from <= to && to <= 23 ? { start_hour: from, end_hour: to } : {}),
    ...(isTimeRange(timeRange) ? { time_range: timeRange } : {}),
    ...(isMetric(metric) ? { metric } : {}),
  };
}

/** The files of one recipient: the page's PDF and, for a page that has one and a recipient allowed it, its workbook. */
async function attachmentsFor(
  deps: SubscriptionDeps,
  subscription: StoredSubscription,
  recipient: Recipient,
  filters: string,
  sendDay: string,
  now: Date,
): Promise<MailAttachment[]> {
  const params = new URLSearchParams(filters);
  const scope = scopeOfSubscription(subscription.page_path, subscription.filters);
  // The page's days: its range, its month, or (a page of the year shown, Sales Trends) the year its rolled filters
  // show (`year=`, the last whole day's) up to that day; the files are named after them:
  // 'refunds_2026-03-02_2026-03-08.pdf', 'rent-statements_2026-02.pdf', 'sales-trends_2026.pdf',
  // 'mall-outlet-12_2026-03-02_2026-03-08.pdf'.
  const lastDay = addDays(sendDay, -1);
  const shown = daysOfFilters(filters);
  const days = shown ?? { start: `${params.get(YEAR_QUERY_KEY) ?? lastDay.slice(0, 4)}-01-01`, end: lastDay };
  const month = params.get(FILTER_QUERY_KEYS.month);
  const when = month ?? (shown ? formatFileDateRange(days.start, days.end) : days.start.slice(0, 4));
  const named = `${subscriptionFileBase(subscription.page_path, recipient.department)}_${when}`;
  const files: MailAttachment[] = [];
  if (subscription.formats.includes('pdf')) {
    const session = await openRenderSession(
      deps.pool,
      recipient.userId,
      renderSessionSeconds(Math.ceil(deps.renderTimeoutMs / 1000)),
    );
    try {
      const bytes = await inSlot(deps, recipient.userId, () =>
        deps.runtime.renderer.renderPdf({ target: `${subscription.page_path}?${filters}`, cookie: session.cookie }),
      );
      files.push({ filename: `${named}.pdf`, mediaType: 'application/pdf', bytes });
    } finally {
      await session.end();
    }
  }
  const page = workbookOfPagePath(subscription.page_path)?.page;
  if (subscription.formats.includes('workbook') && recipient.mayReadWorkbook && page !== undefined) {
    const compare = params.get('compare');
    const workbook = await inSlot(deps, recipient.userId, () =>
      buildReportWorkbook(
        deps.pool,
        deps.currencyOf ?? reportCurrencyCache(deps.pool),
        { visibility: recipient.visibility, email: recipient.email },
        page,
        {
          client_id: subscription.client_id,
          mall_ids: subscription.mallIds,
          start_time: days.start,
          end_time: days.end,
          ...(compare !== null && isCompareRule(compare) ? { compare } : {}),
          like_for_like: params.get('like_for_like') === '1',
          ...pageOptionsOf(params),
          department: recipient.department,
          outlet_id: scope?.outletId,
          other_outlet_id: scope?.pairedOutletId,
        },
        { now },
      ),
    );
    files.push({ filename: workbook.name, mediaType: WORKBOOK_MEDIA_TYPE, bytes: workbook.bytes });
  }
  const size = files.reduce((sum, file) => sum + file.bytes.length, 0);
  if (size > MAX_ATTACHMENT_BYTES) {
    throw new Error(`the attachments weigh ${size} bytes, more than a mail may carry (${MAX_ATTACHMENT_BYTES})`);
  }
  return files;
}

function subscriptionMailText(
  subscription: StoredSubscription,
  filters: string,
  files: readonly MailAttachment[],
  publicUrl: string,
): string {
  return [
    `${subscription.name}: ${subscription.page_title}, as of its last whole day.`,
    '',
    `Attached: ${files.map((file) => file.filename).join(', ')}`,
    `Open the page: ${publicUrl}${subscription.page_path}?${filters}`,
    '',
    `You get this report ${scheduleText({
      frequency: subscription.frequency,
      hour: subscription.hour,
      weekday: subscription.weekday,
      monthDay: subscription.month_day,
    }).toLowerCase()} (${subscription.time_zone}) because ${subscription.owner_email ?? 'a colleague'} subscribed you.`,
  ].join('\n');
}

export type SendOutcome = 'sent' | 'failed' | 'already sent';

/**
 * Sends `period` of `subscription`: renders each recipient's files, then records the period and enqueues the mails
 * in one transaction. Answers 'already sent' when another run recorded the period first (nothing is mailed).
 */
export async function sendSubscriptionPeriod(
  deps: SubscriptionDeps,
  subscription: StoredSubscription,
  period: SubscriptionPeriod,
  now: Date,
): Promise<SendOutcome> {
  const ids = { clientId: subscription.client_id, subscriptionId: subscription.id, periodKey: period.key };
  const filters = rolledFilters(subscription.filters, period.sendDay, subscribablePage(subscription.page_path)?.period);
  const mails: { recipient: Recipient; files: MailAttachment[] }[] = [];
  // A recipient whose files could not be made is left out alone (said in the delivery's error); the others get theirs.
  const notRendered: string[] = [];
  for (const userId of subscription.recipientIds) {
    let recipient: Recipient | undefined;
    try {
      recipient = await recipientNow(deps, subscription, userId);
      if (!recipient) continue;
      mails.push({
        recipient,
        files: await attachmentsFor(deps, subscription, recipient, filters, period.sendDay, now),
      });
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      deps.log.error({ err: error, ...ids, userId }, 'report subscription not rendered');
      notRendered.push(`${recipient?.email ?? `user ${userId}`}: ${reason}`);
    }
  }
  const error = notRendered.length === 0 ? null : `Not sent to ${notRendered.join('; ')}`.slice(0, 500);
  if (mails.length === 0 && notRendered.length > 0) {
    const claimed = await claimDelivery(deps.pool, { ...ids, state: 'failed', recipients: 0, error });
    return claimed ? 'failed' : 'already sent';
  }
  return inTransaction(deps.pool, async (tx) => {
    const claimed = await claimDelivery(tx, { ...ids, state: 'sent', recipients: mails.length, error });
    if (!claimed) return 'already sent';
    for (const { recipient, files } of mails) {
      await enqueueMail(
        deps.boss,
        tx,
        {
          clientId: subscription.client_id,
          kind: 'report_subscription',
          userId: recipient.userId,
          recipient: recipient.email,
          subject: `${subscription.name}: ${subscription.page_title}`,
          text: subscriptionMailText(subscription, filters, files, deps.publicUrl),
          attachments: files,
        },
        deps.publicUrl,
      );
    }
    deps.log.info({ ...ids, recipients: mails.length }, 'report subscription sent');
    return 'sent';
  });
}

/** The period of `subscription` due at `now` in its mall's zone, if any. */
export function periodDueAt(subscription: StoredSubscription, now: Date): SubscriptionPeriod | undefined {
  return duePeriod(
    {
      frequency: subscription.frequency,
      hour: subscription.hour,
      weekday: subscription.weekday,
      monthDay: subscription.month_day,
    },
    localClock(now, subscription.time_zone),
    localClock(subscription.createdAt, subscription.time_zone),
  );
}

/** Sends every active subscription's period due at `now` not sent yet. Answers what each send came to. */
export async function checkSubscriptions(deps: SubscriptionDeps, now: Date): Promise<SendOutcome[]> {
  const outcomes: SendOutcome[] = [];
  for (const subscription of await activeSubscriptions(deps.pool)) {
    const period = periodDueAt(subscription, now);
    if (!period) continue;
    if (await hasDelivery(deps.pool, subscription.client_id, subscription.id, period.key)) continue;
    outcomes.push(await sendSubscriptionPeriod(deps, subscription, period, now));
  }
  return outcomes;
}

/** Sends a "send now" job's period (nothing when the subscription is gone). */
export async function sendNow(deps: SubscriptionDeps, job: SendNowJob, now: Date): Promise<SendOutcome | 'missing'> {
  const subscription = await findSubscription(deps.pool, job.clientId, job.subscriptionId);
  if (!subscription) return 'missing';
  return sendSubscriptionPeriod(deps, subscription, { key: job.periodKey, sendDay: job.sendDay }, now);
}

/** The "send now" period of `subscription` asked at `now`: its own key, sent as of the mall's today. */
export function sendNowJob(subscription: StoredSubscription, now: Date): SendNowJob {
  return {
    clientId: subscription.client_id,
    subscriptionId: subscription.id,
    periodKey: `now:${now.toISOString()}`,
    sendDay: localClock(now, subscription.time_zone).date,
  };
}

/** Queues a "send now" job on `boss`. */
export async function queueSendNow(boss: PgBoss, job: SendNowJob): Promise<void> {
  await boss.send(REPORT_SUBSCRIPTION_SEND_QUEUE, job);
}

/**
 * The periodic check (every `everyMinutes`; 0 removes its schedule) and the "send now" queue, which fills the
 * runtime's `boss` so the routes can queue sends.
 */
export function reportSubscriptionJobs(
  runtime: ReportSubscriptionRuntime,
  options: { everyMinutes: number; renderTimeoutMs: number; pollingIntervalSeconds?: number },
) {
  return async (context: JobContext): Promise<void> => {
    const deps: SubscriptionDeps = {
      pool: context.pool,
      boss: context.boss,
      publicUrl: context.publicUrl,
      runtime,
      log: context.log,
      renderTimeoutMs: options.renderTimeoutMs,
    };
    const polling =
      options.pollingIntervalSeconds === undefined ? {} : { pollingIntervalSeconds: options.pollingIntervalSeconds };
    await registerPeriodic(context.boss, {
      queue: REPORT_SUBSCRIPTIONS_QUEUE,
      minutes: runtime.renderer.state.available ? options.everyMinutes : 0,
      log: context.log,
      run: async () => {
        await checkSubscriptions(deps, new Date());
      },
      ...polling,
    });
    const queue: PgBoss.Queue = { name: REPORT_SUBSCRIPTION_SEND_QUEUE, policy: 'standard', retryLimit: 0 };
    await createQueue(context.boss, REPORT_SUBSCRIPTION_SEND_QUEUE, queue);
    await context.boss.work<SendNowJob>(REPORT_SUBSCRIPTION_SEND_QUEUE, polling, async (jobs) => {
      for (const job of jobs) await sendNow(deps, job.data, new Date());
    });
    runtime.boss = context.boss;
  };
}
