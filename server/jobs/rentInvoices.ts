import type PgBoss from 'pg-boss';
import type { Queryable } from '../db/pool.js';
import { inTransaction } from '../db/pool.js';
import { rentsOf } from '../leases/monthRents.js';
import { type RentInputRow, rentInputs } from '../repositories/leases.js';
import {
  claimRentAdjustment,
  claimRentInvoice,
  finishRentAdjustment,
  finishRentInvoice,
  postedRentMonth,
  type RentAdjustmentOutcome,
  type RentInvoiceOutcome,
  rentInvoiceClients,
} from '../repositories/rentInvoices.js';
import { createCreditNote, createInvoice, failedPosting, type MadeInvoice } from '../xero/api.js';
import { type XeroDeps, xeroAccess } from '../xero/connection.js';
import {
  type InvoiceAccounts,
  monthName,
  type OutletMonthRent,
  rentAdjustmentDocument,
  rentAdjustmentKeyOf,
  rentInvoice,
  rentInvoiceKeyOf,
} from '../xero/invoice.js';
import { cachedOptionsOf } from '../xero/journal.js';
import { createQueue } from './createQueue.js';
import { type OutletPostingResult, type PostingRunResult, postEach, refusedRun } from './xeroRuns.js';

/**
 * The turnover-rent invoices: each leased outlet's month posted to the client's Xero organisation as one sales
 * invoice to its tenant's contact, at most once. The amount is the turnover rent due of the rent statements (the
 * same computation, `rentsOf` of server/leases/monthRents.ts: on the declared GTO, else on the captured sales), summed
 * over the leases covering the month; a month is invoiced only once it has ended in the outlet's mall. Each outlet's
 * month is decided in one transaction, as the daily journals' days are (server/jobs/xeroPosting.ts): its row of
 * rent_invoices is claimed (a row already posted is never claimed again; a second run waits on the lock and then
 * finds it posted), the invoice is sent with an Idempotency-Key of that outlet, month and organisation, and the
 * outcome is written before the commit. A crash before the commit leaves no record, and the next run sends the same
 * key again, so Xero answers the invoice it made instead of making a second one.
 *
 * A posted month whose rent due has changed since (the tenant declared late, or corrected its declaration) is
 * corrected under the same row lock: the difference between the rent due and what was invoiced (the invoice plus
 * the posted adjustment invoices less the posted credit notes) is posted once, as an adjustment invoice or a credit
 * note (rent_invoice_adjustments, migration 042), to the organisation the invoice went to. The invoice is never
 * changed: an approved invoice may have been sent to the tenant, or paid.
 */

/** What posting a month did. */
export type PostMonthResult = PostingRunResult;

type OutletResult = OutletPostingResult;

const currencyMessage = (outletCurrency: string, accepted: readonly string[]) =>
  accepted.length === 0
    ? "The organisation's currency is not known: nothing is invoiced until Xero tells it."
    : `The outlet's rent is in ${outletCurrency} and the organisation invoices in ${accepted.join(', ')}: ` +
      "this outlet's invoice is not posted.";

const nothingDueMessage = (month: string) =>
  `No turnover rent is due for ${monthName(month)} (the turnover stayed within the base rent or below the ` +
  'breakpoint): there is nothing to invoice.';

/**
 * Each outlet's month of the client's lease rows (as rentInputs answers them, by outlet then start): the turnover
 * rent due of each lease covering it. An outlet whose month has not ended in its mall is left out.
 */
export function outletMonthRents(rows: readonly RentInputRow[], month: string): OutletMonthRent[] {
  const byOutlet = new Map<number, RentInputRow[]>();
  for (const row of rows) byOutlet.set(row.lease.outlet_id, [...(byOutlet.get(row.lease.outlet_id) ?? []), row]);
  const rents: OutletMonthRent[] = [];
  for (const leases of byOutlet.values()) {
    const computed = leases.map((row) => ({ row, rents: rentsOf(row, month) }));
    const first = leases[0];
    if (!first || computed.some(({ rents }) => rents.partial)) continue;
    const cents = computed.reduce((sum, { rents }) => sum + Math.round(rents.due.turnover_rent * 100), 0);
    rents.push({
      outletId: first.lease.outlet_id,
      outletName: first.lease.outlet_name,
      outletCode: first.lease.outlet_code || null,
      currency: first.lease.currency,
      month,
      leases: computed.map(({ row, rents }) => ({
        leaseId: row.lease.id,
        startDate: row.lease.start_date,
        endDate: row.lease.end_date,
        turnoverRent: rents.due.turnover_rent,
      })),
      amount: cents / 100,
    });
  }
  return rents;
}

/**
 * Posts the turnover-rent invoices of the client's `month` (YYYY-MM): every outlet with a lease covering it whose
 * month has ended in its mall; idempotent.
 */
