import { Button, Card, Classes, H5, InputGroup, Menu, MenuItem, PopoverNext, Spinner } from '@blueprintjs/core';
import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import type { Sku } from '../../../api/outletReports';
import { formatNumber } from '../../../domain/format';
import {
  type RankedSku,
  rankingText,
  skuLabel,
  sortSkuPage,
  TOP_SKU_ROWS_PER_PAGE_OPTIONS,
  type TopSkuColumn,
  type TopSkuPageSort,
} from '../../../domain/salesAnalysis';
import {
  type createSkuSearchMachine,
  type createTopSkusListMachine,
  type createTopSkusMachine,
  SKU_SEARCH_MAX_LENGTH,
  type TopSkuTotals,
} from '../../../machines/tenantConnect/topSkusMachine';
import { type DataColumn, DataTable } from '../../common/DataTable';
import { Money, useCurrency } from '../../common/Money';
import { useNoticeToasts } from '../../common/Notifications';
import { PagedList, type PagedListWording } from '../../common/PagedList';

type TopSkusActor = ActorRefFrom<ReturnType<typeof createTopSkusMachine>>;
type ListActor = ActorRefFrom<ReturnType<typeof createTopSkusListMachine>>;
type SearchActor = ActorRefFrom<ReturnType<typeof createSkuSearchMachine>>;

const COLUMN_NAMES: Readonly<Record<TopSkuColumn, string>> = {
  rank: '#',
  item_name: 'Item',
  barcode: 'Barcode',
  quantity: 'Quantity',
  unit_price: 'Unit Price',
  amount: 'Amount',
};

const WORDING: PagedListWording = {
  failure: 'The top SKUs could not be loaded.',
  emptyIcon: 'box',
  empty: 'Nothing was sold in these days.',
  unit: ['SKU', 'SKUs'],
  testId: 'sa-skus',
};

const PICKED_WORDING: PagedListWording = { ...WORDING, empty: 'This SKU sold nothing in these days.' };

/**
 * The top SKUs: the outlet's SKUs ranked by quantity or revenue, a page at a time, every column sortable (quantity
 * and amount rank every SKU on the server; the other columns order the page shown), narrowed to one SKU by the
 * search, and exported whole as CSV.
 */
export function TopSkusSection({ topSkus }: { readonly topSkus: TopSkusActor | undefined }) {
  useNoticeToasts(topSkus);
  const list = useSelector(topSkus, (state) => state?.children.list);
  const search = useSelector(topSkus, (state) => state?.children.search);
  useNoticeToasts(list);
  useNoticeToasts(search);
  const sku = useSelector(topSkus, (state) => state?.context.sku);
  const pageSort = useSelector(topSkus, (state) => state?.context.pageSort);
  const listSort = useSelector(topSkus, (state) => state?.context.listSort);
  const exporting = useSelector(topSkus, (state) => state?.hasTag('exporting') === true);
  const canExport = useSelector(topSkus, (state) => state?.can({ type: 'skus.export' }) === true);
  const currency = useCurrency();
  return (
    <Card className="report-block" data-testid="sa-skus">
      <H5>Top SKUs</H5>
      <div className="sa-toolbar">
        {search ? (
          <SkuSearch
            search={search}
            picked={sku}
            onPick={(picked) => topSkus?.send({ type: 'skus.pick', sku: picked })}
            onClear={() => topSkus?.send({ type: 'skus.clear' })}
          />
        ) : null}
        <span className={Classes.TEXT_MUTED} data-testid="sa-skus-ranking">
          {listSort ? rankingText(listSort.column, listSort.order) : ''}
          {pageSort ? ` · this page by ${COLUMN_NAMES[pageSort.column].toLowerCase()}` : ''}
        </span>
        <Button
          className="sa-toolbar-end"
          icon="download"
          data-testid="sa-skus-export"
          loading={exporting}
          disabled={!canExport}
          onClick={() => topSkus?.send({ type: 'skus.export', currency: currency.code })}
        >
          Export CSV
        </Button>
      </div>
      {list ? (
        <SkuList
          list={list}
          pageSort={pageSort}
          picked={sku !== undefined}
          onSort={(column) => topSkus?.send({ type: 'skus.sort', column })}
        />
      ) : (
        <SkuTable rows={undefined} totals={undefined} sort={undefined} onSort={undefined} />
      )}
    </Card>
  );
}

function SkuList({
  list,
  pageSort,
  picked,
  onSort,
}: {
  readonly list: ListActor;
  readonly pageSort: TopSkuPageSort;
  readonly picked: boolean;
  readonly onSort: (column: TopSkuColumn) => void;
}) {
  const totals = useSelector(list, (state) => state.context.summary);
  return (
    <PagedList
      list={list}
      wording={picked ? PICKED_WORDING : WORDING}
      rowsPerPageOptions={TOP_SKU_ROWS_PER_PAGE_OPTIONS}
    >
      {(view) => (
        <SkuTable
          rows={view.rows && sortSkuPage(view.rows, pageSort)}
          totals={totals}
          sort={pageSort ?? { column: view.sortColumn, order: view.order }}
          onSort={onSort}
        />
      )}
    </PagedList>
  );
}

/** A figure with a bar of its share of the largest of the ranking (decorative: the figure is the text). */
function Bar({ value, max }: { readonly value: number; readonly max: number | undefined }) {
  const width = max && max > 0 ? Math.max(0, Math.min(100, (value / max) * 100)) : 0;
  return (
    <span className="sa-bar" aria-hidden="true">
      <span className="sa-bar-fill" style={{ width: `${width}%` }} />
    </span>
  );
}

