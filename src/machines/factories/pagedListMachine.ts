import { assign, emit, fromPromise, setup } from 'xstate';
import { loadFailureNotice, type Notice } from '../../domain/messages';
import { lastPage } from '../../domain/paging';
import { lockHeader } from '../headerLink';

/**
 * The one shape of every paged, sortable, searchable table (receipts-like lists): the page sends the header's
 * committed filters; the machine builds the query (filters, search text, sort, page, rows per page), loads it
 * and answers with the rows of the page and the total.
 *
 *   idle ── list.filters ─> loading ── done ─> loaded | empty (total 0)
 *                                     └ error ─> failure ── list.retry ─> loading
 *   loading | loaded | empty | failure ── list.filters / list.search / list.sort / list.rowsPerPage ─> loading
 *   loaded ── list.page ─> loading  (1..last page only)
 *   loaded | empty | failure ── list.refresh ─> loading  (the same query again: new rows may have come in)
 *   loaded ── list.select / list.selectAll / list.clearSelection ─> loaded
 *
 * - Every query change but a page change goes back to page 1. A new query while loading supersedes the pending
 *   one: its request is aborted (the `signal` given to `load`).
 * - `loading` keeps the previous rows in the context but is tagged 'loading': views show skeleton cells, not
 *   those rows as current.
 * - The selection (row keys, by `rowKey`) is cleared whenever the rows change.
 * - `failure` keeps no rows and emits `notify` with '{what} error occurs. Please try again later.' (5 s).
 * - While loading, the filter header of the actor system (`system.get('filterHeader')`) gets `page.loading`,
 *   then `page.loaded` when the loading ends in any way, the actor's stop included. No header: nothing is sent.
 */

export type SortOrder = 'asc' | 'desc';

export interface PagedListQuery<TFilters, TSort extends string> {
  readonly filters: TFilters;
  /** Trimmed; '' searches nothing. */
  readonly search: string;
  readonly sortColumn: TSort;
  readonly order: SortOrder;
  /** From 1. */
  readonly page: number;
  readonly rowsPerPage: number;
}

export interface PagedListAnswer<TRow, TSummary = undefined> {
  readonly rows: readonly TRow[];
  /** Rows of the whole query, every page. */
  readonly total: number;
  /** Figures of the whole query beside the count (sums), when the list has any. */
  readonly summary?: TSummary;
}

export interface PagedListOptions<TRow, TFilters, TSort extends string, TSummary = undefined> {
  readonly id: string;
  /** The '{what}' of the failure toast. */
  readonly what: string;
  readonly load: (
    query: PagedListQuery<TFilters, TSort>,
    options: { readonly signal: AbortSignal },
  ) => Promise<PagedListAnswer<TRow, TSummary>>;
  /** A row's key for the selection. */
  readonly rowKey: (row: TRow) => string;
  /** The columns the table may sort by; any other is refused. */
  readonly sortColumns: readonly TSort[];
  readonly defaultSort: { readonly column: TSort; readonly order: SortOrder };
  readonly rowsPerPage: number;
  /** The rows-per-page values offered; any other is refused. */
  readonly rowsPerPageOptions: readonly number[];
}

export interface PagedListInput<TFilters> {
  /** Filters known at start: the list loads at once. */
  readonly filters?: TFilters;
}

export interface PagedListContext<TRow, TFilters, TSort extends string, TSummary = undefined> {
  readonly filters: TFilters | undefined;
  readonly search: string;
  readonly sortColumn: TSort;
  readonly order: SortOrder;
  readonly page: number;
  readonly rowsPerPage: number;
  /** The rows of the last answer (while loading: of the previous query). */
  readonly rows: readonly TRow[];
  readonly total: number;
  /** Keys (`rowKey`) of the selected rows of `rows`. */
  readonly selected: readonly string[];
  /** The last answer's summary; undefined while none (or after a failure). */
  readonly summary: TSummary | undefined;
}

