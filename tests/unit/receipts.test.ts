import { describe, expect, it } from 'vitest';
import { titleCaseHeader, toCsv } from '../../src/domain/csv';
import {
  breakdownLabel,
  cleanRawReceipt,
  displayReceiptId,
  formatBytes,
  isBareTimestamp,
  keepReceiptType,
  netAmount,
  paymentMethodQuery,
  RECEIPTS_ERROR_WHAT,
  RECEIPTS_PDF_CAP,
  RECEIPTS_PDF_CAP_TEXT,
  type ReceiptCsvRow,
  type ReceiptsListChoices,
  receiptIdCell,
  receiptStatusTags,
  receiptsCsv,
  receiptsPdfCountLine,
  receiptsPdfFileName,
  receiptsPdfOverCapNotice,
  receiptsPdfProgress,
  receiptsPdfQueryOf,
  receiptsTotalsRule,
  receiptTypeOptionsFor,
  timeWithDineOut,
  togglePaymentMethod,
  transactionQueryOf,
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

describe('the rule of the totals', () => {
  it('says void receipts are left out, and with payment methods chosen that sums count only those', () => {
    expect(receiptsTotalsRule([])).toBe('Totals leave out void receipts.');
    expect(receiptsTotalsRule(['all', 'CASH', 'VISA'])).toBe('Totals leave out void receipts.');
    expect(receiptsTotalsRule(['VISA'])).toBe(
      'Totals leave out void receipts. Sums count only what was paid with the chosen payment methods.',
    );
  });
});

describe('net amount (§9)', () => {
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
    expect(displayReceiptId('20250601123045')).toBe('no receipt id');
    expect(displayReceiptId('2025-06-01T12:30:45')).toBe('no receipt id');
  });
  it.each([
    ['1772409600', true, 'Unix seconds'],
    [' 1772409600 ', true, 'Unix seconds, padded'],
    ['1772409600123', true, 'Unix milliseconds'],
    ['0000012345', false, 'ten digits before 2000: a receipt number'],
    ['9999999999', false, 'ten digits after 2100'],
    ['20250601123045', true, 'YYYYMMDDHHmmss'],
    ['20251301123045', false, 'month 13'],
    ['20250230123045', false, '30 February'],
    ['20250601246045', false, 'hour 24'],
    ['20250601', false, 'a date alone'],
    ['2025-06-01T12:30:45', true, 'ISO'],
    ['2025-06-01 12:30', true, 'ISO without seconds'],
    ['2025-06-01T12:30:45.123Z', true, 'ISO with fraction and Z'],
    ['2025-06-01T12:30:45+08:00', true, 'ISO with an offset'],
    ['2025-06-31T12:30:45', false, '31 June'],
    ['2025-06-01', false, 'an ISO date alone'],
    ['INV-2025-06-01T12:30:45', false, 'a prefix'],
    ['C-1001', false, 'a receipt number'],
    ['12345', false, 'a short number'],
  ])('isBareTimestamp(%j) is %s (%s)', (id, expected) => {
    expect(isBareTimestamp(id)).toBe(expected);
  });
  it('links a receipt id only when the receipt has an image', () => {
    expect(receiptIdCell('1772409600', false)).toEqual({ text: 'no receipt id', linked: false });
    expect(receiptIdCell('1772409600', true)).toEqual({ text: 'no receipt id', linked: true });
    expect(receiptIdCell('C-1001', true)).toEqual({ text: 'C-1001', linked: true });
    expect(receiptIdCell('C-1001', false)).toEqual({ text: 'C-1001', linked: false });
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
      '\uFEFFReceipt ID,Name Reason\r\nA,"say ""hi"", ok"\r\n',
    );
  });
});

describe('the list query (§4, §7)', () => {
  const choices: ReceiptsListChoices = {
    filters: { clientId: 1, outletIds: '3,4', outletType: 2, startTime: '2026-03-01', endTime: '2026-03-07' },
    receiptType: '',
    focReason: '',
    selectedPaymentMethods: [],
    receiptId: '',
    sortColumn: 'datetime',
    order: 'desc',
    page: 2,
    rowsPerPage: 10,
  };

  it('is undefined without filters', () => {
    expect(transactionQueryOf({ ...choices, filters: undefined })).toBeUndefined();
  });

  it('gives the filters, sort and page, and leaves out the choices that are not made', () => {
    expect(transactionQueryOf(choices)).toEqual({
      client_id: 1,
      id: '3,4',
      startTime: '2026-03-01',
      endTime: '2026-03-07',
      timeType: 'date',
      outletType: 2,
      sortColumn: 'datetime',
      orderByMethod: 'desc',
      page: 2,
      rowsPerPage: 10,
    });
  });

  it('adds the receipt type, FOC reason, payment methods and trimmed receipt id, and takes overrides', () => {
    expect(
      transactionQueryOf(
        {
          ...choices,
          receiptType: 'focReceipts',
          focReason: 'Staff',
          selectedPaymentMethods: ['VISA'],
          receiptId: ' R-1 ',
        },
        { page: 1, rowsPerPage: 100 },
      ),
    ).toMatchObject({
      receiptType: 'focReceipts',
      focReason: 'Staff',
      paymentMethod: ['VISA'],
      receiptId: 'R-1',
      page: 1,
      rowsPerPage: 100,
    });
    expect(transactionQueryOf({ ...choices, selectedPaymentMethods: ['all', 'VISA'] })).not.toHaveProperty(
      'paymentMethod',
    );
  });

  it('names what failed in each toast', () => {
    expect(RECEIPTS_ERROR_WHAT.list).toBe('Receipts fetching');
    expect(RECEIPTS_ERROR_WHAT.csv).toBe('CSV export');
  });
});

