import { describe, expect, it } from 'vitest';
import {
  DEFAULT_FEED_SORT,
  dataFeedsTargetOf,
  type FeedFacts,
  feedState,
  hasResumed,
  isSilent,
  nextFeedSort,
  sameDataFeedsTarget,
} from '../../src/domain/dataFeeds';

/* The data feeds rule (issue 34) at 12:30 on a day, the client's set time 60 minutes. */

const NOW = Date.parse('2026-03-11T04:30:00Z');
const minutesAgo = (minutes: number) => NOW - minutes * 60_000;
const usual: FeedFacts = {
  hasDevice: true,
  usualNow: 4,
  usualThen: 3,
  nonTrading: false,
  opened: true,
  lastReceiptMs: minutesAgo(70),
  silenceMinutes: 60,
  silenceOpen: false,
};

describe('the feed rule', () => {
  it('is silent in hours it usually trades after the set time without a receipt, from the set time on', () => {
    expect(isSilent(usual, NOW)).toBe(true);
    expect(isSilent({ ...usual, lastReceiptMs: minutesAgo(60) }, NOW)).toBe(true);
    expect(isSilent({ ...usual, lastReceiptMs: minutesAgo(59) }, NOW)).toBe(false);
    expect(isSilent({ ...usual, lastReceiptMs: null }, NOW)).toBe(true);
  });

  it('needs three of the four weeks at this hour and at the hour of the set time ago', () => {
    expect(isSilent({ ...usual, usualNow: 2 }, NOW)).toBe(false);
    // The outlet opens at this hour: an hour ago it usually did not trade.
    expect(isSilent({ ...usual, usualThen: 0 }, NOW)).toBe(false);
  });

  it('is never silent on a declared non-trading day, nor before it opened, nor without a capture device', () => {
    expect(isSilent({ ...usual, nonTrading: true }, NOW)).toBe(false);
    expect(isSilent({ ...usual, hasDevice: false }, NOW)).toBe(false);
    expect(isSilent({ ...usual, opened: false }, NOW)).toBe(false);
  });

  it('names the state: an open silence is silent until receipts resume', () => {
    expect(feedState(usual, NOW)).toBe('silent');
    expect(feedState({ ...usual, lastReceiptMs: minutesAgo(5) }, NOW)).toBe('trading');
    expect(feedState({ ...usual, usualNow: 0 }, NOW)).toBe('idle');
    expect(feedState({ ...usual, nonTrading: true }, NOW)).toBe('not_trading');
    expect(feedState({ ...usual, nonTrading: true, silenceOpen: true }, NOW)).toBe('silent');
    expect(hasResumed(minutesAgo(5), minutesAgo(70))).toBe(true);
    expect(hasResumed(minutesAgo(70), minutesAgo(70))).toBe(false);
    expect(hasResumed(null, minutesAgo(70))).toBe(false);
  });
});

describe('the page', () => {
  it('reads a client and malls, and turns a column around or sorts a new one descending first', () => {
    expect(dataFeedsTargetOf({ clientId: 1, mallIds: [] })).toBeUndefined();
    expect(dataFeedsTargetOf({ clientId: undefined, mallIds: [1] })).toBeUndefined();
    expect(sameDataFeedsTarget({ clientId: 1, mallIds: [1, 2] }, { clientId: 1, mallIds: [1, 2] })).toBe(true);
    expect(sameDataFeedsTarget({ clientId: 1, mallIds: [1, 2] }, { clientId: 1, mallIds: [1] })).toBe(false);
    expect(nextFeedSort(DEFAULT_FEED_SORT, 'state')).toEqual({ column: 'state', order: 'asc' });
    expect(nextFeedSort(DEFAULT_FEED_SORT, 'outlet_name')).toEqual({ column: 'outlet_name', order: 'desc' });
  });
});