export type PagedListEvent<TFilters> =
  | { type: 'list.filters'; filters: TFilters }
  | { type: 'list.page'; page: number }
  | { type: 'list.rowsPerPage'; rowsPerPage: number }
  /**
   * A column of `sortColumns`: a new column sorts descending, the same column again toggles the order; `order`
   * sorts that way whatever the column was.
   */
  | { type: 'list.sort'; column: string; order?: SortOrder }
  | { type: 'list.search'; text: string }
  /** Selects (or with `selected: false` deselects) one row of the current rows. */
  | { type: 'list.select'; key: string; selected: boolean }
  | { type: 'list.selectAll' }
  | { type: 'list.clearSelection' }
  | { type: 'list.retry' }
  /** Loads the same query again (a settled list: loaded, empty, or failed as `list.retry` does). */
  | { type: 'list.refresh' };

/** The list's toast: its load failure. */
export type PagedListNotice = Notice;

export type PagedListTag = 'loading';

/** The query a list's context stands for (undefined before it has filters). */
export function pagedListQueryOf<TFilters, TSort extends string>(
  context: Pick<
    PagedListContext<unknown, TFilters, TSort, unknown>,
    'filters' | 'search' | 'sortColumn' | 'order' | 'page' | 'rowsPerPage'
  >,
): PagedListQuery<TFilters, TSort> | undefined {
  if (context.filters === undefined) return undefined;
  const { filters, search, sortColumn, order, page, rowsPerPage } = context;
  return { filters, search, sortColumn, order, page, rowsPerPage };
}

