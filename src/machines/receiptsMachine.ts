import {
  assign,
  emit,
  enqueueActions,
  fromCallback,
  fromPromise,
  raise,
  type SnapshotFrom,
  sendTo,
  setup,
} from 'xstate';
import { saveFile } from '../api/download';
import { ApiError } from '../api/errors';
import {
  type BreakdownSeries,
  downloadTransactionsPdf,
  getFocReasons,
  getPaymentAndSum,
  getPaymentMethodBreakdown,
  getPaymentMethodNames,
  getReceiptImage,
  getReceiptTypeOptions,
  getTransactions,
  getTransactionsPdfLink,
  type PaymentSummary,
  type PdfDownloadProgress,
  type ReceiptRow,
  type ReceiptSummary,
} from '../api/receipts';
import { failureNotice, loadFailureNotice, type Notice } from '../domain/messages';
import {
  ALL_PAYMENT_METHODS,
  keepReceiptType,
  paymentMethodQuery,
  RECEIPT_SORT_COLUMNS,
  RECEIPTS_ERROR_WHAT,
  type ReceiptsFilters,
  type ReceiptsListFilters,
  type ReceiptsListQuery,
  type ReceiptsPdfDownload,
  type ReceiptsPdfQuery,
  type ReceiptType,
  receiptsCsv,
  receiptsFiltersOf,
  receiptsListChoices,
  receiptsPdfFileName,
  receiptsPdfOverCapNotice,
  receiptsPdfQueryOf,
  type SortColumn,
  type TransactionQuery,
  togglePaymentMethod,
  transactionQueryOf,
} from '../domain/receipts';
import { createPagedListMachine, pagedListQueryOf } from './factories/pagedListMachine';
import {
  createReceiptViewer,
  type ReceiptViewerContext,
  type ReceiptViewerEvent,
} from './factories/receiptViewerMachine';
import { type HeaderFiltersEvent, lockHeader } from './headerLink';

/**
 * The Receipts page (§2, §4, §7, §8): driven by the committed outlet and date filters of the filter header, which
 * it follows (`followHeaderFilters`) and disables while any of its regions loads (`lockHeader`).
 *
 * A receipt viewer (factories/receiptViewerMachine): the receipts table is a paged list, the invoked child `list`:
 * the table sends it its sort, page and rows-per-page events itself; this machine tells it the filters
 * (`list.filters`: the header's and the page's receipt type, FOC reason and payment methods) and the receipt id
 * search (`list.search`), and keeps `listQuery` and `listTotal` in step with it, for the PDF, the link and the CSV.
 * The viewer's image and csv regions are the factory's; the others are this page's own.
 *
 * Parallel regions:
 *   options:  idle ── filters.change ─> loading (receipt types, FOC reasons, payment methods) ─> ready
 *             (a receipt type the server no longer reports resets to empty, and the list is fetched again)
 *   payments: idle ── filters.change, paymentMethod.toggle ─> loading (payment summary + breakdown of the list's
 *             outlets, days and payment methods, so that its totals agree with the list's) ─> ready | failure
 *   image:    closed ── image.open ─> loading ─> open | closed (toast) ;  image.close ─> closed
 *   pdf:      idle ── pdf.generate ─> generating (bytes received, size if known, receipts in it) ─> idle (file
 *             saved) | idle (toast). The PDF and the link hold every receipt of the list's filters, in its order,
 *             up to RECEIPTS_PDF_CAP (no paging); `pdfOverCap` says so when the list's total is larger.
 *   link:     idle ── link.create ─> creating ─> ready (url) ;  link.dismiss ─> idle
 *             ready.shown ── link.copy ─> ready.copying ─> ready.shown (a toast: copied, or not)
 *   csv:      idle ── csv.export ─> exporting (every page of the filter) ─> idle (file saved)
 *
 * A failed fetch emits `notify` with '{what} error occurs. Please try again later.' (5 s).
 */

