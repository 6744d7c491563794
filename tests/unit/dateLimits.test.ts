import { describe, expect, it } from 'vitest';
import {
  ALL_DAY,
  addDays,
  BREAKEVEN_MAX_DAYS,
  beforeEarliestMessage,
  clampRange,
  DATE_RANGE_EXCEEDED_TITLE,
  dateRangeExceededMessage,
  dayCount,
  daysInMonthOf,
  defaultDateRange,
  FUTURE_DATE_MESSAGE,
  HOUR_ORDER_MESSAGE,
  HOURS,
  hasDatePickerLimitation,
  INVALID_DATE_MESSAGE,
  isAllDay,
  isDateDisabled,
  isHour,
  isMetric,
  isMonthSelectable,
  isTimeRange,
  isValidDate,
  isValidMonth,
  isValidTime,
  MAX_RANGE_DAYS,
  maxRangeDays,
  maxRangeNote,
  monthOf,
  monthOptions,
  quickRange,
  quickRangeOf,
  rangeDays,
  START_AFTER_END_MESSAGE,
  selectableWindow,
  showsQuickRanges,
  toDateString,
  validateDateRange,
  validateHourRange,
  withDatePart,
  yearOptions,
} from '../../src/domain/dateLimits';

const TODAY = '2024-03-15';
const OPEN_WINDOW = { earliest: undefined, latest: TODAY };

describe('texts', () => {
  it('are the exact texts of the spec', () => {
    expect(DATE_RANGE_EXCEEDED_TITLE).toBe('Date Range Exceeded');
    expect(FUTURE_DATE_MESSAGE).toBe('You have selected a future date. Please try again with another date.');
    expect(START_AFTER_END_MESSAGE).toBe('Date must be before End Date.');
    expect(HOUR_ORDER_MESSAGE).toBe('From must be at or before To.');
    expect(INVALID_DATE_MESSAGE).toBe('Please enter a valid date.');
  });
  it('names the maximum in days, singular for one', () => {
    expect(dayCount(1)).toBe('1 day');
    expect(dayCount(31)).toBe('31 days');
    expect(dateRangeExceededMessage(31)).toBe('You have selected a date range more than 31 days. Please try again.');
    expect(dateRangeExceededMessage(1)).toBe('You have selected a date range more than 1 day. Please try again.');
    expect(dateRangeExceededMessage(366)).toBe('You have selected a date range more than 366 days. Please try again.');
    expect(maxRangeNote(93)).toBe('(Max range of 93 days)');
    expect(maxRangeNote(1)).toBe('(Max range of 1 day)');
  });
  it('names the earliest date of the window', () => {
    expect(beforeEarliestMessage('2024-03-14')).toBe(
      'You have selected a date before 14 Mar 2024. Please try again with another date.',
    );
  });
});

describe('parsing', () => {
  it('accepts calendar dates written YYYY-MM-DD only', () => {
    expect(isValidDate('2024-02-29')).toBe(true);
    expect(isValidDate('2023-02-29')).toBe(false);
    expect(isValidDate('2024-13-01')).toBe(false);
    expect(isValidDate('2024-3-1')).toBe(false);
    expect(isValidDate('15/03/2024')).toBe(false);
    expect(isValidDate('')).toBe(false);
  });
  it('accepts HH:mm:ss times', () => {
    expect(isValidTime('00:00:00')).toBe(true);
    expect(isValidTime('23:59:59')).toBe(true);
    expect(isValidTime('24:00:00')).toBe(false);
    expect(isValidTime('12:60:00')).toBe(false);
    expect(isValidTime('12:00')).toBe(false);
  });
  it('accepts YYYY-MM months', () => {
    expect(isValidMonth('2024-03')).toBe(true);
    expect(isValidMonth('2024-00')).toBe(false);
    expect(isValidMonth('2024-3')).toBe(false);
  });
  it('knows the time ranges and metrics', () => {
    expect(isTimeRange('hourly')).toBe(true);
    expect(isTimeRange('yearly')).toBe(false);
    expect(isMetric('average_transaction_value')).toBe(true);
    expect(isMetric('profit')).toBe(false);
  });
  it('works on local calendar dates', () => {
    expect(toDateString(new Date(2024, 2, 5, 23, 59))).toBe('2024-03-05');
    expect(addDays('2024-03-01', -1)).toBe('2024-02-29');
    expect(monthOf('2024-03-15')).toBe('2024-03');
  });
});

