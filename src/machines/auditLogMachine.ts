import { assign, sendTo, setup } from 'xstate';
import { type AuditLogEntry, type AuditSortColumn, getAuditLogs } from '../api/audit';
import type { CallOptions } from '../api/client';
import type { AuditEntityName } from '../domain/audit';
import { createPagedListMachine, type PagedListQuery, type SortOrder } from './factories/pagedListMachine';
import { followHeaderFilters, type HeaderFiltersEvent } from './headerLink';

/**
 * Tenant Connect's Audit Logs: the client's changes over the header's days, a paged list (the invoked child
 * `list`) that the table sorts and pages itself; this machine tells it the filters: the header's client and days,
 * and the page's kind of row (`entity.change`). The search goes to the list (`list.search`).
 */

export interface AuditLogFilters {
  readonly clientId: number;
  readonly from: string;
  readonly to: string;
  /** Only changes of this kind of row; undefined: every kind. */
  readonly entity: AuditEntityName | undefined;
}

export const AUDIT_LOG_WHAT = 'Audit logs fetching';
export const AUDIT_SORT_COLUMNS: readonly AuditSortColumn[] = ['created_at', 'user_email', 'action', 'entity'];
export const AUDIT_DEFAULT_SORT: { readonly column: AuditSortColumn; readonly order: SortOrder } = {
  column: 'created_at',
  order: 'desc',
};
export const AUDIT_ROWS_PER_PAGE_OPTIONS = [10, 20, 50] as const;
type AuditRowsPerPage = (typeof AUDIT_ROWS_PER_PAGE_OPTIONS)[number];
const isRowsPerPage = (value: number): value is AuditRowsPerPage =>
  (AUDIT_ROWS_PER_PAGE_OPTIONS as readonly number[]).includes(value);

/** The list's query as the call's parameters (no search or entity parameter when there is none). */
export async function loadAuditLogs(
  query: PagedListQuery<AuditLogFilters, AuditSortColumn>,
  { signal, client }: CallOptions & { readonly signal: AbortSignal },
) {
  if (!isRowsPerPage(query.rowsPerPage)) throw new Error(`audit logs: ${query.rowsPerPage} rows per page`);
  const { clientId, from, to, entity } = query.filters;
  const page = await getAuditLogs(
    {
      client_id: clientId,
      from,
      to,
      page: query.page,
      rowsPerPage: query.rowsPerPage,
      sortColumn: query.sortColumn,
      orderByMethod: query.order,
      ...(entity ? { entity } : {}),
      ...(query.search === '' ? {} : { search: query.search }),
    },
    { signal, ...(client ? { client } : {}) },
  );
  return { rows: page.data, total: page.total };
}

export const auditListMachine = createPagedListMachine<AuditLogEntry, AuditLogFilters, AuditSortColumn>({
  id: 'auditList',
  what: AUDIT_LOG_WHAT,
  load: loadAuditLogs,
  rowKey: (entry) => String(entry.id),
  sortColumns: AUDIT_SORT_COLUMNS,
  defaultSort: AUDIT_DEFAULT_SORT,
  rowsPerPage: 20,
  rowsPerPageOptions: AUDIT_ROWS_PER_PAGE_OPTIONS,
});

interface AuditLogContext {
  /** The header's client and days; undefined until the header has a client. */
  readonly scope: { readonly clientId: number; readonly from: string; readonly to: string } | undefined;
  readonly entity: AuditEntityName | undefined;
}

type AuditLogEvent = HeaderFiltersEvent | { type: 'entity.change'; entity: AuditEntityName | undefined };

const filtersOf = (context: AuditLogContext): AuditLogFilters | undefined =>
  context.scope && { ...context.scope, entity: context.entity };

export const auditLogMachine = setup({
  types: {
    context: {} as AuditLogContext,
    events: {} as AuditLogEvent,
    children: {} as { list: 'auditList' },
  },
  actors: { followHeaderFilters, auditList: auditListMachine },
  guards: {
    /** The header's client or days differ from the list's. */
    isNewScope: ({ context, event }) => {
      if (event.type !== 'header.filters') return false;
      const { clientId, dateRange } = event.filters;
      if (clientId === undefined) return false;
      const scope = context.scope;
      return scope?.clientId !== clientId || scope.from !== dateRange.start || scope.to !== dateRange.end;
    },
    isNewEntity: ({ context, event }) => event.type === 'entity.change' && event.entity !== context.entity,
  },
  actions: {
    setScope: assign(({ event }) => {
      if (event.type !== 'header.filters' || event.filters.clientId === undefined) return {};
      const { clientId, dateRange } = event.filters;
      return { scope: { clientId, from: dateRange.start, to: dateRange.end } };
    }),
    setEntity: assign(({ event }) => (event.type === 'entity.change' ? { entity: event.entity } : {})),
    tellList: sendTo('list', ({ context }) => {
      const filters = filtersOf(context);
      if (!filters) throw new Error('audit logs: filters without a client');
      return { type: 'list.filters' as const, filters };
    }),
  },
}).createMachine({
  id: 'auditLog',
  context: { scope: undefined, entity: undefined },
  // The list first: the header's filters, told at once, go to it.
  invoke: [{ id: 'list', src: 'auditList', input: {} }, { src: 'followHeaderFilters' }],
  on: {
    'header.filters': { guard: 'isNewScope', actions: ['setScope', 'tellList'] },
    'entity.change': [
      { guard: ({ context }) => context.scope === undefined, actions: 'setEntity' },
      { guard: 'isNewEntity', actions: ['setEntity', 'tellList'] },
    ],
  },
});
