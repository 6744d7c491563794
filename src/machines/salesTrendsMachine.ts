import { assign, type EventObject, enqueueActions, fromCallback, setup } from 'xstate';
import { type ApiClient, api, type CallOptions } from '../api/client';
import { getMallGrowth, getMonthlyReport } from '../api/mallReports';
import type { CommittedFilters } from '../domain/filterHeader';
import { withReadableCommas } from '../domain/filterUrl';
import type { ReportQuery } from '../domain/mallReportViews';
import { hrefOf } from '../domain/navigation';
import {
  DEFAULT_SALES_TRENDS_COMPARISON,
  isSalesTrendsEmpty,
  loadSalesTrendsWith,
  parseSalesTrendsComparisonQuery,
  SAME_MONTH_LAST_YEAR,
  type SalesTrends,
  type SalesTrendsComparison,
  salesTrendsComparison,
  salesTrendsQuery,
  salesTrendsYears,
  withYearQuery,
  yearInQuery,
  yearOf,
} from '../domain/salesTrends';
import {
  type ComparisonUrlEvent,
  followComparisonUrlOf,
  shownComparison,
  writeComparisonThroughGuard,
} from './comparisonUrlSync';
import { reportOfPage } from './factories/pageQueryReport';
import { createQueryPageMachine } from './factories/queryPageMachine';
import { followHeaderFilters, type HeaderFiltersEvent } from './headerLink';
import { type ActorSystemLike, appActor } from './systemIds';

/**
 * Sales trends (/shopper-connect/sales-trends): the selected malls' months of a year beside the year before. The
 * page holds the year (this year until another is chosen; kept in the address as `year=`, which a subscription's
 * render is given: the year of its last whole day) and the comparison (the same month last year until another is
 * chosen; kept in the address as every page with the comparison controls keeps it), and tells its report (a query
 * page of one panel) the query of the header's client and malls for them whenever one changes.
 */

export interface SalesTrendsPanels {
  readonly trends: SalesTrends;
}

/** The page's months for `query` through the API (loadSalesTrendsWith); `options.signal` aborts every call. */
export function loadSalesTrends(query: ReportQuery, options: CallOptions = {}): Promise<SalesTrends> {
  return loadSalesTrendsWith(query, {
    monthly: (period) => getMonthlyReport({ ...query, start: period.start, end: period.end }, options),
    growth: (range) => getMallGrowth(query, range, options),
  });
}

export function createSalesTrendsReportMachine(client: ApiClient = api) {
  return reportOfPage(
    createQueryPageMachine<SalesTrendsPanels>({
      id: 'salesTrendsReport',
      what: 'Sales trends',
      panels: {
        trends: { load: (query, signal) => loadSalesTrends(query, { signal, client }), isEmpty: isSalesTrendsEmpty },
      },
    }),
  );
}

export type SalesTrendsEvent =
  | HeaderFiltersEvent
  | { type: 'year.change'; year: number }
  /** What the growth figures compare with. */
  | { type: 'comparison.change'; comparison: SalesTrendsComparison }
  /** The address of the page holds another choice (back, forward): shown, not written again. */
  | ComparisonUrlEvent<SalesTrendsComparison>
  /** The address of the page says another year (back, forward, a link): shown, not written again. */
  | YearUrlEvent;

/** Sent to the page by `followYearUrl`: the address of its path now says another year (undefined: none). */
export interface YearUrlEvent {
  readonly type: 'year.url';
  readonly year: number | undefined;
}

export interface SalesTrendsContext {
  /** The year chosen (the user's, or the address's when offered); undefined: the header's today's year. */
  readonly year: number | undefined;
  /** The comparison chosen (the address's when the page opens). */
  readonly comparison: SalesTrendsComparison;
  readonly filters: Pick<CommittedFilters, 'clientId' | 'mallIds'> | undefined;
  readonly today: string | undefined;
  /** The query last told to the report. */
  readonly query: ReportQuery | undefined;
}

