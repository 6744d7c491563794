import {
  BREAKEVEN_WHAT,
  DEPARTMENT_TITLES,
  type Department,
  gtoBasis,
  includesGst,
  PROJECTION_METHOD,
  trackLabel,
} from '../../src/domain/breakeven.js';
import { monthDays } from '../../src/domain/reports.js';
import { workbookFileName } from '../../src/domain/reportWorkbooks.js';
import type { Queryable } from '../db/pool.js';
import { type BreakevenReport, breakevenReport } from '../reports/breakevenReport.js';
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
 * A department's breakeven page as a workbook (issue 34): the month's outlets as GET /api/mall_report/breakeven_target
 * answers them (the same function, server/reports/breakevenReport.ts, with GST as the department's page reads it),
 * the totals per currency, then the filters. Amounts are each outlet's own, never converted, so each carries its
 * row's currency's number format, the currency named beside it.
 */

export const BREAKEVEN_WORKBOOK_SHEETS = ['Outlets', 'Totals per currency'] as const;

/** What the workbook is made of: the page's malls and month, and the department whose targets it reads. */
export interface BreakevenWorkbookQuery {
  client_id: number;
  mall_ids: number[];
  month: string;
  department: Department;
}

/** A progress in percent, as the page shows it to one decimal ('81.8'), a number cell. */
const progressCell = (progress: number | null) => (progress === null ? null : Math.round(progress * 10) / 10);

function outletsSheet(name: string, report: BreakevenReport): SheetSpec {
  return {
    name,
    columns: [
      { header: 'Outlet ID', kind: 'number' },
      text('Outlet'),
      text('Mall'),
      text('Currency'),
      money('GTO'),
      money(BREAKEVEN_WHAT),
      money('Difference'),
      { header: 'Progress (%)', kind: 'number' },
      money('Projected GTO'),
      { header: 'Projected Progress (%)', kind: 'number' },
      text('Status'),
    ],
    rows: report.data.map((row) => {
      const inCurrency = moneyIn(row.currency);
      return [
        row.outlet_id,
        row.outlet_name,
        row.mall_name,
        row.currency,
        inCurrency(row.gto),
        inCurrency(row.breakeven_target),
        inCurrency(row.difference),
        progressCell(row.progress),
        inCurrency(row.projected_gto),
        progressCell(row.projected_progress),
        trackLabel(row.on_track) || null,
      ];
    }),
  };
}

function totalsSheet(name: string, report: BreakevenReport): SheetSpec {
  return {
    name,
    columns: [
      text('Currency'),
      { header: 'Outlets', kind: 'count' },
      money('GTO'),
      money(BREAKEVEN_WHAT),
      money('Difference'),
      { header: 'Progress (%)', kind: 'number' },
    ],
    rows: report.totals.map((total) => {
      const inCurrency = moneyIn(total.currency);
      return [
        total.currency,
        total.outlets,
        inCurrency(total.gto),
        inCurrency(total.breakeven_target),
        inCurrency(total.difference),
        progressCell(total.progress),
      ];
    }),
  };
}

/**
 * The breakeven workbook of `query.department` for `requester` as of `now`, written in a worker thread
 * (workbookRender.ts); named after the department and month ('breakeven-target-marcom_2026-02.xlsx'). Which
 * department the requester may read is the caller's to check (as the page's operation checks it).
 */
export async function buildBreakevenWorkbook(
  db: Queryable,
  requester: WorkbookRequester,
  query: BreakevenWorkbookQuery,
  { now = new Date(), signal }: { now?: Date; signal?: AbortSignal } = {},
): Promise<BuiltWorkbook> {
  const includeGst = includesGst(query.department);
  const [report, names] = await Promise.all([
    breakevenReport(db, requester.visibility, { ...query, include_gst: includeGst }),
    workbookNames(db, requester.visibility, query),
  ]);
  const [outletsName, totalsName] = BREAKEVEN_WORKBOOK_SHEETS;
  const month = monthDays(query.month);
  const days = { start_time: month.start, end_time: month.end };
  const filters = { ...names, generatedAt: now, generatedBy: requester.email };
  const pageRows: SheetCell[][] = [
    ['Month', cell('text', query.month)],
    ['Department', cell('text', DEPARTMENT_TITLES[query.department])],
    ['GTO', cell('text', gtoBasis(includeGst))],
    ['Currency', cell('text', 'Each outlet’s own (never converted; totals per currency)')],
    ['Month still open (projected to its end)', cell('text', report.month_open ? 'Yes' : 'No')],
    ...(report.month_open ? [['Projection', cell('text', PROJECTION_METHOD)]] : []),
  ];
  const sheets = [
    outletsSheet(outletsName, report),
    totalsSheet(totalsName, report),
    filtersSheet(days, filters, pageRows),
  ];
  // The workbook's own money format is unused: every amount carries its row's currency.
  const spec = workbookSpecOf(sheets, report.data[0]?.currency ?? 'USD', filters);
  const page = query.department === 'marcom' ? 'breakeven_marcom' : 'breakeven';
  return {
    name: workbookFileName(page, { start: month.start, end: month.end }, query.department),
    bytes: await renderWorkbook(spec, signal ? { signal } : {}),
  };
}
