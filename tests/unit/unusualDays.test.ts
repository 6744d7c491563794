import { describe, expect, it } from 'vitest';
import {
  DEFAULT_UNUSUAL_RULE,
  deviationOf,
  formatChange,
  formatZ,
  mallDayPath,
  median,
  medianAbsoluteDeviation,
  outletDayPath,
} from '../../src/domain/unusualDays';

/*
 * The unusual day rule (issue 34), worked by hand. The baseline of most cases, six same weekdays:
 *   1000, 1100, 1200, 900, 1000, 1300 -> sorted 900 1000 1000 1100 1200 1300, median (1000 + 1100) / 2 = 1050;
 *   deviations 150 50 50 50 150 250 -> sorted 50 50 50 150 150 250, MAD (50 + 150) / 2 = 100;
 *   1.4826 x MAD = 148.26.
 */
const BASELINE = [1000, 1100, 1200, 900, 1000, 1300];

describe('median and MAD', () => {
  it('take the middle value, or the mean of the middle two', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median(BASELINE)).toBe(1050);
    expect(median([])).toBeNaN();
  });

  it('MAD is the median of the distances from the median', () => {
    expect(medianAbsoluteDeviation(BASELINE)).toBe(100);
    expect(medianAbsoluteDeviation([5, 5, 5, 9])).toBe(0);
    expect(medianAbsoluteDeviation([1, 2, 3, 4, 100])).toBe(1);
  });
});

describe('deviationOf', () => {
  it('flags a day beyond the threshold above, with its robust z and percentage', () => {
    // 1700 - 1050 = 650; z = 650 / 148.26 = 4.3842; 650 / 1050 = 61.90 %.
    const deviation = deviationOf(1700, BASELINE, DEFAULT_UNUSUAL_RULE);
    expect(deviation).toMatchObject({ baselineDays: 6, median: 1050, mad: 100, direction: 'above', unusual: true });
    expect(deviation?.z).toBeCloseTo(4.3842, 4);
    expect(deviation?.percent).toBeCloseTo(61.9048, 4);
    expect(formatZ(deviation?.z ?? 0)).toBe('+4.38');
    expect(formatChange(deviation ?? { percent: null, direction: 'above' })).toBe('61.9% above');
  });

  it('flags a day beyond the threshold below', () => {
    // 500 - 1050 = -550; z = -3.7097; -52.38 %.
    const deviation = deviationOf(500, BASELINE, DEFAULT_UNUSUAL_RULE);
    expect(deviation).toMatchObject({ direction: 'below', unusual: true });
    expect(deviation?.z).toBeCloseTo(-3.7097, 4);
    expect(formatZ(deviation?.z ?? 0)).toBe('-3.71');
    expect(formatChange(deviation ?? { percent: null, direction: 'above' })).toBe('52.4% below');
  });

  it('does not flag a day within the threshold, unless the client set a lower one', () => {
    // 1500 - 1050 = 450; z = 3.0352.
    expect(deviationOf(1500, BASELINE, DEFAULT_UNUSUAL_RULE)?.unusual).toBe(false);
    expect(deviationOf(1500, BASELINE, { threshold: 3, minBaselineDays: 5 })?.unusual).toBe(true);
  });

  it('does not judge a day on fewer baseline days than the rule wants', () => {
    expect(deviationOf(5000, BASELINE.slice(0, 4), DEFAULT_UNUSUAL_RULE)).toBeUndefined();
    expect(deviationOf(5000, BASELINE.slice(0, 4), { threshold: 3.5, minBaselineDays: 4 })?.unusual).toBe(true);
    expect(deviationOf(5000, [], { threshold: 3.5, minBaselineDays: 0 })).toBeUndefined();
  });

  it('with a MAD of 0, measures the spread by the mean absolute deviation', () => {
    // Median 100, deviations 0 0 0 0 0 20: MAD 0; mean absolute deviation 20 / 6 = 3.3333, x 1.2533 = 4.1777.
    const alike = [100, 100, 100, 100, 100, 120];
    expect(deviationOf(105, alike, DEFAULT_UNUSUAL_RULE)).toMatchObject({ mad: 0, percent: 5, unusual: false });
    // 12 / 4.1777 = 2.87: 12 % but within the threshold.
    expect(deviationOf(112, alike, DEFAULT_UNUSUAL_RULE)?.z).toBeCloseTo(2.8724, 4);
    expect(deviationOf(112, alike, DEFAULT_UNUSUAL_RULE)?.unusual).toBe(false);
    // 15 / 4.1777 = 3.59, 15 %.
    const beyond = deviationOf(115, alike, DEFAULT_UNUSUAL_RULE);
    expect(beyond).toMatchObject({ percent: 15, unusual: true });
    expect(beyond?.z).toBeCloseTo(3.5905, 4);
  });

  it('with every baseline day alike, flags on the percentage alone (more than 10 %)', () => {
    const same = [100, 100, 100, 100, 100];
    expect(deviationOf(105, same, DEFAULT_UNUSUAL_RULE)).toMatchObject({ z: null, percent: 5, unusual: false });
    expect(deviationOf(110, same, DEFAULT_UNUSUAL_RULE)?.unusual).toBe(false);
    expect(deviationOf(89, same, DEFAULT_UNUSUAL_RULE)).toMatchObject({ z: null, direction: 'below', unusual: true });
    expect(deviationOf(100, same, DEFAULT_UNUSUAL_RULE)?.unusual).toBe(false);
  });

  it('against a usual of none, flags any sales, without a percentage', () => {
    const closed = [0, 0, 0, 0, 0];
    expect(deviationOf(0, closed, DEFAULT_UNUSUAL_RULE)?.unusual).toBe(false);
    const opened = deviationOf(50, closed, DEFAULT_UNUSUAL_RULE);
    expect(opened).toMatchObject({ median: 0, mad: 0, z: null, percent: null, direction: 'above', unusual: true });
    expect(formatChange(opened ?? { percent: 0, direction: 'below' })).toBe('above');
  });

  it('does not flag a small change of a very steady outlet, however large its z', () => {
    // Median 1000; deviations 0 1 1 0 0 2 2 0 -> MAD 0.5; 1050 is z = 50 / 0.7413 = 67.45 but only 5 %.
    const steady = [1000, 1001, 999, 1000, 1000, 1002, 998, 1000];
    const deviation = deviationOf(1050, steady, DEFAULT_UNUSUAL_RULE);
    expect(deviation?.mad).toBe(0.5);
    expect(deviation?.z).toBeCloseTo(67.449, 3);
    expect(deviation?.unusual).toBe(false);
    expect(deviationOf(1200, steady, DEFAULT_UNUSUAL_RULE)?.unusual).toBe(true);
  });
});

describe('the links of a flag', () => {
  it('show the day and the 28 days before it (five of its weekday)', () => {
    expect(mallDayPath(1, 3, '2026-03-01')).toBe(
      '/shopper-connect/mall-home?client=1&malls=3&from=2026-02-01&to=2026-03-01',
    );
    expect(outletDayPath({ clientId: 1, mallId: 3, outletId: 7 }, '2026-03-01', false)).toBe(
      '/shopper-connect/mall-outlet/7?client=1&malls=3&from=2026-02-01&to=2026-03-01',
    );
    expect(outletDayPath({ clientId: 1, mallId: 3, outletId: 7 }, '2026-03-01', true)).toBe(
      '/tenant-connect/sales-analysis?client=1&outlet=7&from=2026-02-01&to=2026-03-01',
    );
  });
});
