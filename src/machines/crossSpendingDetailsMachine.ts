import { assign, enqueueActions, setup } from 'xstate';
import { type ApiClient, api, type CallOptions } from '../api/client';
import { getCrossSpendingDetails } from '../api/crossSpending';
import { ApiError } from '../api/errors';
import {
  CROSS_SPENDING_DETAILS_WHAT,
  type CrossSpendingPairResult,
  isPairEmpty,
  lookUpPair,
  type PairLookup,
  pairOf,
  pairQuery,
} from '../domain/crossSpending';
import type { ReportQuery } from '../domain/mallReportViews';
import { reportOfPage } from './factories/pageQueryReport';
import { createQueryPageMachine } from './factories/queryPageMachine';
import { followHeaderOutlets, type HeaderOutletsEvent } from './mallOutletMachine';

/**
 * Cross spending details (/shopper-connect/cross-spending/details?other=<id>): the members of the header's outlet
 * at the other outlet of its address, day by day over the header's days.
 *
 *   waiting ── the client's outlets known ─> shown (the report loads) | refused | choose | failed
 *
 * Only a pair of two different outlets of one mall, both among the outlets the user sees, is asked for (another
 * id would be refused by the server); `refused` says why not. `shown` tells its report (a query page of one panel)
 * the pair's query whenever the outlets or the days change. A pair the server still refuses (404) is the panel's
 * answer, shown as a message: a retry would not change it, and it never signs the user out.
 */

export interface CrossSpendingDetailsPanels {
  readonly details: CrossSpendingPairResult;
}

/** The pair's days (GET /api/mall_report/crossSpending/details); the server's 404 as a refusal. */
export async function loadCrossSpendingPair(
  query: ReportQuery,
  options: CallOptions = {},
): Promise<CrossSpendingPairResult> {
  const { outletId, otherOutletId } = pairOf(query);
  try {
    const details = await getCrossSpendingDetails(
      { clientId: query.clientId, outletId, otherOutletId, start: query.start, end: query.end },
      options,
    );
    return { kind: 'pair', details };
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) {
      return { kind: 'refused', message: error.serverMessage ?? '' };
    }
    throw error;
  }
}

export function createCrossSpendingDetailsReportMachine(client: ApiClient = api) {
  return reportOfPage(
    createQueryPageMachine<CrossSpendingDetailsPanels>({
      id: 'crossSpendingDetailsReport',
      what: CROSS_SPENDING_DETAILS_WHAT,
      panels: {
        details: { load: (query, signal) => loadCrossSpendingPair(query, { signal, client }), isEmpty: isPairEmpty },
      },
    }),
  );
}

export interface CrossSpendingDetailsInput {
  /** The address's `other`: its text as given (undefined when absent) and the id when it is one. */
  readonly other: { readonly text: string | undefined; readonly id: number | undefined };
}

export interface CrossSpendingDetailsContext {
  readonly other: CrossSpendingDetailsInput['other'];
  /** What is known of the pair since the header last told its outlets. */
  readonly lookup: PairLookup;
  /** The query last told to the report. */
  readonly query: ReportQuery | undefined;
}

const sameQuery = (a: ReportQuery | undefined, b: ReportQuery | undefined) => JSON.stringify(a) === JSON.stringify(b);

function lookUp(context: CrossSpendingDetailsContext, event: HeaderOutletsEvent): PairLookup {
  return lookUpPair(event.filters.outlet, context.other, event.outlets, event.outletsStatus);
}

export function createCrossSpendingDetailsPageMachine(client: ApiClient = api) {
  return setup({
    types: {
      input: {} as CrossSpendingDetailsInput,
      context: {} as CrossSpendingDetailsContext,
      events: {} as HeaderOutletsEvent,
      children: {} as { report: 'report' },
    },
    actors: { followHeaderOutlets, report: createCrossSpendingDetailsReportMachine(client) },
    guards: {
      isWaiting: ({ context }, params: HeaderOutletsEvent) => lookUp(context, params).kind === 'waiting',
      hasFailed: ({ context }, params: HeaderOutletsEvent) => lookUp(context, params).kind === 'failed',
      isChoosing: ({ context }, params: HeaderOutletsEvent) => lookUp(context, params).kind === 'choose',
      isRefused: ({ context }, params: HeaderOutletsEvent) => lookUp(context, params).kind === 'refused',
    },
    actions: {
      setLookup: assign(({ context }, params: HeaderOutletsEvent) => ({ lookup: lookUp(context, params) })),
      /** Keeps the pair and tells the report its query when it is a new one. */
      showPair: enqueueActions(({ context, enqueue }, params: HeaderOutletsEvent) => {
        const lookup = lookUp(context, params);
        enqueue.assign({ lookup });
        if (lookup.kind !== 'found') return;
        const query = pairQuery(params.filters, lookup, params.today);
        if (query === undefined || sameQuery(query, context.query)) return;
        enqueue.assign({ query });
        enqueue.sendTo('report', { type: 'report.load', query });
      }),
    },
  }).createMachine({
    id: 'crossSpendingDetailsPage',
    context: ({ input }) => ({ other: input.other, lookup: { kind: 'waiting' }, query: undefined }),
    invoke: [{ src: 'followHeaderOutlets' }, { id: 'report', src: 'report' }],
    initial: 'waiting',
    on: {
      'header.outlets': [
        {
          guard: { type: 'isWaiting', params: ({ event }) => event },
          target: '.waiting',
          actions: { type: 'setLookup', params: ({ event }) => event },
        },
        {
          guard: { type: 'hasFailed', params: ({ event }) => event },
          target: '.failed',
          actions: { type: 'setLookup', params: ({ event }) => event },
        },
        {
          guard: { type: 'isChoosing', params: ({ event }) => event },
          target: '.choose',
          actions: { type: 'setLookup', params: ({ event }) => event },
        },
        {
          guard: { type: 'isRefused', params: ({ event }) => event },
          target: '.refused',
          actions: { type: 'setLookup', params: ({ event }) => event },
        },
        { target: '.shown', actions: { type: 'showPair', params: ({ event }) => event } },
      ],
    },
    states: {
      /** The client's outlets are not known yet. */
      waiting: {},
      /** The header could not load the client's outlets. */
      failed: {},
      /** The header has no single outlet chosen. */
      choose: {},
      /** No pair the user may ask for (no `other`, not an id, not the user's, the outlet itself, another mall). */
      refused: {},
      /** The pair's report (the `report` child). */
      shown: {},
    },
  });
}

export const crossSpendingDetailsPageMachine = createCrossSpendingDetailsPageMachine();
