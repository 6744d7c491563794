import { describe, expect, it } from 'vitest';
import { withComparisonQuery } from '../../src/domain/comparisonUrl';
import { csvFileTexts } from '../../src/domain/csv';
import { formatMoney, formatNumber } from '../../src/domain/format';
import {
  type CategoryOutletRow,
  lookUpOutlet,
  mallOutletHref,
  outletGrowthDays,
  outletPlacement,
  unknownOutletMessage,
} from '../../src/domain/mallOutlet';
import type { GrowthSide, MallGrowthAnswer } from '../../src/domain/mallReportViews';
import {
  DEFAULT_SALES_TRENDS_COMPARISON,
  growthCallComparison,
  growthText,
  monthFigureText,
  monthGrowthLine,
  openMonthNote,
  parseSalesTrendsComparisonQuery,
  SALES_TRENDS_RULES,
  SAME_MONTH_LAST_YEAR,
  salesTrendsComparison,
  salesTrendsCsv,
  salesTrendsGrowthRanges,
  salesTrendsPlan,
  salesTrendsQuery,
  salesTrendsView,
  salesTrendsYears,
} from '../../src/domain/salesTrends';

/* The rules of the mall outlet and sales trends pages (domain/mallOutlet, domain/salesTrends). */

describe('the mall outlet page', () => {
  const outlets = [
    { id: 12, name: 'Kopi Corner', mall_id: 1, currency: 'SGD' },
    { id: 14, name: 'Kiosk', mall_id: null, currency: 'SGD' },
  ];
  const malls = [{ id: 1, name: 'Central', currency: 'SGD' }];

  it('finds the outlet of the path only once the outlets are known, and only one of a mall', () => {
    expect(lookUpOutlet(12, [], malls, 'loading')).toEqual({ kind: 'waiting' });
    expect(lookUpOutlet(12, [], malls, 'failed')).toEqual({ kind: 'failed' });
    expect(lookUpOutlet(12, outlets, malls, 'loaded')).toEqual({
      kind: 'found',
      outlet: outlets[0],
      mall: malls[0],
    });
    expect(lookUpOutlet(13, outlets, malls, 'loaded')).toEqual({ kind: 'unknown' });
    expect(lookUpOutlet(14, outlets, malls, 'loaded')).toEqual({ kind: 'unknown' });
    // An id that is not one is unknown at once.
    expect(lookUpOutlet(undefined, [], malls, 'loading')).toEqual({ kind: 'unknown' });
    expect(unknownOutletMessage('0')).toBe('“0” is not an outlet id.');
    expect(unknownOutletMessage('13')).toBe('Outlet 13 is not one of the outlets you can see in this client.');
  });

  it('links an outlet keeping the client, malls and dates', () => {
    const filters = { clientId: 3, mallIds: [1, 2], dateRange: { start: '2024-03-09', end: '2024-03-15' } };
    expect(mallOutletHref(12, filters)).toBe(
      '/shopper-connect/mall-outlet/12?client=3&malls=1,2&from=2024-03-09&to=2024-03-15',
    );
  });

  it('compares the complete days of a range reaching today, a past range whole, and none of today alone', () => {
    expect(outletGrowthDays({ start: '2024-03-09', end: '2024-03-15', today: '2024-03-15' })).toEqual({
      days: { start: '2024-03-09', end: '2024-03-14' },
      todayLeftOut: true,
    });
    expect(outletGrowthDays({ start: '2024-03-01', end: '2024-03-07', today: '2024-03-15' })).toEqual({
      days: { start: '2024-03-01', end: '2024-03-07' },
      todayLeftOut: false,
    });
    expect(outletGrowthDays({ start: '2024-03-15', end: '2024-03-15', today: '2024-03-15' })).toBeUndefined();
  });

  it('places the outlet by its own row: its rank, and its share of its level', () => {
    const row = (outlet_id: number, rank: number, level: string, gmv: number): CategoryOutletRow => ({
      category: 'F&B',
      outlet_id,
      outlet_name: `Outlet ${outlet_id}`,
      mall_id: 1,
      mall_name: 'Central',
      level,
      rank,
      category_outlets: 3,
      gmv,
      transactions: 1,
      average_transaction_value: gmv,
    });
    const peers = [row(12, 2, 'L1', 30), row(7, 1, 'L2', 50)];
    const placement = outletPlacement(12, peers, [
      { level: 'L1', gmv: 120, transactions: 4, average_transaction_value: 30 },
    ]);
    expect(placement).toMatchObject({
      rank: 2,
      categoryOutlets: 3,
      mallName: 'Central',
      level: { name: 'L1', share: 0.25 },
    });
    expect(placement?.peers.map((peer) => [peer.outlet_id, peer.current])).toEqual([
      [7, false],
      [12, true],
    ]);
    // A level without sales: a share of nothing is 0.
    expect(outletPlacement(12, peers, [])?.level).toEqual({ name: 'L1', gmv: 0, transactions: 0, share: 0 });
    expect(outletPlacement(99, peers, [])).toBeUndefined();
  });
});

