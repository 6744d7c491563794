import { currencyFormat } from '../../src/domain/format.js';
import { NO_DATA } from '../../src/domain/messages.js';
import type { Period } from '../../src/domain/reports.js';
import { growthRate } from '../../src/domain/reports.js';
import { workbookFileName } from '../../src/domain/reportWorkbooks.js';
import {
  type AskOutletComparison,
  COMPARISON_LABELS,
  COMPARISON_MODES,
  DEFAULT_ITEM_BUCKET,
  DEFAULT_TREND_TIME_RANGE,
  hasSales,
  type ItemRow,
  itemRowsOf,
  KPI_LABELS,
  kpiFigures,
  type MealTimings,
  MONEY_MEASURES,
  markedToday,
  mealTimingsOf,
  type SalesKpis,
  salesKpiGrowthLine,
  salesKpisOf,
  TIME_RANGE_LABELS,
  type Trend,
  type TrendTimeRange,
  timeRangeFor,
  trendOf,
} from '../../src/domain/salesAnalysis.js';
import type { Queryable } from '../db/pool.js';
import { notFound } from '../errors.js';
import { outletComparison, outletItemSales, outletMealTimings, outletSeries } from '../reports/outletReports.js';
import { outletDays } from '../repositories/nonTradingDays.js';
import type { HourWindow, OutletSelection } from '../repositories/outletReports.js';
import { latestMallToday } from '../repositories/users.js';
import type { CellKind, SheetCell, SheetSpec } from './workbook.js';
import {
  type BuiltWorkbook,
  cell,
  filtersSheet,
  GROWTH_COLUMNS,
  hoursText,
  outletWorkbookNames,
  type WorkbookRequester,
  workbookSpecOf,
} from './workbookParts.js';
import { renderWorkbook } from './workbookRender.js';

/**
 * Tenant Connect's Sales Analysis as a workbook (issue 34): the page's sections for its outlet and whole days, each
 * from the function its operations answer with (server/reports/outletReports.ts) shaped by the page's own rules
 * (src/domain/salesAnalysis.ts, as its machine shapes them): the key figures of each of the page's comparisons
 * (salesKpisOf: the range's figures, the growth over its complete days, today left out, against the days the
 * comparison chooses), the series in the page's default time range (trendOf), the meal timings (mealTimingsOf) and
 * the best-selling items in the page's default bucket (itemRowsOf), in the outlet's currency; then the filters.
 * The page's own choices of time range and bucket live in its machine only (not its address), so a subscription's
 * workbook has the defaults it starts with; the Filters sheet names them.
 */

export const SALES_ANALYSIS_WORKBOOK_SHEETS = ['Key figures', 'Trend', 'Meal timings', 'Items'] as const;

/** The series' time range and the items' bucket the page starts with (its machine's initial context). */
export const SALES_ANALYSIS_WORKBOOK_DEFAULTS = {
  timeRange: DEFAULT_TREND_TIME_RANGE,
  bucket: DEFAULT_ITEM_BUCKET,
} as const;

/** The page's outlet and days. */
export interface SalesAnalysisWorkbookQuery {
  client_id: number;
  outlet_id: number;
  start_time: string;
  end_time: string;
}

/** Whole days, as the page asks them (timeType date). */
const wholeDays = (days: Period): HourWindow => ({ start: days.start, end: days.end, startHour: 0, endHour: 23 });

/** A bucket's key as a cell: a day (daily, weekly: its Monday) as a date, an hour or a month as text. */
const bucketCell = (timeRange: TrendTimeRange, key: string): SheetCell =>
  cell(timeRange === 'daily' || timeRange === 'weekly' ? 'date' : 'text', key);

