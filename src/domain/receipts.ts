import { type CsvValue, toCsv } from './csv';
import { type FilterHeaderContext, type MallLike, selectedOutletIds } from './filterHeader';
import type { OutletLike } from './filterOptions';
import { formatLocalDateTime, formatNumber } from './format';

/**
 * Pure rules of the Receipts page (§3, §4, §9), shared by the server (grouping, net amount, raw text) and the
 * browser (tags, options, multi-select, labels). No React, no I/O.
 */

/* ---------------------------------------------------------------- receipt types (§4) */

export type ReceiptTypeFlag = 'opened_bill' | 'void' | 'foc_bill' | 'discount' | 'redeem';
export type ReceiptType =
  | 'allReceipts'
  | 'openReceipts'
  | 'voidReceipts'
  | 'focReceipts'
  | 'discountReceipts'
  | 'redeemReceipts';

export interface ReceiptTypeOption {
  readonly value: ReceiptType;
  readonly label: string;
  /** The server flag that must be reported for the option to be shown; none for All. */
  readonly flag: ReceiptTypeFlag | undefined;
}

export const RECEIPT_TYPE_OPTIONS: readonly ReceiptTypeOption[] = [
  { value: 'allReceipts', label: 'All', flag: undefined },
  { value: 'openReceipts', label: 'Opened', flag: 'opened_bill' },
  { value: 'voidReceipts', label: 'Void', flag: 'void' },
  { value: 'focReceipts', label: 'FOC', flag: 'foc_bill' },
  { value: 'discountReceipts', label: 'Discount', flag: 'discount' },
  { value: 'redeemReceipts', label: 'Redeemed', flag: 'redeem' },
];

/** The options to show: All, then the types whose flag the server reports. */
export function receiptTypeOptionsFor(flags: readonly string[]): ReceiptTypeOption[] {
  return RECEIPT_TYPE_OPTIONS.filter((option) => option.flag === undefined || flags.includes(option.flag));
}

/** A selection the options no longer offer resets to empty (''). */
export function keepReceiptType(selected: ReceiptType | '', flags: readonly string[]): ReceiptType | '' {
  if (selected === '') return '';
  return receiptTypeOptionsFor(flags).some((option) => option.value === selected) ? selected : '';
}

/* ---------------------------------------------------------------- payment method multi-select (§4) */

export const ALL_PAYMENT_METHODS = 'all';

/**
 * Ticking or unticking one entry of the payment method multi-select: 'all' selects every method (and 'all');
 * unticking 'all' clears them; unticking a method while 'all' was selected drops 'all' too; ticking the last
 * missing method does not tick 'all' by itself.
 */
export function togglePaymentMethod(selected: readonly string[], method: string, methods: readonly string[]): string[] {
  const isSelected = selected.includes(method);
  if (method === ALL_PAYMENT_METHODS) return isSelected ? [] : [ALL_PAYMENT_METHODS, ...methods];
  if (isSelected) return selected.filter((entry) => entry !== method && entry !== ALL_PAYMENT_METHODS);
  return [...selected, method];
}

/** The query's paymentMethod: undefined (every method) when nothing or 'all' is selected. */
export function paymentMethodQuery(selected: readonly string[]): string[] | undefined {
  if (selected.length === 0 || selected.includes(ALL_PAYMENT_METHODS)) return undefined;
  return [...selected];
}

/* ---------------------------------------------------------------- net amount (§9) */

/** 2 decimals (the net amount). */
const round2 = (value: number) => Math.round(value * 100) / 100;

/** Net amount = sum minus sum times the fee percent (§9), 2 decimals. */
export function netAmount(sum: number, feePercent: number): number {
  return round2(sum - (sum * feePercent) / 100);
}

/* ---------------------------------------------------------------- totals */

/**
 * The rule of the receipts' totals, as the page states it beside them: the list's sum and discount and the
 * payment summary leave out void receipts (the list counts them apart); with payment methods chosen, sums are
 * what was paid with those methods, so the list's sum equals the payment summary's.
 */
