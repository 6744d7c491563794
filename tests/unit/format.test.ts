import { describe, expect, it } from 'vitest';
import {
  ALL_DAY_LABEL,
  currencyFormat,
  currencySymbol,
  formatDateRange,
  formatDateTime,
  formatFileDateRange,
  formatFloat,
  formatHour,
  formatHourRange,
  formatIntPercentage,
  formatLocalDate,
  formatLocalDateTime,
  formatMoney,
  formatMonth,
  formatMonthShort,
  formatNumber,
  formatOutletLabel,
  formatPercentage,
  sharedCurrencyCode,
} from '../../src/domain/format';

describe('formatMoney', () => {
  it('has 2 decimals, grouping and the $ prefix by default', () => {
    expect(formatMoney(1234.5)).toBe('$1,234.50');
    expect(formatMoney(0)).toBe('$0.00');
    expect(formatMoney(1_000_000)).toBe('$1,000,000.00');
    expect(formatMoney(0.005)).toBe('$0.01');
  });
  it('puts the minus before the symbol', () => {
    expect(formatMoney(-1234.5)).toBe('-$1,234.50');
    expect(formatMoney(-0.001)).toBe('$0.00');
  });
  it('takes another currency symbol', () => {
    expect(formatMoney(12, 'S$')).toBe('S$12.00');
    expect(formatMoney(-12, 'RM')).toBe('-RM12.00');
  });
});

describe('currency symbols', () => {
  it("uses the currency's narrow symbol, '$' when unknown", () => {
    expect(currencySymbol('SGD')).toBe('$');
    expect(currencySymbol('MYR')).toBe('RM');
    expect(currencySymbol('IDR')).toBe('Rp');
    expect(currencySymbol('EUR')).toBe('€');
    expect(currencySymbol(undefined)).toBe('$');
    expect(currencySymbol('not a code')).toBe('$');
    expect(formatMoney(-1234.5, currencySymbol('MYR'))).toBe('-RM1,234.50');
  });
  it("uses the shared currency of several malls or outlets, '$' when they differ", () => {
    expect(currencyFormat(sharedCurrencyCode(['IDR', 'IDR']))).toEqual({ symbol: 'Rp', digits: 0, code: 'IDR' });
    expect(sharedCurrencyCode(['SGD', 'MYR', null])).toBeUndefined();
    expect(currencyFormat(sharedCurrencyCode([]))).toEqual({ symbol: '$', digits: 2 });
  });
  it("writes money in the currency's own minor units: rupiah has no decimals", () => {
    expect(formatMoney(549180200.4, currencyFormat('IDR'))).toBe('Rp549,180,200');
    expect(formatMoney(1234.5, currencyFormat('SGD'))).toBe('$1,234.50');
    expect(formatMoney(-0.4, currencyFormat('IDR'))).toBe('Rp0');
    expect(formatMoney(1.2345, currencyFormat('BHD'))).toBe('BHD1.235');
    expect(currencyFormat('not a code')).toEqual({ symbol: '$', digits: 2 });
  });
});

describe('percentages', () => {
  it('multiply by 100 with 1 decimal', () => {
    expect(formatPercentage(0.1234)).toBe('12.3%');
    expect(formatPercentage(1)).toBe('100.0%');
    expect(formatPercentage(-0.05)).toBe('-5.0%');
    expect(formatPercentage(Number.NaN)).toBe('0.0%');
  });
  it('as whole numbers multiply by 100 with 0 decimals', () => {
    expect(formatIntPercentage(0.1266)).toBe('13%');
    expect(formatIntPercentage(0.5)).toBe('50%');
    expect(formatIntPercentage(Number.POSITIVE_INFINITY)).toBe('0%');
  });
});

describe('numbers', () => {
  it('group with the locale separators', () => {
    expect(formatNumber(1234567)).toBe('1,234,567');
    expect(formatNumber(12)).toBe('12');
  });
  it('as floats have 2 decimals', () => {
    expect(formatFloat(Math.PI)).toBe('3.14');
    expect(formatFloat(2)).toBe('2.00');
  });
});

