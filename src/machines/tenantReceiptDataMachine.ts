import { assign, enqueueActions, type SnapshotFrom, setup } from 'xstate';
import type { CallOptions } from '../api/client';
import { saveFile } from '../api/download';
import { getReceiptImage } from '../api/receipts';
import { getTenantReceiptData, type TenantReceipt, type TenantReceiptSortColumn } from '../api/tenant';
import { csvFileTexts } from '../domain/csv';
import { formatLocalDateTime } from '../domain/format';
import type { Notice } from '../domain/messages';
import { displayReceiptId } from '../domain/receipts';
import { createPagedListMachine, type PagedListQuery, type SortOrder } from './factories/pagedListMachine';
import {
  createReceiptViewer,
  type ReceiptViewerContext,
  type ReceiptViewerEvent,
  type ReceiptViewerTag,
} from './factories/receiptViewerMachine';
import type { HeaderFiltersEvent } from './headerLink';

/**
 * The Tenants' Receipt Data page (§2, §7): the receipts of the outlet chosen in the top bar (one outlet) over the
 * header's days, a paged list (the invoked child `list`) that the table sorts and pages itself; this machine tells
 * it the filters and keeps what the list shows, for the receipt image and the CSV of the page's rows. A receipt
 * viewer (factories/receiptViewerMachine): its image and csv regions are the factory's.
 *
 *   (root)  header.filters ─> list.filters (a new client, outlet or range); no outlet: no filters
 *   image:  closed ── image.open (a receipt of the rows shown) ─> loading ─> open | closed (toast) ;
 *           image.close ─> closed
 *   csv:    idle ── csv.export (rows shown) ─> exporting ─> idle (file saved) | idle (toast)
 */

export interface TenantReceiptFilters {
  readonly clientId: number;
  readonly outletId: number;
  /** YYYY-MM-DD, the mall's local days, both included. */
  readonly startTime: string;
  readonly endTime: string;
}

/** The '{what}' of each failure toast of the page (§8). */
export const TENANT_RECEIPT_WHAT = {
  list: 'Receipt data fetching',
  image: 'Receipt image fetching',
  csv: 'CSV export',
} as const;

export const TENANT_RECEIPT_SORT_COLUMNS: readonly TenantReceiptSortColumn[] = [
  'datetime',
  'total_amount',
  'receipt_id',
  'receipt_status',
];
export const TENANT_RECEIPT_DEFAULT_SORT: { readonly column: TenantReceiptSortColumn; readonly order: SortOrder } = {
  column: 'datetime',
  order: 'desc',
};
export const TENANT_RECEIPT_ROWS_PER_PAGE = 10;
export const TENANT_RECEIPT_ROWS_PER_PAGE_OPTIONS = [10, 20, 50] as const;
type TenantRowsPerPage = (typeof TENANT_RECEIPT_ROWS_PER_PAGE_OPTIONS)[number];
const isRowsPerPage = (value: number): value is TenantRowsPerPage =>
  (TENANT_RECEIPT_ROWS_PER_PAGE_OPTIONS as readonly number[]).includes(value);

export type TenantReceiptListQuery = PagedListQuery<TenantReceiptFilters, TenantReceiptSortColumn>;

/** The list's query as the call's parameters. */
export async function loadTenantReceipts(
  query: TenantReceiptListQuery,
  { signal, client }: CallOptions & { readonly signal: AbortSignal },
) {
  if (!isRowsPerPage(query.rowsPerPage)) throw new Error(`receipt data: ${query.rowsPerPage} rows per page`);
  const { clientId, outletId, startTime, endTime } = query.filters;
  const answer = await getTenantReceiptData(
    {
      client_id: clientId,
      id: String(outletId),
      startTime,
      endTime,
      page: query.page,
      rowsPerPage: query.rowsPerPage,
      sortColumn: query.sortColumn,
      orderByMethod: query.order,
    },
    { signal, ...(client ? { client } : {}) },
  );
  return { rows: answer.data, total: answer.summary[0]?.total ?? 0 };
}

export const tenantReceiptListMachine = createPagedListMachine<
  TenantReceipt,
  TenantReceiptFilters,
  TenantReceiptSortColumn
>({
  id: 'tenantReceiptList',
  what: TENANT_RECEIPT_WHAT.list,
  load: loadTenantReceipts,
  rowKey: (row) => String(row.id),
  sortColumns: TENANT_RECEIPT_SORT_COLUMNS,
  defaultSort: TENANT_RECEIPT_DEFAULT_SORT,
  rowsPerPage: TENANT_RECEIPT_ROWS_PER_PAGE,
  rowsPerPageOptions: TENANT_RECEIPT_ROWS_PER_PAGE_OPTIONS,
});

/** The outlet the header has chosen, with its currency (ISO 4217) when the outlets are known. */
interface ChosenOutlet {
  readonly filters: TenantReceiptFilters;
  readonly currency: string | undefined;
}

/**
 * The page's filters from the header: its client, its one outlet (single outlet mode: 'All Outlets' or none is
 * no outlet) and its days. Undefined until a client and an outlet are chosen.
 */
export function tenantReceiptFiltersOf(
  event: Pick<HeaderFiltersEvent, 'filters' | 'outlets'>,
): ChosenOutlet | undefined {
  const { clientId, outlet, dateRange } = event.filters;
  if (clientId === undefined || typeof outlet !== 'number') return undefined;
  const currency = event.outlets.find((candidate) => candidate.id === outlet)?.currency;
  return {
    filters: { clientId, outletId: outlet, startTime: dateRange.start, endTime: dateRange.end },
    currency: currency ?? undefined,
  };
}

