import type Highcharts from 'highcharts';
import { useMemo } from 'react';
import type { BreakdownSeries } from '../../../api/receipts';
import { breakdownLabel } from '../../../domain/receipts';
import { Chart } from '../../charts/Chart';
import { GRID_LINE_LIMIT, LABEL_LIMIT } from '../../charts/chartTheme';

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
