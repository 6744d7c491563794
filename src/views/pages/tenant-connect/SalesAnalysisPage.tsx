import {
  Button,
  ButtonGroup,
  Callout,
  Card,
  Classes,
  FormGroup,
  H5,
  HTMLSelect,
  NonIdealState,
} from '@blueprintjs/core';
import { useSelector } from '@xstate/react';
import type Highcharts from 'highcharts';
import { useMemo } from 'react';
import { Link } from 'wouter';
import { type CurrencyFormat, formatMoney, formatNumber, formatPercentage } from '../../../domain/format';
import { comparisonLabel, type GrowthComparison, NO_COMPLETE_DAY } from '../../../domain/periods';
import { findPage } from '../../../domain/permissions';
import type { Period } from '../../../domain/reports';
import {
  COMPARISON_LABELS,
  COMPARISON_MODES,
  type ComparisonMode,
  comparisonText,
  growthComparison,
  ITEM_BUCKETS,
  type ItemBucket,
  type ItemRow,
  includesToday,
  isComparisonMode,
  isItemBucket,
  isTrendTimeRange,
  itemsCsv,
  KPI_LABELS,
  kpiCardValue,
  kpiCsv,
  kpiFigures,
  type MealTimingRow,
  mealTimingsCsv,
  outletRangeOf,
  salesKpiGrowthLine,
  TIME_RANGE_LABELS,
  TREND_MEASURE_LABELS,
  TREND_MEASURES,
  TREND_TIME_RANGES,
  type Trend,
  type TrendMeasure,
  type TrendRow,
  trendCsv,
} from '../../../domain/salesAnalysis';
import { NavigationContext } from '../../../machines/navigationContext';
import { salesAnalysisMachine } from '../../../machines/tenantConnect/salesAnalysisMachine';
import { Chart } from '../../charts/Chart';
import { CurrencyContext, Money, useOutletCurrency } from '../../common/Money';
import { usePageActor } from '../../common/usePageActor';
import { DateRangeHeader } from '../../filters/DateRangeHeader';
import { FilterHeaderContext } from '../../filters/filterHeaderContext';
import {
  type Column,
  categoryAxis,
  KpiCard,
  KpiRow,
  PanelContent,
  pointsOrNone,
  ReportBlock,
  ReportTable,
  ReportToolbar,
  valueAxis,
} from '../../reports/ReportParts';
import { moneyTitle, moneyTooltip, PARTIAL_POINT, periodPoints, rankingBarOptions } from '../../reports/reportCharts';
import { type PanelState, useReportActor } from '../../reports/useReport';
import type { PageProps } from '../pageProps';
import { TopSkusSection } from './SalesAnalysisTopSkus';
import './salesAnalysis.css';
import './tenantConnect.css';

/** A panel drawn as loading while the page waits for its outlet. */
const WAITING_PANEL: PanelState = { status: 'loading', retry: () => undefined };

/** The item breakdown's periods: 'Per Day', 'Per Week', 'Per Month'. */
const ITEM_BUCKET_LABELS: Readonly<Record<ItemBucket, string>> = {
  daily: 'Day',
  weekly: 'Week',
  monthly: 'Month',
};

/* ---------------------------------------------------------------- charts */

/** The chosen measure per bucket; a partial bucket (today so far, a week or month cut short) drawn apart. */
function trendChart(trend: Trend | undefined, measure: TrendMeasure, currency: CurrencyFormat): Highcharts.Options {
  const rows = trend?.rows ?? [];
  const money = measure === 'revenue';
  const name = TREND_MEASURE_LABELS[measure];
  return {
    title: { text: undefined },
    xAxis: categoryAxis(rows.map((row) => row.label)),
    yAxis: valueAxis(money ? moneyTitle(name, currency) : name),
    legend: { enabled: false },
    series: [
      {
        type: 'column',
        name,
        ...(money ? { tooltip: moneyTooltip(currency) } : {}),
        data: pointsOrNone(
          trend !== undefined,
          periodPoints(
            rows.map((row) => row[measure]),
            rows,
            rows.map((row) => row.revenue === 0 && row.transactions === 0 && row.units === 0),
            PARTIAL_POINT,
          ),
        ),
      },
    ],
  };
}

