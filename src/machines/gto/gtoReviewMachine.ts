import {
  type ActorRefFrom,
  assign,
  emit,
  enqueueActions,
  fromCallback,
  fromPromise,
  type SnapshotFrom,
  sendTo,
  setup,
} from 'xstate';
import type { ApiClient } from '../../api/client';
import {
  type GtoNameOption,
  type GtoSortColumn,
  type GtoSummaryRow,
  getGtoMallNameOptions,
  getGtoOutletNameOptions,
  getGtoSummary,
} from '../../api/gto';
import type { CsvFile } from '../../domain/csv';
import {
  GTO_REVIEW_DEFAULT_SORT as DEFAULT_SORT,
  GTO_CSV_WHAT,
  GTO_SUMMARY_WHAT,
  type GtoReviewFilter,
  gtoReviewCsv,
  isGtoReviewFilter,
} from '../../domain/gto';
import { loadFailureNotice, type Notice } from '../../domain/messages';
import { createNameOptionsMachine } from '../factories/nameOptionsMachine';
import {
  createPagedListMachine,
  type PagedListAnswer,
  type PagedListQuery,
  type SortOrder,
} from '../factories/pagedListMachine';
import { followHeaderFilters, type HeaderFiltersEvent } from '../headerLink';
import { exportCsvFiles } from '../reportExport';
import { gtoRulesMachine } from './gtoRulesMachine';

/**
 * The GTO review page (§2, §7, §8, §9): every outlet's GTO submission of the header's month in the header's client,
 * against the sales captured from its receipts, a page of 10 rows at a time, sorted and filtered on the server.
 *
 * The table is a paged list (factories/pagedListMachine), the invoked child `list`: the table sends it its sort,
 * page and rows-per-page events itself; this machine tells it the filters (`list.filters`: the header's client and
 * month and the page's status filter). A failed summary is an empty list with a count of 0, the toast and a retry
 * (the list's `failure`). The invoked `followList` keeps the rows shown and the client's threshold in step with
 * the list, for the rule line and the CSV export of the rows shown.
 *
 *   csv: idle ── csv.export (rows shown) ─> exporting ─> idle (the file saved, or the toast)
 *
 * The client's review rules (threshold, due day, reminders) are edited in a dialog: `rules.open` spawns the
 * editor (child `rules`, gtoRulesMachine) for the header's client, `rules.close` or another client stops it, and
 * a save (`editor.saved`) closes it and reads the list again, so flags and Late tags follow the new rules.
 */

export interface GtoReviewFilters {
  readonly clientId: number;
  /** `YYYY-MM`. */
  readonly month: string;
  readonly filterOption: GtoReviewFilter;
  /** One mall of the client, or all. */
  readonly mallId?: number;
  /** One outlet (of the mall when one is chosen), or all. */
  readonly outletId?: number;
}

/** The malls of the review's filter, 20 a page: of the client. */
export const gtoMallOptionsMachine = createNameOptionsMachine<{ clientId: number }, GtoNameOption>({
  id: 'gtoMallOptions',
  what: 'Options fetching',
  load: ({ scope, search, page }, signal) =>
    getGtoMallNameOptions(
      { client_id: scope.clientId, page, ...(search === '' ? {} : { searchedText: search }) },
      { signal },
    ),
});

/** The outlets of the review's filter, 20 a page: of the client, of its chosen mall. */
export const gtoOutletOptionsMachine = createNameOptionsMachine<
  { clientId: number; mallIds: readonly number[] },
  GtoNameOption
>({
  id: 'gtoOutletOptions',
  what: 'Options fetching',
  load: ({ scope, search, page }, signal) =>
    getGtoOutletNameOptions(
      {
        client_id: scope.clientId,
        page,
        ...(scope.mallIds.length > 0 ? { mall_ids: [...scope.mallIds] } : {}),
        ...(search === '' ? {} : { searchedText: search }),
      },
      { signal },
    ),
});

/** What the list answers besides its rows: the client's variance threshold in percent. */
export interface GtoReviewSummary {
  readonly thresholdPercent: number;
}

