import {
  type ActorRefFrom,
  assign,
  emit,
  enqueueActions,
  fromCallback,
  fromPromise,
  type SnapshotFrom,
  setup,
} from 'xstate';
import type { ApiClient, CallOptions } from '../../api/client';
import { ApiError } from '../../api/errors';
import { mayEditOccupancyBands } from '../../api/occupancyBands';
import {
  getRentStatements,
  mayPostRentInvoices,
  postRentInvoices,
  type RentInvoiceResult,
  type RentStatementReport,
} from '../../api/rentStatements';
import type { CsvFile } from '../../domain/csv';
import type { ReportQuery } from '../../domain/mallReportViews';
import { type Notice, TOAST_TIMEOUT } from '../../domain/messages';
import { INVOICES_FAILED_MESSAGE, invoicesPostedMessage, RENT_STATEMENTS_WHAT } from '../../domain/rentStatements';
import { createQueryPageMachine } from '../factories/queryPageMachine';
import { exportCsvFiles } from '../reportExport';
import { createOccupancyBandsMachine } from './occupancyBandsMachine';

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
 * The Rent Statements page's report (/tenant-connect/rent-statements; the page machine below runs it): the
 * query-page factory with one panel, the rent of the month of every lease of the header's malls, with each row's
 * band and the sums per mall, floor and category (empty, 'No Data': no lease covers the month). A failed call
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

/** The system id of the page's report (the page follows its query). */
export const RENT_STATEMENTS_REPORT_ID = 'rentStatementsReport';

export interface RentStatementsPageContext {
  /** The query the report shows (its client is the one whose bands the dialog edits); undefined before one. */
  readonly query: ReportQuery | undefined;
  /**
   * Whether the user may read and set the bands (the permission gate sends GET and PUT /api/occupancyBands), as the
   * session stood when the page started: the page offers the dialog only then.
   */
  readonly mayEditBands: boolean;
  /** Whether the bands dialog (child `bands`) runs. */
  readonly bandsOpen: boolean;
  /** Whether the user may post the month's turnover-rent invoices to Xero (the permission gate's check). */
  readonly mayPostInvoices: boolean;
  /**
   * Whether the report shows its query's statements of a month that has ended (not partial): only such a month is
   * invoiced (the server posts a month once it has ended in every mall).
   */
  readonly monthClosed: boolean;
}

export type RentStatementsPageEvent =
  /** From `followReport`: the report shows another query. */
  | { type: 'report.query'; query: ReportQuery | undefined; monthClosed: boolean }
  | { type: 'bands.open' }
  | { type: 'bands.close' }
  /** From the bands dialog: the bands are saved. */
  | { type: 'editor.saved' }
  /** Post the shown month's turnover-rent invoices to Xero. */
  | { type: 'invoices.post' };

const notice = (intent: 'success' | 'danger', message: string): Notice => ({
  type: 'notify',
  intent,
  message,
  timeout: TOAST_TIMEOUT.long,
});

/**
 * The Rent Statements page: its report (the query page above, child `report`, following the header itself) and the
 * client's occupancy cost bands in a dialog (child `bands`, occupancyBandsMachine):
 *
 *   bands.open (the user may set bands, the report has a client, no dialog yet) ─> the dialog for that client
 *   bands.close ─> closed;  editor.saved ─> closed, and the report reads its query again (the rows' bands and
 *   positions follow the new bands);  another client in the report's query ─> closed (its bands were another's)
 *
 * and posts the shown month's turnover-rent invoices to Xero (POST /api/rentStatements/invoices, each outlet's
 * month once): idle ── invoices.post (the user may, an ended month shown) ─> posting ─> idle, the toast and the report
 * read again (its invoice numbers) | idle, the server's reason (or 'Post invoices failed.') as the toast.
 */
