import { Classes, Tag } from '@blueprintjs/core';
import { Cell, Column, ColumnHeaderCell, Table2, TableLoadingOption } from '@blueprintjs/table';
import '@blueprintjs/table/lib/css/table.css';
import { useSelector } from '@xstate/react';
import { type ReactNode, type RefObject, useEffect, useRef, useState } from 'react';
import type { ActorRefFrom } from 'xstate';
import type { ReceiptRow } from '../../../api/receipts';
import { formatNumber } from '../../../domain/format';
import { lastPage } from '../../../domain/paging';
import type { SortColumn } from '../../../domain/receipts';
import { receiptIdCell, receiptStatusTags, receiptsTotalsRule, timeWithDineOut } from '../../../domain/receipts';
import {
  EMPTY_SUMMARY,
  ROWS_PER_PAGE_OPTIONS,
  type receiptsListMachine,
  type receiptsMachine,
} from '../../../machines/receiptsMachine';
import { Money } from '../../common/Money';
import { Pager } from '../../common/Pager';
import { SortButton } from '../../common/SortButton';

interface ColumnSpec {
  readonly key: string;
  readonly name: string;
  readonly sort?: SortColumn;
  readonly width: number;
  readonly extra?: boolean;
  readonly render: (row: ReceiptRow) => ReactNode;
  /** The cell's whole text as its tooltip, when `render` gives more than a string. */
  readonly text?: (row: ReceiptRow) => string;
}

const yesNo = (value: boolean | null | undefined) => (value === true ? 'Yes' : value === false ? 'No' : '');

/** No column is narrowed below this many pixels to fit the grid. */
const MIN_COLUMN_WIDTH = 56;

/**
 * The columns' widths narrowed in proportion so that together they fit `available` pixels (the grid then shows
 * its last column without scrolling sideways); unchanged when they fit or the width is not known yet.
 */
function fitColumnWidths(widths: readonly number[], available: number | undefined): number[] {
  const sum = (values: readonly number[]) => values.reduce((total, value) => total + value, 0);
  let fitted = [...widths];
  if (available === undefined || available <= 0) return fitted;
  // Narrow the columns still above the minimum, again while the ones held at the minimum leave too little room.
  for (let round = 0; round < widths.length && sum(fitted) > available; round += 1) {
    const held = sum(fitted.filter((width) => width <= MIN_COLUMN_WIDTH));
    const flexible = sum(fitted.filter((width) => width > MIN_COLUMN_WIDTH));
    if (flexible === 0) break;
    const scale = (available - held) / flexible;
    fitted = fitted.map((width) =>
      width > MIN_COLUMN_WIDTH ? Math.max(MIN_COLUMN_WIDTH, Math.floor(width * scale)) : width,
    );
  }
  return fitted;
}

/** The width of the element the ref is on, following its changes (the window, the sidebar). */
function useWidth<T extends HTMLElement>(): [RefObject<T | null>, number | undefined] {
  const ref = useRef<T>(null);
  const [width, setWidth] = useState<number | undefined>(undefined);
  // A layout measure: the DOM's size reaches the grid's column widths through a ResizeObserver.
  useEffect(() => {
    const element = ref.current;
    if (!element || typeof ResizeObserver === 'undefined') return undefined;
    const observer = new ResizeObserver(() => setWidth(element.clientWidth));
    observer.observe(element);
    setWidth(element.clientWidth);
    return () => observer.disconnect();
  }, []);
  return [ref, width];
}

export interface ReceiptsTableProps {
  /** The page: the outlet type, and the receipt image. */
  readonly actor: ActorRefFrom<typeof receiptsMachine>;
  /** The paged list: rows, sort, page and rows per page. */
  readonly list: ActorRefFrom<typeof receiptsListMachine>;
}

