import {
  categoriesBySharedShoppers,
  categoryLabel,
  pairDays,
  pairHeadline,
  pairTotals,
} from '../../src/domain/crossSpending.js';
import { workbookFileName } from '../../src/domain/reportWorkbooks.js';
import type { Queryable } from '../db/pool.js';
import { crossSpendingPairReport, crossSpendingReport } from '../reports/crossSpending.js';
import { latestMallToday } from '../repositories/users.js';
import type { SheetCell, SheetColumn } from './workbook.js';
import {
  type BuiltWorkbook,
  cell,
  filtersSheet,
  outletWorkbookNames,
  type WorkbookRequester,
  workbookSpecOf,
} from './workbookParts.js';
import { renderWorkbook } from './workbookRender.js';

/**
 * Shopper Connect's Cross Spending as a workbook (issue 34): the outlet's shoppers and what they spent there (the
 * page's headline), the other outlets of its mall where they also spent, in the server's order as the page's table
 * lists them (at most 50, most shared shoppers first), and the categories as the page sorts them
 * (categoriesBySharedShoppers), all from the answer of GET /api/mall_report/crossSpending (the same function,
 * server/reports/crossSpending.ts), in the mall's currency; then the filters.
 */

export const CROSS_SPENDING_WORKBOOK_SHEETS = ['Shoppers', 'Outlets', 'Categories'] as const;

/** The page's outlet and days. */
export interface CrossSpendingWorkbookQuery {
  client_id: number;
  outlet_id: number;
  start_time: string;
  end_time: string;
}

/** The columns of what the outlet's shoppers did elsewhere, as the page's tables head them. */
const SHARE_COLUMNS: readonly SheetColumn[] = [
  { header: 'Shared Shoppers', kind: 'count' },
  { header: 'Share of Shoppers', kind: 'share' },
  { header: 'Spend', kind: 'money' },
  { header: 'Visits', kind: 'count' },
];

/**
 * A row's figures: its share, given in percent with 1 decimal (33.3), as the ratio of those digits (0.333, not
 * 33.3 / 100's 0.33299999999999996), which the cell shows as 33.3%.
 */
const shareCells = (row: {
  shared_shoppers: number;
  share_percent: number;
  spend: number;
  visits: number;
}): SheetCell[] => [row.shared_shoppers, Math.round(row.share_percent * 10) / 1000, row.spend, row.visits];

export async function buildCrossSpendingWorkbook(
  db: Queryable,
  requester: WorkbookRequester,
  query: CrossSpendingWorkbookQuery,
  { now = new Date(), signal }: { now?: Date; signal?: AbortSignal } = {},
): Promise<BuiltWorkbook> {
  const [report, names] = await Promise.all([
    crossSpendingReport(db, requester.visibility, query, { start: query.start_time, end: query.end_time }),
    outletWorkbookNames(db, requester.visibility, query),
  ]);
  const [shoppersName, outletsName, categoriesName] = CROSS_SPENDING_WORKBOOK_SHEETS;
  const filters = { ...names, generatedAt: now, generatedBy: requester.email };
  const pageRows: SheetCell[][] = [
    ['Outlet', cell('text', names.outletName)],
    ['Currency', cell('text', `${report.outlet.currency} (the mall's)`)],
  ];
  const sheets = [
    {
      name: shoppersName,
      columns: [
        { header: 'Outlet ID', kind: 'number' as const },
        { header: 'Outlet', kind: 'text' as const },
        { header: 'Shoppers', kind: 'count' as const },
        { header: 'Spend', kind: 'money' as const },
      ],
      rows: [[report.outlet.outlet_id, report.outlet.outlet_name, report.shoppers, report.spend]],
    },
    {
      name: outletsName,
      columns: [
        { header: 'Outlet ID', kind: 'number' as const },
        { header: 'Outlet', kind: 'text' as const },
        { header: 'Category', kind: 'text' as const },
        ...SHARE_COLUMNS,
      ],
      rows: report.outlets.map((row) => [
        row.outlet_id,
        row.outlet_name,
        categoryLabel(row.category),
        ...shareCells(row),
      ]),
    },
    {
      name: categoriesName,
      columns: [{ header: 'Category', kind: 'text' as const }, ...SHARE_COLUMNS],
      rows: categoriesBySharedShoppers(report.categories).map((row) => [
        categoryLabel(row.category),
        ...shareCells(row),
      ]),
    },
    filtersSheet(query, filters, pageRows),
  ];
  const spec = workbookSpecOf(sheets, report.outlet.currency, filters);
  return {
    name: workbookFileName('cross_spending', { start: query.start_time, end: query.end_time }),
    bytes: await renderWorkbook(spec, signal ? { signal } : {}),
  };
}