export const GTO_REVIEW_ROWS_PER_PAGE = 10;
export const GTO_REVIEW_ROWS_PER_PAGE_OPTIONS = [10, 20, 50] as const;
/** The columns the table sorts by (the contract's sortColumn enum). */
export const GTO_REVIEW_SORT_COLUMNS: readonly GtoSortColumn[] = [
  'outlet_name',
  'mall_name',
  'gto_amount',
  'captured_sales',
  'variance_percent',
  'status',
  'submitted_at',
];
/** By outlet name, A to Z (domain/gto: the workbook's order too). */
export const GTO_REVIEW_DEFAULT_SORT: { readonly column: GtoSortColumn; readonly order: SortOrder } = DEFAULT_SORT;

export type GtoReviewQuery = PagedListQuery<GtoReviewFilters, GtoSortColumn>;

/** One page of the summary (GET /api/gtoReport/summary) for the list's query. */
export async function loadGtoSummary(
  query: GtoReviewQuery,
  { signal, client }: { readonly signal: AbortSignal; readonly client?: ApiClient },
): Promise<PagedListAnswer<GtoSummaryRow, GtoReviewSummary>> {
  const answer = await getGtoSummary(
    {
      client_id: query.filters.clientId,
      date: `${query.filters.month}-01`,
      filterOption: query.filters.filterOption,
      ...(query.filters.mallId === undefined ? {} : { mall_ids: [query.filters.mallId] }),
      ...(query.filters.outletId === undefined ? {} : { outlet_id: query.filters.outletId }),
      sortColumn: query.sortColumn,
      orderByMethod: query.order,
      page: query.page,
      rowsPerPage: query.rowsPerPage,
    },
    client ? { signal, client } : { signal },
  );
  return { rows: answer.data, total: answer.total, summary: { thresholdPercent: answer.threshold_percent } };
}

export const gtoReviewListMachine = createPagedListMachine<
  GtoSummaryRow,
  GtoReviewFilters,
  GtoSortColumn,
  GtoReviewSummary
>({
  id: 'gtoReviewList',
  what: GTO_SUMMARY_WHAT,
  load: loadGtoSummary,
  rowKey: (row) => String(row.outlet_id),
  sortColumns: GTO_REVIEW_SORT_COLUMNS,
  defaultSort: GTO_REVIEW_DEFAULT_SORT,
  rowsPerPage: GTO_REVIEW_ROWS_PER_PAGE,
  rowsPerPageOptions: GTO_REVIEW_ROWS_PER_PAGE_OPTIONS,
});

export const GTO_REVIEW_LIST_SYSTEM_ID = 'gtoReviewList';

export interface GtoReviewContext {
  /** The header's client and month; undefined until both are known. */
  readonly base: { readonly clientId: number; readonly month: string } | undefined;
  /** The header's today (`YYYY-MM-DD`): the receipts links end there in the current month. */
  readonly today: string | undefined;
  readonly filterOption: GtoReviewFilter;
  /** The rows the list shows (none while it loads or after a failure). */
  readonly rows: readonly GtoSummaryRow[];
  /** The client's threshold, from the last answer. */
  readonly thresholdPercent: number | undefined;
  /** Whether the rules editor (child `rules`) runs. */
  readonly rulesOpen: boolean;
  /** The mall and outlet the review is narrowed to (none: all). */
  readonly mall: GtoNameOption | undefined;
  readonly outlet: GtoNameOption | undefined;
  /**
   * The outlet the page was opened for (a link's `outlet` query, e.g. from a rent statement), until the header's
   * client is known: the review starts narrowed to it. Its name comes with the first rows.
   */
  readonly linkedOutletId: number | undefined;
}

/** What the page is opened with: the outlet of the link that opened it, if any. */
export interface GtoReviewInput {
  readonly outletId?: number | undefined;
}

export type GtoReviewEvent =
  | HeaderFiltersEvent
  | { type: 'gto.filter'; filterOption: string }
  /** From `followList`: the rows shown or the threshold changed. */
  | { type: 'list.changed'; rows: readonly GtoSummaryRow[]; thresholdPercent: number | undefined }
  | { type: 'csv.export' }
  | { type: 'gto.mall'; option: GtoNameOption | undefined }
  | { type: 'gto.outlet'; option: GtoNameOption | undefined }
  | { type: 'rules.open' }
  | { type: 'rules.close' }
  /** From the rules editor: its draft is saved. */
  | { type: 'editor.saved' };

export interface GtoCsvInput {
  readonly month: string;
  readonly file: CsvFile;
}