describe('rangeDays', () => {
  it('counts both ends', () => {
    expect(rangeDays({ start: TODAY, end: TODAY })).toBe(1);
    expect(rangeDays({ start: '2024-03-09', end: TODAY })).toBe(7);
    expect(rangeDays({ start: '2024-02-01', end: '2024-03-02' })).toBe(31);
  });
});

describe('maxRangeDays (§9)', () => {
  it('gives 31 days for Daily and Hourly, 93 for Weekly, 366 for Monthly', () => {
    expect(MAX_RANGE_DAYS).toEqual({ hourly: 31, daily: 31, weekly: 93, monthly: 366 });
    expect(maxRangeDays('daily', 'gmv')).toBe(31);
    expect(maxRangeDays('hourly', 'transactions')).toBe(31);
    expect(maxRangeDays('weekly', 'average_transaction_value')).toBe(93);
    expect(maxRangeDays('monthly', 'gmv')).toBe(366);
  });
  it('gives 1 day for Hourly with the average transaction value', () => {
    expect(maxRangeDays('hourly', 'average_transaction_value')).toBe(1);
    expect(maxRangeDays('daily', 'average_transaction_value')).toBe(31);
  });
  it('gives 31 days on breakeven pages whatever the time range', () => {
    expect(maxRangeDays('monthly', 'gmv', { breakeven: true })).toBe(BREAKEVEN_MAX_DAYS);
    expect(maxRangeDays('hourly', 'average_transaction_value', { breakeven: true })).toBe(31);
  });
});

describe('the selectable window (§5)', () => {
  it('runs from the earliest setting to today', () => {
    expect(selectableWindow({ today: TODAY })).toEqual({ earliest: undefined, latest: TODAY });
    expect(selectableWindow({ today: TODAY, earliestSetting: '2023-01-01' })).toEqual({
      earliest: '2023-01-01',
      latest: TODAY,
    });
    expect(selectableWindow({ today: TODAY, earliestSetting: 'not a date' })).toEqual(OPEN_WINDOW);
  });
  it('starts at yesterday with the limitation permission', () => {
    expect(selectableWindow({ today: TODAY, limited: true })).toEqual({ earliest: '2024-03-14', latest: TODAY });
    // The later of the two bounds wins.
    expect(selectableWindow({ today: TODAY, limited: true, earliestSetting: '2023-01-01' }).earliest).toBe(
      '2024-03-14',
    );
  });
  it('limits every user holding the permission except a super admin', () => {
    const limitation = ['datetime-picker-limitation'];
    expect(hasDatePickerLimitation({ roles: ['admin'], permissionsComponents: limitation })).toBe(true);
    expect(hasDatePickerLimitation({ roles: ['super admin'], permissionsComponents: limitation })).toBe(false);
    expect(hasDatePickerLimitation({ roles: ['admin'], permissionsComponents: [] })).toBe(false);
  });
  it('disables days after today and before the earliest date', () => {
    const window = { earliest: '2024-03-01', latest: TODAY };
    expect(isDateDisabled('2024-03-16', window)).toBe(true);
    expect(isDateDisabled(TODAY, window)).toBe(false);
    expect(isDateDisabled('2024-03-01', window)).toBe(false);
    expect(isDateDisabled('2024-02-29', window)).toBe(true);
    expect(isDateDisabled('1999-01-01', OPEN_WINDOW)).toBe(false);
  });
  it('shows the quick ranges only when the earliest date is over 45 days ago', () => {
    expect(showsQuickRanges(OPEN_WINDOW)).toBe(true);
    expect(showsQuickRanges({ earliest: addDays(TODAY, -46), latest: TODAY })).toBe(true);
    expect(showsQuickRanges({ earliest: addDays(TODAY, -45), latest: TODAY })).toBe(false);
    expect(showsQuickRanges(selectableWindow({ today: TODAY, limited: true }))).toBe(false);
  });
});