describe('the receipts CSV (§7, §9)', () => {
  const row: ReceiptCsvRow = {
    ...FLAGS,
    closed_bill: true,
    discount: 2,
    datetime: '2026-03-01 10:00:00',
    receipt_id: '1772409600',
    receipt_status: 'Closed',
    payment_method: 'VISA',
    total_amount: 1,
    name_reason: 'Staff, VIP',
    table: 'T1',
    take_away: false,
    delivery_info: null,
  };

  it('has title-cased headers and every column for outlet type 1', () => {
    expect(receiptsCsv([row], 1).split('\r\n')).toEqual([
      '\uFEFFDatetime,Receipt ID,Receipt Status,Payment Method,Total Amount,Discount,Name Reason,Table,Take Away,Delivery Info,Status',
      '2026-03-01 10:00:00,no receipt id,Closed,VISA,1,2,"Staff, VIP",T1,false,,Closed Discount',
      '',
    ]);
  });

  it('has the first five columns only for outlet type 2', () => {
    expect(receiptsCsv([row], 2).split('\r\n')).toEqual([
      '\uFEFFDatetime,Receipt ID,Receipt Status,Payment Method,Total Amount',
      '2026-03-01 10:00:00,no receipt id,Closed,VISA,1',
      '',
    ]);
  });
});

describe('the receipts PDF', () => {
  it('holds up to 10,000 receipts, and the page says so', () => {
    expect(RECEIPTS_PDF_CAP).toBe(10_000);
    expect(RECEIPTS_PDF_CAP_TEXT).toBe('The PDF holds every receipt the filters select, up to 10,000.');
    expect(receiptsPdfOverCapNotice(10_000)).toBeUndefined();
    expect(receiptsPdfOverCapNotice(12_345)).toBe('Only the first 10,000 of 12,345 receipts go into the PDF.');
    expect(receiptsPdfOverCapNotice(8, 7)).toBe('Only the first 7 of 8 receipts go into the PDF.');
  });

  it("heads the PDF with its count, 'First 10,000 of 12,345 receipts' when the cap cut it", () => {
    expect(receiptsPdfCountLine(10_000, 12_345)).toBe('First 10,000 of 12,345 receipts');
    expect(receiptsPdfCountLine(2_345, 2_345)).toBe('2,345 receipts');
    expect(receiptsPdfCountLine(1, 1)).toBe('1 receipt');
  });

  it('asks for the filters and the sort without paging, and names the file receipts_<start>_<end>.pdf', () => {
    const query = {
      client_id: 1,
      id: '1',
      startTime: '2026-03-01',
      endTime: '2026-03-07',
      sortColumn: 'total_amount' as const,
      orderByMethod: 'asc' as const,
      page: 3,
      rowsPerPage: 50,
    };
    expect(receiptsPdfQueryOf(query)).toEqual({
      client_id: 1,
      id: '1',
      startTime: '2026-03-01',
      endTime: '2026-03-07',
      sortColumn: 'total_amount',
      orderByMethod: 'asc',
    });
    expect(receiptsPdfFileName(query)).toBe('receipts_2026-03-01_2026-03-07.pdf');
    expect(receiptsPdfFileName({ startTime: '2026-03-01 10:00:00', endTime: '2026-03-01 12:00:00' })).toBe(
      'receipts_2026-03-01_2026-03-01.pdf',
    );
  });

  it('shows the progress: animated with the bytes received while the size is unknown, else the share', () => {
    expect(formatBytes(820)).toBe('820 B');
    expect(formatBytes(340_000)).toBe('340 KB');
    expect(formatBytes(1_234_567)).toBe('1.2 MB');
    expect(receiptsPdfProgress({ received: 0, size: undefined, count: undefined })).toEqual({
      value: undefined,
      text: 'Generating the PDF…',
    });
    expect(receiptsPdfProgress({ received: 1_200_000, size: undefined, count: 2_345 })).toEqual({
      value: undefined,
      text: 'Generating the PDF of 2,345 receipts… 1.2 MB received',
    });
    expect(receiptsPdfProgress({ received: 1_000_000, size: 4_000_000, count: 1 })).toEqual({
      value: 0.25,
      text: 'Generating the PDF of 1 receipt… 1.0 MB of 4.0 MB (25%)',
    });
  });
});