/* ---------------------------------------------------------------- tables */

const bucketColumn = <Row extends { readonly key: string }>(label: (row: Row) => string): Column<Row> => ({
  key: 'bucket',
  kind: 'text',
  label: 'Period',
  value: (row) => row.key,
  render: label,
});

const TREND_COLUMNS: Column<TrendRow>[] = [
  bucketColumn((row) => row.label),
  { key: 'revenue', kind: 'money', label: 'Revenue', render: (row) => <Money value={row.revenue} /> },
  { key: 'transactions', kind: 'count', label: 'Transactions', render: (row) => formatNumber(row.transactions) },
  { key: 'units', kind: 'count', label: 'Units Sold', render: (row) => formatNumber(row.units) },
];

const MEAL_COLUMNS: Column<MealTimingRow>[] = [
  { key: 'name', kind: 'text', label: 'Meal Timing', render: (row) => row.name },
  { key: 'time', kind: 'text', label: 'Time', value: (row) => row.start_time, render: (row) => row.time },
  { key: 'revenue', kind: 'money', label: 'Revenue', render: (row) => <Money value={row.revenue} /> },
  { key: 'transactions', kind: 'count', label: 'Transactions', render: (row) => formatNumber(row.transactions) },
  { key: 'share', kind: 'percent', label: 'Share of Revenue', render: (row) => formatPercentage(row.share) },
];

const ITEM_COLUMNS: Column<ItemRow>[] = [
  bucketColumn((row) => row.bucket),
  { key: 'rank', kind: 'count', label: '#', render: (row) => formatNumber(row.rank) },
  { key: 'item_name', kind: 'text', label: 'Item', render: (row) => row.item_name },
  { key: 'quantity', kind: 'count', label: 'Quantity', render: (row) => formatNumber(row.quantity) },
  { key: 'amount', kind: 'money', label: 'Amount', render: (row) => <Money value={row.amount} /> },
];

/* ---------------------------------------------------------------- the page */

type PageActor = NonNullable<ReturnType<typeof usePageActor<typeof salesAnalysisMachine>>>;

/**
 * Tenant Connect's sales analysis: the header's outlet over its days, in the outlet's currency. KPIs with their
 * growth against the previous period or the same weekdays last year (each card with the two figures compared and
 * their days; 'No Data' for days without a sale); revenue, transactions and units over time; the
 * top SKUs (server-paged, searchable); sales per meal timing; each period's best-selling items. Each section loads,
 * fails (with a retry) and exports its CSV on its own.
 */
export function SalesAnalysisPage({ title }: PageProps) {
  const page = usePageActor(salesAnalysisMachine);
  const status = useSelector(page, (state) => (state === undefined ? 'waiting' : state.value));
  const topSkus = useSelector(page, (state) => state?.children.topSkus);
  const currency = useOutletCurrency();
  // The header has its outlets and none is chosen: say so rather than draw skeletons.
  const noOutlet = FilterHeaderContext.useSelector(
    (state) => typeof state.context.filters.outlet !== 'number' && state.context.outlets.length > 0,
  );
  const waiting = status === 'waiting';

  return (
    <CurrencyContext.Provider value={currency}>
      <section className="tenant-connect-page sales-analysis-page" data-testid="sales-analysis-page">
        <DateRangeHeader title={title} />
        {waiting && noOutlet ? (
          <Callout intent="primary" data-testid="sa-choose">
            Choose an Outlet to see its sales.
          </Callout>
        ) : page ? (
          <>
            <KpiSection page={page} waiting={waiting} />
            <TrendSection page={page} waiting={waiting} />
            <TopSkusSection topSkus={topSkus} />
            <MealSection page={page} waiting={waiting} />
            <ItemsSection page={page} waiting={waiting} />
          </>
        ) : null}
      </section>
    </CurrencyContext.Provider>
  );
}

