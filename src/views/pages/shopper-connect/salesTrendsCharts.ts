import type Highcharts from 'highcharts';
import type { CurrencyFormat } from '../../../domain/format';
import type { SalesTrends } from '../../../domain/salesTrends';
import { categoryAxis, pointsOrNone, valueAxis } from '../../reports/ReportParts';
import { moneyTitle, moneyTooltip, PARTIAL_POINT } from '../../reports/reportCharts';

export type TrendMeasure = 'gmv' | 'transactions';

const partialStyle: object = PARTIAL_POINT;

/**
 * A measure a month, Jan to Dec: the year before and the year shown side by side. The month still open is drawn
 * apart (PARTIAL_POINT, labelled partial); a month not begun has no column.
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
        tooltip,
        data: pointsOrNone(
          shown,
          months.map((month) => month.lastYear[measure]),
        ),
      },
      {
        type: 'column',
        name: String(year),
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
