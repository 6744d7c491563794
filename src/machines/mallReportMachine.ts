import { assign, emit, fromPromise, setup, spawnChild } from 'xstate';
import type { CsvFile } from '../domain/csv';
import { formatFileDateRange } from '../domain/format';
import { type ReportQuery, reportQueryOf } from '../domain/mallReportViews';
import { errorOccurs, loadFailureNotice, type Notice, TOAST_TIMEOUT } from '../domain/messages';
import { followHeaderFilters, type HeaderFiltersEvent, lockHeader } from './headerLink';
import {
  loadMallGmv,
  loadMallHome,
  loadMemberVsNonMember,
  loadPaymentMethods,
  loadPeakHours,
} from './mallReportLoaders';
import { exportCsvFiles } from './reportExport';

/**
 * The query page: the one shape of every mall report page (§2, §8). The page follows the filter header's
 * committed filters (`header.filters`, from the invoked `followHeaderFilters`: on start and after every Apply);
 * each new report query loads, with the header disabled meanwhile (the invoked `lockHeader`), and ends in `loaded`,
 * `empty` (nothing to show: the charts say 'No Data') or `failure` (the toast '{what} error occurs. Please try again
 * later.' for 5 s, an empty state, and `report.retry`). A new query while loading starts over (the older fetch is
 * aborted). `report.load` loads a query directly.
 *
 *   idle ── header.filters (a query) | report.load ─> loading ── done ─> loaded | empty
 *                                                              └ error ─> failure ── report.retry ─> loading
 *   loaded | empty | failure ── a new query ─> loading
 */

export type ReportEvent =
  | { type: 'report.load'; query: ReportQuery }
  | { type: 'report.retry' }
  /** Downloads the page's CSV files (`base` names the zip), for the range shown. */
  | { type: 'report.export'; base: string; files: readonly CsvFile[] }
  | HeaderFiltersEvent;

export interface ReportContext<TData> {
  readonly query: ReportQuery | undefined;
  readonly data: TData | undefined;
  /** The CSV files are being made (one export at a time). */
  readonly exporting: boolean;
}

export interface ReportMachineOptions<TData> {
  readonly id: string;
  /** The '{what}' of the failure toast. */
  readonly what: string;
  /** Header V2 pages report the header's hours, time range and metric; the others whole days. */
  readonly withHours?: boolean;
  /** Loads the page's data; `signal` aborts its calls when the load is superseded or the page goes away. */
  readonly load: (query: ReportQuery, signal: AbortSignal) => Promise<TData>;
  /** Nothing to show (default: never). */
  readonly isEmpty?: (data: TData) => boolean;
}

