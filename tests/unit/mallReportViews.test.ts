import { describe, expect, it } from 'vitest';
import {
  type GrowthSide,
  heatMapCsvRows,
  heatMapKeys,
  KPI_CSV_KEYS,
  kpiCsvRows,
  kpiGrowthLine,
  type MallGrowthAnswer,
  type MemberOverallResponse,
  mallHomeComparison,
  mallHomeKpis,
  mallTotals,
  memberShareOf,
  metricValue,
  type PeakHourRow,
  paymentBuckets,
  paymentOverTime,
  paymentOverTimeRows,
  peakHoursNeedsBuckets,
  peakHoursView,
  type ReportQuery,
  reportQueryOf,
  WEEKDAYS,
  wholeDays,
} from '../../src/domain/mallReportViews';

// 2026-03-02 is a Monday.
const QUERY: ReportQuery = {
  clientId: 1,
  mallIds: [1],
  start: '2026-03-02',
  end: '2026-03-03',
  startHour: 10,
  endHour: 11,
  timeRange: 'daily',
  metric: 'gmv',
};

const cell = (period: string, hour: number, value: number): PeakHourRow => ({ period, hour, value });
const members = (member: number, non_member: number): MemberOverallResponse => ({
  data: [],
  total: { member, non_member },
});

describe('wholeDays', () => {
  it('widens the hours to the whole day and keeps the rest', () => {
    expect(wholeDays(QUERY)).toEqual({ ...QUERY, startHour: 0, endHour: 23 });
  });
});

