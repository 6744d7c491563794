import { Button, ButtonGroup, Callout, Classes, Icon, Tag } from '@blueprintjs/core';
import { useSelector } from '@xstate/react';
import { useMemo, useState } from 'react';
import { Link } from 'wouter';
import type { RentStatementGroup, RentStatementRow } from '../../../api/rentStatements';
import { breakevenCurrencyNote } from '../../../domain/breakeven';
import { DEFAULT_CURRENCY, formatMonth, formatNumber } from '../../../domain/format';
import { OCCUPANCY_BANDS_TITLE } from '../../../domain/occupancyBands';
import { findPage } from '../../../domain/permissions';
import {
  ALL_WITHIN_BANDS_MESSAGE,
  BAND_MEANINGS,
  bandText,
  bandWording,
  basisLabel,
  daysLeasedText,
  flaggedWording,
  GTO_REVIEW_PATH,
  groupLabel,
  groupRowsBy,
  gtoReviewHrefOf,
  money,
  moneyOrDash,
  OCCUPANCY_BANDS_NOTE,
  outsideBandRows,
  POST_INVOICES_TEXT,
  partialMonthNote,
  partialWording,
  percentFigure,
  pointsOutsideText,
  RENT_GROUP_CHOICES,
  RENT_GROUPS_NOTE,
  RENT_STATEMENTS_BASIS,
  type RentGroupBy,
  type RentTotal,
  rateText,
  rentFlagRule,
  rentReceiptsHrefOf,
  rentStatementsCsv,
  rentTotalsByCurrency,
  rowsByRentAtStake,
  withoutBandNote,
} from '../../../domain/rentStatements';
import { NavigationContext } from '../../../machines/navigationContext';
import { rentStatementsPageMachine } from '../../../machines/tenantConnect/rentStatementsMachine';
import { CurrencyContext } from '../../common/Money';
import { useNoticeToasts } from '../../common/Notifications';
import { usePageActor } from '../../common/usePageActor';
import { PageHeader } from '../../filters/PageHeader';
import { type Column, MallReportSection, ReportBlock, ReportTable, ReportToolbar } from '../../reports/ReportParts';
import { type PanelState, useReportActor } from '../../reports/useReport';
import type { PageProps } from '../pageProps';
import { OccupancyBandsDialog } from './OccupancyBandsDialog';
import './rentStatements.css';

const RECEIPTS_PATH = '/receipts';
const NO_GROUPS: readonly RentStatementGroup[] = [];

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

const BAND_INTENTS = { above: 'danger', below: 'warning', within: 'success' } as const;

