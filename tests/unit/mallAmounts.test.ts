import { describe, expect, it } from 'vitest';
import { csvFileTexts } from '../../src/domain/csv';
import {
  amountDays,
  amountKpiCsvRows,
  amountOutletRows,
  amountRate,
  comparisonNote,
  MALL_AMOUNT_LABELS,
  type MallAmountReport,
  mallAmountCsvFiles,
  mallAmountKpis,
  noAmounts,
} from '../../src/domain/mallAmounts';
import { kpiGrowthLine, kpiValueText } from '../../src/domain/mallReportViews';

/*
 * The refunds and voucher redemption figures as the pages show them, on the hand-computed week of
 * tests/server/mallAmountReports.test.ts: Central Mall, Monday 9 to Sunday 15 March 2026 against 2–8 March.
 * Refunds 70.00 in 2 receipts of GMV 350.00 in 3; the week before 5.00 in 1 of GMV 40.00 in 1.
 */

const WEEK: MallAmountReport = {
  current: { amount: 70, count: 2, gmv: 350, transactions: 3 },
  previous: { amount: 5, count: 1, gmv: 40, transactions: 1 },
  previous_start_time: '2026-03-02',
  previous_end_time: '2026-03-08',
  daily: [
    { date: '2026-03-09', amount: 20, count: 1 },
    { date: '2026-03-10', amount: 0, count: 0 },
    { date: '2026-03-11', amount: 50, count: 1 },
    { date: '2026-03-12', amount: 0, count: 0 },
    { date: '2026-03-13', amount: 0, count: 0 },
    { date: '2026-03-14', amount: 0, count: 0 },
    { date: '2026-03-15', amount: 0, count: 0 },
  ],
  outlets: [
    {
      outlet_id: 12,
      outlet_name: 'Boutique Duo',
      mall_id: 1,
      mall_name: 'Central Mall',
      amount: 50,
      count: 1,
      gmv: 200,
      transactions: 1,
    },
    {
      outlet_id: 11,
      outlet_name: 'Cafe Uno',
      mall_id: 1,
      mall_name: 'Central Mall',
      amount: 20,
      count: 1,
      gmv: 150,
      transactions: 2,
    },
  ],
};

