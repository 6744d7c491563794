import { describe, expect, it } from 'vitest';
import { maxRangeDays, selectableWindow, type TimeRange } from '../../src/domain/dateLimits';
import {
  type DatePreset,
  datePresets,
  presetBeforeEarliestReason,
  presetMaxRangeNote,
  presetOf,
  presetRange,
  presetTooLongReason,
  type TimeRangeChoice,
} from '../../src/domain/datePresets';

/*
 * The date picker's calendar presets (issue 31) against the maximum ranges of §9 (Daily and Hourly 31 days,
 * Weekly 93, Monthly 366; Hourly with Average Transaction Value 1 day) and the dates a user may choose (§5).
 */

/** Header V2's select with the §9 maxima for a metric. */
function headerV2(current: TimeRange, metric: 'gmv' | 'average_transaction_value' = 'gmv'): TimeRangeChoice {
  return {
    current,
    options: (['hourly', 'daily', 'weekly', 'monthly'] as const).map((timeRange) => ({
      timeRange,
      maxDays: maxRangeDays(timeRange, metric),
    })),
  };
}

function byId(presets: readonly DatePreset[]) {
  return Object.fromEntries(presets.map((preset) => [preset.id, preset]));
}

describe('presetRange', () => {
  it('is the 1st of this month to today', () => {
    expect(presetRange('thisMonth', '2024-03-15')).toEqual({ start: '2024-03-01', end: '2024-03-15' });
    expect(presetRange('thisMonth', '2024-03-01')).toEqual({ start: '2024-03-01', end: '2024-03-01' });
    expect(presetRange('thisMonth', '2024-12-31')).toEqual({ start: '2024-12-01', end: '2024-12-31' });
  });

  it('is the whole previous month, whatever its length', () => {
    expect(presetRange('lastMonth', '2024-03-31')).toEqual({ start: '2024-02-01', end: '2024-02-29' });
    expect(presetRange('lastMonth', '2023-03-31')).toEqual({ start: '2023-02-01', end: '2023-02-28' });
    expect(presetRange('lastMonth', '2024-05-01')).toEqual({ start: '2024-04-01', end: '2024-04-30' });
    expect(presetRange('lastMonth', '2024-08-15')).toEqual({ start: '2024-07-01', end: '2024-07-31' });
    // January's last month is December of the year before.
    expect(presetRange('lastMonth', '2025-01-01')).toEqual({ start: '2024-12-01', end: '2024-12-31' });
  });

  it("starts the quarter to date on its quarter's first day", () => {
    expect(presetRange('quarterToDate', '2024-02-29')).toEqual({ start: '2024-01-01', end: '2024-02-29' });
    expect(presetRange('quarterToDate', '2024-03-31')).toEqual({ start: '2024-01-01', end: '2024-03-31' });
    expect(presetRange('quarterToDate', '2024-04-01')).toEqual({ start: '2024-04-01', end: '2024-04-01' });
    expect(presetRange('quarterToDate', '2024-06-30')).toEqual({ start: '2024-04-01', end: '2024-06-30' });
    expect(presetRange('quarterToDate', '2024-08-20')).toEqual({ start: '2024-07-01', end: '2024-08-20' });
    expect(presetRange('quarterToDate', '2024-12-31')).toEqual({ start: '2024-10-01', end: '2024-12-31' });
  });

  it('starts the year to date on 1 Jan, which on 1 Jan is the one day', () => {
    expect(presetRange('yearToDate', '2024-01-01')).toEqual({ start: '2024-01-01', end: '2024-01-01' });
    expect(presetRange('yearToDate', '2024-12-31')).toEqual({ start: '2024-01-01', end: '2024-12-31' });
  });
});