function keyFiguresSheet(
  name: string,
  kpisByMode: readonly (readonly [(typeof COMPARISON_MODES)[number], SalesKpis])[],
  currency: string,
): SheetSpec {
  const format = currencyFormat(currency);
  const rows = kpisByMode.flatMap(([mode, kpis]) => {
    const { comparison } = kpis;
    return kpiFigures(kpis).map((figure): SheetCell[] => {
      const kind: CellKind = MONEY_MEASURES.has(figure.measure) ? 'money' : 'count';
      const growth = figure.growth;
      const line = salesKpiGrowthLine(figure, comparison, format);
      return [
        COMPARISON_LABELS[mode],
        KPI_LABELS[figure.measure],
        // The card's figure: 'No Data' for a range without a sale.
        hasSales(kpis.totals) ? cell(kind, figure.current) : cell('text', NO_DATA),
        growth ? (comparison?.current.start ?? null) : null,
        growth ? (comparison?.current.end ?? null) : null,
        growth ? cell(kind, growth.current) : null,
        growth ? (comparison?.previous.start ?? null) : null,
        growth ? (comparison?.previous.end ?? null) : null,
        growth ? cell(kind, growth.compared) : null,
        growth ? growthRate(growth.current, growth.compared) / 100 : null,
        line.text,
        line.compared ?? null,
      ];
    });
  });
  return {
    name,
    columns: [
      { header: 'Compared with', kind: 'text' },
      { header: 'Measure', kind: 'text' },
      { header: 'Figure', kind: 'number' },
      ...GROWTH_COLUMNS,
      { header: 'Growth (as the card says it)', kind: 'text', width: 48 },
      { header: 'Figures compared (as the card says them)', kind: 'text', width: 56 },
    ],
    rows,
  };
}

function trendSheet(name: string, trend: Trend): SheetSpec {
  return {
    name,
    columns: [
      { header: 'Period', kind: 'text' },
      { header: 'Label', kind: 'text' },
      { header: 'Revenue', kind: 'money' },
      { header: 'Transactions', kind: 'count' },
      { header: 'Units Sold', kind: 'count' },
      { header: 'Note', kind: 'text' },
    ],
    rows: [
      ...trend.rows.map((row): SheetCell[] => [
        bucketCell(trend.timeRange, row.key),
        row.label,
        row.revenue,
        row.transactions,
        row.units,
        // As the series' CSV notes them.
        row.open ? 'so far' : row.partial ? 'partial' : null,
      ]),
      // The totals under the page's table (the server's, over the range).
      ['Total', null, trend.totals.revenue, trend.totals.transactions, trend.totals.units, null],
    ],
  };
}

function mealSheet(name: string, meals: MealTimings): SheetSpec {
  return {
    name,
    columns: [
      { header: 'Meal Timing', kind: 'text' },
      { header: 'From', kind: 'text', width: 10 },
      { header: 'To', kind: 'text', width: 10 },
      { header: 'Time', kind: 'text', width: 24 },
      { header: 'Revenue', kind: 'money' },
      { header: 'Transactions', kind: 'count' },
      { header: 'Share of Revenue', kind: 'share' },
    ],
    rows:
      meals.rows.length === 0
        ? [['No meal timings are set up for this outlet.', null, null, null, null, null, null]]
        : [
            ...meals.rows.map((row): SheetCell[] => [
              row.name,
              row.start_time,
              row.end_time,
              row.time,
              row.revenue,
              row.transactions,
              row.share,
            ]),
            // What the shares are of, as the page says it above its table.
            ['The outlet’s revenue', null, null, null, meals.revenueTotal, null, null],
          ],
  };
}

function itemsSheet(name: string, bucket: TrendTimeRange, rows: readonly ItemRow[]): SheetSpec {
  return {
    name,
    columns: [
      { header: 'Period', kind: 'text' },
      { header: 'Label', kind: 'text' },
      { header: '#', kind: 'count', width: 6 },
      { header: 'SKU ID', kind: 'number' },
      { header: 'Item', kind: 'text' },
      { header: 'Quantity', kind: 'count' },
      { header: 'Amount', kind: 'money' },
    ],
    rows: rows.map((row) => [
      bucketCell(bucket, row.key),
      row.bucket,
      row.rank,
      row.sku_id,
      row.item_name,
      row.quantity,
      row.amount,
    ]),
  };
}

