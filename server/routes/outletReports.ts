import { comparedDays } from '../../src/domain/comparisons.js';
import { addDays } from '../../src/domain/reports.js';
import { valueOrThrow } from '../errors.js';
import { alignedFestivalOf } from '../reports/mallAnswers.js';
import { festivalsByCountry, LAST_YEAR_LOOKBACK_DAYS } from '../repositories/comparisons.js';
import {
  comparisonTotals,
  dailyBreakdown,
  type HourWindow,
  itemSalesBreakdown,
  mallsOfOutlets,
  mealTimingReport,
  type OutletSelection,
  pointSeries,
  sameCurrency,
  searchSkus,
  topSkus,
} from '../repositories/outletReports.js';
import { comparedHourWindow, dayWindow, hourWindow, outletIds, outletWindow } from './rules.js';
import type { AreaHandlers, RouteDeps } from './types.js';

/** The selection of a request: its client and its outlet ids (access control has checked both). */
const selectionOf = (query: { client_id: number; id: string }): OutletSelection => ({
  clientId: query.client_id,
  outletIds: outletIds(query.id),
});

/**
 * The outlet reports of §7 over line items, meal timings and the hour rollups (server/repositories/
 * outletReports.ts). Reports with money first make sure the outlets share a currency (409 otherwise); the check
 * and the report run side by side.
 */
export function outletReportHandlers({ reads: pool }: RouteDeps) {
  // Every query here is a report read: on a replica when one is up and caught up (RouteDeps.reads).
  const withOneCurrency = async <T>(selection: OutletSelection, report: Promise<T>): Promise<T> => {
    const [, answer] = await Promise.all([sameCurrency(pool, selection).then(valueOrThrow), report]);
    return answer;
  };
  /** The window against last year's days met by festival, in the calendar of the first outlet's mall. */
  const festivalComparison = async (selection: OutletSelection, current: HourWindow) => {
    const [mallId] = await mallsOfOutlets(pool, selection);
    const [country] =
      mallId === undefined
        ? []
        : await festivalsByCountry(pool, selection.clientId, [mallId], {
            start: addDays(current.start, -LAST_YEAR_LOOKBACK_DAYS),
            end: current.end,
          });
    const plan = comparedDays('festival_aligned', current, country?.festivals ?? []);
    const [totals, before] = await withOneCurrency(
      selection,
      Promise.all([
        comparisonTotals(pool, selection, current),
        comparisonTotals(pool, selection, { ...current, ...plan.span }, plan.days),
      ]),
    );
    return {
      current: totals,
      compared: before,
      compared_start_time: plan.span.start,
      compared_end_time: plan.span.end,
      comparison: {
        compare: plan.rule,
        aligned: plan.aligned.map(alignedFestivalOf),
        like_for_like: null,
        has_data: before.transactions > 0 || before.revenue !== 0,
      },
    };
  };
  return {
    async getSkus({ query }) {
      return searchSkus(pool, selectionOf(query), query.searchText);
    },
    async getTotalRevenuePoints({ query }) {
      const selection = selectionOf(query);
      const window = hourWindow(outletWindow(query));
      return withOneCurrency(selection, pointSeries(pool, selection, window, 'gmv', query.timeRange ?? 'daily'));
    },
    async getTotalTransactionPoints({ query }) {
      const window = hourWindow(outletWindow(query));
      return pointSeries(pool, selectionOf(query), window, 'transactions', query.timeRange ?? 'daily');
    },
    async getTotalUnitSalePoints({ query }) {
      const window = hourWindow(outletWindow(query));
      return pointSeries(pool, selectionOf(query), window, 'units', query.timeRange ?? 'daily');
    },
    async getSalesBreakdown({ query }) {
      const selection = selectionOf(query);
      const window = hourWindow(outletWindow(query));
      return { data: await withOneCurrency(selection, dailyBreakdown(pool, selection, window)) };
    },
    async getOutletOverallComparison({ query }) {
      const selection = selectionOf(query);
      const current = hourWindow(outletWindow(query));
      if (query.compare === 'festival_aligned') return festivalComparison(selection, current);
      const compared = comparedHourWindow(query);
      const [totals, before] = await withOneCurrency(
        selection,
        Promise.all([comparisonTotals(pool, selection, current), comparisonTotals(pool, selection, compared)]),
      );
      return { current: totals, compared: before };
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
      const selection = selectionOf(query);
      const window = dayWindow(outletWindow(query));
      return {
        data: await withOneCurrency(selection, itemSalesBreakdown(pool, selection, window, query.timeRange ?? 'daily')),
      };
    },
    async getMealTimingReport({ query }) {
      const selection = selectionOf(query);
      const window = dayWindow(outletWindow(query));
      return { data: await withOneCurrency(selection, mealTimingReport(pool, selection, window)) };
    },
  } satisfies AreaHandlers;
}