/** The year shown: the one chosen, else today's. */
export function yearShown(context: Pick<SalesTrendsContext, 'year' | 'today'>): number | undefined {
  return context.year ?? (context.today === undefined ? undefined : yearOf(context.today));
}

const sameQuery = (a: ReportQuery | undefined, b: ReportQuery | undefined) => JSON.stringify(a) === JSON.stringify(b);

/*
 * The choice in the app's address, as comparisonUrlSync.ts keeps every other page's, with this page's default (the
 * same month last year: salesTrends.ts reads and writes it): read when the page opens, written in place on each
 * change through the navigation guard; the default without a guard (a machine on its own).
 */

function comparisonInAddress(system: ActorSystemLike): SalesTrendsComparison {
  const search = appActor(system, 'navigation')?.getSnapshot().context.location?.search;
  return search === undefined ? DEFAULT_SALES_TRENDS_COMPARISON : parseSalesTrendsComparisonQuery(search);
}

/*
 * The year in the app's address (`year=2026`), kept as the comparison is: the header's filters take the year the
 * address says once their today tells the years offered (salesTrendsYears; a year not offered, or none, shows
 * today's), each choice of the user is written in place through the navigation guard (every choice says its year,
 * this year's too), and the page follows the address of its path to another year (back, forward). The filter
 * header keeps the key when it writes the filters (withFilterQuery keeps the keys not its own). Without a guard (a
 * machine on its own) the page keeps its own year.
 */

/** Asks the navigation guard to show `year` in the address (in place); nothing when the address already says it. */
function writeYearThroughGuard(system: ActorSystemLike, year: number): void {
  const guard = appActor(system, 'navigation');
  const location = guard?.getSnapshot().context.location;
  if (!guard || !location || yearInQuery(location.search) === year) return;
  const search = withReadableCommas(withYearQuery(location.search, year));
  guard.send({ type: 'navigation.request', href: hrefOf({ path: location.path, search }), replace: true });
}

/**
 * Invoke at the page machine's root: sends `year.url` whenever the address of the page's path comes to say another
 * year (back, forward, a link; the page's own write too, which says the year the page shows). An address of another
 * path is the page being left: nothing is sent. No navigation guard in the system: nothing is sent.
 */
export const followYearUrl = fromCallback<EventObject, undefined, YearUrlEvent>(({ system, sendBack }) => {
  const guard = appActor(system, 'navigation');
  if (!guard) return () => undefined;
  let path = guard.getSnapshot().context.location?.path;
  let said = yearInQuery(guard.getSnapshot().context.location?.search ?? '');
  const subscription = guard.subscribe(({ context: { location } }) => {
    if (!location) return;
    path ??= location.path;
    if (location.path !== path) return;
    const year = yearInQuery(location.search);
    if (year === said) return;
    said = year;
    sendBack({ type: 'year.url', year });
  });
  return () => subscription.unsubscribe();
});

/** The choice a comparison event carries, as the page keeps it (like-for-like dropped with its own rule). */
function chosenComparison(event: SalesTrendsEvent): SalesTrendsComparison | undefined {
  if (event.type !== 'comparison.change' && event.type !== 'comparison.url') return undefined;
  return salesTrendsComparison(event.comparison.rule, event.comparison.likeForLike);
}

