import { describe, expect, it } from 'vitest';
import { csvFileTexts, toCsv } from '../../src/domain/csv';
import { conversionNote, missingRatesMessage, reportCurrencyRule } from '../../src/domain/reportCurrency';

describe('the currency of a mall report', () => {
  it('is the malls’ own when they share one, converted to nothing', () => {
    expect(reportCurrencyRule(['MYR', 'MYR'], 'SGD')).toEqual({ currency: 'MYR', converted: [] });
    expect(conversionNote(reportCurrencyRule(['MYR'], 'SGD'))).toBeUndefined();
  });

  it('is the reporting currency when the malls use several, and says which are converted', () => {
    const rule = reportCurrencyRule(['SGD', 'MYR', 'USD'], 'SGD');
    expect(rule).toEqual({ currency: 'SGD', converted: ['MYR', 'USD'] });
    expect(conversionNote(rule)).toBe(
      'Figures in SGD; MYR, USD converted per outlet and day at each month’s rate and rounded only for display, so the breakdowns add up to the totals.',
    );
    expect(reportCurrencyRule(['MYR', 'IDR'], 'SGD')).toEqual({ currency: 'SGD', converted: ['IDR', 'MYR'] });
  });

  it('names the months without a rate, three at most', () => {
    expect(missingRatesMessage('SGD', [{ currency: 'MYR', month: '2026-11' }])).toBe(
      'No exchange rate to SGD for MYR in November 2026. Amounts in different currencies are not added without ' +
        'one: select malls that use one currency, or a period that has rates.',
    );
    const many = ['2026-01', '2026-02', '2026-03', '2026-04', '2026-05'].map((month) => ({ currency: 'MYR', month }));
    expect(missingRatesMessage('SGD', many)).toContain('MYR in March 2026 and 2 more.');
  });

  it('writes the currency of a file’s amounts in a last column of every row', () => {
    const [file] = csvFileTexts('2026-03-01_2026-03-07', [
      { name: 'daily', keys: ['date', 'gmv'], rows: [{ date: '2026-03-01', gmv: 181 }], currency: 'SGD' },
    ]);
    expect(file?.text).toBe(toCsv(['date', 'gmv', 'currency'], [{ date: '2026-03-01', gmv: 181, currency: 'SGD' }]));
    expect(file?.text.split('\r\n')[1]).toBe('2026-03-01,181,SGD');
  });
});