describe('mall home', () => {
  it('sums the malls (GMV to 2 decimals, the average transaction value as GMV / transactions)', () => {
    const row = { mall_id: 1, mall_name: 'A', average_transaction_value: 0 };
    expect(
      mallTotals([
        { ...row, gmv: 10.005, transactions: 2 },
        { ...row, gmv: 20, transactions: 1 },
      ]),
    ).toEqual({ gmv: 30.01, transactions: 3, averageTransactionValue: 10 });
    expect(mallTotals([])).toEqual({ gmv: 0, transactions: 0, averageTransactionValue: 0 });
  });

  it('gives the member share of GMV, 0 when there is none', () => {
    expect(memberShareOf(members(25, 75))).toBe(0.25);
    expect(memberShareOf(members(0, 0))).toBe(0);
  });

  const HOME: ReportQuery = { ...QUERY, start: '2026-11-19', end: '2026-11-25', startHour: 0, endHour: 23 };
  const mall = { mall_id: 1, mall_name: 'A', average_transaction_value: 0 };

  it('compares the complete days of a range ending today with as many days before them', () => {
    expect(mallHomeComparison({ ...HOME, today: '2026-11-25' })).toEqual({
      current: { start: '2026-11-19', end: '2026-11-24' },
      previous: { start: '2026-11-13', end: '2026-11-18' },
      todayLeftOut: true,
    });
  });

  it('compares a range ending yesterday whole, with the period of equal length before it', () => {
    expect(mallHomeComparison({ ...HOME, today: '2026-11-26' })).toEqual({
      current: { start: '2026-11-19', end: '2026-11-25' },
      previous: { start: '2026-11-12', end: '2026-11-18' },
      todayLeftOut: false,
    });
    // A query that does not know today is compared whole.
    expect(mallHomeComparison(HOME)).toEqual({
      current: { start: '2026-11-19', end: '2026-11-25' },
      previous: { start: '2026-11-12', end: '2026-11-18' },
      todayLeftOut: false,
    });
  });

  it('has nothing to compare when the range is only today', () => {
    expect(mallHomeComparison({ ...HOME, start: '2026-11-25', today: '2026-11-25' })).toBeUndefined();
  });

  const side = (
    start: string,
    end: string,
    gmv: number,
    transactions: number,
    memberGmv: number,
    hasData = true,
  ): GrowthSide => ({
    start_time: start,
    end_time: end,
    days: 6,
    has_data: hasData,
    gmv,
    transactions,
    average_transaction_value: transactions === 0 ? 0 : gmv / transactions,
    member_gmv: memberGmv,
  });
  const answer = (
    current: GrowthSide,
    compared: GrowthSide,
    more: Partial<MallGrowthAnswer> = {},
  ): MallGrowthAnswer => ({
    compare: 'previous',
    current,
    compared,
    aligned: [],
    like_for_like: null,
    ...more,
  });

  it('shows the whole range and takes the growth from the complete days against the days compared with', () => {
    const comparison = mallHomeComparison({ ...HOME, today: '2026-11-25' });
    const kpis = mallHomeKpis(comparison, {
      malls: [{ ...mall, gmv: 120, transactions: 6 }],
      members: members(60, 60),
      growth: answer(side('2026-11-19', '2026-11-24', 100, 4, 40), side('2026-11-13', '2026-11-18', 50, 5, 12.5)),
    });
    expect(kpis).toEqual({
      gmv: { current: 120, growth: { current: 100, previous: 50 } },
      transactions: { current: 6, growth: { current: 4, previous: 5 } },
      averageTransactionValue: { current: 20, growth: { current: 25, previous: 10 } },
      memberShare: { current: 0.5, growth: { current: 0.4, previous: 0.25 } },
      comparison: {
        ...comparison,
        rule: 'previous',
        aligned: [],
        likeForLike: undefined,
        nothingToCompare: false,
        nothingCompared: false,
      },
      noData: false,
    });
    expect(kpiGrowthLine(kpis.gmv, kpis.comparison)).toEqual({
      text: '▲ 100.00% vs 13–18 Nov (today left out)',
      trend: 'up',
    });
    expect(kpiGrowthLine(kpis.transactions, kpis.comparison)).toEqual({
      text: '▼ -20.00% vs 13–18 Nov (today left out)',
      trend: 'down',
    });
    expect(KPI_CSV_KEYS).toEqual(['measure', 'current', 'compared_period', 'compared', 'previous_period', 'previous']);
    const periods = { compared_period: '2026-11-19 to 2026-11-24', previous_period: '2026-11-13 to 2026-11-18' };
    expect(kpiCsvRows(kpis)).toEqual([
      { measure: 'GMV', current: 120, ...periods, compared: 100, previous: 50 },
      { measure: 'Transactions', current: 6, ...periods, compared: 4, previous: 5 },
      { measure: 'Average Transaction Value', current: 20, ...periods, compared: 25, previous: 10 },
      { measure: 'Member Share (%)', current: 50, ...periods, compared: 40, previous: 25 },
    ]);
    expect(kpiCsvRows(undefined)).toEqual([]);
  });

  it('says which days last year it compares, the festivals met and the outlets left out', () => {
    const comparison = mallHomeComparison({ ...HOME, start: '2026-02-15', end: '2026-02-21', today: '2026-03-01' });
    const kpis = mallHomeKpis(comparison, {
      malls: [{ ...mall, gmv: 510, transactions: 2 }],
      members: members(0, 510),
      growth: answer(side('2026-02-15', '2026-02-21', 510, 2, 0), side('2025-01-26', '2025-02-08', 430, 2, 0), {
        compare: 'festival_aligned',
        aligned: [
          {
            festival: 'chinese_new_year',
            name: 'Chinese New Year',
            start_time: '2026-02-17',
            end_time: '2026-02-18',
            compared_start_time: '2025-01-29',
            compared_end_time: '2025-01-30',
          },
        ],
        like_for_like: { kept: 3, left_out: 2 },
      }),
    });
    expect(kpiGrowthLine(kpis.gmv, kpis.comparison, (value) => `$${value.toFixed(2)}`)).toEqual({
      text: '▲ 18.60% vs 26 Jan – 8 Feb 2025, Chinese New Year 17–18 Feb met with 29–30 Jan 2025, like-for-like: 2 outlets left out',
      trend: 'up',
      compared: '$510.00, 15–21 Feb vs $430.00, 26 Jan – 8 Feb 2025',
    });
  });

  it('compares the whole range when it has ended; 0.00% with nothing to compare when the days before hold no sale', () => {
    const comparison = mallHomeComparison({ ...HOME, today: '2026-11-26' });
    const kpis = mallHomeKpis(comparison, {
      malls: [{ ...mall, gmv: 100, transactions: 4 }],
      members: members(40, 60),
      growth: answer(side('2026-11-19', '2026-11-25', 100, 4, 40), side('2026-11-12', '2026-11-18', 0, 0, 0, false)),
    });
    expect(kpis.gmv).toEqual({ current: 100, growth: { current: 100, previous: 0 } });
    expect(kpis.memberShare).toEqual({ current: 0.4, growth: { current: 0.4, previous: 0 } });
    expect(kpiGrowthLine(kpis.gmv, kpis.comparison, (value) => `$${value}`)).toEqual({
      text: '0.00% vs 12–18 Nov · nothing to compare',
      trend: 'flat',
      compared: '$100, 19–25 Nov vs no data, 12–18 Nov',
    });
    expect(kpiCsvRows(kpis)[0]).toEqual({
      measure: 'GMV',
      current: 100,
      compared_period: '2026-11-19 to 2026-11-25',
      compared: 100,
      previous_period: '2026-11-12 to 2026-11-18',
      previous: 0,
    });
  });

  it('gives no growth when the range holds no complete day', () => {
    const kpis = mallHomeKpis(undefined, { malls: [{ ...mall, gmv: 30, transactions: 1 }], members: members(1, 1) });
    expect(kpis.gmv).toEqual({ current: 30, growth: undefined });
    expect(kpis.comparison).toBeUndefined();
    expect(kpiGrowthLine(kpis.gmv, kpis.comparison)).toEqual({
      text: 'No complete day to compare yet.',
      trend: 'none',
    });
    expect(kpiCsvRows(kpis)[3]).toEqual({
      measure: 'Member Share (%)',
      current: 50,
      compared_period: '',
      compared: '',
      previous_period: '',
      previous: '',
    });
  });
});