/** A paged list's machine: the shape above, with the page's loader, columns and page sizes. */
export function createPagedListMachine<TRow, TFilters, TSort extends string, TSummary = undefined>(
  options: PagedListOptions<TRow, TFilters, TSort, TSummary>,
) {
  type Context = PagedListContext<TRow, TFilters, TSort, TSummary>;
  type Query = PagedListQuery<TFilters, TSort>;
  type Answer = PagedListAnswer<TRow, TSummary>;

  const isSortColumn = (column: string): column is TSort => (options.sortColumns as readonly string[]).includes(column);

  const queryOf = (context: Context): Query => {
    const query = pagedListQueryOf(context);
    if (!query) throw new Error(`${options.id}: loading without filters`);
    return query;
  };

  return setup({
    types: {
      context: {} as Context,
      events: {} as PagedListEvent<TFilters>,
      input: {} as PagedListInput<TFilters> | undefined,
      emitted: {} as PagedListNotice,
      tags: {} as PagedListTag,
    },
    actors: {
      fetchPage: fromPromise<Answer, Query>(({ input, signal }) => options.load(input, { signal })),
      lockHeader,
    },
    guards: {
      hasFilters: ({ context }) => context.filters !== undefined,
      canChangePage: ({ context }, params: { page: number }) =>
        Number.isInteger(params.page) &&
        params.page >= 1 &&
        params.page <= lastPage(context.total, context.rowsPerPage) &&
        params.page !== context.page,
      canChangeRowsPerPage: ({ context }, params: { rowsPerPage: number }) =>
        context.filters !== undefined &&
        options.rowsPerPageOptions.includes(params.rowsPerPage) &&
        params.rowsPerPage !== context.rowsPerPage,
      canSort: ({ context }, params: { column: string }) =>
        context.filters !== undefined && isSortColumn(params.column),
      isRowKey: ({ context }, params: { key: string }) =>
        context.rows.some((row) => options.rowKey(row) === params.key),
      isEmptyAnswer: (_, params: { answer: Answer }) => params.answer.total === 0,
      /** Rows were counted but this page has none (rows went away): the last page is asked instead. */
      isPastLastPage: ({ context }, params: { answer: Answer }) =>
        params.answer.rows.length === 0 && context.page > lastPage(params.answer.total, context.rowsPerPage),
    },
    actions: {
      setFilters: assign((_, params: { filters: TFilters }) => ({ filters: params.filters, page: 1 })),
      setPage: assign((_, params: { page: number }) => ({ page: params.page })),
      setRowsPerPage: assign((_, params: { rowsPerPage: number }) => ({ rowsPerPage: params.rowsPerPage, page: 1 })),
      setSort: assign(({ context }, params: { column: string; order: SortOrder | undefined }) => {
        if (!isSortColumn(params.column)) return {};
        const order: SortOrder =
          params.order ?? (context.sortColumn === params.column && context.order === 'desc' ? 'asc' : 'desc');
        return { sortColumn: params.column, order, page: 1 };
      }),
      setSearch: assign((_, params: { text: string }) => ({ search: params.text.trim(), page: 1 })),
      setRows: assign((_, params: { answer: Answer }) => ({
        rows: params.answer.rows,
        total: params.answer.total,
        summary: params.answer.summary,
        selected: [],
      })),
      setLastPage: assign(({ context }, params: { answer: Answer }) => ({
        page: lastPage(params.answer.total, context.rowsPerPage),
        total: params.answer.total,
      })),
      resetRows: assign({ rows: [], total: 0, selected: [], summary: undefined }),
      setSelected: assign(({ context }, params: { key: string; selected: boolean }) => {
        const others = context.selected.filter((key) => key !== params.key);
        return { selected: params.selected ? [...others, params.key] : others };
      }),
      setAllSelected: assign(({ context }) => ({ selected: context.rows.map(options.rowKey) })),
      resetSelection: assign({ selected: [] }),
      notifyFailure: emit(loadFailureNotice(options.what)),
    },
  }).createMachine({
    id: options.id,
    context: ({ input }) => ({
      filters: input?.filters,
      search: '',
      sortColumn: options.defaultSort.column,
      order: options.defaultSort.order,
      page: 1,
      rowsPerPage: options.rowsPerPage,
      rows: [],
      total: 0,
      selected: [],
      summary: undefined,
    }),
    initial: 'idle',
    on: {
      'list.filters': {
        target: '.loading',
        reenter: true,
        actions: { type: 'setFilters', params: ({ event }) => ({ filters: event.filters }) },
      },
      'list.search': {
        guard: 'hasFilters',
        target: '.loading',
        reenter: true,
        actions: { type: 'setSearch', params: ({ event }) => ({ text: event.text }) },
      },
      'list.sort': {
        guard: { type: 'canSort', params: ({ event }) => ({ column: event.column }) },
        target: '.loading',
        reenter: true,
        actions: { type: 'setSort', params: ({ event }) => ({ column: event.column, order: event.order }) },
      },
      'list.rowsPerPage': {
        guard: { type: 'canChangeRowsPerPage', params: ({ event }) => ({ rowsPerPage: event.rowsPerPage }) },
        target: '.loading',
        reenter: true,
        actions: { type: 'setRowsPerPage', params: ({ event }) => ({ rowsPerPage: event.rowsPerPage }) },
      },
    },
    states: {
      /** No filters yet (filters given as input load at once). */
      idle: {
        always: { guard: 'hasFilters', target: 'loading' },
      },
      loading: {
        tags: ['loading'],
        invoke: [
          { src: 'lockHeader' },
          {
            src: 'fetchPage',
            input: ({ context }) => queryOf(context),
            onDone: [
              {
                guard: { type: 'isEmptyAnswer', params: ({ event }) => ({ answer: event.output }) },
                target: 'empty',
                actions: { type: 'setRows', params: ({ event }) => ({ answer: event.output }) },
              },
              {
                guard: { type: 'isPastLastPage', params: ({ event }) => ({ answer: event.output }) },
                target: 'loading',
                reenter: true,
                actions: { type: 'setLastPage', params: ({ event }) => ({ answer: event.output }) },
              },
              { target: 'loaded', actions: { type: 'setRows', params: ({ event }) => ({ answer: event.output }) } },
            ],
            onError: { target: 'failure', actions: ['resetRows', 'notifyFailure'] },
          },
        ],
      },
      loaded: {
        on: {
          'list.page': {
            guard: { type: 'canChangePage', params: ({ event }) => ({ page: event.page }) },
            target: 'loading',
            actions: { type: 'setPage', params: ({ event }) => ({ page: event.page }) },
          },
          'list.select': {
            guard: { type: 'isRowKey', params: ({ event }) => ({ key: event.key }) },
            actions: { type: 'setSelected', params: ({ event }) => ({ key: event.key, selected: event.selected }) },
          },
          'list.selectAll': { actions: 'setAllSelected' },
          'list.clearSelection': { actions: 'resetSelection' },
          'list.refresh': { target: 'loading' },
        },
      },
      /** The query matches no rows: 'No Data'. */
      empty: {
        on: { 'list.refresh': { target: 'loading' } },
      },
      /** The load failed: the toast, and no rows. */
      failure: {
        on: { 'list.retry': { target: 'loading' }, 'list.refresh': { target: 'loading' } },
      },
    },
  });
}