export const CROSS_SPENDING_DETAILS_WORKBOOK_SHEETS = ['Pair', 'Daily'] as const;

/** The details page's pair and days. */
export interface CrossSpendingDetailsWorkbookQuery extends CrossSpendingWorkbookQuery {
  other_outlet_id: number;
}

/**
 * Cross Spending Details as a workbook (issue 34): the pair as the page heads it (the outlet's shoppers, those of
 * them who also bought at the other outlet, their share, and what they spent there in how many visits over the
 * range: `pairTotals`), and the days as its table lists them (today's noted so far: `pairDays`), from the answer of
 * GET /api/mall_report/crossSpending/details (the same function), in the mall's currency; then the filters with the
 * page's headline.
 */
export async function buildCrossSpendingDetailsWorkbook(
  db: Queryable,
  requester: WorkbookRequester,
  query: CrossSpendingDetailsWorkbookQuery,
  { now = new Date(), signal }: { now?: Date; signal?: AbortSignal } = {},
): Promise<BuiltWorkbook> {
  const range = { start: query.start_time, end: query.end_time };
  const [answer, names, today] = await Promise.all([
    crossSpendingPairReport(db, requester.visibility, query, range),
    outletWorkbookNames(db, requester.visibility, query),
    latestMallToday(db, requester.visibility.clientIds, now),
  ]);
  const [pairName, dailyName] = CROSS_SPENDING_DETAILS_WORKBOOK_SHEETS;
  const totals = pairTotals(answer.daily);
  const filters = { ...names, generatedAt: now, generatedBy: requester.email };
  const pageRows: SheetCell[][] = [
    ['Outlet', cell('text', answer.outlet.outlet_name)],
    ['Other outlet', cell('text', answer.other_outlet.outlet_name)],
    ['Currency', cell('text', `${answer.outlet.currency} (the mall's)`)],
    ['As the page says it', cell('text', pairHeadline(answer, range))],
  ];
  const share = answer.shoppers === 0 ? null : Math.round((answer.shared_shoppers / answer.shoppers) * 1000) / 1000;
  const sheets = [
    {
      name: pairName,
      columns: [
        { header: 'Outlet', kind: 'text' as const },
        { header: 'Shoppers', kind: 'count' as const },
        { header: 'Other Outlet', kind: 'text' as const },
        { header: 'Shared Shoppers', kind: 'count' as const },
        { header: 'Share of Shoppers', kind: 'share' as const },
        { header: 'Spend', kind: 'money' as const },
        { header: 'Visits', kind: 'count' as const },
      ],
      rows: [
        [
          answer.outlet.outlet_name,
          answer.shoppers,
          answer.other_outlet.outlet_name,
          answer.shared_shoppers,
          share,
          totals.spend,
          totals.visits,
        ],
      ],
    },
    {
      name: dailyName,
      columns: [
        { header: 'Date', kind: 'date' as const },
        { header: 'Shared Shoppers', kind: 'count' as const },
        { header: 'Visits', kind: 'count' as const },
        { header: 'Spend', kind: 'money' as const },
        { header: 'Note', kind: 'text' as const },
      ],
      rows: pairDays(answer.daily, today, (date) => date).map((day) => [
        day.date,
        day.shoppers,
        day.visits,
        day.spend,
        day.note || null,
      ]),
    },
    filtersSheet(query, filters, pageRows),
  ];
  const spec = workbookSpecOf(sheets, answer.outlet.currency, filters);
  return {
    name: workbookFileName('cross_spending_details', range),
    bytes: await renderWorkbook(spec, signal ? { signal } : {}),
  };
}
