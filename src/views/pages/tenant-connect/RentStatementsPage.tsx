import { Callout, Classes, Icon, Tag } from '@blueprintjs/core';
import { useMemo } from 'react';
import { Link } from 'wouter';
import type { RentStatementRow } from '../../../api/rentStatements';
import { breakevenCurrencyNote } from '../../../domain/breakeven';
import { DEFAULT_CURRENCY, formatMonth, formatNumber } from '../../../domain/format';
import { findPage } from '../../../domain/permissions';
import {
  basisLabel,
  daysLeasedText,
  flaggedWording,
  GTO_REVIEW_PATH,
  gtoReviewHrefOf,
  money,
  moneyOrDash,
  partialMonthNote,
  partialWording,
  percentFigure,
  RENT_STATEMENTS_BASIS,
  type RentTotal,
  rateText,
  rentFlagRule,
  rentReceiptsHrefOf,
  rentStatementsCsv,
  rentTotalsByCurrency,
  rowsByRentAtStake,
} from '../../../domain/rentStatements';
import { NavigationContext } from '../../../machines/navigationContext';
import { rentStatementsMachine } from '../../../machines/tenantConnect/rentStatementsMachine';
import { CurrencyContext } from '../../common/Money';
import { PageHeader } from '../../filters/PageHeader';
import { type Column, MallReportSection, ReportBlock, ReportTable, ReportToolbar } from '../../reports/ReportParts';
import { useReport } from '../../reports/useReport';
import type { PageProps } from '../pageProps';
import './rentStatements.css';

const RECEIPTS_PATH = '/receipts';

/** What the rows' columns need besides the row: the month, the client's threshold and where a row may lead. */
interface RowSetting {
  readonly month: string;
  readonly partial: boolean;
  readonly thresholdPercent: number;
  readonly invoices: boolean;
  /** The links of a row, when the user may open those pages. */
  readonly links: {
    readonly clientId: number;
    readonly today: string | undefined;
    readonly gtoReview: boolean;
    readonly receipts: boolean;
  };
}

/** A row's tags: flagged beyond the threshold (with why), and a partial month (with its projection). */
function StatusTags({ row, thresholdPercent }: { readonly row: RentStatementRow; readonly thresholdPercent: number }) {
  const flagged = flaggedWording(row, thresholdPercent);
  const partial = partialWording(row);
  return (
    <span className="rent-tags">
      {flagged ? (
        <Tag intent="danger" icon="flag" data-testid="rent-flagged" title={flagged}>
          Flagged<span className="visually-hidden">: {flagged}</span>
        </Tag>
      ) : null}
      {partial ? (
        <Tag minimal intent="warning" icon="time" data-testid="rent-partial" title={partial}>
          Partial<span className="visually-hidden">: {partial}</span>
        </Tag>
      ) : null}
    </span>
  );
}

/** The row's ways to check it: the GTO review of its month, and its outlet's receipts of the month. */
function RowLinks({ row, setting }: { readonly row: RentStatementRow; readonly setting: RowSetting }) {
  const { links, month } = setting;
  const of = `${row.outlet_name}, ${formatMonth(month)}`;
  const linkClass = `${Classes.BUTTON} ${Classes.SMALL} ${Classes.MINIMAL}`;
  return (
    <span className="rent-links">
      {links.gtoReview ? (
        <Link
          href={gtoReviewHrefOf(row, month, links.clientId)}
          className={linkClass}
          data-testid={`rent-gto-review-${row.lease_id}`}
        >
          <Icon icon="th-list" />
          <span className={Classes.BUTTON_TEXT}>
            GTO review<span className="visually-hidden"> of {of}</span>
          </span>
        </Link>
      ) : null}
      {links.receipts ? (
        <Link
          href={rentReceiptsHrefOf(row, month, links.clientId, links.today)}
          className={linkClass}
          data-testid={`rent-receipts-${row.lease_id}`}
        >
          <Icon icon="th" />
          <span className={Classes.BUTTON_TEXT}>
            Receipts<span className="visually-hidden"> of {of}</span>
          </span>
        </Link>
      ) : null}
    </span>
  );
}

