import { Button, Callout, Card } from '@blueprintjs/core';
import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import type { TenantReceipt, TenantReceiptSortColumn } from '../../../api/tenant';
import { formatLocalDateTime } from '../../../domain/format';
import {
  TENANT_RECEIPT_ROWS_PER_PAGE_OPTIONS,
  tenantReceiptDataMachine,
  type tenantReceiptListMachine,
} from '../../../machines/tenantReceiptDataMachine';
import { type DataColumn, DataTable } from '../../common/DataTable';
import { CurrencyContext, Money, useOutletCurrency } from '../../common/Money';
import { useNoticeToasts } from '../../common/Notifications';
import { usePageActor } from '../../common/usePageActor';
import { DateRangeHeader } from '../../filters/DateRangeHeader';
import { FilterHeaderContext } from '../../filters/filterHeaderContext';
import type { PageProps } from '../pageProps';
import { ReceiptIdCell } from '../receipts/ReceiptIdCell';
import { ReceiptImageDialog } from '../receipts/ReceiptImageDialog';
import './tenants.css';
import { PagedList, type PagedListWording } from '../../common/PagedList';

type PageActor = ActorRefFrom<typeof tenantReceiptDataMachine>;
type ListActor = ActorRefFrom<typeof tenantReceiptListMachine>;

/**
 * The tenant's Receipt Data (§2, §7): the receipts of the outlet chosen in the top bar over the header's days, a
 * paged table sorted by any column on the server, each receipt's image, and the CSV of the rows shown.
 */
export function TenantReceiptDataPage({ title }: PageProps) {
  const actor = usePageActor(tenantReceiptDataMachine);
  useNoticeToasts(actor);
  const list = useSelector(actor, (state) => state?.children.list);
  useNoticeToasts(list);
  const currency = useOutletCurrency();
  return (
    <CurrencyContext.Provider value={currency}>
      <section className="tenants-page" data-testid="tenant-receipt-data-page">
        <DateRangeHeader title={title} />
        {actor && list ? (
          <ReceiptDataBody actor={actor} list={list} />
        ) : (
          <Card className="tenants-card">
            <ReceiptTable rows={undefined} />
          </Card>
        )}
      </section>
    </CurrencyContext.Provider>
  );
}

function ReceiptDataBody({ actor, list }: { readonly actor: PageActor; readonly list: ListActor }) {
  const send = actor.send;
  const hasOutlet = useSelector(actor, (state) => state.context.filters !== undefined);
  const canExport = useSelector(actor, (state) => state.can({ type: 'csv.export' }));
  const exporting = useSelector(actor, (state) => state.hasTag('csvExporting'));
  const image = useSelector(actor, (state) => state.context.image);
  const imageLoading = useSelector(actor, (state) => state.hasTag('imageLoading'));
  // Until the header has chosen the outlet: skeleton rows while its outlets load, else the reason for no rows.
  const outletsLoading = FilterHeaderContext.useSelector((state) => state.hasTag('outletsLoading'));
  return (
    <>
      {hasOutlet ? (
        <Card className="tenants-card">
          <ReceiptList actor={actor} list={list} />
          <div className="tenants-actions">
            <Button
              icon="export"
              text="Export CSV"
              data-testid="trd-export-csv"
              loading={exporting}
              disabled={!canExport}
              onClick={() => send({ type: 'csv.export' })}
            />
          </div>
        </Card>
      ) : outletsLoading ? (
        <Card className="tenants-card">
          <ReceiptTable rows={undefined} />
        </Card>
      ) : (
        <Callout intent="primary" data-testid="trd-choose-outlet">
          Choose an Outlet to see its receipts.
        </Callout>
      )}
      <ReceiptImageDialog
        receiptId={image?.receiptId}
        src={image?.src}
        loading={imageLoading}
        onClose={() => send({ type: 'image.close' })}
      />
    </>
  );
}

const WORDING: PagedListWording = {
  failure: 'The receipts could not be read.',
  emptyIcon: 'th',
  empty: 'No receipt in these days.',
  unit: ['receipt', 'receipts'],
  testId: 'trd',
};

function ReceiptList({ actor, list }: { readonly actor: PageActor; readonly list: ListActor }) {
  return (
    <PagedList list={list} wording={WORDING} rowsPerPageOptions={TENANT_RECEIPT_ROWS_PER_PAGE_OPTIONS}>
      {(view) => (
        <ReceiptTable
          rows={view.rows}
          sortColumn={view.sortColumn}
          order={view.order}
          onSort={view.onSort}
          onOpen={(receiptId) => actor.send({ type: 'image.open', receiptId })}
        />
      )}
    </PagedList>
  );
}

function ReceiptTable({
  rows,
  sortColumn,
  order,
  onSort,
  onOpen,
}: {
  /** Undefined while loading: skeleton rows. */
  readonly rows: readonly TenantReceipt[] | undefined;
  readonly sortColumn?: TenantReceiptSortColumn;
  readonly order?: 'asc' | 'desc';
  readonly onSort?: (column: TenantReceiptSortColumn) => void;
  readonly onOpen?: (receiptId: string) => void;
}) {
  const columns: readonly DataColumn<TenantReceipt, TenantReceiptSortColumn>[] = [
    {
      key: 'receipt_id',
      header: 'Receipt ID',
      kind: 'id',
      sort: 'receipt_id',
      render: (row) => (
        <ReceiptIdCell receiptId={row.receipt_id} hasImage={row.has_image} onOpen={onOpen} testIdPrefix="trd-" />
      ),
    },
    {
      key: 'datetime',
      header: 'Date and Time',
      kind: 'datetime',
      sort: 'datetime',
      render: (row) => formatLocalDateTime(row.datetime),
    },
    {
      key: 'total_amount',
      header: 'Amount',
      kind: 'money',
      sort: 'total_amount',
      render: (row) => (
        <span data-testid="trd-amount">
          <Money value={row.total_amount} />
        </span>
      ),
    },
    {
      key: 'receipt_status',
      header: 'Status',
      kind: 'status',
      sort: 'receipt_status',
      render: (row) => row.receipt_status,
    },
  ];
  return (
    <DataTable
      label="Receipts"
      className="tenant-receipt-table"
      testId="trd-table"
      columns={columns}
      rows={rows}
      rowKey={(row) => row.id}
      rowAttributes={() => ({ 'data-testid': 'trd-row' })}
      sortColumn={sortColumn}
      order={order}
      onSort={onSort}
      testIdPrefix="trd"
      skeleton={{ label: 'Loading receipt', testId: 'trd-skeleton-row' }}
    />
  );
}
