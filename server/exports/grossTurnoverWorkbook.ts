import { formatMonth } from '../../src/domain/format.js';
import { grossTurnoverRange, isGrossTurnoverEmpty } from '../../src/domain/gto.js';
import { monthDays } from '../../src/domain/reports.js';
import { workbookFileName } from '../../src/domain/reportWorkbooks.js';
import type { Queryable } from '../db/pool.js';
import { gtoOutletMonthsReport } from '../reports/gtoOutletMonths.js';
import type { SheetCell, SheetSpec } from './workbook.js';
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
 * The tenant's Gross Turnover as a workbook (issue 34): the outlet's months of the year up to the page's month
 * (`grossTurnoverRange`, the page's own) as GET /api/gtoReport/outletMonths answers them (the same function,
 * server/reports/gtoOutletMonths.ts), in the page's columns and the outlet's currency; then the filters.
 */

export const GROSS_TURNOVER_WORKBOOK_SHEETS = ['Months'] as const;

/** What the page says of a month the tenant has not declared, in the Declared GTO column. */
export const NOT_SUBMITTED = 'Not submitted';
/** What the page shows when nothing was declared nor captured in the year (`isGrossTurnoverEmpty`). */
export const NO_DATA = 'No Data';

/** The page's outlet and month. */
export interface GrossTurnoverWorkbookQuery {
  client_id: number;
  outlet_id: number;
  month: string;
}

/**
 * The page's table: Month as it reads ('February 2026'), Declared GTO ('Not submitted' as the page says it, a text
 * cell in the column of money), Captured sales, Difference and Difference % (a ratio: 0.25 for +25.00%), empty where
 * the page shows '—'; 'No Data' alone when the page says it.
 */
function monthsSheet(name: string, rows: Awaited<ReturnType<typeof gtoOutletMonthsReport>>['data']): SheetSpec {
  return {
    name,
    columns: [
      { header: 'Month', kind: 'text' },
      { header: 'Declared GTO', kind: 'money' },
      { header: 'Captured sales', kind: 'money' },
      { header: 'Difference', kind: 'money' },
      { header: 'Difference %', kind: 'percent' },
    ],
    rows: isGrossTurnoverEmpty(rows)
      ? [[NO_DATA, null, null, null, null]]
      : rows.map((row): SheetCell[] => [
          formatMonth(row.month),
          row.declared === null ? cell('text', NOT_SUBMITTED) : row.declared,
          row.captured,
          row.difference,
          row.difference_percent === null ? null : row.difference_percent / 100,
        ]),
  };
}

export async function buildGrossTurnoverWorkbook(
  db: Queryable,
  requester: WorkbookRequester,
  query: GrossTurnoverWorkbookQuery,
  { now = new Date(), signal }: { now?: Date; signal?: AbortSignal } = {},
): Promise<BuiltWorkbook> {
  const range = grossTurnoverRange(query.month);
  const [report, names] = await Promise.all([
    gtoOutletMonthsReport(db, { client_id: query.client_id, outlet_id: query.outlet_id, ...range }),
    outletWorkbookNames(db, requester.visibility, query),
  ]);
  const [monthsName] = GROSS_TURNOVER_WORKBOOK_SHEETS;
  const month = monthDays(query.month);
  // The figures' days: the first month's first to the page's month's last.
  const days = { start_time: monthDays(range.from).start, end_time: month.end };
  const filters = { ...names, generatedAt: now, generatedBy: requester.email };
  const pageRows: SheetCell[][] = [
    ['Month', cell('text', query.month)],
    ['Months shown', cell('text', `${formatMonth(range.from)} to ${formatMonth(range.to)}`)],
    ['Outlet', cell('text', names.outletName)],
    ['Currency', cell('text', `${report.currency} (the outlet's own)`)],
  ];
  const sheets = [monthsSheet(monthsName, report.data), filtersSheet(days, filters, pageRows)];
  const spec = workbookSpecOf(sheets, report.currency, filters);
  return {
    name: workbookFileName('gross_turnover', { start: month.start, end: month.end }),
    bytes: await renderWorkbook(spec, signal ? { signal } : {}),
  };
}