describe('mallAmountKpis', () => {
  it('shows the range and compares it whole with the days before when it ends before today', () => {
    const kpis = mallAmountKpis(WEEK, {
      report: WEEK,
      current: { start: '2026-03-09', end: '2026-03-15' },
      todayLeftOut: false,
    });
    expect(kpis.amount).toEqual({ current: 70, growth: { current: 70, previous: 5 } });
    expect(kpis.count).toEqual({ current: 2, growth: { current: 2, previous: 1 } });
    // 70 / 350 = 20 % against 5 / 40 = 12.5 %.
    expect(kpis.rate).toEqual({ current: 0.2, growth: { current: 0.2, previous: 0.125 } });
    expect(kpis.comparison).toEqual({
      current: { start: '2026-03-09', end: '2026-03-15' },
      previous: { start: '2026-03-02', end: '2026-03-08' },
      todayLeftOut: false,
    });
    // §9: (70 − 5) / 5 × 100 = 1300.00 %; (2 − 1) / 1 = 100.00 %; (0.2 − 0.125) / 0.125 = 60.00 %.
    expect(kpiGrowthLine(kpis.amount, kpis.comparison)).toEqual({ text: '▲ 1300.00% vs 2–8 Mar', trend: 'up' });
    expect(kpiGrowthLine(kpis.count, kpis.comparison).text).toBe('▲ 100.00% vs 2–8 Mar');
    expect(kpiGrowthLine(kpis.rate, kpis.comparison).text).toBe('▲ 60.00% vs 2–8 Mar');
    expect(comparisonNote(kpis.comparison)).toBe('Growth: 9–15 Mar against 2–8 Mar.');
  });

  it("takes the growth from the complete days' answer when today is left out", () => {
    const complete = {
      current: { amount: 20, count: 1, gmv: 100, transactions: 1 },
      previous: { amount: 40, count: 2, gmv: 0, transactions: 0 },
      previous_start_time: '2026-03-03',
      previous_end_time: '2026-03-08',
    };
    const kpis = mallAmountKpis(WEEK, {
      report: complete,
      current: { start: '2026-03-09', end: '2026-03-14' },
      todayLeftOut: true,
    });
    // The figures are the whole range's, today included; the growth the complete days'.
    expect(kpis.amount).toEqual({ current: 70, growth: { current: 20, previous: 40 } });
    expect(kpiGrowthLine(kpis.amount, kpis.comparison)).toEqual({
      text: '▼ -50.00% vs 3–8 Mar (today left out)',
      trend: 'down',
    });
    // The card says what the rate compares, which is not the headline's 70 (today is in it): 20 over 9–14 Mar.
    expect(kpiGrowthLine(kpis.amount, kpis.comparison, (value) => `$${value.toFixed(2)}`).compared).toBe(
      '$20.00, 9–14 Mar vs $40.00, 3–8 Mar',
    );
    // No GMV the days before: a rate of 0, and so a growth of 0.00 % (§9: the previous figure is zero).
    expect(kpis.rate.growth).toEqual({ current: 0.2, previous: 0 });
    expect(kpiGrowthLine(kpis.rate, kpis.comparison)).toEqual({
      text: '0.00% vs 3–8 Mar (today left out)',
      trend: 'flat',
    });
    expect(comparisonNote(kpis.comparison)).toBe(
      'Growth: 9–14 Mar against 3–8 Mar; today is left out until it is over.',
    );
  });

  it("says 'No Data' for a range without any sale, and zeros only where there were sales but no refund", () => {
    const nothing = { ...WEEK, current: { amount: 0, count: 0, gmv: 0, transactions: 0 } };
    expect(mallAmountKpis(nothing).noData).toBe(true);
    expect(kpiValueText(mallAmountKpis(nothing).noData, 0, (value) => `$${value.toFixed(2)}`)).toBe('No Data');
    const noRefund = { ...WEEK, current: { amount: 0, count: 0, gmv: 120, transactions: 3 } };
    expect(mallAmountKpis(noRefund).noData).toBe(false);
    expect(kpiValueText(mallAmountKpis(noRefund).noData, 0, (value) => `$${value.toFixed(2)}`)).toBe('$0.00');
  });

  it('has no growth without a complete day', () => {
    const kpis = mallAmountKpis(WEEK);
    expect(kpis.amount).toEqual({ current: 70, growth: undefined });
    expect(kpis.comparison).toBeUndefined();
    expect(kpiGrowthLine(kpis.amount, kpis.comparison)).toEqual({
      text: 'No complete day to compare yet.',
      trend: 'none',
    });
    expect(comparisonNote(undefined)).toBeUndefined();
  });
});

describe('the rate', () => {
  it('is the amount as a share of GMV, 0 without GMV', () => {
    expect(amountRate({ amount: 35, gmv: 350 })).toBe(0.1);
    expect(amountRate({ amount: 5, gmv: 0 })).toBe(0);
  });
});

describe('amountDays', () => {
  it("labels today 'so far' when the range holds it", () => {
    const rows = amountDays(WEEK.daily, '2026-03-15');
    expect(rows.map((row) => [row.label, row.partial])).toEqual([
      ['2026-03-09', false],
      ['2026-03-10', false],
      ['2026-03-11', false],
      ['2026-03-12', false],
      ['2026-03-13', false],
      ['2026-03-14', false],
      ['2026-03-15 (so far)', true],
    ]);
    expect(rows[0]).toEqual({ date: '2026-03-09', amount: 20, count: 1, label: '2026-03-09', partial: false });
  });

  it('labels no day of a range before today, nor any when today is not known', () => {
    expect(amountDays(WEEK.daily, '2026-03-20').some((row) => row.partial)).toBe(false);
    expect(amountDays(WEEK.daily, undefined).map((row) => row.label)).toEqual(WEEK.daily.map((row) => row.date));
  });

  it('is empty only when no day has an amount or a count', () => {
    expect(noAmounts(WEEK.daily)).toBe(false);
    expect(noAmounts(WEEK.daily.map((day) => ({ ...day, amount: 0, count: 0 })))).toBe(true);
    // A voucher count without an amount (a zero-value voucher) is still something to show.
    expect(noAmounts([{ amount: 0, count: 1 }])).toBe(false);
    expect(noAmounts([])).toBe(true);
  });
});

