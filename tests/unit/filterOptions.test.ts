import { describe, expect, it } from 'vitest';
import {
  ALL_OUTLETS_LABEL,
  canSelectOutlet,
  DATE_RANGE_OPTION_LABELS,
  DESELECT_ALL_TEXT,
  MALL_REQUIRED_MESSAGE,
  MONTH_PLACEHOLDER,
  metricOptions,
  OPTIONS_FETCH_ERROR_MESSAGE,
  OUTLET_PLACEHOLDER,
  outletIdsOf,
  outletOptions,
  outletSelectionValue,
  parseIdList,
  parseOutletSelection,
  parsePositiveInt,
  resolveMallSelection,
  resolveOutletSelection,
  SELECT_ALL_TEXT,
  SET_DATE_FROM_TEXT,
  SET_DATE_TO_TEXT,
  TIME_RANGE_OPTIONS,
  toggleId,
} from '../../src/domain/filterOptions';

const OUTLETS = [
  { id: 12, name: 'Kopi Corner' },
  { id: 7, name: 'Noodle Bar' },
];

describe('texts', () => {
  it('are the exact texts of the spec', () => {
    expect(OUTLET_PLACEHOLDER).toBe('Choose an Outlet');
    expect(ALL_OUTLETS_LABEL).toBe('All Outlets');
    expect(MALL_REQUIRED_MESSAGE).toBe('Please select a mall');
    expect(OPTIONS_FETCH_ERROR_MESSAGE).toBe('Options fetching error occurs. Please try again later.');
    expect(MONTH_PLACEHOLDER).toBe('Please select a month');
    expect(SELECT_ALL_TEXT).toBe('Select All');
    expect(DESELECT_ALL_TEXT).toBe('Deselect All');
    expect(SET_DATE_FROM_TEXT).toBe('Set Date From');
    expect(SET_DATE_TO_TEXT).toBe('Set Date To');
    expect(DATE_RANGE_OPTION_LABELS).toEqual({
      last7: 'Last 7 days',
      last30: 'Last 30 days',
      thisMonth: 'This month',
      lastMonth: 'Last month',
      quarterToDate: 'Quarter to date',
      yearToDate: 'Year to date',
      custom: 'Custom range',
    });
  });
  it('list the time ranges and metrics', () => {
    expect(TIME_RANGE_OPTIONS.map((option) => option.label)).toEqual(['Hourly', 'Daily', 'Weekly', 'Monthly']);
    expect(metricOptions(false)).toEqual([
      { value: 'gmv', label: 'GMV' },
      { value: 'transactions', label: 'Transactions' },
    ]);
    expect(metricOptions(true).at(-1)).toEqual({
      value: 'average_transaction_value',
      label: 'Average Transaction Value',
    });
  });
});

describe('outletOptions', () => {
  it('puts All Outlets with every id first, then name (id)', () => {
    expect(outletOptions(OUTLETS, 'all')).toEqual([
      { value: 'all', label: 'All Outlets', ids: '12,7', disabled: false },
      { value: '12', label: 'Kopi Corner (12)', ids: '12', disabled: false },
      { value: '7', label: 'Noodle Bar (7)', ids: '7', disabled: false },
    ]);
  });
  it('disables All Outlets on single-outlet pages', () => {
    expect(outletOptions(OUTLETS, 'single')[0]?.disabled).toBe(true);
  });
  it('is empty without outlets', () => {
    expect(outletOptions([], 'all')).toEqual([]);
  });
});

describe('outlet selection', () => {
  it('parses all or an id', () => {
    expect(parseOutletSelection('all')).toBe('all');
    expect(parseOutletSelection('12')).toBe(12);
    expect(parseOutletSelection('12,7')).toBeUndefined();
    expect(parseOutletSelection(undefined)).toBeUndefined();
    expect(outletSelectionValue('all')).toBe('all');
    expect(outletSelectionValue(7)).toBe('7');
  });
  it('keeps a selection that exists and the mode allows', () => {
    expect(resolveOutletSelection(7, OUTLETS, 'all')).toBe(7);
    expect(resolveOutletSelection('all', OUTLETS, 'all')).toBe('all');
    expect(resolveOutletSelection(7, OUTLETS, 'single')).toBe(7);
    expect(resolveOutletSelection('all', OUTLETS, 'disabled')).toBe('all');
  });
  it('selects the first outlet instead of All Outlets on single-outlet pages', () => {
    expect(resolveOutletSelection('all', OUTLETS, 'single')).toBe(12);
    expect(resolveOutletSelection(undefined, OUTLETS, 'single')).toBe(12);
    expect(resolveOutletSelection(99, OUTLETS, 'single')).toBe(12);
  });
  it('falls back to All Outlets elsewhere, and to nothing without outlets', () => {
    expect(resolveOutletSelection(99, OUTLETS, 'all')).toBe('all');
    expect(resolveOutletSelection(undefined, OUTLETS, 'all')).toBe('all');
    expect(resolveOutletSelection(7, [], 'all')).toBeUndefined();
  });
  it('says what the user may pick', () => {
    expect(canSelectOutlet('all', OUTLETS, 'all')).toBe(true);
    expect(canSelectOutlet('all', OUTLETS, 'single')).toBe(false);
    expect(canSelectOutlet(7, OUTLETS, 'single')).toBe(true);
    expect(canSelectOutlet(99, OUTLETS, 'all')).toBe(false);
    expect(canSelectOutlet(7, OUTLETS, 'disabled')).toBe(false);
    expect(canSelectOutlet('all', [], 'all')).toBe(false);
  });
  it('gives the ids the pages query with', () => {
    expect(outletIdsOf('all', OUTLETS)).toBe('12,7');
    expect(outletIdsOf(7, OUTLETS)).toBe('7');
    expect(outletIdsOf(undefined, OUTLETS)).toBe('');
  });
});

describe('mall selection', () => {
  it('toggles an id', () => {
    expect(toggleId([1, 2], 2)).toEqual([1]);
    expect(toggleId([1], 3)).toEqual([1, 3]);
  });
  it('keeps the known malls, or selects all', () => {
    const malls = [{ id: 1 }, { id: 2 }, { id: 3 }];
    expect(resolveMallSelection([2, 9], malls)).toEqual([2]);
    expect(resolveMallSelection([9], malls)).toEqual([1, 2, 3]);
    expect(resolveMallSelection([], malls)).toEqual([1, 2, 3]);
    expect(resolveMallSelection([], [])).toEqual([]);
  });
});

describe('ids', () => {
  it('are positive integers', () => {
    expect(parsePositiveInt('42')).toBe(42);
    expect(parsePositiveInt('0')).toBeUndefined();
    expect(parsePositiveInt('-1')).toBeUndefined();
    expect(parsePositiveInt('1e3')).toBeUndefined();
    expect(parsePositiveInt('99999999999999999999')).toBeUndefined();
  });
  it('form comma-joined lists without duplicates', () => {
    expect(parseIdList('1,2, 3,2')).toEqual([1, 2, 3]);
    expect(parseIdList('1,x')).toBeUndefined();
    expect(parseIdList('')).toBeUndefined();
  });
});
