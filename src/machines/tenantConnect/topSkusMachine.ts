import { type ActorRefFrom, assign, emit, fromCallback, fromPromise, type SnapshotFrom, sendTo, setup } from 'xstate';
import { type ApiClient, api } from '../../api/client';
import { getSkus, getTopSkus, type Sku, type TopSkuResponse } from '../../api/outletReports';
import { formatFileDateRange } from '../../domain/format';
import { loadFailureNotice, type Notice } from '../../domain/messages';
import {
  isTopSkuPageColumn,
  isTopSkuServerColumn,
  nextPageSort,
  type OutletRangeOf,
  type RankedSku,
  rankSkus,
  SALES_ANALYSIS_WHAT,
  TOP_SKU_EXPORT_MAX_PAGES,
  TOP_SKU_EXPORT_PAGE_SIZE,
  TOP_SKU_ROWS_PER_PAGE,
  TOP_SKU_ROWS_PER_PAGE_OPTIONS,
  TOP_SKU_SERVER_COLUMNS,
  type TopSkuPageSort,
  type TopSkuServerColumn,
  topSkusCsv,
} from '../../domain/salesAnalysis';
import { createPagedListMachine, type PagedListQuery, type SortOrder } from '../factories/pagedListMachine';
import { exportCsvFiles } from '../reportExport';

/**
 * The sales analysis' top SKUs: the outlet's SKUs over the page's days, ranked by the server and paged (the
 * invoked paged list `list`, which the table's pager drives itself), with an SKU search (`search`: the outlet's
 * SKUs whose name or barcode holds the text typed) that narrows the table to the SKU picked.
 *
 *   idle ── skus.range ─> ready
 *   ready: settled ── skus.export (the list loaded) ─> exporting (every page, in the ranking's order) ─> settled
 *
 * Sorting (`skus.sort { column }`): quantity and amount are the server's ranking (sortMethod; the list asks page 1
 * again, highest first, then lowest first); the columns the server cannot rank by (#, item, barcode, unit price)
 * order the rows of the page shown (`pageSort`), and stay so while the user pages; a server sort clears it. Ranking
 * every SKU by name or barcode would need the server to sort by them, which the contract does not offer.
 *
 * A new outlet forgets the SKU picked (it is another outlet's); new days keep it.
 */

export interface TopSkuFilters {
  readonly range: OutletRangeOf;
  /** Only this SKU; undefined: every SKU. */
  readonly skuId: number | undefined;
}

export type TopSkuTotals = TopSkuResponse['total'];

export const TOP_SKUS_LIST_SYSTEM_ID = 'salesAnalysisTopSkus';

/** One page of the ranking, each row with its place in the whole ranking. */
export async function loadTopSkus(
  query: PagedListQuery<TopSkuFilters, TopSkuServerColumn>,
  { signal, client = api }: { readonly signal: AbortSignal; readonly client?: ApiClient },
) {
  const answer = await getTopSkus(
    query.filters.range,
    {
      sortMethod: query.sortColumn,
      order: query.order,
      page: query.page,
      rowsPerPage: query.rowsPerPage,
      skuId: query.filters.skuId,
    },
    { signal, client },
  );
  return {
    rows: rankSkus(answer.data, query.page, query.rowsPerPage),
    total: answer.total.rows_total,
    summary: answer.total,
  };
}

/** Every row of the ranking (pages of 100, at most TOP_SKU_EXPORT_MAX_PAGES), for the CSV file. */
export async function loadAllTopSkus(
  filters: TopSkuFilters,
  sort: { readonly column: TopSkuServerColumn; readonly order: SortOrder },
  { signal, client = api }: { readonly signal?: AbortSignal; readonly client?: ApiClient } = {},
): Promise<RankedSku[]> {
  const rows: RankedSku[] = [];
  for (let page = 1; page <= TOP_SKU_EXPORT_MAX_PAGES; page += 1) {
    const answer = await getTopSkus(
      filters.range,
      {
        sortMethod: sort.column,
        order: sort.order,
        page,
        rowsPerPage: TOP_SKU_EXPORT_PAGE_SIZE,
        skuId: filters.skuId,
      },
      { ...(signal ? { signal } : {}), client },
    );
    rows.push(...rankSkus(answer.data, page, TOP_SKU_EXPORT_PAGE_SIZE));
    if (answer.data.length < TOP_SKU_EXPORT_PAGE_SIZE || rows.length >= answer.total.rows_total) break;
  }
  return rows;
}

