import { salesReviewNote } from '../../src/domain/nonTradingDays.js';
import { workbookFileName } from '../../src/domain/reportWorkbooks.js';
import type { Queryable } from '../db/pool.js';
import { salesReviewReport } from '../reports/salesReview.js';
import type { ReportRange } from '../repositories/mallReports.js';
import type { SheetCell } from './workbook.js';
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
 * Tenant Connect's Sales Review as a workbook (issue 34): the outlet's days as GET /api/salesReview/daily answers
 * them (the same function, server/reports/salesReview.ts), each with the page's note (a non-trading day and why,
 * today's figures so far), in the outlet's currency; then the filters.
 */

export const SALES_REVIEW_WORKBOOK_SHEETS = ['Days'] as const;

/** The page's outlet and days. */
export interface SalesReviewWorkbookQuery {
  client_id: number;
  outlet_id: number;
  start_time: string;
  end_time: string;
}

export async function buildSalesReviewWorkbook(
  db: Queryable,
  requester: WorkbookRequester,
  query: SalesReviewWorkbookQuery,
  { now = new Date(), signal }: { now?: Date; signal?: AbortSignal } = {},
): Promise<BuiltWorkbook> {
  const range: ReportRange = { start: query.start_time, end: query.end_time, startHour: 0, endHour: 23 };
  const [report, names] = await Promise.all([
    salesReviewReport(db, requester.visibility, query, range),
    outletWorkbookNames(db, requester.visibility, query),
  ]);
  const [daysName] = SALES_REVIEW_WORKBOOK_SHEETS;
  const filters = { ...names, generatedAt: now, generatedBy: requester.email };
  const pageRows: SheetCell[][] = [
    ['Outlet', cell('text', names.outletName)],
    ['Currency', cell('text', `${report.currency} (the outlet's own)`)],
    ['Outlet’s today (its figures so far)', cell('date', report.today)],
  ];
  const sheets = [
    {
      name: daysName,
      columns: [
        { header: 'Date', kind: 'date' as const },
        { header: 'GMV', kind: 'money' as const },
        { header: 'Transactions', kind: 'count' as const },
        { header: 'Note', kind: 'text' as const },
      ],
      rows: report.data.map((day) => [day.date, day.gmv, day.transactions, salesReviewNote(day, report.today) || null]),
    },
    filtersSheet(query, filters, pageRows),
  ];
  const spec = workbookSpecOf(sheets, report.currency, filters);
  return {
    name: workbookFileName('sales_review', { start: query.start_time, end: query.end_time }),
    bytes: await renderWorkbook(spec, signal ? { signal } : {}),
  };
}
