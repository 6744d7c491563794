import { type ApiClient, api } from '../api/client';
import { type DeviceKey, type DeviceKeySortColumn, type DeviceKeysRowsPerPage, getDeviceKeys } from '../api/deviceKeys';
import { DEVICE_KEYS_WHAT } from '../domain/deviceKeys';
import { createPagedListMachine, type PagedListQuery, type SortOrder } from './factories/pagedListMachine';

/** The list's filters: a mall of the client. */
export interface DeviceKeysFilters {
  readonly clientId: number;
  readonly mallId: number;
}

/** Every column of the table sorts (the contract's sortColumn). */
export const DEVICE_KEYS_SORT_COLUMNS: readonly DeviceKeySortColumn[] = [
  'name',
  'outlet_name',
  'key_prefix',
  'created_at',
  'created_by',
  'last_used_at',
  'revoked_at',
  'revoked_by',
];
export const DEVICE_KEYS_DEFAULT_SORT: { readonly column: DeviceKeySortColumn; readonly order: SortOrder } = {
  column: 'created_at',
  order: 'desc',
};
export const DEVICE_KEYS_ROWS_PER_PAGE_OPTIONS: readonly DeviceKeysRowsPerPage[] = [10, 20, 50];
export const DEVICE_KEYS_ROWS_PER_PAGE: DeviceKeysRowsPerPage = 10;

const isRowsPerPage = (value: number): value is DeviceKeysRowsPerPage =>
  (DEVICE_KEYS_ROWS_PER_PAGE_OPTIONS as readonly number[]).includes(value);

/** The list's query as the call's parameters (no search parameter when there is none). */
export async function loadDeviceKeys(
  query: PagedListQuery<DeviceKeysFilters, DeviceKeySortColumn>,
  { signal, client = api }: { readonly signal: AbortSignal; readonly client?: ApiClient },
) {
  if (!isRowsPerPage(query.rowsPerPage)) throw new Error(`device keys: ${query.rowsPerPage} rows per page`);
  const page = await getDeviceKeys(
    {
      client_id: query.filters.clientId,
      mall_id: query.filters.mallId,
      sortColumn: query.sortColumn,
      orderByMethod: query.order,
      page: query.page,
      rowsPerPage: query.rowsPerPage,
      ...(query.search === '' ? {} : { search: query.search }),
    },
    { signal, client },
  );
  return { rows: page.data, total: page.total };
}

/** The keys of a mall's outlets, a paged list sorted and searched on the server. */
export function createDeviceKeysListMachine(client: ApiClient = api) {
  return createPagedListMachine<DeviceKey, DeviceKeysFilters, DeviceKeySortColumn>({
    id: 'deviceKeysList',
    what: DEVICE_KEYS_WHAT,
    load: (query, { signal }) => loadDeviceKeys(query, { signal, client }),
    rowKey: (key) => String(key.id),
    sortColumns: DEVICE_KEYS_SORT_COLUMNS,
    defaultSort: DEVICE_KEYS_DEFAULT_SORT,
    rowsPerPage: DEVICE_KEYS_ROWS_PER_PAGE,
    rowsPerPageOptions: DEVICE_KEYS_ROWS_PER_PAGE_OPTIONS,
  });
}
