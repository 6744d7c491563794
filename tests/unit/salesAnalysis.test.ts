import { describe, expect, it } from 'vitest';
import { csvFileTexts } from '../../src/domain/csv';
import type { CommittedFilters } from '../../src/domain/filterHeader';
import {
  bucketKeys,
  comparisonPeriod,
  comparisonText,
  growthComparison,
  growthOf,
  includesToday,
  isTimeRangeAllowed,
  itemRowsOf,
  itemsCsv,
  kpiCardValue,
  kpiCsv,
  kpiFigures,
  mealTimeText,
  mealTimingsCsv,
  mealTimingsOf,
  nextPageSort,
  rankingText,
  rankSkus,
  salesAnalysisQueryOf,
  salesKpiGrowthLine,
  skuLabel,
  sortSkuPage,
  timeRangeFor,
  topSkusCsv,
  trendCsv,
  trendMark,
  trendOf,
  withComparedTotals,
} from '../../src/domain/salesAnalysis';

/*
 * The sales analysis' rules, computed by hand: the comparison periods (the days just before; the same weekdays a
 * year before, 364 days back), §9's growth rate with its sign (0.00% when the compared figure is zero), the KPI
 * cards' growth lines with the two figures compared and their days, 'No Data' and 'nothing to compare', the buckets of each time range and their partial labels, the meal timings' shares, the item ranks,
 * the top-SKU page sort, and the CSV files.
 */

const WEEK = { start: '2026-11-19', end: '2026-11-25' };

describe('the query', () => {
  const filters = (outlet: CommittedFilters['outlet']): CommittedFilters => ({
    clientId: 4,
    mallIds: [5],
    outlet,
    dateRange: WEEK,
    hours: { from: 9, to: 17 },
    timeRange: 'hourly',
    metric: 'transactions',
    month: '2026-11',
  });

  it('is the header’s one outlet over whole days; nothing for All Outlets or none', () => {
    expect(salesAnalysisQueryOf(filters(20), '2026-11-25')).toEqual({
      clientId: 4,
      mallIds: [5],
      start: WEEK.start,
      end: WEEK.end,
      startHour: 0,
      endHour: 23,
      timeRange: 'daily',
      metric: 'gmv',
      today: '2026-11-25',
      month: '2026-11',
      outletId: 20,
    });
    expect(salesAnalysisQueryOf(filters('all'), '2026-11-25')).toBeUndefined();
    expect(salesAnalysisQueryOf(filters(undefined), '2026-11-25')).toBeUndefined();
  });

  it('knows whether the days include today', () => {
    expect(includesToday(WEEK, '2026-11-25')).toBe(true);
    expect(includesToday(WEEK, '2026-11-26')).toBe(false);
    expect(includesToday(WEEK, undefined)).toBe(false);
  });
});