/** The ranking's columns; quantity and amount draw their share of the largest of the ranking (`totals`). */
function skuColumns(totals: TopSkuTotals | undefined): readonly DataColumn<RankedSku, TopSkuColumn>[] {
  return [
    { key: 'rank', header: COLUMN_NAMES.rank, kind: 'count', sort: 'rank', render: (row) => formatNumber(row.rank) },
    {
      key: 'item_name',
      header: COLUMN_NAMES.item_name,
      kind: 'text',
      sort: 'item_name',
      render: (row) => row.item_name,
    },
    { key: 'barcode', header: COLUMN_NAMES.barcode, kind: 'id', sort: 'barcode', render: (row) => row.barcode ?? '—' },
    {
      key: 'quantity',
      header: COLUMN_NAMES.quantity,
      kind: 'count',
      sort: 'quantity',
      text: (row) => formatNumber(row.quantity),
      render: (row) => (
        <>
          {formatNumber(row.quantity)}
          <Bar value={row.quantity} max={totals?.max_quantity} />
        </>
      ),
    },
    {
      key: 'unit_price',
      header: COLUMN_NAMES.unit_price,
      kind: 'money',
      sort: 'unit_price',
      render: (row) => <Money value={row.unit_price} />,
    },
    {
      key: 'amount',
      header: COLUMN_NAMES.amount,
      kind: 'money',
      sort: 'amount',
      render: (row) => (
        <>
          <Money value={row.amount} />
          <Bar value={row.amount} max={totals?.max_revenue} />
        </>
      ),
    },
  ];
}

function SkuTable({
  rows,
  totals,
  sort,
  onSort,
}: {
  /** Undefined while loading: skeleton rows. */
  readonly rows: readonly RankedSku[] | undefined;
  readonly totals: TopSkuTotals | undefined;
  readonly sort: { readonly column: TopSkuColumn; readonly order: 'asc' | 'desc' } | undefined;
  readonly onSort: ((column: TopSkuColumn) => void) | undefined;
}) {
  return (
    <DataTable
      label="Top SKUs"
      testId="sa-skus-table"
      className="sa-skus-table"
      columns={skuColumns(totals)}
      rows={rows}
      rowKey={(row) => row.sku_id}
      rowAttributes={() => ({ 'data-testid': 'sa-skus-row' })}
      sortColumn={sort?.column}
      order={sort?.order}
      onSort={onSort}
      testIdPrefix="sa-skus"
      skeleton={{ label: 'Loading', testId: 'sa-skus-skeleton-row' }}
    />
  );
}

/**
 * The SKU search: a button naming the SKU the table shows ('All SKUs'), opening a search of the outlet's SKUs by
 * name or barcode; picking one narrows the table to it, 'All SKUs' (or the clear button) shows them all again.
 */
function SkuSearch({
  search,
  picked,
  onPick,
  onClear,
}: {
  readonly search: SearchActor;
  readonly picked: Sku | undefined;
  readonly onPick: (sku: Sku) => void;
  readonly onClear: () => void;
}) {
  const text = useSelector(search, (state) => state.context.text);
  const options = useSelector(search, (state) => state.context.options);
  const busy = useSelector(search, (state) => state.hasTag('loading') || state.matches('waiting'));
  const failed = useSelector(search, (state) => state.matches('failure'));
  const answered = useSelector(search, (state) => state.matches('ready'));
  const label = picked ? skuLabel(picked) : 'All SKUs';
  return (
    <div className="sa-sku-search">
      <PopoverNext
        placement="bottom-start"
        onOpening={() => search.send({ type: 'search.open' })}
        content={
          <div className="sa-sku-menu" data-testid="sa-sku-menu">
            <InputGroup
              autoFocus
              leftIcon="search"
              placeholder="Name or barcode"
              aria-label="Search SKUs by name or barcode"
              data-testid="sa-sku-search-input"
              maxLength={SKU_SEARCH_MAX_LENGTH}
              value={text}
              onValueChange={(value) => search.send({ type: 'search.text', text: value })}
            />
            <div className="sa-sku-options">
              <Menu aria-label="SKUs">
                <MenuItem text="All SKUs" active={picked === undefined} data-testid="sa-sku-all" onClick={onClear} />
                {options.map((option) => (
                  <MenuItem
                    key={option.id}
                    text={skuLabel(option)}
                    active={picked?.id === option.id}
                    data-testid={`sa-sku-option-${option.id}`}
                    onClick={() => onPick(option)}
                  />
                ))}
              </Menu>
              {busy ? <Spinner size={16} aria-label="Searching SKUs" /> : null}
              {answered && options.length === 0 ? (
                <p className={Classes.TEXT_MUTED} data-testid="sa-sku-none">
                  No SKU matches.
                </p>
              ) : null}
              {failed ? (
                <Button
                  small
                  icon="refresh"
                  text="Retry"
                  data-testid="sa-sku-retry"
                  onClick={() => search.send({ type: 'search.retry' })}
                />
              ) : null}
            </div>
          </div>
        }
      >
        <Button
          icon="search"
          endIcon="caret-down"
          data-testid="sa-sku-search"
          aria-label={`SKU shown: ${label}. Search SKUs`}
          text={label}
        />
      </PopoverNext>
      {picked ? (
        <Button minimal icon="cross" aria-label="Show all SKUs" data-testid="sa-sku-clear" onClick={onClear} />
      ) : null}
    </div>
  );
}