export async function postRentInvoices(
  deps: XeroDeps,
  { clientId, month }: { clientId: number; month: string },
): Promise<PostMonthResult> {
  const refused = refusedRun(await xeroAccess(deps, clientId), (connection) =>
    Boolean(connection.salesAccount && connection.taxType),
  );
  if (refused) return refused;

  const { rows } = await rentInputs(
    deps.pool,
    { clientId, visibility: { clientIds: [clientId], outletLimits: new Map() } },
    month,
  );
  return postEach(outletMonthRents(rows, month), (rent) => postOutletMonth(deps, clientId, rent));
}

async function postOutletMonth(deps: XeroDeps, clientId: number, rent: OutletMonthRent): Promise<OutletResult> {
  // The token of each invoice: a long run outlives an access token.
  const access = await xeroAccess(deps, clientId);
  if (access.status !== 'ok') return 'stopped';
  const { connection, accessToken } = access;
  const { salesAccount, taxType } = connection;
  const lease = rent.leases.at(-1);
  if (!salesAccount || !taxType || !lease) return 'stopped';
  const accounts: InvoiceAccounts = { salesAccount, taxType };
  const key = { clientId, outletId: rent.outletId, month: rent.month };
  return inTransaction(deps.pool, async (tx): Promise<OutletResult> => {
    const claim = await claimRentInvoice(tx, {
      ...key,
      leaseId: lease.leaseId,
      tenantId: connection.tenantId,
      amount: rent.amount,
      currency: rent.currency,
    });
    if (!claim)
      return correctPostedMonth(deps, tx, { clientId, accessToken, tenantId: connection.tenantId }, rent, accounts);
    const listed = cachedOptionsOf(connection.options).currency;
    const accepted = listed.length > 0 ? listed : connection.baseCurrency ? [connection.baseCurrency] : [];
    if (!accepted.includes(rent.currency)) {
      await finishRentInvoice(tx, key, { status: 'skipped', message: currencyMessage(rent.currency, accepted) });
      return 'skipped';
    }
    if (rent.amount <= 0) {
      await finishRentInvoice(tx, key, { status: 'skipped', message: nothingDueMessage(rent.month) });
      return 'skipped';
    }
    const idempotencyKey = rentInvoiceKeyOf(clientId, rent.outletId, rent.month, connection.tenantId, claim.generation);
    let outcome: RentInvoiceOutcome;
    try {
      const made = await createInvoice(
        deps.setting,
        accessToken,
        connection.tenantId,
        rentInvoice(rent, accounts),
        idempotencyKey,
      );
      outcome = { status: 'posted', ...made };
    } catch (error) {
      outcome = failedPosting(error);
      deps.log?.warn(
        { clientId, outletId: rent.outletId, month: rent.month, reason: outcome.message },
        'Xero refused a turnover-rent invoice',
      );
    }
    await finishRentInvoice(tx, key, outcome);
    return outcome.status;
  });
}

/** The day (YYYY-MM-DD, UTC) a correction is made: its date. */
const todayUtc = () => new Date().toISOString().slice(0, 10);

/**
 * The correction of a posted month, in the transaction holding its row lock: nothing when what was invoiced is the
 * rent due ('alreadyPosted'), or when the organisation is no longer the one invoiced; else the difference posted
 * once, as an adjustment invoice or a credit note ('posted'), or Xero's refusal recorded ('failed', decided again by
 * the next run on the same correction).
 */
async function correctPostedMonth(
  deps: XeroDeps,
  tx: Queryable,
  xero: { clientId: number; accessToken: string; tenantId: string },
  rent: OutletMonthRent,
  accounts: InvoiceAccounts,
): Promise<OutletResult> {
  const key = { clientId: xero.clientId, outletId: rent.outletId, month: rent.month };
  const posted = await postedRentMonth(tx, key);
  if (!posted || posted.tenantId !== xero.tenantId || posted.currency !== rent.currency) return 'alreadyPosted';
  const difference = Math.round(rent.amount * 100) - Math.round(posted.invoiced * 100);
  if (difference === 0) return 'alreadyPosted';
  const kind = difference > 0 ? 'invoice' : 'credit_note';
  const amount = Math.abs(difference) / 100;
  const sequence = posted.pending?.sequence ?? posted.nextSequence;
  const generation = await claimRentAdjustment(tx, {
    ...key,
    sequence,
    kind,
    amount,
    tenantId: xero.tenantId,
    currency: rent.currency,
  });
  const document = rentAdjustmentDocument(
    rent,
    { kind, amount, sequence, invoiced: posted.invoiced, due: rent.amount, date: todayUtc() },
    accounts,
  );
  const idempotencyKey = rentAdjustmentKeyOf(
    key.clientId,
    key.outletId,
    key.month,
    xero.tenantId,
    sequence,
    generation,
  );
  let outcome: RentAdjustmentOutcome;
  try {
    const made: MadeInvoice =
      document.kind === 'invoice'
        ? await createInvoice(deps.setting, xero.accessToken, xero.tenantId, document.invoice, idempotencyKey)
        : await createCreditNote(deps.setting, xero.accessToken, xero.tenantId, document.creditNote, idempotencyKey);
    outcome = { status: 'posted', ...made };
  } catch (error) {
    outcome = failedPosting(error);
    deps.log?.warn({ ...key, sequence, kind, reason: outcome.message }, 'Xero refused a turnover-rent correction');
  }
  await finishRentAdjustment(tx, { ...key, sequence }, outcome);
  return outcome.status;
}