describe('comparison periods', () => {
  it('previous: as many days just before', () => {
    expect(comparisonPeriod(WEEK, 'previous')).toEqual({ start: '2026-11-12', end: '2026-11-18' });
    expect(comparisonPeriod({ start: '2026-03-01', end: '2026-03-01' }, 'previous')).toEqual({
      start: '2026-02-28',
      end: '2026-02-28',
    });
  });

  it('last year: the same weekdays a year before, 364 days back', () => {
    // Thu 19 – Wed 25 Nov 2026 against Thu 20 – Wed 26 Nov 2025.
    expect(comparisonPeriod(WEEK, 'lastYear')).toEqual({ start: '2025-11-20', end: '2025-11-26' });
    // Across 29 Feb 2028: Sun 27 Feb – Wed 1 Mar 2028 against Sun 28 Feb – Wed 3 Mar 2027, as many days.
    expect(comparisonPeriod({ start: '2028-02-27', end: '2028-03-01' }, 'lastYear')).toEqual({
      start: '2027-02-28',
      end: '2027-03-03',
    });
    expect(comparisonPeriod({ start: '2026-01-01', end: '2026-01-01' }, 'lastYear')).toEqual({
      start: '2025-01-02',
      end: '2025-01-02',
    });
  });

  it('compares the complete days when the range includes today: start..yesterday against the same length', () => {
    // 19–25 Nov, today the 25th: 19–24 Nov against the 6 days just before, or the same dates a year before.
    expect(growthComparison(WEEK, 'previous', '2026-11-25')).toEqual({
      current: { start: '2026-11-19', end: '2026-11-24' },
      previous: { start: '2026-11-13', end: '2026-11-18' },
      todayLeftOut: true,
      rule: 'previous',
    });
    expect(growthComparison(WEEK, 'lastYear', '2026-11-25')).toEqual({
      current: { start: '2026-11-19', end: '2026-11-24' },
      previous: { start: '2025-11-20', end: '2025-11-25' },
      todayLeftOut: true,
      rule: 'same_weekday_last_year',
    });
    // Yesterday and today: yesterday alone.
    expect(growthComparison({ start: '2026-11-24', end: '2026-11-25' }, 'previous', '2026-11-25')).toEqual({
      current: { start: '2026-11-24', end: '2026-11-24' },
      previous: { start: '2026-11-23', end: '2026-11-23' },
      todayLeftOut: true,
      rule: 'previous',
    });
    // Across 29 Feb: Fri 25 – Tue 29 Feb 2028 against Fri 26 Feb – Tue 2 Mar 2027, 5 days each.
    expect(growthComparison({ start: '2028-02-25', end: '2028-03-01' }, 'lastYear', '2028-03-01')).toEqual({
      current: { start: '2028-02-25', end: '2028-02-29' },
      previous: { start: '2027-02-26', end: '2027-03-02' },
      todayLeftOut: true,
      rule: 'same_weekday_last_year',
    });
  });

  it('compares the whole range when it ends before today, or today is not known; none for today alone', () => {
    for (const today of ['2026-11-26', '2027-01-10', undefined]) {
      expect(growthComparison(WEEK, 'previous', today)).toEqual({
        current: WEEK,
        previous: { start: '2026-11-12', end: '2026-11-18' },
        todayLeftOut: false,
        rule: 'previous',
      });
      expect(growthComparison(WEEK, 'lastYear', today)).toEqual({
        current: WEEK,
        previous: { start: '2025-11-20', end: '2025-11-26' },
        todayLeftOut: false,
        rule: 'same_weekday_last_year',
      });
    }
    const todayAlone = { start: '2026-11-25', end: '2026-11-25' };
    expect(growthComparison(todayAlone, 'previous', '2026-11-25')).toBeUndefined();
    expect(growthComparison(todayAlone, 'lastYear', '2026-11-25')).toBeUndefined();
  });

  it('is stated with its dates', () => {
    expect(comparisonText(WEEK, 'previous')).toBe('Compared with 12 Nov 2026 – 18 Nov 2026 (the previous 7 days)');
    expect(comparisonText(WEEK, 'lastYear')).toBe(
      'Compared with 20 Nov 2025 – 26 Nov 2025 (the same weekdays last year)',
    );
    expect(comparisonText({ start: '2026-11-25', end: '2026-11-25' }, 'previous')).toBe(
      'Compared with 24 Nov 2026 (the previous day)',
    );
    // The complete days of a range reaching today.
    const complete = growthComparison(WEEK, 'previous', '2026-11-25')?.current ?? WEEK;
    expect(comparisonText(complete, 'previous')).toBe('Compared with 13 Nov 2026 – 18 Nov 2026 (the previous 6 days)');
    expect(comparisonText(complete, 'lastYear')).toBe(
      'Compared with 20 Nov 2025 – 25 Nov 2025 (the same weekdays last year)',
    );
  });
});