/** What the table shows of the list: its rows and page (only while it shows them: loaded). */
export interface ShownRows {
  readonly rows: readonly TenantReceipt[];
  readonly page: number;
}

/** The CSV of the rows shown: the table's columns, the receipt id as the table shows it, and the currency. */
export function tenantReceiptsCsv(
  filters: TenantReceiptFilters,
  shown: ShownRows,
  currency: string | undefined,
): { fileName: string; text: string } {
  const [file] = csvFileTexts(`${filters.outletId}_${filters.startTime}_${filters.endTime}_page_${shown.page}`, [
    {
      name: 'receipt_data',
      keys: ['receipt_id', 'datetime', 'total_amount', 'receipt_status'],
      rows: shown.rows.map((row) => ({
        receipt_id: displayReceiptId(row.receipt_id),
        datetime: formatLocalDateTime(row.datetime),
        total_amount: row.total_amount,
        receipt_status: row.receipt_status,
      })),
      ...(currency ? { currency } : {}),
    },
  ]);
  if (!file) throw new Error('receipt data: no CSV file');
  return file;
}

export interface TenantReceiptDataContext extends ReceiptViewerContext {
  readonly filters: TenantReceiptFilters | undefined;
  readonly currency: string | undefined;
  /** The list's rows while it shows them; undefined while it loads, fails, is empty or has no filters. */
  readonly shown: ShownRows | undefined;
}

export type TenantReceiptDataEvent = HeaderFiltersEvent | ReceiptViewerEvent;

export type TenantReceiptDataTag = ReceiptViewerTag;

/** How long a saved CSV's object URL lives (ms). */
const CSV_URL_LIFETIME = 10_000;

const viewer = createReceiptViewer({
  types: { context: {} as TenantReceiptDataContext, events: {} as TenantReceiptDataEvent },
  list: {
    src: 'tenantReceiptList',
    follow: (context, snapshot: SnapshotFrom<typeof tenantReceiptListMachine>) => {
      const shown =
        snapshot.matches('loaded') && context.filters !== undefined
          ? { rows: snapshot.context.rows, page: snapshot.context.page }
          : undefined;
      return shown?.rows === context.shown?.rows && shown?.page === context.shown?.page ? {} : { shown };
    },
  },
  image: {
    what: TENANT_RECEIPT_WHAT.image,
    /** A receipt with an image among the rows the table shows. */
    canOpen: (context, receiptId) =>
      context.filters !== undefined &&
      (context.shown?.rows.some((row) => row.receipt_id === receiptId && row.has_image) ?? false),
    input: (context, receiptId) => {
      if (!context.filters) throw new Error('receipt data: no receipt to show');
      const { clientId, outletId } = context.filters;
      return { clientId, outletId, receiptId };
    },
    load: (input, signal) =>
      getReceiptImage(
        { client_id: input.clientId, id: String(input.outletId), aimbox_id: input.receiptId },
        { signal },
      ),
  },
  csv: {
    what: TENANT_RECEIPT_WHAT.csv,
    canExport: (context) => context.filters !== undefined && (context.shown?.rows.length ?? 0) > 0,
    input: (context) => {
      if (!context.filters || !context.shown) throw new Error('receipt data: no rows to export');
      return tenantReceiptsCsv(context.filters, context.shown, context.currency);
    },
    save: async (input) =>
      saveFile(new Blob([input.text], { type: 'text/csv;charset=utf-8' }), input.fileName, CSV_URL_LIFETIME),
  },
});

export const tenantReceiptDataMachine = setup({
  types: {
    context: {} as TenantReceiptDataContext,
    events: {} as TenantReceiptDataEvent,
    emitted: {} as Notice,
    tags: {} as TenantReceiptDataTag,
    children: {} as { list: 'tenantReceiptList' },
  },
  actors: { ...viewer.actors, tenantReceiptList: tenantReceiptListMachine },
  guards: {
    /** The header's client, outlet or days differ from the list's (or the outlet is gone). */
    isNewFilters: ({ context, event }) => {
      if (event.type !== 'header.filters') return false;
      const chosen = tenantReceiptFiltersOf(event);
      return JSON.stringify(chosen?.filters) !== JSON.stringify(context.filters);
    },
    hasChosenOutlet: ({ event }) => event.type === 'header.filters' && tenantReceiptFiltersOf(event) !== undefined,
  },
  actions: {
    setFilters: assign(({ event }) => {
      if (event.type !== 'header.filters') return {};
      const chosen = tenantReceiptFiltersOf(event);
      return { filters: chosen?.filters, currency: chosen?.currency, ...(chosen ? {} : { shown: undefined }) };
    }),
    setCurrency: assign(({ event }) =>
      event.type === 'header.filters' ? { currency: tenantReceiptFiltersOf(event)?.currency } : {},
    ),
    /** The list loads the page's filters (from page 1); without an outlet it keeps what it has. */
    tellList: enqueueActions(({ context, enqueue }) => {
      if (context.filters) enqueue.sendTo('list', { type: 'list.filters' as const, filters: context.filters });
    }),
  },
}).createMachine({
  id: 'tenantReceiptData',
  type: 'parallel',
  context: { filters: undefined, currency: undefined, shown: undefined, image: undefined },
  invoke: viewer.invoke,
  on: {
    'header.filters': [
      { guard: 'isNewFilters', actions: ['setFilters', 'tellList'] },
      { guard: 'hasChosenOutlet', actions: 'setCurrency' },
    ],
  },
  states: viewer.states,
});
