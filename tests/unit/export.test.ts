import { describe, expect, it } from 'vitest';
import { CSV_BOM, csvFileTexts, titleCaseHeader } from '../../src/domain/csv';
import {
  BY_CURRENCY_CSV_KEYS,
  byCurrencyFile,
  byCurrencyNote,
  EXPORT_CSV_KEYS,
  EXPORT_REPORT_IDS,
  exportDownloadName,
  exportFailureMessage,
  exportFile,
  exportProgress,
  exportReportLabel,
  exportSuffix,
  isExportReport,
  memberRows,
  orderedReports,
  peakHourRows,
  toggleReport,
} from '../../src/domain/export';

const SUFFIX = '2026-10-01_2026-10-31';

/** The CSV lines of one file (CRLF split, the trailing empty line dropped). */
function linesOf(file: Parameters<typeof csvFileTexts>[1][number]): { fileName: string; lines: string[] } {
  const [written] = csvFileTexts(SUFFIX, [file]);
  if (!written) throw new Error('no file');
  if (!written.text.startsWith(CSV_BOM)) throw new Error('the file does not start with the BOM');
  return { fileName: written.fileName, lines: written.text.slice(CSV_BOM.length).split('\r\n').slice(0, -1) };
}

describe('CSV headers of the export (§9: title-cased from underscores)', () => {
  it('keeps the abbreviations in capitals', () => {
    expect(titleCaseHeader('gmv')).toBe('GMV');
    expect(titleCaseHeader('atv')).toBe('ATV');
    expect(titleCaseHeader('mall_id')).toBe('Mall ID');
    expect(titleCaseHeader('member_gmv')).toBe('Member GMV');
    expect(titleCaseHeader('non_member_transactions')).toBe('Non Member Transactions');
    expect(titleCaseHeader('average_transaction_value')).toBe('Average Transaction Value');
    expect(titleCaseHeader('GMV_by_outlet')).toBe('GMV By Outlet');
  });

  it('writes every report’s headers', () => {
    const headers = Object.fromEntries(
      EXPORT_REPORT_IDS.map((report) => [report, EXPORT_CSV_KEYS[report].map(titleCaseHeader).join(',')]),
    );
    expect(headers).toEqual({
      daily: 'Date,GMV,Transactions',
      monthly: 'Month,GMV,Transactions',
      mall_ranking: 'Rank,Mall ID,Mall Name,GMV,Transactions,Average Transaction Value',
      peak_hours: 'Date,Hour,GMV,Transactions',
      payment_methods: 'Payment Method,Sum',
      member_vs_non_member: 'Date,Member GMV,Non Member GMV,Member Transactions,Non Member Transactions',
      categories: 'Category,GMV,Transactions,Average Transaction Value',
      levels: 'Level,GMV,Transactions,Average Transaction Value',
      outlets: 'Outlet ID,Outlet Name,GMV,Transactions,Average Transaction Value',
    });
  });
});

