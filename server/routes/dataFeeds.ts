import { feedState, usuallyTrades } from '../../src/domain/dataFeeds.js';
import { requireCaller } from '../auth/access.js';
import { feedFactsOf, feedOutlets, feedSilenceMinutes } from '../repositories/feeds.js';
import type { AreaHandlers, RouteDeps } from './types.js';

/** /api/dataFeeds: whether each outlet of the selected malls is sending receipts (issue 34), read now. */
export function dataFeedHandlers({ reads }: RouteDeps) {
  return {
    async getDataFeeds(request) {
      const { grants } = requireCaller(request);
      const { query } = request;
      const now = new Date();
      const [outlets, silenceMinutes] = await Promise.all([
        feedOutlets(reads, now, {
          kind: 'caller',
          clientId: query.client_id,
          visibility: { clientIds: grants.clientIds, outletLimits: grants.outletLimits },
          mallIds: [...new Set(query.mall_ids)],
        }),
        feedSilenceMinutes(reads, query.client_id),
      ]);
      return {
        checked_at: now.toISOString(),
        silence_minutes: silenceMinutes,
        rows: outlets.map((outlet) => ({
          outlet_id: outlet.outletId,
          outlet_name: outlet.outletName,
          mall_id: outlet.mallId,
          mall_name: outlet.mallName,
          time_zone: outlet.timeZone,
          state: feedState(feedFactsOf(outlet), now.getTime()),
          usual_hour: usuallyTrades(outlet.usualNow),
          last_receipt_at: outlet.lastReceiptAt?.toISOString() ?? null,
          device_last_call_at: outlet.lastCallAt?.toISOString() ?? null,
          receipts_today: outlet.receiptsToday,
          usual_receipts_by_now: outlet.usualByNow,
          silent_since: outlet.silenceSince?.toISOString() ?? null,
        })),
      };
    },
  } satisfies AreaHandlers;
}
