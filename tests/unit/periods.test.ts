import { describe, expect, it } from 'vitest';
import { formatMonth } from '../../src/domain/format';
import {
  bucketMark,
  comparisonLabel,
  completeDaysComparison,
  dayMark,
  monthMark,
  spanText,
  weekMark,
} from '../../src/domain/periods';

const dayLabel = (date: string) => `${date.slice(8, 10)}/${date.slice(5, 7)}`;
const TODAY = '2026-11-25';

describe('partial periods', () => {
  it('marks today as so far, and the days before it as whole', () => {
    expect(dayMark('2026-11-24', TODAY, dayLabel)).toEqual({ label: '24/11', partial: false, open: false });
    expect(dayMark(TODAY, TODAY, dayLabel)).toEqual({ label: '25/11 (so far)', partial: true, open: true });
  });

  it('labels a month the range cuts short with its real span, and the open month as so far', () => {
    const range = { start: '2026-09-16', end: TODAY };
    expect(monthMark('2026-09', range, TODAY, formatMonth)).toEqual({
      label: 'September 2026 (16–30 Sep, 15 days)',
      partial: true,
      open: false,
    });
    expect(monthMark('2026-10', range, TODAY, formatMonth)).toEqual({
      label: 'October 2026',
      partial: false,
      open: false,
    });
    expect(monthMark('2026-11', range, TODAY, formatMonth)).toEqual({
      label: 'November 2026 (1–25 Nov, so far)',
      partial: true,
      open: true,
    });
  });

  it('labels a week by its days, with the count when the range cuts it short', () => {
    const range = { start: '2026-11-19', end: '2026-12-02' };
    expect(weekMark('2026-11-16', range, '2026-12-10')).toEqual({
      label: '19–22 Nov (4 days)',
      partial: true,
      open: false,
    });
    expect(weekMark('2026-11-23', range, '2026-12-10')).toEqual({ label: '23–29 Nov', partial: false, open: false });
    expect(weekMark('2026-11-30', range, '2026-12-10').label).toBe('30 Nov – 2 Dec (3 days)');
  });
});

describe('series buckets by time range', () => {
  const labels = { day: (date: string) => date, month: formatMonth };
  const range = { start: '2026-11-09', end: TODAY };

  it('marks each kind of bucket as the server labels it', () => {
    expect(bucketMark('hourly', '2026-11-25 10:00', range, TODAY, labels).label).toBe('2026-11-25 10:00');
    expect(bucketMark('daily', TODAY, range, TODAY, labels).label).toBe('2026-11-25 (so far)');
    expect(bucketMark('weekly', '2026-11-16', range, TODAY, labels)).toEqual({
      label: '16–22 Nov',
      partial: false,
      open: false,
    });
    expect(bucketMark('weekly', '2026-11-23', range, TODAY, labels).label).toBe('23–25 Nov (so far)');
    expect(bucketMark('monthly', '2026-11', range, TODAY, labels).label).toBe('November 2026 (9–25 Nov, so far)');
  });
});

describe('growth comparisons over complete days', () => {
  it('leaves today out of a range that ends today and compares as many days just before it', () => {
    expect(completeDaysComparison({ start: '2026-11-19', end: TODAY }, TODAY)).toEqual({
      current: { start: '2026-11-19', end: '2026-11-24' },
      previous: { start: '2026-11-13', end: '2026-11-18' },
      todayLeftOut: true,
    });
  });

  it('compares a range that ends yesterday (or before) whole, with the period of equal length before it', () => {
    expect(completeDaysComparison({ start: '2026-11-18', end: '2026-11-24' }, TODAY)).toEqual({
      current: { start: '2026-11-18', end: '2026-11-24' },
      previous: { start: '2026-11-11', end: '2026-11-17' },
      todayLeftOut: false,
    });
    expect(completeDaysComparison({ start: '2026-10-01', end: '2026-10-31' }, TODAY)).toEqual({
      current: { start: '2026-10-01', end: '2026-10-31' },
      previous: { start: '2026-08-31', end: '2026-09-30' },
      todayLeftOut: false,
    });
  });

  it('has nothing to compare when the range holds only today (or later days)', () => {
    expect(completeDaysComparison({ start: TODAY, end: TODAY }, TODAY)).toBeUndefined();
    expect(completeDaysComparison({ start: '2026-11-26', end: '2026-11-27' }, TODAY)).toBeUndefined();
  });

  it('compares the one complete day of a range of yesterday and today with the day before', () => {
    expect(completeDaysComparison({ start: '2026-11-24', end: TODAY }, TODAY)).toEqual({
      current: { start: '2026-11-24', end: '2026-11-24' },
      previous: { start: '2026-11-23', end: '2026-11-23' },
      todayLeftOut: true,
    });
  });

  it('says what a growth rate is against, and when today was left out', () => {
    expect(comparisonLabel(completeDaysComparison({ start: '2026-11-18', end: '2026-11-24' }, TODAY))).toBe(
      'vs 11–17 Nov',
    );
    expect(comparisonLabel(completeDaysComparison({ start: '2026-11-19', end: TODAY }, TODAY))).toBe(
      'vs 13–18 Nov (today left out)',
    );
    expect(comparisonLabel(completeDaysComparison({ start: '2026-11-24', end: TODAY }, TODAY))).toBe(
      'vs 23 Nov (today left out)',
    );
    expect(comparisonLabel(completeDaysComparison({ start: '2026-11-02', end: '2026-11-05' }, TODAY))).toBe(
      'vs 29 Oct – 1 Nov',
    );
    expect(comparisonLabel(undefined)).toBe('No complete day to compare yet.');
  });

  it('writes a span of days as the charts do', () => {
    expect(spanText('2026-11-11', '2026-11-17')).toBe('11–17 Nov');
    expect(spanText('2026-11-28', '2026-12-02')).toBe('28 Nov – 2 Dec');
    expect(spanText('2026-11-23', '2026-11-23')).toBe('23 Nov');
  });
});