describe('growth', () => {
  it('is (current − compared) / compared × 100 to 2 decimals, with its sign', () => {
    expect(growthOf(125, 100)).toEqual({ rate: 25, text: '+25.00%', trend: 'up' });
    expect(growthOf(96, 100)).toEqual({ rate: -4, text: '-4.00%', trend: 'down' });
    expect(growthOf(1, 3)).toEqual({ rate: -66.67, text: '-66.67%', trend: 'down' });
    expect(growthOf(0, 250)).toEqual({ rate: -100, text: '-100.00%', trend: 'down' });
    expect(growthOf(100.001, 100)).toEqual({ rate: 0, text: '0.00%', trend: 'flat' });
  });

  it('is 0.00% when the compared figure is zero (§9): nothing to compare with', () => {
    expect(growthOf(0, 0)).toEqual({ rate: 0, text: '0.00%', trend: 'flat' });
    expect(growthOf(10, 0)).toEqual({ rate: 0, text: '0.00%', trend: 'flat' });
  });

  it('makes the four KPIs and their file', () => {
    const totals = { revenue: 1500.5, transactions: 30, unit_sales: 45, average_transaction_value: 50.02 };
    const compared = { revenue: 1000, transactions: 0, unit_sales: 45, average_transaction_value: 0 };
    const comparison = growthComparison(WEEK, 'previous', '2026-12-01');
    const figures = kpiFigures({ totals, growth: { current: totals, compared } });
    expect(
      figures.map((figure) => [figure.measure, figure.current, figure.growth?.compared, figure.growth?.change.text]),
    ).toEqual([
      ['revenue', 1500.5, 1000, '+50.05%'],
      ['transactions', 30, 0, '0.00%'],
      ['units', 45, 45, '0.00%'],
      ['averageTransactionValue', 50.02, 0, '0.00%'],
    ]);
    const [file] = csvFileTexts('2026-11-19_2026-11-25', [kpiCsv(figures, WEEK, comparison, 'previous', totals)]);
    expect(file?.fileName).toBe('kpis_2026-11-19_2026-11-25.csv');
    expect(file?.text.split('\r\n').slice(0, 3)).toEqual([
      '\uFEFFMeasure,Current,Compared,Growth,Period,Compared With,Compared Period,Growth Period,Growth Period Value,Note',
      'Revenue,1500.5,1000,+50.05%,2026-11-19 to 2026-11-25,Previous period,2026-11-12 to 2026-11-18,' +
        '2026-11-19 to 2026-11-25,1500.5,',
      'Transactions,30,0,0.00%,2026-11-19 to 2026-11-25,Previous period,2026-11-12 to 2026-11-18,' +
        '2026-11-19 to 2026-11-25,30,',
    ]);
  });

  it('shows the whole range’s figures with the growth of the complete days when today is left out', () => {
    const totals = { revenue: 1500, transactions: 30, unit_sales: 45, average_transaction_value: 50 };
    const complete = { revenue: 1200, transactions: 25, unit_sales: 40, average_transaction_value: 48 };
    const compared = { revenue: 1000, transactions: 25, unit_sales: 50, average_transaction_value: 40 };
    const comparison = growthComparison(WEEK, 'previous', '2026-11-25');
    const figures = kpiFigures({ totals, growth: { current: complete, compared } });
    expect(
      figures.map((figure) => [figure.measure, figure.current, figure.growth?.current, figure.growth?.change.text]),
    ).toEqual([
      ['revenue', 1500, 1200, '+20.00%'],
      ['transactions', 30, 25, '0.00%'],
      ['units', 45, 40, '-20.00%'],
      ['averageTransactionValue', 50, 48, '+20.00%'],
    ]);
    const [file] = csvFileTexts('2026-11-19_2026-11-25', [kpiCsv(figures, WEEK, comparison, 'previous', totals)]);
    expect(file?.text.split('\r\n')[1]).toBe(
      'Revenue,1500,1000,+20.00%,2026-11-19 to 2026-11-25,Previous period,2026-11-13 to 2026-11-18,' +
        '2026-11-19 to 2026-11-24,1200,',
    );
  });

  it('has no growth without a complete day (today alone): the figures, and empty growth cells', () => {
    const totals = { revenue: 200, transactions: 4, unit_sales: 6, average_transaction_value: 50 };
    const figures = kpiFigures({ totals, growth: undefined });
    expect(figures.map((figure) => [figure.measure, figure.current, figure.growth])).toEqual([
      ['revenue', 200, undefined],
      ['transactions', 4, undefined],
      ['units', 6, undefined],
      ['averageTransactionValue', 50, undefined],
    ]);
    const today = { start: '2026-11-25', end: '2026-11-25' };
    const [file] = csvFileTexts('2026-11-25_2026-11-25', [kpiCsv(figures, today, undefined, 'previous', totals)]);
    expect(file?.text.split('\r\n')[1]).toBe('Revenue,200,,,2026-11-25 to 2026-11-25,,,,,');
  });
});

/** The entry of a list at an index (a test's list always has it). */
function at<T>(list: readonly T[], index: number): T {
  const entry = list[index];
  if (entry === undefined) throw new Error(`no entry ${index}`);
  return entry;
}