/* ---------------------------------------------------------------- KPIs */

/**
 * What the growth compares: the compared period's dates (growthComparison: the range's complete days), today so far
 * when the range includes it, and the shared label when today is left out of the growth ('Growth vs 12–17 Nov
 * (today left out).'); no complete day yet: NO_COMPLETE_DAY.
 */
function ComparedDates({
  range,
  comparison,
  mode,
  today,
}: {
  readonly range: Period | undefined;
  readonly comparison: GrowthComparison | undefined;
  readonly mode: ComparisonMode;
  readonly today: string | undefined;
}) {
  return (
    <p className={`${Classes.TEXT_MUTED} sa-compared`}>
      <span data-testid="sa-compared-dates">
        {range
          ? comparison
            ? comparisonText(comparison.current, mode, comparison.previous)
            : NO_COMPLETE_DAY
          : '\u00a0'}
      </span>
      {range && includesToday(range, today) ? (
        <span data-testid="sa-today-note"> · The days include today: its figures are so far.</span>
      ) : null}
      {comparison?.todayLeftOut ? (
        <span data-testid="sa-growth-days"> Growth {comparisonLabel(comparison)}.</span>
      ) : null}
    </p>
  );
}

function KpiSection({ page, waiting }: { readonly page: PageActor; readonly waiting: boolean }) {
  const report = useReportActor(useSelector(page, (state) => state.children.kpis));
  const mode = useSelector(page, (state) => state.context.comparison);
  const query = useSelector(page, (state) => state.context.query);
  const currency = useOutletCurrency();
  const panel = waiting ? WAITING_PANEL : report.panelOf(mode);
  const answer = report.dataOf(mode);
  const figures = useMemo(() => (answer ? kpiFigures(answer) : undefined), [answer]);
  const range = useMemo(() => query && outletRangeOf(query), [query]);
  // The server's account of the comparison once it answered (the festival days it chose), else the page's own.
  const comparison = useMemo(
    () => answer?.comparison ?? (range && growthComparison(range, mode, query?.today)),
    [answer, range, mode, query],
  );
  const loading = panel.status === 'loading';
  return (
    <Card className="report-block" data-testid="sa-kpis">
      <div className="sa-section-head">
        <H5>Key Figures</H5>
        <FormGroup inline label="Compare with" labelFor="sa-comparison" className="sa-inline-field">
          <HTMLSelect
            id="sa-comparison"
            data-testid="sa-comparison"
            value={mode}
            onChange={(event) => {
              const value = event.currentTarget.value;
              if (isComparisonMode(value)) page.send({ type: 'comparison.change', comparison: value });
            }}
          >
            {COMPARISON_MODES.map((candidate: ComparisonMode) => (
              <option key={candidate} value={candidate}>
                {COMPARISON_LABELS[candidate]}
              </option>
            ))}
          </HTMLSelect>
        </FormGroup>
        <ReportToolbar
          report={report}
          base="sales_analysis_kpis"
          files={() =>
            figures && answer && range ? [kpiCsv(figures, range, answer.comparison, mode, answer.totals)] : []
          }
        />
      </div>
      <ComparedDates range={range} comparison={comparison} mode={mode} today={query?.today} />
      <KpiRow panel={panel} label="Key figures">
        {(['revenue', 'transactions', 'units', 'averageTransactionValue'] as const).map((measure) => {
          const figure = figures?.find((candidate) => candidate.measure === measure);
          const value = figure && answer ? kpiCardValue(figure, answer.totals, currency) : '—';
          return (
            <KpiCard
              key={measure}
              testId={`sa-kpi-${measure}`}
              label={KPI_LABELS[measure]}
              value={value}
              growth={figure && answer ? salesKpiGrowthLine(figure, answer.comparison, currency) : undefined}
              loading={loading}
            />
          );
        })}
      </KpiRow>
    </Card>
  );
}

