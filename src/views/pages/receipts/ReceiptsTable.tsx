import { Classes, Tag } from '@blueprintjs/core';
import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import type { ReceiptRow } from '../../../api/receipts';
import { formatLocalDate, formatNumber } from '../../../domain/format';
import { lastPage } from '../../../domain/paging';
import type { SortColumn } from '../../../domain/receipts';
import { receiptStatusTags, receiptsTotalsRule, timeWithDineOut } from '../../../domain/receipts';
import {
  EMPTY_SUMMARY,
  ROWS_PER_PAGE_OPTIONS,
  type receiptsListMachine,
  type receiptsMachine,
} from '../../../machines/receiptsMachine';
import { type DataColumn, DataTable } from '../../common/DataTable';
import { Money } from '../../common/Money';
import { Pager } from '../../common/Pager';
import { ReceiptIdCell } from './ReceiptIdCell';

/** A receipts column; `extra` ones are shown for outlet type 1 only (§9). */
type ReceiptColumn = DataColumn<ReceiptRow, SortColumn> & { readonly extra?: boolean };

const yesNo = (value: boolean | null | undefined) => (value === true ? 'Yes' : value === false ? 'No' : '');

const tagIntent = (label: string) =>
  label === 'Void' ? 'danger' : label === 'Closed' ? 'success' : label === 'Opened' ? 'none' : 'primary';

function StatusTags({ row }: { readonly row: ReceiptRow }) {
  return (
    <span className="receipt-tags" data-testid={`receipt-tags-${row.receipt_id}`}>
      {receiptStatusTags(row).map((tag) => (
        <Tag
          key={tag.label}
          minimal={tag.minimal}
          intent={tagIntent(tag.label)}
          className={tag.label === 'Opened' && !tag.minimal ? `receipts-tag ${Classes.DARK}` : 'receipts-tag'}
          data-tag={tag.label}
          data-minimal={tag.minimal}
        >
          {tag.label}
        </Tag>
      ))}
    </span>
  );
}

export interface ReceiptsTableProps {
  /** The page: the outlet type, and the receipt image. */
  readonly actor: ActorRefFrom<typeof receiptsMachine>;
  /** The paged list: rows, sort, page and rows per page. */
  readonly list: ActorRefFrom<typeof receiptsListMachine>;
}

/**
 * The receipts table (DataTable): sortable headers (the machine sorts on the server), the status tags of §4, outlet
 * type 1's extra columns, paging and the summary.
 */
export function ReceiptsTable({ actor, list }: ReceiptsTableProps) {
  const send = actor.send;
  const rows = useSelector(list, (state) => state.context.rows);
  const sortColumn = useSelector(list, (state) => state.context.sortColumn);
  const order = useSelector(list, (state) => state.context.order);
  const summary = useSelector(list, (state) => state.context.summary ?? EMPTY_SUMMARY);
  const page = useSelector(list, (state) => state.context.page);
  const rowsPerPage = useSelector(list, (state) => state.context.rowsPerPage);
  /** Outlet type 1's extra columns are shown. */
  const extra = useSelector(actor, (state) => state.context.filters?.outletType === 1);
  const totalsRule = useSelector(actor, (state) => receiptsTotalsRule(state.context.selectedPaymentMethods));
  const loading = useSelector(list, (state) => state.hasTag('loading'));
  // The list decides the page bounds, and takes no page change while it loads.
  const canPrevious = useSelector(list, (state) => state.can({ type: 'list.page', page: state.context.page - 1 }));
  const canNext = useSelector(list, (state) => state.can({ type: 'list.page', page: state.context.page + 1 }));
  const openImage = (receiptId: string) => send({ type: 'image.open', receiptId });
  const allColumns: ReceiptColumn[] = [
    { key: 'date', header: 'Date', kind: 'date', sort: 'datetime', render: (row) => formatLocalDate(row.datetime) },
    { key: 'time', header: 'Time', kind: 'datetime', render: (row) => timeWithDineOut(row.time, row.dine_out_time) },
    {
      key: 'receipt_id',
      header: 'Receipt ID',
      kind: 'id',
      sort: 'receipt_id',
      render: (row) => <ReceiptIdCell receiptId={row.receipt_id} hasImage={row.has_image} onOpen={openImage} />,
    },
    {
      key: 'payment_method',
      header: 'Payment Method',
      kind: 'text',
      sort: 'payment_method',
      render: (row) => row.payment_method,
    },
    {
      key: 'receipt_status',
      header: 'Receipt Status',
      kind: 'status',
      sort: 'receipt_status',
      render: (row) => row.receipt_status,
    },
    {
      key: 'total_amount',
      header: 'Total Amount',
      kind: 'money',
      sort: 'total_amount',
      render: (row) => <Money value={row.total_amount} />,
    },
    {
      key: 'discount',
      header: 'Discount',
      kind: 'money',
      sort: 'discount',
      extra: true,
      render: (row) => <Money value={row.discount} />,
    },
    { key: 'name_reason', header: 'Name / Reason', kind: 'text', extra: true, render: (row) => row.name_reason ?? '' },
    { key: 'table', header: 'Table', kind: 'text', extra: true, render: (row) => row.table ?? '' },
    { key: 'take_away', header: 'Take Away', kind: 'status', extra: true, render: (row) => yesNo(row.take_away) },
    {
      key: 'delivery_info',
      header: 'Delivery Info',
      kind: 'text',
      extra: true,
      render: (row) => row.delivery_info ?? '',
    },
    // §9's extra 'status' column: the status tags of §4 (the list's own status is 'Receipt Status').
    { key: 'status', header: 'Status Tags', kind: 'status', extra: true, render: (row) => <StatusTags row={row} /> },
  ];
  const columns = allColumns.filter((column) => extra || !column.extra);

  const pages = lastPage(summary.total, rowsPerPage);
  return (
    <div data-testid="receipts-table" aria-busy={loading}>
      <DataTable
        label="Receipts"
        className="receipts-grid"
        columns={columns}
        rows={loading ? undefined : rows}
        rowKey={(row) => row.id}
        rowAttributes={() => ({ 'data-testid': 'receipt-row' })}
        sortColumn={sortColumn}
        order={order}
        onSort={(column) => list.send({ type: 'list.sort', column })}
        skeleton={{ label: 'Loading receipt', testId: 'receipts-skeleton-row' }}
        empty={{ description: 'No receipts match the filters.', testId: 'receipts-empty' }}
      />
      <div className="receipts-summary" data-testid="receipts-summary">
        <span>
          Receipts: <strong data-testid="summary-total">{formatNumber(summary.total)}</strong>
          {summary.void_count > 0 ? (
            <span data-testid="summary-void"> ({formatNumber(summary.void_count)} void)</span>
          ) : null}
        </span>
        <span>
          Sum:{' '}
          <strong data-testid="summary-sum">
            <Money value={summary.sum} />
          </strong>
        </span>
        <span>
          Discount:{' '}
          <strong data-testid="summary-discount">
            <Money value={summary.discount} />
          </strong>
        </span>
        <span className="receipts-summary-rule" data-testid="receipts-totals-rule">
          {totalsRule}
        </span>
      </div>
      <Pager
        testId="receipts-pager"
        page={page}
        pages={pages}
        canPrevious={canPrevious}
        canNext={canNext}
        rowsPerPage={rowsPerPage}
        rowsPerPageOptions={ROWS_PER_PAGE_OPTIONS}
        onPage={(next) => list.send({ type: 'list.page', page: next })}
        onRowsPerPage={(value) => list.send({ type: 'list.rowsPerPage', rowsPerPage: value })}
      />
    </div>
  );
}