describe('the KPI cards’ growth lines (issue 31)', () => {
  const SGD = { code: 'SGD', symbol: '$', digits: 2 };
  // The headline (34 units) holds today; the growth compares the complete days, 19–24 Nov (28 units) with
  // 13–18 Nov (30 units): 28 / 30 − 1 = −6.67%, stated with both figures and their days.
  const totals = { revenue: 1700, transactions: 20, unit_sales: 34, average_transaction_value: 85 };
  const complete = { revenue: 1400, transactions: 16, unit_sales: 28, average_transaction_value: 87.5 };
  const before = { revenue: 1120, transactions: 17, unit_sales: 30, average_transaction_value: 65.88 };

  it('says the rate, what it is against, and the two figures with their days', () => {
    const comparison = growthComparison(WEEK, 'previous', '2026-11-25');
    if (!comparison) throw new Error('no comparison');
    const figures = kpiFigures({ totals, growth: { current: complete, compared: before } });
    const compared = withComparedTotals(comparison, before);
    const lines = figures.map((figure) => salesKpiGrowthLine(figure, compared, SGD));
    expect(lines[0]).toEqual({
      text: '▲ 25.00% vs 13–18 Nov (today left out)',
      trend: 'up',
      compared: '$1,400.00, 19–24 Nov vs $1,120.00, 13–18 Nov',
    });
    expect(lines[1]).toEqual({
      text: '▼ -5.88% vs 13–18 Nov (today left out)',
      trend: 'down',
      compared: '16, 19–24 Nov vs 17, 13–18 Nov',
    });
    expect(lines[2]).toEqual({
      text: '▼ -6.67% vs 13–18 Nov (today left out)',
      trend: 'down',
      compared: '28, 19–24 Nov vs 30, 13–18 Nov',
    });
    expect(figures.map((figure) => kpiCardValue(figure, totals, SGD))).toEqual(['$1,700.00', '20', '34', '$85.00']);
  });

  it('names the same weekdays last year, with their year', () => {
    const comparison = growthComparison(WEEK, 'lastYear', '2026-11-26');
    if (!comparison) throw new Error('no comparison');
    const figures = kpiFigures({ totals, growth: { current: totals, compared: before } });
    expect(salesKpiGrowthLine(at(figures, 0), withComparedTotals(comparison, before), SGD)).toEqual({
      text: '▲ 51.79% vs 20–26 Nov 2025, same weekdays last year',
      trend: 'up',
      compared: '$1,700.00, 19–25 Nov vs $1,120.00, 20–26 Nov 2025',
    });
  });

  it('gives 0.00% with nothing to compare when the compared days hold no sale, and No Data for a range without', () => {
    const zeros = { revenue: 0, transactions: 0, unit_sales: 0, average_transaction_value: 0 };
    const comparison = growthComparison(WEEK, 'lastYear', '2026-11-26');
    if (!comparison) throw new Error('no comparison');
    const figures = kpiFigures({ totals, growth: { current: totals, compared: zeros } });
    const compared = withComparedTotals(comparison, zeros);
    expect(salesKpiGrowthLine(at(figures, 2), compared, SGD)).toEqual({
      text: '0.00% vs 20–26 Nov 2025, same weekdays last year · nothing to compare',
      trend: 'flat',
      compared: '34, 19–25 Nov vs no data, 20–26 Nov 2025',
    });
    const [file] = csvFileTexts('2026-11-19_2026-11-25', [kpiCsv(figures, WEEK, compared, 'lastYear', totals)]);
    expect(file?.text.split('\r\n')[3]).toBe(
      'Units Sold,34,0,0.00%,2026-11-19 to 2026-11-25,Same weekdays last year,2025-11-20 to 2025-11-26,' +
        '2026-11-19 to 2026-11-25,34,nothing to compare',
    );
    const none = kpiFigures({ totals: zeros, growth: { current: zeros, compared: zeros } });
    expect(none.map((figure) => kpiCardValue(figure, zeros, SGD))).toEqual([
      'No Data',
      'No Data',
      'No Data',
      'No Data',
    ]);
    const [empty] = csvFileTexts('2026-11-19_2026-11-25', [
      kpiCsv(none, WEEK, withComparedTotals(comparison, zeros), 'lastYear', zeros),
    ]);
    expect(empty?.text.split('\r\n')[1]?.endsWith(',No Data; nothing to compare')).toBe(true);
  });
});

