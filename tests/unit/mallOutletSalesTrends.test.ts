import { describe, expect, it } from 'vitest';
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
import {
  growthText,
  monthFigureText,
  monthGrowthLine,
  openMonthNote,
  salesTrendsCsv,
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
