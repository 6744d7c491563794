import { HTMLTable } from '@blueprintjs/core';
import type Highcharts from 'highcharts';
import { useMemo } from 'react';
import type { BreakdownSeries, PaymentSummary } from '../../../api/receipts';
import { breakdownLabel } from '../../../domain/receipts';
import { Chart } from '../../charts/Chart';
import { CHART_COLORS, GRID_LINE_LIMIT, LABEL_LIMIT } from '../../charts/chartTheme';
import { Money } from '../../common/Money';

/** The payment method breakdown (§7): a daily column chart per method, labelled DD/MM, 'No Data' when empty. */
export function PaymentBreakdownChart({ series }: { readonly series: readonly BreakdownSeries[] }) {
  const options = useMemo<Highcharts.Options>(() => {
    const keys = series[0]?.data.map((point) => point.key) ?? [];
    const hasData = series.some((entry) => entry.data.some((point) => point.value !== 0));
    const step = Math.max(1, Math.ceil(keys.length / LABEL_LIMIT));
    return {
      chart: { type: 'column' },
      title: { text: undefined },
      xAxis: { categories: keys.map(breakdownLabel), labels: { step } },
      yAxis: { title: { text: undefined }, tickAmount: Math.min(GRID_LINE_LIMIT, 6) },
      tooltip: { shared: true, valueDecimals: 2 },
      plotOptions: { column: { stacking: 'normal' } },
      series: hasData
        ? series.map((entry) => ({
            type: 'column' as const,
            name: entry.payment_method,
            data: entry.data.map((point) => point.value),
          }))
        : [],
    };
  }, [series]);
  return <Chart options={options} testId="payment-breakdown-chart" title="Payment Method Breakdown" />;
}

/** The payment summary (§3): method, sum, processing fee, net amount, with the method's chart colour. */
export function PaymentSummaryTable({ rows }: { readonly rows: readonly PaymentSummary[] }) {
  const totalSum = rows.reduce((total, row) => total + row.sum, 0);
  const totalNet = rows.reduce((total, row) => total + row.net_amount, 0);
  return (
    <HTMLTable compact striped className="payment-summary" data-testid="payment-summary">
      <thead>
        <tr>
          <th>Payment Method</th>
          <th>Sum</th>
          <th>Processing Fees</th>
          <th>Net Amount</th>
        </tr>
      </thead>
      <tbody>
        {rows.length === 0 ? (
          <tr>
            <td colSpan={4}>No Data</td>
          </tr>
        ) : (
          rows.map((row, index) => (
            <tr key={row.payment_method} data-testid={`payment-row-${row.payment_method}`}>
              <td>
                <span
                  className="payment-swatch"
                  style={{ background: CHART_COLORS[index % CHART_COLORS.length] }}
                  aria-hidden
                />
                {row.payment_method}
              </td>
              <td>
                <Money value={row.sum} />
              </td>
              <td>{row.processing_fees.toFixed(2)}%</td>
              <td>
                <Money value={row.net_amount} />
              </td>
            </tr>
          ))
        )}
      </tbody>
      {rows.length > 0 ? (
        <tfoot>
          <tr>
            <th>Total</th>
            <th>
              <Money value={totalSum} />
            </th>
            <th />
            <th>
              <Money value={totalNet} />
            </th>
          </tr>
        </tfoot>
      ) : null}
    </HTMLTable>
  );
}
