import { describe, expect, it } from 'vitest';
import {
  addDays,
  averageChart,
  daysInRange,
  eachDay,
  formatGrowthRate,
  groupPaymentMethods,
  growthRate,
  monthsInRange,
  nextTableSort,
  percentOf,
  previousPeriod,
  round2,
  sortMonths,
  sortTableRows,
  weekdayCounts,
  wholeWeeksComparisonPeriod,
} from '../../src/domain/reports.js';

describe('groupPaymentMethods', () => {
  it('upper-cases methods, sums empty and NONE into OTHERS and sorts by sum descending', () => {
    expect(
      groupPaymentMethods([
        { payment_method: 'visa', sum: 30.5 },
        { payment_method: 'VISA', sum: 160 },
        { payment_method: '', sum: 20 },
        { payment_method: 'NONE', sum: 20 },
        { payment_method: 'none', sum: 0.1 },
        { payment_method: 'Master', sum: 200 },
      ]),
    ).toEqual([
      { payment_method: 'MASTER', sum: 200 },
      { payment_method: 'VISA', sum: 190.5 },
      { payment_method: 'OTHERS', sum: 40.1 },
    ]);
  });
  it('appends OTHERS only when non-zero', () => {
    expect(
      groupPaymentMethods([
        { payment_method: 'cash', sum: 5 },
        { payment_method: '', sum: 0 },
      ]),
    ).toEqual([{ payment_method: 'CASH', sum: 5 }]);
    expect(groupPaymentMethods([])).toEqual([]);
  });
  it('sorts OTHERS by its sum like any row', () => {
    expect(
      groupPaymentMethods([
        { payment_method: 'cash', sum: 5 },
        { payment_method: 'NONE', sum: 9 },
      ]).map((row) => row.payment_method),
    ).toEqual(['OTHERS', 'CASH']);
  });
});

describe('growthRate', () => {
  it('is (current − previous) / previous × 100 to 2 decimals', () => {
    expect(growthRate(170.5, 80)).toBe(113.13);
    expect(growthRate(50, 200)).toBe(-75);
    expect(growthRate(1, 3)).toBe(-66.67);
  });
  it('is 0 when the previous figure is zero', () => {
    expect(growthRate(100, 0)).toBe(0);
    expect(growthRate(0, 0)).toBe(0);
    expect(formatGrowthRate(growthRate(100, 0))).toBe('0.00%');
  });
  it('formats with 2 decimals', () => {
    expect(formatGrowthRate(113.125)).toBe('113.13%');
    expect(formatGrowthRate(-4)).toBe('-4.00%');
    expect(formatGrowthRate(-0.001)).toBe('0.00%');
  });
});

describe('round2 and averageChart', () => {
  it('rounds half away from zero without binary surprises', () => {
    expect(round2(1.005)).toBe(1.01);
    expect(round2(40.125)).toBe(40.13);
    expect(round2(-2.345)).toBe(-2.35);
    expect(round2(Number.NaN)).toBe(0);
  });
  it('divides each value by its matching count, 0 where the count is 0', () => {
    expect(averageChart([100, 10, 7], [3, 0, 2])).toEqual([33.33, 0, 3.5]);
  });
});

describe('periods', () => {
  it('counts and lists days', () => {
    expect(daysInRange('2026-03-02', '2026-03-08')).toBe(7);
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
    expect(eachDay('2024-02-28', '2024-03-01')).toEqual(['2024-02-28', '2024-02-29', '2024-03-01']);
  });
  it('takes the previous period of equal length just before', () => {
    expect(previousPeriod('2026-03-02', '2026-03-08')).toEqual({ start: '2026-02-23', end: '2026-03-01' });
    expect(previousPeriod('2026-03-01', '2026-03-31')).toEqual({ start: '2026-01-29', end: '2026-02-28' });
  });
  it('moves the outlet comparison back by whole weeks', () => {
    expect(wholeWeeksComparisonPeriod('2026-03-02', '2026-03-08')).toEqual({ start: '2026-02-23', end: '2026-03-01' });
    expect(wholeWeeksComparisonPeriod('2026-03-02', '2026-03-11')).toEqual({ start: '2026-02-16', end: '2026-02-25' });
    expect(wholeWeeksComparisonPeriod('2026-03-04', '2026-03-04')).toEqual({ start: '2026-02-25', end: '2026-02-25' });
    expect(wholeWeeksComparisonPeriod('2026-03-01', '2026-03-31')).toEqual({ start: '2026-01-25', end: '2026-02-24' });
  });
  it('counts the weekdays of a range (Monday first)', () => {
    expect(weekdayCounts('2026-03-02', '2026-03-10')).toEqual([2, 2, 1, 1, 1, 1, 1]);
  });
});

describe('months', () => {
  it('sorts month names Jan to Dec and YYYY-MM by year and month', () => {
    expect(sortMonths(['Mar', 'Dec', 'Jan', 'February'], (m) => m)).toEqual(['Jan', 'February', 'Mar', 'Dec']);
    expect(sortMonths([{ month: '2026-01' }, { month: '2025-12' }], (row) => row.month)).toEqual([
      { month: '2025-12' },
      { month: '2026-01' },
    ]);
  });
  it('lists the months a range touches', () => {
    expect(monthsInRange('2025-11-15', '2026-02-01')).toEqual(['2025-11', '2025-12', '2026-01', '2026-02']);
  });
});

describe('table sort', () => {
  const rows = [
    { name: 'Outlet 10', gmv: 5 },
    { name: 'outlet 9', gmv: 20 },
    { name: 'Outlet 2', gmv: 5 },
    { name: 'None', gmv: null },
  ];
  const value = (row: (typeof rows)[number], column: string) => (column === 'gmv' ? row.gmv : row.name);

  it('sorts numbers by value and text by locale with numbers read as numbers, missing values last', () => {
    expect(sortTableRows(rows, { column: 'gmv', order: 'desc' }, value).map((row) => row.name)).toEqual([
      'outlet 9',
      'Outlet 10',
      'Outlet 2',
      'None',
    ]);
    expect(sortTableRows(rows, { column: 'gmv', order: 'asc' }, value).map((row) => row.gmv)).toEqual([5, 5, 20, null]);
    expect(sortTableRows(rows, { column: 'name', order: 'asc' }, value).map((row) => row.name)).toEqual([
      'None',
      'Outlet 2',
      'outlet 9',
      'Outlet 10',
    ]);
    expect(sortTableRows(rows, undefined, value)).toEqual(rows);
  });

  it('sorts a new column descending for numbers and ascending for text, then toggles', () => {
    expect(nextTableSort(undefined, 'gmv', true)).toEqual({ column: 'gmv', order: 'desc' });
    expect(nextTableSort(undefined, 'name', false)).toEqual({ column: 'name', order: 'asc' });
    expect(nextTableSort({ column: 'gmv', order: 'desc' }, 'gmv', true)).toEqual({ column: 'gmv', order: 'asc' });
    expect(nextTableSort({ column: 'gmv', order: 'asc' }, 'name', false)).toEqual({ column: 'name', order: 'asc' });
  });
});

describe('percentOf', () => {
  it('writes a ratio as the page shows it: a percentage to 1 decimal', () => {
    expect(percentOf(0.40451158111236124)).toBe(40.5);
    expect(percentOf(0.75)).toBe(75);
    expect(percentOf(Number.NaN)).toBe(0);
  });
});