function sameQuery(a: ReportQuery | undefined, b: ReportQuery | undefined): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** A report page's machine: the one shape above, with the page's loader. */
export function createMallReportMachine<TData>(options: ReportMachineOptions<TData>) {
  const isEmpty = options.isEmpty ?? (() => false);
  const withHours = options.withHours ?? false;
  return setup({
    types: {
      context: {} as ReportContext<TData>,
      events: {} as ReportEvent,
      emitted: {} as Notice,
      tags: {} as 'loading',
    },
    actors: {
      fetchReport: fromPromise<TData, { query: ReportQuery }>(({ input, signal }) => options.load(input.query, signal)),
      followHeaderFilters,
      lockHeader,
      exportFiles: fromPromise<void, { base: string; suffix: string; files: readonly CsvFile[] }>(({ input }) =>
        exportCsvFiles(input.base, input.suffix, input.files),
      ),
    },
    guards: {
      isEmpty: (_, params: { data: TData }) => isEmpty(params.data),
      hasQuery: ({ context }) => context.query !== undefined,
      canExport: ({ context }) => context.query !== undefined && !context.exporting,
      /** The committed filters make a report query other than the one shown. */
      isNewQuery: ({ context }, params: { query: ReportQuery | undefined }) =>
        params.query !== undefined && !sameQuery(params.query, context.query),
    },
    actions: {
      setQuery: assign((_, params: { query: ReportQuery | undefined }) => ({ query: params.query })),
      setData: assign((_, params: { data: TData }) => ({ data: params.data })),
      resetData: assign({ data: undefined }),
      notifyFailure: emit(loadFailureNotice(options.what)),
      notifyExportFailure: emit({
        type: 'notify',
        intent: 'danger',
        message: errorOccurs(`${options.what} export`),
        timeout: TOAST_TIMEOUT.long,
      } as const),
      exportFiles: spawnChild('exportFiles', {
        id: 'export',
        input: ({ context, event }) => {
          if (event.type !== 'report.export' || !context.query) throw new Error('report: export without a range');
          const { start, end } = context.query;
          return { base: event.base, suffix: formatFileDateRange(start, end), files: event.files };
        },
      }),
    },
  }).createMachine({
    id: options.id,
    context: { query: undefined, data: undefined, exporting: false },
    invoke: { src: 'followHeaderFilters' },
    initial: 'idle',
    on: {
      'report.load': {
        target: '.loading',
        reenter: true,
        actions: { type: 'setQuery', params: ({ event }) => ({ query: event.query }) },
      },
      /** The CSV files of what is shown; not while loading (see `loading`), nor before there is a range. */
      'report.export': { guard: 'canExport', actions: ['exportFiles', assign({ exporting: true })] },
      'xstate.done.actor.export': { actions: assign({ exporting: false }) },
      'xstate.error.actor.export': { actions: ['notifyExportFailure', assign({ exporting: false })] },
      'header.filters': {
        guard: { type: 'isNewQuery', params: ({ event }) => ({ query: reportQueryOf(event.filters, withHours) }) },
        target: '.loading',
        reenter: true,
        actions: { type: 'setQuery', params: ({ event }) => ({ query: reportQueryOf(event.filters, withHours) }) },
      },
    },
    states: {
      /** No filters yet (no client or malls). */
      idle: {},
      loading: {
        tags: ['loading'],
        on: { 'report.export': {} },
        invoke: [
          { src: 'lockHeader' },
          {
            src: 'fetchReport',
            input: ({ context }) => {
              if (!context.query) throw new Error('report: loading without a query');
              return { query: context.query };
            },
            onDone: [
              {
                guard: { type: 'isEmpty', params: ({ event }) => ({ data: event.output }) },
                target: 'empty',
                actions: { type: 'setData', params: ({ event }) => ({ data: event.output }) },
              },
              { target: 'loaded', actions: { type: 'setData', params: ({ event }) => ({ data: event.output }) } },
            ],
            onError: { target: 'failure', actions: ['resetData', 'notifyFailure'] },
          },
        ],
      },
      loaded: {},
      /** Loaded with nothing to show: 'No Data'. */
      empty: {},
      /** The fetch failed: the toast, and an empty state. */
      failure: {
        on: { 'report.retry': { guard: 'hasQuery', target: 'loading' } },
      },
    },
  });
}

/* ---------------------------------------------------------------- the five pages */

const noNumbers = (values: readonly number[]) => values.every((value) => value === 0);

export const mallHomeReportMachine = createMallReportMachine({
  id: 'mallHomeReport',
  what: 'Mall home',
  load: (query, signal) => loadMallHome(query, { signal }),
  isEmpty: (data) => noNumbers(data.daily.map((row) => row.transactions)) && data.payments.length === 0,
});

export const mallGmvReportMachine = createMallReportMachine({
  id: 'mallGmvReport',
  what: 'Mall GMV',
  load: (query, signal) => loadMallGmv(query, { signal }),
  isEmpty: (data) => noNumbers(data.daily.map((row) => row.transactions)),
});

export const peakHoursReportMachine = createMallReportMachine({
  id: 'peakHoursReport',
  what: 'Peak hours',
  withHours: true,
  load: (query, signal) => loadPeakHours(query, { signal }),
  isEmpty: (data) => noNumbers(data.series.map((point) => point.value)),
});

export const paymentMethodsReportMachine = createMallReportMachine({
  id: 'paymentMethodsReport',
  what: 'Payment methods',
  load: (query, signal) => loadPaymentMethods(query, { signal }),
  isEmpty: (data) => data.overall.length === 0,
});

export const memberReportMachine = createMallReportMachine({
  id: 'memberReport',
  what: 'Member vs non-member',
  withHours: true,
  load: (query, signal) => loadMemberVsNonMember(query, { signal }),
  isEmpty: (data) => data.overall.total.member === 0 && data.overall.total.non_member === 0,
});
