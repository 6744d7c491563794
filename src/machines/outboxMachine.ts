import { getOutbox, type OutboxMail, type OutboxSortColumn } from '../api/admin';
import { errorOccurs } from '../domain/messages';
import {
  createPagedListMachine,
  type PagedListInput,
  type PagedListQuery,
  type SortOrder,
} from './factories/pagedListMachine';

/** The outbox has no header filters: one constant value, given as input, so that the list loads at once. */
export type OutboxFilters = Readonly<Record<string, never>>;
export const OUTBOX_FILTERS: OutboxFilters = {};
export const OUTBOX_INPUT: PagedListInput<OutboxFilters> = { filters: OUTBOX_FILTERS };

export const OUTBOX_WHAT = 'Outbox fetching';
export const OUTBOX_ERROR = errorOccurs(OUTBOX_WHAT);
/** The columns the outbox table sorts by (the contract's sortColumn enum). */
export const OUTBOX_SORT_COLUMNS: readonly OutboxSortColumn[] = ['created_at', 'recipient', 'subject'];
export const OUTBOX_DEFAULT_SORT: { readonly column: OutboxSortColumn; readonly order: SortOrder } = {
  column: 'created_at',
  order: 'desc',
};
export const OUTBOX_ROWS_PER_PAGE = 20;
export const OUTBOX_ROWS_PER_PAGE_OPTIONS = [10, 20, 50] as const;

type OutboxRowsPerPage = (typeof OUTBOX_ROWS_PER_PAGE_OPTIONS)[number];
const isRowsPerPage = (value: number): value is OutboxRowsPerPage =>
  (OUTBOX_ROWS_PER_PAGE_OPTIONS as readonly number[]).includes(value);

/** The list's query as the call's parameters (no search parameter for an empty search). */
export async function loadOutbox(
  query: PagedListQuery<OutboxFilters, OutboxSortColumn>,
  { signal }: { readonly signal: AbortSignal },
) {
  if (!isRowsPerPage(query.rowsPerPage)) throw new Error(`outbox: ${query.rowsPerPage} rows per page`);
  const page = await getOutbox(
    {
      page: query.page,
      rowsPerPage: query.rowsPerPage,
      sortColumn: query.sortColumn,
      order: query.order,
      ...(query.search === '' ? {} : { search: query.search }),
    },
    { signal },
  );
  return { rows: page.data, total: page.total };
}

/** The local outbox for the super admin: the mails the server kept instead of sending them (no SMTP server). */
export const outboxMachine = createPagedListMachine<OutboxMail, OutboxFilters, OutboxSortColumn>({
  id: 'outbox',
  what: OUTBOX_WHAT,
  load: loadOutbox,
  rowKey: (mail) => String(mail.id),
  sortColumns: OUTBOX_SORT_COLUMNS,
  defaultSort: OUTBOX_DEFAULT_SORT,
  rowsPerPage: OUTBOX_ROWS_PER_PAGE,
  rowsPerPageOptions: OUTBOX_ROWS_PER_PAGE_OPTIONS,
});
