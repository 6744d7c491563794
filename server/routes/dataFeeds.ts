import { feedState, usuallyTrades } from '../../src/domain/dataFeeds.js';
import { requireCaller } from '../auth/access.js';
import { notFound } from '../errors.js';
import {
  feedFactsOf,
  feedOutlets,
  feedSilenceMinutes,
  getFeedAlertSettings,
  updateFeedAlertSettings,
} from '../repositories/feeds.js';
import type { AreaHandlers, RouteDeps } from './types.js';

/**
 * /api/dataFeeds: whether each outlet of the selected malls is sending receipts (issue 34), read now; and the
 * client's rules of feed alerts and unusual days.
 */
export function dataFeedHandlers({ pool, reads }: RouteDeps) {
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

    // The rules are read from the primary: an editor reloads what it saved.
    async getFeedAlertSettings({ query }) {
      const settings = await getFeedAlertSettings(pool, query.client_id);
      if (!settings) throw notFound('No such client.');
      return settings;
    },

    async updateFeedAlertSettings(request) {
      const { body } = request;
      const caller = requireCaller(request);
      const saved = await updateFeedAlertSettings(
        pool,
        { clientId: body.client_id, userId: caller.user.id },
        {
          silence_minutes: body.silence_minutes,
          unusual_threshold: body.unusual_threshold,
          unusual_min_baseline: body.unusual_min_baseline,
        },
      );
      if (!saved) throw notFound('No such client.');
      return saved;
    },
  } satisfies AreaHandlers;
}
