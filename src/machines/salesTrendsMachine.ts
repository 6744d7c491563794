import { assign, enqueueActions, setup } from 'xstate';
import { type ApiClient, api, type CallOptions } from '../api/client';
import { getMonthlyReport } from '../api/mallReports';
import type { CommittedFilters } from '../domain/filterHeader';
import type { ReportQuery } from '../domain/mallReportViews';
import type { Period } from '../domain/reports';
import {
  isSalesTrendsEmpty,
  type SalesTrends,
  salesTrendsPlan,
  salesTrendsQuery,
  salesTrendsView,
  salesTrendsYears,
  yearOf,
} from '../domain/salesTrends';
import { reportOfPage } from './factories/pageQueryReport';
import { createQueryPageMachine } from './factories/queryPageMachine';
import { followHeaderFilters, type HeaderFiltersEvent } from './headerLink';

/**
 * Sales trends (/shopper-connect/sales-trends): the selected malls' months of a year beside the year before. The
 * page holds the year (this year until another is chosen) and tells its report (a query page of one panel) the
 * query of the header's client and malls for that year whenever either changes.
 */

export interface SalesTrendsPanels {
  readonly trends: SalesTrends;
}

/**
 * The year and the year before, one monthly call each (a call answers at most 366 days), and for the month still
 * open its complete days and the same days of the year before.
 */
export async function loadSalesTrends(query: ReportQuery, options: CallOptions = {}): Promise<SalesTrends> {
  const plan = salesTrendsPlan(query);
  const monthly = (period: Period) => getMonthlyReport({ ...query, start: period.start, end: period.end }, options);
  const compared = plan.open?.compared;
  const [thisYear, lastYear, openCurrent, openPrevious] = await Promise.all([
    monthly(plan.thisYear),
    monthly(plan.lastYear),
    compared ? monthly(compared.current) : Promise.resolve(undefined),
    compared ? monthly(compared.previous) : Promise.resolve(undefined),
  ]);
  const open = openCurrent && openPrevious ? { current: openCurrent, previous: openPrevious } : undefined;
  return salesTrendsView(plan, { thisYear, lastYear, ...(open ? { open } : {}) });
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

export type SalesTrendsEvent = HeaderFiltersEvent | { type: 'year.change'; year: number };

export interface SalesTrendsContext {
  /** The year chosen; undefined: the header's today's year. */
  readonly year: number | undefined;
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

export function createSalesTrendsPageMachine(client: ApiClient = api) {
  return setup({
    types: {
      context: {} as SalesTrendsContext,
      events: {} as SalesTrendsEvent,
      children: {} as { report: 'report' },
    },
    actors: { followHeaderFilters, report: createSalesTrendsReportMachine(client) },
    guards: {
      /** One of the years offered, other than the one shown. */
      isOtherYear: ({ context }, params: { year: number }) =>
        context.today !== undefined &&
        salesTrendsYears(context.today).includes(params.year) &&
        params.year !== yearShown(context),
    },
    actions: {
      /** Tells the report the query of the header's client and malls for the year shown, when it is a new one. */
      loadReport: enqueueActions(({ context, enqueue }) => {
        const year = yearShown(context);
        if (!context.filters || context.today === undefined || year === undefined) return;
        const query = salesTrendsQuery(context.filters, year, context.today);
        if (query === undefined || sameQuery(query, context.query)) return;
        enqueue.assign({ query });
        enqueue.sendTo('report', { type: 'report.load', query });
      }),
    },
  }).createMachine({
    id: 'salesTrendsPage',
    context: { year: undefined, filters: undefined, today: undefined, query: undefined },
    invoke: [{ src: 'followHeaderFilters' }, { id: 'report', src: 'report' }],
    on: {
      'header.filters': {
        actions: [
          assign(({ event }) => ({
            filters: { clientId: event.filters.clientId, mallIds: event.filters.mallIds },
            today: event.today,
          })),
          'loadReport',
        ],
      },
      'year.change': {
        guard: { type: 'isOtherYear', params: ({ event }) => ({ year: event.year }) },
        actions: [assign({ year: ({ event }) => event.year }), 'loadReport'],
      },
    },
  });
}

export const salesTrendsPageMachine = createSalesTrendsPageMachine();
