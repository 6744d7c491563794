/**
 * Data feeds (issue 34): whether an outlet's till is sending receipts. The rule is written once, here: the
 * server's feed check raises its alerts by it and the Data Feeds page shows each outlet's state by it.
 *
 * Only an outlet whose receipts come from a capture device (an active device key) has a feed to watch: one whose
 * receipts are loaded otherwise (an import, the demo) never goes silent. An outlet usually trades at an hour when it
 * had receipts in that hour of its mall's day on at least USUAL_WEEKS of the last BASELINE_WEEKS same weekdays. It
 * is silent when it has a device, usually trades at this hour and at
 * the hour its set time ago (the same day), today is not declared non-trading, and it has sent no receipt for the
 * set time; its silence stays open until receipts resume.
 */

/** Same weekdays read before today. */
export const BASELINE_WEEKS = 4;
/** Of those, how many must have had receipts in the hour for the outlet to usually trade at it. */
export const USUAL_WEEKS = 3;
/** The client's set time when it has not set one (minutes without a receipt). */
export const DEFAULT_SILENCE_MINUTES = 60;

/** What the page shows of an outlet: silent, trading, outside its usual hours, or declared not trading today. */
export type FeedState = 'silent' | 'trading' | 'idle' | 'not_trading';

/** What the rule reads of an outlet at an instant. */
export interface FeedFacts {
  /** The outlet has an active capture device (device key). */
  readonly hasDevice: boolean;
  /** Same weekdays of the last BASELINE_WEEKS with receipts in this local hour. */
  readonly usualNow: number;
  /** Same weekdays with receipts in the local hour of the set time ago (0 when that was another day). */
  readonly usualThen: number;
  /** Today is a declared non-trading day of the outlet. */
  readonly nonTrading: boolean;
  /** The outlet has opened by today. */
  readonly opened: boolean;
  /** Its last receipt (ms since the epoch), null when none was read. */
  readonly lastReceiptMs: number | null;
  /** The client's set time, minutes. */
  readonly silenceMinutes: number;
  /** A silence of the outlet is open. */
  readonly silenceOpen: boolean;
}

/** Whether the outlet usually trades at this hour (USUAL_WEEKS of BASELINE_WEEKS). */
export const usuallyTrades = (days: number) => days >= USUAL_WEEKS;

/** Whether the outlet has sent no receipt for its set time at `nowMs`. */
export function quietFor(facts: FeedFacts, nowMs: number): boolean {
  return facts.lastReceiptMs === null || nowMs - facts.lastReceiptMs >= facts.silenceMinutes * 60_000;
}

/** Whether the feed check raises a silence of the outlet at `nowMs` (when none is open). */
export function isSilent(facts: FeedFacts, nowMs: number): boolean {
  return (
    facts.hasDevice &&
    facts.opened &&
    !facts.nonTrading &&
    usuallyTrades(facts.usualNow) &&
    usuallyTrades(facts.usualThen) &&
    quietFor(facts, nowMs)
  );
}

/** Whether the receipts of an outlet silent since `sinceMs` have resumed: a receipt after it. */
export function hasResumed(lastReceiptMs: number | null, sinceMs: number): boolean {
  return lastReceiptMs !== null && lastReceiptMs > sinceMs;
}

/** The outlet's state at `nowMs`: an open silence, or one the next check raises, is silent. */
export function feedState(facts: FeedFacts, nowMs: number): FeedState {
  if (facts.silenceOpen || isSilent(facts, nowMs)) return 'silent';
  if (facts.nonTrading) return 'not_trading';
  return quietFor(facts, nowMs) ? 'idle' : 'trading';
}

/** The page's filter: every outlet, or those of one state. */
export type FeedFilter = 'all' | FeedState;

export const FEED_FILTERS: readonly { readonly value: FeedFilter; readonly label: string }[] = [
  { value: 'all', label: 'All' },
  { value: 'silent', label: 'Silent' },
  { value: 'trading', label: 'Trading' },
  { value: 'idle', label: 'Outside usual hours' },
  { value: 'not_trading', label: 'Not trading today' },
];

/** The state's words on the page. */
export const FEED_STATE_LABELS: Readonly<Record<FeedState, string>> = {
  silent: 'Silent',
  trading: 'Trading',
  idle: 'Outside usual hours',
  not_trading: 'Not trading today',
};

/** The rows of `filter`. */
export function filterFeeds<Row extends { readonly state: FeedState }>(
  rows: readonly Row[],
  filter: FeedFilter,
): readonly Row[] {
  return filter === 'all' ? rows : rows.filter((row) => row.state === filter);
}

/** The columns the page sorts by. */
export type FeedSortColumn =
  | 'outlet_name'
  | 'mall_name'
  | 'state'
  | 'last_receipt_at'
  | 'device_last_call_at'
  | 'receipts_today'
  | 'silent_since';

/** The order of the states when sorted: silent first when descending. */
const STATE_ORDER: Readonly<Record<FeedState, number>> = { not_trading: 0, idle: 1, trading: 2, silent: 3 };

