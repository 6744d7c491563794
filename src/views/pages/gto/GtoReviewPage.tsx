import { Button, ButtonGroup, Card, Classes, Icon, NonIdealState, Tag } from '@blueprintjs/core';
import { useSelector } from '@xstate/react';
import { useState } from 'react';
import { Link, useSearch } from 'wouter';
import type { ActorRefFrom } from 'xstate';
import type { GtoSortColumn, GtoSummaryRow } from '../../../api/gto';
import { parseOutletSelection } from '../../../domain/filterOptions';
import { FILTER_QUERY_KEYS } from '../../../domain/filterUrl';
import { currencyFormat, formatDateTime, formatDay, formatMoney, formatNumber } from '../../../domain/format';
import {
  dueRule,
  GTO_REVIEW_FILTERS,
  lateWording,
  receiptsHrefOf,
  statusLabel,
  thresholdRule,
  varianceAmountText,
  variancePercentText,
  varianceWording,
} from '../../../domain/gto';
import { nonTradingDaysHrefOf } from '../../../domain/nonTradingDays';
import { lastPage } from '../../../domain/paging';
import {
  GTO_REVIEW_ROWS_PER_PAGE_OPTIONS,
  type gtoReviewListMachine,
  gtoReviewMachine,
} from '../../../machines/gto/gtoReviewMachine';
import { type DataColumn, DataTable } from '../../common/DataTable';
import { NameOptionSelect } from '../../common/NameOptionSelect';
import { useNoticeToasts } from '../../common/Notifications';
import { Pager } from '../../common/Pager';
import { usePageActor } from '../../common/usePageActor';
import { MonthPicker } from '../../filters/MonthPicker';
import { PageTitle } from '../../filters/PageTitle';
import { SubscribeToolbar } from '../../reports/ReportParts';
import type { PageProps } from '../pageProps';
import { GtoRulesDialog } from './GtoRulesDialog';
import './gto.css';

type ReviewActor = ActorRefFrom<typeof gtoReviewMachine>;
type ListActor = ActorRefFrom<typeof gtoReviewListMachine>;

const SKELETON_ROWS = 5;

/** The one outlet of the address's `outlet` query, if it names one. */
function parseOutletId(search: string): number | undefined {
  const selection = parseOutletSelection(new URLSearchParams(search).get(FILTER_QUERY_KEYS.outlet) ?? undefined);
  return typeof selection === 'number' ? selection : undefined;
}

/**
 * GTO review (§2, §7, §8, §9): every outlet's declared GTO of the header's month against the sales captured from
 * its receipts, filtered by status, sorted by any column on the server, 10 rows a page; flagged months are tagged,
 * and each variance links to the outlet's receipts of the month.
 */
export function GtoReviewPage({ title }: PageProps) {
  const search = useSearch();
  // The outlet of the link that opened the page (a rent statement's "GTO review"), read once when it opens.
  const [input] = useState(() => ({ outletId: parseOutletId(search) }));
  const actor = usePageActor(gtoReviewMachine, input);
  useNoticeToasts(actor);
  const list = useSelector(actor, (state) => state?.children.list);
  useNoticeToasts(list);
  // Settled once the list of the header's month is shown, empty or failed (idle before the header's month).
  const settled = useSelector(
    list,
    (state) => state !== undefined && (state.matches('loaded') || state.matches('empty') || state.matches('failure')),
  );
  return (
    <section className="gto-page" data-testid="gto-review-page">
      <header className="gto-header">
        <PageTitle title={title} />
        <div className="gto-header-filters">
          <MonthPicker />
          {/* Ready once the month's list has settled: the server's browser prints the page (its first page of rows). */}
          <SubscribeToolbar report={{ ready: settled }} />
        </div>
      </header>
      {actor && list ? (
        <ReviewBody actor={actor} list={list} />
      ) : (
        <Card className="gto-card">
          <ReviewTable rows={undefined} skeletonRows={SKELETON_ROWS} />
        </Card>
      )}
    </section>
  );
}

