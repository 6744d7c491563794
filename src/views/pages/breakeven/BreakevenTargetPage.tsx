import { Button, Callout, Classes, HTMLSelect, Tag } from '@blueprintjs/core';
import { useSelector } from '@xstate/react';
import type Highcharts from 'highcharts';
import { useMemo, useState } from 'react';
import type { BreakevenRow, BreakevenTotal } from '../../../api/breakeven';
import {
  BREAKEVEN_CSV_KEYS,
  breakevenCsvRows,
  breakevenCurrencyNote,
  DEPARTMENT_TITLES,
  type Department,
  departmentOfRoles,
  gtoBasis,
  includesGst,
  PROJECTION_METHOD,
  progressText,
  trackLabel,
} from '../../../domain/breakeven';
import { currencyFormat, formatMoney } from '../../../domain/format';
import { AuthContext } from '../../../machines/authContext';
import { BREAKEVEN_PAGE_MACHINES } from '../../../machines/breakevenPageMachine';
import { Chart } from '../../charts/Chart';
import { CURRENT_SERIES_COLOR, rankedCategoryAxis, rankedNote, topAndBottom } from '../../charts/chartCategories';
import { CHART_COLORS } from '../../charts/chartTheme';
import { usePageActor } from '../../common/usePageActor';
import { PageHeader } from '../../filters/PageHeader';
import {
  type Column,
  MallReportSection,
  ReportBlock,
  ReportTable,
  ReportToolbar,
  valueAxis,
} from '../../reports/ReportParts';
import { useReportActor } from '../../reports/useReport';
import type { PageProps } from '../pageProps';
import { BreakevenTargetsDialog } from './BreakevenTargetsDialog';

const money = (value: number | null, currency: string) =>
  value === null ? '' : formatMoney(value, currencyFormat(currency));

/** The figures an outlet's row and a currency's total both show, in the row's own currency. */
function figureColumns<
  TRow extends Pick<BreakevenRow, 'currency' | 'gto' | 'breakeven_target' | 'difference' | 'progress'>,
>(): Column<TRow>[] {
  return [
    { key: 'gto', kind: 'money', label: 'GTO', render: (row) => money(row.gto, row.currency) },
    {
      key: 'breakeven_target',
      kind: 'money',
      label: 'Breakeven Target',
      render: (row) => money(row.breakeven_target, row.currency),
    },
    { key: 'difference', kind: 'money', label: 'Difference', render: (row) => money(row.difference, row.currency) },
    { key: 'progress', kind: 'percent', label: 'Progress', render: (row) => progressText(row.progress) },
  ];
}

const ROW_COLUMNS: Column<BreakevenRow>[] = [
  { key: 'outlet_name', kind: 'text', label: 'Outlet', render: (row) => row.outlet_name },
  { key: 'mall_name', kind: 'text', label: 'Mall', render: (row) => row.mall_name },
  // The amounts of a row are in its outlet's currency, never converted.
  { key: 'currency', kind: 'id', label: 'Currency', render: (row) => row.currency },
  ...figureColumns<BreakevenRow>(),
];

const PROJECTION_COLUMNS: Column<BreakevenRow>[] = [
  {
    key: 'projected_gto',
    kind: 'money',
    label: 'Projected GTO',
    render: (row) => money(row.projected_gto, row.currency),
  },
  {
    key: 'projected_progress',
    kind: 'percent',
    label: 'Projected Progress',
    render: (row) => progressText(row.projected_progress),
  },
  {
    key: 'on_track',
    kind: 'status',
    label: 'Status',
    value: (row) => trackLabel(row.on_track),
    render: (row) =>
      row.on_track === null ? (
        ''
      ) : (
        <Tag minimal intent={row.on_track ? 'success' : 'warning'} data-testid="breakeven-track">
          {trackLabel(row.on_track)}
        </Tag>
      ),
  },
];

const TOTAL_COLUMNS: Column<BreakevenTotal>[] = [
  { key: 'currency', kind: 'id', label: 'Currency', render: (row) => row.currency },
  { key: 'outlets', kind: 'count', label: 'Outlets', render: (row) => String(row.outlets) },
  ...figureColumns<BreakevenTotal>(),
];

const BREAKEVEN_COLOR = '#238551';
/** The projection: a colour of its own, apart from the progress bars and the 100 % line. */
const PROJECTED_COLOR = CHART_COLORS[2] ?? '#C87619';

/**
 * Progress per outlet with a target, as bars against the 100 % line (the projection beside it while open): the
 * top and bottom outlets when there are many (`note` says so; every outlet is in the table), the line named in the
 * legend rather than over the bars.
 */
