import type { Period } from '../domain/reports';
import { api, type CallOptions } from './client';
import { dataOrThrow } from './errors';
import type { components } from './schema';

/**
 * The outlet report calls (§7 GET /outlets/*) of one outlet over whole days (timeType date): the totals of two
 * periods, the revenue, transaction and unit series, the best-selling SKUs, the SKU lookup, the meal timings and
 * the items of each bucket. Each throws an ApiError when the call fails (a 409 when outlets of several currencies
 * are asked: the server's message says so).
 */

export type OutletComparison = components['schemas']['OutletComparisonResponse'];
export type ComparisonTotals = components['schemas']['ComparisonTotals'];
export type PointSeries = components['schemas']['PointSeries'];
export type TopSkuResponse = components['schemas']['TopSkuResponse'];
export type TopSkuRow = components['schemas']['TopSkuRow'];
export type Sku = components['schemas']['Sku'];
export type MealTimingReportRow = components['schemas']['MealTimingReportRow'];
export type ItemSalesBreakdownRow = components['schemas']['ItemSalesBreakdownRow'];

/** The bucket of a series: hourly only up to 31 days. */
export type SeriesTimeRange = 'hourly' | 'daily' | 'weekly' | 'monthly';
/** The bucket of the item breakdown: whole days. */
export type DayTimeRange = 'daily' | 'weekly' | 'monthly';
export type TopSkuSort = 'quantity' | 'amount';

/** One outlet of a client over whole days (`YYYY-MM-DD`, both included, in the outlet's mall's days). */
export interface OutletRange extends Period {
  readonly clientId: number;
  readonly outletId: number;
}

const rangeQuery = (range: OutletRange) => ({
  client_id: range.clientId,
  id: String(range.outletId),
  startTime: range.start,
  endTime: range.end,
  timeType: 'date' as const,
});

/** GET /outlets/overallComparison: the range's totals and those of `compared` (or of last year's festival days). */
export async function getOutletComparison(
  range: OutletRange,
  compared: Period,
  { signal, client = api }: CallOptions = {},
  compare: 'period' | 'festival_aligned' = 'period',
): Promise<OutletComparison> {
  const query = { ...rangeQuery(range), comparedStartTime: compared.start, comparedEndTime: compared.end };
  return dataOrThrow(
    await client.GET('/outlets/overallComparison', {
      // Festival-aligned: the server chooses last year's days by the outlet's calendar (compared is not used).
      params: { query: compare === 'period' ? query : { ...query, compare } },
      signal,
    }),
  );
}

/** GET /outlets/totalRevenuePoints: revenue per bucket and over the range. */
export async function getRevenuePoints(
  range: OutletRange,
  timeRange: SeriesTimeRange,
  { signal, client = api }: CallOptions = {},
): Promise<PointSeries> {
  return dataOrThrow(
    await client.GET('/outlets/totalRevenuePoints', { params: { query: { ...rangeQuery(range), timeRange } }, signal }),
  );
}

/** GET /outlets/totalTransactionPoints: transactions per bucket and over the range. */
export async function getTransactionPoints(
  range: OutletRange,
  timeRange: SeriesTimeRange,
  { signal, client = api }: CallOptions = {},
): Promise<PointSeries> {
  return dataOrThrow(
    await client.GET('/outlets/totalTransactionPoints', {
      params: { query: { ...rangeQuery(range), timeRange } },
      signal,
    }),
  );
}

/** GET /outlets/totalUnitSalePoints: units sold per bucket and over the range. */
export async function getUnitSalePoints(
  range: OutletRange,
  timeRange: SeriesTimeRange,
  { signal, client = api }: CallOptions = {},
): Promise<PointSeries> {
  return dataOrThrow(
    await client.GET('/outlets/totalUnitSalePoints', {
      params: { query: { ...rangeQuery(range), timeRange } },
      signal,
    }),
  );
}

export interface TopSkuQuery {
  readonly sortMethod: TopSkuSort;
  readonly order: 'asc' | 'desc';
  /** From 1. */
  readonly page: number;
  readonly rowsPerPage: number;
  /** Only this SKU. */
  readonly skuId?: number | undefined;
}

/** GET /outlets/topSKU: one page of the range's SKUs ranked by quantity or amount, and totals over every page. */
export async function getTopSkus(
  range: OutletRange,
  query: TopSkuQuery,
  { signal, client = api }: CallOptions = {},
): Promise<TopSkuResponse> {
  return dataOrThrow(
    await client.GET('/outlets/topSKU', {
      params: {
        query: {
          ...rangeQuery(range),
          sortMethod: query.sortMethod,
          orderByMethod: query.order,
          page: query.page,
          rowsPerPage: query.rowsPerPage,
          ...(query.skuId === undefined ? {} : { sku_id: query.skuId }),
        },
      },
      signal,
    }),
  );
}

/** GET /outlets/sku: the outlet's SKUs whose name or barcode holds `searchText` (at most 100). */
export async function getSkus(
  outlet: { readonly clientId: number; readonly outletId: number },
  searchText: string,
  { signal, client = api }: CallOptions = {},
): Promise<Sku[]> {
  return dataOrThrow(
    await client.GET('/outlets/sku', {
      params: {
        query: {
          client_id: outlet.clientId,
          id: String(outlet.outletId),
          ...(searchText === '' ? {} : { searchText }),
        },
      },
      signal,
    }),
  );
}

/** GET /outlets/mealTimingReport: revenue and transactions of each meal timing of the outlet (none configured: []). */
export async function getMealTimingReport(
  range: OutletRange,
  { signal, client = api }: CallOptions = {},
): Promise<MealTimingReportRow[]> {
  return dataOrThrow(await client.GET('/outlets/mealTimingReport', { params: { query: rangeQuery(range) }, signal }))
    .data;
}

/** GET /outlets/itemSalesBreakdown: each bucket's 10 best-selling items, buckets oldest first. */
export async function getItemSalesBreakdown(
  range: OutletRange,
  timeRange: DayTimeRange,
  { signal, client = api }: CallOptions = {},
): Promise<ItemSalesBreakdownRow[]> {
  return dataOrThrow(
    await client.GET('/outlets/itemSalesBreakdown', { params: { query: { ...rangeQuery(range), timeRange } }, signal }),
  ).data;
}
