import type { CompareRule } from '../../src/domain/comparisons.js';
import { COMPARE_RULE_LABELS } from '../../src/domain/comparisons.js';
import type { Period } from '../../src/domain/reports.js';
import { workbookFileName } from '../../src/domain/reportWorkbooks.js';
import {
  loadSalesTrendsWith,
  type MonthComparison,
  SAME_MONTH_LAST_YEAR,
  type SalesTrends,
  salesTrendsComparison,
  salesTrendsPlan,
  salesTrendsQuery,
  salesTrendsView,
  yearOf,
} from '../../src/domain/salesTrends.js';
import type { Queryable } from '../db/pool.js';
import { type CurrencyOf, mallGrowth, mallScopeFor } from '../reports/mallAnswers.js';
import { monthlyReport, type ReportRange } from '../repositories/mallReports.js';
import { latestMallToday } from '../repositories/users.js';
import type { SheetCell, SheetSpec } from './workbook.js';
import {
  type BuiltWorkbook,
  cell,
  currencyText,
  filtersSheet,
  type WorkbookRequester,
  workbookNames,
  workbookSpecOf,
} from './workbookParts.js';
import { renderWorkbook } from './workbookRender.js';

/**
 * Sales Trends as a workbook (issue 34): the months of a year beside the year before, as the page shows them. The
 * page's calls are made here with the functions their operations answer with (the monthly report, the growth), and
 * the months are shaped by the page's own rules (`salesTrendsPlan`, `salesTrendsView`), so every figure, growth and
 * compared span equals the page's.
 */

export const SALES_TRENDS_SHEETS = ['Months'] as const;

/** The page's filters: its malls, its year, and its comparison (none: the same month last year). */
export interface SalesTrendsWorkbookQuery {
  client_id: number;
  mall_ids: number[];
  year: number;
  compare?: CompareRule | undefined;
  like_for_like?: boolean | undefined;
}

const spanText = (period: Period | undefined) => (period ? `${period.start} to ${period.end}` : null);

/** The page's months for `query`, as its calls give them; the malls' today is the header's. */
async function salesTrendsOf(
  db: Queryable,
  currencyOf: CurrencyOf,
  requester: WorkbookRequester,
  query: SalesTrendsWorkbookQuery,
  today: string,
): Promise<SalesTrends> {
  const { visibility } = requester;
  const choice = salesTrendsComparison(query.compare ?? SAME_MONTH_LAST_YEAR, query.like_for_like === true);
  const reportQuery = salesTrendsQuery(
    { clientId: query.client_id, mallIds: query.mall_ids },
    query.year,
    today,
    choice,
  );
  if (!reportQuery)
    return salesTrendsView(salesTrendsPlan({ start: today, end: today }), { thisYear: [], lastYear: [] });
  const plan = salesTrendsPlan(reportQuery);
  const range = (period: Period): ReportRange => ({ start: period.start, end: period.end, startHour: 0, endHour: 23 });
  const both = range({ start: plan.lastYear.start, end: plan.thisYear.end });
  const scope = await mallScopeFor(db, currencyOf, visibility, query, both);
  const growthQuery = {
    client_id: query.client_id,
    mall_ids: query.mall_ids,
    compare: reportQuery.comparison?.rule,
    like_for_like: reportQuery.comparison?.likeForLike,
  };
  return loadSalesTrendsWith(reportQuery, {
    monthly: (period) => monthlyReport(db, scope, range(period)),
    growth: (days) => mallGrowth(db, currencyOf, visibility, growthQuery, range(days)),
  });
}

function monthsSheet(trends: SalesTrends): SheetSpec {
  const { year } = trends;
  const compared = (
    month: MonthComparison | undefined,
    side: 'currentFigures' | 'previousFigures',
    key: 'gmv' | 'transactions',
  ) => (month === undefined || (side === 'previousFigures' && month.nothingToCompare) ? null : month[side][key]);
  return {
    name: SALES_TRENDS_SHEETS[0],
    columns: [
      { header: 'Month', kind: 'text' },
      { header: `GMV ${year}`, kind: 'money' },
      { header: `GMV ${year - 1}`, kind: 'money' },
      { header: 'GMV Growth', kind: 'percent' },
      { header: `Transactions ${year}`, kind: 'count' },
      { header: `Transactions ${year - 1}`, kind: 'count' },
      { header: 'Transactions Growth', kind: 'percent' },
      { header: 'Partial', kind: 'text' },
      { header: 'Growth Period', kind: 'text' },
      { header: 'GMV of the Growth Period', kind: 'money' },
      { header: 'Transactions of the Growth Period', kind: 'count' },
      { header: 'Compared Period', kind: 'text' },
      { header: 'GMV Compared', kind: 'money' },
      { header: 'Transactions Compared', kind: 'count' },
    ],
    rows: trends.months.map((month): SheetCell[] => [
      month.label,
      month.thisYear?.gmv ?? null,
      month.lastYear.gmv,
      month.growth ? month.growth.gmv / 100 : null,
      month.thisYear?.transactions ?? null,
      month.lastYear.transactions,
      month.growth ? month.growth.transactions / 100 : null,
      month.partial ? 'Yes' : 'No',
      spanText(month.compared?.current),
      compared(month.compared, 'currentFigures', 'gmv'),
      compared(month.compared, 'currentFigures', 'transactions'),
      spanText(month.compared?.previous),
      compared(month.compared, 'previousFigures', 'gmv'),
      compared(month.compared, 'previousFigures', 'transactions'),
    ]),
  };
}

/** The Sales Trends workbook for `requester` as of `now`, written in a worker thread (workbookRender.ts). */
export async function buildSalesTrendsWorkbook(
  db: Queryable,
  currencyOf: CurrencyOf,
  requester: WorkbookRequester,
  query: SalesTrendsWorkbookQuery,
  { now = new Date(), signal }: { now?: Date; signal?: AbortSignal } = {},
): Promise<BuiltWorkbook> {
  const today = (await latestMallToday(db, requester.visibility.clientIds, now)) ?? now.toISOString().slice(0, 10);
  const start = `${query.year - 1}-01-01`;
  const end = query.year < yearOf(today) ? `${query.year}-12-31` : today;
  const [trends, money, names] = await Promise.all([
    salesTrendsOf(db, currencyOf, requester, query, today),
    currencyOf(query.client_id, [...new Set(query.mall_ids)], { start, end }),
    workbookNames(db, requester.visibility, query),
  ]);
  const filters = { ...names, generatedAt: now, generatedBy: requester.email };
  const pageRows: SheetCell[][] = [
    ['Year', cell('count', query.year)],
    ['Currency', cell('text', currencyText(money.currency, money.converted))],
    ['Comparison', cell('text', query.compare ? COMPARE_RULE_LABELS[query.compare] : 'Same month last year')],
    ['Like for like', cell('text', query.like_for_like === true ? 'Yes' : 'No')],
    ['Malls’ today (the month still open)', cell('date', today)],
  ];
  const spec = workbookSpecOf(
    [monthsSheet(trends), filtersSheet({ start_time: start, end_time: end }, filters, pageRows)],
    money.currency,
    filters,
  );
  return {
    name: workbookFileName('sales_trends', { start: `${query.year}-01-01`, end: `${query.year}-12-31` }),
    bytes: await renderWorkbook(spec, signal ? { signal } : {}),
  };
}