/**
 * The receipts table (Blueprint Table2): sortable headers (the machine sorts on the server; the table re-renders
 * through `cellRendererDependencies`), the status tags of §4, outlet type 1's extra columns, paging and the summary.
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
  const openImage = (row: ReceiptRow) => send({ type: 'image.open', receiptId: row.receipt_id });
  const [gridRef, gridWidth] = useWidth<HTMLDivElement>();
  const allColumns: ColumnSpec[] = [
    { key: 'date', name: 'Date', sort: 'datetime', width: 110, render: (row) => row.datetime.slice(0, 10) },
    { key: 'time', name: 'Time', width: 150, render: (row) => timeWithDineOut(row.time, row.dine_out_time) },
    {
      key: 'receipt_id',
      name: 'Receipt ID',
      sort: 'receipt_id',
      width: 190,
      render: (row) => {
        const cell = receiptIdCell(row.receipt_id, row.has_image);
        return cell.linked ? (
          <button
            type="button"
            className="receipt-id-link"
            data-testid={`receipt-link-${row.receipt_id}`}
            title={cell.text}
            onClick={() => openImage(row)}
          >
            {cell.text}
          </button>
        ) : (
          <span data-testid={`receipt-id-${row.receipt_id}`} title={cell.text}>
            {cell.text}
          </span>
        );
      },
    },
    {
      key: 'payment_method',
      name: 'Payment Method',
      sort: 'payment_method',
      width: 140,
      render: (row) => row.payment_method,
    },
    {
      key: 'receipt_status',
      name: 'Receipt Status',
      sort: 'receipt_status',
      width: 120,
      render: (row) => row.receipt_status,
    },
    {
      key: 'total_amount',
      name: 'Total Amount',
      sort: 'total_amount',
      width: 120,
      render: (row) => <Money value={row.total_amount} />,
    },
    {
      key: 'discount',
      name: 'Discount',
      sort: 'discount',
      width: 100,
      extra: true,
      render: (row) => <Money value={row.discount} />,
    },
    { key: 'name_reason', name: 'Name / Reason', width: 140, extra: true, render: (row) => row.name_reason ?? '' },
    { key: 'table', name: 'Table', width: 70, extra: true, render: (row) => row.table ?? '' },
    { key: 'take_away', name: 'Take Away', width: 90, extra: true, render: (row) => yesNo(row.take_away) },
    { key: 'delivery_info', name: 'Delivery Info', width: 140, extra: true, render: (row) => row.delivery_info ?? '' },
    {
      key: 'status',
      name: 'Status',
      width: 230,
      extra: true,
      text: (row) =>
        receiptStatusTags(row)
          .map((tag) => tag.label)
          .join(', '),
      render: (row) => (
        <span className="receipt-tags" data-testid={`receipt-tags-${row.receipt_id}`}>
          {receiptStatusTags(row).map((tag) => (
            <Tag
              key={tag.label}
              minimal={tag.minimal}
              intent={
                tag.label === 'Void'
                  ? 'danger'
                  : tag.label === 'Closed'
                    ? 'success'
                    : tag.label === 'Opened'
                      ? 'none'
                      : 'primary'
              }
              className={tag.label === 'Opened' && !tag.minimal ? `receipts-tag ${Classes.DARK}` : 'receipts-tag'}
              data-tag={tag.label}
              data-minimal={tag.minimal}
            >
              {tag.label}
            </Tag>
          ))}
        </span>
      ),
    },
  ];
  const columns = allColumns.filter((column) => extra || !column.extra);

  const header = (column: ColumnSpec) => () => (
    <ColumnHeaderCell
      name={column.name}
      nameRenderer={(name) =>
        column.sort ? (
          <SortButton
            name={name}
            order={sortColumn === column.sort ? order : undefined}
            onSort={() => column.sort && list.send({ type: 'list.sort', column: column.sort })}
            testId={`sort-${column.sort}`}
            announceOrder
          />
        ) : (
          <span>{name}</span>
        )
      }
    />
  );

  const pages = lastPage(summary.total, rowsPerPage);
  return (
    <div data-testid="receipts-table" aria-busy={loading} ref={gridRef}>
      <Table2
        numRows={rows.length}
        enableRowHeader={false}
        enableColumnResizing
        defaultRowHeight={30}
        // The grid's border takes 2 px of its box.
        columnWidths={fitColumnWidths(
          columns.map((column) => column.width),
          gridWidth === undefined ? undefined : gridWidth - 2,
        )}
        cellRendererDependencies={[rows, sortColumn, order, extra, gridWidth]}
        loadingOptions={loading ? [TableLoadingOption.CELLS] : []}
      >
        {columns.map((column) => (
          <Column
            key={column.key}
            id={column.key}
            name={column.name}
            columnHeaderCellRenderer={header(column)}
            cellRenderer={(rowIndex) => {
              const row = rows[rowIndex];
              if (!row) return <Cell />;
              const content = column.render(row);
              // A text cut by a narrow column shows whole as its tooltip.
              const text = column.text?.(row) ?? (typeof content === 'string' ? content : '');
              return (
                <Cell {...(text !== '' && { tooltip: text })}>
                  <span data-col={column.key}>{content}</span>
                </Cell>
              );
            }}
          />
        ))}
      </Table2>
      {rows.length === 0 && !loading ? (
        <p className="receipts-empty" data-testid="receipts-empty">
          No receipts match the filters.
        </p>
      ) : null}
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
