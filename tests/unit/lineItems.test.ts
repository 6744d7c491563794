import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { centsOf, decodeLineItems, encodeLineItems, type LineItem } from '../../server/receipts/lineItems.js';

describe('centsOf', () => {
  it('rounds the decimal text half away from zero, as numeric(14,2) does', () => {
    expect(centsOf(1.005)).toBe(101);
    expect(centsOf(2.675)).toBe(268);
    expect(centsOf(-2.675)).toBe(-268);
    expect(centsOf(0.125)).toBe(13);
    expect(centsOf(-0.125)).toBe(-13);
    expect(centsOf(0.124)).toBe(12);
    expect(centsOf(-0.004)).toBe(0);
    expect(Object.is(centsOf(-0.004), 0)).toBe(true);
    expect(centsOf(1e-7)).toBe(0);
    expect(centsOf(5e-3)).toBe(1);
    expect(centsOf(9999999999.99)).toBe(999999999999);
    expect(centsOf(-9999999999.995)).toBe(-1000000000000);
    expect(centsOf(39.6)).toBe(3960);
  });

  it('refuses what is not a finite number', () => {
    expect(() => centsOf(Number.NaN)).toThrow(/finite/);
    expect(() => centsOf(Number.POSITIVE_INFINITY)).toThrow(/finite/);
  });
});

describe('line item bytes', () => {
  const item = fc.record({
    skuId: fc.integer({ min: 1, max: 2147483647 }),
    quantity: fc.integer({ min: -100000, max: 100000 }),
    unitPrice: fc.integer({ min: -999999999999, max: 999999999999 }).map((cents) => cents / 100),
    amount: fc.integer({ min: -999999999999, max: 999999999999 }).map((cents) => cents / 100),
  });

  it('reads back what it wrote, in order', () => {
    fc.assert(
      fc.property(fc.array(item, { maxLength: 20 }), (items: LineItem[]) => {
        expect(decodeLineItems(encodeLineItems(items))).toEqual(items);
      }),
    );
  });

  it('writes a typical item in a few bytes and no item in none', () => {
    expect(encodeLineItems([]).length).toBe(0);
    expect(encodeLineItems([{ skuId: 4021, quantity: 1, unitPrice: 26.9, amount: 26.9 }]).length).toBe(7);
  });

  it('refuses bytes that end inside a number', () => {
    expect(() => decodeLineItems(Uint8Array.of(0x81))).toThrow(/end inside/);
  });
});
