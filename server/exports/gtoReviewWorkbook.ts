import { formatNumber } from '../../src/domain/format.js';
import { dueRule, GTO_REVIEW_FILTERS, statusLabel, thresholdRule } from '../../src/domain/gto.js';
import { monthDays } from '../../src/domain/reports.js';
import { workbookFileName } from '../../src/domain/reportWorkbooks.js';
import type { Queryable } from '../db/pool.js';
import { GTO_REVIEW_WORKBOOK_MAX_ROWS, type GtoReviewList, gtoReviewList } from '../reports/gtoReview.js';
import type { GtoFilter } from '../repositories/gto.js';
import { listMalls } from '../repositories/lookup.js';
import type { SheetCell, SheetSpec } from './workbook.js';
import {
  type BuiltWorkbook,
  cell,
  filtersSheet,
  moneyColumn as money,
  moneyIn,
  textColumn as text,
  type WorkbookRequester,
  workbookNames,
  workbookSpecOf,
} from './workbookParts.js';
import { renderWorkbook } from './workbookRender.js';

/**
 * Tenant Connect's GTO Review as a workbook (issue 34): the month's whole list (every outlet the caller sees in the
 * client, not a page of it) as GET /api/gtoReport/summary answers it (the same query, server/reports/gtoReview.ts),
 * in the page's default order (outlet name, A to Z), with the page's columns and words (statusLabel, the flag and
 * due rules); each amount in its row's currency (GTO is never converted), named beside it; then the filters. The
 * list stops at GTO_REVIEW_WORKBOOK_MAX_ROWS rows, which the Filters sheet says.
 */

export const GTO_REVIEW_WORKBOOK_SHEETS = ['GTO review'] as const;

/** What the workbook is made of: the page's client and month (and the page's own narrowing, when asked). */
export interface GtoReviewWorkbookQuery {
  client_id: number;
  /** 'YYYY-MM'. */
  month: string;
  mall_ids?: number[] | undefined;
  outlet_id?: number | undefined;
  filterOption?: GtoFilter | undefined;
}

const yesNo = (value: boolean) => (value ? 'Yes' : 'No');

function reviewSheet(name: string, list: GtoReviewList): SheetSpec {
  return {
    name,
    columns: [
      text('Outlet'),
      text('Mall'),
      text('Month'),
      text('Currency'),
      money('Declared GTO'),
      money('Captured sales'),
      money('Variance'),
      { header: 'Variance (%)', kind: 'number' },
      text('Status'),
      text('Flagged'),
      text('Late'),
      { header: 'Submitted at (UTC)', kind: 'datetime' },
      { header: 'Due on', kind: 'date' },
      { header: 'Last reminder', kind: 'date' },
    ],
    rows: list.rows.map((row) => {
      const inCurrency = moneyIn(row.currency);
      // The database's instant (a Date) or the answer's (ISO 8601): the cell takes ISO 8601.
      const submittedAt = row.submitted_at === null ? null : new Date(row.submitted_at).toISOString();
      return [
        row.outlet_name,
        row.mall_name,
        row.month,
        row.currency,
        inCurrency(row.gto_amount),
        inCurrency(row.captured_sales),
        inCurrency(row.variance_amount),
        row.variance_percent,
        statusLabel(row),
        yesNo(row.flagged),
        yesNo(row.late),
        submittedAt,
        row.due_on,
        row.last_reminded_on,
      ];
    }),
  };
}

/** What the Filters sheet says of the rows: all of them, or where the list was cut. */
function rowsText(list: GtoReviewList, maxRows: number): string {
  return list.cut
    ? `The first ${formatNumber(list.rows.length)} of ${formatNumber(list.total)}: a workbook holds at most ${formatNumber(maxRows)} rows`
    : `All ${formatNumber(list.total)}`;
}

function outletName(list: GtoReviewList, outletId: number): string {
  return list.rows.find((row) => row.outlet_id === outletId)?.outlet_name ?? `Outlet ${outletId}`;
}

/** The GTO Review workbook for `requester` as of `now`, written in a worker thread (workbookRender.ts). */
export async function buildGtoReviewWorkbook(
  db: Queryable,
  requester: WorkbookRequester,
  query: GtoReviewWorkbookQuery,
  {
    now = new Date(),
    signal,
    maxRows = GTO_REVIEW_WORKBOOK_MAX_ROWS,
  }: { now?: Date; signal?: AbortSignal; maxRows?: number } = {},
): Promise<BuiltWorkbook> {
  const [list, malls] = await Promise.all([
    gtoReviewList(db, requester.visibility, query, maxRows),
    listMalls(db, requester.visibility, query.client_id),
  ]);
  // The malls of the list: the one asked, or every mall of the client the requester sees.
  const mallIds = query.mall_ids && query.mall_ids.length > 0 ? query.mall_ids : malls.map((mall) => mall.id);
  const names = await workbookNames(db, requester.visibility, { client_id: query.client_id, mall_ids: mallIds });
  const [reviewName] = GTO_REVIEW_WORKBOOK_SHEETS;
  const month = monthDays(query.month);
  const days = { start_time: month.start, end_time: month.end };
  const filters = { ...names, generatedAt: now, generatedBy: requester.email };
  const filter = GTO_REVIEW_FILTERS.find((option) => option.value === (query.filterOption ?? 'all'));
  const dueOn = list.rows[0]?.due_on;
  const pageRows: SheetCell[][] = [
    ['Month', cell('text', query.month)],
    // An outlet asked is named by its row (the requester sees it), else by its id.
    ...(query.outlet_id === undefined ? [] : [['Outlet', cell('text', outletName(list, query.outlet_id))]]),
    ['Status', cell('text', filter?.label ?? 'All')],
    ['Sorted by', cell('text', 'Outlet, A to Z')],
    ['Currency', cell('text', 'Each row’s own (GTO is never converted)')],
    ['Flagged', cell('text', thresholdRule(list.thresholdPercent))],
    ...(dueOn === undefined ? [] : [['Due', cell('text', dueRule(dueOn))]]),
    ['Rows', cell('text', rowsText(list, maxRows))],
  ];
  const sheets = [reviewSheet(reviewName, list), filtersSheet(days, filters, pageRows)];
  // The workbook's own money format is unused: every amount carries its row's currency.
  const spec = workbookSpecOf(sheets, list.rows[0]?.currency ?? 'USD', filters);
  return {
    name: workbookFileName('gto_review', { start: days.start_time, end: days.end_time }),
    bytes: await renderWorkbook(spec, signal ? { signal } : {}),
  };
}