interface SortableFeed {
  readonly outlet_id: number;
  readonly outlet_name: string;
  readonly mall_name: string;
  readonly state: FeedState;
  readonly last_receipt_at: string | null;
  readonly device_last_call_at: string | null;
  readonly receipts_today: number;
  readonly silent_since: string | null;
}

function compareBy(column: FeedSortColumn, a: SortableFeed, b: SortableFeed): number {
  switch (column) {
    case 'outlet_name':
    case 'mall_name':
      return a[column].localeCompare(b[column], undefined, { sensitivity: 'base' });
    case 'state':
      return STATE_ORDER[a.state] - STATE_ORDER[b.state];
    case 'receipts_today':
      return a.receipts_today - b.receipts_today;
    default: {
      // Instants: none sorts before any.
      const left = a[column] === null ? Number.NEGATIVE_INFINITY : Date.parse(a[column]);
      const right = b[column] === null ? Number.NEGATIVE_INFINITY : Date.parse(b[column]);
      return left === right ? 0 : left < right ? -1 : 1;
    }
  }
}

/** `rows` sorted by `column` in `order`, ties by outlet name then id (always ascending). */
export function sortFeeds<Row extends SortableFeed>(
  rows: readonly Row[],
  column: FeedSortColumn,
  order: 'asc' | 'desc',
): Row[] {
  const sign = order === 'asc' ? 1 : -1;
  return [...rows].sort(
    (a, b) =>
      sign * compareBy(column, a, b) ||
      a.outlet_name.localeCompare(b.outlet_name, undefined, { sensitivity: 'base' }) ||
      a.outlet_id - b.outlet_id,
  );
}

/** The '{what}' of the page's failure toast. */
export const DATA_FEEDS_WHAT = 'Data feeds';

/** What the page reads: the client and the malls of the header. */
export interface DataFeedsTarget {
  readonly clientId: number;
  readonly mallIds: readonly number[];
}

/** The header's client and malls, when it has both. */
export function dataFeedsTargetOf(filters: {
  readonly clientId?: number | undefined;
  readonly mallIds: readonly number[];
}): DataFeedsTarget | undefined {
  if (filters.clientId === undefined || filters.mallIds.length === 0) return undefined;
  return { clientId: filters.clientId, mallIds: [...filters.mallIds] };
}

/** Whether two targets read the same feeds. */
export function sameDataFeedsTarget(a: DataFeedsTarget | undefined, b: DataFeedsTarget | undefined): boolean {
  return (
    a?.clientId === b?.clientId &&
    a?.mallIds.length === b?.mallIds.length &&
    (a?.mallIds ?? []).every((id, index) => b?.mallIds[index] === id)
  );
}

/** The page's order: a column, and which way. */
export interface FeedSort {
  readonly column: FeedSortColumn;
  readonly order: 'asc' | 'desc';
}

/** Silent outlets first. */
export const DEFAULT_FEED_SORT: FeedSort = { column: 'state', order: 'desc' };

/** The sort after a click on `column`: the same column turns around, a new one sorts descending first. */
export function nextFeedSort(sort: FeedSort, column: FeedSortColumn): FeedSort {
  if (sort.column === column) return { column, order: sort.order === 'asc' ? 'desc' : 'asc' };
  return { column, order: 'desc' };
}

/* ---------------------------------------------------------------- the client's feed and unusual-day rules */

/** §8's "{what} error occurs" of the feed and unusual-day rules dialog. */
export const FEED_RULES_WHAT = 'Feed rules fetching';
export const SILENCE_MINUTES_MESSAGE = 'Enter whole minutes from 15 to 1440.';
export const UNUSUAL_THRESHOLD_MESSAGE = 'Enter a number from 1 to 20 with at most 2 decimals.';
/** The fewest usable weekdays a day may be judged on, and the most (the eight weeks read). */
export const MIN_BASELINE_CHOICES = [3, 4, 5, 6, 7, 8] as const;

/** The rules as the dialog edits them: the minutes and the threshold as typed. */
export interface FeedRulesDraft {
  readonly clientId: number;
  readonly silenceText: string;
  readonly thresholdText: string;
  readonly minBaseline: number;
}

/** Whole minutes from 15 to 1440 ('90'), else undefined. */
export function parseSilenceMinutes(text: string): number | undefined {
  const trimmed = text.trim();
  if (!/^\d{1,4}$/.test(trimmed)) return undefined;
  const value = Number(trimmed);
  return value >= 15 && value <= 1440 ? value : undefined;
}

/** A threshold from 1 to 20 with at most 2 decimals ('3.5'), else undefined. */
export function parseUnusualThreshold(text: string): number | undefined {
  const trimmed = text.trim();
  if (!/^\d{1,2}(\.\d{1,2})?$/.test(trimmed)) return undefined;
  const value = Number(trimmed);
  return value >= 1 && value <= 20 ? value : undefined;
}

/** Whether the draft can be saved as it is. */
export const isFeedRulesDraftValid = (draft: FeedRulesDraft) =>
  parseSilenceMinutes(draft.silenceText) !== undefined &&
  parseUnusualThreshold(draft.thresholdText) !== undefined &&
  (MIN_BASELINE_CHOICES as readonly number[]).includes(draft.minBaseline);
