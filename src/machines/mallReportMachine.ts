import { type AnyActorRef, assign, emit, enqueueActions, fromPromise, setup } from 'xstate';
import type { ReportQuery } from '../domain/mallReportViews';
import { loadFailureNotice, type Notice } from '../domain/messages';
import {
  loadMallGmv,
  loadMallHome,
  loadMemberVsNonMember,
  loadPaymentMethods,
  loadPeakHours,
} from './mallReportLoaders';

/**
 * The one shape of every mall report page (§2, §8): the page sends `report.load` with the header's committed
 * filters (on start and after every Apply); the machine fetches, tells the filter header (`page.loading`, then
 * `page.loaded`, so the header is disabled meanwhile), and ends in `loaded`, `empty` (nothing to show: the
 * charts say 'No Data') or `failure` (the toast '{what} error occurs. Please try again later.' for 5 s, and an
 * empty state). A `report.load` while loading starts over with the newer filters (the older fetch is aborted).
 *
 *   idle ── report.load ─> loading ── done ─> loaded | empty
 *                                   └ error ─> failure ── report.retry ─> loading
 *   loaded | empty | failure ── report.load ─> loading
 */

export type ReportEvent = { type: 'report.load'; query: ReportQuery } | { type: 'report.retry' };

export interface ReportInput {
  /** The filter header (gets `page.loading` and `page.loaded`). */
  readonly reportTo?: AnyActorRef;
}

export interface ReportContext<TData> {
  readonly query: ReportQuery | undefined;
  readonly data: TData | undefined;
  readonly reportTo: AnyActorRef | undefined;
}

export interface ReportMachineOptions<TData> {
  readonly id: string;
  /** The '{what}' of the failure toast. */
  readonly what: string;
  /** Loads the page's data; `signal` aborts its calls when the load is superseded or the page goes away. */
  readonly load: (query: ReportQuery, signal: AbortSignal) => Promise<TData>;
  /** Nothing to show (default: never). */
  readonly isEmpty?: (data: TData) => boolean;
}

/** A report page's machine: the one shape above, with the page's loader. */
export function createMallReportMachine<TData>(options: ReportMachineOptions<TData>) {
  const isEmpty = options.isEmpty ?? (() => false);
  return setup({
    types: {
      context: {} as ReportContext<TData>,
      events: {} as ReportEvent,
      input: {} as ReportInput,
      emitted: {} as Notice,
    },
    actors: {
      fetchReport: fromPromise<TData, { query: ReportQuery }>(({ input, signal }) => options.load(input.query, signal)),
    },
    guards: {
      isEmpty: (_, params: { data: TData }) => isEmpty(params.data),
      hasQuery: ({ context }) => context.query !== undefined,
    },
    actions: {
      setQuery: assign((_, params: { query: ReportQuery }) => ({ query: params.query })),
      setData: assign((_, params: { data: TData }) => ({ data: params.data })),
      resetData: assign({ data: undefined }),
      notifyHeaderLoading: enqueueActions(({ context, enqueue }) => {
        if (context.reportTo) enqueue.sendTo(context.reportTo, { type: 'page.loading' });
      }),
      notifyHeaderLoaded: enqueueActions(({ context, enqueue }) => {
        if (context.reportTo) enqueue.sendTo(context.reportTo, { type: 'page.loaded' });
      }),
      notifyFailure: emit(loadFailureNotice(options.what)),
    },
  }).createMachine({
    id: options.id,
    context: ({ input }) => ({ query: undefined, data: undefined, reportTo: input.reportTo }),
    initial: 'idle',
    on: {
      'report.load': {
        target: '.loading',
        reenter: true,
        actions: { type: 'setQuery', params: ({ event }) => ({ query: event.query }) },
      },
    },
    states: {
      /** No filters yet (no client or malls). */
      idle: {},
      loading: {
        tags: ['loading'],
        entry: [{ type: 'notifyHeaderLoading' }],
        exit: [{ type: 'notifyHeaderLoaded' }],
        invoke: {
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
  load: (query, signal) => loadMemberVsNonMember(query, { signal }),
  isEmpty: (data) => data.overall.total.member === 0 && data.overall.total.non_member === 0,
});
