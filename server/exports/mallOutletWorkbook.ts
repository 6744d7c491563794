import type { CompareRule } from '../../src/domain/comparisons.js';
import {
  mallOutletKpis,
  type OutletPlacement,
  outletComparisonLabel,
  outletGrowthDays,
  outletPlacement,
  PEERS_SHOWN,
  rankNote,
} from '../../src/domain/mallOutlet.js';
import { workbookFileName } from '../../src/domain/reportWorkbooks.js';
import type { Queryable } from '../db/pool.js';
import type { CurrencyOf } from '../reports/mallAnswers.js';
import { categoryOutlets, mallLevels, outletComparison, outletDaily, visibleOutlet } from '../reports/mallOutlet.js';
import type { ReportRange } from '../repositories/mallReports.js';
import { latestMallToday } from '../repositories/users.js';
import type { SheetCell, SheetSpec } from './workbook.js';
import {
  type BuiltWorkbook,
  cell,
  dailySheet,
  filtersSheet,
  hoursText,
  kpiSheet,
  measureCells,
  measureColumns,
  outletWorkbookNames,
  type WorkbookRequester,
  workbookSpecOf,
} from './workbookParts.js';
import { renderWorkbook } from './workbookRender.js';

/**
 * The Mall Outlet page (/shopper-connect/mall-outlet/:id) as a workbook (issue 34): the outlet's key figures, its
 * place among its category's outlets and on its level, its days and its category's outlets, then the filters. The
 * figures are the answers of the page's operations (server/reports/mallOutlet.ts, the routes' own functions) for
 * the calls its machine makes (src/machines/mallOutletMachine.ts: the whole range's totals and, when the malls'
 * today is in the range, the complete days' asked apart for the growth; the category's first PEERS_SHOWN outlets
 * of the outlet's mall; the mall's levels), shaped by the page's own rules (`outletGrowthDays`, `mallOutletKpis`,
 * `outletPlacement`), so every cell equals what the page shows, in the outlet's mall's currency.
 */

/** The sheets' names, in the page's order. */
export const MALL_OUTLET_WORKBOOK_SHEETS = ['Key figures', 'Place among peers', 'Daily', 'Category peers'] as const;

/** The page's outlet, days and comparison. */
export interface MallOutletWorkbookQuery {
  client_id: number;
  outlet_id: number;
  start_time: string;
  end_time: string;
  compare?: CompareRule | undefined;
}

/** The place cards: the outlet's rank in its category and its level's figures (none when it is not placed). */
function placeRows(placement: OutletPlacement | undefined): SheetCell[][] {
  if (!placement) return [];
  return [
    ['Category', cell('text', placement.category)],
    ['Rank in the category', cell('count', placement.rank)],
    ['Outlets in the category', cell('count', placement.categoryOutlets)],
    ['Ranked', cell('text', rankNote(placement))],
    ['Level', cell('text', placement.level.name)],
    ['Level’s GMV', cell('money', placement.level.gmv)],
    ['Level’s transactions', cell('count', placement.level.transactions)],
    ['The outlet’s share of the level’s GMV', cell('share', placement.level.share)],
  ];
}

export async function buildMallOutletWorkbook(
  db: Queryable,
  currencyOf: CurrencyOf,
  requester: WorkbookRequester,
  query: MallOutletWorkbookQuery,
  { now = new Date(), signal }: { now?: Date; signal?: AbortSignal } = {},
): Promise<BuiltWorkbook> {
  const { visibility } = requester;
  const range: ReportRange = { start: query.start_time, end: query.end_time, startHour: 0, endHour: 23 };
  // The page's query: the outlet's mall the only one, the header's today (the latest of the malls' todays).
  const [outlet, today] = await Promise.all([
    visibleOutlet(db, visibility, query),
    latestMallToday(db, visibility.clientIds, now),
  ]);
  const compared = outletGrowthDays({ start: range.start, end: range.end, ...(today === undefined ? {} : { today }) });
  const apart = compared?.todayLeftOut ? compared.days : undefined;
  const selection = { client_id: query.client_id, outlet_id: query.outlet_id, compare: query.compare ?? 'previous' };
  const mall = { client_id: query.client_id, mall_ids: [outlet.mall_id] };
  const [whole, complete, daily, peers, levels, money, names] = await Promise.all([
    outletComparison(db, visibility, selection, range),
    apart ? outletComparison(db, visibility, selection, { ...range, ...apart }) : Promise.resolve(undefined),
    outletDaily(db, visibility, query, range),
    categoryOutlets(db, currencyOf, visibility, { ...mall, outlet_id: query.outlet_id, limit: PEERS_SHOWN }, range),
    mallLevels(db, currencyOf, visibility, mall, range),
    currencyOf(query.client_id, mall.mall_ids, range),
    outletWorkbookNames(db, visibility, query),
  ]);
  const kpis = mallOutletKpis(
    whole,
    compared && { answer: complete ?? whole, todayLeftOut: compared.todayLeftOut },
    compared?.days,
  );
  const placement = outletPlacement(query.outlet_id, peers, levels);
  const [kpiName, placeName, dailyName, peersName] = MALL_OUTLET_WORKBOOK_SHEETS;
  const sheets: SheetSpec[] = [
    kpiSheet(kpiName, kpis, [
      ['GMV', 'money', kpis.gmv],
      ['Transactions', 'count', kpis.transactions],
      ['Average Transaction Value', 'money', kpis.averageTransactionValue],
    ]),
    {
      name: placeName,
      columns: [
        { header: 'Measure', kind: 'text' },
        { header: 'Value', kind: 'text' },
      ],
      rows: placeRows(placement),
    },
    dailySheet(dailyName, daily),
    {
      name: peersName,
      columns: [
        ...measureColumns(
          { header: 'Rank', kind: 'count' },
          { header: 'Outlet ID', kind: 'number' },
          { header: 'Outlet', kind: 'text' },
          { header: 'Level', kind: 'text' },
        ),
        { header: 'This outlet', kind: 'text' },
      ],
      rows: (placement?.peers ?? []).map((row) => [
        row.rank,
        row.outlet_id,
        row.outlet_name,
        row.level,
        ...measureCells(row),
        row.current ? 'Yes' : null,
      ]),
    },
  ];
  const filters = { ...names, generatedAt: now, generatedBy: requester.email };
  const pageRows: SheetCell[][] = [
    ['Outlet', cell('text', names.outletName)],
    ['Outlet ID', cell('number', query.outlet_id)],
    ['Hours', cell('text', hoursText(0, 23))],
    ['Currency', cell('text', `${money.currency} (the outlet’s mall’s)`)],
    ['Comparison', cell('text', outletComparisonLabel(selection.compare))],
    // The page compares the outlet's own sales: it offers no like-for-like.
    ['Like for like', cell('text', 'No')],
    ['Malls’ today (left out of the growth)', cell('date', today ?? null)],
  ];
  const spec = workbookSpecOf([...sheets, filtersSheet(query, filters, pageRows)], money.currency, filters);
  return {
    name: workbookFileName('mall_outlet', { start: query.start_time, end: query.end_time }, String(query.outlet_id)),
    bytes: await renderWorkbook(spec, signal ? { signal } : {}),
  };
}
