import { Button, Card, Classes, H5, HTMLTable, NonIdealState, Spinner } from '@blueprintjs/core';
import type Highcharts from 'highcharts';
import { createContext, type ReactNode, useContext, useId, useMemo, useState } from 'react';
import type { CurrencyFigures } from '../../api/errors';
import type { CsvFile } from '../../domain/csv';
import { currencyFormat, formatMoney, formatNumber } from '../../domain/format';
import type { GrowthLine } from '../../domain/mallReportViews';
import { nextTableSort, sortTableRows, type TableSort } from '../../domain/reports';
import { ChartFrameContext } from '../charts/Chart';
import { GRID_LINE_LIMIT, LABEL_LIMIT } from '../charts/chartTheme';
import { type ColumnKind, type DataColumn, DataTable, isNumericKind } from '../common/DataTable';
import { CurrencyContext, useConversionNote, useCurrency, useMallCurrency } from '../common/Money';
import { SubscribeButton } from './SubscribeButton';
import type { PanelState, ReportExport } from './useReport';
import './reports.css';

/* ---------------------------------------------------------------- chart options (§9 limits) */

/**
 * A category x axis showing at most LABEL_LIMIT labels (a tick every few categories), thinned further by width:
 * Highcharts widens the interval, or turns the labels, when a label is wider than the room it has, so that no two
 * labels overlap on a narrow screen ('26/11' beside '28/11' at 390 px).
 */
export function categoryAxis(categories: readonly string[], title?: string): Highcharts.XAxisOptions {
  return {
    categories: [...categories],
    title: { text: title ?? null },
    labels: { autoRotation: [-45], autoRotationLimit: 80 },
    tickInterval: Math.max(1, Math.ceil(categories.length / LABEL_LIMIT)),
  };
}

/** A value axis with at most LABEL_LIMIT labels and GRID_LINE_LIMIT grid lines. */
export function valueAxis(title: string, options: Highcharts.YAxisOptions = {}): Highcharts.YAxisOptions {
  return { title: { text: title }, tickAmount: Math.min(LABEL_LIMIT, GRID_LINE_LIMIT), min: 0, ...options };
}

/** No series points when there is nothing to show: Highcharts then draws 'No Data'. */
export function pointsOrNone<T>(shown: boolean, values: readonly T[]): T[] {
  return shown ? [...values] : [];
}

/* ---------------------------------------------------------------- layout pieces */

/**
 * A mall report page: its money shown in the selected malls' currency (Money), and a note saying so when the
 * figures of malls in several currencies are converted.
 */
export function MallReportSection({
  testId,
  children,
  currencyNote,
}: {
  readonly testId: string;
  readonly children: ReactNode;
  /**
   * What the page says of its currencies instead of the conversion note, for a page whose amounts are never
   * converted (each in its own currency); null says nothing.
   */
  readonly currencyNote?: string | null;
}) {
  const conversion = useConversionNote();
  const note = currencyNote === undefined ? conversion : currencyNote;
  return (
    <CurrencyContext.Provider value={useMallCurrency()}>
      <section data-testid={testId}>
        {note ? (
          <p className="report-currency-note" data-testid="currency-note">
            {note}
          </p>
        ) : null}
        {children}
      </section>
    </CurrencyContext.Provider>
  );
}

/** A panel still loading: a skeleton of its size, never 'No Data' or zeros. */
export function PanelSkeleton({ label, className }: { readonly label: string; readonly className?: string }) {
  return (
    <div
      role="status"
      aria-label={`${label}: loading`}
      data-testid="panel-loading"
      className={`${Classes.SKELETON} report-panel-skeleton ${className ?? ''}`}
    />
  );
}

