// Highcharts first: the heatmap module registers itself on the Highcharts instance it finds loaded.
import 'highcharts';
import 'highcharts/modules/heatmap';
import type Highcharts from 'highcharts';
import { useContext, useMemo } from 'react';
import type { Metric } from '../../../domain/dateLimits';
import { type CurrencyFormat, formatHour } from '../../../domain/format';
import { heatMapCsvRows, heatMapKeys, type SeriesPoint, WEEKDAYS } from '../../../domain/mallReportViews';
import type { PeriodMark } from '../../../domain/periods';
import type { Theme } from '../../../domain/theme';
import { peakHoursReportMachine } from '../../../machines/mallReportMachine';
import { Chart } from '../../charts/Chart';
import { useChartAnnotations } from '../../charts/chartAnnotations';
import { ChartThemeContext, heatMapLowColor } from '../../charts/chartColors';
import { CHART_COLORS } from '../../charts/chartTheme';
import { useMallCurrency } from '../../common/Money';
import { PageHeader } from '../../filters/PageHeader';
import {
  type Column,
  categoryAxis,
  MallReportSection,
  pointsOrNone,
  ReportBlock,
  ReportTable,
  ReportToolbar,
  valueAxis,
} from '../../reports/ReportParts';
import { formatMetric, METRIC_LABELS, metricTitle, periodPoints } from '../../reports/reportCharts';
import { usePeriodMarks } from '../../reports/usePeriodMarks';
import { useReport } from '../../reports/useReport';
import type { PageProps } from '../pageProps';

function heatMapOptions(
  hours: readonly number[],
  heatMap: readonly number[][],
  shown: boolean,
  metric: Metric,
  currency: CurrencyFormat,
  theme: Theme,
): Highcharts.Options {
  const points: [number, number, number][] = [];
  if (shown) {
    heatMap.forEach((row, weekday) => {
      row.forEach((value, hourIndex) => {
        points.push([hourIndex, weekday, value]);
      });
    });
  }
  return {
    chart: { type: 'heatmap' },
    title: { text: undefined },
    xAxis: categoryAxis(hours.map((hour) => formatHour(hour))),
    yAxis: { categories: [...WEEKDAYS], title: { text: '' }, reversed: true },
    colorAxis: { min: 0, minColor: heatMapLowColor(theme), maxColor: CHART_COLORS[0] ?? '#2D72D2' },
    legend: { align: 'right', layout: 'vertical', verticalAlign: 'middle' },
    tooltip: {
      formatter() {
        const point = this as unknown as { x: number; y: number; value: number };
        return `${WEEKDAYS[point.y] ?? ''} ${formatHour(hours[point.x] ?? 0)}: ${formatMetric(metric, point.value, currency)}`;
      },
    },
    series: [{ type: 'heatmap', name: METRIC_LABELS[metric], borderWidth: 1, data: points }],
  };
}

/** A point of the series with its period's mark (its label; partial when open or cut short). */
type MarkedPoint = SeriesPoint & { readonly mark: PeriodMark };

function seriesOptions(
  series: readonly MarkedPoint[],
  shown: boolean,
  metric: Metric,
  currency: CurrencyFormat,
): Highcharts.Options {
  return {
    title: { text: undefined },
    xAxis: categoryAxis(series.map((point) => point.mark.label)),
    yAxis: valueAxis(metricTitle(metric, currency)),
    legend: { enabled: false },
    series: [
      {
        type: 'line',
        name: METRIC_LABELS[metric],
        data: pointsOrNone(
          shown,
          periodPoints(
            series.map((point) => point.value),
            series.map((point) => point.mark),
            series.map((point) => point.value === 0),
            { marker: { fillColor: '#ffffff', lineWidth: 2 }, dashStyle: 'Dash' },
          ),
        ),
      },
    ],
  };
}

/** 'Average GMV'; a measure that is an average already keeps its name ('Average Transaction Value'). */
function averageOf(label: string): string {
  return label.startsWith('Average ') ? label : `Average ${label}`;
}

/** Mall peak hours (Header V2): the weekday × hour heat map and the chosen metric over the time range. */
export function MallPeakHoursPage({ title, header }: PageProps) {
  const report = useReport(peakHoursReportMachine);
  const { query } = report;
  const data = report.dataOf('peakHours');
  const panel = report.panelOf('peakHours');
  const metric = query?.metric ?? 'gmv';
  const shown = data !== undefined;
  const hours = data?.hours ?? [];
  const heatMap = data?.heatMap ?? [];
  const points = data?.series ?? [];
  const marks = usePeriodMarks(
    query,
    points.map((point) => point.period),
  );
  const series = useMemo<MarkedPoint[]>(
    () =>
      points.map((point, index) => ({
        ...point,
        mark: marks[index] ?? { label: point.period, partial: false, open: false },
      })),
    [points, marks],
  );
  const currency = useMallCurrency();
  const theme = useContext(ChartThemeContext);
  const heat = useMemo(
    () => heatMapOptions(hours, heatMap, shown, metric, currency, theme),
    [hours, heatMap, shown, metric, currency, theme],
  );
  const line = useMemo(() => seriesOptions(series, shown, metric, currency), [series, shown, metric, currency]);
  // Festivals and events over the days of a daily series (weeks and months have no day to draw them on).
  const annotations = useChartAnnotations(
    query?.timeRange === 'daily' ? report.dataOf('annotations') : undefined,
    points.map((point) => point.period),
  );
  const seriesColumns: Column<MarkedPoint>[] = [
    { key: 'period', kind: 'text', label: 'Period', render: (row) => row.mark.label },
    {
      key: 'value',
      kind: metric === 'transactions' ? 'count' : 'money',
      label: METRIC_LABELS[metric],
      render: (row) => formatMetric(metric, row.value, currency),
    },
  ];

  return (
    <MallReportSection testId="mall-peak-hours-page">
      <PageHeader title={title} header={header} />
      <ReportToolbar
        report={report}
        base="mall_peak_hours"
        files={() => [
          {
            name: 'peak_hours_by_weekday',
            keys: ['weekday', ...heatMapKeys(hours)],
            rows: heatMapCsvRows(data),
          },
          { name: 'peak_hours_series', keys: ['period', 'value'], rows: shown ? series : [] },
        ]}
      />
      <ReportBlock
        testId="peak-heat-map"
        title={`${averageOf(METRIC_LABELS[metric])} by Weekday and Hour`}
        panel={panel}
        chart={<Chart testId="peak-heat-map-chart" options={heat} height={360} />}
      />
      <ReportBlock
        testId="peak-series"
        title={`${METRIC_LABELS[metric]} over Time`}
        panel={panel}
        chart={<Chart testId="peak-series-chart" options={line} annotations={annotations} />}
        table={<ReportTable columns={seriesColumns} rows={shown ? series : []} />}
      />
    </MallReportSection>
  );
}