describe('sales trends', () => {
  it('offers this year and the four before it, and asks from the year before to today', () => {
    expect(salesTrendsYears('2026-11-26')).toEqual([2026, 2025, 2024, 2023, 2022]);
    expect(salesTrendsQuery({ clientId: 1, mallIds: [] }, 2026, '2026-11-26')).toBeUndefined();
    expect(salesTrendsQuery({ clientId: 1, mallIds: [2] }, 2026, '2026-11-26')).toMatchObject({
      start: '2025-01-01',
      end: '2026-11-26',
    });
    expect(salesTrendsQuery({ clientId: 1, mallIds: [2] }, 2024, '2026-11-26')).toMatchObject({
      start: '2023-01-01',
      end: '2024-12-31',
    });
  });

  it('compares the open month’s complete days with the same days of the year before', () => {
    expect(salesTrendsPlan({ start: '2023-01-01', end: '2024-12-31', today: '2026-11-26' })).toEqual({
      year: 2024,
      thisYear: { start: '2024-01-01', end: '2024-12-31' },
      lastYear: { start: '2023-01-01', end: '2023-12-31' },
    });
    // 29 February: its 28 complete days against February's 28 days of a common year.
    expect(salesTrendsPlan({ start: '2027-01-01', end: '2028-02-29', today: '2028-02-29' }).open).toEqual({
      month: 2,
      shownTo: '2028-02-29',
      compared: {
        current: { start: '2028-02-01', end: '2028-02-28' },
        previous: { start: '2027-02-01', end: '2027-02-28' },
      },
    });
    // 1 March of a year after a leap year: no complete day yet.
    expect(salesTrendsPlan({ start: '2024-01-01', end: '2025-03-01', today: '2025-03-01' }).open).toEqual({
      month: 3,
      shownTo: '2025-03-01',
    });
  });

  it('shows Jan to Dec; a first day of a month partial and without growth; months to come without figures', () => {
    const plan = salesTrendsPlan({ start: '2025-01-01', end: '2026-01-01', today: '2026-01-01' });
    const trends = salesTrendsView(plan, {
      thisYear: [{ month: '2026-01', gmv: 50, transactions: 1 }],
      lastYear: [
        { month: '2025-01', gmv: 400, transactions: 8 },
        { month: '2025-02', gmv: 0, transactions: 0 },
      ],
    });
    expect(trends.months).toHaveLength(12);
    expect(trends.months[0]).toEqual({
      month: 1,
      label: 'Jan (so far)',
      thisYear: { gmv: 50, transactions: 1 },
      lastYear: { gmv: 400, transactions: 8 },
      partial: true,
      growth: undefined,
    });
    expect(trends.months[1]).toMatchObject({ label: 'Feb', thisYear: undefined, growth: undefined });
    expect(openMonthNote(trends)).toBe(
      'Jan 2026 is partial: its figures are to 1 Jan. No complete day to compare yet.',
    );
    expect(growthText(undefined)).toBe('—');
    expect(growthText(0)).toBe('0.00%');
  });

  it('gives a whole month of a past year its growth, 0.00% against nothing', () => {
    const plan = salesTrendsPlan({ start: '2024-01-01', end: '2025-12-31', today: '2026-11-26' });
    const trends = salesTrendsView(plan, {
      thisYear: [
        { month: '2025-01', gmv: 123.45, transactions: 3 },
        { month: '2025-02', gmv: 80, transactions: 2 },
      ],
      lastYear: [{ month: '2024-02', gmv: 100, transactions: 4 }],
    });
    expect(trends.months[0]?.growth).toEqual({ gmv: 0, transactions: 0 });
    expect(trends.months[1]?.growth).toEqual({ gmv: -20, transactions: -50 });
    expect(trends.months[11]).toMatchObject({ label: 'Dec', thisYear: { gmv: 0, transactions: 0 } });
    expect(openMonthNote(trends)).toBeUndefined();
  });

  describe('each month’s growth with the two figures it compares and their days (issue 31)', () => {
    const USD = { code: 'USD', symbol: '$', digits: 2 };
    const money = (value: number) => formatMoney(value, USD);
    // Today 28 Nov 2026: November so far ($759,267.18) against November 2025 ($694,217.32) is not like with like;
    // its complete days, 1–27 Nov, are compared with 1–27 Nov 2025: 720,447.58 / 607,297.18 − 1 = +18.63%.
    const plan = salesTrendsPlan({ start: '2025-01-01', end: '2026-11-28', today: '2026-11-28' });
    const trends = salesTrendsView(plan, {
      thisYear: [
        { month: '2026-03', gmv: 5000, transactions: 50 },
        { month: '2026-10', gmv: 880, transactions: 11 },
        { month: '2026-11', gmv: 759267.18, transactions: 9100 },
      ],
      lastYear: [
        { month: '2025-10', gmv: 800, transactions: 10 },
        { month: '2025-11', gmv: 694217.32, transactions: 8400 },
      ],
      open: {
        current: [{ month: '2026-11', gmv: 720447.58, transactions: 8640 }],
        previous: [{ month: '2025-11', gmv: 607297.18, transactions: 8000 }],
      },
    });
    const [march, october, november] = [trends.months[2], trends.months[9], trends.months[10]];
    if (!march || !october || !november) throw new Error('no months');

    it('compares the open month’s complete days with the same days of the year before', () => {
      expect(november.growth).toEqual({ gmv: 18.63, transactions: 8 });
      expect(monthGrowthLine(november, 'gmv', money)).toBe(
        '+18.63%: $720,447.58, 1–27 Nov, vs $607,297.18, 1–27 Nov 2025',
      );
      expect(monthGrowthLine(november, 'transactions', formatNumber)).toBe(
        '+8.00%: 8,640, 1–27 Nov, vs 8,000, 1–27 Nov 2025',
      );
      // A complete month with the whole month of the year before.
      expect(monthGrowthLine(october, 'gmv', money)).toBe('+10.00%: $880.00, 1–31 Oct, vs $800.00, 1–31 Oct 2025');
      // December has not begun.
      expect(monthGrowthLine(trends.months[11] ?? november, 'gmv', money)).toBe('—');
    });

    it('says no data for a month of the year before without a sale, and that there is nothing to compare', () => {
      expect(march.growth).toEqual({ gmv: 0, transactions: 0 });
      expect(monthFigureText(march.lastYear, 'gmv', money)).toBe('No Data');
      expect(monthFigureText(march.thisYear, 'gmv', money)).toBe('$5,000.00');
      expect(monthFigureText(trends.months[1]?.thisYear, 'gmv', money)).toBe('No Data');
      expect(monthFigureText(trends.months[11]?.thisYear, 'gmv', money)).toBe('—');
      expect(monthGrowthLine(march, 'gmv', money)).toBe(
        '0.00%: $5,000.00, 1–31 Mar, vs no data, 1–31 Mar 2025 · nothing to compare',
      );
    });

    it('writes the compared days and figures in the CSV', () => {
      const [file] = csvFileTexts('2026', [salesTrendsCsv(trends)]);
      const lines = file?.text.split('\r\n') ?? [];
      expect(lines[0]).toBe(
        '\uFEFFMonth,GMV 2026,GMV 2025,GMV Growth Percent,Transactions 2026,Transactions 2025,' +
          'Transactions Growth Percent,Partial,Growth Period,GMV Growth Period Value,' +
          'Transactions Growth Period Value,Compared Period,GMV Compared Value,Transactions Compared Value,Note',
      );
      expect(lines[3]).toBe(
        'Mar,5000,0,0.00,50,0,0.00,,2026-03-01 to 2026-03-31,5000,50,2025-03-01 to 2025-03-31,no data,no data,' +
          'nothing to compare',
      );
      expect(lines[11]).toBe(
        'Nov,759267.18,694217.32,18.63,9100,8400,8.00,Yes,2026-11-01 to 2026-11-27,720447.58,8640,' +
          '2025-11-01 to 2025-11-27,607297.18,8000,',
      );
      expect(lines[12]).toBe('Dec,,0,,,0,,,,,,,,,');
    });
  });
});

