import { describe, expect, it } from 'vitest';
import { normalisePaymentMethod, OTHERS_METHOD } from '../../src/domain/paymentMethods';

describe('normalisePaymentMethod (§9)', () => {
  it('trims and upper-cases, so differently written methods are one', () => {
    expect(normalisePaymentMethod(' visa ')).toBe('VISA');
    expect(normalisePaymentMethod('VISA')).toBe('VISA');
    expect(normalisePaymentMethod('Tng eWallet')).toBe('TNG EWALLET');
  });
  it('turns empty and NONE into OTHERS', () => {
    expect(normalisePaymentMethod('')).toBe(OTHERS_METHOD);
    expect(normalisePaymentMethod('   ')).toBe(OTHERS_METHOD);
    expect(normalisePaymentMethod('NONE')).toBe(OTHERS_METHOD);
    expect(normalisePaymentMethod(' none')).toBe(OTHERS_METHOD);
    expect(normalisePaymentMethod('others')).toBe(OTHERS_METHOD);
  });
  it('is idempotent', () => {
    for (const method of [' visa ', '', 'NONE', 'Cash', 'OTHERS']) {
      expect(normalisePaymentMethod(normalisePaymentMethod(method))).toBe(normalisePaymentMethod(method));
    }
  });
});
