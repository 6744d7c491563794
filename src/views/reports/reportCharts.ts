import type Highcharts from 'highcharts';
import type { Metric } from '../../domain/dateLimits';
import { type CurrencyFormat, formatMoney, formatMonth, formatNumber } from '../../domain/format';
import type { DailyReportRow, MonthlyReportRow, PaymentMethodRow } from '../../domain/mallReportViews';
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

/** A money axis's title with its currency: 'GMV (Rp)'. */
export function moneyTitle(title: string, currency: CurrencyFormat | undefined): string {
  return currency ? `${title} (${currency.symbol})` : title;
}

/** A metric's axis title: money metrics carry the currency ('GMV (Rp)'), counts do not. */
export function metricTitle(metric: Metric, currency: CurrencyFormat | undefined): string {
  return metric === 'transactions' ? METRIC_LABELS[metric] : moneyTitle(METRIC_LABELS[metric], currency);
}

/** A money series' tooltip: the currency's symbol and its own minor units. */
export function moneyTooltip(currency: CurrencyFormat | undefined): Highcharts.SeriesTooltipOptionsObject {
  return currency ? { valuePrefix: currency.symbol, valueDecimals: currency.digits } : {};
}

/** GMV columns and a transactions line over periods (days, months), one label per row. */
export function gmvTransactionsOptions(
  labels: readonly string[],
  rows: readonly { gmv: number; transactions: number }[],
  shown: boolean,
  currency?: CurrencyFormat,
): Highcharts.Options {
  return {
    title: { text: undefined },
    xAxis: categoryAxis(labels),
    yAxis: [valueAxis(moneyTitle('GMV', currency)), valueAxis('Transactions', { opposite: true })],
    series: [
      {
        type: 'column',
        name: 'GMV',
        tooltip: moneyTooltip(currency),
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
export function dailyTrendOptions(
  rows: readonly DailyReportRow[],
  shown: boolean,
  currency?: CurrencyFormat,
): Highcharts.Options {
  return gmvTransactionsOptions(
    rows.map((row) => dayLabel(row.date)),
    rows,
    shown,
    currency,
  );
}

/** GMV columns and transactions line over months ('Jan 2026'). */
export function monthlyTrendOptions(
  rows: readonly MonthlyReportRow[],
  shown: boolean,
  currency?: CurrencyFormat,
): Highcharts.Options {
  return gmvTransactionsOptions(
    rows.map((row) => formatMonth(row.month)),
    rows,
    shown,
    currency,
  );
}

export function paymentPieOptions(rows: readonly PaymentMethodRow[], currency?: CurrencyFormat): Highcharts.Options {
  return {
    title: { text: undefined },
    series: [
      {
        type: 'pie',
        name: moneyTitle('Sum', currency),
        tooltip: moneyTooltip(currency),
        data: rows.map((row) => ({ name: row.payment_method, y: row.sum })),
      },
    ],
  };
}

/** Bars of a ranking; `currency` when the values are money (the axis title and tooltip carry it). */
export function rankingBarOptions(
  rows: readonly { name: string; value: number }[],
  valueTitle: string,
  currency?: CurrencyFormat,
): Highcharts.Options {
  return {
    title: { text: undefined },
    xAxis: { categories: rows.map((row) => row.name), title: { text: null } },
    yAxis: valueAxis(moneyTitle(valueTitle, currency)),
    legend: { enabled: false },
    series: [{ type: 'bar', name: valueTitle, tooltip: moneyTooltip(currency), data: rows.map((row) => row.value) }],
  };
}