export async function buildSalesAnalysisWorkbook(
  db: Queryable,
  requester: WorkbookRequester,
  query: SalesAnalysisWorkbookQuery,
  { now = new Date(), signal }: { now?: Date; signal?: AbortSignal } = {},
): Promise<BuiltWorkbook> {
  const selection: OutletSelection = { clientId: query.client_id, outletIds: [query.outlet_id] };
  const range: Period = { start: query.start_time, end: query.end_time };
  // The header's today (the malls' latest day), which the page's growth leaves out and its buckets mark 'so far'.
  const today = await latestMallToday(db, requester.visibility.clientIds, now);
  const marked = markedToday(range, today);
  const timeRange = timeRangeFor(SALES_ANALYSIS_WORKBOOK_DEFAULTS.timeRange, range);
  const bucket = SALES_ANALYSIS_WORKBOOK_DEFAULTS.bucket;
  const ask: AskOutletComparison = (days, compared, compare) =>
    outletComparison(
      db,
      selection,
      wholeDays(days),
      compare === 'festival_aligned' ? 'festival_aligned' : wholeDays(compared),
    );
  const series = (measure: 'gmv' | 'transactions' | 'units', over: TrendTimeRange) =>
    outletSeries(db, selection, wholeDays(range), measure, over);
  const [outlet, names, kpis, revenue, transactions, units, mealRows, mealRevenue, itemRows] = await Promise.all([
    outletDays(db, query.client_id, query.outlet_id),
    outletWorkbookNames(db, requester.visibility, query),
    Promise.all(COMPARISON_MODES.map(async (mode) => [mode, await salesKpisOf(range, mode, today, ask)] as const)),
    series('gmv', timeRange),
    series('transactions', timeRange),
    series('units', timeRange),
    outletMealTimings(db, selection, range),
    // The outlet's revenue over the range, which the meal timings are shares of (monthly: one small answer).
    series('gmv', 'monthly'),
    outletItemSales(db, selection, range, bucket),
  ]);
  if (!outlet) throw notFound('No such outlet.');
  const trend = trendOf(timeRange, range, marked, { revenue, transactions, units });
  const meals = mealTimingsOf(mealRows, mealRevenue.total);
  const items = itemRowsOf(itemRows, bucket, range, marked);
  const [kpiName, trendName, mealsName, itemsName] = SALES_ANALYSIS_WORKBOOK_SHEETS;
  const filters = { ...names, generatedAt: now, generatedBy: requester.email };
  const pageRows: SheetCell[][] = [
    ['Outlet', cell('text', names.outletName)],
    ['Currency', cell('text', `${outlet.currency} (the outlet's own)`)],
    ['Hours', cell('text', hoursText(0, 23))],
    ['Key figures compared with', cell('text', COMPARISON_MODES.map((mode) => COMPARISON_LABELS[mode]).join('; '))],
    ['Trend time range (the page’s default)', cell('text', TIME_RANGE_LABELS[timeRange])],
    ['Items per (the page’s default)', cell('text', TIME_RANGE_LABELS[bucket])],
    ['Today (left out of the growth, its figures so far)', cell('date', today ?? null)],
  ];
  const sheets = [
    keyFiguresSheet(kpiName, kpis, outlet.currency),
    trendSheet(trendName, trend),
    mealSheet(mealsName, meals),
    itemsSheet(itemsName, bucket, items),
    filtersSheet(query, filters, pageRows),
  ];
  const spec = workbookSpecOf(sheets, outlet.currency, filters);
  return {
    name: workbookFileName('sales_analysis', { start: query.start_time, end: query.end_time }),
    bytes: await renderWorkbook(spec, signal ? { signal } : {}),
  };
}
