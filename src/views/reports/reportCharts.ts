import type Highcharts from 'highcharts';
import type { Metric } from '../../domain/dateLimits';
import { type CurrencyFormat, formatMoney, formatNumber } from '../../domain/format';
import type { DailyReportRow, PaymentMethodRow } from '../../domain/mallReportViews';
import { categoryAxis, pointsOrNone, valueAxis } from './ReportParts';

export const METRIC_LABELS: Record<Metric, string> = {
  gmv: 'GMV',
  transactions: 'Transactions',
  average_transaction_value: 'Average Transaction Value',
};

/** A metric's value: a count, or money with the page's currency symbol. */
export function formatMetric(metric: Metric, value: number, currency?: CurrencyFormat): string {
  return metric === 'transactions' ? formatNumber(value) : formatMoney(value, currency);
}

const dayLabel = (date: string) => `${date.slice(8, 10)}/${date.slice(5, 7)}`;

/** GMV columns and a transactions line over periods (days, months), one label per row. */
export function gmvTransactionsOptions(
  labels: readonly string[],
  rows: readonly { gmv: number; transactions: number }[],
  shown: boolean,
): Highcharts.Options {
  return {
    title: { text: undefined },
    xAxis: categoryAxis(labels),
    yAxis: [valueAxis('GMV'), valueAxis('Transactions', { opposite: true })],
    series: [
      {
        type: 'column',
        name: 'GMV',
        data: pointsOrNone(
          shown,
          rows.map((row) => row.gmv),
        ),
      },
      {
        type: 'line',
        name: 'Transactions',
        yAxis: 1,
        data: pointsOrNone(
          shown,
          rows.map((row) => row.transactions),
        ),
      },
    ],
  };
}

/** GMV columns and transactions line over days. */
export function dailyTrendOptions(rows: readonly DailyReportRow[], shown: boolean): Highcharts.Options {
  return gmvTransactionsOptions(
    rows.map((row) => dayLabel(row.date)),
    rows,
    shown,
  );
}

export function paymentPieOptions(rows: readonly PaymentMethodRow[]): Highcharts.Options {
  return {
    title: { text: undefined },
    series: [{ type: 'pie', name: 'Sum', data: rows.map((row) => ({ name: row.payment_method, y: row.sum })) }],
  };
}

export function rankingBarOptions(
  rows: readonly { name: string; value: number }[],
  valueTitle: string,
): Highcharts.Options {
  return {
    title: { text: undefined },
    xAxis: { categories: rows.map((row) => row.name), title: { text: null } },
    yAxis: valueAxis(valueTitle),
    legend: { enabled: false },
    series: [{ type: 'bar', name: valueTitle, data: rows.map((row) => row.value) }],
  };
}