describe('reportQueryOf', () => {
  const filters = {
    clientId: 1,
    mallIds: [1],
    outlet: undefined,
    dateRange: { start: '2026-11-19', end: '2026-11-25' },
    hours: { from: 9, to: 17 },
    timeRange: 'weekly' as const,
    metric: 'transactions' as const,
    month: undefined,
  };

  it("carries the header's today when it is given", () => {
    expect(reportQueryOf(filters, false, '2026-11-25')).toEqual({
      clientId: 1,
      mallIds: [1],
      start: '2026-11-19',
      end: '2026-11-25',
      startHour: 0,
      endHour: 23,
      timeRange: 'daily',
      metric: 'gmv',
      today: '2026-11-25',
    });
    expect(reportQueryOf(filters, true)).not.toHaveProperty('today');
    expect(reportQueryOf({ ...filters, mallIds: [] }, false, '2026-11-25')).toBeUndefined();
  });
});

describe('peak hours', () => {
  it('writes the heat map as one CSV row a weekday, one column an hour', () => {
    const heatMap = WEEKDAYS.map((_, day) => [day, day * 10]);
    const rows = heatMapCsvRows({ hours: [9, 10], heatMap });
    expect(heatMapKeys([9, 10])).toEqual(['hour_9', 'hour_10']);
    expect(rows[0]).toEqual({ weekday: 'Mon', hour_9: 0, hour_10: 0 });
    expect(rows[6]).toEqual({ weekday: 'Sun', hour_9: 6, hour_10: 60 });
    expect(heatMapCsvRows(undefined)).toEqual([]);
  });

  it('reads buckets of their own only for weekly and monthly time ranges', () => {
    expect(['hourly', 'daily', 'weekly', 'monthly'].map((t) => peakHoursNeedsBuckets(t as never))).toEqual([
      false,
      false,
      true,
      true,
    ]);
  });

  it('gives the metric of a bucket from its GMV and transactions', () => {
    expect(metricValue('gmv', 10.005, 3)).toBe(10.01);
    expect(metricValue('transactions', 10, 3)).toBe(3);
    expect(metricValue('average_transaction_value', 10, 4)).toBe(2.5);
    expect(metricValue('average_transaction_value', 10, 0)).toBe(0);
  });

  it('averages GMV per day of each weekday over the hours of the range', () => {
    const view = peakHoursView(QUERY, {
      gmvCells: [cell('2026-03-02', 10, 100), cell('2026-03-03', 11, 50)],
      transactionCells: [cell('2026-03-02', 10, 4), cell('2026-03-03', 11, 5)],
    });
    expect(view.hours).toEqual([10, 11]);
    expect(view.heatMap).toEqual([
      [100, 0],
      [0, 50],
      [0, 0],
      [0, 0],
      [0, 0],
      [0, 0],
      [0, 0],
    ]);
    expect(view.series).toEqual([
      { period: '2026-03-02', value: 100 },
      { period: '2026-03-03', value: 50 },
    ]);
  });

  it('pairs GMV and transactions by day and hour, whatever their order, a missing row counting as 0', () => {
    const query: ReportQuery = { ...QUERY, metric: 'average_transaction_value' };
    const view = peakHoursView(query, {
      gmvCells: [cell('2026-03-02', 10, 100), cell('2026-03-03', 11, 50), cell('2026-03-03', 10, 30)],
      // Another order, and no transactions row for Monday 10:00.
      transactionCells: [cell('2026-03-03', 10, 3), cell('2026-03-03', 11, 5)],
    });
    expect(view.heatMap[0]).toEqual([0, 0]);
    expect(view.heatMap[1]).toEqual([10, 10]);
    expect(view.series).toEqual([
      { period: '2026-03-02', value: 0 },
      { period: '2026-03-03', value: 10 },
    ]);
  });

  it('labels the hourly series by day and hour, pairing by both', () => {
    const query: ReportQuery = { ...QUERY, timeRange: 'hourly', metric: 'average_transaction_value' };
    const view = peakHoursView(query, {
      gmvCells: [cell('2026-03-02', 10, 20), cell('2026-03-02', 11, 90)],
      transactionCells: [cell('2026-03-02', 11, 3), cell('2026-03-02', 10, 2)],
    });
    expect(view.series).toEqual([
      { period: '2026-03-02 10:00', value: 10 },
      { period: '2026-03-02 11:00', value: 30 },
    ]);
  });

  it('takes weekly and monthly series from the buckets, paired by period', () => {
    const query: ReportQuery = { ...QUERY, timeRange: 'weekly', metric: 'average_transaction_value' };
    const view = peakHoursView(query, {
      gmvCells: [],
      transactionCells: [],
      gmvBuckets: [cell('2026-03-02', 10, 60), cell('2026-02-23', 10, 10)],
      transactionBuckets: [cell('2026-02-23', 10, 1), cell('2026-03-02', 10, 3)],
    });
    expect(view.series).toEqual([
      { period: '2026-02-23', value: 10 },
      { period: '2026-03-02', value: 20 },
    ]);
  });

  it('ignores cells outside the hour range', () => {
    const view = peakHoursView(QUERY, { gmvCells: [cell('2026-03-02', 9, 100)], transactionCells: [] });
    expect(view.heatMap[0]).toEqual([0, 0]);
  });
});