export function createTopSkusListMachine(client: ApiClient = api) {
  return createPagedListMachine<RankedSku, TopSkuFilters, TopSkuServerColumn, TopSkuTotals>({
    id: 'topSkusList',
    what: SALES_ANALYSIS_WHAT,
    load: (query, { signal }) => loadTopSkus(query, { signal, client }),
    rowKey: (row) => String(row.sku_id),
    sortColumns: TOP_SKU_SERVER_COLUMNS,
    defaultSort: { column: 'quantity', order: 'desc' },
    rowsPerPage: TOP_SKU_ROWS_PER_PAGE,
    rowsPerPageOptions: TOP_SKU_ROWS_PER_PAGE_OPTIONS,
  });
}

/* ---------------------------------------------------------------- the SKU search */

/** How long the search waits after the last key before it asks (ms). */
export const SKU_SEARCH_DELAY = 300;
/** The contract's longest searchText. */
export const SKU_SEARCH_MAX_LENGTH = 100;

export interface SkuSearchContext {
  readonly outlet: { readonly clientId: number; readonly outletId: number } | undefined;
  /** The text typed (trimmed when asked). */
  readonly text: string;
  /** The SKUs of the last answer (at most 100). */
  readonly options: readonly Sku[];
}

export type SkuSearchEvent =
  | { type: 'search.scope'; outlet: { readonly clientId: number; readonly outletId: number } }
  /** The search is shown: the SKUs of the text are asked unless known. */
  | { type: 'search.open' }
  | { type: 'search.text'; text: string }
  | { type: 'search.retry' };

/**
 * The SKU search (GET /outlets/sku):
 *
 *   idle ── search.open ─> searching ;  idle | waiting | searching | ready | failure ── search.text ─> waiting
 *   waiting ── SKU_SEARCH_DELAY after the last key ─> searching ─> ready (options) | failure (toast) ── retry ─> searching
 *   any ── search.scope (another outlet) ─> idle (nothing known)
 */
export function createSkuSearchMachine(client: ApiClient = api) {
  return setup({
    types: {
      context: {} as SkuSearchContext,
      events: {} as SkuSearchEvent,
      emitted: {} as Notice,
      tags: {} as 'loading',
    },
    actors: {
      searchSkus: fromPromise<
        Sku[],
        { outlet: { readonly clientId: number; readonly outletId: number }; text: string }
      >(({ input, signal }) => getSkus(input.outlet, input.text, { signal, client })),
    },
    guards: {
      hasOutlet: ({ context }) => context.outlet !== undefined,
      isNewOutlet: ({ context }, params: { outletId: number; clientId: number }) =>
        context.outlet?.outletId !== params.outletId || context.outlet.clientId !== params.clientId,
    },
    actions: {
      setText: assign((_, params: { text: string }) => ({ text: params.text.slice(0, SKU_SEARCH_MAX_LENGTH) })),
      notifyFailure: emit(loadFailureNotice('SKU search')),
    },
  }).createMachine({
    id: 'skuSearch',
    context: { outlet: undefined, text: '', options: [] },
    initial: 'idle',
    on: {
      'search.scope': {
        guard: { type: 'isNewOutlet', params: ({ event }) => event.outlet },
        target: '.idle',
        actions: assign(({ event }) => ({ outlet: event.outlet, text: '', options: [] })),
      },
      'search.text': {
        guard: 'hasOutlet',
        target: '.waiting',
        reenter: true,
        actions: { type: 'setText', params: ({ event }) => ({ text: event.text }) },
      },
    },
    states: {
      /** Nothing asked for the outlet yet. */
      idle: {
        on: { 'search.open': { guard: 'hasOutlet', target: 'searching' } },
      },
      /** Typing: the search waits for the user to pause. */
      waiting: {
        after: { [SKU_SEARCH_DELAY]: 'searching' },
      },
      searching: {
        tags: ['loading'],
        invoke: {
          src: 'searchSkus',
          input: ({ context }) => {
            if (!context.outlet) throw new Error('SKU search: no outlet');
            return { outlet: context.outlet, text: context.text.trim() };
          },
          onDone: { target: 'ready', actions: assign({ options: ({ event }) => event.output }) },
          onError: { target: 'failure', actions: [assign({ options: [] }), 'notifyFailure'] },
        },
      },
      ready: {},
      failure: {
        on: { 'search.retry': 'searching', 'search.open': 'searching' },
      },
    },
  });
}

