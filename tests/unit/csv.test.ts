import { describe, expect, it } from 'vitest';
import { csvFileName, csvFileTexts, zipFileName } from '../../src/domain/csv';

describe('report CSV files (§7, §9)', () => {
  it('names each file after its name and the date range, with title-cased headers', () => {
    expect(
      csvFileTexts('2024-03-01_2024-03-07', [
        { name: 'daily', keys: ['date', 'gmv'], rows: [{ date: '2024-03-01', gmv: 10.5, other: 'left out' }] },
        { name: 'payment methods', keys: ['payment_method', 'sum'], rows: [] },
      ]),
    ).toEqual([
      { fileName: 'daily_2024-03-01_2024-03-07.csv', text: 'Date,GMV\r\n2024-03-01,10.5\r\n' },
      { fileName: 'payment_methods_2024-03-01_2024-03-07.csv', text: 'Payment Method,Sum\r\n' },
    ]);
  });

  it('names files and zips safely', () => {
    expect(csvFileName('mall home', '2024-03-01_2024-03-07')).toBe('mall_home_2024-03-01_2024-03-07.csv');
    expect(zipFileName('mall/home', '2024-03-01_2024-03-07')).toBe('mall_home_2024-03-01_2024-03-07.zip');
  });
});