/** Where the row's occupancy cost falls against its category's band ('Above 6–10%'); nothing without a band. */
function BandTag({ row }: { readonly row: RentStatementRow }) {
  const wording = bandWording(row);
  if (wording === undefined) return null;
  const position = row.band_position;
  const meaning = position === 'above' || position === 'below' ? BAND_MEANINGS[position] : undefined;
  return (
    <Tag
      minimal
      intent={position === null ? 'none' : BAND_INTENTS[position]}
      data-testid={`rent-band-${row.lease_id}`}
      title={meaning ? `${wording}: ${meaning}` : wording}
    >
      {wording}
      {meaning ? <span className="visually-hidden">: {meaning}</span> : null}
    </Tag>
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

/** A column of an amount of rows that name their currency: the amount of `key`, in the row's currency. */
function moneyColumn<K extends string, R extends { readonly currency: string } & Readonly<Record<K, number>>>(
  key: K,
  label: string,
): Column<R> {
  return { key, kind: 'money', label, render: (row) => money(row[key], row.currency) };
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
    moneyColumn('sales_captured', 'Captured Sales'),
    { key: 'base_rent', kind: 'money', label: 'Base Rent', render: (row) => money(row.base_rent, row.currency) },
    {
      key: 'turnover_rent_declared',
      kind: 'money',
      label: 'Turnover Rent on Declared GTO',
      render: (row) => moneyOrDash(row.turnover_rent_declared, row.currency),
    },
    moneyColumn('turnover_rent_captured', 'Turnover Rent on Captured Sales'),
    moneyColumn('rent_at_stake', 'Rent at Stake'),
    {
      key: 'flagged',
      kind: 'status',
      label: 'Status',
      render: (row) => <StatusTags row={row} thresholdPercent={setting.thresholdPercent} />,
      value: (row) => (row.flagged ? 1 : 0),
    },
    moneyColumn('service_charge', 'Service Charge'),
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
      key: 'band',
      kind: 'status',
      label: 'Band',
      render: (row) => <BandTag row={row} />,
      value: (row) => bandWording(row),
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
  moneyColumn('turnover_rent_declared', 'Turnover Rent on Declared GTO'),
  moneyColumn('turnover_rent_captured', 'Turnover Rent on Captured Sales'),
  moneyColumn('rent_at_stake', 'Rent at Stake'),
  moneyColumn('service_charge', 'Service Charge'),
  { key: 'gst', kind: 'money', label: 'GST', render: (row) => money(row.gst, row.currency) },
  { key: 'total_due', kind: 'money', label: 'Total Due', render: (row) => money(row.total_due, row.currency) },
];

/** The outlets outside their band: where each falls, what it may mean, by how far, with its category. */
const OUTSIDE_COLUMNS: Column<RentStatementRow>[] = [
  { key: 'outlet_name', kind: 'text', label: 'Outlet', render: (row) => row.outlet_name },
  { key: 'mall_name', kind: 'text', label: 'Mall', render: (row) => row.mall_name },
  { key: 'category', kind: 'text', label: 'Category', render: (row) => row.category },
  {
    key: 'occupancy_cost_ratio',
    kind: 'percent',
    label: 'Occupancy Cost',
    render: (row) => percentFigure(row.occupancy_cost_ratio),
  },
  { key: 'band', kind: 'percent', label: 'Band', render: (row) => bandText(row) ?? '—', value: (row) => bandText(row) },
  {
    key: 'band_position',
    kind: 'status',
    label: 'Position',
    render: (row) =>
      row.band_position === 'above' || row.band_position === 'below' ? (
        <Tag minimal intent={BAND_INTENTS[row.band_position]} data-testid={`rent-outside-${row.lease_id}`}>
          {row.band_position === 'above' ? 'Above' : 'Below'}: {BAND_MEANINGS[row.band_position]}
        </Tag>
      ) : null,
  },
  { key: 'outside_by', kind: 'percent', label: 'Outside by', render: (row) => pointsOutsideText(row) },
];

/** A group's figures, in its own currency; the first column names the mall, floor or category. */
function groupColumns(by: RentGroupBy): Column<RentStatementGroup>[] {
  return [
    { key: 'key', kind: 'text', label: groupLabel(by), render: (group) => group.key },
    { key: 'currency', kind: 'id', label: 'Currency', render: (group) => group.currency },
    { key: 'outlets', kind: 'count', label: 'Outlets', render: (group) => formatNumber(group.outlets) },
    { key: 'sales', kind: 'money', label: 'Sales', render: (group) => money(group.sales, group.currency) },
    {
      key: 'occupancy_cost',
      kind: 'money',
      label: 'Occupancy Cost',
      render: (group) => money(group.occupancy_cost, group.currency),
    },
    {
      key: 'occupancy_cost_ratio',
      kind: 'percent',
      label: 'Occupancy Cost Ratio',
      render: (group) => percentFigure(group.occupancy_cost_ratio),
    },
    { key: 'gla_sqm', kind: 'count', label: 'Lettable Area (m²)', render: (group) => formatNumber(group.gla_sqm) },
    {
      key: 'sales_per_sqm',
      kind: 'money',
      label: 'Sales per m² a Year',
      render: (group) => moneyOrDash(group.sales_per_sqm, group.currency),
    },
  ];
}

/**
 * The outlets outside their category's band, above first: 'No Data' only when no lease covers the month; with rows
 * but none outside, says so.
 */
function OutsideBandBlock({ rows, panel }: { readonly rows: readonly RentStatementRow[]; readonly panel: PanelState }) {
  const outside = useMemo(() => outsideBandRows(rows), [rows]);
  const bandless = withoutBandNote(rows);
  return (
    <ReportBlock
      testId="rent-outside-band"
      title="Outside Their Band"
      panel={panel}
      controls={<p className="rent-rule">{OCCUPANCY_BANDS_NOTE}</p>}
      chart={null}
      table={
        <>
          {rows.length > 0 && outside.length === 0 ? (
            <p className="rent-within" data-testid="rent-outside-band-none">
              <Icon icon="tick-circle" intent="success" /> {ALL_WITHIN_BANDS_MESSAGE}
            </p>
          ) : (
            <ReportTable
              testId="rent-outside-band-table"
              columns={OUTSIDE_COLUMNS}
              rows={outside}
              rowKey={(row) => String(row.lease_id)}
            />
          )}
          {bandless ? (
            <p className="rent-rule rent-bandless" data-testid="rent-outside-band-without">
              {bandless}
            </p>
          ) : null}
        </>
      }
      tablePlacement="below"
    />
  );
}

/** Occupancy cost and sales per m² by mall, by floor or by category (one at a time), each row in one currency. */
function GroupsBlock({
  groups,
  panel,
}: {
  readonly groups: readonly RentStatementGroup[];
  readonly panel: PanelState;
}) {
  const [by, setBy] = useState<RentGroupBy>('mall');
  const rows = useMemo(() => groupRowsBy(groups, by), [groups, by]);
  const columns = useMemo(() => groupColumns(by), [by]);
  return (
    <ReportBlock
      testId="rent-groups"
      title={`Occupancy Cost by ${groupLabel(by)}`}
      panel={panel}
      controls={
        <>
          <ButtonGroup className="report-metric-switch" role="group" aria-label="Group by" data-testid="rent-groups-by">
            {RENT_GROUP_CHOICES.map((choice) => (
              <Button
                key={choice.by}
                text={`By ${choice.label.toLowerCase()}`}
                active={choice.by === by}
                aria-pressed={choice.by === by}
                data-testid={`rent-groups-by-${choice.by}`}
                onClick={() => setBy(choice.by)}
              />
            ))}
          </ButtonGroup>
          <p className="rent-rule">{RENT_GROUPS_NOTE}</p>
        </>
      }
      chart={null}
      table={
        <ReportTable
          testId="rent-groups-table"
          columns={columns}
          rows={rows}
          rowKey={(group) => `${group.by} ${group.key} ${group.currency}`}
        />
      }
      tablePlacement="below"
    />
  );
}

/** Whether the user may open the page at `path` (its link is shown only then). */
function useCanOpen(path: string): boolean {
  return NavigationContext.useSelector(
    (state) => state.context.routes !== undefined && findPage(state.context.routes, path) !== undefined,
  );
}

/**
 * Rent Statements (issue 33): for the header's malls and month, each lease's rent: base rent, turnover rent on the
 * declared GTO and on the captured sales, the rent at stake between them, service charge, GST and total due, with
 * the occupancy cost, where it falls against its category's band, and the sales per m²; flagged where the
 * declaration differs from the captured sales beyond the client's threshold; by the rent at stake, largest first;
 * totals per currency; each row leads to the GTO review and the receipts of its outlet and month. While the month
 * is open, a projection of its end. Below, the outlets outside their band and the occupancy cost by mall, floor and
 * category; a user who may set the client's bands opens them in a dialog.
 */
export function RentStatementsPage({ title, header }: PageProps) {
  const page = usePageActor(rentStatementsPageMachine);
  const report = useReportActor(useSelector(page, (state) => state?.children.report));
  const bands = useSelector(page, (state) => state?.children.bands);
  const mayEditBands = useSelector(page, (state) => state?.context.mayEditBands === true);
  const canOpenBands = useSelector(page, (state) => state?.can({ type: 'bands.open' }) === true);
  const mayPostInvoices = useSelector(page, (state) => state?.context.mayPostInvoices === true);
  const canPostInvoices = useSelector(page, (state) => state?.can({ type: 'invoices.post' }) === true);
  const postingInvoices = useSelector(page, (state) => state?.hasTag('postingInvoices') === true);
  useNoticeToasts(page);
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
      <div className="report-toolbar rent-toolbar">
        {mayEditBands ? (
          <Button
            icon="settings"
            text={OCCUPANCY_BANDS_TITLE}
            data-testid="rent-bands-open"
            disabled={!canOpenBands}
            onClick={() => page?.send({ type: 'bands.open' })}
          />
        ) : null}
        {mayPostInvoices ? (
          // A month not over has no invoice yet: the server posts a month once it has ended in every mall.
          <Button
            icon="send-message"
            text={POST_INVOICES_TEXT}
            data-testid="rent-invoices-post"
            loading={postingInvoices}
            disabled={!canPostInvoices}
            onClick={() => page?.send({ type: 'invoices.post' })}
          />
        ) : null}
        <CurrencyContext.Provider value={DEFAULT_CURRENCY}>
          <ReportToolbar report={report} base={month} files={() => [rentStatementsCsv(rows)]} />
        </CurrencyContext.Provider>
      </div>
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
      <OutsideBandBlock rows={rows} panel={report.panelOf('statements')} />
      <GroupsBlock groups={answer?.groups ?? NO_GROUPS} panel={report.panelOf('statements')} />
      {bands ? <OccupancyBandsDialog actor={bands} onClose={() => page?.send({ type: 'bands.close' })} /> : null}
    </MallReportSection>
  );
}