describe('the files of the reports', () => {
  it('names a file after its report and the date range, with the currency last', () => {
    const file = exportFile(
      'daily',
      [
        { date: '2026-10-01', gmv: 1250.5, transactions: 12 },
        { date: '2026-10-02', gmv: 0, transactions: 0 },
      ],
      'SGD',
    );
    expect(linesOf(file)).toEqual({
      fileName: 'daily_2026-10-01_2026-10-31.csv',
      lines: ['Date,GMV,Transactions,Currency', '2026-10-01,1250.5,12,SGD', '2026-10-02,0,0,SGD'],
    });
  });

  it('ranks the malls as the server orders them and names outlets by id and name', () => {
    expect(
      linesOf(
        exportFile('mall_ranking', [
          { mall_id: 2, mall_name: 'East', gmv: 300, transactions: 3, average_transaction_value: 100 },
          { mall_id: 1, mall_name: 'Central, North', gmv: 100, transactions: 4, average_transaction_value: 25 },
        ]),
      ).lines,
    ).toEqual([
      'Rank,Mall ID,Mall Name,GMV,Transactions,Average Transaction Value',
      '1,2,East,300,3,100',
      '2,1,"Central, North",100,4,25',
    ]);
    expect(
      linesOf(
        exportFile('outlets', [
          { key: '12', name: 'Kopi Corner', gmv: 80, transactions: 8, average_transaction_value: 10 },
        ]),
      ).lines,
    ).toEqual(['Outlet ID,Outlet Name,GMV,Transactions,Average Transaction Value', '12,Kopi Corner,80,8,10']);
  });

  it('sorts the months', () => {
    expect(
      linesOf(
        exportFile('monthly', [
          { month: '2026-10', gmv: 5, transactions: 1 },
          { month: '2026-09', gmv: 4, transactions: 2 },
        ]),
      ).lines,
    ).toEqual(['Month,GMV,Transactions', '2026-09,4,2', '2026-10,5,1']);
  });

  it('puts GMV and transactions of a day and hour on one row, a cell missing from one answer as 0', () => {
    expect(
      peakHourRows({
        gmv: [
          { period: '2026-10-02', hour: 9, value: 50 },
          { period: '2026-10-01', hour: 13, value: 120.25 },
          { period: '2026-10-01', hour: 9, value: 30 },
        ],
        transactions: [
          { period: '2026-10-01', hour: 9, value: 3 },
          { period: '2026-10-01', hour: 13, value: 7 },
          { period: '2026-10-03', hour: 10, value: 1 },
        ],
      }),
    ).toEqual([
      { date: '2026-10-01', hour: 9, gmv: 30, transactions: 3 },
      { date: '2026-10-01', hour: 13, gmv: 120.25, transactions: 7 },
      { date: '2026-10-02', hour: 9, gmv: 50, transactions: 0 },
      { date: '2026-10-03', hour: 10, gmv: 0, transactions: 1 },
    ]);
  });

  it('puts members’ and non-members’ GMV and transactions of a day on one row', () => {
    const rows = memberRows({
      gmv: {
        data: [
          { period: '2026-10-02', member: 20, non_member: 30 },
          { period: '2026-10-01', member: 10, non_member: 15.5 },
        ],
        total: { member: 30, non_member: 45.5 },
      },
      transactions: {
        data: [
          { period: '2026-10-01', member: 1, non_member: 2 },
          { period: '2026-10-02', member: 3, non_member: 4 },
        ],
        total: { member: 4, non_member: 6 },
      },
    });
    expect(rows).toEqual([
      { date: '2026-10-01', member_gmv: 10, non_member_gmv: 15.5, member_transactions: 1, non_member_transactions: 2 },
      { date: '2026-10-02', member_gmv: 20, non_member_gmv: 30, member_transactions: 3, non_member_transactions: 4 },
    ]);
  });

  it('gives a refused report’s figures per currency, each row in its own currency, never a total', () => {
    const file = byCurrencyFile('daily', [
      { currency: 'MYR', gmv: 48210.5, transactions: 812 },
      { currency: 'SGD', gmv: 10250, transactions: 240 },
    ]);
    expect(file.keys).toEqual(BY_CURRENCY_CSV_KEYS);
    expect(linesOf(file)).toEqual({
      fileName: 'daily_by_currency_2026-10-01_2026-10-31.csv',
      lines: ['Currency,GMV,Transactions', 'MYR,48210.5,812', 'SGD,10250,240'],
    });
  });
});

describe('the selection', () => {
  it('keeps the list’s order whatever the order of the ticks', () => {
    expect(toggleReport(['outlets'], 'daily')).toEqual(['daily', 'outlets']);
    expect(toggleReport(['daily', 'outlets'], 'daily')).toEqual(['outlets']);
    expect(orderedReports(['levels', 'daily', 'levels'])).toEqual(['daily', 'levels']);
  });

  it('knows its reports by id and label', () => {
    expect(isExportReport('peak_hours')).toBe(true);
    expect(isExportReport('receipts')).toBe(false);
    expect(exportReportLabel('member_vs_non_member')).toBe('Member vs non-member');
  });
});

describe('the download and what the page says', () => {
  it('names the download: one report’s CSV, else the zip', () => {
    expect(exportSuffix({ start: '2026-10-01', end: '2026-10-31' })).toBe(SUFFIX);
    expect(exportDownloadName([{ name: 'daily' }], SUFFIX)).toBe('daily_2026-10-01_2026-10-31.csv');
    expect(exportDownloadName([{ name: 'daily' }, { name: 'levels' }], SUFFIX)).toBe(
      'mall-report_2026-10-01_2026-10-31.zip',
    );
  });

  it('counts the reports done', () => {
    expect(exportProgress(0, 3)).toEqual({ value: 0, text: '0 of 3 reports' });
    expect(exportProgress(2, 4)).toEqual({ value: 0.5, text: '2 of 4 reports' });
    expect(exportProgress(1, 1)).toEqual({ value: 1, text: '1 of 1 report' });
    expect(exportProgress(0, 0).value).toBe(0);
  });

  it('names the report that failed, and says nothing was downloaded', () => {
    expect(exportFailureMessage('peak_hours', 'boom')).toBe(
      'The Peak hours report could not be loaded (boom). Nothing was downloaded.',
    );
    expect(exportFailureMessage('daily', undefined)).toBe(
      'The Daily report could not be loaded. Nothing was downloaded.',
    );
    expect(exportFailureMessage(undefined, 'no space')).toBe(
      'The export file could not be made (no space). Nothing was downloaded.',
    );
    expect(byCurrencyNote('daily', 'No exchange rate to SGD for MYR in March 2024.')).toBe(
      'Daily: figures per currency in daily_by_currency, not added together. No exchange rate to SGD for MYR in ' +
        'March 2024.',
    );
  });
});