export function receiptsTotalsRule(selectedPaymentMethods: readonly string[]): string {
  const voids = 'Totals leave out void receipts.';
  return paymentMethodQuery(selectedPaymentMethods)
    ? `${voids} Sums count only what was paid with the chosen payment methods.`
    : voids;
}

/* ---------------------------------------------------------------- receipt display (§4, §9) */

/** Receipt codes whose raw text comes from the old printer driver. */
export const LEGACY_RECEIPT_CODES: readonly number[] = [99, 100];

/** §9: for codes 99 and 100 tabs become two spaces and replacement characters (U+FFFD) are stripped. */
export function cleanRawReceipt(text: string, receiptCode: number | null | undefined): string {
  if (receiptCode === null || receiptCode === undefined || !LEGACY_RECEIPT_CODES.includes(receiptCode)) return text;
  return text.replace(/\t/g, '  ').replace(/\uFFFD/g, '');
}

export const NO_RECEIPT_ID = 'no receipt id';

/** Instants a bare timestamp may stand for: 2000-01-01 up to 2100-01-01 (UTC), in seconds. */
const TIMESTAMP_FROM = 946_684_800;
const TIMESTAMP_UNTIL = 4_102_444_800;

/** The date and time parts make a real calendar date and clock time (year 1970–2099). */
function isDateTime(year: number, month: number, day: number, hour: number, minute: number, second: number): boolean {
  if (year < 1970 || year > 2099 || month < 1 || month > 12 || hour > 23 || minute > 59 || second > 59) return false;
  return day >= 1 && day <= new Date(Date.UTC(year, month, 0)).getUTCDate();
}

const COMPACT_DATE_TIME = /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})$/;
const ISO_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,6})?)?(?:Z|[+-]\d{2}:?\d{2})?$/i;

/**
 * A receipt id that is a bare timestamp (§9): some points of sale send the time instead of a receipt number.
 * That is a Unix time in seconds (10 digits) or milliseconds (13 digits) between 2000 and 2100, a compact
 * date-time YYYYMMDDHHmmss, or an ISO-like date-time ('2025-06-01T12:30:45', '2025-06-01 12:30', with optional
 * fraction and offset), each a real date and time. Other numbers ('12345', '20250601') are receipt numbers.
 */
export function isBareTimestamp(receiptId: string): boolean {
  const id = receiptId.trim();
  if (/^\d{10}$/.test(id)) return Number(id) >= TIMESTAMP_FROM && Number(id) < TIMESTAMP_UNTIL;
  if (/^\d{13}$/.test(id)) return Number(id) >= TIMESTAMP_FROM * 1000 && Number(id) < TIMESTAMP_UNTIL * 1000;
  const parts = COMPACT_DATE_TIME.exec(id) ?? ISO_DATE_TIME.exec(id);
  if (!parts) return false;
  const [year, month, day, hour, minute, second] = parts.slice(1, 7).map((part) => Number(part ?? 0));
  return isDateTime(year ?? 0, month ?? 0, day ?? 0, hour ?? 0, minute ?? 0, second ?? 0);
}

/** The receipt id as the list, the receipt's dialog, the PDF and the CSV show it: 'no receipt id' for a bare timestamp. */
export function displayReceiptId(receiptId: string): string {
  return isBareTimestamp(receiptId) ? NO_RECEIPT_ID : receiptId;
}

/** A receipt id as the list shows it: its text, and whether it is a link (to the receipt's image). */
export interface ReceiptIdCell {
  readonly text: string;
  readonly linked: boolean;
}

/**
 * The receipt id cell: the text of displayReceiptId; a link only when the receipt has an image to open (its
 * printed text), so a bare timestamp without one is plain 'no receipt id'.
 */
export function receiptIdCell(receiptId: string, hasImage: boolean): ReceiptIdCell {
  return { text: displayReceiptId(receiptId), linked: hasImage };
}

/** The time cell: '12:00:05', or '12:00:05 - 13:10:00' with the dine-out time. */
export function timeWithDineOut(time: string, dineOutTime: string | null | undefined): string {
  return dineOutTime ? `${time} - ${dineOutTime}` : time;
}

