import { DEFAULT_COMPARISON } from '../domain/comparisons';
import type { MallAmountKind } from '../domain/mallAmounts';
import type { ReportQuery } from '../domain/mallReportViews';
import { api, type CallOptions } from './client';
import { dataOrThrow } from './errors';
import type { components } from './schema';

/**
 * The refunds and voucher redemption calls (GET /api/mall_report/refund and /api/mall_report/voucher): the range
 * against as many days just before it, by day and by outlet. Each throws an ApiError when the call fails (a 409
 * when the malls' currencies cannot be converted). What the pages show is shaped in domain/mallAmounts.
 */

export type MallAmountReport = components['schemas']['MallAmountReport'];

/** The report of `kind` for the query's client, malls and days (whole days: the page has no hour picker). */
export async function getMallAmountReport(
  kind: MallAmountKind,
  query: Pick<ReportQuery, 'clientId' | 'mallIds' | 'start' | 'end' | 'comparison'>,
  { signal, client = api }: CallOptions = {},
): Promise<MallAmountReport> {
  const comparison = query.comparison ?? DEFAULT_COMPARISON;
  const params = {
    query: {
      client_id: query.clientId,
      mall_ids: [...query.mallIds],
      start_time: query.start,
      end_time: query.end,
      compare: comparison.rule,
      like_for_like: comparison.likeForLike,
    },
  };
  return dataOrThrow(
    kind === 'refund'
      ? await client.GET('/api/mall_report/refund', { params, signal })
      : await client.GET('/api/mall_report/voucher', { params, signal }),
  );
}