/** A panel whose call failed: it says so and offers to load it again; the other panels keep their figures. */
export function PanelFailure({
  label,
  retry,
  reason,
  byCurrency,
}: {
  readonly label: string;
  readonly retry: () => void;
  /** The server's reason, shown instead of 'Please try again.'. */
  readonly reason?: string | undefined;
  /** The figures per currency the server gave instead of a total (a missing exchange rate). */
  readonly byCurrency?: readonly CurrencyFigures[] | undefined;
}) {
  return (
    <NonIdealState
      className="report-panel-failure"
      icon="error"
      title={`${label} could not be loaded.`}
      description={reason ?? 'Please try again.'}
      action={
        <>
          {byCurrency && byCurrency.length > 0 ? <CurrencyFiguresTable rows={byCurrency} /> : null}
          <Button icon="refresh" data-testid="panel-retry" onClick={retry}>
            Retry
          </Button>
        </>
      }
    />
  );
}

/** The range's figures per currency, each in its own currency and never added together. */
function CurrencyFiguresTable({ rows }: { readonly rows: readonly CurrencyFigures[] }) {
  const captionId = useId();
  return (
    <HTMLTable
      compact
      className="report-table currency-figures"
      data-testid="panel-by-currency"
      aria-labelledby={captionId}
    >
      <caption id={captionId}>Figures per currency, not added together</caption>
      <thead>
        <tr>
          <th scope="col">Currency</th>
          <th scope="col" className="report-numeric">
            GMV
          </th>
          <th scope="col" className="report-numeric">
            Transactions
          </th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.currency}>
            <th scope="row">{row.currency}</th>
            <td className="report-numeric">{formatMoney(row.gmv, currencyFormat(row.currency))}</td>
            <td className="report-numeric">{formatNumber(row.transactions)}</td>
          </tr>
        ))}
      </tbody>
    </HTMLTable>
  );
}

/** What a panel shows: its figures (`children`), or its loading or failed state. */
export function PanelContent({
  panel,
  label,
  children,
}: {
  readonly panel: PanelState | undefined;
  readonly label: string;
  readonly children: ReactNode;
}) {
  if (panel?.status === 'loading') return <PanelSkeleton label={label} />;
  if (panel?.status === 'failed')
    return <PanelFailure label={label} retry={panel.retry} reason={panel.reason} byCurrency={panel.byCurrency} />;
  return children;
}

/** The panel shows its figures (loaded, empty, or nothing asked yet). */
export function panelShown(panel: PanelState): boolean {
  return panel.status !== 'loading' && panel.status !== 'failed';
}

export interface ReportBlockProps {
  readonly title: string;
  /** The panel the block draws: a skeleton while it loads, a retry when it failed. */
  readonly panel?: PanelState;
  /** Above the panel, whatever its state (a view switch). */
  readonly controls?: ReactNode;
  readonly chart: ReactNode;
  /** The table beside the chart. */
  readonly table?: ReactNode;
  /** 'below': a table of many columns goes under the chart, at the block's full width. */
  readonly tablePlacement?: 'beside' | 'below';
  readonly testId?: string;
}

/** The name of a report table for assistive technology: its block's title ('Daily GMV: table'). */
const ReportTableLabelContext = createContext('Table');

/**
 * A chart with its table beside it (below on narrow screens). The chart is named by the block's title and
 * described by the table (ChartFrameContext); the table names itself by the title too (its scrolling region).
 */
export function ReportBlock({
  title,
  panel,
  controls,
  chart,
  table,
  tablePlacement = 'beside',
  testId,
}: ReportBlockProps) {
  const id = useId();
  const titleId = `${id}-title`;
  const tableId = `${id}-table`;
  const frame = useMemo(() => ({ title, ...(table ? { tableId } : {}) }), [title, table, tableId]);
  return (
    <Card data-testid={testId} className="report-block" aria-busy={panel?.status === 'loading'}>
      <H5 id={titleId}>{title}</H5>
      {controls}
      <PanelContent panel={panel} label={title}>
        <div className={tablePlacement === 'below' ? 'report-block-body report-block-stacked' : 'report-block-body'}>
          <div className="report-block-chart">
            <ChartFrameContext.Provider value={frame}>{chart}</ChartFrameContext.Provider>
          </div>
          {table ? (
            <div id={tableId} className="report-block-table">
              <ReportTableLabelContext.Provider value={`${title}: table`}>{table}</ReportTableLabelContext.Provider>
            </div>
          ) : null}
        </div>
      </PanelContent>
    </Card>
  );
}