/* ---------------------------------------------------------------- over time */

function TrendSection({ page, waiting }: { readonly page: PageActor; readonly waiting: boolean }) {
  const report = useReportActor(useSelector(page, (state) => state.children.trend));
  const measure = useSelector(page, (state) => state.context.measure);
  const timeRange = useSelector(page, (state) => state.context.timeRange);
  const hourlyAllowed = useSelector(
    page,
    (state) => state.context.timeRange === 'hourly' || state.can({ type: 'trend.timeRange', timeRange: 'hourly' }),
  );
  const currency = useOutletCurrency();
  const trend = report.dataOf('trend');
  const chart = useMemo(() => trendChart(trend, measure, currency), [trend, measure, currency]);
  const title = `${TIME_RANGE_LABELS[timeRange]} Sales`;
  return (
    <ReportBlock
      testId="sa-trend"
      title={title}
      panel={waiting ? WAITING_PANEL : report.panelOf('trend')}
      tablePlacement="below"
      controls={
        <div className="sa-toolbar">
          <ButtonGroup aria-label="Measure">
            {TREND_MEASURES.map((candidate) => (
              <Button
                key={candidate}
                data-testid={`sa-measure-${candidate}`}
                active={candidate === measure}
                aria-pressed={candidate === measure}
                onClick={() => page.send({ type: 'trend.measure', measure: candidate })}
              >
                {TREND_MEASURE_LABELS[candidate]}
              </Button>
            ))}
          </ButtonGroup>
          <FormGroup inline label="Show" labelFor="sa-time-range" className="sa-inline-field">
            <HTMLSelect
              id="sa-time-range"
              data-testid="sa-time-range"
              value={timeRange}
              onChange={(event) => {
                const value = event.currentTarget.value;
                if (isTrendTimeRange(value)) page.send({ type: 'trend.timeRange', timeRange: value });
              }}
            >
              {TREND_TIME_RANGES.map((candidate) => (
                <option key={candidate} value={candidate} disabled={candidate === 'hourly' && !hourlyAllowed}>
                  {candidate === 'hourly' && !hourlyAllowed ? 'Hourly (up to 31 days)' : TIME_RANGE_LABELS[candidate]}
                </option>
              ))}
            </HTMLSelect>
          </FormGroup>
          <div className="sa-toolbar-end">
            <ReportToolbar
              report={report}
              subscribe={false}
              base="sales_analysis_trend"
              files={() => (trend ? [trendCsv(trend)] : [])}
            />
          </div>
        </div>
      }
      chart={<Chart testId="sa-trend-chart" options={chart} />}
      table={
        <>
          <ReportTable
            testId="sa-trend-table"
            columns={TREND_COLUMNS}
            rows={trend?.rows ?? []}
            rowKey={(row) => row.key}
          />
          {trend ? (
            <p className="sa-totals" data-testid="sa-trend-totals">
              Total: <strong data-testid="sa-trend-total-revenue">{formatMoney(trend.totals.revenue, currency)}</strong>{' '}
              revenue,{' '}
              <strong data-testid="sa-trend-total-transactions">{formatNumber(trend.totals.transactions)}</strong>{' '}
              transactions, <strong data-testid="sa-trend-total-units">{formatNumber(trend.totals.units)}</strong> units
            </p>
          ) : null}
        </>
      }
    />
  );
}

/* ---------------------------------------------------------------- meal timings */