describe('the series over time', () => {
  it('offers hourly only up to 31 days, and falls back to daily', () => {
    expect(isTimeRangeAllowed('hourly', { start: '2026-10-26', end: '2026-11-25' })).toBe(true);
    expect(isTimeRangeAllowed('hourly', { start: '2026-10-25', end: '2026-11-25' })).toBe(false);
    expect(isTimeRangeAllowed('monthly', { start: '2025-11-25', end: '2026-11-25' })).toBe(true);
    expect(timeRangeFor('hourly', { start: '2026-10-25', end: '2026-11-25' })).toBe('daily');
    expect(timeRangeFor('weekly', { start: '2026-10-25', end: '2026-11-25' })).toBe('weekly');
  });

  it('has every bucket of the range as the server keys them', () => {
    expect(bucketKeys('daily', { start: '2026-11-29', end: '2026-12-01' })).toEqual([
      '2026-11-29',
      '2026-11-30',
      '2026-12-01',
    ]);
    // 19 Nov 2026 is a Thursday: its week starts on Monday 16 Nov.
    expect(bucketKeys('weekly', WEEK)).toEqual(['2026-11-16', '2026-11-23']);
    expect(bucketKeys('monthly', { start: '2026-11-19', end: '2027-01-02' })).toEqual([
      '2026-11',
      '2026-12',
      '2027-01',
    ]);
    const hours = bucketKeys('hourly', { start: '2026-11-24', end: '2026-11-25' });
    expect(hours).toHaveLength(48);
    expect(hours.slice(0, 2)).toEqual(['2026-11-24 00:00', '2026-11-24 01:00']);
    expect(hours.at(-1)).toBe('2026-11-25 23:00');
  });

  it('labels today’s bucket so far, a cut-short week with its days, and today’s hours', () => {
    expect(trendMark('daily', '2026-11-25', WEEK, '2026-11-25')).toEqual({
      label: '25/11 (so far)',
      partial: true,
      open: true,
    });
    expect(trendMark('daily', '2026-11-24', WEEK, '2026-11-25')).toEqual({
      label: '24/11',
      partial: false,
      open: false,
    });
    expect(trendMark('weekly', '2026-11-16', WEEK, '2026-11-30').label).toBe('19–22 Nov (4 days)');
    expect(trendMark('weekly', '2026-11-23', WEEK, '2026-11-25').label).toBe('23–25 Nov (so far)');
    expect(trendMark('monthly', '2026-11', WEEK, '2026-11-25').label).toBe('November 2026 (19–25 Nov, so far)');
    expect(trendMark('hourly', '2026-11-25 09:00', WEEK, '2026-11-25')).toEqual({
      label: '25/11 09:00 (today)',
      partial: true,
      open: true,
    });
    expect(trendMark('hourly', '2026-11-24 09:00', WEEK, '2026-11-25').label).toBe('24/11 09:00');
  });

  it('merges the three series by bucket, zero where the server has none, with the server’s totals', () => {
    const range = { start: '2026-11-23', end: '2026-11-25' };
    const trend = trendOf('daily', range, '2026-11-25', {
      revenue: {
        data: [
          { key: '2026-11-23', value: 100.5 },
          { key: '2026-11-25', value: 20 },
        ],
        total: 120.5,
      },
      transactions: {
        data: [
          { key: '2026-11-23', value: 3 },
          { key: '2026-11-25', value: 1 },
        ],
        total: 4,
      },
      units: {
        data: [
          { key: '2026-11-23', value: 5 },
          { key: '2026-11-25', value: 2 },
        ],
        total: 7,
      },
    });
    expect(trend.rows.map((row) => [row.key, row.label, row.revenue, row.transactions, row.units])).toEqual([
      ['2026-11-23', '23/11', 100.5, 3, 5],
      ['2026-11-24', '24/11', 0, 0, 0],
      ['2026-11-25', '25/11 (so far)', 20, 1, 2],
    ]);
    expect(trend.totals).toEqual({ revenue: 120.5, transactions: 4, units: 7 });
    const [file] = csvFileTexts('x', [trendCsv(trend)]);
    expect(file?.text.split('\r\n')).toEqual([
      '\uFEFFBucket,Revenue,Transactions,Units Sold,Note',
      '2026-11-23,100.5,3,5,',
      '2026-11-24,0,0,0,',
      '2026-11-25,20,1,2,so far',
      '',
    ]);
  });
});

describe('meal timings', () => {
  it('writes each timing’s hours, and its share of the outlet’s revenue', () => {
    expect(mealTimeText('11:00', '14:30')).toBe('11:00–14:30');
    expect(mealTimeText('22:00', '02:00')).toBe('22:00–02:00 (next day)');
    const meals = mealTimingsOf(
      [
        { meal_timing_id: 1, name: 'Lunch', start_time: '11:00', end_time: '14:30', revenue: 300, transactions: 6 },
        { meal_timing_id: 2, name: 'Dinner', start_time: '18:00', end_time: '21:00', revenue: 500, transactions: 5 },
      ],
      1000,
    );
    expect(meals.rows.map((row) => [row.name, row.time, row.share])).toEqual([
      ['Lunch', '11:00–14:30', 0.3],
      ['Dinner', '18:00–21:00', 0.5],
    ]);
    expect(mealTimingsOf([], 0).rows).toEqual([]);
    const [file] = csvFileTexts('x', [mealTimingsCsv(meals)]);
    expect(file?.text.split('\r\n').slice(0, 2)).toEqual([
      '\uFEFFMeal Timing,Start Time,End Time,Revenue,Transactions,Share Of Revenue Percent',
      'Lunch,11:00,14:30,300,6,30',
    ]);
  });
});