describe('sales trends by another rule than the same month last year', () => {
  const USD = { code: 'USD', symbol: '$', digits: 2 };
  const money = (value: number) => formatMoney(value, USD);

  it('offers the same month last year first, its default, then the rules of every page', () => {
    expect(SALES_TRENDS_RULES.map((option) => option.label)).toEqual([
      'Same month last year',
      'Previous period',
      'Same weekdays last year',
      'Festival-aligned last year',
    ]);
    expect(DEFAULT_SALES_TRENDS_COMPARISON).toEqual({ rule: 'same_month_last_year', likeForLike: false });
    // Like-for-like with the page's own rule too: then the growth call's same dates last year, like-for-like.
    expect(salesTrendsComparison('same_month_last_year', true)).toEqual({
      rule: 'same_month_last_year',
      likeForLike: true,
    });
    expect(growthCallComparison(DEFAULT_SALES_TRENDS_COMPARISON)).toBeUndefined();
    expect(growthCallComparison({ rule: 'same_month_last_year', likeForLike: true })).toEqual({
      rule: 'same_date_last_year',
      likeForLike: true,
    });
    expect(salesTrendsComparison('previous', true)).toEqual({ rule: 'previous', likeForLike: true });
  });

  it('keeps the choice in the address with this page’s default: the previous period is said', () => {
    const filters = 'client=1&malls=1%2C2';
    expect(parseSalesTrendsComparisonQuery('')).toEqual(DEFAULT_SALES_TRENDS_COMPARISON);
    expect(parseSalesTrendsComparisonQuery('?compare=previous')).toEqual({ rule: 'previous', likeForLike: false });
    expect(parseSalesTrendsComparisonQuery('compare=festival_aligned&like_for_like=1&client=1')).toEqual({
      rule: 'festival_aligned',
      likeForLike: true,
    });
    // An unknown rule reads as the page's own; like-for-like is kept with it.
    expect(parseSalesTrendsComparisonQuery('compare=yesterday')).toEqual(DEFAULT_SALES_TRENDS_COMPARISON);
    expect(parseSalesTrendsComparisonQuery('like_for_like=1')).toEqual({
      rule: 'same_month_last_year',
      likeForLike: true,
    });
    // Written before the filters' keys, as every page writes it; the default says nothing.
    expect(
      withComparisonQuery(`year=1&${filters}`, { rule: 'previous', likeForLike: true }, SAME_MONTH_LAST_YEAR),
    ).toBe(`year=1&compare=previous&like_for_like=1&${filters}`);
    expect(withComparisonQuery(filters, { rule: 'festival_aligned', likeForLike: false }, SAME_MONTH_LAST_YEAR)).toBe(
      `compare=festival_aligned&${filters}`,
    );
    expect(
      withComparisonQuery(
        `compare=previous&like_for_like=1&${filters}`,
        DEFAULT_SALES_TRENDS_COMPARISON,
        SAME_MONTH_LAST_YEAR,
      ),
    ).toBe(filters);
  });

  it('asks the monthly report by its own rule, the growth call by another', () => {
    const filters = { clientId: 1, mallIds: [2] };
    expect(salesTrendsQuery(filters, 2026, '2026-03-15')).toMatchObject({ sameMonthLastYear: true });
    expect(salesTrendsQuery(filters, 2026, '2026-03-15')?.comparison).toBeUndefined();
    const festival = salesTrendsQuery(filters, 2026, '2026-03-15', { rule: 'festival_aligned', likeForLike: true });
    expect(festival).toMatchObject({ comparison: { rule: 'festival_aligned', likeForLike: true } });
    expect(festival?.sameMonthLastYear).toBeUndefined();
  });

  it('asks the growth of each month begun: whole months, the open month’s complete days', () => {
    // 15 March 2026: January and February whole (28 days), March's 14 complete days; April on not begun.
    expect(
      salesTrendsGrowthRanges(salesTrendsPlan({ start: '2025-01-01', end: '2026-03-15', today: '2026-03-15' })),
    ).toEqual([
      { month: 1, range: { start: '2026-01-01', end: '2026-01-31' } },
      { month: 2, range: { start: '2026-02-01', end: '2026-02-28' } },
      { month: 3, range: { start: '2026-03-01', end: '2026-03-14' } },
    ]);
    // The first of a month: no complete day of it to compare.
    expect(
      salesTrendsGrowthRanges(salesTrendsPlan({ start: '2025-01-01', end: '2026-03-01', today: '2026-03-01' })).map(
        (growth) => growth.month,
      ),
    ).toEqual([1, 2]);
    // A past year: its twelve months, February of a leap year 29 days.
    const past = salesTrendsGrowthRanges(
      salesTrendsPlan({ start: '2023-01-01', end: '2024-12-31', today: '2026-03-15' }),
    );
    expect(past).toHaveLength(12);
    expect(past[1]).toEqual({ month: 2, range: { start: '2024-02-01', end: '2024-02-29' } });
    expect(past[11]).toEqual({ month: 12, range: { start: '2024-12-01', end: '2024-12-31' } });
  });

  /** A side of the growth call: `gmv` over `days`, a tenth of it in transactions. */
  const side = (start: string, end: string, gmv: number, transactions: number): GrowthSide => ({
    start_time: start,
    end_time: end,
    days: 0,
    has_data: gmv !== 0 || transactions !== 0,
    gmv,
    transactions,
    average_transaction_value: transactions === 0 ? 0 : gmv / transactions,
    member_gmv: 0,
  });

  /*
   * Festival-aligned, like-for-like, today 15 March 2026. January holds no festival: each day against the same
   * weekday last year (364 days back: 2 Jan – 1 Feb 2025), which had no sale of the outlets kept. February holds
   * Chinese New Year (17–18 Feb 2026, 29–30 Jan 2025): 1–16 Feb meet the same weekdays before 29 Jan 2025 (16 Feb, a
   * Monday, meets Monday 27 Jan; 1 Feb meets 12 Jan), 19–28 Feb the same weekdays after 30 Jan (19 Feb, a Thursday,
   * meets Thursday 6 Feb; 28 Feb meets 15 Feb): 12 Jan – 15 Feb 2025. March's 14 complete days against 2–15 Mar 2025.
   */
  const festivalAligned = (
    current: GrowthSide,
    compared: GrowthSide,
    leftOut: number,
    aligned: MallGrowthAnswer['aligned'] = [],
  ): MallGrowthAnswer => ({
    compare: 'festival_aligned',
    current,
    compared,
    aligned,
    like_for_like: { kept: 12, left_out: leftOut },
  });
  const plan = salesTrendsPlan({ start: '2025-01-01', end: '2026-03-15', today: '2026-03-15' });
  const trends = salesTrendsView(plan, {
    thisYear: [
      { month: '2026-01', gmv: 3200, transactions: 32 },
      { month: '2026-02', gmv: 6500, transactions: 65 },
      { month: '2026-03', gmv: 2400, transactions: 30 },
    ],
    lastYear: [
      { month: '2025-01', gmv: 2000, transactions: 20 },
      { month: '2025-02', gmv: 5200, transactions: 52 },
      { month: '2025-03', gmv: 3000, transactions: 30 },
    ],
    growth: [
      {
        month: 1,
        answer: festivalAligned(side('2026-01-01', '2026-01-31', 3000, 30), side('2025-01-02', '2025-02-01', 0, 0), 2),
      },
      {
        month: 2,
        answer: festivalAligned(
          side('2026-02-01', '2026-02-28', 6100, 61),
          side('2025-01-12', '2025-02-15', 5000, 50),
          2,
          [
            {
              festival: 'chinese_new_year',
              name: 'Chinese New Year',
              start_time: '2026-02-17',
              end_time: '2026-02-18',
              compared_start_time: '2025-01-29',
              compared_end_time: '2025-01-30',
            },
          ],
        ),
      },
      {
        month: 3,
        answer: festivalAligned(
          side('2026-03-01', '2026-03-14', 2100, 28),
          side('2025-03-02', '2025-03-15', 1400, 35),
          1,
        ),
      },
    ],
  });
  const [january, february, march, april] = trends.months;
  if (!january || !february || !march || !april) throw new Error('no months');

  it('compares each month’s days with the days the call chose, and says how it chose them', () => {
    // The figures shown stay the monthly report's; the growth is the call's: 6,100 / 5,000 − 1 = +22.00%.
    expect(february).toMatchObject({
      thisYear: { gmv: 6500, transactions: 65 },
      lastYear: { gmv: 5200, transactions: 52 },
      growth: { gmv: 22, transactions: 22 },
    });
    expect(monthGrowthLine(february, 'gmv', money)).toBe(
      '+22.00%: $6,100.00, 1–28 Feb, vs $5,000.00, 12 Jan – 15 Feb 2025, Chinese New Year 17–18 Feb met with ' +
        '29–30 Jan 2025, like-for-like: 2 outlets left out',
    );
    // Nothing last year of the outlets kept: §9's 0.00%, nothing to compare.
    expect(january.growth).toEqual({ gmv: 0, transactions: 0 });
    expect(monthGrowthLine(january, 'transactions', formatNumber)).toBe(
      '0.00%: 30, 1–31 Jan, vs no data, 2 Jan – 1 Feb 2025, same weekdays last year: no festival in the range, ' +
        'like-for-like: 2 outlets left out · nothing to compare',
    );
    // The open month's complete days: 2,100 / 1,400 − 1 = +50.00%, 28 / 35 − 1 = −20.00%.
    expect(march).toMatchObject({ partial: true, growth: { gmv: 50, transactions: -20 } });
    expect(monthGrowthLine(march, 'transactions', formatNumber)).toBe(
      '-20.00%: 28, 1–14 Mar, vs 35, 2–15 Mar 2025, same weekdays last year: no festival in the range, ' +
        'like-for-like: 1 outlet left out',
    );
    expect(openMonthNote(trends)).toBe(
      'Mar 2026 is partial: its figures are to 15 Mar. Its growth compares its 14 complete days (1–14 Mar) with ' +
        '2–15 Mar 2025.',
    );
    expect(monthGrowthLine(april, 'gmv', money)).toBe('—');
  });

  it('writes the days and figures the call compared in the CSV, and how it chose them in the note', () => {
    const [file] = csvFileTexts('2026', [salesTrendsCsv(trends)]);
    const lines = file?.text.split('\r\n') ?? [];
    expect(lines[1]).toBe(
      'Jan,3200,2000,0.00,32,20,0.00,,2026-01-01 to 2026-01-31,3000,30,2025-01-02 to 2025-02-01,no data,no data,' +
        '"same weekdays last year: no festival in the range, like-for-like: 2 outlets left out · nothing to compare"',
    );
    expect(lines[2]).toBe(
      'Feb,6500,5200,22.00,65,52,22.00,,2026-02-01 to 2026-02-28,6100,61,2025-01-12 to 2025-02-15,5000,50,' +
        '"Chinese New Year 17–18 Feb met with 29–30 Jan 2025, like-for-like: 2 outlets left out"',
    );
    expect(lines[4]).toBe('Apr,,0,,,0,,,,,,,,,');
  });

  it('says the previous period by its days alone, in the year before when it falls there', () => {
    const previous = salesTrendsView(plan, {
      thisYear: [{ month: '2026-01', gmv: 3200, transactions: 32 }],
      lastYear: [],
      growth: [
        {
          month: 1,
          answer: {
            compare: 'previous',
            current: side('2026-01-01', '2026-01-31', 3200, 32),
            compared: side('2025-12-01', '2025-12-31', 4000, 40),
            aligned: [],
            like_for_like: null,
          },
        },
      ],
    });
    expect(monthGrowthLine(previous.months[0] ?? january, 'gmv', money)).toBe(
      '-20.00%: $3,200.00, 1–31 Jan, vs $4,000.00, 1–31 Dec 2025',
    );
    // A month begun without an answer has no growth.
    expect(previous.months[1]?.growth).toBeUndefined();
  });
});