describe('amountOutletRows', () => {
  it("keeps the server's order and adds each outlet's rate", () => {
    expect(amountOutletRows(WEEK.outlets)).toEqual([
      { outletId: 12, outlet: 'Boutique Duo', mall: 'Central Mall', amount: 50, count: 1, rate: 0.25, gmv: 200 },
      { outletId: 11, outlet: 'Cafe Uno', mall: 'Central Mall', amount: 20, count: 1, rate: 20 / 150, gmv: 150 },
    ]);
  });
});

describe('labels', () => {
  it('names each kind', () => {
    expect(MALL_AMOUNT_LABELS.refund).toMatchObject({
      what: 'Refunds',
      amount: 'Refund Amount',
      count: 'Refund Transactions',
      rate: 'Refund Rate',
      base: 'refunds',
    });
    expect(MALL_AMOUNT_LABELS.voucher).toMatchObject({
      what: 'Voucher redemption',
      amount: 'Voucher Amount',
      count: 'Voucher Transactions',
      rate: 'Voucher Share of GMV',
      base: 'voucher_redemption',
    });
  });
});

describe('CSV', () => {
  const kpis = mallAmountKpis(WEEK, {
    report: WEEK,
    current: { start: '2026-03-09', end: '2026-03-15' },
    todayLeftOut: false,
  });

  it('writes the KPIs with the periods compared', () => {
    expect(amountKpiCsvRows('refund', kpis)).toEqual([
      {
        measure: 'Refund Amount',
        current: 70,
        compared_period: '2026-03-09 to 2026-03-15',
        compared: 70,
        previous_period: '2026-03-02 to 2026-03-08',
        previous: 5,
      },
      {
        measure: 'Refund Transactions',
        current: 2,
        compared_period: '2026-03-09 to 2026-03-15',
        compared: 2,
        previous_period: '2026-03-02 to 2026-03-08',
        previous: 1,
      },
      {
        measure: 'Refund Rate (%)',
        current: 20,
        compared_period: '2026-03-09 to 2026-03-15',
        compared: 20,
        previous_period: '2026-03-02 to 2026-03-08',
        previous: 12.5,
      },
    ]);
    expect(amountKpiCsvRows('refund', undefined)).toEqual([]);
    expect(amountKpiCsvRows('voucher', mallAmountKpis(WEEK))[0]).toEqual({
      measure: 'Voucher Amount',
      current: 70,
      compared_period: '',
      compared: '',
      previous_period: '',
      previous: '',
    });
  });

  it('titles the headers from the keys and writes the rows shown', () => {
    const files = mallAmountCsvFiles('refund', {
      kpis,
      days: amountDays(WEEK.daily, '2026-03-15'),
      outlets: amountOutletRows(WEEK.outlets),
    });
    const texts = csvFileTexts('2026-03-09_2026-03-15', files);
    expect(texts.map((file) => file.fileName)).toEqual([
      'kpis_2026-03-09_2026-03-15.csv',
      'daily_2026-03-09_2026-03-15.csv',
      'outlets_2026-03-09_2026-03-15.csv',
    ]);
    expect(texts[1]?.text.split('\r\n').slice(0, 3)).toEqual([
      '\uFEFFDate,Refund Amount,Refund Transactions',
      '2026-03-09,20,1',
      '2026-03-10,0,0',
    ]);
    expect(texts[2]?.text.split('\r\n')).toEqual([
      '\uFEFFOutlet,Mall,Refund Amount,Refund Transactions,Refund Rate Percent,GMV',
      'Boutique Duo,Central Mall,50,1,25,200',
      'Cafe Uno,Central Mall,20,1,13.3,150',
      '',
    ]);
    expect(texts[0]?.text.split('\r\n')[0]).toBe(
      '\uFEFFMeasure,Current,Compared Period,Compared,Previous Period,Previous',
    );
  });

  it("names the voucher files' columns as the page does, and gives headers only without figures", () => {
    const texts = csvFileTexts('x', mallAmountCsvFiles('voucher', {}));
    expect(texts.map((file) => file.text)).toEqual([
      '\uFEFFMeasure,Current,Compared Period,Compared,Previous Period,Previous\r\n',
      '\uFEFFDate,Voucher Amount,Voucher Transactions\r\n',
      '\uFEFFOutlet,Mall,Voucher Amount,Voucher Transactions,Voucher Share Percent,GMV\r\n',
    ]);
  });
});