export interface StatusFlags {
  readonly opened_bill: boolean;
  readonly void: boolean;
  readonly closed_bill: boolean;
  readonly foc_bill: boolean;
  readonly redeem_bill: boolean;
  readonly discount: number;
}

export interface StatusTag {
  readonly label: 'Opened' | 'Void' | 'Closed' | 'Discount' | 'FOC' | 'Redeemed';
  /** Opened: plain (minimal) when the receipt is also void or closed, otherwise dark. */
  readonly minimal: boolean;
}

/** The status tags of a receipt row, in order (§4). */
export function receiptStatusTags(row: StatusFlags): StatusTag[] {
  const tags: StatusTag[] = [];
  if (row.opened_bill) tags.push({ label: 'Opened', minimal: row.void || row.closed_bill });
  if (row.void) tags.push({ label: 'Void', minimal: false });
  if (row.closed_bill) tags.push({ label: 'Closed', minimal: false });
  if (row.discount > 0) tags.push({ label: 'Discount', minimal: false });
  if (row.foc_bill) tags.push({ label: 'FOC', minimal: false });
  if (row.redeem_bill) tags.push({ label: 'Redeemed', minimal: false });
  return tags;
}

/** The status text of a receipt (the list's receipt_status): Void, Opened (not closed yet) or Closed. */
export function receiptStatusText(row: Pick<StatusFlags, 'void' | 'opened_bill' | 'closed_bill'>): string {
  if (row.void) return 'Void';
  if (row.opened_bill && !row.closed_bill) return 'Opened';
  return 'Closed';
}

/** Breakdown keys are 'YYYY/MM/DD'; the chart labels them 'DD/MM' (§9). */
export function breakdownLabel(key: string): string {
  const match = /^(\d{4})\/(\d{2})\/(\d{2})$/.exec(key);
  return match ? `${match[3]}/${match[2]}` : key;
}

/* ---------------------------------------------------------------- the list query (§4, §7) */

/** The '{what}' of each failure toast of the Receipts page (§8). */
export const RECEIPTS_ERROR_WHAT = {
  list: 'Receipts fetching',
  options: 'Options fetching',
  payments: 'Payment methods fetching',
  image: 'Receipt image fetching',
  pdf: 'PDF generation',
  link: 'Download link',
  csv: 'CSV export',
} as const;

/** The columns the receipts list sorts by (the contract's sortColumn values). */
export const RECEIPT_SORT_COLUMNS = [
  'datetime',
  'total_amount',
  'receipt_id',
  'payment_method',
  'receipt_status',
  'opened_bill',
  'void',
  'closed_bill',
  'foc_bill',
  'redeem_bill',
  'discount',
] as const;
export type SortColumn = (typeof RECEIPT_SORT_COLUMNS)[number];
export type SortOrder = 'asc' | 'desc';

/** The committed outlet and date filters the page reads from the filter header. */
export interface ReceiptsFilters {
  clientId: number;
  /** One outlet id or a comma-joined list. */
  outletIds: string;
  /** 1 shows the extra columns, 2 hides them. */
  outletType: 1 | 2;
  /** YYYY-MM-DD, the mall's local days. */
  startTime: string;
  endTime: string;
}

/** The query of the receipts list (and of its PDF and CSV), as the call takes it. */
export interface TransactionQuery {
  client_id: number;
  id: string;
  startTime: string;
  endTime: string;
  timeType?: 'date' | 'datetime';
  outletType?: 1 | 2;
  receiptType?: ReceiptType;
  focReason?: string;
  paymentMethod?: string[];
  receiptId?: string;
  sortColumn?: SortColumn;
  orderByMethod?: SortOrder;
  page?: number;
  rowsPerPage?: number;
}

/** What the list query is made of: the filters and the page's own choices. */
export interface ReceiptsListChoices {
  readonly filters: ReceiptsFilters | undefined;
  readonly receiptType: ReceiptType | '';
  readonly focReason: string;
  readonly selectedPaymentMethods: readonly string[];
  /** The receipt id search as applied to the list. */
  readonly receiptId: string;
  readonly sortColumn: SortColumn;
  readonly order: SortOrder;
  readonly page: number;
  readonly rowsPerPage: number;
}