/** The columns of the rows: each amount in the row's own currency (its Currency column), never converted. */
function rowColumns(setting: RowSetting): Column<RentStatementRow>[] {
  const { links } = setting;
  return [
    { key: 'outlet_name', kind: 'text', label: 'Outlet', render: (row) => row.outlet_name },
    { key: 'mall_name', kind: 'text', label: 'Mall', render: (row) => row.mall_name },
    { key: 'currency', kind: 'id', label: 'Currency', render: (row) => row.currency },
    {
      key: 'basis',
      kind: 'status',
      label: 'Rent Basis',
      render: (row) => basisLabel(row.basis),
      value: (row) => basisLabel(row.basis),
    },
    {
      key: 'days_leased',
      kind: 'count',
      label: 'Days Leased',
      render: (row) => daysLeasedText(row.days_leased, row.days_in_month),
    },
    {
      key: 'sales_declared',
      kind: 'money',
      label: 'Declared GTO',
      render: (row) => moneyOrDash(row.sales_declared, row.currency),
    },
    {
      key: 'sales_captured',
      kind: 'money',
      label: 'Captured Sales',
      render: (row) => money(row.sales_captured, row.currency),
    },
    { key: 'base_rent', kind: 'money', label: 'Base Rent', render: (row) => money(row.base_rent, row.currency) },
    {
      key: 'turnover_rent_declared',
      kind: 'money',
      label: 'Turnover Rent on Declared GTO',
      render: (row) => moneyOrDash(row.turnover_rent_declared, row.currency),
    },
    {
      key: 'turnover_rent_captured',
      kind: 'money',
      label: 'Turnover Rent on Captured Sales',
      render: (row) => money(row.turnover_rent_captured, row.currency),
    },
    {
      key: 'rent_at_stake',
      kind: 'money',
      label: 'Rent at Stake',
      render: (row) => money(row.rent_at_stake, row.currency),
    },
    {
      key: 'flagged',
      kind: 'status',
      label: 'Status',
      render: (row) => <StatusTags row={row} thresholdPercent={setting.thresholdPercent} />,
      value: (row) => (row.flagged ? 1 : 0),
    },
    {
      key: 'service_charge',
      kind: 'money',
      label: 'Service Charge',
      render: (row) => money(row.service_charge, row.currency),
    },
    { key: 'gst_percent', kind: 'percent', label: 'GST Rate', render: (row) => rateText(row.gst_percent) },
    { key: 'gst', kind: 'money', label: 'GST', render: (row) => money(row.gst, row.currency) },
    { key: 'total_due', kind: 'money', label: 'Total Due', render: (row) => money(row.total_due, row.currency) },
    {
      key: 'occupancy_cost_ratio',
      kind: 'percent',
      label: 'Occupancy Cost',
      render: (row) => percentFigure(row.occupancy_cost_ratio),
    },
    {
      key: 'sales_per_sqm',
      kind: 'money',
      label: 'Sales per m² a Year',
      render: (row) => moneyOrDash(row.sales_per_sqm, row.currency),
    },
    ...(setting.partial
      ? ([
          {
            key: 'sales_projected',
            kind: 'money',
            label: 'Projected Sales',
            render: (row) => moneyOrDash(row.sales_projected, row.currency),
          },
          {
            key: 'turnover_rent_projected',
            kind: 'money',
            label: 'Projected Turnover Rent',
            render: (row) => moneyOrDash(row.turnover_rent_projected, row.currency),
          },
        ] satisfies Column<RentStatementRow>[])
      : []),
    ...(setting.invoices
      ? ([
          { key: 'invoice_number', kind: 'id', label: 'Invoice', render: (row) => row.invoice_number ?? '—' },
        ] satisfies Column<RentStatementRow>[])
      : []),
    ...(links.gtoReview || links.receipts
      ? ([
          { key: 'links', kind: 'actions', label: '', render: (row) => <RowLinks row={row} setting={setting} /> },
        ] satisfies Column<RentStatementRow>[])
      : []),
  ];
}

const TOTAL_COLUMNS: Column<RentTotal>[] = [
  { key: 'currency', kind: 'id', label: 'Currency', render: (row) => row.currency },
  { key: 'leases', kind: 'count', label: 'Leases', render: (row) => formatNumber(row.leases) },
  { key: 'flagged', kind: 'count', label: 'Flagged', render: (row) => formatNumber(row.flagged) },
  { key: 'base_rent', kind: 'money', label: 'Base Rent', render: (row) => money(row.base_rent, row.currency) },
  {
    key: 'turnover_rent_declared',
    kind: 'money',
    label: 'Turnover Rent on Declared GTO',
    render: (row) => money(row.turnover_rent_declared, row.currency),
  },
  {
    key: 'turnover_rent_captured',
    kind: 'money',
    label: 'Turnover Rent on Captured Sales',
    render: (row) => money(row.turnover_rent_captured, row.currency),
  },
  {
    key: 'rent_at_stake',
    kind: 'money',
    label: 'Rent at Stake',
    render: (row) => money(row.rent_at_stake, row.currency),
  },
  {
    key: 'service_charge',
    kind: 'money',
    label: 'Service Charge',
    render: (row) => money(row.service_charge, row.currency),
  },
  { key: 'gst', kind: 'money', label: 'GST', render: (row) => money(row.gst, row.currency) },
  { key: 'total_due', kind: 'money', label: 'Total Due', render: (row) => money(row.total_due, row.currency) },
];

