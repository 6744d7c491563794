import { describe, expect, it } from 'vitest';
import { CURRENT_SERIES_COLOR, partialPoint } from '../../src/views/charts/chartCategories';
import { dailyTrendOptions, monthlyTrendOptions } from '../../src/views/reports/reportCharts';

const TODAY = '2026-11-25';

describe('trend charts over partial periods', () => {
  const rows = [
    { date: '2026-11-24', gmv: 100, transactions: 4 },
    { date: TODAY, gmv: 30, transactions: 1 },
  ];

  it('draws today apart and labels it so far', () => {
    const options = dailyTrendOptions(rows, true, undefined, { today: TODAY });
    expect((options.xAxis as { categories: string[] }).categories).toEqual(['24/11', '25/11 (so far)']);
    const [gmv] = options.series as { data: unknown[] }[];
    expect(gmv?.data[0]).toBe(100);
    // Hatched in its own series' colour (the columns are the first series: the first chart colour).
    expect(gmv?.data[1]).toEqual({ y: 30, ...partialPoint(CURRENT_SERIES_COLOR) });
  });

  it('leaves out an open day with nothing yet instead of drawing a drop to zero', () => {
    const options = dailyTrendOptions(
      [rows[0] as (typeof rows)[0], { date: TODAY, gmv: 0, transactions: 0 }],
      true,
      undefined,
      {
        today: TODAY,
      },
    );
    const [gmv, transactions] = options.series as { data: unknown[] }[];
    expect(gmv?.data).toEqual([100, null]);
    expect(transactions?.data).toEqual([4, null]);
  });

  it('labels months cut short by the range', () => {
    const options = monthlyTrendOptions(
      [
        { month: '2026-10', gmv: 10, transactions: 1 },
        { month: '2026-11', gmv: 5, transactions: 1 },
      ],
      true,
      undefined,
      { today: '2026-12-05', range: { start: '2026-10-01', end: '2026-11-20' } },
    );
    expect((options.xAxis as { categories: string[] }).categories).toEqual([
      'October 2026',
      'November 2026 (1–20 Nov, 20 days)',
    ]);
  });
});
