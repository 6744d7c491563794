import { describe, expect, it } from 'vitest';
import { CURRENT_SERIES_COLOR, LAST_YEAR_SERIES_COLOR, partialPoint } from '../../src/views/charts/chartCategories';
import { CHART_COLORS } from '../../src/views/charts/chartTheme';
import { yearOverYearOptions } from '../../src/views/pages/shopper-connect/salesTrendsCharts';

describe('series colours', () => {
  it('draws this year in the primary colour, last year muted, the month so far hatched in this year’s colour', () => {
    expect(CURRENT_SERIES_COLOR).toBe(CHART_COLORS[0]);
    const options = yearOverYearOptions(
      {
        year: 2026,
        months: [
          {
            month: 1,
            label: 'Jan',
            thisYear: { gmv: 10, transactions: 1 },
            lastYear: { gmv: 8, transactions: 1 },
            partial: false,
            growth: undefined,
          },
          {
            month: 2,
            label: 'Feb (so far)',
            thisYear: { gmv: 4, transactions: 1 },
            lastYear: { gmv: 9, transactions: 1 },
            partial: true,
            growth: undefined,
          },
        ],
      },
      'gmv',
    );
    const [lastYear, thisYear] = (options.series ?? []) as { name?: string; color?: unknown; data?: unknown[] }[];
    expect(lastYear).toMatchObject({ name: '2025', color: LAST_YEAR_SERIES_COLOR });
    expect(thisYear).toMatchObject({ name: '2026', color: CURRENT_SERIES_COLOR });
    expect(thisYear?.data?.[0]).toBe(10);
    expect(thisYear?.data?.[1]).toEqual({ y: 4, ...partialPoint(CURRENT_SERIES_COLOR) });
    const hatch = partialPoint(CURRENT_SERIES_COLOR).color as { pattern: { color: string } };
    expect(hatch.pattern.color).toBe(CURRENT_SERIES_COLOR);
  });
});
