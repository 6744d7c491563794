import type { CompareRule } from '../domain/comparisons';
import type { Period } from '../domain/reports';
import { api, type CallOptions } from './client';
import { dataOrThrow } from './errors';
import type { components } from './schema';

/**
 * The mall report calls about one outlet (§7 /api/mall_report/outlet/*) and the outlets ranked within their
 * category (/api/mall_report/category/outlet). Each throws an ApiError when the call fails.
 */

export type MallOutletComparison = components['schemas']['MallOutletComparisonResponse'];
export type CategoryOutletRow = components['schemas']['MallCategoryOutletRow'];
export type OutletDailyRow = components['schemas']['DailyReportRow'];

/** One outlet of a client over whole days. */
export interface OutletPeriod extends Period {
  readonly clientId: number;
  readonly outletId: number;
}

const outletQuery = (period: OutletPeriod) => ({
  client_id: period.clientId,
  outlet_id: period.outletId,
  start_time: period.start,
  end_time: period.end,
});

/**
 * GET /api/mall_report/outlet/overallComparison: the period's totals and the compared days' (whole weeks back, or
 * last year's by `compare`).
 */
export async function getMallOutletComparison(
  period: OutletPeriod,
  { signal, client = api }: CallOptions = {},
  compare: CompareRule = 'previous',
): Promise<MallOutletComparison> {
  return dataOrThrow(
    await client.GET('/api/mall_report/outlet/overallComparison', {
      params: { query: { ...outletQuery(period), compare } },
      signal,
    }),
  );
}

/** GET /api/mall_report/outlet/daily: one row a day of the period, zeros included. */
export async function getMallOutletDaily(
  period: OutletPeriod,
  { signal, client = api }: CallOptions = {},
): Promise<OutletDailyRow[]> {
  return dataOrThrow(
    await client.GET('/api/mall_report/outlet/daily', { params: { query: outletQuery(period) }, signal }),
  ).data;
}

/** GET /api/mall_report/category/outlet for one outlet: its category's outlets in its mall, ranked, and its row. */
export async function getOutletPeers(
  period: OutletPeriod & { readonly mallId: number },
  limit: number,
  { signal, client = api }: CallOptions = {},
): Promise<CategoryOutletRow[]> {
  return dataOrThrow(
    await client.GET('/api/mall_report/category/outlet', {
      params: {
        query: {
          client_id: period.clientId,
          mall_ids: [period.mallId],
          start_time: period.start,
          end_time: period.end,
          outlet_id: period.outletId,
          limit,
        },
      },
      signal,
    }),
  ).data;
}
