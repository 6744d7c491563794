import type Highcharts from 'highcharts';
import type { CurrencyFormat } from '../../../domain/format';
import type { SalesTrends } from '../../../domain/salesTrends';
import { CURRENT_SERIES_COLOR, LAST_YEAR_SERIES_COLOR, partialPoint } from '../../charts/chartCategories';
import { categoryAxis, pointsOrNone, valueAxis } from '../../reports/ReportParts';
import { moneyTitle, moneyTooltip } from '../../reports/reportCharts';

export type TrendMeasure = 'gmv' | 'transactions';

/** The month still open: hatched in this year's colour (its label says 'so far'). */
const partialStyle: Highcharts.PointOptionsObject = partialPoint(CURRENT_SERIES_COLOR);

/**
 * A measure a month, Jan to Dec: the year before (muted) and the year shown (the primary colour) side by side. The
 * month still open is hatched in this year's colour and labelled 'so far'; a month not begun has no column.
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
        tooltip,
        data: pointsOrNone(
          shown,
          months.map((month): number | null | Highcharts.PointOptionsObject => {
            if (month.thisYear === undefined) return null;
            const value = month.thisYear[measure];
            return month.partial ? { y: value, ...partialStyle } : value;
          }),
        ),
      },
    ],
  };
}