describe('dates', () => {
  it('show a range as D MMM - D MMM', () => {
    expect(formatDateRange('2024-03-01', '2024-03-07')).toBe('1 Mar - 7 Mar');
    expect(formatDateRange('2023-12-25', '2024-01-02')).toBe('25 Dec - 2 Jan');
  });
  it('name the years of a range not within the malls’ current year', () => {
    expect(formatDateRange('2026-11-01', '2026-11-27', '2026-12-02')).toBe('1 Nov - 27 Nov');
    expect(formatDateRange('2025-11-01', '2025-11-27', '2026-12-02')).toBe('1 Nov 2025 - 27 Nov 2025');
    expect(formatDateRange('2025-12-28', '2026-01-03', '2026-01-05')).toBe('28 Dec 2025 - 3 Jan 2026');
  });
  it('write an instant as the spec’s date and time, YYYY-MM-DD HH:mm:ss (24 h), in a time zone', () => {
    expect(formatDateTime('2026-11-28T14:19:27.000Z', 'UTC')).toBe('2026-11-28 14:19:27');
    expect(formatDateTime('2026-11-28T14:19:27.000Z', 'Asia/Singapore')).toBe('2026-11-28 22:19:27');
    expect(formatDateTime('2026-12-31T16:00:05Z', 'Asia/Singapore')).toBe('2027-01-01 00:00:05');
    // The browser's zone by default; an unknown zone is the browser's too; not an instant: as it is.
    expect(formatDateTime('2026-11-28T14:19:27.000Z')).toMatch(/^2026-11-2\d \d\d:19:27$/);
    expect(formatDateTime('2026-11-28T14:19:27.000Z', 'Mars/Olympus')).toBe(formatDateTime('2026-11-28T14:19:27.000Z'));
    expect(formatDateTime('not a date')).toBe('not a date');
  });
  it('write a mall’s local date and time as YYYY-MM-DD HH:mm:ss, never moved to another zone', () => {
    expect(formatLocalDateTime('2026-11-24 12:30:00')).toBe('2026-11-24 12:30:00');
    expect(formatLocalDateTime('2026-11-24T12:30:00')).toBe('2026-11-24 12:30:00');
    expect(formatLocalDateTime('2026-11-24T12:30')).toBe('2026-11-24 12:30:00');
    expect(formatLocalDateTime('2026-03-08 02:30:05.123')).toBe('2026-03-08 02:30:05');
    // A day alone, or not a date and time: as it is.
    expect(formatLocalDateTime('2026-11-24')).toBe('2026-11-24');
    expect(formatLocalDateTime('yesterday')).toBe('yesterday');
    expect(formatLocalDate('2026-11-24 12:30:00')).toBe('2026-11-24');
    expect(formatLocalDate('2026-11-24')).toBe('2026-11-24');
    expect(formatLocalDate('yesterday')).toBe('yesterday');
  });
  it('join the file date range with an underscore', () => {
    expect(formatFileDateRange('2024-03-01', '2024-03-07')).toBe('2024-03-01_2024-03-07');
    expect(formatFileDateRange('2024-03-01', '2024-03-07', 'YYYYMMDD')).toBe('20240301_20240307');
  });
  it('show a month as MMMM YYYY', () => {
    expect(formatMonth('2024-03')).toBe('March 2024');
    expect(formatMonthShort(1)).toBe('Jan');
    expect(formatMonthShort(12)).toBe('Dec');
  });
});

describe('hours', () => {
  it('show as hh:00 A', () => {
    expect(formatHour(0)).toBe('12:00 AM');
    expect(formatHour(9)).toBe('09:00 AM');
    expect(formatHour(12)).toBe('12:00 PM');
    expect(formatHour(23)).toBe('11:00 PM');
  });
  it('show the whole day as 12:00am-12:00am', () => {
    expect(ALL_DAY_LABEL).toBe('12:00am-12:00am');
    expect(formatHourRange({ from: 0, to: 23 })).toBe('12:00am-12:00am');
    expect(formatHourRange({ from: 9, to: 17 })).toBe('09:00 AM - 05:00 PM');
  });
});

describe('formatOutletLabel', () => {
  it('shows the name and the id', () => {
    expect(formatOutletLabel({ id: 12, name: 'Kopi Corner' })).toBe('Kopi Corner (12)');
  });
});
