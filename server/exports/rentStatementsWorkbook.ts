import { TURNOVER_MODEL_LABELS } from '../../src/domain/leases.js';
import {
  bandText,
  basisLabel,
  groupLabel,
  POSITION_WORDS,
  rentFlagRule,
  rentTotalsByCurrency,
} from '../../src/domain/rentStatements.js';
import { monthDays } from '../../src/domain/reports.js';
import { workbookFileName } from '../../src/domain/reportWorkbooks.js';
import type { Queryable } from '../db/pool.js';
import { type RentStatementReport, rentStatementReport } from '../leases/rentStatements.js';
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
 * The Rent Statements page as a workbook (issue 34): the month's statements as GET /api/rentStatements answers them
 * (the same function, server/leases/rentStatements.ts), the totals per currency as the page adds them
 * (`rentTotalsByCurrency`, in whole cents) and the groups, then the filters. A client's malls may use several
 * currencies and rent is never converted, so each amount is in its row's currency, named beside it, with that
 * currency's number format.
 */

export const RENT_WORKBOOK_SHEETS = ['Statements', 'Totals per currency', 'Groups'] as const;

/** What the workbook is made of: the page's malls and month. */
export interface RentStatementsWorkbookQuery {
  client_id: number;
  mall_ids: number[];
  month: string;
}

function statementsSheet(name: string, report: RentStatementReport): SheetSpec {
  return {
    name,
    columns: [
      text('Outlet'),
      text('Mall'),
      text('Category'),
      text('Level'),
      text('Currency'),
      text('Model'),
      { header: 'Lettable Area (m²)', kind: 'number' },
      { header: 'Days Leased', kind: 'count' },
      { header: 'Days in Month', kind: 'count' },
      text('Rent Basis'),
      money('Declared GTO'),
      money('Captured Sales'),
      money('Projected Sales'),
      money('Base Rent'),
      money('Turnover Rent on Declared GTO'),
      money('Turnover Rent on Captured Sales'),
      money('Projected Turnover Rent'),
      money('Rent at Stake'),
      money('Service Charge'),
      { header: 'GST (%)', kind: 'number' },
      money('GST'),
      money('Total Due'),
      { header: 'Occupancy Cost (%)', kind: 'number' },
      text('Occupancy Cost Band'),
      text('Band Position'),
      money('Annual Sales per m²'),
      text('Flagged'),
      text('Partial'),
      text('Invoice Number'),
    ],
    rows: report.rows.map((row) => {
      const inCurrency = moneyIn(row.currency);
      return [
        row.outlet_name,
        row.mall_name,
        row.category,
        row.level,
        row.currency,
        TURNOVER_MODEL_LABELS[row.model],
        row.gla_sqm,
        row.days_leased,
        row.days_in_month,
        basisLabel(row.basis),
        inCurrency(row.sales_declared),
        inCurrency(row.sales_captured),
        inCurrency(row.sales_projected),
        inCurrency(row.base_rent),
        inCurrency(row.turnover_rent_declared),
        inCurrency(row.turnover_rent_captured),
        inCurrency(row.turnover_rent_projected),
        inCurrency(row.rent_at_stake),
        inCurrency(row.service_charge),
        row.gst_percent,
        inCurrency(row.gst),
        inCurrency(row.total_due),
        row.occupancy_cost_ratio,
        bandText(row) ?? null,
        row.band_position === null ? null : POSITION_WORDS[row.band_position],
        inCurrency(row.sales_per_sqm),
        row.flagged ? 'Yes' : 'No',
        row.partial ? 'Yes' : 'No',
        row.invoice_number,
      ];
    }),
  };
}

function totalsSheet(name: string, report: RentStatementReport): SheetSpec {
  return {
    name,
    columns: [
      text('Currency'),
      { header: 'Leases', kind: 'count' },
      { header: 'Flagged', kind: 'count' },
      money('Base Rent'),
      money('Turnover Rent on Declared GTO'),
      money('Turnover Rent on Captured Sales'),
      money('Rent at Stake'),
      money('Service Charge'),
      money('GST'),
      money('Total Due'),
    ],
    rows: rentTotalsByCurrency(report.rows).map((total) => {
      const inCurrency = moneyIn(total.currency);
      return [
        total.currency,
        total.leases,
        total.flagged,
        inCurrency(total.base_rent),
        inCurrency(total.turnover_rent_declared),
        inCurrency(total.turnover_rent_captured),
        inCurrency(total.rent_at_stake),
        inCurrency(total.service_charge),
        inCurrency(total.gst),
        inCurrency(total.total_due),
      ];
    }),
  };
}

function groupsSheet(name: string, report: RentStatementReport): SheetSpec {
  return {
    name,
    columns: [
      text('By'),
      text('Group'),
      text('Currency'),
      { header: 'Outlets', kind: 'count' },
      money('Sales'),
      money('Occupancy Cost'),
      { header: 'Lettable Area (m²)', kind: 'number' },
      { header: 'Occupancy Cost (%)', kind: 'number' },
      money('Annual Sales per m²'),
    ],
    rows: report.groups.map((group) => {
      const inCurrency = moneyIn(group.currency);
      return [
        groupLabel(group.by),
        group.key,
        group.currency,
        group.outlets,
        inCurrency(group.sales),
        inCurrency(group.occupancy_cost),
        group.gla_sqm,
        group.occupancy_cost_ratio,
        inCurrency(group.sales_per_sqm),
      ];
    }),
  };
}

/** The Rent Statements workbook for `requester` as of `now`, written in a worker thread (workbookRender.ts). */
export async function buildRentStatementsWorkbook(
  db: Queryable,
  requester: WorkbookRequester,
  query: RentStatementsWorkbookQuery,
  { now = new Date(), signal }: { now?: Date; signal?: AbortSignal } = {},
): Promise<BuiltWorkbook> {
  const [report, names] = await Promise.all([
    rentStatementReport(db, requester.visibility, query),
    workbookNames(db, requester.visibility, query),
  ]);
  const [statementsName, totalsName, groupsName] = RENT_WORKBOOK_SHEETS;
  const month = monthDays(query.month);
  const days = { start_time: month.start, end_time: month.end };
  const filters = { ...names, generatedAt: now, generatedBy: requester.email };
  const pageRows: SheetCell[][] = [
    ['Month', cell('text', query.month)],
    ['Currency', cell('text', 'Each row’s own (rent is never converted)')],
    ['Flagged', cell('text', rentFlagRule(report.threshold_percent))],
    ['Month still open (figures to date, projected to its end)', cell('text', report.partial ? 'Yes' : 'No')],
  ];
  const sheets = [
    statementsSheet(statementsName, report),
    totalsSheet(totalsName, report),
    groupsSheet(groupsName, report),
    filtersSheet(days, filters, pageRows),
  ];
  // The workbook's own money format is unused: every amount carries its row's currency.
  const spec = workbookSpecOf(sheets, report.rows[0]?.currency ?? 'USD', filters);
  return {
    name: workbookFileName('rent_statements', { start: days.start_time, end: days.end_time }),
    bytes: await renderWorkbook(spec, signal ? { signal } : {}),
  };
}
