import { describe, expect, it } from 'vitest';
import { crossSpendingOutletsCsv } from '../../src/domain/crossSpending';
import { CSV_BOM, csvCell, csvFileName, csvFileTexts, csvNumeral, toCsv, zipFileName } from '../../src/domain/csv';
import { exportFile } from '../../src/domain/export';
import { gtoReviewCsv } from '../../src/domain/gto';
import { salesReviewCsv } from '../../src/domain/nonTradingDays';
import { type ReceiptCsvRow, receiptsCsv } from '../../src/domain/receipts';
import { growthOf, kpiCsv, mealTimingsCsv, topSkusCsv } from '../../src/domain/salesAnalysis';
import { salesTrendsCsv } from '../../src/domain/salesTrends';
import { tenantReceiptsCsv } from '../../src/machines/tenantReceiptDataMachine';

/** The lines of a CSV file's text after its BOM (which it must start with), the trailing empty line dropped. */
function linesOf(text: string | undefined): string[] {
  if (text === undefined) throw new Error('no file');
  expect(text.startsWith(CSV_BOM)).toBe(true);
  return text.slice(CSV_BOM.length).split('\r\n').slice(0, -1);
}

/** Text a device or a user may send, each of which a spreadsheet would run as a formula as it is. */
const HYPERLINK = '=HYPERLINK("http://x.invalid","r1")';
const FORMULAS = [HYPERLINK, '=1+1', '@SUM(A1)', '+1', '-1+2', '\t=1+1', '\r=1+1'] as const;

describe('report CSV files (§7, §9)', () => {
  it('names each file after its name and the date range, with title-cased headers', () => {
    expect(
      csvFileTexts('2024-03-01_2024-03-07', [
        { name: 'daily', keys: ['date', 'gmv'], rows: [{ date: '2024-03-01', gmv: 10.5, other: 'left out' }] },
        { name: 'payment methods', keys: ['payment_method', 'sum'], rows: [] },
      ]),
    ).toEqual([
      { fileName: 'daily_2024-03-01_2024-03-07.csv', text: '\uFEFFDate,GMV\r\n2024-03-01,10.5\r\n' },
      { fileName: 'payment_methods_2024-03-01_2024-03-07.csv', text: '\uFEFFPayment Method,Sum\r\n' },
    ]);
  });

  it('names files and zips safely', () => {
    expect(csvFileName('mall home', '2024-03-01_2024-03-07')).toBe('mall_home_2024-03-01_2024-03-07.csv');
    expect(zipFileName('mall/home', '2024-03-01_2024-03-07')).toBe('mall_home_2024-03-01_2024-03-07.zip');
  });
});