function ReviewBody({ actor, list }: { readonly actor: ReviewActor; readonly list: ListActor }) {
  const send = actor.send;
  const filterOption = useSelector(actor, (state) => state.context.filterOption);
  const threshold = useSelector(actor, (state) => state.context.thresholdPercent);
  const clientId = useSelector(actor, (state) => state.context.base?.clientId);
  const today = useSelector(actor, (state) => state.context.today);
  const month = useSelector(actor, (state) => state.context.base?.month);
  const canExport = useSelector(actor, (state) => state.can({ type: 'csv.export' }));
  const exporting = useSelector(actor, (state) => state.hasTag('csvExporting'));
  const ready = useSelector(actor, (state) => state.context.base !== undefined);
  const rules = useSelector(actor, (state) => state.children.rules);
  const mallOptions = useSelector(actor, (state) => state.children.mallOptions);
  const outletOptions = useSelector(actor, (state) => state.children.outletOptions);
  const mall = useSelector(actor, (state) => state.context.mall);
  const outlet = useSelector(actor, (state) => state.context.outlet);
  const canOpenRules = useSelector(actor, (state) => state.can({ type: 'rules.open' }));

  const loading = useSelector(list, (state) => state.hasTag('loading') || state.matches('idle'));
  const empty = useSelector(list, (state) => state.matches('empty'));
  const failed = useSelector(list, (state) => state.matches('failure'));
  const rows = useSelector(list, (state) => state.context.rows);
  const total = useSelector(list, (state) => state.context.total);
  const sortColumn = useSelector(list, (state) => state.context.sortColumn);
  const order = useSelector(list, (state) => state.context.order);
  const page = useSelector(list, (state) => state.context.page);
  const rowsPerPage = useSelector(list, (state) => state.context.rowsPerPage);
  const canPrevious = useSelector(list, (state) => state.can({ type: 'list.page', page: state.context.page - 1 }));
  const canNext = useSelector(list, (state) => state.can({ type: 'list.page', page: state.context.page + 1 }));

  return (
    <Card className="gto-card">
      <div className="gto-toolbar">
        <ButtonGroup role="group" aria-label="Status" data-testid="gto-filter">
          {GTO_REVIEW_FILTERS.map((option) => (
            <Button
              key={option.value}
              text={option.label}
              active={option.value === filterOption}
              aria-pressed={option.value === filterOption}
              data-testid={`gto-filter-${option.value}`}
              disabled={!ready}
              onClick={() => send({ type: 'gto.filter', filterOption: option.value })}
            />
          ))}
        </ButtonGroup>
        {mallOptions && outletOptions ? (
          <span className="gto-name-filters">
            <NameOptionSelect
              actor={mallOptions}
              label="Mall"
              allLabel="All malls"
              selected={mall}
              disabled={!ready}
              testId="gto-mall-filter"
              onSelect={(option) => send({ type: 'gto.mall', option })}
            />
            <NameOptionSelect
              actor={outletOptions}
              label="Outlet"
              allLabel="All outlets"
              selected={outlet}
              disabled={!ready}
              testId="gto-outlet-filter"
              onSelect={(option) => send({ type: 'gto.outlet', option })}
            />
          </span>
        ) : null}
        <span data-testid="gto-count">
          {loading ? '' : `${formatNumber(total)} ${total === 1 ? 'outlet' : 'outlets'}`}
        </span>
        <Button
          icon="cog"
          text="Review rules"
          data-testid="gto-rules-open"
          disabled={!canOpenRules}
          onClick={() => send({ type: 'rules.open' })}
        />
        {clientId === undefined || today === undefined || month === undefined ? null : (
          // The days outlets did not trade explain some of the month's captured sales.
          <Link
            href={nonTradingDaysHrefOf(clientId, month, today)}
            className={Classes.BUTTON}
            data-testid="gto-non-trading-days"
          >
            <Icon icon="calendar" />
            <span className={Classes.BUTTON_TEXT}>Non-trading days</span>
          </Link>
        )}
        <Button
          icon="export"
          text="Export CSV"
          data-testid="gto-export-csv"
          loading={exporting}
          disabled={!canExport}
          onClick={() => send({ type: 'csv.export' })}
        />
      </div>
      {threshold === undefined ? null : (
        <p className="gto-rule" data-testid="gto-threshold-rule">
          <Icon icon="flag" intent="danger" /> {thresholdRule(threshold)}
        </p>
      )}
      {rows[0] === undefined || loading ? null : (
        <p className="gto-rule" data-testid="gto-due-rule">
          <Icon icon="time" intent="warning" /> {dueRule(rows[0].due_on)}
        </p>
      )}
      {rules ? <GtoRulesDialog actor={rules} onClose={() => send({ type: 'rules.close' })} /> : null}
      {failed ? (
        <div data-testid="gto-review-failure">
          <NonIdealState
            icon="error"
            title="The GTO summary could not be read"
            action={<Button icon="refresh" text="Retry" onClick={() => list.send({ type: 'list.retry' })} />}
          />
        </div>
      ) : empty ? (
        <div data-testid="gto-review-empty">
          <NonIdealState icon="th-disconnect" title="No Data" />
        </div>
      ) : (
        <ReviewTable
          rows={loading ? undefined : rows}
          skeletonRows={rows.length > 0 ? rows.length : Math.min(SKELETON_ROWS, rowsPerPage)}
          sortColumn={sortColumn}
          order={order}
          onSort={(column) => list.send({ type: 'list.sort', column })}
          receiptsHref={(row) =>
            clientId === undefined || today === undefined ? undefined : receiptsHrefOf(row, clientId, today)
          }
        />
      )}
      <Pager
        testId="gto-review-pager"
        page={page}
        pages={lastPage(total, rowsPerPage)}
        canPrevious={canPrevious}
        canNext={canNext}
        rowsPerPage={rowsPerPage}
        rowsPerPageOptions={GTO_REVIEW_ROWS_PER_PAGE_OPTIONS}
        onPage={(next) => list.send({ type: 'list.page', page: next })}
        onRowsPerPage={(value) => list.send({ type: 'list.rowsPerPage', rowsPerPage: value })}
      />
    </Card>
  );
}

