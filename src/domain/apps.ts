/**
 * The Apps page and its Xero integration as pure data and functions, shared with the server: how the callback
 * tells the page what happened (a code in `?xero=`, never free text), the page's messages, and the day a posting is
 * for.
 */

/** What the callback tells the page in `?xero=`: connected, or why not. */
export const XERO_OUTCOMES = {
  connected: 'Connected to Xero.',
  cancelled: 'Connecting to Xero was cancelled.',
  expired: 'The connection attempt has expired or was started in another browser. Please connect again.',
  mismatch: "Xero's answer does not belong to your connection attempt. Please connect again.",
  signed_out: 'Your session ended before Xero answered. Please sign in and connect again.',
  not_allowed: 'You may not connect this client to Xero.',
  not_set_up: 'Xero is not set up on this server.',
  no_organisation: 'No Xero organisation was chosen. Please connect again and choose one.',
  refused: 'Xero did not connect the organisation. Please try again.',
  failed: 'Connecting to Xero failed. Please try again.',
} as const;

export type XeroOutcome = keyof typeof XERO_OUTCOMES;

export const XERO_OUTCOME_PARAM = 'xero';

const isOutcome = (code: string): code is XeroOutcome => Object.hasOwn(XERO_OUTCOMES, code);

/** The page the callback sends the browser back to, with its outcome. */
export function xeroReturnPath(outcome: XeroOutcome): string {
  return `/apps/xero?${XERO_OUTCOME_PARAM}=${outcome}`;
}

/** The outcome of the page's query (`?xero=`); an unknown code reads as a failure, none as nothing. */
export function xeroOutcomeOf(search: string): XeroOutcome | undefined {
  const code = new URLSearchParams(search.startsWith('?') ? search.slice(1) : search).get(XERO_OUTCOME_PARAM);
  if (code === null || code === '') return undefined;
  return isOutcome(code) ? code : 'failed';
}

/* ---------------------------------------------------------------- the page's texts */

export const APPS_WHAT = 'Apps fetching';
export const XERO_WHAT = 'Xero connection fetching';
export const XERO_POSTINGS_WHAT = 'Xero postings fetching';
export const XERO_ACCOUNTS_WHAT = 'Xero accounts fetching';
export const XERO_CONNECT_FAILED_MESSAGE = 'Connecting to Xero failed. Please try again.';
export const XERO_DISCONNECTED_MESSAGE = 'Disconnected from Xero.';
export const XERO_DISCONNECT_FAILED_MESSAGE = 'Disconnecting from Xero failed. Please try again.';
export const XERO_POST_FAILED_MESSAGE = 'Posting to Xero failed. Please try again.';

/** The toast after a day was posted: how many journals this call posted. */
export function xeroPostedMessage(day: string, postedNow: number): string {
  if (postedNow === 0) return `Nothing new to post for ${day}: every outlet's sales of that day are in the log.`;
  return `Posted ${postedNow} ${postedNow === 1 ? 'journal' : 'journals'} for ${day} to Xero.`;
}

/** The connection's state as the Apps list and the Xero page show it. */
export type XeroStatus = 'notConnected' | 'connected' | 'expired';

export function xeroStatusOf(info: { xeroInfo: unknown; isTokenExpired: boolean }): XeroStatus {
  if (info.xeroInfo === null || info.xeroInfo === undefined) return 'notConnected';
  return info.isTokenExpired ? 'expired' : 'connected';
}

export const XERO_STATUS_LABELS: Readonly<Record<XeroStatus, string>> = {
  notConnected: 'Not connected',
  connected: 'Connected',
  expired: 'Connection expired',
};

/* ---------------------------------------------------------------- the day to post */

const pad = (value: number) => String(value).padStart(2, '0');

/** `YYYY-MM-DD` plus `days` (negative: before), on the calendar. */
export function addDays(day: string, days: number): string {
  const [year = 0, month = 1, date = 1] = day.split('-').map(Number);
  const shifted = new Date(Date.UTC(year, month - 1, date + days));
  return `${shifted.getUTCFullYear()}-${pad(shifted.getUTCMonth() + 1)}-${pad(shifted.getUTCDate())}`;
}

/** The longest ago a day may be posted. */
export const XERO_POST_MAX_DAYS_BACK = 366;

/**
 * Whether `day` may be posted now, seen from `today` (the browser's day): a real day before today and within the
 * last 366 days. The server checks the same against its malls' days.
 */
export function isPostableDay(day: string, today: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day) || addDays(day, 0) !== day) return false;
  return day < today && day >= addDays(today, -XERO_POST_MAX_DAYS_BACK);
}