describe('CSV injection (OWASP) and the BOM (issue 29)', () => {
  it('writes text that starts with =, +, -, @, a tab or a carriage return as text: a quote first, in a quoted cell', () => {
    expect(FORMULAS.map(csvCell)).toEqual([
      `"'=HYPERLINK(""http://x.invalid"",""r1"")"`,
      `"'=1+1"`,
      `"'@SUM(A1)"`,
      `"'+1"`,
      `"'-1+2"`,
      `"'\t=1+1"`,
      `"'\r=1+1"`,
    ]);
  });

  it('leaves other text as it was, quoting only what RFC 4180 asks', () => {
    expect(csvCell('VISA')).toBe('VISA');
    expect(csvCell('Kopi 咖啡 é')).toBe('Kopi 咖啡 é');
    expect(csvCell("it's =1")).toBe("it's =1");
    expect(csvCell('say "hi", ok')).toBe('"say ""hi"", ok"');
    expect(csvCell(' padded')).toBe('" padded"');
    expect(csvCell('')).toBe('');
    expect(csvCell(null)).toBe('');
    expect(csvCell(undefined)).toBe('');
  });

  it('keeps numbers numbers: a negative amount from a number, and the numerals the product formats', () => {
    expect(csvCell(-12.5)).toBe('-12.5');
    expect(csvCell(0)).toBe('0');
    expect(csvCell(true)).toBe('true');
    expect(csvCell(csvNumeral((-12.5).toFixed(2)))).toBe('-12.50');
    expect(csvCell(csvNumeral('+3.20%'))).toBe('+3.20%');
    expect(csvCell(csvNumeral('-1.50%'))).toBe('-1.50%');
    expect(csvCell(csvNumeral('150.0'))).toBe('150.0');
    // Text that is not a numeral stays text, also when marked as one.
    expect(csvCell(csvNumeral('n/a'))).toBe('n/a');
    expect(csvCell(csvNumeral('-1+2'))).toBe(`"'-1+2"`);
    expect(csvCell(csvNumeral(HYPERLINK))).toBe(`"'=HYPERLINK(""http://x.invalid"",""r1"")"`);
    // The same characters as text (from a device) are text.
    expect(csvCell('-12.50')).toBe(`"'-12.50"`);
  });

  it('starts every file with a UTF-8 BOM, so Excel reads non-Latin names', () => {
    const text = toCsv(['outlet'], [{ outlet: '咖啡 Kopi' }]);
    expect(text).toBe('\uFEFFOutlet\r\n咖啡 Kopi\r\n');
    expect([...new TextEncoder().encode(text).slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  });

  it('writes headers made from data (a payment method a column) as text too', () => {
    expect(linesOf(toCsv(['period', '=1+1'], [{ period: '2024-03-01', '=1+1': 5 }]))).toEqual([
      `Period,"'=1+1"`,
      '2024-03-01,5',
    ]);
  });
});

/* ---------------------------------------------------------------- each export goes through it */

describe('every export writes through the one CSV function (issue 29)', () => {
  const receipt = (overrides: Partial<ReceiptCsvRow>): ReceiptCsvRow => ({
    datetime: '2026-03-01 10:00:00',
    receipt_id: 'R1',
    receipt_status: 'Closed',
    payment_method: 'VISA',
    total_amount: 10,
    discount: 0,
    name_reason: null,
    table: null,
    take_away: null,
    delivery_info: null,
    opened_bill: false,
    void: false,
    closed_bill: true,
    foc_bill: false,
    redeem_bill: false,
    ...overrides,
  });

  it('the receipts export (Receipts page): formulas a device sent are text, a negative amount a number', () => {
    const rows = [
      receipt({ receipt_id: HYPERLINK, payment_method: '=1+1', total_amount: -12.5, name_reason: '@SUM(A1)' }),
      receipt({ receipt_id: '+1', payment_method: '-1+2', table: '\tT1', delivery_info: '\rGrab', discount: 2 }),
    ];
    expect(linesOf(receiptsCsv(rows, 1))).toEqual([
      'Datetime,Receipt ID,Receipt Status,Payment Method,Total Amount,Discount,Name Reason,Table,Take Away,Delivery Info,Status',
      `2026-03-01 10:00:00,"'=HYPERLINK(""http://x.invalid"",""r1"")",Closed,"'=1+1",-12.5,0,"'@SUM(A1)",,,,Closed`,
      `2026-03-01 10:00:00,"'+1",Closed,"'-1+2",10,2,,"'\tT1",,"'\rGrab",Closed Discount`,
    ]);
    expect(linesOf(receiptsCsv(rows, 2))[1]).toBe(
      `2026-03-01 10:00:00,"'=HYPERLINK(""http://x.invalid"",""r1"")",Closed,"'=1+1",-12.5`,
    );
  });

  it('the tenant receipt data export', () => {
    const file = tenantReceiptsCsv(
      { clientId: 1, outletId: 7, startTime: '2026-03-01', endTime: '2026-03-07' },
      {
        page: 1,
        rows: [
          {
            id: 1,
            has_image: false,
            receipt_id: '@SUM(A1)',
            payment_method: ['=1+1'],
            receipt_status: HYPERLINK,
            total_amount: -3,
            datetime: '2026-03-01 10:00:00',
          },
        ],
      },
      'SGD',
    );
    expect(linesOf(file.text)).toEqual([
      'Receipt ID,Datetime,Total Amount,Receipt Status,Currency',
      `"'@SUM(A1)",2026-03-01 10:00:00,-3,"'=HYPERLINK(""http://x.invalid"",""r1"")",SGD`,
    ]);
  });

  it("the report exports (every page's Export CSV, the Export page, GTO, top SKUs): names from data are text", () => {
    const files = csvFileTexts('x', [
      exportFile('payment_methods', [{ payment_method: '=1+1', sum: -5 }], 'SGD'),
      exportFile('mall_ranking', [
        { mall_id: 1, mall_name: '@SUM(A1)', gmv: 1, transactions: 1, average_transaction_value: 1 },
      ]),
      mealTimingsCsv({
        revenueTotal: 100,
        rows: [
          {
            meal_timing_id: 1,
            name: HYPERLINK,
            start_time: '11:00',
            end_time: '14:00',
            revenue: 50,
            transactions: 2,
            time: '11:00–14:00',
            share: 0.5,
          },
        ],
      }),
      topSkusCsv(
        [{ rank: 1, sku_id: 3, barcode: '-1+2', item_name: '+1', quantity: 1, unit_price: 2, amount: -2 }],
        'SGD',
      ),
      crossSpendingOutletsCsv(12, [
        {
          outlet_id: 13,
          outlet_name: '\t=1+1',
          category: 'F&B',
          shared_shoppers: 1,
          share_percent: 10,
          spend: 1,
          visits: 1,
        },
      ]),
      salesReviewCsv(
        [{ date: '2026-03-01', gmv: 0, transactions: 0, non_trading: { reason: '=1+1', declared_by: 'tenant' } }],
        '2026-03-05',
      ),
    ]);
    expect(files.map((file) => linesOf(file.text)[1])).toEqual([
      `"'=1+1",-5,SGD`,
      `1,1,"'@SUM(A1)",1,1,1`,
      `"'=HYPERLINK(""http://x.invalid"",""r1"")",11:00,14:00,50,2,50`,
      `1,3,"'-1+2","'+1",1,2,-2,SGD`,
      `13,"'\t=1+1",F&B,1,10,1,1`,
      // A reason the tenant typed is in the note's words, so it never starts a cell.
      '2026-03-01,0,0,Not trading: =1+1 (declared by the tenant)',
    ]);
  });

  it("keeps the product's signed figures numbers: GTO variance, growth rates", () => {
    const [gto, trends, kpis] = csvFileTexts('x', [
      gtoReviewCsv([
        {
          outlet_id: 7,
          outlet_name: '=1+1',
          mall_name: 'Harbour',
          month: '2026-10',
          currency: 'SGD',
          status: 'submitted',
          gto_amount: 900,
          captured_sales: 1000,
          variance_amount: -100,
          variance_percent: -10,
          flagged: true,
          submitted_at: null,
          due_on: '2026-11-07',
          late: false,
          last_reminded_on: null,
        },
      ]),
      salesTrendsCsv({
        year: 2026,
        months: [
          {
            month: 1,
            label: 'Jan',
            thisYear: { gmv: 90, transactions: 9 },
            lastYear: { gmv: 100, transactions: 10 },
            growth: { gmv: -10, transactions: -10 },
            partial: false,
          },
        ],
      }),
      kpiCsv(
        [
          {
            measure: 'revenue',
            current: 90,
            growth: { current: 90, compared: 100, change: growthOf(90, 100) },
          },
        ],
        { start: '2026-03-01', end: '2026-03-07' },
        undefined,
        'previous',
      ),
    ]);
    expect(linesOf(gto?.text)[1]).toMatch(/^"'=1\+1",Harbour,2026-10,900\.00,1000\.00,-100\.00,-10\.00,/);
    expect(linesOf(trends?.text)[1]).toBe('Jan,90,100,-10.00,9,10,-10.00,,,,,,,,');
    expect(linesOf(kpis?.text)[1]).toMatch(/^Revenue,90,100,-10\.00%,/);
  });
});