interface ReviewTableProps {
  /** Undefined while loading: skeleton rows. */
  readonly rows: readonly GtoSummaryRow[] | undefined;
  readonly skeletonRows: number;
  readonly sortColumn?: GtoSortColumn;
  readonly order?: 'asc' | 'desc';
  readonly onSort?: (column: GtoSortColumn) => void;
  readonly receiptsHref?: (row: GtoSummaryRow) => string | undefined;
}

function ReviewTable({ rows, skeletonRows, sortColumn, order, onSort, receiptsHref }: ReviewTableProps) {
  const money = (amount: number, row: GtoSummaryRow) => formatMoney(amount, currencyFormat(row.currency));
  const columns: readonly DataColumn<GtoSummaryRow, GtoSortColumn>[] = [
    { key: 'outlet', header: 'Outlet', kind: 'text', sort: 'outlet_name', render: (row) => row.outlet_name },
    { key: 'mall', header: 'Mall', kind: 'text', sort: 'mall_name', render: (row) => row.mall_name },
    {
      key: 'declared',
      header: 'Declared GTO',
      kind: 'money',
      sort: 'gto_amount',
      render: (row) => (row.gto_amount === null ? '' : money(row.gto_amount, row)),
    },
    {
      key: 'captured',
      header: 'Captured sales',
      kind: 'money',
      sort: 'captured_sales',
      render: (row) => money(row.captured_sales, row),
    },
    {
      key: 'variance',
      header: 'Variance',
      kind: 'money',
      sort: 'variance_percent',
      render: (row) => <VarianceCell row={row} href={receiptsHref?.(row)} />,
    },
    { key: 'status', header: 'Status', kind: 'status', sort: 'status', render: (row) => <StatusTags row={row} /> },
    {
      key: 'submitted_at',
      header: 'Submitted at',
      kind: 'datetime',
      sort: 'submitted_at',
      render: (row) => (row.submitted_at === null ? '' : formatDateTime(row.submitted_at)),
    },
    {
      key: 'reminded',
      header: 'Last reminder',
      kind: 'date',
      sort: 'last_reminded_on',
      render: (row) => (row.last_reminded_on === null ? '' : formatDay(row.last_reminded_on)),
    },
  ];
  return (
    <DataTable
      label="GTO review"
      className="gto-review-table"
      testId="gto-review-table"
      columns={columns}
      rows={rows}
      rowKey={(row) => row.outlet_id}
      rowAttributes={(row) => ({
        'data-testid': 'gto-review-row',
        'data-outlet': row.outlet_id,
        'data-flagged': row.flagged,
      })}
      sortColumn={sortColumn}
      order={order}
      onSort={onSort}
      testIdPrefix="gto"
      skeleton={{ label: 'Loading', testId: 'gto-skeleton-row', rows: skeletonRows }}
    />
  );
}

/** A submitted month's variance (amount and percent), a link to the outlet's receipts of the month. */
function VarianceCell({ row, href }: { readonly row: GtoSummaryRow; readonly href: string | undefined }) {
  const currency = currencyFormat(row.currency);
  const submitted = row.status === 'submitted';
  const variance = submitted ? (
    <>
      <span data-testid="gto-variance-amount">{varianceAmountText(row.variance_amount, currency)}</span>
      {row.variance_percent === null ? null : (
        <span className="gto-variance-percent" data-testid="gto-variance-percent">
          {' '}
          ({variancePercentText(row.variance_percent)})
        </span>
      )}
    </>
  ) : (
    <span className="gto-muted" title="Not submitted">
      —
    </span>
  );
  return href && submitted ? (
    <Link href={href} data-testid={`gto-variance-link-${row.outlet_id}`} title={varianceWording(row)}>
      {variance}
      <span className="visually-hidden">
        {' '}
        {varianceWording(row)}: receipts of {row.outlet_name}
      </span>
    </Link>
  ) : (
    variance
  );
}

/** The month's status, and whether it is flagged or late. */
function StatusTags({ row }: { readonly row: GtoSummaryRow }) {
  const submitted = row.status === 'submitted';
  return (
    <span className="gto-tags">
      <Tag minimal intent={submitted ? 'success' : 'none'}>
        {statusLabel(row)}
      </Tag>
      {row.flagged ? (
        <Tag intent="danger" icon="flag" data-testid="gto-flagged">
          Flagged
        </Tag>
      ) : null}
      {row.late ? (
        <Tag intent="warning" icon="time" data-testid="gto-late" title={lateWording(row)}>
          Late<span className="visually-hidden">: {lateWording(row)}</span>
        </Tag>
      ) : null}
    </span>
  );
}
