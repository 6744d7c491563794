import { assign, type EventObject, enqueueActions, fromCallback, setup } from 'xstate';
import { type ApiClient, api, type CallOptions } from '../api/client';
import { getMallOutletComparison, getMallOutletDaily, getOutletPeers } from '../api/mallOutletReports';
import { getLevelReport } from '../api/mallReports';
import type { ChartAnnotation } from '../domain/chartAnnotations';
import type { CommittedFilters } from '../domain/filterHeader';
import {
  type ClientMall,
  type ClientOutlet,
  lookUpOutlet,
  type MallOutletKpis,
  mallOutletKpis,
  mallOutletQuery,
  type OutletPlacement,
  outletGrowthDays,
  outletPlacement,
  PEERS_SHOWN,
} from '../domain/mallOutlet';
import type { DailyReportRow, ReportQuery } from '../domain/mallReportViews';
import { reportOfPage } from './factories/pageQueryReport';
import { createQueryPageMachine } from './factories/queryPageMachine';
import { annotationsPanel } from './mallReportLoaders';
import { appActor } from './systemIds';

/**
 * The mall outlet page (/shopper-connect/mall-outlet/:id): the outlet its path names, over the header's date range.
 *
 *   waiting ── the client's outlets known ─> shown (the report loads) | unknown (no outlet of the user's) | failed
 *
 * Nothing is asked of the server about an id that is not one of the outlets the user sees in the client (it would
 * refuse it, 403). `shown` tells its report (a query page: KPIs with growth, the daily figures, the place among
 * its peers) the outlet's query whenever the outlet, its mall or the date range changes.
 */

export interface MallOutletPanels {
  readonly kpis: MallOutletKpis;
  readonly daily: readonly DailyReportRow[];
  /** Undefined: the answer did not place the outlet (it has no row in its category). */
  readonly placement: OutletPlacement | undefined;
  /** The festivals, holidays and events of the outlet's mall the daily chart draws (none when their call fails). */
  readonly annotations: readonly ChartAnnotation[];
}

function outletPeriod(query: ReportQuery) {
  if (query.outletId === undefined) throw new Error('mall outlet: no outlet');
  return { clientId: query.clientId, outletId: query.outletId, start: query.start, end: query.end };
}

/** The KPIs: the whole range's figures; the growth over its complete days when today is left out of them. */
export async function loadOutletKpis(query: ReportQuery, options: CallOptions = {}): Promise<MallOutletKpis> {
  const period = outletPeriod(query);
  const compared = outletGrowthDays(query);
  const apart = compared?.todayLeftOut ? compared.days : undefined;
  const rule = query.comparison?.rule;
  const [whole, complete] = await Promise.all([
    getMallOutletComparison(period, options, rule),
    apart ? getMallOutletComparison({ ...period, ...apart }, options, rule) : Promise.resolve(undefined),
  ]);
  const growth = compared && { answer: complete ?? whole, todayLeftOut: compared.todayLeftOut };
  return mallOutletKpis(whole, growth, compared?.days);
}

/** The outlet's place: its category's outlets in its mall, ranked, and its mall's levels. */
export async function loadOutletPlacement(
  query: ReportQuery,
  options: CallOptions = {},
): Promise<OutletPlacement | undefined> {
  const period = outletPeriod(query);
  const [mallId] = query.mallIds;
  if (mallId === undefined) throw new Error('mall outlet: no mall');
  const [peers, levels] = await Promise.all([
    getOutletPeers({ ...period, mallId }, PEERS_SHOWN, options),
    getLevelReport(query, options),
  ]);
  return outletPlacement(period.outletId, peers, levels);
}

export function createMallOutletReportMachine(client: ApiClient = api) {
  return reportOfPage(
    createQueryPageMachine<MallOutletPanels>({
      id: 'mallOutletReport',
      what: 'Mall outlet',
      comparisonInUrl: true,
      panels: {
        kpis: { load: (query, signal) => loadOutletKpis(query, { signal, client }) },
        daily: {
          load: (query, signal) => getMallOutletDaily(outletPeriod(query), { signal, client }),
          isEmpty: (rows) => rows.every((row) => row.gmv === 0 && row.transactions === 0),
        },
        placement: {
          load: (query, signal) => loadOutletPlacement(query, { signal, client }),
          isEmpty: (placement) => placement === undefined,
        },
        // The query's malls are the outlet's own mall.
        annotations: annotationsPanel,
      },
    }),
  );
}

/* ---------------------------------------------------------------- the header */

/** How the header's lookup of the client's outlets stands. */
export type OutletsStatus = 'loading' | 'loaded' | 'failed';

/** The header's committed filters with the client's malls and outlets, and whether the outlets are known. */
export interface HeaderOutletsEvent {
  type: 'header.outlets';
  filters: CommittedFilters;
  malls: readonly ClientMall[];
  outlets: readonly ClientOutlet[];
  outletsStatus: OutletsStatus;
  today: string | undefined;
}

