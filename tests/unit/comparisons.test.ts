import { describe, expect, it } from 'vitest';
import { comparedDays, type FestivalDays, sameDateLastYear } from '../../src/domain/comparisons';

const CNY: FestivalDays[] = [
  { festival: 'chinese_new_year', name: 'Chinese New Year', start: '2025-01-29', end: '2025-01-30' },
  { festival: 'chinese_new_year', name: 'Chinese New Year', start: '2026-02-17', end: '2026-02-18' },
  { festival: 'chinese_new_year', name: 'Chinese New Year', start: '2027-02-06', end: '2027-02-07' },
];

describe('comparedDays', () => {
  it('compares each day with the same date a year before, 29 February with the 28th', () => {
    expect(sameDateLastYear('2026-03-02')).toBe('2025-03-02');
    expect(sameDateLastYear('2028-02-29')).toBe('2027-02-28');
    expect(sameDateLastYear('2029-02-28')).toBe('2028-02-28');
    expect(sameDateLastYear('2025-02-28')).toBe('2024-02-28');
    const leap = comparedDays('same_date_last_year', { start: '2028-02-28', end: '2028-03-01' });
    expect(leap.days).toEqual(['2027-02-28', '2027-02-28', '2027-03-01']);
    expect(leap.span).toEqual({ start: '2027-02-28', end: '2027-03-01' });
    // A month with the same month of the year before, whatever the weekdays.
    expect(comparedDays('same_date_last_year', { start: '2024-03-01', end: '2024-03-31' }).span).toEqual({
      start: '2023-03-01',
      end: '2023-03-31',
    });
  });

  it('compares with as many days just before, or moved back by whole weeks', () => {
    const days = comparedDays('previous', { start: '2026-10-01', end: '2026-10-31' });
    expect(days.span).toEqual({ start: '2026-08-31', end: '2026-09-30' });
    expect(days.days).toHaveLength(31);
    const weeks = comparedDays('previous', { start: '2026-10-01', end: '2026-10-31' }, [], 'whole_weeks');
    expect(weeks.span).toEqual({ start: '2026-08-27', end: '2026-09-26' });
  });

  it('compares every day with the same weekday 52 weeks before', () => {
    const days = comparedDays('same_weekday_last_year', { start: '2026-11-01', end: '2026-11-27' });
    expect(days.span).toEqual({ start: '2025-11-02', end: '2025-11-28' });
    expect(days.days[0]).toBe('2025-11-02'); // Sunday 1 Nov 2026 against Sunday 2 Nov 2025
  });

  it("meets Chinese New Year 2026 (17 Feb) with 2025's (29 Jan), the other days by weekday", () => {
    const days = comparedDays('festival_aligned', { start: '2026-02-01', end: '2026-02-28' }, CNY);
    expect(days.aligned).toEqual([
      {
        festival: 'chinese_new_year',
        name: 'Chinese New Year',
        current: { start: '2026-02-17', end: '2026-02-18' },
        compared: { start: '2025-01-29', end: '2025-01-30' },
      },
    ]);
    const byDay = Object.fromEntries(
      days.days.map((day, index) => [`2026-02-${String(index + 1).padStart(2, '0')}`, day]),
    );
    expect(byDay['2026-02-17']).toBe('2025-01-29');
    expect(byDay['2026-02-18']).toBe('2025-01-30');
    // Monday 16 Feb, the eve: the last Monday before last year's festival.
    expect(byDay['2026-02-16']).toBe('2025-01-27');
    expect(byDay['2026-02-01']).toBe('2025-01-12');
    // Thursday 19 Feb: the first Thursday after last year's festival.
    expect(byDay['2026-02-19']).toBe('2025-02-06');
    expect(byDay['2026-02-28']).toBe('2025-02-15');
    expect(days.span).toEqual({ start: '2025-01-12', end: '2025-02-15' });
    expect(new Set(days.days).size).toBe(28);
  });

  it('keeps the weekdays of every day that is not a festival day', () => {
    const days = comparedDays('festival_aligned', { start: '2026-01-20', end: '2026-03-10' }, CNY);
    const range = Array.from({ length: 50 }, (_, index) => {
      const day = new Date(Date.UTC(2026, 0, 20 + index));
      return day.toISOString().slice(0, 10);
    });
    range.forEach((day, index) => {
      if (day === '2026-02-17' || day === '2026-02-18') return;
      expect(new Date(`${days.days[index]}T00:00:00Z`).getUTCDay()).toBe(new Date(`${day}T00:00:00Z`).getUTCDay());
    });
  });

  it('is the same weekdays last year without a festival in the range', () => {
    const days = comparedDays('festival_aligned', { start: '2026-06-01', end: '2026-06-07' }, CNY);
    expect(days.aligned).toEqual([]);
    expect(days.span).toEqual({ start: '2025-06-02', end: '2025-06-08' });
  });
});
