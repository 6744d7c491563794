import { act, cleanup, render, screen } from '@testing-library/react';
import Highcharts from 'highcharts';
import { afterEach, describe, expect, it } from 'vitest';
import type { BreakdownSeries } from '../../src/api/receipts';
import { Chart } from '../../src/views/charts/Chart';
import { notedPoint, POINT_NOTE_TOOLTIP } from '../../src/views/charts/chartText';
import { PaymentBreakdownChart } from '../../src/views/pages/receipts/PaymentBreakdown';
import { paymentPieOptions, rankingBarOptions } from '../../src/views/reports/reportCharts';

/*
 * Text from devices and users (payment methods, meal timing names, outlet names) reaches the charts as text, never
 * as markup (issue 29): drawn by Highcharts in jsdom through the app's one chart component, with a payload a device
 * sent. Highcharts would otherwise draw `<a href>` as a working link and `<i>` in italics.
 */

const LINK = '<a href=//x.invalid/p>PAYLINK</a>';
const ITALIC = '<i>PAY</i>';

afterEach(cleanup);

/** The Highcharts chart drawn inside the element with this test id. */
function chartIn(testId: string): Highcharts.Chart {
  const container = screen.getByTestId(testId);
  const chart = Highcharts.charts.find(
    (candidate) => candidate !== undefined && container.contains(candidate.container),
  );
  if (!chart) throw new Error(`no chart drawn in ${testId}`);
  return chart;
}

/** The chart's SVG: no element of the payload's markup, and each text shown as written. */
function expectTextOnly(testId: string, part: string, texts: readonly string[]): void {
  const svg = screen.getByTestId(testId).querySelector('svg');
  if (!svg) throw new Error(`no SVG in ${testId}`);
  // Highcharts draws <a> as an SVG link and <i> as a tspan in italics.
  expect(svg.querySelectorAll('a, i, [style*="italic"]')).toHaveLength(0);
  // A label's text is its outline and its fill, each the whole text.
  const shown = [...svg.querySelectorAll(part)].map((element) => element.textContent ?? '').join('\n');
  for (const text of texts) expect(shown).toContain(text);
}

describe('chart text from devices (issue 29)', () => {
  it('shows a payment method in the receipts breakdown legend as its text, not a link or italics', () => {
    const series: BreakdownSeries[] = [LINK, ITALIC, 'A & B "quoted" \'single\''].map((payment_method, index) => ({
      payment_method,
      sum: 10 * (index + 1),
      data: [
        { key: '2024/03/14', value: 5 * (index + 1) },
        { key: '2024/03/15', value: 5 * (index + 1) },
      ],
    }));
    render(<PaymentBreakdownChart series={series} />);
    expectTextOnly('payment-breakdown-chart', '.highcharts-legend-item text', [
      LINK,
      ITALIC,
      'A & B "quoted" \'single\'',
    ]);
    // The data table under the chart (React) writes the names as they are, not escaped twice.
    const headers = [...screen.getByRole('table').querySelectorAll('thead th')].map((cell) => cell.textContent);
    expect(headers).toEqual(['Category', LINK, ITALIC, 'A & B "quoted" \'single\'']);
  });

  it('shows a meal timing name on the sales analysis bar chart axis and in its tooltip as text', () => {
    const options = rankingBarOptions(
      [
        { name: LINK, value: 300 },
        { name: ITALIC, value: 100 },
      ],
      'Revenue',
    );
    // jsdom lays nothing out, so no point is inside the plot area: unclipped, the tooltip is drawn all the same.
    render(
      <Chart
        testId="sa-meals-chart"
        title="Sales by Meal Timing"
        options={{ ...options, plotOptions: { series: { clip: false } } }}
      />,
    );
    expectTextOnly('sa-meals-chart', '.highcharts-xaxis-labels text', [LINK, ITALIC]);
    const chart = chartIn('sa-meals-chart');
    const point = chart.series[0]?.points[0];
    if (!point) throw new Error('no point');
    act(() => chart.tooltip.refresh(point));
    expectTextOnly('sa-meals-chart', '.highcharts-tooltip text', [LINK]);
  });

  it('writes a point’s note under its value in the tooltip, as text (the sales trends’ growth lines)', () => {
    const line = '+18.63%: $720,447.58, 1–27 Nov, vs $607,297.18, 1–27 Nov 2025';
    render(
      <Chart
        testId="noted-chart"
        title="GMV by Month"
        options={{
          title: { text: undefined },
          xAxis: { categories: ['Oct', 'Nov (so far)'] },
          plotOptions: { series: { clip: false } },
          series: [
            {
              type: 'column',
              name: '2026',
              tooltip: { valuePrefix: '$', valueDecimals: 2, ...POINT_NOTE_TOOLTIP },
              data: [notedPoint({ y: 880 }, `${ITALIC} ${LINK}`), notedPoint({ y: 759267.18 }, line)],
            },
          ],
        }}
      />,
    );
    const chart = chartIn('noted-chart');
    const [markup, noted] = chart.series[0]?.points ?? [];
    if (!markup || !noted) throw new Error('no points');
    act(() => chart.tooltip.refresh(noted));
    expectTextOnly('noted-chart', '.highcharts-tooltip text', ['$759,267.18', line]);
    act(() => chart.tooltip.refresh(markup));
    expectTextOnly('noted-chart', '.highcharts-tooltip text', ['$880.00', `${ITALIC} ${LINK}`]);
  });

  it('shows a payment method in the pie data labels as text', () => {
    render(
      <Chart
        testId="payment-split-chart"
        title="Payment Methods"
        options={paymentPieOptions([
          { payment_method: LINK, sum: 60 },
          { payment_method: ITALIC, sum: 40 },
        ])}
      />,
    );
    expectTextOnly('payment-split-chart', '.highcharts-data-label text', [LINK, ITALIC]);
  });
});
