import Highcharts from 'highcharts';
import 'highcharts/modules/exporting';
import 'highcharts/modules/no-data-to-display';
import HighchartsReact from 'highcharts-react-official';
import { useMemo } from 'react';
import { CHART_COLORS, chartAnimationsEnabled, NO_DATA_TEXT } from './chartTheme';

Highcharts.setOptions({ lang: { noData: NO_DATA_TEXT } });

export interface ChartProps {
  /** The chart's options; colours, 'No Data', credits and animation are filled in here. */
  readonly options: Highcharts.Options;
  readonly height?: number;
  readonly testId?: string;
}

/**
 * A Highcharts chart with the app's palette, 'No Data' when there is nothing to draw, PNG/SVG export made in the
 * browser, animations off in tests.
 */
export function Chart({ options, height = 320, testId }: ChartProps) {
  const merged = useMemo<Highcharts.Options>(() => {
    const animation = chartAnimationsEnabled();
    return {
      ...options,
      colors: [...CHART_COLORS],
      credits: { enabled: false },
      // PNG and SVG made in the browser (exporting.local): nothing is sent to an export server, so export works
      // offline and chart data stays on the machine.
      exporting: {
        local: true,
        fallbackToExportServer: false,
        filename: options.exporting?.filename ?? testId ?? 'chart',
        buttons: { contextButton: { menuItems: ['downloadPNG', 'downloadSVG'] } },
        ...options.exporting,
      },
      noData: { style: { fontSize: '14px', fontWeight: '500', color: '#5F6B7C' } },
      chart: { height, ...options.chart, animation },
      plotOptions: {
        ...options.plotOptions,
        series: { ...options.plotOptions?.series, animation },
      },
    };
  }, [options, height]);
  return (
    <div data-testid={testId}>
      <HighchartsReact highcharts={Highcharts} options={merged} />
    </div>
  );
}
