import Highcharts from 'highcharts';
import 'highcharts/modules/exporting';
import 'highcharts/modules/no-data-to-display';
// Partial periods are hatched in their series' colour (chartCategories.partialPoint).
import 'highcharts/modules/pattern-fill';
import HighchartsReact from 'highcharts-react-official';
import { createContext, useContext, useEffect, useId, useMemo, useRef } from 'react';
import { ANNOTATION_KIND_LABELS, annotationKindsOf, annotationSpans } from '../../domain/chartAnnotations';
import { ANNOTATION_COLORS, type ChartAnnotations, withAnnotations } from './chartAnnotations';
import { ChartThemeContext, chartBackground, chartPalette, noDataColor } from './chartColors';
import { chartTable } from './chartTable';
import { textOnlyOptions } from './chartText';
import { CHART_COLORS, chartAnimationsEnabled, NO_DATA_TEXT } from './chartTheme';

Highcharts.setOptions({ lang: { noData: NO_DATA_TEXT } });

/** What the block around a chart tells it: its name, and the id of the table that shows its data. */
export interface ChartFrame {
  readonly title?: string;
  readonly tableId?: string;
}

export const ChartFrameContext = createContext<ChartFrame>({});

export interface ChartProps {
  /**
   * The chart's options; colours, 'No Data', credits and animation are filled in here, and every text is drawn as
   * text (names from devices and users never as markup: `textOnlyOptions`).
   */
  readonly options: Highcharts.Options;
  readonly height?: number;
  readonly testId?: string;
  /** The chart's accessible name; default: the title of the block around it (ChartFrameContext). */
  readonly title?: string;
  /**
   * The festivals, holidays and events over a chart of days (its categories' days in order): plot bands and lines
   * on its x axis, with a key under it naming each kind drawn.
   */
  readonly annotations?: ChartAnnotations | undefined;
}

/** The key of a chart's annotations: each kind drawn, its colour and name, as text. */
function AnnotationKey({ annotations }: { annotations: ChartAnnotations }) {
  const shown = annotationSpans(annotations.days, annotations.items).map((span) => span.annotation);
  const kinds = annotationKindsOf(shown);
  if (kinds.length === 0) return null;
  return (
    <ul className="app-chart-annotation-key" aria-label="Annotations" data-testid="chart-annotation-key">
      {kinds.map((kind) => (
        <li key={kind} data-kind={kind}>
          <span className="app-chart-annotation-swatch" style={{ backgroundColor: ANNOTATION_COLORS[kind] }} />
          {ANNOTATION_KIND_LABELS[kind]}
          {': '}
          {shown
            .filter((annotation) => annotation.kind === kind)
            .map((annotation) => annotation.label)
            .join(', ')}
        </li>
      ))}
    </ul>
  );
}

/** The chart's data as a table, under a disclosure that starts closed: the chart's text alternative. */
function ChartDataTable({ id, title, options }: { id: string; title: string; options: Highcharts.Options }) {
  const table = useMemo(() => chartTable(options), [options]);
  return (
    <details className="app-chart-data">
      <summary>Data table</summary>
      <table id={id} className="bp6-html-table bp6-compact">
        <caption>{`${title} (data)`}</caption>
        <thead>
          <tr>
            {table.columns.map((column) => (
              <th key={column} scope="col">
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {table.rows.length === 0 ? (
            <tr>
              <td colSpan={table.columns.length}>No Data</td>
            </tr>
          ) : (
            table.rows.map(([label = '', ...values]) => (
              <tr key={label}>
                <th scope="row">{label}</th>
                {table.columns.slice(1).map((column, index) => (
                  <td key={column}>{values[index]}</td>
                ))}
              </tr>
            ))
          )}
        </tbody>
      </table>
    </details>
  );
}

/** The widest chart that lays its legend out for a phone. */
const NARROW_CHART_WIDTH = 500;

/** The plot's top: below the export button (top right, 28 px high), so that the button never sits on a label. */
export const PLOT_TOP = 48;

/**
 * A Highcharts chart with the app's palette in the app's theme (`ChartThemeContext`), 'No Data' when there is
 * nothing to draw, PNG/SVG export made in the browser, animations off in tests, and the text of its data
 * (categories, series and point names) drawn as text, never as markup. The chart is an image named by its title
 * and described by its data table: the table of the block around it, or else its own, under a closed 'Data table'
 * disclosure.
 */
export function Chart({ options, height = 320, testId, title, annotations }: ChartProps) {
  const frame = useContext(ChartFrameContext);
  const ownTableId = useId();
  const name = title ?? frame.title ?? 'Chart';
  const tableId = title === undefined ? frame.tableId : undefined;
  const describedBy = tableId ?? ownTableId;
  const chartRef = useRef<HighchartsReact.RefObject>(null);
  const theme = useContext(ChartThemeContext);
  const merged = useMemo<Highcharts.Options>(() => {
    const animation = chartAnimationsEnabled();
    // Text as text: a payment method '<a href=…>' is drawn as those characters, not as a link.
    const text = textOnlyOptions(withAnnotations(options, annotations, theme));
    return {
      ...text,
      colors: [...CHART_COLORS],
      credits: { enabled: false },
      // PNG and SVG made in the browser (exporting.local): nothing is sent to an export server, so export works
      // offline and chart data stays on the machine.
      exporting: {
        local: true,
        fallbackToExportServer: false,
        filename: options.exporting?.filename ?? testId ?? 'chart',
        // Top right, above the plot (PLOT_TOP): never on an axis label.
        buttons: { contextButton: { menuItems: ['downloadPNG', 'downloadSVG'], y: -5 } },
        ...options.exporting,
      },
      noData: { style: { fontSize: '14px', fontWeight: '500', color: noDataColor(theme) } },
      palette: chartPalette(theme),
      chart: {
        height,
        marginTop: PLOT_TOP,
        ...chartBackground(theme),
        ...text.chart,
        animation,
      },
      plotOptions: {
        ...text.plotOptions,
        series: { ...text.plotOptions?.series, animation },
      },
      // A narrow chart (a phone) keeps its plot: the legend goes in rows under it, paged beyond two rows.
      responsive: {
        rules: [
          {
            condition: { maxWidth: NARROW_CHART_WIDTH },
            chartOptions: {
              legend: { layout: 'horizontal', align: 'center', verticalAlign: 'bottom', maxHeight: 56 },
            },
          },
        ],
      },
    };
  }, [options, height, testId, theme, annotations]);
  // Without the accessibility module Highcharts makes the chart an image named by its (empty) title: name it
  // and point at its data. Runs after every update, as Highcharts redraws.
  useEffect(() => {
    chartRef.current?.chart.renderer.boxWrapper.attr({ 'aria-label': name, 'aria-describedby': describedBy });
  });
  return (
    <div className="app-chart">
      <div data-testid={testId}>
        {/* Drawn anew in the other theme (an update would keep colours the new options leave unset). */}
        <HighchartsReact key={theme} ref={chartRef} highcharts={Highcharts} options={merged} />
      </div>
      {annotations ? <AnnotationKey annotations={annotations} /> : null}
      {tableId === undefined ? <ChartDataTable id={ownTableId} title={name} options={options} /> : null}
    </div>
  );
}
