import { describe, expect, it } from 'vitest';
import { maxRangeDays } from '../../src/domain/dateLimits';
import {
  FILTER_QUERY_KEYS,
  type FilterQuery,
  type FilterQueryRules,
  parseFilterQuery,
  toFilterQuery,
  withFilterQuery,
} from '../../src/domain/filterUrl';

const TODAY = '2024-03-15';
const RULES: FilterQueryRules = {
  window: { earliest: '2023-01-01', latest: TODAY },
  maxDays: (timeRange, metric) => maxRangeDays(timeRange ?? 'daily', metric ?? 'gmv'),
};

const FULL: FilterQuery = {
  clientId: 3,
  mallIds: [1, 2],
  outlet: 'all',
  dateRange: { start: '2024-03-09', end: TODAY },
  hours: { from: 9, to: 17 },
  timeRange: 'weekly',
  metric: 'transactions',
  month: '2024-02',
};

describe('writing', () => {
  it('puts every filter in a fixed order', () => {
    expect(toFilterQuery(FULL)).toBe(
      'client=3&malls=1%2C2&outlet=all&from=2024-03-09&to=2024-03-15&hours=9-17&time_range=weekly&metric=transactions&month=2024-02',
    );
  });
  it('leaves out what is not given', () => {
    expect(toFilterQuery({})).toBe('');
    expect(toFilterQuery({ clientId: 3, mallIds: [], outlet: 12 })).toBe('client=3&outlet=12');
  });
  it('replaces only its own keys of a query', () => {
    expect(withFilterQuery('?tab=fees&from=2020-01-01&page=2', { clientId: 3 })).toBe('tab=fees&page=2&client=3');
    expect(withFilterQuery('', {})).toBe('');
    expect(Object.values(FILTER_QUERY_KEYS)).toEqual([
      'client',
      'malls',
      'outlet',
      'from',
      'to',
      'hours',
      'time_range',
      'metric',
      'month',
    ]);
  });
});

describe('reading', () => {
  it('round-trips every filter', () => {
    expect(parseFilterQuery(toFilterQuery(FULL), RULES)).toEqual({ ok: true, value: FULL });
    expect(parseFilterQuery(`?${withFilterQuery('x=1', FULL)}`, RULES)).toEqual({ ok: true, value: FULL });
  });
  it('reads an empty query as no filters', () => {
    expect(parseFilterQuery('', RULES)).toEqual({ ok: true, value: {} });
    expect(parseFilterQuery('?tab=fees', RULES)).toEqual({ ok: true, value: {} });
  });
  it('reads readable commas and a single outlet', () => {
    expect(parseFilterQuery('malls=4,5&outlet=12', RULES)).toEqual({
      ok: true,
      value: { mallIds: [4, 5], outlet: 12 },
    });
  });

  function rejected(search: string) {
    const result = parseFilterQuery(search, RULES);
    if (result.ok) throw new Error(`expected ${search} to be rejected`);
    return result;
  }

  it('rejects bad ids and keeps the good fields', () => {
    const result = rejected('client=abc&malls=1,x&outlet=1,2&metric=gmv');
    expect(result.value).toEqual({ metric: 'gmv' });
    expect(result.reasons).toEqual([
      { key: 'client', problem: 'invalidId', value: 'abc' },
      { key: 'malls', problem: 'invalidId', value: '1,x' },
      { key: 'outlet', problem: 'invalidId', value: '1,2' },
    ]);
  });
  it('rejects unknown time ranges and metrics', () => {
    expect(rejected('time_range=yearly&metric=profit').reasons).toEqual([
      { key: 'time_range', problem: 'unknownValue', value: 'yearly' },
      { key: 'metric', problem: 'unknownValue', value: 'profit' },
    ]);
  });
  it('rejects bad or missing dates', () => {
    expect(rejected('from=2024-02-30&to=2024-03-01').reasons).toEqual([
      { key: 'from', problem: 'invalidDate', value: '2024-02-30' },
    ]);
    expect(rejected('from=2024-03-01').reasons).toEqual([{ key: 'to', problem: 'invalidDate', value: '' }]);
    expect(rejected('to=2024-03-01').reasons).toEqual([{ key: 'from', problem: 'invalidDate', value: '' }]);
  });
  it('rejects a future date with the picker message', () => {
    const result = rejected('from=2024-03-10&to=2024-03-16&client=3');
    expect(result.value).toEqual({ clientId: 3 });
    expect(result.reasons).toEqual([
      {
        key: 'to',
        problem: 'futureDate',
        value: '2024-03-10..2024-03-16',
        message: 'You have selected a future date. Please try again with another date.',
      },
    ]);
  });
  it('rejects a start after the end', () => {
    expect(rejected('from=2024-03-12&to=2024-03-10').reasons).toEqual([
      {
        key: 'from',
        problem: 'startAfterEnd',
        value: '2024-03-12..2024-03-10',
        message: 'Date must be before End Date.',
      },
    ]);
  });
  it('rejects a start before the earliest date', () => {
    expect(rejected('from=2022-12-31&to=2023-01-02').reasons[0]?.problem).toBe('beforeEarliest');
  });
  it('rejects a range longer than the maximum of the time range and metric it gives', () => {
    expect(rejected('from=2024-01-01&to=2024-03-15').reasons).toEqual([
      {
        key: 'from',
        problem: 'rangeExceeded',
        value: '2024-01-01..2024-03-15',
        message: 'You have selected a date range more than 31 days. Please try again.',
      },
    ]);
    // Weekly allows 93 days.
    expect(parseFilterQuery('from=2024-01-01&to=2024-03-15&time_range=weekly', RULES).ok).toBe(true);
    // Hourly with the average transaction value allows one day.
    expect(
      rejected('from=2024-03-14&to=2024-03-15&time_range=hourly&metric=average_transaction_value').reasons[0]?.message,
    ).toBe('You have selected a date range more than 1 day. Please try again.');
  });
  it('rejects hours out of 0–23, in the wrong order or malformed', () => {
    expect(rejected('hours=0-24').reasons).toEqual([{ key: 'hours', problem: 'hoursOutOfRange', value: '0-24' }]);
    expect(rejected('hours=18-9').reasons).toEqual([{ key: 'hours', problem: 'hoursOrder', value: '18-9' }]);
    expect(rejected('hours=nine').reasons).toEqual([{ key: 'hours', problem: 'invalidHours', value: 'nine' }]);
    expect(parseFilterQuery('hours=5-5', RULES)).toEqual({ ok: true, value: { hours: { from: 5, to: 5 } } });
  });
  it('rejects months that are malformed or outside the window', () => {
    expect(rejected('month=2024-13').reasons).toEqual([{ key: 'month', problem: 'invalidMonth', value: '2024-13' }]);
    expect(rejected('month=2024-04').reasons[0]?.problem).toBe('invalidMonth');
    expect(rejected('month=2022-12').reasons[0]?.problem).toBe('invalidMonth');
  });
});