/* ---------------------------------------------------------------- the job queue */

/** The daily look: every connected client's last month, once its GTO due day has passed. */
export const RENT_INVOICES_QUEUE = 'xero-rent-invoices';
/** One client's month now: `{ clientId, month }`. */
export const RENT_INVOICES_MONTH_QUEUE = 'xero-rent-invoices-month';
/** 02:00 UTC every day (after the daily journals' 01:30). */
export const RENT_INVOICES_CRON = '0 2 * * *';

export interface RentInvoicesMonthJob {
  clientId: number;
  month: string;
}

const isMonthJob = (data: unknown): data is RentInvoicesMonthJob =>
  typeof data === 'object' &&
  data !== null &&
  Number.isInteger((data as RentInvoicesMonthJob).clientId) &&
  typeof (data as RentInvoicesMonthJob).month === 'string' &&
  /^\d{4}-(0[1-9]|1[0-2])$/.test((data as RentInvoicesMonthJob).month);

/** How many months back a month may be posted on request (POST /api/rentStatements/invoices). */
export const RENT_INVOICE_MAX_MONTHS_BACK = 12;

/** The month before `month` (YYYY-MM). */
export function monthBefore(month: string): string {
  const year = Number(month.slice(0, 4));
  const number = Number(month.slice(5, 7));
  return number === 1 ? `${year - 1}-12` : `${year}-${String(number - 1).padStart(2, '0')}`;
}

/**
 * The month the daily look invoices on `today` (the client's malls' earliest today, YYYY-MM-DD): the month before,
 * which has ended in every mall, once today is past the client's GTO due day (the tenants have declared the month's
 * GTO by then); undefined before that.
 */
export function dueMonthOf(today: string, dueDay: number): string | undefined {
  return Number(today.slice(8, 10)) > dueDay ? monthBefore(today.slice(0, 7)) : undefined;
}

/**
 * The daily look of the monthly invoices: for each client whose connection works and whose sales account and tax
 * rate are chosen, its due month (dueMonthOf). Every day from the day after the GTO due day to the month's end, so
 * that a month Xero refused or could not take, or a zero rent that a late declaration changes, is posted by a later
 * run; a posted outlet's month is never sent again, only corrected by the difference when its rent due changed.
 * Answers the invoices and corrections posted.
 */
export async function runMonthlyRentInvoices(deps: XeroDeps): Promise<number> {
  let posted = 0;
  for (const { clientId, today, dueDay } of await rentInvoiceClients(deps.pool)) {
    const month = dueMonthOf(today, dueDay);
    if (month === undefined) continue;
    const result = await postRentInvoices(deps, { clientId, month });
    posted += result.posted;
  }
  return posted;
}

export interface RentInvoiceJobOptions {
  /** Default RENT_INVOICES_CRON, in UTC unless `tz`. */
  cron?: string;
  tz?: string;
  /** How often the workers look for jobs (pg-boss's pollingIntervalSeconds, default 2). */
  pollingIntervalSeconds?: number;
}

/**
 * The queues, the daily schedule and the workers of the turnover-rent invoices on a started PgBoss. A "post now" is
 * `boss.send(RENT_INVOICES_MONTH_QUEUE, { clientId, month })`. Every job is idempotent: several servers may work the
 * queues, and pg-boss sends the schedule's job once a tick across them.
 */
export async function registerRentInvoiceJobs(
  boss: PgBoss,
  deps: XeroDeps,
  options: RentInvoiceJobOptions = {},
): Promise<void> {
  await createQueue(boss, RENT_INVOICES_QUEUE, { name: RENT_INVOICES_QUEUE, policy: 'singleton', retryLimit: 2 });
  await createQueue(boss, RENT_INVOICES_MONTH_QUEUE, {
    name: RENT_INVOICES_MONTH_QUEUE,
    policy: 'standard',
    retryLimit: 2,
  });
  await boss.schedule(RENT_INVOICES_QUEUE, options.cron ?? RENT_INVOICES_CRON, {}, { tz: options.tz ?? 'UTC' });
  const polling = { pollingIntervalSeconds: options.pollingIntervalSeconds ?? 2 };
  await boss.work(RENT_INVOICES_QUEUE, polling, async () => {
    const posted = await runMonthlyRentInvoices(deps);
    if (posted > 0) deps.log?.info({ posted }, 'Xero turnover-rent invoices posted');
  });
  await boss.work<unknown>(RENT_INVOICES_MONTH_QUEUE, polling, async (jobs) => {
    for (const job of jobs) {
      if (!isMonthJob(job.data)) {
        deps.log?.warn({ jobId: job.id }, 'Turnover-rent invoice job without a client and month: ignored');
        continue;
      }
      const result = await postRentInvoices(deps, job.data);
      deps.log?.info({ clientId: job.data.clientId, month: job.data.month, ...result }, 'Turnover-rent invoices done');
    }
  });
}