/** The filters of the receipts list: the header's, and the page's own choices of type, reason and methods. */
export interface ReceiptsListFilters {
  readonly filters: ReceiptsFilters;
  readonly receiptType: ReceiptType | '';
  readonly focReason: string;
  readonly selectedPaymentMethods: readonly string[];
}

/** A query of the receipts list as the paged list holds it: the receipt id search is its search text. */
export interface ReceiptsListQuery {
  readonly filters: ReceiptsListFilters;
  readonly search: string;
  readonly sortColumn: SortColumn;
  readonly order: SortOrder;
  readonly page: number;
  readonly rowsPerPage: number;
}

/** The list's choices of a paged-list query. */
export function receiptsListChoices(query: ReceiptsListQuery): ReceiptsListChoices {
  const { filters, search, sortColumn, order, page, rowsPerPage } = query;
  return { ...filters, receiptId: search, sortColumn, order, page, rowsPerPage };
}

/** The query of the list (page and sort included); undefined without filters. */
export function transactionQueryOf(
  choices: ReceiptsListChoices,
  overrides: Partial<TransactionQuery> = {},
): TransactionQuery | undefined {
  const filters = choices.filters;
  if (!filters) return undefined;
  const paymentMethod = paymentMethodQuery(choices.selectedPaymentMethods);
  return {
    client_id: filters.clientId,
    id: filters.outletIds,
    startTime: filters.startTime,
    endTime: filters.endTime,
    timeType: 'date',
    outletType: filters.outletType,
    ...(choices.receiptType !== '' && { receiptType: choices.receiptType }),
    ...(choices.focReason !== '' && { focReason: choices.focReason }),
    ...(paymentMethod && { paymentMethod }),
    ...(choices.receiptId.trim() !== '' && { receiptId: choices.receiptId.trim() }),
    sortColumn: choices.sortColumn,
    orderByMethod: choices.order,
    page: choices.page,
    rowsPerPage: choices.rowsPerPage,
    ...overrides,
  };
}

/* ---------------------------------------------------------------- the receipts PDF */

/** The most receipts one PDF holds (the file and the signed link's alike). */
export const RECEIPTS_PDF_CAP = 10_000;

/** What the page says beside Generate PDF. */
export const RECEIPTS_PDF_CAP_TEXT = `The PDF holds every receipt the filters select, up to ${formatNumber(RECEIPTS_PDF_CAP)}.`;

/** The page's notice when the filters select more receipts than a PDF holds; undefined otherwise. */
export function receiptsPdfOverCapNotice(listTotal: number, cap: number = RECEIPTS_PDF_CAP): string | undefined {
  if (listTotal <= cap) return undefined;
  return `Only the first ${formatNumber(cap)} of ${formatNumber(listTotal)} receipts go into the PDF.`;
}

/** The PDF's line under its title: how many receipts it holds, and of how many when the cap cut the selection. */
export function receiptsPdfCountLine(count: number, total: number): string {
  if (count < total) return `First ${formatNumber(count)} of ${formatNumber(total)} receipts`;
  return `${formatNumber(count)} ${count === 1 ? 'receipt' : 'receipts'}`;
}

/** The query of the receipts PDF and of its link: the list's filters and sort, without paging. */
export type ReceiptsPdfQuery = Omit<TransactionQuery, 'page' | 'rowsPerPage'>;

export function receiptsPdfQueryOf(query: TransactionQuery): ReceiptsPdfQuery {
  const { page: _page, rowsPerPage: _rowsPerPage, ...pdfQuery } = query;
  return pdfQuery;
}

/** The file name of the receipts PDF: receipts_<start>_<end>.pdf. */
export function receiptsPdfFileName(query: Pick<TransactionQuery, 'startTime' | 'endTime'>): string {
  return `receipts_${query.startTime.slice(0, 10)}_${query.endTime.slice(0, 10)}.pdf`;
}