function listFiltersEvent(context: GtoReviewContext): { type: 'list.filters'; filters: GtoReviewFilters } {
  if (!context.base) throw new Error('gtoReview: no client or month yet');
  return {
    type: 'list.filters',
    filters: {
      ...context.base,
      filterOption: context.filterOption,
      ...(context.mall ? { mallId: context.mall.id } : {}),
      ...(context.outlet ? { outletId: context.outlet.id } : {}),
    },
  };
}

/** The linked outlet with its name from the rows once they carry it (the option lists may not have it yet). */
function namedOutlet(outlet: GtoNameOption | undefined, rows: readonly GtoSummaryRow[]): GtoNameOption | undefined {
  if (outlet === undefined || outlet.name !== '') return outlet;
  const row = rows.find((candidate) => candidate.outlet_id === outlet.id);
  return row ? { ...outlet, name: row.outlet_name } : outlet;
}

export const gtoReviewMachine = setup({
  types: {
    context: {} as GtoReviewContext,
    input: {} as GtoReviewInput | undefined,
    events: {} as GtoReviewEvent,
    emitted: {} as Notice,
    children: {} as {
      list: 'gtoReviewList';
      mallOptions: 'gtoMallOptions';
      outletOptions: 'gtoOutletOptions';
      rules: 'gtoRules';
    },
  },
  actors: {
    followHeaderFilters,
    gtoReviewList: gtoReviewListMachine,
    /** Tells the page the rows the list shows and the threshold, now and whenever they change. */
    followList: fromCallback<GtoReviewEvent>(({ system, sendBack }) => {
      const list: ActorRefFrom<typeof gtoReviewListMachine> | undefined = system.get(GTO_REVIEW_LIST_SYSTEM_ID);
      if (!list) return () => undefined;
      let told: { rows: readonly GtoSummaryRow[]; threshold: number | undefined } | undefined;
      const tell = (snapshot: SnapshotFrom<typeof gtoReviewListMachine>) => {
        const rows = snapshot.matches('loaded') ? snapshot.context.rows : [];
        const threshold = snapshot.context.summary?.thresholdPercent;
        if (told && told.rows === rows && told.threshold === threshold) return;
        if (told && told.rows.length === 0 && rows.length === 0 && told.threshold === threshold) return;
        told = { rows, threshold };
        sendBack({ type: 'list.changed', rows, thresholdPercent: threshold });
      };
      const subscription = list.subscribe(tell);
      tell(list.getSnapshot());
      return () => subscription.unsubscribe();
    }),
    gtoRules: gtoRulesMachine,
    gtoMallOptions: gtoMallOptionsMachine,
    gtoOutletOptions: gtoOutletOptionsMachine,
    exportCsv: fromPromise<void, GtoCsvInput>(async ({ input }) => {
      await exportCsvFiles(input.file.name, input.month, [input.file]);
    }),
  },
  guards: {
    isNewBase: ({ context, event }) => {
      if (event.type !== 'header.filters') return false;
      const { clientId, month } = event.filters;
      if (clientId === undefined || month === undefined) return false;
      return context.base?.clientId !== clientId || context.base.month !== month;
    },
    canFilter: ({ context, event }) =>
      event.type === 'gto.filter' &&
      context.base !== undefined &&
      isGtoReviewFilter(event.filterOption) &&
      event.filterOption !== context.filterOption,
    hasRows: ({ context }) => context.rows.length > 0,
    canOpenRules: ({ context }) => context.base !== undefined && !context.rulesOpen,
    isNewMall: ({ context, event }) =>
      event.type === 'gto.mall' && context.base !== undefined && event.option?.id !== context.mall?.id,
    isNewOutlet: ({ context, event }) =>
      event.type === 'gto.outlet' && context.base !== undefined && event.option?.id !== context.outlet?.id,
    isNewClient: ({ context, event }) =>
      event.type === 'header.filters' &&
      event.filters.clientId !== undefined &&
      event.filters.clientId !== context.base?.clientId,
  },
  actions: {
    setBase: assign(({ event }) => {
      if (event.type !== 'header.filters') return {};
      const { clientId, month } = event.filters;
      if (clientId === undefined || month === undefined) return {};
      return { base: { clientId, month }, today: event.today };
    }),
    setToday: assign(({ context, event }) =>
      event.type === 'header.filters' && event.today !== undefined ? { today: event.today } : { today: context.today },
    ),
    setFilterOption: assign(({ context, event }) =>
      event.type === 'gto.filter' && isGtoReviewFilter(event.filterOption)
        ? { filterOption: event.filterOption }
        : { filterOption: context.filterOption },
    ),
    reloadList: sendTo('list', ({ context }) => listFiltersEvent(context)),
    refreshList: sendTo('list', { type: 'list.refresh' }),
    /** A new client: no mall or outlet chosen, and the options lists read within it. */
    scopeOptions: enqueueActions(({ context, enqueue }) => {
      if (!context.base) return;
      const clientId = context.base.clientId;
      // The linked outlet narrows the first client's review only; the gate checks the caller sees it.
      const outlet = context.linkedOutletId === undefined ? undefined : { id: context.linkedOutletId, name: '' };
      enqueue.assign({ mall: undefined, outlet, linkedOutletId: undefined });
      enqueue.sendTo('mallOptions', { type: 'options.scope', scope: { clientId } });
      enqueue.sendTo('outletOptions', { type: 'options.scope', scope: { clientId, mallIds: [] } });
    }),
    setMall: enqueueActions(({ context, event, enqueue }) => {
      if (event.type !== 'gto.mall' || !context.base) return;
      enqueue.assign({ mall: event.option, outlet: undefined });
      enqueue.sendTo('outletOptions', {
        type: 'options.scope',
        scope: { clientId: context.base.clientId, mallIds: event.option ? [event.option.id] : [] },
      });
    }),
    setOutlet: assign(({ event }) => (event.type === 'gto.outlet' ? { outlet: event.option } : {})),
    openRules: enqueueActions(({ context, enqueue }) => {
      enqueue.spawnChild('gtoRules', { id: 'rules', input: { clientId: context.base?.clientId ?? 0 } });
      enqueue.assign({ rulesOpen: true });
    }),
    closeRules: enqueueActions(({ enqueue }) => {
      enqueue.stopChild('rules');
      enqueue.assign({ rulesOpen: false });
    }),
    notifyCsvFailure: emit(loadFailureNotice(GTO_CSV_WHAT)),
  },
}).createMachine({
  id: 'gtoReview',
  context: ({ input }) => ({
    base: undefined,
    today: undefined,
    filterOption: 'all',
    rows: [],
    thresholdPercent: undefined,
    rulesOpen: false,
    mall: undefined,
    outlet: undefined,
    linkedOutletId: input?.outletId,
  }),
  invoke: [
    { src: 'followHeaderFilters' },
    { id: 'list', systemId: GTO_REVIEW_LIST_SYSTEM_ID, src: 'gtoReviewList', input: {} },
    { id: 'mallOptions', src: 'gtoMallOptions' },
    { id: 'outletOptions', src: 'gtoOutletOptions' },
    { src: 'followList' },
  ],
  on: {
    'header.filters': [
      { guard: 'isNewClient', actions: ['closeRules', 'setBase', 'scopeOptions', 'reloadList'] },
      { guard: 'isNewBase', actions: ['setBase', 'reloadList'] },
      { actions: 'setToday' },
    ],
    'gto.filter': { guard: 'canFilter', actions: ['setFilterOption', 'reloadList'] },
    'gto.mall': { guard: 'isNewMall', actions: ['setMall', 'reloadList'] },
    'gto.outlet': { guard: 'isNewOutlet', actions: ['setOutlet', 'reloadList'] },
    'rules.open': { guard: 'canOpenRules', actions: 'openRules' },
    'rules.close': { actions: 'closeRules' },
    'editor.saved': { actions: ['closeRules', 'refreshList'] },
    'list.changed': {
      actions: assign(({ context, event }) => ({
        rows: event.rows,
        thresholdPercent: event.thresholdPercent ?? context.thresholdPercent,
        outlet: namedOutlet(context.outlet, event.rows),
      })),
    },
  },
  initial: 'idle',
  states: {
    idle: {
      on: { 'csv.export': { guard: 'hasRows', target: 'exporting' } },
    },
    exporting: {
      tags: ['csvExporting'],
      invoke: {
        src: 'exportCsv',
        input: ({ context }) => ({
          month: context.base?.month ?? '',
          file: gtoReviewCsv(context.rows),
        }),
        onDone: 'idle',
        onError: { target: 'idle', actions: 'notifyCsvFailure' },
      },
    },
  },
});