describe('quick ranges', () => {
  it('are the last 7 and 30 days up to today', () => {
    expect(quickRange('last7', TODAY)).toEqual({ start: '2024-03-09', end: TODAY });
    expect(quickRange('last30', TODAY)).toEqual({ start: '2024-02-15', end: TODAY });
  });
  it('are recognised', () => {
    expect(quickRangeOf({ start: '2024-03-09', end: TODAY }, TODAY)).toBe('last7');
    expect(quickRangeOf({ start: '2024-02-15', end: TODAY }, TODAY)).toBe('last30');
    expect(quickRangeOf({ start: '2024-03-09', end: '2024-03-14' }, TODAY)).toBeUndefined();
  });
  it('default to the last 7 days within the window and the maximum', () => {
    expect(defaultDateRange(OPEN_WINDOW, 31)).toEqual({ start: '2024-03-09', end: TODAY });
    expect(defaultDateRange(OPEN_WINDOW, 1)).toEqual({ start: TODAY, end: TODAY });
    expect(defaultDateRange({ earliest: '2024-03-14', latest: TODAY }, 31)).toEqual({
      start: '2024-03-14',
      end: TODAY,
    });
  });
  it('clamp a range by moving its start', () => {
    expect(clampRange({ start: '2024-01-01', end: TODAY }, 31)).toEqual({ start: '2024-02-14', end: TODAY });
    expect(clampRange({ start: '2024-03-10', end: TODAY }, 31)).toEqual({ start: '2024-03-10', end: TODAY });
    expect(clampRange({ start: '2024-03-10', end: TODAY }, 31, { earliest: '2024-03-12', latest: TODAY })).toEqual({
      start: '2024-03-12',
      end: TODAY,
    });
  });
});

describe('validateDateRange (§5)', () => {
  const rules = { window: { earliest: '2023-01-01', latest: TODAY }, maxDays: 31 };

  it('accepts a range inside the window and the maximum', () => {
    expect(validateDateRange({ start: '2024-02-14', end: TODAY }, rules)).toBeUndefined();
    expect(validateDateRange({ start: TODAY, end: TODAY }, rules)).toBeUndefined();
    expect(
      validateDateRange({ start: '2020-01-01', end: TODAY }, { window: OPEN_WINDOW, maxDays: undefined }),
    ).toBeUndefined();
  });
  it('refuses a malformed date', () => {
    expect(validateDateRange({ start: '2024-02-30', end: TODAY }, rules)).toEqual({
      kind: 'invalid',
      message: 'Please enter a valid date.',
    });
    expect(
      validateDateRange({ start: TODAY, end: TODAY, startTime: '25:00:00', endTime: '23:59:59' }, rules)?.kind,
    ).toBe('invalid');
  });
  it('refuses a future date', () => {
    expect(validateDateRange({ start: '2024-03-10', end: '2024-03-16' }, rules)).toEqual({
      kind: 'future',
      message: 'You have selected a future date. Please try again with another date.',
    });
    expect(validateDateRange({ start: '2024-03-16', end: '2024-03-10' }, rules)?.kind).toBe('future');
  });
  it('refuses a start after the end', () => {
    expect(validateDateRange({ start: '2024-03-12', end: '2024-03-10' }, rules)).toEqual({
      kind: 'startAfterEnd',
      message: 'Date must be before End Date.',
    });
  });
  it('compares the times of a one-day datetime range', () => {
    const range = { start: TODAY, end: TODAY, startTime: '12:00:00', endTime: '11:59:59' };
    expect(validateDateRange(range, rules)?.message).toBe('Date must be before End Date.');
    expect(validateDateRange({ ...range, endTime: '12:00:00' }, rules)).toBeUndefined();
    expect(validateDateRange({ ...range, start: '2024-03-14' }, rules)).toBeUndefined();
  });
  it('refuses a start before the earliest date', () => {
    expect(validateDateRange({ start: '2022-12-31', end: '2023-01-05' }, rules)).toEqual({
      kind: 'beforeEarliest',
      message: 'You have selected a date before 1 Jan 2023. Please try again with another date.',
    });
  });
  it('refuses a range longer than the maximum with the alert title and text', () => {
    expect(validateDateRange({ start: '2024-02-13', end: TODAY }, rules)).toEqual({
      kind: 'exceeded',
      title: 'Date Range Exceeded',
      message: 'You have selected a date range more than 31 days. Please try again.',
      maxDays: 31,
    });
    expect(validateDateRange({ start: '2024-03-14', end: TODAY }, { ...rules, maxDays: 1 })?.message).toBe(
      'You have selected a date range more than 1 day. Please try again.',
    );
  });
});

