import { describe, expect, it } from 'vitest';
import {
  apportion,
  apportionNested,
  averageMoney,
  exactCents,
  exactSum,
  money,
  roundCents,
  wholeCents,
} from '../../server/repositories/cents';

const cents = (text: string) => exactCents(text);

describe('exact cents', () => {
  it('reads PostgreSQL numeric text exactly', () => {
    expect(exactCents('12.5')).toBe(exactCents('12.50000000000'));
    expect(exactCents('-0.0000000001') < 0n).toBe(true);
    expect(exactCents(null)).toBe(0n);
    expect(exactCents('7')).toBe(wholeCents(7n));
    expect(() => exactCents('1e5')).toThrow('not a decimal number');
    expect(() => exactCents(`0.${'0'.repeat(20)}1`)).toThrow('decimal places');
  });

  it('rounds halves away from zero, as round(numeric)', () => {
    expect(roundCents(cents('2.5'))).toBe(3n);
    expect(roundCents(cents('2.4999999999'))).toBe(2n);
    expect(roundCents(cents('-2.5'))).toBe(-3n);
    expect(roundCents(cents('-2.4'))).toBe(-2n);
    expect(roundCents(cents('0'))).toBe(0n);
  });
});

describe('apportion (largest remainder)', () => {
  it('gives rows whose cents add up to the rounded total, where rounding each would not', () => {
    // 3 × 0.4 cents: each rounds to 0, the total 1.2 to 1
    const parts = ['0.4', '0.4', '0.4'].map(cents);
    expect(apportion(parts)).toEqual([1n, 0n, 0n]);
    // the shape: rows rounding each to .68 + .70 against a total of .68
    const rows = ['100.6', '200.6', '300.6', '400.6', '500.6'].map(cents);
    const apportioned = apportion(rows);
    expect(apportioned.reduce((sum, value) => sum + value, 0n)).toBe(roundCents(exactSum(rows)));
    expect(apportioned).toEqual([101n, 201n, 301n, 400n, 500n]);
  });

  it('leaves whole cents as they are (reports in one currency)', () => {
    const parts = [12345n, 0n, -500n, 1n].map(wholeCents);
    expect(apportion(parts)).toEqual([12345n, 0n, -500n, 1n]);
  });

  it('keeps a row of nothing at nothing and a larger row never below a smaller one', () => {
    expect(apportion(['0.9', '0', '0.2', '0.9'].map(cents))).toEqual([1n, 0n, 0n, 1n]);
    expect(apportion(['0.5', '0.5', '0.5'].map(cents))).toEqual([1n, 1n, 0n]);
  });

  it('handles negative amounts (refunds) and a given total', () => {
    const parts = ['-1.3', '2.6', '-0.2'].map(cents);
    const result = apportion(parts);
    expect(result.reduce((sum, value) => sum + value, 0n)).toBe(1n);
    expect(result).toEqual([-1n, 2n, 0n]);
    expect(apportion(['0.5', '0.5'].map(cents), 0n)).toEqual([0n, 0n]);
    expect(apportion([], 0n)).toEqual([]);
  });

  it('holds for random rows: sum, a cent of each exact amount, order (seeded)', () => {
    let seed = 42;
    const next = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed;
    };
    for (let round = 0; round < 500; round++) {
      const parts = Array.from({ length: 1 + (next() % 12) }, () => {
        const sign = next() % 5 === 0 ? '-' : '';
        return cents(`${sign}${next() % 100000}.${String(next() % 10000000000).padStart(10, '0')}`);
      });
      const result = apportion(parts);
      expect(result.reduce((sum, value) => sum + value, 0n)).toBe(roundCents(exactSum(parts)));
      parts.forEach((part, index) => {
        const gap = wholeCents(result[index] ?? 0n) - part;
        expect(gap < wholeCents(1n) && gap > -wholeCents(1n)).toBe(true);
      });
    }
  });
});

describe('apportionNested (days, then their hours)', () => {
  it('gives each group the cents apportion gives the groups alone, and its parts add up to them', () => {
    const groups = [[cents('10.4'), cents('20.4')], [cents('0.3'), cents('0.3')], [cents('5.5')]];
    const result = apportionNested(groups);
    const days = apportion([cents('30.8'), cents('0.6'), cents('5.5')]);
    expect(result.map((parts) => parts.reduce((sum, value) => sum + value, 0n))).toEqual(days);
    expect(result).toEqual([[11n, 20n], [1n, 0n], [5n]]);
    expect(result.flat().reduce((sum, value) => sum + value, 0n)).toBe(roundCents(cents('36.9')));
  });
});

describe('money of cents', () => {
  it('is the number of the answer, and averages round half away from zero', () => {
    expect(money(123456n)).toBe(1234.56);
    expect(money(-5n)).toBe(-0.05);
    expect(averageMoney(1000n, 3)).toBe(3.33);
    expect(averageMoney(1001n, 2)).toBe(5.01);
    expect(averageMoney(-1001n, 2)).toBe(-5.01);
    expect(averageMoney(500n, 0)).toBe(0);
  });
});
