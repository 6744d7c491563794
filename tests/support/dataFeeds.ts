import type { DataFeedReport, DataFeedRow } from '../../src/api/dataFeeds';

/**
 * Data feed answers of the machine and view tests: client 1's Orchard Point (Singapore), read at 12:30 local on
 * 11 March 2026. Kopi Corner trades, Bakery Lane is silent since 11:10, Atlas Books declared today non-trading.
 */

/** A row of Orchard Point, trading, with `overrides`. */
export function feedRow(overrides: Partial<DataFeedRow> = {}): DataFeedRow {
  return {
    outlet_id: 11,
    outlet_name: 'Kopi Corner',
    mall_id: 1,
    mall_name: 'Orchard Point',
    time_zone: 'Asia/Singapore',
    state: 'trading',
    usual_hour: true,
    last_receipt_at: '2026-03-11T04:20:00.000Z',
    device_last_call_at: '2026-03-11T04:21:00.000Z',
    receipts_today: 41,
    usual_receipts_by_now: 44,
    silent_since: null,
    ...overrides,
  };
}

/** The three outlets. */
export const REPORT: DataFeedReport = {
  checked_at: '2026-03-11T04:30:00.000Z',
  silence_minutes: 60,
  rows: [
    feedRow(),
    feedRow({
      outlet_id: 12,
      outlet_name: 'Bakery Lane',
      state: 'silent',
      last_receipt_at: '2026-03-11T03:10:00.000Z',
      silent_since: '2026-03-11T03:10:00.000Z',
      receipts_today: 9,
    }),
    feedRow({ outlet_id: 13, outlet_name: 'Atlas Books', state: 'not_trading', receipts_today: 0 }),
  ],
};

/** Malls without an outlet the caller sees. */
export const NO_OUTLETS: DataFeedReport = { ...REPORT, rows: [] };
