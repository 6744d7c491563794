import type { components } from '../../src/api/schema.js';
import { comparedDays } from '../../src/domain/comparisons.js';
import { addDays } from '../../src/domain/reports.js';
import type { Queryable } from '../db/pool.js';
import { valueOrThrow } from '../errors.js';
import { festivalsByCountry, LAST_YEAR_LOOKBACK_DAYS } from '../repositories/comparisons.js';
import {
  type Bucket,
  comparisonTotals,
  type DayWindow,
  type HourMeasure,
  type HourWindow,
  itemSalesBreakdown,
  mallsOfOutlets,
  mealTimingReport,
  type OutletSelection,
  type PointSeries,
  pointSeries,
  sameCurrency,
} from '../repositories/outletReports.js';
import { alignedFestivalOf } from './mallAnswers.js';

/**
 * The answers of the sales analysis page's outlet reports (GET /outlets/overallComparison, totalRevenuePoints,
 * totalTransactionPoints, totalUnitSalePoints, mealTimingReport, itemSalesBreakdown) as functions of the outlets
 * asked (access control has checked them): the routes (server/routes/outletReports.ts) and the page's workbook
 * (server/exports/salesAnalysisWorkbook.ts) answer with them. Reports with money first make sure the outlets share
 * a currency (409 otherwise), in the outlets' own currency; the check and the report run side by side.
 */

export type OutletComparisonReport = components['schemas']['OutletComparisonResponse'];
export type MealTimingReportRow = components['schemas']['MealTimingReportRow'];
export type ItemSalesBreakdownRow = components['schemas']['ItemSalesBreakdownRow'];

/** `report`, once the outlets are known to share a currency (a 409 otherwise). */
async function withOneCurrency<T>(db: Queryable, selection: OutletSelection, report: Promise<T>): Promise<T> {
  const [, answer] = await Promise.all([sameCurrency(db, selection).then(valueOrThrow), report]);
  return answer;
}

/** The window against last year's days met by festival, in the calendar of the first outlet's mall. */
async function festivalComparison(
  db: Queryable,
  selection: OutletSelection,
  current: HourWindow,
): Promise<OutletComparisonReport> {
  const [mallId] = await mallsOfOutlets(db, selection);
  const [country] =
    mallId === undefined
      ? []
      : await festivalsByCountry(db, selection.clientId, [mallId], {
          start: addDays(current.start, -LAST_YEAR_LOOKBACK_DAYS),
          end: current.end,
        });
  const plan = comparedDays('festival_aligned', current, country?.festivals ?? []);
  const [totals, before] = await withOneCurrency(
    db,
    selection,
    Promise.all([
      comparisonTotals(db, selection, current),
      comparisonTotals(db, selection, { ...current, ...plan.span }, plan.days),
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
}

/**
 * GET /outlets/overallComparison: the totals of `current` and of `compared`, or of last year's days met by festival
 * ('festival_aligned', the server's choice of days, which it names).
 */
export async function outletComparison(
  db: Queryable,
  selection: OutletSelection,
  current: HourWindow,
  compared: HourWindow | 'festival_aligned',
): Promise<OutletComparisonReport> {
  if (compared === 'festival_aligned') return festivalComparison(db, selection, current);
  const [totals, before] = await withOneCurrency(
    db,
    selection,
    Promise.all([comparisonTotals(db, selection, current), comparisonTotals(db, selection, compared)]),
  );
  return { current: totals, compared: before };
}

/** GET /outlets/totalRevenuePoints, totalTransactionPoints and totalUnitSalePoints: a measure per bucket. */
export function outletSeries(
  db: Queryable,
  selection: OutletSelection,
  window: HourWindow,
  measure: HourMeasure,
  bucket: Bucket,
): Promise<PointSeries> {
  const series = pointSeries(db, selection, window, measure, bucket);
  // Revenue is money: one currency's outlets only; counts add up across currencies.
  return measure === 'gmv' ? withOneCurrency(db, selection, series) : series;
}

/** GET /outlets/mealTimingReport: each meal timing's revenue and transactions. */
export function outletMealTimings(
  db: Queryable,
  selection: OutletSelection,
  window: DayWindow,
): Promise<MealTimingReportRow[]> {
  return withOneCurrency(db, selection, mealTimingReport(db, selection, window));
}

/** GET /outlets/itemSalesBreakdown: each bucket's best-selling items. */
export function outletItemSales(
  db: Queryable,
  selection: OutletSelection,
  window: DayWindow,
  bucket: Exclude<Bucket, 'hourly'>,
): Promise<ItemSalesBreakdownRow[]> {
  return withOneCurrency(db, selection, itemSalesBreakdown(db, selection, window, bucket));
}