describe('item sales breakdown', () => {
  it('ranks each bucket’s items in the server’s order and labels the bucket', () => {
    const rows = itemRowsOf(
      [
        { key: '2026-11-24', sku_id: 7, item_name: 'Latte', quantity: 10, amount: 55 },
        { key: '2026-11-24', sku_id: 8, item_name: 'Mocha', quantity: 4, amount: 22 },
        { key: '2026-11-25', sku_id: 8, item_name: 'Mocha', quantity: 1, amount: 5.5 },
      ],
      'daily',
      WEEK,
      '2026-11-25',
    );
    expect(rows.map((row) => [row.bucket, row.rank, row.item_name])).toEqual([
      ['24/11', 1, 'Latte'],
      ['24/11', 2, 'Mocha'],
      ['25/11 (so far)', 1, 'Mocha'],
    ]);
    const [file] = csvFileTexts('x', [itemsCsv(rows, 'daily')]);
    expect(file?.fileName).toBe('item_sales_daily_x.csv');
    expect(file?.text.split('\r\n').slice(0, 2)).toEqual([
      '\uFEFFBucket,Rank,SKU ID,Item Name,Quantity,Amount',
      '2026-11-24,1,7,Latte,10,55',
    ]);
  });
});

describe('top SKUs', () => {
  const page = rankSkus(
    [
      { sku_id: 3, barcode: '900', item_name: 'banana bread', quantity: 9, unit_price: 4.5, amount: 40.5 },
      { sku_id: 1, barcode: null, item_name: 'Americano', quantity: 7, unit_price: 3, amount: 21 },
      { sku_id: 2, barcode: '100', item_name: 'Croissant', quantity: 7, unit_price: 3.8, amount: 26.6 },
    ],
    2,
    10,
  );

  it('ranks a page’s rows in the whole ranking', () => {
    expect(page.map((row) => row.rank)).toEqual([11, 12, 13]);
  });

  it('sorts the page by a column the server cannot rank by; text first ascending, then reversed', () => {
    const byName = nextPageSort(undefined, 'item_name');
    expect(byName).toEqual({ column: 'item_name', order: 'asc' });
    expect(sortSkuPage(page, byName).map((row) => row.item_name)).toEqual(['Americano', 'banana bread', 'Croissant']);
    expect(nextPageSort(byName, 'item_name')).toEqual({ column: 'item_name', order: 'desc' });
    expect(nextPageSort(byName, 'unit_price')).toEqual({ column: 'unit_price', order: 'desc' });
    expect(sortSkuPage(page, { column: 'unit_price', order: 'desc' }).map((row) => row.sku_id)).toEqual([3, 2, 1]);
    // A missing barcode sorts last.
    expect(sortSkuPage(page, { column: 'barcode', order: 'asc' }).map((row) => row.sku_id)).toEqual([2, 3, 1]);
    expect(sortSkuPage(page, { column: 'rank', order: 'desc' }).map((row) => row.rank)).toEqual([13, 12, 11]);
    expect(sortSkuPage(page, undefined)).toEqual(page);
  });

  it('names SKUs, the ranking and the file', () => {
    expect(skuLabel({ item_name: 'Latte', barcode: '8991' })).toBe('Latte · 8991');
    expect(skuLabel({ item_name: 'Latte', barcode: null })).toBe('Latte');
    expect(rankingText('quantity', 'desc')).toBe('Ranked by quantity sold, highest first');
    expect(rankingText('amount', 'asc')).toBe('Ranked by revenue, lowest first');
    const [file] = csvFileTexts('2026-11-19_2026-11-25', [topSkusCsv(page, 'SGD')]);
    expect(file?.fileName).toBe('top_skus_2026-11-19_2026-11-25.csv');
    expect(file?.text.split('\r\n').slice(0, 3)).toEqual([
      '\uFEFFRank,SKU ID,Barcode,Item Name,Quantity,Unit Price,Amount,Currency',
      '11,3,900,banana bread,9,4.5,40.5,SGD',
      '12,1,,Americano,7,3,21,SGD',
    ]);
  });
});