export function createSalesTrendsPageMachine(client: ApiClient = api) {
  return setup({
    types: {
      context: {} as SalesTrendsContext,
      events: {} as SalesTrendsEvent,
      children: {} as { report: 'report' },
    },
    actors: {
      followHeaderFilters,
      followComparisonUrl: followComparisonUrlOf(SAME_MONTH_LAST_YEAR),
      followYearUrl,
      report: createSalesTrendsReportMachine(client),
    },
    guards: {
      /** One of the years offered, other than the one shown. */
      isOtherYear: ({ context }, params: { year: number }) =>
        context.today !== undefined &&
        salesTrendsYears(context.today).includes(params.year) &&
        params.year !== yearShown(context),
      /** A choice (the user's, or the address's) other than the one shown. */
      isOtherComparison: ({ context, event }) => {
        const chosen = chosenComparison(event);
        return (
          chosen !== undefined &&
          (chosen.rule !== context.comparison.rule || chosen.likeForLike !== context.comparison.likeForLike)
        );
      },
    },
    actions: {
      /** Tells the report the query of the header's client and malls for the year shown, when it is a new one. */
      loadReport: enqueueActions(({ context, enqueue }) => {
        const year = yearShown(context);
        if (!context.filters || context.today === undefined || year === undefined) return;
        const query = salesTrendsQuery(context.filters, year, context.today, context.comparison);
        if (query === undefined || sameQuery(query, context.query)) return;
        enqueue.assign({ query });
        enqueue.sendTo('report', { type: 'report.load', query });
      }),
      readComparisonAddress: assign(({ system }) => ({ comparison: comparisonInAddress(system) })),
      /**
       * The year the address shows, once today is known: itself when offered, else today's (a year not offered, or
       * none). A new query takes it, as it takes the comparison: the header's filters of a move back or forward come
       * before `year.url`, which then finds it taken. Before today, or without a guard, the page keeps its own.
       */
      followShownYear: assign(({ context, system }) => {
        const location = appActor(system, 'navigation')?.getSnapshot().context.location;
        if (!location || context.today === undefined) return {};
        const said = yearInQuery(location.search);
        return { year: said !== undefined && salesTrendsYears(context.today).includes(said) ? said : undefined };
      }),
      writeYearAddress: ({ context, system }) => {
        const year = yearShown(context);
        if (year !== undefined) writeYearThroughGuard(system, year);
      },
      setComparison: assign(({ context, event }) => ({ comparison: chosenComparison(event) ?? context.comparison })),
      /**
       * A new query takes the choice the address shows: the header's filters of a move back or forward come before
       * the address's choice (`comparison.url`), which then finds it taken. Without a guard the page keeps its own.
       */
      followShownComparison: assign(({ context, system }) => {
        const shown = shownComparison(system, SAME_MONTH_LAST_YEAR);
        return { comparison: shown ? salesTrendsComparison(shown.rule, shown.likeForLike) : context.comparison };
      }),
      writeComparisonAddress: ({ context, system }) =>
        writeComparisonThroughGuard(system, context.comparison, SAME_MONTH_LAST_YEAR),
    },
  }).createMachine({
    id: 'salesTrendsPage',
    context: {
      year: undefined,
      comparison: DEFAULT_SALES_TRENDS_COMPARISON,
      filters: undefined,
      today: undefined,
      query: undefined,
    },
    // Before the header's filters come (the invoked actor's first event): their first query carries the choices.
    entry: 'readComparisonAddress',
    invoke: [
      { src: 'followHeaderFilters' },
      { src: 'followComparisonUrl' },
      { src: 'followYearUrl' },
      { id: 'report', src: 'report' },
    ],
    on: {
      'header.filters': {
        actions: [
          assign(({ event }) => ({
            filters: { clientId: event.filters.clientId, mallIds: event.filters.mallIds },
            today: event.today,
          })),
          'followShownYear',
          'followShownComparison',
          'loadReport',
        ],
      },
      /** Another year: shown in the address (in place), and asked. */
      'year.change': {
        guard: { type: 'isOtherYear', params: ({ event }) => ({ year: event.year }) },
        actions: [assign({ year: ({ event }) => event.year }), 'writeYearAddress', 'loadReport'],
      },
      /** The address says another year (back, forward): shown and asked, the address already saying it. */
      'year.url': { actions: ['followShownYear', 'loadReport'] },
      /** A new comparison: shown in the address, and the year asked again with it (once there are filters). */
      'comparison.change': {
        guard: 'isOtherComparison',
        actions: ['setComparison', 'writeComparisonAddress', 'loadReport'],
      },
      /** Back or forward to another choice: shown and asked again, the address already saying it. */
      'comparison.url': { guard: 'isOtherComparison', actions: ['setComparison', 'loadReport'] },
    },
  });
}

export const salesTrendsPageMachine = createSalesTrendsPageMachine();
