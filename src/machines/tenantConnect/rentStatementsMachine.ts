import { fromPromise } from 'xstate';
import type { ApiClient, CallOptions } from '../../api/client';
import { getRentStatements, type RentStatementReport } from '../../api/rentStatements';
import type { CsvFile } from '../../domain/csv';
import type { ReportQuery } from '../../domain/mallReportViews';
import { RENT_STATEMENTS_WHAT } from '../../domain/rentStatements';
import { createQueryPageMachine } from '../factories/queryPageMachine';
import { exportCsvFiles } from '../reportExport';

export interface RentStatementsPanels {
  readonly statements: RentStatementReport;
}

/** The month's statements of the header's malls (GET /api/rentStatements): the Month picker's month. */
export function loadRentStatements(query: ReportQuery, options: CallOptions = {}): Promise<RentStatementReport> {
  const month = query.month ?? query.end.slice(0, 7);
  return getRentStatements({ client_id: query.clientId, mall_ids: [...query.mallIds], month }, options);
}

/** What the factory's export is given: `base` is the month shown here; `suffix` the header's days. */
export interface RentExportInput {
  readonly base: string;
  readonly suffix: string;
  readonly files: readonly CsvFile[];
}

/**
 * The Rent Statements page (/tenant-connect/rent-statements): the query-page factory with one panel, the rent of
 * the month of every lease of the header's malls (empty, 'No Data': no lease covers the month). A failed call
 * fails the panel with the toast 'Rent statements error occurs. Please try again later.' and a retry. The CSV of
 * the rows shown is the factory's export, its files named by the month the page shows (`report.export`'s `base`:
 * 'rent_statements_2026-03.csv'), not by the header's days, which a monthly page neither shows nor reads.
 */
export function createRentStatementsMachine(client?: ApiClient) {
  return createQueryPageMachine<RentStatementsPanels>({
    id: 'rentStatements',
    what: RENT_STATEMENTS_WHAT,
    panels: {
      statements: {
        load: (query, signal) => loadRentStatements(query, client ? { signal, client } : { signal }),
        isEmpty: (answer) => answer.rows.length === 0,
      },
    },
  }).provide({
    actors: {
      exportFiles: fromPromise<void, RentExportInput>(({ input }) =>
        exportCsvFiles(`rent_statements_${input.base}`, input.base, input.files),
      ),
    },
  });
}

export const rentStatementsMachine = createRentStatementsMachine();