describe('hours', () => {
  it('run from 0 to 23', () => {
    expect(HOURS).toHaveLength(24);
    expect(HOURS[0]).toBe(0);
    expect(HOURS.at(-1)).toBe(23);
    expect(isHour(0)).toBe(true);
    expect(isHour(23)).toBe(true);
    expect(isHour(24)).toBe(false);
    expect(isHour(-1)).toBe(false);
    expect(isHour(1.5)).toBe(false);
    expect(isAllDay(ALL_DAY)).toBe(true);
    expect(isAllDay({ from: 0, to: 22 })).toBe(false);
  });
  it('need From at or before To', () => {
    expect(validateHourRange({ from: 9, to: 9 })).toBeUndefined();
    expect(validateHourRange({ from: 9, to: 17 })).toBeUndefined();
    expect(validateHourRange({ from: 18, to: 17 })).toBe('fromAfterTo');
    expect(validateHourRange({ from: 0, to: 24 })).toBe('outOfRange');
  });
});

describe('months', () => {
  const window = { earliest: '2023-11-20', latest: TODAY };
  it('are selectable inside the window', () => {
    expect(isMonthSelectable('2024-03', window)).toBe(true);
    expect(isMonthSelectable('2023-11', window)).toBe(true);
    expect(isMonthSelectable('2023-10', window)).toBe(false);
    expect(isMonthSelectable('2024-04', window)).toBe(false);
    expect(isMonthSelectable('2024-13', OPEN_WINDOW)).toBe(false);
  });
  it('are offered latest first', () => {
    expect(monthOptions(window)).toEqual(['2024-03', '2024-02', '2024-01', '2023-12', '2023-11']);
    expect(monthOptions(OPEN_WINDOW)).toHaveLength(24);
    expect(monthOptions(OPEN_WINDOW).at(-1)).toBe('2022-04');
  });
});

describe('mobile selects', () => {
  it('change one part of a date, clamping the day', () => {
    expect(withDatePart('2024-01-31', 'month', 2)).toBe('2024-02-29');
    expect(withDatePart('2024-02-29', 'year', 2023)).toBe('2023-02-28');
    expect(withDatePart('2024-02-10', 'day', 31)).toBe('2024-02-29');
    expect(withDatePart('2024-02-10', 'day', 5)).toBe('2024-02-05');
  });
  it('offer the days of the month and the years of the window', () => {
    expect(daysInMonthOf('2024-02-10')).toHaveLength(29);
    expect(yearOptions({ earliest: '2022-06-01', latest: TODAY })).toEqual([2024, 2023, 2022]);
    expect(yearOptions(OPEN_WINDOW)).toHaveLength(10);
  });
});