export interface ReceiptsContext extends ReceiptViewerContext {
  filters: ReceiptsFilters | undefined;
  typeFlags: string[];
  receiptType: ReceiptType | '';
  focReasons: string[];
  focReason: string;
  paymentMethods: string[];
  selectedPaymentMethods: string[];
  /** The receipt id search as applied to the list. */
  receiptId: string;
  /** The list's current query and its total (from the list itself). */
  listQuery: ReceiptsListQuery | undefined;
  listTotal: number;
  paymentSummary: PaymentSummary[];
  breakdown: BreakdownSeries[];
  /** While the PDF downloads: the bytes received, its size when known, the receipts in it (from the answer). */
  pdfDownload: ReceiptsPdfDownload | undefined;
  /** The notice when the list holds more receipts than a PDF does (decided from listTotal). */
  pdfOverCap: string | undefined;
  pdfLink: string | undefined;
}

export type ReceiptsEvent =
  | HeaderFiltersEvent
  | ReceiptViewerEvent
  | { type: 'filters.change'; filters: ReceiptsFilters }
  | { type: 'receiptType.change'; receiptType: ReceiptType | '' }
  | { type: 'focReason.change'; focReason: string }
  | { type: 'paymentMethod.toggle'; method: string }
  | { type: 'receiptId.search'; receiptId: string }
  /** Internal (raised): a region fetches again. Regions talk through events, never cross-region targets. */
  | { type: 'options.reload' }
  | { type: 'payments.reload' }
  | { type: 'pdf.generate' }
  | ({ type: 'pdf.progress' } & PdfDownloadProgress)
  | { type: 'pdf.done' }
  /** The PDF was not made: the server's reason when it refused (e.g. too many exports running), else none. */
  | { type: 'pdf.failed'; reason: string | undefined }
  | { type: 'link.create' }
  | { type: 'link.dismiss' }
  /** Copies the shareable link to the clipboard. */
  | { type: 'link.copy' };

export const DEFAULT_ROWS_PER_PAGE = 10;
export const ROWS_PER_PAGE_OPTIONS = [10, 20, 50, 100] as const;
export const EMPTY_SUMMARY: ReceiptSummary = { total: 0, void_count: 0, sum: 0, discount: 0 };

/** The receipts list: one page of the receipts of the filters, sorted on the server, with the totals. */
export const receiptsListMachine = createPagedListMachine<ReceiptRow, ReceiptsListFilters, SortColumn, ReceiptSummary>({
  id: 'receiptsList',
  what: RECEIPTS_ERROR_WHAT.list,
  load: async (query, { signal }) => {
    const transactions = transactionQueryOf(receiptsListChoices(query));
    if (!transactions) throw new Error('receipts: no filters yet');
    const { data, summary } = await getTransactions(transactions, { signal });
    const totals = summary[0] ?? EMPTY_SUMMARY;
    return { rows: data, total: totals.total, summary: totals };
  },
  rowKey: (row) => String(row.id),
  sortColumns: RECEIPT_SORT_COLUMNS,
  defaultSort: { column: 'datetime', order: 'desc' },
  rowsPerPage: DEFAULT_ROWS_PER_PAGE,
  rowsPerPageOptions: ROWS_PER_PAGE_OPTIONS,
});

/** The list query (page and sort included) of the page the list shows; the states that read it have one. */
function requireQuery(context: ReceiptsContext): TransactionQuery {
  const query = context.listQuery && transactionQueryOf(receiptsListChoices(context.listQuery));
  if (!query) throw new Error('receipts: no filters yet');
  return query;
}

/** The query of the PDF and of its link: the list's filters and sort, without its page. */
function requirePdfQuery(context: ReceiptsContext): ReceiptsPdfQuery {
  return receiptsPdfQueryOf(requireQuery(context));
}