export interface Column<Row> {
  readonly key: string;
  readonly label: string;
  /** What the column holds (DataTable): its sizing and alignment, and the first order it sorts in. */
  readonly kind: ColumnKind;
  readonly render: (row: Row) => ReactNode;
  /** The cell's whole text (its tooltip when cut), when `render` gives more than a string. */
  readonly text?: (row: Row) => string;
  /** What the column sorts by (default: the row's field of the column's key). */
  readonly value?: (row: Row) => string | number | null | undefined;
}

function cellValue<Row>(column: Column<Row> | undefined, row: Row): string | number | null | undefined {
  if (column?.value) return column.value(row);
  const field =
    column && typeof row === 'object' && row !== null ? (row as Record<string, unknown>)[column.key] : undefined;
  return typeof field === 'number' || typeof field === 'string' ? field : undefined;
}

/** A report column as DataTable draws it: sorted by its key (a column without a name does not sort). */
function dataColumnOf<Row>(column: Column<Row>): DataColumn<Row> {
  return {
    key: column.key,
    header: column.label,
    kind: column.kind,
    render: column.render,
    ...(column.label === '' ? {} : { sort: column.key }),
    ...(column.text ? { text: column.text } : {}),
  };
}

/**
 * A table of rows (DataTable), sortable by any column (its header's button; the rows come in the order given until
 * then); 'No Data' in a row when there are none. The first column names the row (an outlet, a mall, a date): it
 * takes the room the figures leave, a long name cut with its whole text (the column's `text`) as its tooltip. Rows
 * are told apart by their content by default.
 */
export function ReportTable<Row>({
  columns,
  rows,
  testId,
  label,
  rowKey = (row) => JSON.stringify(row),
}: {
  columns: readonly Column<Row>[];
  rows: readonly Row[];
  testId?: string;
  /** The table's name (default: its ReportBlock's title). */
  label?: string;
  rowKey?: (row: Row) => string;
}) {
  const blockLabel = useContext(ReportTableLabelContext);
  const [sort, setSort] = useState<TableSort | undefined>(undefined);
  const shown = useMemo(
    () =>
      sortTableRows(rows, sort, (row, key) =>
        cellValue(
          columns.find((column) => column.key === key),
          row,
        ),
      ),
    [rows, sort, columns],
  );
  const dataColumns = useMemo(() => columns.map(dataColumnOf), [columns]);
  const onSort = (key: string) => {
    const kind = columns.find((column) => column.key === key)?.kind;
    setSort(nextTableSort(sort, key, kind !== undefined && isNumericKind(kind)));
  };
  return (
    <DataTable
      label={label ?? blockLabel}
      className="report-table"
      testId={testId}
      columns={dataColumns}
      rows={shown}
      rowKey={rowKey}
      sortColumn={sort?.column}
      order={sort?.order}
      onSort={onSort}
      testIdPrefix={testId}
      skeleton={{ label: 'Loading', testId: 'report-skeleton-row' }}
      empty={{ inline: true }}
    />
  );
}

const GROWTH_CLASS: Readonly<Record<GrowthLine['trend'], string>> = {
  up: 'bp6-text-success',
  down: 'bp6-text-danger',
  flat: Classes.TEXT_MUTED,
  none: Classes.TEXT_MUTED,
};