/* ---------------------------------------------------------------- the top SKUs */

export interface TopSkusContext {
  readonly range: OutletRangeOf | undefined;
  /** The SKU the table is narrowed to. */
  readonly sku: Sku | undefined;
  /** The order of the page's rows by a column the server cannot rank by. */
  readonly pageSort: TopSkuPageSort;
  /** The list's ranking and whether it has rows to export (from `followList`). */
  readonly listSort: { readonly column: TopSkuServerColumn; readonly order: SortOrder };
  readonly listReady: boolean;
}

export type TopSkusEvent =
  | { type: 'skus.range'; range: OutletRangeOf }
  | { type: 'skus.pick'; sku: Sku }
  | { type: 'skus.clear' }
  | { type: 'skus.sort'; column: string }
  /** The CSV of every row of the ranking; `currency` is written in its last column. */
  | { type: 'skus.export'; currency?: string | undefined }
  | {
      type: 'skus.listChanged';
      sort: { readonly column: TopSkuServerColumn; readonly order: SortOrder };
      ready: boolean;
    };

interface ExportInput {
  readonly filters: TopSkuFilters;
  readonly sort: { readonly column: TopSkuServerColumn; readonly order: SortOrder };
  readonly currency: string | undefined;
}

const sameRange = (a: OutletRangeOf | undefined, b: OutletRangeOf) =>
  a !== undefined && a.clientId === b.clientId && a.outletId === b.outletId && a.start === b.start && a.end === b.end;

function filtersOf(context: TopSkusContext): TopSkuFilters {
  if (!context.range) throw new Error('top SKUs: no range');
  return { range: context.range, skuId: context.sku?.id };
}

