import type Highcharts from 'highcharts';
import { type CurrencyFormat, formatMoney, formatNumber } from '../../../domain/format';
import { monthGrowthLine, type SalesTrends } from '../../../domain/salesTrends';
import { CURRENT_SERIES_COLOR, LAST_YEAR_SERIES_COLOR, partialPoint } from '../../charts/chartCategories';
import { notedPoint, POINT_NOTE_TOOLTIP } from '../../charts/chartText';
import { categoryAxis, pointsOrNone, valueAxis } from '../../reports/ReportParts';
import { moneyTitle, moneyTooltip } from '../../reports/reportCharts';

export type TrendMeasure = 'gmv' | 'transactions';

/** A measure's figure as the page writes it: money in the malls' currency, or a count. */
export const measureFormat =
  (measure: TrendMeasure, currency: CurrencyFormat | undefined) =>
  (value: number): string =>
    measure === 'gmv' ? formatMoney(value, currency) : formatNumber(value);

/** The month still open: hatched in this year's colour (its label says 'so far'). */
const partialStyle: Highcharts.PointOptionsObject = partialPoint(CURRENT_SERIES_COLOR);

/**
 * A measure a month, Jan to Dec: the year before (muted) and the year shown (the primary colour) side by side. The
 * month still open is hatched in this year's colour and labelled 'so far'; a month not begun has no column. The
 * tooltip of a month of the year shown says its growth with the two figures compared and their days (text).
 */
export function yearOverYearOptions(
  trends: SalesTrends | undefined,
  measure: TrendMeasure,
  currency?: CurrencyFormat,
): Highcharts.Options {
  const months = trends?.months ?? [];
  const shown = trends !== undefined;
  const money = measure === 'gmv';
  const tooltip: Highcharts.SeriesTooltipOptionsObject = money ? moneyTooltip(currency) : {};
  const year = trends?.year ?? 0;
  const format = measureFormat(measure, currency);
  return {
    title: { text: undefined },
    xAxis: categoryAxis(months.map((month) => month.label)),
    yAxis: valueAxis(money ? moneyTitle('GMV', currency) : 'Transactions'),
    series: [
      {
        type: 'column',
        name: String(year - 1),
        color: LAST_YEAR_SERIES_COLOR,
        tooltip,
        data: pointsOrNone(
          shown,
          months.map((month) => month.lastYear[measure]),
        ),
      },
      {
        type: 'column',
        name: String(year),
        color: CURRENT_SERIES_COLOR,
        tooltip: { ...tooltip, ...POINT_NOTE_TOOLTIP },
        data: pointsOrNone(
          shown,
          months.map((month): number | null | Highcharts.PointOptionsObject => {
            if (month.thisYear === undefined) return null;
            const value = month.thisYear[measure];
            const note = month.compared ? monthGrowthLine(month, measure, format) : undefined;
            if (!month.partial && note === undefined) return value;
            return notedPoint(month.partial ? { y: value, ...partialStyle } : { y: value }, note);
          }),
        ),
      },
    ],
  };
}