/** Tells the list the page's filters and choices: it loads them from page 1. */
function listFiltersEvent(
  context: Pick<ReceiptsContext, 'filters' | 'receiptType' | 'focReason' | 'selectedPaymentMethods'>,
): { type: 'list.filters'; filters: ReceiptsListFilters } {
  const { filters, receiptType, focReason, selectedPaymentMethods } = context;
  if (!filters) throw new Error('receipts: no filters yet');
  return { type: 'list.filters', filters: { filters, receiptType, focReason, selectedPaymentMethods } };
}

/** What the payment summary and breakdown are of: the list's outlets and days, and its payment methods. */
export interface PaymentsInput {
  filters: ReceiptsFilters;
  paymentMethod: string[] | undefined;
}

function paymentsInputOf(context: ReceiptsContext): PaymentsInput {
  return { filters: requireFilters(context), paymentMethod: paymentMethodQuery(context.selectedPaymentMethods) };
}

/** There are receipts to put in a PDF, a link or a CSV file. */
function hasReceipts(context: ReceiptsContext): boolean {
  return context.listQuery !== undefined && context.listTotal > 0;
}

function requireFilters(context: ReceiptsContext): ReceiptsFilters {
  if (!context.filters) throw new Error('receipts: no filters yet');
  return context.filters;
}

const LINK_COPIED_NOTICE: Notice = { type: 'notify', intent: 'success', message: 'Link copied.', timeout: 2000 };
const LINK_NOT_COPIED_NOTICE: Notice = {
  type: 'notify',
  intent: 'danger',
  message: 'The link could not be copied. Select it and copy it by hand.',
  timeout: 5000,
};

/** How long a saved PDF's or CSV's object URL lives (ms). */
const RECEIPTS_FILE_URL_LIFETIME = 10_000;
const CSV_PAGE_SIZE = 100;
const CSV_MAX_PAGES = 100;

/** Every receipt of the list's query (100 a page, at most 100 pages) in one CSV file; answers how many. */
async function exportReceiptsCsv(
  input: { query: TransactionQuery; outletType: 1 | 2 },
  signal: AbortSignal,
): Promise<number> {
  const rows: ReceiptRow[] = [];
  for (let page = 1; page <= CSV_MAX_PAGES; page++) {
    const { data, summary } = await getTransactions({ ...input.query, page, rowsPerPage: CSV_PAGE_SIZE }, { signal });
    rows.push(...data);
    if (data.length < CSV_PAGE_SIZE || rows.length >= (summary[0]?.total ?? 0)) break;
  }
  const csv = receiptsCsv(rows, input.outletType);
  saveFile(
    new Blob([csv], { type: 'text/csv;charset=utf-8' }),
    `receipts_${input.query.startTime}_${input.query.endTime}.csv`,
    RECEIPTS_FILE_URL_LIFETIME,
  );
  return rows.length;
}

const viewer = createReceiptViewer({
  types: { context: {} as ReceiptsContext, events: {} as ReceiptsEvent },
  list: {
    src: 'receiptsList',
    /** The list's query and total, for the PDF, the link and the CSV. */
    follow: (context, { context: list }: SnapshotFrom<typeof receiptsListMachine>) => {
      const listQuery: ReceiptsListQuery | undefined = pagedListQueryOf(list);
      if (list.total === context.listTotal && JSON.stringify(listQuery) === JSON.stringify(context.listQuery))
        return {};
      return { listQuery, listTotal: list.total, pdfOverCap: receiptsPdfOverCapNotice(list.total) };
    },
  },
  image: {
    what: RECEIPTS_ERROR_WHAT.image,
    canOpen: (context) => context.filters !== undefined,
    input: (context, receiptId) => {
      const { clientId, outletIds } = requireFilters(context);
      return { clientId, outletIds, receiptId };
    },
    load: (input, signal) =>
      getReceiptImage({ client_id: input.clientId, id: input.outletIds, aimbox_id: input.receiptId }, { signal }),
  },
  csv: {
    what: RECEIPTS_ERROR_WHAT.csv,
    canExport: hasReceipts,
    input: (context) => ({ query: requireQuery(context), outletType: requireFilters(context).outletType }),
    save: exportReceiptsCsv,
  },
});

