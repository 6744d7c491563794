import type { XeroConnectionRow } from '../repositories/xero.js';
import type { XeroAccess } from '../xero/connection.js';

/**
 * What the Xero postings share (the daily sales journals of server/jobs/xeroPosting.ts, the turnover-rent invoices
 * of server/jobs/rentInvoices.ts): a run either posts nothing, and says why, or posts each outlet's item in turn,
 * each decided in its own transaction, and stops when Xero stops answering.
 */

export interface PostingRunResult {
  /** 'done', or why nothing was posted: no connection, a connection to make again, Xero unreachable, no accounts. */
  readonly status: 'done' | 'notConnected' | 'expired' | 'unavailable' | 'noAccounts';
  readonly posted: number;
  readonly failed: number;
  readonly skipped: number;
  /** Outlets whose item was posted before. */
  readonly alreadyPosted: number;
}

/** How one outlet's item went; 'stopped': Xero did not answer, so the run stops. */
export type OutletPostingResult = 'posted' | 'failed' | 'skipped' | 'alreadyPosted' | 'stopped';

const nothing = (status: PostingRunResult['status']): PostingRunResult => ({
  status,
  posted: 0,
  failed: 0,
  skipped: 0,
  alreadyPosted: 0,
});

/** Why a run posts nothing with this access to Xero: not connected, expired, unreachable, or no accounts chosen. */
export function refusedRun(
  access: XeroAccess,
  accountsChosen: (connection: XeroConnectionRow) => boolean,
): PostingRunResult | undefined {
  if (access.status === 'none') return nothing('notConnected');
  if (access.status === 'expired') return nothing('expired');
  if (access.status === 'unavailable') return nothing('unavailable');
  return accountsChosen(access.connection) ? undefined : nothing('noAccounts');
}

/** Posts each item in turn and counts how each went; stops, 'unavailable', at the first Xero does not answer. */
export async function postEach<T>(
  items: Iterable<T>,
  post: (item: T) => Promise<OutletPostingResult>,
): Promise<PostingRunResult> {
  const counts = { posted: 0, failed: 0, skipped: 0, alreadyPosted: 0 };
  for (const item of items) {
    const result = await post(item);
    if (result === 'stopped') return { status: 'unavailable', ...counts };
    counts[result] += 1;
  }
  return { status: 'done', ...counts };
}
