import { describe, expect, it } from 'vitest';
import { titleCaseHeader, toCsv } from '../../src/domain/csv';
import {
  breakdownLabel,
  cleanRawReceipt,
  displayReceiptId,
  groupPaymentMethods,
  keepReceiptType,
  netAmount,
  paymentMethodQuery,
  receiptStatusTags,
  receiptTypeOptionsFor,
  timeWithDineOut,
  togglePaymentMethod,
} from '../../src/domain/receipts';

const FLAGS = { opened_bill: false, void: false, closed_bill: false, foc_bill: false, redeem_bill: false, discount: 0 };

describe('receipt status tags (§4)', () => {
  it('shows Opened dark alone, plain when also void or closed', () => {
    expect(receiptStatusTags({ ...FLAGS, opened_bill: true })).toEqual([{ label: 'Opened', minimal: false }]);
    expect(receiptStatusTags({ ...FLAGS, opened_bill: true, void: true })).toEqual([
      { label: 'Opened', minimal: true },
      { label: 'Void', minimal: false },
    ]);
    expect(
      receiptStatusTags({ ...FLAGS, opened_bill: true, closed_bill: true }).map((tag) => [tag.label, tag.minimal]),
    ).toEqual([
      ['Opened', true],
      ['Closed', false],
    ]);
  });
  it('lists Void, Closed, Discount, FOC, Redeemed in order', () => {
    const all = { opened_bill: false, void: true, closed_bill: true, foc_bill: true, redeem_bill: true, discount: 1 };
    expect(receiptStatusTags(all).map((tag) => tag.label)).toEqual(['Void', 'Closed', 'Discount', 'FOC', 'Redeemed']);
  });
});

describe('receipt type options (§4)', () => {
  it('shows All and only the reported types', () => {
    expect(receiptTypeOptionsFor(['void', 'redeem']).map((option) => option.label)).toEqual([
      'All',
      'Void',
      'Redeemed',
    ]);
    expect(
      receiptTypeOptionsFor(['opened_bill', 'void', 'foc_bill', 'discount', 'redeem']).map((option) => option.value),
    ).toEqual(['allReceipts', 'openReceipts', 'voidReceipts', 'focReceipts', 'discountReceipts', 'redeemReceipts']);
  });
  it('resets a stale selection to empty', () => {
    expect(keepReceiptType('focReceipts', ['void'])).toBe('');
    expect(keepReceiptType('voidReceipts', ['void'])).toBe('voidReceipts');
    expect(keepReceiptType('allReceipts', [])).toBe('allReceipts');
  });
});

describe('payment method multi-select (§4)', () => {
  const methods = ['CASH', 'VISA', 'OTHERS'];
  it("'all' selects every method; deselecting it clears them", () => {
    expect(togglePaymentMethod([], 'all', methods)).toEqual(['all', 'CASH', 'VISA', 'OTHERS']);
    expect(togglePaymentMethod(['all', 'CASH', 'VISA', 'OTHERS'], 'all', methods)).toEqual([]);
  });
  it("unticking one while all was selected drops 'all'", () => {
    expect(togglePaymentMethod(['all', 'CASH', 'VISA', 'OTHERS'], 'VISA', methods)).toEqual(['CASH', 'OTHERS']);
  });
  it('ticks and unticks single methods', () => {
    expect(togglePaymentMethod(['CASH'], 'VISA', methods)).toEqual(['CASH', 'VISA']);
    expect(togglePaymentMethod(['CASH', 'VISA'], 'CASH', methods)).toEqual(['VISA']);
  });
  it('sends no filter for nothing or all', () => {
    expect(paymentMethodQuery([])).toBeUndefined();
    expect(paymentMethodQuery(['all', 'CASH'])).toBeUndefined();
    expect(paymentMethodQuery(['CASH'])).toEqual(['CASH']);
  });
});

describe('payment method grouping and net amount (§9)', () => {
  it('upper-cases, folds empty and NONE into OTHERS only when non-zero, sorts by sum descending', () => {
    expect(
      groupPaymentMethods([
        { payment_method: 'visa', sum: 10 },
        { payment_method: 'VISA', sum: 5.5 },
        { payment_method: '', sum: 3 },
        { payment_method: 'none', sum: 4 },
        { payment_method: 'Cash', sum: 20 },
      ]),
    ).toEqual([
      { payment_method: 'CASH', sum: 20 },
      { payment_method: 'VISA', sum: 15.5 },
      { payment_method: 'OTHERS', sum: 7 },
    ]);
    expect(
      groupPaymentMethods([
        { payment_method: 'VISA', sum: 1 },
        { payment_method: 'NONE', sum: 0 },
      ]),
    ).toEqual([{ payment_method: 'VISA', sum: 1 }]);
  });
  it('net amount = sum - sum x fee percent, 2 decimals', () => {
    expect(netAmount(85.5, 2.5)).toBe(83.36);
    expect(netAmount(100, 0)).toBe(100);
  });
});

describe('receipt display (§9)', () => {
  it('cleans codes 99 and 100 only', () => {
    expect(cleanRawReceipt('\uFFFDA\tB\uFFFD', 99)).toBe('A  B');
    expect(cleanRawReceipt('\uFFFDA\tB', 100)).toBe('A  B');
    expect(cleanRawReceipt('A\tB\uFFFD', null)).toBe('A\tB\uFFFD');
    expect(cleanRawReceipt('A\tB', 7)).toBe('A\tB');
  });
  it("shows 'no receipt id' for a bare timestamp", () => {
    expect(displayReceiptId('1772409600')).toBe('no receipt id');
    expect(displayReceiptId('1772409600123')).toBe('no receipt id');
    expect(displayReceiptId('INV00000012')).toBe('INV00000012');
    expect(displayReceiptId('12345')).toBe('12345');
  });
  it('appends the dine-out time as a range', () => {
    expect(timeWithDineOut('12:30:00', '13:45:00')).toBe('12:30:00 - 13:45:00');
    expect(timeWithDineOut('12:30:00', null)).toBe('12:30:00');
  });
  it('labels breakdown days DD/MM', () => {
    expect(breakdownLabel('2026/03/09')).toBe('09/03');
  });
});

describe('CSV (§9)', () => {
  it('title-cases headers from underscores and quotes where needed', () => {
    expect(titleCaseHeader('total_amount')).toBe('Total Amount');
    expect(titleCaseHeader('receipt_id')).toBe('Receipt ID');
    expect(titleCaseHeader('gmv')).toBe('GMV');
    expect(titleCaseHeader('member_gmv')).toBe('Member GMV');
    expect(titleCaseHeader('average_transaction_value')).toBe('Average Transaction Value');
    expect(toCsv(['receipt_id', 'name_reason'], [{ receipt_id: 'A', name_reason: 'say "hi", ok' }])).toBe(
      'Receipt ID,Name Reason\r\nA,"say ""hi"", ok"\r\n',
    );
  });
});
