import { type ApiClient, api } from '../../api/client';
import { getTenantUsers, type TenantUser, type TenantUserSortColumn } from '../../api/tenantManagement';
import { TENANT_USERS_WHAT, type TenantStatusFilter } from '../../domain/tenantManagement';
import { createPagedListMachine, type PagedListQuery, type SortOrder } from '../factories/pagedListMachine';

/** The list's filters: the header's client and the page's status. */
export interface TenantUsersFilters {
  readonly clientId: number;
  readonly status: TenantStatusFilter;
}

export const TENANT_USERS_SORT_COLUMNS: readonly TenantUserSortColumn[] = [
  'name',
  'email',
  'outlets',
  'status',
  'invited_at',
  'last_sign_in_at',
];
export const TENANT_USERS_DEFAULT_SORT: { readonly column: TenantUserSortColumn; readonly order: SortOrder } = {
  column: 'name',
  order: 'asc',
};
export const TENANT_USERS_ROWS_PER_PAGE = 20;
export const TENANT_USERS_ROWS_PER_PAGE_OPTIONS = [10, 20, 50] as const;
type TenantUsersRowsPerPage = (typeof TENANT_USERS_ROWS_PER_PAGE_OPTIONS)[number];
const isRowsPerPage = (value: number): value is TenantUsersRowsPerPage =>
  (TENANT_USERS_ROWS_PER_PAGE_OPTIONS as readonly number[]).includes(value);

/** The list's query as the call's parameters (no status for every status, no search for an empty one). */
export async function loadTenantUsers(
  query: PagedListQuery<TenantUsersFilters, TenantUserSortColumn>,
  { signal, client = api }: { readonly signal: AbortSignal; readonly client?: ApiClient },
) {
  if (!isRowsPerPage(query.rowsPerPage)) throw new Error(`tenant users: ${query.rowsPerPage} rows per page`);
  const { clientId, status } = query.filters;
  const page = await getTenantUsers(
    {
      client_id: clientId,
      page: query.page,
      rowsPerPage: query.rowsPerPage,
      sortColumn: query.sortColumn,
      orderByMethod: query.order,
      ...(status === 'all' ? {} : { status }),
      ...(query.search === '' ? {} : { search: query.search }),
    },
    { signal, client },
  );
  return { rows: page.data, total: page.total };
}

/** The client's tenant users, a paged list sorted and searched on the server. */
export function createTenantUsersListMachine(client: ApiClient = api) {
  return createPagedListMachine<TenantUser, TenantUsersFilters, TenantUserSortColumn>({
    id: 'tenantUsersList',
    what: TENANT_USERS_WHAT,
    load: (query, { signal }) => loadTenantUsers(query, { signal, client }),
    rowKey: (user) => String(user.id),
    sortColumns: TENANT_USERS_SORT_COLUMNS,
    defaultSort: TENANT_USERS_DEFAULT_SORT,
    rowsPerPage: TENANT_USERS_ROWS_PER_PAGE,
    rowsPerPageOptions: TENANT_USERS_ROWS_PER_PAGE_OPTIONS,
  });
}