function MealSection({ page, waiting }: { readonly page: PageActor; readonly waiting: boolean }) {
  const report = useReportActor(useSelector(page, (state) => state.children.meals));
  const currency = useOutletCurrency();
  const routes = NavigationContext.useSelector((state) => state.context.routes);
  const canOpenSettings = routes !== undefined && findPage(routes, '/settings') !== undefined;
  const meals = report.dataOf('meals');
  const panel = waiting ? WAITING_PANEL : report.panelOf('meals');
  const chart = useMemo(
    () =>
      rankingBarOptions(
        (meals?.rows ?? []).map((row) => ({ name: row.name, value: row.revenue })),
        'Revenue',
        currency,
      ),
    [meals, currency],
  );
  const title = 'Sales by Meal Timing';
  if (panel.status === 'empty') {
    return (
      <Card className="report-block" data-testid="sa-meals">
        <H5>{title}</H5>
        <NonIdealState
          icon="time"
          title="No meal timings are set up for this outlet."
          description={
            canOpenSettings ? (
              <span data-testid="sa-meals-none">
                Add them in{' '}
                <Link href="/settings" className="sa-link">
                  Settings
                </Link>{' '}
                (Meal Timings) to see sales by meal.
              </span>
            ) : (
              <span data-testid="sa-meals-none">
                They are set up in Settings (Meal Timings); ask your mall administrator to add them.
              </span>
            )
          }
        />
      </Card>
    );
  }
  return (
    <ReportBlock
      testId="sa-meals"
      title={title}
      panel={panel}
      controls={
        <div className="sa-toolbar">
          <span className={Classes.TEXT_MUTED}>
            {meals ? `Shares of the outlet’s revenue of ${formatMoney(meals.revenueTotal, currency)}` : ''}
          </span>
          <div className="sa-toolbar-end">
            <ReportToolbar
              report={report}
              subscribe={false}
              base="sales_analysis_meals"
              files={() => [mealTimingsCsv(meals)]}
            />
          </div>
        </div>
      }
      chart={<Chart testId="sa-meals-chart" options={chart} />}
      table={
        <ReportTable
          testId="sa-meals-table"
          columns={MEAL_COLUMNS}
          rows={meals?.rows ?? []}
          rowKey={(row) => String(row.meal_timing_id)}
        />
      }
    />
  );
}

/* ---------------------------------------------------------------- items */

function ItemsSection({ page, waiting }: { readonly page: PageActor; readonly waiting: boolean }) {
  const report = useReportActor(useSelector(page, (state) => state.children.items));
  const bucket = useSelector(page, (state) => state.context.bucket);
  const rows = report.dataOf('items');
  const panel = waiting ? WAITING_PANEL : report.panelOf('items');
  const title = 'Best-selling Items';
  return (
    <Card className="report-block" data-testid="sa-items" aria-busy={panel.status === 'loading'}>
      <H5>{title}</H5>
      <div className="sa-toolbar">
        <FormGroup inline label="Per" labelFor="sa-item-bucket" className="sa-inline-field">
          <HTMLSelect
            id="sa-item-bucket"
            data-testid="sa-item-bucket"
            value={bucket}
            onChange={(event) => {
              const value = event.currentTarget.value;
              if (isItemBucket(value)) page.send({ type: 'items.bucket', bucket: value });
            }}
          >
            {ITEM_BUCKETS.map((candidate) => (
              <option key={candidate} value={candidate}>
                {ITEM_BUCKET_LABELS[candidate]}
              </option>
            ))}
          </HTMLSelect>
        </FormGroup>
        <span className={Classes.TEXT_MUTED}>The ten best-selling items of each period, by amount</span>
        <div className="sa-toolbar-end">
          <ReportToolbar
            report={report}
            subscribe={false}
            base="sales_analysis_items"
            files={() => [itemsCsv(rows ?? [], bucket)]}
          />
        </div>
      </div>
      <PanelContent panel={panel} label={title}>
        <div className="sa-items-region">
          <ReportTable
            testId="sa-items-table"
            label={`${title}: table`}
            columns={ITEM_COLUMNS}
            rows={rows ?? []}
            rowKey={(row) => `${row.key}-${row.sku_id}`}
          />
        </div>
      </PanelContent>
    </Card>
  );
}
