import { getXeroPostings, type XeroPosting, type XeroPostingSortColumn } from '../api/apps';
import { type ApiClient, api } from '../api/client';
import { XERO_POSTINGS_WHAT } from '../domain/apps';
import { createPagedListMachine, type PagedListQuery, type SortOrder } from './factories/pagedListMachine';

/** The posting log of one client. */
export interface XeroPostingsFilters {
  readonly clientId: number;
}

/** The columns the log sorts by (the contract's sortColumn enum). */
export const XERO_POSTINGS_SORT_COLUMNS: readonly XeroPostingSortColumn[] = [
  'day',
  'outlet_name',
  'amount',
  'status',
  'posted_at',
];
export const XERO_POSTINGS_DEFAULT_SORT: { readonly column: XeroPostingSortColumn; readonly order: SortOrder } = {
  column: 'day',
  order: 'desc',
};
export const XERO_POSTINGS_ROWS_PER_PAGE = 10;
export const XERO_POSTINGS_ROWS_PER_PAGE_OPTIONS = [10, 20, 50] as const;

type RowsPerPage = (typeof XERO_POSTINGS_ROWS_PER_PAGE_OPTIONS)[number];
const isRowsPerPage = (value: number): value is RowsPerPage =>
  (XERO_POSTINGS_ROWS_PER_PAGE_OPTIONS as readonly number[]).includes(value);

/** The list's query as the call's parameters. */
export function xeroPostingsLoader(client: ApiClient) {
  return async (
    query: PagedListQuery<XeroPostingsFilters, XeroPostingSortColumn>,
    { signal }: { readonly signal: AbortSignal },
  ) => {
    if (!isRowsPerPage(query.rowsPerPage)) throw new Error(`xeroPostings: ${query.rowsPerPage} rows per page`);
    const page = await getXeroPostings(
      {
        client_id: query.filters.clientId,
        page: query.page,
        rowsPerPage: query.rowsPerPage,
        sortColumn: query.sortColumn,
        order: query.order,
      },
      { signal, client },
    );
    return { rows: page.data, total: page.total };
  };
}

/** The log of the journals posted to Xero (day, outlet, amount, status, journal id), a page at a time. */
export function createXeroPostingsMachine(client: ApiClient = api) {
  return createPagedListMachine<XeroPosting, XeroPostingsFilters, XeroPostingSortColumn>({
    id: 'xeroPostings',
    what: XERO_POSTINGS_WHAT,
    load: xeroPostingsLoader(client),
    rowKey: (row) => `${row.outlet_id}:${row.day}`,
    sortColumns: XERO_POSTINGS_SORT_COLUMNS,
    defaultSort: XERO_POSTINGS_DEFAULT_SORT,
    rowsPerPage: XERO_POSTINGS_ROWS_PER_PAGE,
    rowsPerPageOptions: XERO_POSTINGS_ROWS_PER_PAGE_OPTIONS,
  });
}
