import { assign, emit, enqueueActions, fromCallback, fromPromise, raise, setup } from 'xstate';
import { saveFile } from '../api/download';
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
  type ReceiptRow,
  type ReceiptSummary,
} from '../api/receipts';
import { loadFailureNotice, type Notice } from '../domain/messages';
import { lastPage } from '../domain/paging';
import {
  ALL_PAYMENT_METHODS,
  keepReceiptType,
  RECEIPTS_ERROR_WHAT,
  type ReceiptsFilters,
  type ReceiptType,
  receiptsCsv,
  receiptsFiltersOf,
  type SortColumn,
  type SortOrder,
  type TransactionQuery,
  togglePaymentMethod,
  transactionQueryOf,
} from '../domain/receipts';
import { followHeaderFilters, type HeaderFiltersEvent, lockHeader } from './headerLink';

/**
 * The Receipts page (§2, §4, §7, §8): driven by the committed outlet and date filters of the filter header, which
 * it follows (`followHeaderFilters`) and disables while any of its regions loads (`lockHeader`).
 *
 * Parallel regions:
 *   options:  idle ── filters.change ─> loading (receipt types, FOC reasons, payment methods) ─> ready
 *             (a receipt type the server no longer reports resets to empty, and the list is fetched again)
 *   list:     idle ── list.reload ─> loading ─> ready | failure (empty rows, totals 0, toast)
 *             Every filter change goes back to page 1; sorting and paging refetch.
 *   payments: idle ── filters.change ─> loading (payment summary + breakdown) ─> ready | failure
 *   image:    closed ── image.open ─> loading ─> open | closed (toast) ;  image.close ─> closed
 *   pdf:      idle ── pdf.generate ─> generating (progress 0..1) ─> idle (file saved) | idle (toast)
 *   link:     idle ── link.create ─> creating ─> ready (url) ;  link.dismiss ─> idle
 *   csv:      idle ── csv.export ─> exporting (every page of the filter) ─> idle (file saved)
 *
 * A failed fetch emits `notify` with '{what} error occurs. Please try again later.' (5 s).
 */

export interface ReceiptsContext {
  filters: ReceiptsFilters | undefined;
  typeFlags: string[];
  receiptType: ReceiptType | '';
  focReasons: string[];
  focReason: string;
  paymentMethods: string[];
  selectedPaymentMethods: string[];
  /** The receipt id search as applied to the list. */
  receiptId: string;
  sortColumn: SortColumn;
  order: SortOrder;
  page: number;
  rowsPerPage: number;
  rows: ReceiptRow[];
  summary: ReceiptSummary;
  paymentSummary: PaymentSummary[];
  breakdown: BreakdownSeries[];
  image: { receiptId: string; src: string | undefined } | undefined;
  /** 0..1 while the PDF downloads; undefined while its size is unknown. */
  pdfProgress: number | undefined;
  pdfLink: string | undefined;
}

export type ReceiptsEvent =
  | HeaderFiltersEvent
  | { type: 'filters.change'; filters: ReceiptsFilters }
  | { type: 'receiptType.change'; receiptType: ReceiptType | '' }
  | { type: 'focReason.change'; focReason: string }
  | { type: 'paymentMethod.toggle'; method: string }
  | { type: 'receiptId.search'; receiptId: string }
  | { type: 'sort.change'; column: SortColumn; order?: SortOrder }
  | { type: 'page.change'; page: number }
  | { type: 'rowsPerPage.change'; rowsPerPage: number }
  /** Internal (raised): a region fetches again. Regions talk through events, never cross-region targets. */
  | { type: 'list.reload' }
  | { type: 'options.reload' }
  | { type: 'payments.reload' }
  | { type: 'image.open'; receiptId: string }
  | { type: 'image.close' }
  | { type: 'pdf.generate' }
  | { type: 'pdf.progress'; progress: number | undefined }
  | { type: 'pdf.done' }
  | { type: 'pdf.failed' }
  | { type: 'link.create' }
  | { type: 'link.dismiss' }
  | { type: 'csv.export' };

export const DEFAULT_ROWS_PER_PAGE = 10;
const EMPTY_SUMMARY: ReceiptSummary = { total: 0, sum: 0, discount: 0 };

/** The list query of a context that has filters (the states that read it are reached only with filters). */
function requireQuery(context: ReceiptsContext): TransactionQuery {
  const query = transactionQueryOf(context);
  if (!query) throw new Error('receipts: no filters yet');
  return query;
}

function requireFilters(context: ReceiptsContext): ReceiptsFilters {
  if (!context.filters) throw new Error('receipts: no filters yet');
  return context.filters;
}

/** How long a saved PDF's or CSV's object URL lives (ms). */
const RECEIPTS_FILE_URL_LIFETIME = 10_000;
const CSV_PAGE_SIZE = 100;
const CSV_MAX_PAGES = 100;