/** A KPI: the figure, and its growth line (kpiGrowthLine: the rate and what it compares, or why there is none). */
export function KpiCard({
  label,
  value,
  growth,
  loading = false,
  testId,
}: {
  label: string;
  value: string;
  growth: GrowthLine | undefined;
  /** Its panel is loading: a skeleton instead of a figure. */
  loading?: boolean;
  testId: string;
}) {
  return (
    <Card data-testid={testId} className="kpi-card" aria-busy={loading}>
      <div className={Classes.TEXT_MUTED}>{label}</div>
      {loading ? (
        <PanelSkeleton label={label} />
      ) : (
        <>
          <div data-testid={`${testId}-value`} className="kpi-card-value">
            {value}
          </div>
          {growth ? (
            <div data-testid={`${testId}-growth`} className={GROWTH_CLASS[growth.trend]}>
              {growth.text}
            </div>
          ) : null}
          {growth?.compared ? (
            <div data-testid={`${testId}-compared`} className={`kpi-card-compared ${Classes.TEXT_MUTED}`}>
              {growth.compared}
            </div>
          ) : null}
        </>
      )}
    </Card>
  );
}

/** A row of KPI cards drawn from one panel: the cards, or the panel's failure with its retry. */
export function KpiRow({ panel, label, children }: { panel: PanelState; label: string; children: ReactNode }) {
  return (
    <div className="kpi-row">
      {panel.status === 'failed' ? (
        <Card className="kpi-card">
          <PanelFailure label={label} retry={panel.retry} reason={panel.reason} byCurrency={panel.byCurrency} />
        </Card>
      ) : (
        children
      )}
    </div>
  );
}

/**
 * Whether a page of one answer (a tenant's page: `idle` until its outlet and month are known) has settled for a
 * query: its answer shown, empty or failed, the page's ready marker says true.
 */
export function isSettled(status: 'idle' | 'loading' | 'loaded' | 'empty' | 'failed'): boolean {
  return status === 'loaded' || status === 'empty' || status === 'failed';
}

/**
 * The toolbar of a page whose exports are its tables' own (Cross Spending), or that exports otherwise (the tenant's
 * Gross Turnover and Rent Statement): Subscribe and the page's ready marker,
 * which the server's browser waits for before it prints the page (as on `ReportToolbar`).
 */
export function SubscribeToolbar({ report }: { report: Pick<ReportExport, 'ready'> }) {
  return (
    <div className="report-toolbar" data-report-ready={report.ready ? 'true' : 'false'}>
      <SubscribeButton />
    </div>
  );
}

/**
 * The page's toolbar: a spinner while loading, Subscribe (the page mailed on a schedule, on the pages that can be:
 * `SubscribeButton`) and the CSV export of what is shown (the page's machine makes it). It carries the page's ready
 * marker (`data-report-ready`: 'true' once every panel has settled for a query), which the server's browser waits
 * for before it prints the page to PDF for a report subscription (server/exports/pageRenderer.ts).
 */
export function ReportToolbar({
  report,
  base,
  files,
  children,
  subscribe = true,
}: {
  report: ReportExport;
  base: string;
  files: () => readonly CsvFile[];
  /** Whether it offers Subscribe: a page of several sections offers it once, on its first section's toolbar. */
  subscribe?: boolean;
  /** The page's own actions, before the export (Mall Home's 'Alert me when…'). */
  children?: ReactNode;
}) {
  const currency = useCurrency().code;
  const withCurrency = () => files().map((file) => (currency === undefined ? file : { ...file, currency }));
  return (
    // The ready marker: the server's browser prints the page for a report subscription once it says true.
    <div className="report-toolbar" data-report-ready={report.ready ? 'true' : 'false'}>
      {report.loading ? <Spinner size={16} data-testid="report-loading" /> : null}
      {children}
      {subscribe ? <SubscribeButton /> : null}
      <Button
        icon="download"
        data-testid="export-csv"
        loading={report.exporting}
        disabled={!report.canExport}
        onClick={() => report.exportFiles(base, withCurrency())}
      >
        Export CSV
      </Button>
    </div>
  );
}