export const receiptsMachine = setup({
  types: {
    context: {} as ReceiptsContext,
    events: {} as ReceiptsEvent,
    emitted: {} as Notice,
    children: {} as { list: 'receiptsList' },
  },
  actors: {
    ...viewer.actors,
    lockHeader,
    fetchOptions: fromPromise(
      async ({ input, signal }: { input: { clientId: number; outletIds: string }; signal: AbortSignal }) => {
        const query = { client_id: input.clientId, id: input.outletIds };
        const [typeFlags, focReasons, paymentMethods] = await Promise.all([
          getReceiptTypeOptions(query, { signal }),
          getFocReasons(query, { signal }),
          getPaymentMethodNames(query, { signal }),
        ]);
        return { typeFlags, focReasons, paymentMethods };
      },
    ),
    receiptsList: receiptsListMachine,
    /** The payment summary and breakdown of the outlets, days and payment methods of the list. */
    fetchPayments: fromPromise(async ({ input, signal }: { input: PaymentsInput; signal: AbortSignal }) => {
      const query = {
        client_id: input.filters.clientId,
        id: input.filters.outletIds,
        startTime: input.filters.startTime,
        endTime: input.filters.endTime,
        ...(input.paymentMethod && { paymentMethod: input.paymentMethod }),
      };
      const [summary, breakdown] = await Promise.all([
        getPaymentAndSum(query, { signal }),
        getPaymentMethodBreakdown(query, { signal }),
      ]);
      return { summary, breakdown };
    }),
    generatePdf: fromCallback<ReceiptsEvent, ReceiptsPdfQuery>(({ input, sendBack }) => {
      let cancelled = false;
      const controller = new AbortController();
      downloadTransactionsPdf(
        input,
        (progress) => {
          if (!cancelled) sendBack({ type: 'pdf.progress', ...progress });
        },
        { signal: controller.signal },
      )
        .then((blob) => {
          if (cancelled) return;
          saveFile(blob, receiptsPdfFileName(input), RECEIPTS_FILE_URL_LIFETIME);
          sendBack({ type: 'pdf.done' });
        })
        .catch((error: unknown) => {
          if (!cancelled)
            sendBack({ type: 'pdf.failed', reason: error instanceof ApiError ? error.serverMessage : undefined });
        });
      return () => {
        cancelled = true;
        controller.abort();
      };
    }),
    copyText: fromPromise(({ input }: { input: { text: string } }) => navigator.clipboard.writeText(input.text)),
    createPdfLink: fromPromise(async ({ input, signal }: { input: ReceiptsPdfQuery; signal: AbortSignal }) => {
      const { url } = await getTransactionsPdfLink(input, { signal });
      return new URL(url, window.location.origin).toString();
    }),
  },
  guards: {
    hasFilters: ({ context }) => context.filters !== undefined,
    /** There are receipts to put in a PDF or a link. */
    hasReceipts: ({ context }) => hasReceipts(context),
    isSameFilters: ({ context, event }) =>
      event.type === 'filters.change' &&
      context.filters !== undefined &&
      JSON.stringify(context.filters) === JSON.stringify(event.filters),
  },
  actions: {
    notify: emit((_, params: { what: string }) => loadFailureNotice(params.what)),
    /** The list loads the page's filters (from page 1). */
    reloadList: sendTo('list', ({ context }) => listFiltersEvent(context)),
    reloadAll: enqueueActions(({ context, enqueue }) => {
      enqueue.raise({ type: 'options.reload' });
      enqueue.raise({ type: 'payments.reload' });
      enqueue.sendTo('list', listFiltersEvent(context));
    }),
    setFilters: assign(({ event }) => (event.type === 'filters.change' ? { filters: event.filters } : {})),
    setReceiptType: assign(({ event }) =>
      event.type === 'receiptType.change' ? { receiptType: event.receiptType } : {},
    ),
    setFocReason: assign(({ event }) => (event.type === 'focReason.change' ? { focReason: event.focReason } : {})),
    togglePaymentMethod: assign(({ context, event }) =>
      event.type === 'paymentMethod.toggle'
        ? {
            selectedPaymentMethods: togglePaymentMethod(
              context.selectedPaymentMethods,
              event.method,
              context.paymentMethods,
            ),
          }
        : {},
    ),
    setReceiptId: assign(({ event }) => (event.type === 'receiptId.search' ? { receiptId: event.receiptId } : {})),
    searchList: sendTo('list', ({ event }) => ({
      type: 'list.search',
      text: event.type === 'receiptId.search' ? event.receiptId : '',
    })),
    resetPayments: assign({ paymentSummary: [], breakdown: [] }),
    resetOptions: assign({ typeFlags: [], focReasons: [], paymentMethods: [] }),
  },
}).createMachine({
  id: 'receipts',
  type: 'parallel',
  context: {
    filters: undefined,
    typeFlags: [],
    receiptType: '',
    focReasons: [],
    focReason: '',
    paymentMethods: [],
    selectedPaymentMethods: [],
    receiptId: '',
    listQuery: undefined,
    listTotal: 0,
    paymentSummary: [],
    breakdown: [],
    image: undefined,
    pdfDownload: undefined,
    pdfOverCap: undefined,
    pdfLink: undefined,
  },
  invoke: viewer.invoke,
  on: {
    'header.filters': {
      actions: enqueueActions(({ event, enqueue }) => {
        const filters = receiptsFiltersOf(event);
        if (filters) enqueue.raise({ type: 'filters.change', filters });
      }),
    },
    'filters.change': [{ guard: 'isSameFilters' }, { actions: ['setFilters', 'reloadAll'] }],
    'receiptType.change': { guard: 'hasFilters', actions: ['setReceiptType', 'reloadList'] },
    'focReason.change': { guard: 'hasFilters', actions: ['setFocReason', 'reloadList'] },
    // The payment summary follows the list's payment methods, so that their totals agree.
    'paymentMethod.toggle': {
      guard: 'hasFilters',
      actions: ['togglePaymentMethod', 'reloadList', raise({ type: 'payments.reload' })],
    },
    'receiptId.search': { guard: 'hasFilters', actions: ['setReceiptId', 'searchList'] },
  },
  states: {
    options: {
      initial: 'idle',
      on: { 'options.reload': { guard: 'hasFilters', target: '.loading' } },
      states: {
        idle: {},
        loading: {
          tags: ['loading'],
          // A region's own reenter would re-enter the sibling regions too: restart from the leaf instead.
          on: { 'options.reload': { guard: 'hasFilters', target: 'loading', reenter: true } },
          invoke: [
            { src: 'lockHeader' },
            {
              src: 'fetchOptions',
              input: ({ context }) => {
                const { clientId, outletIds } = requireFilters(context);
                return { clientId, outletIds };
              },
              onDone: {
                target: 'ready',
                actions: enqueueActions(({ context, event, enqueue }) => {
                  const { typeFlags, focReasons, paymentMethods } = event.output;
                  const receiptType = keepReceiptType(context.receiptType, typeFlags);
                  const focReason = focReasons.includes(context.focReason) ? context.focReason : '';
                  const hadAll = context.selectedPaymentMethods.includes(ALL_PAYMENT_METHODS);
                  const selectedPaymentMethods = hadAll
                    ? [ALL_PAYMENT_METHODS, ...paymentMethods]
                    : context.selectedPaymentMethods.filter((method) => paymentMethods.includes(method));
                  const staleMethods = selectedPaymentMethods.length !== context.selectedPaymentMethods.length;
                  const stale = receiptType !== context.receiptType || focReason !== context.focReason || staleMethods;
                  enqueue.assign({
                    typeFlags,
                    focReasons,
                    paymentMethods,
                    receiptType,
                    focReason,
                    selectedPaymentMethods,
                  });
                  if (stale)
                    enqueue.sendTo(
                      'list',
                      listFiltersEvent({ ...context, receiptType, focReason, selectedPaymentMethods }),
                    );
                  if (staleMethods) enqueue.raise({ type: 'payments.reload' });
                }),
              },
              onError: {
                target: 'ready',
                actions: ['resetOptions', { type: 'notify', params: { what: RECEIPTS_ERROR_WHAT.options } }],
              },
            },
          ],
        },
        ready: {},
      },
    },
    payments: {
      initial: 'idle',
      on: { 'payments.reload': { guard: 'hasFilters', target: '.loading' } },
      states: {
        idle: {},
        loading: {
          tags: ['loading', 'paymentsLoading'],
          on: { 'payments.reload': { guard: 'hasFilters', target: 'loading', reenter: true } },
          invoke: [
            { src: 'lockHeader' },
            {
              src: 'fetchPayments',
              input: ({ context }) => paymentsInputOf(context),
              onDone: {
                target: 'ready',
                actions: assign(({ event }) => ({
                  paymentSummary: event.output.summary,
                  breakdown: event.output.breakdown,
                })),
              },
              onError: {
                target: 'failure',
                actions: ['resetPayments', { type: 'notify', params: { what: RECEIPTS_ERROR_WHAT.payments } }],
              },
            },
          ],
        },
        ready: {},
        failure: {},
      },
    },
    pdf: {
      initial: 'idle',
      states: {
        idle: {
          on: { 'pdf.generate': { guard: 'hasReceipts', target: 'generating' } },
        },
        generating: {
          tags: ['pdfGenerating'],
          entry: assign({ pdfDownload: { received: 0, size: undefined, count: undefined } }),
          invoke: { src: 'generatePdf', input: ({ context }) => requirePdfQuery(context) },
          on: {
            'pdf.progress': {
              actions: assign(({ event }) => ({
                pdfDownload: { received: event.received, size: event.size, count: event.count },
              })),
            },
            'pdf.done': { target: 'idle', actions: assign({ pdfDownload: undefined }) },
            'pdf.failed': {
              target: 'idle',
              actions: [
                assign({ pdfDownload: undefined }),
                emit(({ event }) => failureNotice(RECEIPTS_ERROR_WHAT.pdf, event.reason)),
              ],
            },
          },
        },
      },
    },
    link: {
      initial: 'idle',
      states: {
        idle: { on: { 'link.create': { guard: 'hasReceipts', target: 'creating' } } },
        creating: {
          tags: ['linkCreating'],
          invoke: {
            src: 'createPdfLink',
            input: ({ context }) => requirePdfQuery(context),
            onDone: { target: 'ready', actions: assign(({ event }) => ({ pdfLink: event.output })) },
            onError: { target: 'idle', actions: { type: 'notify', params: { what: RECEIPTS_ERROR_WHAT.link } } },
          },
        },
        ready: {
          initial: 'shown',
          on: { 'link.dismiss': { target: 'idle', actions: assign({ pdfLink: undefined }) } },
          states: {
            shown: { on: { 'link.copy': { target: 'copying' } } },
            /** The link goes to the clipboard; the toast says whether it did. */
            copying: {
              invoke: {
                src: 'copyText',
                input: ({ context }) => ({ text: context.pdfLink ?? '' }),
                onDone: { target: 'shown', actions: emit(LINK_COPIED_NOTICE) },
                onError: { target: 'shown', actions: emit(LINK_NOT_COPIED_NOTICE) },
              },
            },
          },
        },
      },
    },
    ...viewer.states,
  },
});