function progressChart(rows: readonly BreakevenRow[], open: boolean): { options: Highcharts.Options; note?: string } {
  const selection = topAndBottom(rows, (row) => row.progress);
  const shown = selection.shown;
  const options: Highcharts.Options = {
    chart: { type: 'bar', height: Math.max(240, 28 * shown.length * (open ? 1.5 : 1) + 140) },
    title: { text: undefined },
    xAxis: rankedCategoryAxis(shown.map((row) => row.outlet_name)),
    yAxis: valueAxis('Progress (%)', {
      plotLines: [{ value: 100, width: 2, color: BREAKEVEN_COLOR, zIndex: 4 }],
    }),
    tooltip: { valueDecimals: 1, valueSuffix: '%' },
    series: [
      {
        type: 'bar',
        name: 'Progress',
        color: CURRENT_SERIES_COLOR,
        data: shown.map((row) => Number((row.progress ?? 0).toFixed(1))),
      },
      ...(open
        ? [
            {
              type: 'bar' as const,
              name: 'Projected progress',
              color: PROJECTED_COLOR,
              data: shown.map((row) => Number((row.projected_progress ?? 0).toFixed(1))),
            },
          ]
        : []),
      // The 100 % line's name, in the legend: a plot line's own label is drawn over the bars.
      {
        type: 'line',
        name: 'Breakeven (100%)',
        color: BREAKEVEN_COLOR,
        data: [],
        marker: { enabled: false },
        enableMouseTracking: false,
        events: { legendItemClick: () => false },
      },
    ],
  };
  const note = rankedNote(selection, 'outlets with a target', 'outlet');
  return note === undefined ? { options } : { options, note };
}

/** The department of the page: Marcom's own page, else the user's department, else the one the operator picks. */
function useDepartment(marcom: boolean): {
  department: Department;
  choose: ((department: Department) => void) | undefined;
} {
  const roles = AuthContext.useSelector((state) => state.context.user?.roles);
  const own = useMemo(() => departmentOfRoles(roles ?? []), [roles]);
  const [chosen, setChosen] = useState<Department>('leasing');
  if (marcom) return { department: 'marcom', choose: undefined };
  if (own !== undefined) return { department: own, choose: undefined };
  return { department: chosen, choose: setChosen };
}

/**
 * A department's breakeven page (§2, §9): each outlet's GTO of the month against the department's target, by
 * progress (outlets without a target last), sortable by any column; totals per currency; while the month is open,
 * the projected month end and whether each outlet is on track.
 */
export function BreakevenPage({ title, header, marcom = false }: PageProps & { readonly marcom?: boolean }) {
  const { department, choose } = useDepartment(marcom);
  const page = usePageActor(BREAKEVEN_PAGE_MACHINES[department]);
  const report = useReportActor(useSelector(page, (state) => state?.children.report));
  const targets = useSelector(page, (state) => state?.children.targets);
  const canEdit = useSelector(page, (state) => state?.can({ type: 'targets.edit' }) === true);
  const answer = report.dataOf('breakeven');
  const rows = answer?.data ?? [];
  const open = answer?.month_open === true;
  const chart = useMemo(() => progressChart(rows, open), [rows, open]);
  const currencyNote = useMemo(() => breakevenCurrencyNote(rows.map((row) => row.currency)) ?? null, [rows]);
  const columns = useMemo(() => (open ? [...ROW_COLUMNS, ...PROJECTION_COLUMNS] : ROW_COLUMNS), [open]);
  const month = answer?.month ?? report.query?.month ?? '';

  return (
    <MallReportSection testId="breakeven-page" currencyNote={currencyNote}>
      <PageHeader title={title} header={header} />
      <div className="report-toolbar">
        {choose ? (
          <label className={Classes.INLINE} htmlFor="breakeven-department">
            Department{' '}
            <HTMLSelect
              id="breakeven-department"
              data-testid="breakeven-department"
              value={department}
              onChange={(event) => choose(event.currentTarget.value as Department)}
              options={(['leasing', 'finance', 'operations'] as const).map((value) => ({
                value,
                label: DEPARTMENT_TITLES[value],
              }))}
            />
          </label>
        ) : null}
        <Button
          icon="edit"
          text="Edit targets"
          data-testid="breakeven-edit"
          disabled={!canEdit}
          onClick={() => page?.send({ type: 'targets.edit' })}
        />
        <ReportToolbar
          report={report}
          base={`breakeven_${department}_${month}`}
          files={() => [{ name: 'breakeven', keys: [...BREAKEVEN_CSV_KEYS], rows: breakevenCsvRows(rows) }]}
        />
      </div>
      <Callout compact icon="info-sign" data-testid="breakeven-basis">
        {gtoBasis(includesGst(department))}
        {open ? ` ${PROJECTION_METHOD}` : ''}
      </Callout>
      <ReportBlock
        testId="breakeven-progress"
        title={`${DEPARTMENT_TITLES[department]} Breakeven Progress`}
        panel={report.panelOf('breakeven')}
        chart={
          <>
            {chart.note ? (
              <p className={Classes.TEXT_MUTED} data-testid="breakeven-chart-note">
                {chart.note}
              </p>
            ) : null}
            <Chart testId="breakeven-chart" options={chart.options} />
          </>
        }
        table={
          <ReportTable testId="breakeven-table" columns={columns} rows={rows} rowKey={(row) => String(row.outlet_id)} />
        }
        tablePlacement="below"
      />
      <ReportBlock
        testId="breakeven-totals"
        title="Totals per Currency"
        panel={report.panelOf('breakeven')}
        chart={null}
        table={
          <ReportTable
            testId="breakeven-totals-table"
            columns={TOTAL_COLUMNS}
            rows={answer?.totals ?? []}
            rowKey={(row) => row.currency}
          />
        }
        tablePlacement="below"
      />
      {targets ? (
        <BreakevenTargetsDialog actor={targets} onClose={() => page?.send({ type: 'targets.close' })} />
      ) : null}
    </MallReportSection>
  );
}

/** /shopper-connect/breakeven-target/marcom: Marcom's targets, GST included. */
export function MarcomBreakevenPage(props: PageProps) {
  return <BreakevenPage {...props} marcom />;
}
