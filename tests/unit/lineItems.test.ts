import { describe, expect, it } from 'vitest';
import { centsOf, encodeLineItems } from '../../server/receipts/lineItems.js';

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
  it('writes each item as four LEB128 numbers: the SKU id, then the zigzagged quantity and cents', () => {
    const bytes = encodeLineItems([
      { skuId: 4021, quantity: 1, unitPrice: 26.9, amount: 26.9 },
      { skuId: 7, quantity: -2, unitPrice: 1.75, amount: -3.5 },
    ]);
    // 4021 = 0b11111_0110101; 1 -> 2; 2690 -> 5380 = 0b101010_0000100; 7; -2 -> 3; 175 -> 350; -350 -> 699
    expect([...bytes]).toEqual([0xb5, 0x1f, 0x02, 0x84, 0x2a, 0x84, 0x2a, 0x07, 0x03, 0xde, 0x02, 0xbb, 0x05]);
  });

  it('writes no bytes for no item, and refuses what is not a whole SKU id or quantity', () => {
    expect(encodeLineItems([]).length).toBe(0);
    expect(() => encodeLineItems([{ skuId: 1.5, quantity: 1, unitPrice: 1, amount: 1 }])).toThrow(/SKU id/);
    expect(() => encodeLineItems([{ skuId: 1, quantity: 0.5, unitPrice: 1, amount: 1 }])).toThrow(/quantity/);
  });
});