/** A byte count as people read it: '820 B', '340 KB', '1.2 MB'. */
export function formatBytes(bytes: number): string {
  if (bytes < 1000) return `${bytes} B`;
  if (bytes < 1_000_000) return `${Math.round(bytes / 1000)} KB`;
  return `${(bytes / 1_000_000).toFixed(1)} MB`;
}

/** How far a PDF download has come: the bytes received, the size when the server said it, the receipts in it. */
export interface ReceiptsPdfDownload {
  readonly received: number;
  readonly size: number | undefined;
  readonly count: number | undefined;
}

/**
 * The progress shown while the PDF downloads: a share (0..1) only when its size is known (the bar is
 * determinate), else undefined (an animated bar); the text says how many receipts and how much has arrived.
 */
export function receiptsPdfProgress(download: ReceiptsPdfDownload): { value: number | undefined; text: string } {
  const { received, size, count } = download;
  const what =
    count === undefined
      ? 'Generating the PDF…'
      : `Generating the PDF of ${formatNumber(count)} ${count === 1 ? 'receipt' : 'receipts'}…`;
  if (size === undefined || size <= 0) {
    return { value: undefined, text: received > 0 ? `${what} ${formatBytes(received)} received` : what };
  }
  const value = Math.min(1, received / size);
  return { value, text: `${what} ${formatBytes(received)} of ${formatBytes(size)} (${Math.round(value * 100)}%)` };
}

/* ---------------------------------------------------------------- CSV export (§7, §9) */

/** The CSV columns of the receipts export (headers title-cased from these keys). */
export const CSV_KEYS = [
  'datetime',
  'receipt_id',
  'receipt_status',
  'payment_method',
  'total_amount',
  'discount',
  'name_reason',
  'table',
  'take_away',
  'delivery_info',
  'status',
] as const;

/** The columns shown only for outlet type 1. */
const OUTLET_TYPE_1_KEYS: readonly string[] = [
  'discount',
  'name_reason',
  'table',
  'take_away',
  'delivery_info',
  'status',
];

/** A receipt row as the export reads it. */
export interface ReceiptCsvRow extends StatusFlags {
  readonly datetime: string;
  readonly receipt_id: string;
  readonly receipt_status: string;
  readonly payment_method: string;
  readonly total_amount: number;
  readonly name_reason?: string | null;
  readonly table?: string | null;
  readonly take_away?: boolean | null;
  readonly delivery_info?: string | null;
}

/** The CSV of the receipts: every column for outlet type 1, the first five otherwise; status as its tags. */
export function receiptsCsv(rows: readonly ReceiptCsvRow[], outletType: 1 | 2): string {
  const keys = outletType === 1 ? CSV_KEYS : CSV_KEYS.filter((key) => !OUTLET_TYPE_1_KEYS.includes(key));
  return toCsv(
    keys,
    rows.map(
      (row): Record<string, CsvValue> => ({
        ...row,
        datetime: formatLocalDateTime(row.datetime),
        receipt_id: displayReceiptId(row.receipt_id),
        status: receiptStatusTags(row)
          .map((tag) => tag.label)
          .join(' '),
      }),
    ),
  );
}

/**
 * The receipts page's filters from the filter header: the client, the outlet(s) chosen, the outlet's type (1 shows
 * the dine-in columns) and the date range. Undefined until a client and an outlet are chosen.
 */
export function receiptsFiltersOf(
  header: Pick<FilterHeaderContext<MallLike, OutletLike & { readonly type?: number | null }>, 'filters' | 'outlets'>,
): ReceiptsFilters | undefined {
  const outletIds = selectedOutletIds(header);
  const { clientId, dateRange } = header.filters;
  if (clientId === undefined || outletIds === '') return undefined;
  const first = outletIds.split(',')[0];
  const outlet = header.outlets.find((entry) => String(entry.id) === first);
  return {
    clientId,
    outletIds,
    outletType: outlet?.type === 1 ? 1 : 2,
    startTime: dateRange.start,
    endTime: dateRange.end,
  };
}