export function createRentStatementsPageMachine(client?: ApiClient) {
  const report = createRentStatementsMachine(client);
  return setup({
    types: {
      context: {} as RentStatementsPageContext,
      events: {} as RentStatementsPageEvent,
      children: {} as { report: 'report'; bands: 'bands' },
      emitted: {} as Notice,
      tags: {} as 'postingInvoices',
    },
    actors: {
      report,
      bands: createOccupancyBandsMachine(client),
      postInvoices: fromPromise<RentInvoiceResult, { clientId: number; month: string }>(({ input, signal }) =>
        postRentInvoices({ client_id: input.clientId, month: input.month }, client ? { signal, client } : { signal }),
      ),
      /** Tells the page the query the report shows, now and whenever it changes. */
      followReport: fromCallback<RentStatementsPageEvent>(({ system, sendBack }) => {
        const child: ActorRefFrom<typeof report> | undefined = system.get(RENT_STATEMENTS_REPORT_ID);
        if (!child) return () => undefined;
        let told: { query: ReportQuery | undefined; monthClosed: boolean } | undefined;
        const tell = (snapshot: SnapshotFrom<typeof report>) => {
          const panel = snapshot.context.panels.statements;
          const monthClosed = panel?.status === 'loaded' && panel.data?.partial === false;
          if (told && snapshot.context.query === told.query && monthClosed === told.monthClosed) return;
          told = { query: snapshot.context.query, monthClosed };
          sendBack({ type: 'report.query', ...told });
        };
        const subscription = child.subscribe(tell);
        tell(child.getSnapshot());
        return () => subscription.unsubscribe();
      }),
    },
    guards: {
      canOpenBands: ({ context }) => context.mayEditBands && context.query !== undefined && !context.bandsOpen,
      canPostInvoices: ({ context }) =>
        context.mayPostInvoices && context.query?.month !== undefined && context.monthClosed,
      isOtherClient: ({ context, event }) =>
        event.type === 'report.query' && event.query?.clientId !== context.query?.clientId,
    },
    actions: {
      setQuery: assign(({ event }) =>
        event.type === 'report.query' ? { query: event.query, monthClosed: event.monthClosed } : {},
      ),
      openBands: enqueueActions(({ context, enqueue }) => {
        if (!context.query) return;
        enqueue.spawnChild('bands', { id: 'bands', input: { clientId: context.query.clientId } });
        enqueue.assign({ bandsOpen: true });
      }),
      closeBands: enqueueActions(({ context, enqueue }) => {
        if (!context.bandsOpen) return;
        enqueue.stopChild('bands');
        enqueue.assign({ bandsOpen: false });
      }),
      reloadReport: enqueueActions(({ context, enqueue }) => {
        if (context.query) enqueue.sendTo('report', { type: 'report.load', query: context.query });
      }),
    },
  }).createMachine({
    id: 'rentStatementsPage',
    context: () => ({
      query: undefined,
      mayEditBands: mayEditOccupancyBands(),
      bandsOpen: false,
      mayPostInvoices: mayPostRentInvoices(),
      monthClosed: false,
    }),
    invoke: [{ id: 'report', systemId: RENT_STATEMENTS_REPORT_ID, src: 'report' }, { src: 'followReport' }],
    on: {
      'report.query': [{ guard: 'isOtherClient', actions: ['closeBands', 'setQuery'] }, { actions: 'setQuery' }],
      'bands.open': { guard: 'canOpenBands', actions: 'openBands' },
      'bands.close': { actions: 'closeBands' },
      'editor.saved': { actions: ['closeBands', 'reloadReport'] },
    },
    initial: 'idle',
    states: {
      idle: { on: { 'invoices.post': { guard: 'canPostInvoices', target: 'posting' } } },
      posting: {
        tags: ['postingInvoices'],
        invoke: {
          src: 'postInvoices',
          input: ({ context }) => ({ clientId: context.query?.clientId ?? 0, month: context.query?.month ?? '' }),
          onDone: {
            target: 'idle',
            actions: [
              emit(({ event }) => notice('success', invoicesPostedMessage(event.output.month, event.output.postedNow))),
              'reloadReport',
            ],
          },
          onError: {
            target: 'idle',
            actions: emit(({ event }) =>
              notice(
                'danger',
                event.error instanceof ApiError && event.error.status < 500
                  ? event.error.message
                  : INVOICES_FAILED_MESSAGE,
              ),
            ),
          },
        },
      },
    },
  });
}

export const rentStatementsPageMachine = createRentStatementsPageMachine();
