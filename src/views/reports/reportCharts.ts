import type Highcharts from 'highcharts';
import type { Metric } from '../../domain/dateLimits';
import { type CurrencyFormat, formatMoney, formatMonth, formatNumber } from '../../domain/format';
import type { DailyReportRow, MonthlyReportRow, PaymentMethodRow } from '../../domain/mallReportViews';
import { dayMark, monthMark, type PeriodMark } from '../../domain/periods';
import { CURRENT_SERIES_COLOR, partialPoint } from '../charts/chartCategories';
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

export const dayLabel = (date: string) => `${date.slice(8, 10)}/${date.slice(5, 7)}`;

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

/**
 * How a partial period (still open, or cut short by the range) is drawn: hatched in its series' colour (these
 * charts' columns are their first series, in the first chart colour), its label saying so ('so far', '24 days').
 */
export const PARTIAL_POINT: Highcharts.PointOptionsObject = partialPoint(CURRENT_SERIES_COLOR);

/**
 * The points of a series over periods: a partial period drawn apart (PARTIAL_POINT), and an open period with
 * nothing yet left out rather than drawn as a drop to zero.
 */
export function periodPoints(
  values: readonly number[],
  marks: readonly PeriodMark[],
  empty: readonly boolean[],
  style: object,
): (number | null | Highcharts.PointOptionsObject)[] {
  return values.map((value, index) => {
    const mark = marks[index];
    if (!mark?.partial) return value;
    if (mark.open && empty[index]) return null;
    return { y: value, ...style };
  });
}

/** The names of the money columns and the count line of a chart over periods. */
export interface MoneyCountNames {
  readonly money: string;
  readonly count: string;
}

/**
 * GMV columns and a transactions line over periods (days, months), one mark (label, partial) per row; `names`
 * names other measures drawn the same way (a refund amount and the refunded receipts).
 */
export function gmvTransactionsOptions(
  marks: readonly PeriodMark[],
  rows: readonly { gmv: number; transactions: number }[],
  shown: boolean,
  currency?: CurrencyFormat,
  names: MoneyCountNames = { money: 'GMV', count: 'Transactions' },
): Highcharts.Options {
  const empty = rows.map((row) => row.gmv === 0 && row.transactions === 0);
  const firstOpen = marks.findIndex((mark) => mark.open);
  return {
    title: { text: undefined },
    xAxis: categoryAxis(marks.map((mark) => mark.label)),
    yAxis: [valueAxis(moneyTitle(names.money, currency)), valueAxis(names.count, { opposite: true })],
    series: [
      {
        type: 'column',
        name: names.money,
        tooltip: moneyTooltip(currency),
        data: pointsOrNone(
          shown,
          periodPoints(
            rows.map((row) => row.gmv),
            marks,
            empty,
            PARTIAL_POINT,
          ),
        ),
      },
      {
        type: 'line',
        name: names.count,
        yAxis: 1,
        // The line into a period still open is dashed.
        ...(firstOpen > 0
          ? { zoneAxis: 'x' as const, zones: [{ value: firstOpen - 1 }, { dashStyle: 'Dash' as const }] }
          : {}),
        data: pointsOrNone(
          shown,
          periodPoints(
            rows.map((row) => row.transactions),
            marks,
            empty,
            { marker: { fillColor: '#ffffff', lineWidth: 2, lineColor: '#c87619' } },
          ),
        ),
      },
    ],
  };
}

/** When the figures are read: today, and the range asked (months the range cuts short are partial). */
export interface PeriodContext {
  readonly today: string;
  readonly range?: { readonly start: string; readonly end: string } | undefined;
}

/** GMV columns and transactions line over days; today's column drawn apart, labelled 'so far'. */
export function dailyTrendOptions(
  rows: readonly DailyReportRow[],
  shown: boolean,
  currency?: CurrencyFormat,
  period?: PeriodContext,
): Highcharts.Options {
  const marks = rows.map((row) =>
    period ? dayMark(row.date, period.today, dayLabel) : { label: dayLabel(row.date), partial: false, open: false },
  );
  return gmvTransactionsOptions(marks, rows, shown, currency);
}

/** GMV columns and transactions line over months ('January 2026'); a month cut short or open is labelled so. */
export function monthlyTrendOptions(
  rows: readonly MonthlyReportRow[],
  shown: boolean,
  currency?: CurrencyFormat,
  period?: PeriodContext,
): Highcharts.Options {
  const range = period?.range;
  const marks = rows.map((row) =>
    period && range
      ? monthMark(row.month, range, period.today, formatMonth)
      : { label: formatMonth(row.month), partial: false, open: false },
  );
  return gmvTransactionsOptions(marks, rows, shown, currency);
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