/**
 * Sends `header.outlets` now and whenever the header's filters, lookups or today change. Unlike the filters alone
 * it says whether the outlets are known, so that an id missing from a list still loading is not taken as unknown.
 */
export const followHeaderOutlets = fromCallback<EventObject, undefined, HeaderOutletsEvent>(({ system, sendBack }) => {
  const header = appActor(system, 'filterHeader');
  if (!header) return () => undefined;
  let told: Omit<HeaderOutletsEvent, 'type'> | undefined;
  const tell = (snapshot: ReturnType<typeof header.getSnapshot>) => {
    const { filters, malls, outlets, today } = snapshot.context;
    const outletsStatus: OutletsStatus = snapshot.matches({ lookups: { active: { outlets: 'loaded' } } })
      ? 'loaded'
      : snapshot.matches({ lookups: { active: { outlets: 'failure' } } })
        ? 'failed'
        : 'loading';
    if (
      told &&
      told.filters === filters &&
      told.malls === malls &&
      told.outlets === outlets &&
      told.outletsStatus === outletsStatus &&
      told.today === today
    ) {
      return;
    }
    told = { filters, malls, outlets, outletsStatus, today };
    sendBack({ type: 'header.outlets', ...told });
  };
  const subscription = header.subscribe(tell);
  tell(header.getSnapshot());
  return () => subscription.unsubscribe();
});

/* ---------------------------------------------------------------- the page */

export interface MallOutletPageInput {
  /** The id of the path; undefined when it is not a positive whole number. */
  readonly outletId: number | undefined;
}

export interface MallOutletPageContext {
  readonly outletId: number | undefined;
  readonly outlet: (ClientOutlet & { readonly mall_id: number }) | undefined;
  readonly mall: ClientMall | undefined;
  /** The query last told to the report. */
  readonly query: ReportQuery | undefined;
}

const sameQuery = (a: ReportQuery | undefined, b: ReportQuery | undefined) => JSON.stringify(a) === JSON.stringify(b);

export function createMallOutletPageMachine(client: ApiClient = api) {
  return setup({
    types: {
      input: {} as MallOutletPageInput,
      context: {} as MallOutletPageContext,
      events: {} as HeaderOutletsEvent,
      children: {} as { report: 'report' },
    },
    actors: { followHeaderOutlets, report: createMallOutletReportMachine(client) },
    guards: {
      isWaiting: ({ context }, params: HeaderOutletsEvent) => lookUp(context, params).kind === 'waiting',
      hasFailed: ({ context }, params: HeaderOutletsEvent) => lookUp(context, params).kind === 'failed',
      isUnknown: ({ context }, params: HeaderOutletsEvent) => lookUp(context, params).kind === 'unknown',
    },
    actions: {
      forgetOutlet: assign({ outlet: undefined, mall: undefined }),
      /** Keeps the outlet and tells the report its query when it is a new one. */
      showOutlet: enqueueActions(({ context, enqueue }, params: HeaderOutletsEvent) => {
        const found = lookUp(context, params);
        if (found.kind !== 'found') return;
        const query = mallOutletQuery(params.filters, found.outlet, params.today);
        enqueue.assign({ outlet: found.outlet, mall: found.mall });
        if (query === undefined || sameQuery(query, context.query)) return;
        enqueue.assign({ query });
        enqueue.sendTo('report', { type: 'report.load', query });
      }),
    },
  }).createMachine({
    id: 'mallOutletPage',
    context: ({ input }) => ({ outletId: input.outletId, outlet: undefined, mall: undefined, query: undefined }),
    invoke: [{ src: 'followHeaderOutlets' }, { id: 'report', src: 'report' }],
    initial: 'waiting',
    on: {
      'header.outlets': [
        { guard: { type: 'isWaiting', params: ({ event }) => event }, target: '.waiting' },
        { guard: { type: 'hasFailed', params: ({ event }) => event }, target: '.failed', actions: 'forgetOutlet' },
        { guard: { type: 'isUnknown', params: ({ event }) => event }, target: '.unknown', actions: 'forgetOutlet' },
        { target: '.shown', actions: { type: 'showOutlet', params: ({ event }) => event } },
      ],
    },
    states: {
      /** The client's outlets are not known yet. */
      waiting: {},
      /** The header could not load the client's outlets. */
      failed: {},
      /** The path's id is no outlet of a mall the user sees in the client: nothing is asked. */
      unknown: {},
      /** The outlet's report (the `report` child). */
      shown: {},
    },
  });
}

function lookUp(context: MallOutletPageContext, event: HeaderOutletsEvent) {
  return lookUpOutlet(context.outletId, event.outlets, event.malls, event.outletsStatus);
}

export const mallOutletPageMachine = createMallOutletPageMachine();
