import {
  leaseTermsInWords,
  NO_DECLARATION_NOTE,
  NO_LEASE_MESSAGE,
  STATEMENT_PARTIAL_NOTE,
  statementLines,
  statementTitle,
} from '../../src/domain/rentStatements.js';
import { monthDays } from '../../src/domain/reports.js';
import { workbookFileName } from '../../src/domain/reportWorkbooks.js';
import type { Queryable } from '../db/pool.js';
import { tenantRentStatementReport } from '../reports/tenantRentStatement.js';
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
 * The tenant's Rent Statement as a workbook (issue 34): the lease covering the month and the month's rent as GET
 * /api/tenant/rentStatement answers them (the same function, server/reports/tenantRentStatement.ts), in the page's
 * words (`leaseTermsInWords`, `statementLines`, `statementTitle`) and the outlet's currency; the notes the page
 * shows above the lines (a month not over, a month without a declaration, the invoice) and its heading go in the
 * filters sheet. When no lease covers the month, the Rent sheet says so as the page does (NO_LEASE_MESSAGE).
 */

export const TENANT_RENT_STATEMENT_WORKBOOK_SHEETS = ['Lease terms', 'Rent'] as const;

/** The page's outlet and month. */
export interface TenantRentStatementWorkbookQuery {
  client_id: number;
  outlet_id: number;
  month: string;
}

export async function buildTenantRentStatementWorkbook(
  db: Queryable,
  requester: WorkbookRequester,
  query: TenantRentStatementWorkbookQuery,
  { now = new Date(), signal }: { now?: Date; signal?: AbortSignal } = {},
): Promise<BuiltWorkbook> {
  const [answer, names] = await Promise.all([
    tenantRentStatementReport(db, requester.visibility, query),
    outletWorkbookNames(db, requester.visibility, query),
  ]);
  const { lease, statement, currency } = answer;
  const [termsName, rentName] = TENANT_RENT_STATEMENT_WORKBOOK_SHEETS;
  const lines = lease && statement ? statementLines(statement, lease.turnover_rent.model, currency) : undefined;
  const termsSheet: SheetSpec = {
    name: termsName,
    columns: [
      { header: 'Term', kind: 'text', width: 20 },
      { header: 'In words', kind: 'text', width: 80 },
    ],
    rows: lease && lines ? leaseTermsInWords(lease).map((term) => [term.label, term.text]) : [],
  };
  const rentSheet: SheetSpec = {
    name: rentName,
    columns: [
      { header: 'Line', kind: 'text', width: 80 },
      { header: 'Amount', kind: 'money' },
    ],
    // The lines, then the total due last as the table's footer shows it; the page's one sentence without a lease.
    rows: lines
      ? [...lines.lines, lines.total].map((line): SheetCell[] => [line.text, line.amount])
      : [[NO_LEASE_MESSAGE, null]],
  };
  const month = monthDays(query.month);
  const days = { start_time: month.start, end_time: month.end };
  const filters = { ...names, generatedAt: now, generatedBy: requester.email };
  const pageRows: SheetCell[][] = [
    ['Month', cell('text', query.month)],
    ['Outlet', cell('text', names.outletName)],
    ['Currency', cell('text', `${currency} (the outlet's own)`)],
    ...(statement && lines
      ? [
          ['Statement', cell('text', statementTitle(query.month))],
          ...(statement.partial ? [['Partial month', cell('text', STATEMENT_PARTIAL_NOTE)]] : []),
          ...(statement.basis === 'captured' ? [['No declaration', cell('text', NO_DECLARATION_NOTE)]] : []),
          ...(statement.invoice_number === null ? [] : [['Invoice', cell('text', statement.invoice_number)]]),
        ]
      : [['Statement', cell('text', NO_LEASE_MESSAGE)]]),
  ];
  const sheets = [termsSheet, rentSheet, filtersSheet(days, filters, pageRows)];
  const spec = workbookSpecOf(sheets, currency, filters);
  return {
    name: workbookFileName('tenant_rent_statement', { start: month.start, end: month.end }),
    bytes: await renderWorkbook(spec, signal ? { signal } : {}),
  };
}