export const receiptsMachine = setup({
  types: {
    context: {} as ReceiptsContext,
    events: {} as ReceiptsEvent,
    emitted: {} as Notice,
  },
  actors: {
    followHeaderFilters,
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
    fetchTransactions: fromPromise(async ({ input, signal }: { input: TransactionQuery; signal: AbortSignal }) =>
      getTransactions(input, { signal }),
    ),
    fetchPayments: fromPromise(async ({ input, signal }: { input: ReceiptsFilters; signal: AbortSignal }) => {
      const query = {
        client_id: input.clientId,
        id: input.outletIds,
        startTime: input.startTime,
        endTime: input.endTime,
      };
      const [summary, breakdown] = await Promise.all([
        getPaymentAndSum(query, { signal }),
        getPaymentMethodBreakdown(query, { signal }),
      ]);
      return { summary, breakdown };
    }),
    fetchImage: fromPromise(
      async ({
        input,
        signal,
      }: {
        input: { clientId: number; outletIds: string; receiptId: string };
        signal: AbortSignal;
      }) => getReceiptImage({ client_id: input.clientId, id: input.outletIds, aimbox_id: input.receiptId }, { signal }),
    ),
    generatePdf: fromCallback<ReceiptsEvent, TransactionQuery>(({ input, sendBack }) => {
      let cancelled = false;
      const controller = new AbortController();
      downloadTransactionsPdf(
        input,
        (received, total) => {
          if (!cancelled) {
            sendBack({ type: 'pdf.progress', progress: total ? Math.min(1, received / total) : undefined });
          }
        },
        { signal: controller.signal },
      )
        .then((blob) => {
          if (cancelled) return;
          saveFile(
            blob,
            `receipts_${input.startTime}_${input.endTime}_p${input.page ?? 1}.pdf`,
            RECEIPTS_FILE_URL_LIFETIME,
          );
          sendBack({ type: 'pdf.done' });
        })
        .catch(() => {
          if (!cancelled) sendBack({ type: 'pdf.failed' });
        });
      return () => {
        cancelled = true;
        controller.abort();
      };
    }),
    createPdfLink: fromPromise(async ({ input, signal }: { input: TransactionQuery; signal: AbortSignal }) => {
      const { url } = await getTransactionsPdfLink(input, { signal });
      return new URL(url, window.location.origin).toString();
    }),
    exportCsv: fromPromise(
      async ({ input, signal }: { input: { query: TransactionQuery; outletType: 1 | 2 }; signal: AbortSignal }) => {
        const rows: ReceiptRow[] = [];
        for (let page = 1; page <= CSV_MAX_PAGES; page++) {
          const { data, summary } = await getTransactions(
            { ...input.query, page, rowsPerPage: CSV_PAGE_SIZE },
            { signal },
          );
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
      },
    ),
  },
  guards: {
    hasFilters: ({ context }) => context.filters !== undefined,
    /** There are receipts to put in a PDF, a link or a CSV file. */
    hasReceipts: ({ context }) => context.filters !== undefined && context.summary.total > 0,
    isSameFilters: ({ context, event }) =>
      event.type === 'filters.change' &&
      context.filters !== undefined &&
      JSON.stringify(context.filters) === JSON.stringify(event.filters),
    canChangePage: ({ context, event }) =>
      event.type === 'page.change' &&
      event.page >= 1 &&
      event.page !== context.page &&
      event.page <= lastPage(context.summary.total, context.rowsPerPage),
  },
  actions: {
    notify: emit((_, params: { what: string }) => loadFailureNotice(params.what)),
    reloadList: raise({ type: 'list.reload' }),
    reloadAll: enqueueActions(({ enqueue }) => {
      enqueue.raise({ type: 'options.reload' });
      enqueue.raise({ type: 'payments.reload' });
      enqueue.raise({ type: 'list.reload' });
    }),
    setFilters: assign(({ event }) => {
      if (event.type !== 'filters.change') return {};
      return { filters: event.filters, page: 1 };
    }),
    setReceiptType: assign(({ event }) =>
      event.type === 'receiptType.change' ? { receiptType: event.receiptType, page: 1 } : {},
    ),
    setFocReason: assign(({ event }) =>
      event.type === 'focReason.change' ? { focReason: event.focReason, page: 1 } : {},
    ),
    togglePaymentMethod: assign(({ context, event }) =>
      event.type === 'paymentMethod.toggle'
        ? {
            selectedPaymentMethods: togglePaymentMethod(
              context.selectedPaymentMethods,
              event.method,
              context.paymentMethods,
            ),
            page: 1,
          }
        : {},
    ),
    setReceiptId: assign(({ event }) =>
      event.type === 'receiptId.search' ? { receiptId: event.receiptId, page: 1 } : {},
    ),
    setSort: assign(({ context, event }) => {
      if (event.type !== 'sort.change') return {};
      const order: SortOrder =
        event.order ?? (context.sortColumn === event.column && context.order === 'desc' ? 'asc' : 'desc');
      return { sortColumn: event.column, order, page: 1 };
    }),
    setPage: assign(({ event }) => (event.type === 'page.change' ? { page: event.page } : {})),
    setRowsPerPage: assign(({ event }) =>
      event.type === 'rowsPerPage.change' ? { rowsPerPage: event.rowsPerPage, page: 1 } : {},
    ),
    resetList: assign({ rows: [], summary: EMPTY_SUMMARY }),
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
    sortColumn: 'datetime',
    order: 'desc',
    page: 1,
    rowsPerPage: DEFAULT_ROWS_PER_PAGE,
    rows: [],
    summary: EMPTY_SUMMARY,
    paymentSummary: [],
    breakdown: [],
    image: undefined,
    pdfProgress: undefined,
    pdfLink: undefined,
  },
  invoke: { src: 'followHeaderFilters' },
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
    'paymentMethod.toggle': { guard: 'hasFilters', actions: ['togglePaymentMethod', 'reloadList'] },
    'receiptId.search': { guard: 'hasFilters', actions: ['setReceiptId', 'reloadList'] },
    'sort.change': { guard: 'hasFilters', actions: ['setSort', 'reloadList'] },
    'page.change': { guard: 'canChangePage', actions: ['setPage', 'reloadList'] },
    'rowsPerPage.change': { guard: 'hasFilters', actions: ['setRowsPerPage', 'reloadList'] },
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
                  const stale =
                    receiptType !== context.receiptType ||
                    focReason !== context.focReason ||
                    selectedPaymentMethods.length !== context.selectedPaymentMethods.length;
                  enqueue.assign({
                    typeFlags,
                    focReasons,
                    paymentMethods,
                    receiptType,
                    focReason,
                    selectedPaymentMethods,
                  });
                  if (stale) {
                    enqueue.assign({ page: 1 });
                    enqueue.raise({ type: 'list.reload' });
                  }
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
    list: {
      initial: 'idle',
      on: { 'list.reload': { guard: 'hasFilters', target: '.loading' } },
      states: {
        idle: {},
        loading: {
          tags: ['loading', 'listLoading'],
          on: { 'list.reload': { guard: 'hasFilters', target: 'loading', reenter: true } },
          invoke: [
            { src: 'lockHeader' },
            {
              src: 'fetchTransactions',
              input: ({ context }) => requireQuery(context),
              onDone: {
                target: 'ready',
                actions: assign(({ event }) => ({
                  rows: event.output.data,
                  summary: event.output.summary[0] ?? EMPTY_SUMMARY,
                })),
              },
              onError: {
                target: 'failure',
                actions: ['resetList', { type: 'notify', params: { what: RECEIPTS_ERROR_WHAT.list } }],
              },
            },
          ],
        },
        ready: {},
        failure: {},
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
              input: ({ context }) => requireFilters(context),
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
    image: {
      initial: 'closed',
      states: {
        closed: {
          on: {
            'image.open': {
              guard: 'hasFilters',
              target: 'loading',
              actions: assign(({ event }) => ({ image: { receiptId: event.receiptId, src: undefined } })),
            },
          },
        },
        loading: {
          tags: ['imageLoading'],
          invoke: {
            src: 'fetchImage',
            input: ({ context }) => ({
              clientId: requireFilters(context).clientId,
              outletIds: requireFilters(context).outletIds,
              receiptId: context.image?.receiptId ?? '',
            }),
            onDone: {
              target: 'open',
              actions: assign(({ context, event }) => ({
                image: { receiptId: context.image?.receiptId ?? '', src: event.output },
              })),
            },
            onError: {
              target: 'closed',
              actions: [assign({ image: undefined }), { type: 'notify', params: { what: RECEIPTS_ERROR_WHAT.image } }],
            },
          },
          on: { 'image.close': { target: 'closed', actions: assign({ image: undefined }) } },
        },
        open: {
          on: { 'image.close': { target: 'closed', actions: assign({ image: undefined }) } },
        },
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
          entry: assign({ pdfProgress: undefined }),
          invoke: { src: 'generatePdf', input: ({ context }) => requireQuery(context) },
          on: {
            'pdf.progress': { actions: assign(({ event }) => ({ pdfProgress: event.progress })) },
            'pdf.done': { target: 'idle', actions: assign({ pdfProgress: 1 }) },
            'pdf.failed': {
              target: 'idle',
              actions: [
                assign({ pdfProgress: undefined }),
                { type: 'notify', params: { what: RECEIPTS_ERROR_WHAT.pdf } },
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
            input: ({ context }) => requireQuery(context),
            onDone: { target: 'ready', actions: assign(({ event }) => ({ pdfLink: event.output })) },
            onError: { target: 'idle', actions: { type: 'notify', params: { what: RECEIPTS_ERROR_WHAT.link } } },
          },
        },
        ready: { on: { 'link.dismiss': { target: 'idle', actions: assign({ pdfLink: undefined }) } } },
      },
    },
    csv: {
      initial: 'idle',
      states: {
        idle: { on: { 'csv.export': { guard: 'hasReceipts', target: 'exporting' } } },
        exporting: {
          tags: ['csvExporting'],
          invoke: {
            src: 'exportCsv',
            input: ({ context }) => ({ query: requireQuery(context), outletType: requireFilters(context).outletType }),
            onDone: 'idle',
            onError: { target: 'idle', actions: { type: 'notify', params: { what: RECEIPTS_ERROR_WHAT.csv } } },
          },
        },
      },
    },
  },
});