export function createTopSkusMachine(client: ApiClient = api) {
  const list = createTopSkusListMachine(client);
  return setup({
    types: {
      context: {} as TopSkusContext,
      events: {} as TopSkusEvent,
      emitted: {} as Notice,
      tags: {} as 'exporting',
      children: {} as { list: 'list'; search: 'search' },
    },
    actors: {
      list,
      search: createSkuSearchMachine(client),
      /** Tells the machine the list's ranking and whether it shows rows, now and whenever they change. */
      followList: fromCallback<TopSkusEvent>(({ system, sendBack }) => {
        const listActor: ActorRefFrom<typeof list> | undefined = system.get(TOP_SKUS_LIST_SYSTEM_ID);
        if (!listActor) return () => undefined;
        let told = '';
        const tell = (snapshot: SnapshotFrom<typeof list>) => {
          const sort = { column: snapshot.context.sortColumn, order: snapshot.context.order };
          const ready = snapshot.matches('loaded');
          const now = JSON.stringify({ sort, ready });
          if (now === told) return;
          told = now;
          sendBack({ type: 'skus.listChanged', sort, ready });
        };
        const subscription = listActor.subscribe(tell);
        tell(listActor.getSnapshot());
        return () => subscription.unsubscribe();
      }),
      exportSkus: fromPromise<void, ExportInput>(async ({ input, signal }) => {
        const rows = await loadAllTopSkus(input.filters, input.sort, { signal, client });
        const { start, end } = input.filters.range;
        await exportCsvFiles('top_skus', formatFileDateRange(start, end), [topSkusCsv(rows, input.currency)]);
      }),
    },
    guards: {
      isNewRange: ({ context }, params: { range: OutletRangeOf }) => !sameRange(context.range, params.range),
      isOtherSku: ({ context }, params: { sku: Sku }) => context.sku?.id !== params.sku.id,
      hasSku: ({ context }) => context.sku !== undefined,
      isServerColumn: (_, params: { column: string }) => isTopSkuServerColumn(params.column),
      isPageColumn: (_, params: { column: string }) => isTopSkuPageColumn(params.column),
      canExport: ({ context }) => context.range !== undefined && context.listReady,
    },
    actions: {
      setRange: assign(({ context }, params: { range: OutletRangeOf }) => {
        const sameOutlet =
          context.range?.clientId === params.range.clientId && context.range.outletId === params.range.outletId;
        return { range: params.range, sku: sameOutlet ? context.sku : undefined };
      }),
      scopeSearch: sendTo('search', ({ context }) => {
        if (!context.range) throw new Error('top SKUs: no range');
        return {
          type: 'search.scope' as const,
          outlet: { clientId: context.range.clientId, outletId: context.range.outletId },
        };
      }),
      tellList: sendTo('list', ({ context }) => ({ type: 'list.filters' as const, filters: filtersOf(context) })),
      sortList: sendTo('list', (_, params: { column: string }) => ({
        type: 'list.sort' as const,
        column: params.column,
      })),
      clearPageSort: assign({ pageSort: undefined }),
      sortPage: assign(({ context }, params: { column: string }) =>
        isTopSkuPageColumn(params.column) ? { pageSort: nextPageSort(context.pageSort, params.column) } : {},
      ),
      notifyExportFailure: emit(loadFailureNotice(`${SALES_ANALYSIS_WHAT} export`)),
    },
  }).createMachine({
    id: 'topSkus',
    context: {
      range: undefined,
      sku: undefined,
      pageSort: undefined,
      listSort: { column: 'quantity', order: 'desc' },
      listReady: false,
    },
    invoke: [
      { id: 'list', systemId: TOP_SKUS_LIST_SYSTEM_ID, src: 'list', input: {} },
      { id: 'search', src: 'search' },
      { src: 'followList' },
    ],
    on: {
      'skus.range': {
        guard: { type: 'isNewRange', params: ({ event }) => ({ range: event.range }) },
        target: '.ready',
        actions: [{ type: 'setRange', params: ({ event }) => ({ range: event.range }) }, 'scopeSearch', 'tellList'],
      },
      'skus.listChanged': {
        actions: assign(({ event }) => ({ listSort: event.sort, listReady: event.ready })),
      },
    },
    initial: 'idle',
    states: {
      /** No outlet and days yet. */
      idle: {},
      ready: {
        on: {
          'skus.pick': {
            guard: { type: 'isOtherSku', params: ({ event }) => ({ sku: event.sku }) },
            actions: [assign({ sku: ({ event }) => event.sku }), 'tellList'],
          },
          'skus.clear': { guard: 'hasSku', actions: [assign({ sku: undefined }), 'tellList'] },
          'skus.sort': [
            {
              guard: { type: 'isServerColumn', params: ({ event }) => ({ column: event.column }) },
              actions: ['clearPageSort', { type: 'sortList', params: ({ event }) => ({ column: event.column }) }],
            },
            {
              guard: { type: 'isPageColumn', params: ({ event }) => ({ column: event.column }) },
              actions: { type: 'sortPage', params: ({ event }) => ({ column: event.column }) },
            },
          ],
        },
        initial: 'settled',
        states: {
          settled: {
            on: { 'skus.export': { guard: 'canExport', target: 'exporting' } },
          },
          exporting: {
            tags: ['exporting'],
            invoke: {
              src: 'exportSkus',
              input: ({ context, event }) => ({
                filters: filtersOf(context),
                sort: context.listSort,
                currency: event.type === 'skus.export' ? event.currency : undefined,
              }),
              onDone: 'settled',
              onError: { target: 'settled', actions: 'notifyExportFailure' },
            },
          },
        },
      },
    },
  });
}