describe('datePresets', () => {
  it('offers This month and Last month without a time-range select', () => {
    const presets = datePresets({ window: { earliest: undefined, latest: '2024-03-15' }, maxDays: 31 });
    expect(presets).toEqual([
      {
        id: 'thisMonth',
        range: { start: '2024-03-01', end: '2024-03-15' },
        timeRange: undefined,
        maxDays: 31,
        disabledReason: undefined,
      },
      {
        id: 'lastMonth',
        range: { start: '2024-02-01', end: '2024-02-29' },
        timeRange: undefined,
        maxDays: 31,
        disabledReason: undefined,
      },
    ]);
  });

  it('offers Quarter to date and Year to date only with a select offering Weekly or Monthly', () => {
    const window = { earliest: undefined, latest: '2024-03-15' };
    const ids = (timeRanges?: TimeRangeChoice) =>
      datePresets({ window, maxDays: 31, timeRanges }).map((preset) => preset.id);
    expect(ids(headerV2('daily'))).toEqual(['thisMonth', 'lastMonth', 'quarterToDate', 'yearToDate']);
    expect(ids({ current: 'daily', options: [{ timeRange: 'daily', maxDays: 31 }] })).toEqual([
      'thisMonth',
      'lastMonth',
    ]);
    expect(ids(undefined)).toEqual(['thisMonth', 'lastMonth']);
  });

  it('switches to the smallest time range whose maximum fits', () => {
    // 20 Aug 2024: the quarter is 51 days (Weekly), the year 233 days (Monthly).
    const presets = byId(
      datePresets({
        window: { earliest: undefined, latest: '2024-08-20' },
        maxDays: 31,
        timeRanges: headerV2('daily'),
      }),
    );
    expect(presets.thisMonth).toMatchObject({ timeRange: undefined, maxDays: 31, disabledReason: undefined });
    expect(presets.lastMonth).toMatchObject({ timeRange: undefined, maxDays: 31, disabledReason: undefined });
    expect(presets.quarterToDate).toMatchObject({ timeRange: 'weekly', maxDays: 93, disabledReason: undefined });
    expect(presets.yearToDate).toMatchObject({ timeRange: 'monthly', maxDays: 366, disabledReason: undefined });
  });

  it('keeps a time range whose maximum already fits', () => {
    const presets = byId(
      datePresets({
        window: { earliest: undefined, latest: '2024-08-20' },
        maxDays: 93,
        timeRanges: headerV2('weekly'),
      }),
    );
    expect(presets.quarterToDate).toMatchObject({ timeRange: undefined, maxDays: 93 });
    expect(presets.yearToDate).toMatchObject({ timeRange: 'monthly', maxDays: 366 });
    const monthly = byId(
      datePresets({
        window: { earliest: undefined, latest: '2024-12-31' },
        maxDays: 366,
        timeRanges: headerV2('monthly'),
      }),
    );
    // 366 days of a leap year fit the Monthly maximum.
    expect(monthly.yearToDate).toMatchObject({
      range: { start: '2024-01-01', end: '2024-12-31' },
      timeRange: undefined,
      disabledReason: undefined,
    });
  });

  it('takes a short year to date or quarter as it is, and on 1 Jan the one day', () => {
    const early = byId(
      datePresets({
        window: { earliest: undefined, latest: '2024-01-20' },
        maxDays: 31,
        timeRanges: headerV2('daily'),
      }),
    );
    expect(early.yearToDate).toMatchObject({ range: { start: '2024-01-01', end: '2024-01-20' }, timeRange: undefined });
    expect(early.quarterToDate).toMatchObject({ timeRange: undefined });
    const newYear = byId(
      datePresets({
        window: { earliest: undefined, latest: '2025-01-01' },
        maxDays: 31,
        timeRanges: headerV2('daily'),
      }),
    );
    expect(newYear.yearToDate).toMatchObject({
      range: { start: '2025-01-01', end: '2025-01-01' },
      timeRange: undefined,
    });
    expect(newYear.lastMonth).toMatchObject({ range: { start: '2024-12-01', end: '2024-12-31' } });
  });

  it('moves Hourly with Average Transaction Value (1 day) to Daily for a month', () => {
    const presets = byId(
      datePresets({
        window: { earliest: undefined, latest: '2024-03-15' },
        maxDays: 1,
        timeRanges: headerV2('hourly', 'average_transaction_value'),
      }),
    );
    expect(presets.thisMonth).toMatchObject({ timeRange: 'daily', maxDays: 31 });
    expect(presets.yearToDate).toMatchObject({ timeRange: 'weekly', maxDays: 93 });
  });

  it('disables a preset that no time range fits, saying the longest maximum', () => {
    // A breakeven page allows 31 days whatever the time range.
    const breakeven: TimeRangeChoice = {
      current: 'daily',
      options: (['hourly', 'daily', 'weekly', 'monthly'] as const).map((timeRange) => ({ timeRange, maxDays: 31 })),
    };
    const presets = byId(
      datePresets({ window: { earliest: undefined, latest: '2024-08-20' }, maxDays: 31, timeRanges: breakeven }),
    );
    expect(presets.thisMonth?.disabledReason).toBeUndefined();
    expect(presets.quarterToDate).toMatchObject({
      timeRange: undefined,
      disabledReason: 'Longer than the maximum range of 31 days.',
    });
    // A picker of its own with a shorter maximum.
    const short = byId(datePresets({ window: { earliest: undefined, latest: '2024-08-20' }, maxDays: 7 }));
    expect(short.lastMonth?.disabledReason).toBe(presetTooLongReason(7));
    expect(short.thisMonth?.disabledReason).toBe('Longer than the maximum range of 7 days.');
  });

  it('disables a preset that starts before the earliest date the user may choose', () => {
    const window = { earliest: '2024-07-10', latest: '2024-08-20' };
    const presets = byId(datePresets({ window, maxDays: 31, timeRanges: headerV2('daily') }));
    expect(presets.thisMonth?.disabledReason).toBeUndefined();
    expect(presets.lastMonth?.disabledReason).toBe('Starts before 10 Jul 2024, the earliest date you may choose.');
    expect(presets.quarterToDate?.disabledReason).toBe(presetBeforeEarliestReason('2024-07-10'));
    expect(presets.yearToDate?.disabledReason).toBe(presetBeforeEarliestReason('2024-07-10'));
    // The 'datetime-picker-limitation' permission: yesterday and today only.
    const limited = byId(
      datePresets({
        window: selectableWindow({ today: '2024-08-20', limited: true }),
        maxDays: 31,
        timeRanges: headerV2('daily'),
      }),
    );
    expect(limited.thisMonth?.disabledReason).toBe('Starts before 19 Aug 2024, the earliest date you may choose.');
    expect(limited.lastMonth?.disabledReason).toBe(presetBeforeEarliestReason('2024-08-19'));
    // On the 2nd of a month, This month starts yesterday: allowed.
    const second = byId(datePresets({ window: selectableWindow({ today: '2024-08-02', limited: true }), maxDays: 31 }));
    expect(second.thisMonth?.disabledReason).toBeUndefined();
  });

  it('finds the preset a range is', () => {
    const presets = datePresets({
      window: { earliest: undefined, latest: '2024-08-20' },
      maxDays: 31,
      timeRanges: headerV2('daily'),
    });
    expect(presetOf({ start: '2024-07-01', end: '2024-07-31' }, presets)?.id).toBe('lastMonth');
    expect(presetOf({ start: '2024-01-01', end: '2024-08-20' }, presets)?.id).toBe('yearToDate');
    expect(presetOf({ start: '2024-07-02', end: '2024-07-31' }, presets)).toBeUndefined();
  });

  it('writes the note of a preset that switches the time range', () => {
    expect(presetMaxRangeNote(366, 'monthly')).toBe('(Max range of 366 days, Monthly)');
    expect(presetMaxRangeNote(93, 'weekly')).toBe('(Max range of 93 days, Weekly)');
  });
});
