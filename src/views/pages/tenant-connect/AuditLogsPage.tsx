import { Card, Classes, HTMLSelect } from '@blueprintjs/core';
import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import type { AuditLogEntry, AuditSortColumn } from '../../../api/audit';
import {
  AUDIT_ENTITY_NAMES,
  auditActionName,
  auditChangeText,
  auditEntityName,
  isAuditEntity,
} from '../../../domain/audit';
import type { CurrencyFormat } from '../../../domain/format';
import { formatDateTime } from '../../../domain/format';
import { AUDIT_ROWS_PER_PAGE_OPTIONS, type auditListMachine, auditLogMachine } from '../../../machines/auditLogMachine';
import { type DataColumn, DataTable } from '../../common/DataTable';
import { useMallCurrency } from '../../common/Money';
import { useNoticeToasts } from '../../common/Notifications';
import { SearchForm } from '../../common/SearchForm';
import { usePageActor } from '../../common/usePageActor';
import { DateRangeHeader } from '../../filters/DateRangeHeader';
import type { PageProps } from '../pageProps';
import './tenantConnect.css';
import { PagedList, type PagedListWording } from '../../common/PagedList';

type ListActor = ActorRefFrom<typeof auditListMachine>;

/** The columns of the log; a change's amounts are in the mall's currency. */
function columnsOf(currency: CurrencyFormat): readonly DataColumn<AuditLogEntry, AuditSortColumn>[] {
  return [
    {
      key: 'when',
      header: 'When',
      kind: 'datetime',
      sort: 'created_at',
      render: (entry) => formatDateTime(entry.created_at),
    },
    { key: 'who', header: 'Who', kind: 'text', sort: 'user_email', render: (entry) => entry.user_email ?? 'System' },
    { key: 'action', header: 'Action', kind: 'text', sort: 'action', render: (entry) => auditActionName(entry.action) },
    {
      key: 'what',
      header: 'What',
      kind: 'text',
      sort: 'entity',
      render: (entry) => (
        <>
          {auditEntityName(entry.entity)}
          {entry.entity_id ? <span className={Classes.TEXT_MUTED}> {entry.entity_id}</span> : null}
        </>
      ),
      text: (entry) =>
        entry.entity_id ? `${auditEntityName(entry.entity)} ${entry.entity_id}` : auditEntityName(entry.entity),
    },
    {
      key: 'change',
      header: 'Change (before → after)',
      kind: 'text',
      render: (entry) => auditChangeText(entry.detail, currency),
    },
  ];
}

/** The longest search the call takes (the contract's maxLength). */
const SEARCH_MAX_LENGTH = 200;
const ENTITY_OPTIONS = [
  { value: '', label: 'Every kind of change' },
  ...Object.entries(AUDIT_ENTITY_NAMES).map(([value, label]) => ({ value, label })),
];

/**
 * Tenant Connect's audit logs: every change made in the product for the client over the header's days (when, who,
 * what, before → after), sortable by any column, filtered by kind of row and by who or which row.
 */
export function AuditLogsPage({ title }: PageProps) {
  const actor = usePageActor(auditLogMachine);
  const list = useSelector(actor, (state) => state?.children.list);
  useNoticeToasts(list);
  const entity = useSelector(actor, (state) => state?.context.entity ?? '');
  return (
    <section className="tenant-connect-page" data-testid="audit-logs-page">
      <DateRangeHeader title={title} />
      <Card className="tenant-connect-card">
        <div className="tenant-connect-toolbar">
          <HTMLSelect
            aria-label="Kind of change"
            data-testid="audit-entity"
            value={entity}
            options={ENTITY_OPTIONS}
            onChange={(event) => {
              const value = event.currentTarget.value;
              actor?.send({ type: 'entity.change', entity: isAuditEntity(value) ? value : undefined });
            }}
          />
          <SearchForm
            label="Search who or which row"
            maxLength={SEARCH_MAX_LENGTH}
            disabled={!list}
            onSearch={(text) => list?.send({ type: 'list.search', text })}
            inputTestId="audit-search"
            buttonTestId="audit-search-button"
          />
        </div>
        {list ? <AuditList list={list} /> : <AuditTable rows={undefined} />}
      </Card>
    </section>
  );
}

const WORDING: PagedListWording = {
  failure: 'The audit log could not be read.',
  emptyIcon: 'history',
  empty: 'No change matches these filters.',
  unit: ['change', 'changes'],
  testId: 'audit',
};

function AuditList({ list }: { readonly list: ListActor }) {
  return (
    <PagedList list={list} wording={WORDING} rowsPerPageOptions={AUDIT_ROWS_PER_PAGE_OPTIONS}>
      {(view) => <AuditTable rows={view.rows} sortColumn={view.sortColumn} order={view.order} onSort={view.onSort} />}
    </PagedList>
  );
}

function AuditTable({
  rows,
  sortColumn,
  order,
  onSort,
}: {
  /** Undefined while loading: skeleton rows. */
  readonly rows: readonly AuditLogEntry[] | undefined;
  readonly sortColumn?: AuditSortColumn;
  readonly order?: 'asc' | 'desc';
  readonly onSort?: (column: AuditSortColumn) => void;
}) {
  const currency = useMallCurrency();
  return (
    <DataTable
      label="Audit log"
      className="audit-table"
      columns={columnsOf(currency)}
      rows={rows}
      rowKey={(entry) => entry.id}
      rowAttributes={() => ({ 'data-testid': 'audit-row' })}
      sortColumn={sortColumn}
      order={order}
      onSort={onSort}
      testIdPrefix="audit"
      skeleton={{ label: 'Loading change', testId: 'audit-skeleton-row' }}
    />
  );
}
