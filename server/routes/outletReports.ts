import { valueOrThrow } from '../errors.js';
import { buildSalesAnalysisWorkbook } from '../exports/salesAnalysisWorkbook.js';
import { outletComparison, outletItemSales, outletMealTimings, outletSeries } from '../reports/outletReports.js';
import {
  dailyBreakdown,
  type OutletSelection,
  sameCurrency,
  searchSkus,
  topSkus,
} from '../repositories/outletReports.js';
import { comparedHourWindow, dayWindow, hourWindow, outletIds, outletWindow } from './rules.js';
import type { AreaHandlers, RouteDeps } from './types.js';
import { replyWithWorkbook } from './workbookReply.js';

/** The selection of a request: its client and its outlet ids (access control has checked both). */
const selectionOf = (query: { client_id: number; id: string }): OutletSelection => ({
  clientId: query.client_id,
  outletIds: outletIds(query.id),
});

/**
 * The outlet reports of §7 over line items, meal timings and the hour rollups (server/repositories/
 * outletReports.ts). Reports with money first make sure the outlets share a currency (409 otherwise); the check
 * and the report run side by side. The sales analysis page's answers are functions of server/reports/
 * outletReports.ts, which its workbook (GET /outlets/salesAnalysis/workbook) answers with too.
 */
export function outletReportHandlers({ reads: pool, exportSlots }: RouteDeps) {
  // Every query here is a report read: on a replica when one is up and caught up (RouteDeps.reads).
  const withOneCurrency = async <T>(selection: OutletSelection, report: Promise<T>): Promise<T> => {
    const [, answer] = await Promise.all([sameCurrency(pool, selection).then(valueOrThrow), report]);
    return answer;
  };
  return {
    async getSkus({ query }) {
      return searchSkus(pool, selectionOf(query), query.searchText);
    },
    async getTotalRevenuePoints({ query }) {
      const selection = selectionOf(query);
      const window = hourWindow(outletWindow(query));
      return outletSeries(pool, selection, window, 'gmv', query.timeRange ?? 'daily');
    },
    async getTotalTransactionPoints({ query }) {
      const window = hourWindow(outletWindow(query));
      return outletSeries(pool, selectionOf(query), window, 'transactions', query.timeRange ?? 'daily');
    },
    async getTotalUnitSalePoints({ query }) {
      const window = hourWindow(outletWindow(query));
      return outletSeries(pool, selectionOf(query), window, 'units', query.timeRange ?? 'daily');
    },
    async getSalesBreakdown({ query }) {
      const selection = selectionOf(query);
      const window = hourWindow(outletWindow(query));
      return { data: await withOneCurrency(selection, dailyBreakdown(pool, selection, window)) };
    },
    async getOutletOverallComparison({ query }) {
      const current = hourWindow(outletWindow(query));
      const compared = query.compare === 'festival_aligned' ? query.compare : comparedHourWindow(query);
      return outletComparison(pool, selectionOf(query), current, compared);
    },
    async getTopSkus({ query }) {
      const selection = selectionOf(query);
      const window = dayWindow(outletWindow(query));
      return withOneCurrency(
        selection,
        topSkus(pool, selection, window, {
          skuId: query.sku_id,
          sortMethod: query.sortMethod ?? 'quantity',
          orderByMethod: query.orderByMethod ?? 'desc',
          page: query.page ?? 1,
          rowsPerPage: query.rowsPerPage ?? 10,
        }),
      );
    },
    async getItemSalesBreakdown({ query }) {
      const window = dayWindow(outletWindow(query));
      return { data: await outletItemSales(pool, selectionOf(query), window, query.timeRange ?? 'daily') };
    },
    async getMealTimingReport({ query }) {
      const window = dayWindow(outletWindow(query));
      return { data: await outletMealTimings(pool, selectionOf(query), window) };
    },
    getSalesAnalysisWorkbook(request, reply) {
      const { query } = request;
      // The page's days, checked as its operations check them (400 naming the field).
      const days = dayWindow(outletWindow(query));
      return replyWithWorkbook(request, reply, exportSlots, (requester, signal) =>
        buildSalesAnalysisWorkbook(
          pool,
          requester,
          { client_id: query.client_id, outlet_id: query.outlet_id, start_time: days.start, end_time: days.end },
          { signal },
        ),
      );
    },
  } satisfies AreaHandlers;
}