describe('payment methods', () => {
  it('buckets a week or less by day', () => {
    expect(paymentBuckets('2026-03-02', '2026-03-03')).toEqual([
      { label: '2026-03-02', start: '2026-03-02', end: '2026-03-02' },
      { label: '2026-03-03', start: '2026-03-03', end: '2026-03-03' },
    ]);
  });

  it('buckets longer ranges by week, Monday to Sunday, clipped to the range', () => {
    expect(paymentBuckets('2026-03-04', '2026-03-16')).toEqual([
      { label: '2026-03-04 – 2026-03-08', start: '2026-03-04', end: '2026-03-08' },
      { label: '2026-03-09 – 2026-03-15', start: '2026-03-09', end: '2026-03-15' },
      { label: '2026-03-16', start: '2026-03-16', end: '2026-03-16' },
    ]);
  });

  it('keys each method by name across buckets, the largest first, 0 where a bucket lacks it', () => {
    const monday = { label: '2026-03-02', start: '2026-03-02', end: '2026-03-02' };
    const tuesday = { label: '2026-03-03', start: '2026-03-03', end: '2026-03-03' };
    const overTime = paymentOverTime(
      [monday, tuesday],
      [
        [
          { payment_method: 'VISA', sum: 1 },
          { payment_method: 'CASH', sum: 5 },
        ],
        [{ payment_method: 'VISA', sum: 2 }],
      ],
    );
    expect(overTime).toEqual({
      labels: ['2026-03-02', '2026-03-03'],
      methods: ['CASH', 'VISA'],
      sums: [
        [5, 0],
        [1, 2],
      ],
    });
    expect(paymentOverTimeRows(overTime)).toEqual([
      { period: '2026-03-02', CASH: 5, VISA: 1 },
      { period: '2026-03-03', CASH: 0, VISA: 2 },
    ]);
    expect(paymentOverTime([monday], [undefined]).methods).toEqual([]);
  });
});