/** Whether the user may open the page at `path` (its link is shown only then). */
function useCanOpen(path: string): boolean {
  return NavigationContext.useSelector(
    (state) => state.context.routes !== undefined && findPage(state.context.routes, path) !== undefined,
  );
}

/**
 * Rent Statements (issue 33): for the header's malls and month, each lease's rent: base rent, turnover rent on the
 * declared GTO and on the captured sales, the rent at stake between them, service charge, GST and total due, with
 * the occupancy cost and the sales per m²; flagged where the declaration differs from the captured sales beyond the
 * client's threshold; by the rent at stake, largest first; totals per currency; each row leads to the GTO review
 * and the receipts of its outlet and month. While the month is open, a projection of its end.
 */
export function RentStatementsPage({ title, header }: PageProps) {
  const report = useReport(rentStatementsMachine);
  const answer = report.dataOf('statements');
  const rows = useMemo(() => rowsByRentAtStake(answer?.rows ?? []), [answer]);
  const totals = useMemo(() => rentTotalsByCurrency(rows), [rows]);
  const month = answer?.month ?? report.query?.month ?? '';
  const partial = answer?.partial === true;
  const thresholdPercent = answer?.threshold_percent;
  const clientId = report.query?.clientId;
  const today = report.query?.today;
  const gtoReview = useCanOpen(GTO_REVIEW_PATH);
  const receipts = useCanOpen(RECEIPTS_PATH);
  const invoices = rows.some((row) => row.invoice_number !== null);
  const columns = useMemo(
    () =>
      rowColumns({
        month,
        partial,
        thresholdPercent: thresholdPercent ?? 0,
        invoices,
        links: {
          clientId: clientId ?? 0,
          today,
          gtoReview: gtoReview && clientId !== undefined,
          receipts: receipts && clientId !== undefined,
        },
      }),
    [month, partial, thresholdPercent, invoices, clientId, today, gtoReview, receipts],
  );
  const currencyNote = useMemo(() => breakevenCurrencyNote(rows.map((row) => row.currency)) ?? null, [rows]);
  const monthTitle = month === '' ? '' : ` of ${formatMonth(month)}`;

  return (
    <MallReportSection testId="rent-statements-page" currencyNote={currencyNote}>
      <PageHeader title={title} header={header} />
      {/* Each row names its own currency (never converted): no currency for the whole file. Named by its month. */}
      <CurrencyContext.Provider value={DEFAULT_CURRENCY}>
        <ReportToolbar report={report} base={month} files={() => [rentStatementsCsv(rows)]} />
      </CurrencyContext.Provider>
      <Callout compact icon="info-sign" className="rent-note" data-testid="rent-statements-basis">
        {RENT_STATEMENTS_BASIS}
      </Callout>
      {thresholdPercent === undefined ? null : (
        <p className="rent-rule" data-testid="rent-statements-flag-rule">
          <Icon icon="flag" intent="danger" /> {rentFlagRule(thresholdPercent)}
        </p>
      )}
      {partial ? (
        <Callout compact intent="warning" icon="time" className="rent-note" data-testid="rent-statements-partial">
          {partialMonthNote(month)}
        </Callout>
      ) : null}
      <ReportBlock
        testId="rent-statements"
        title={`Rent${monthTitle} by Rent at Stake`}
        panel={report.panelOf('statements')}
        chart={null}
        table={
          <ReportTable
            testId="rent-statements-table"
            columns={columns}
            rows={rows}
            rowKey={(row) => String(row.lease_id)}
          />
        }
        tablePlacement="below"
      />
      <ReportBlock
        testId="rent-statements-totals"
        title="Totals per Currency"
        panel={report.panelOf('statements')}
        chart={null}
        table={
          <ReportTable
            testId="rent-statements-totals-table"
            columns={TOTAL_COLUMNS}
            rows={totals}
            rowKey={(row) => row.currency}
          />
        }
        tablePlacement="below"
      />
    </MallReportSection>
  );
}
