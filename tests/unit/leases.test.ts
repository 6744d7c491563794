import { describe, expect, it } from 'vitest';
import {
  bandPosition,
  defaultOccupancyBand,
  LEASE_MESSAGES,
  type LeaseTerms,
  leaseDaysInMonth,
  leaseProblem,
  monthRent,
  occupancyCostRatio,
  salesPerSqm,
} from '../../src/domain/leases';

const terms = (overrides: Partial<LeaseTerms> = {}): LeaseTerms => ({
  start_date: '2026-01-01',
  end_date: '2028-12-31',
  gla_sqm: 120,
  base_rent: 10_000,
  service_charge: 1_500,
  turnover_rent: {
    model: 'higher_of',
    tiers: [
      { from: 0, rate_percent: 8 },
      { from: 200_000, rate_percent: 10 },
    ],
  },
  ...overrides,
});

describe('monthRent (hand-computed)', () => {
  it('higher_of with two tiers: the turnover part above the base rent', () => {
    // P = 200,000 × 8% + 50,000 × 10% = 21,000; turnover rent 21,000 − 10,000 = 11,000.
    const rent = monthRent({ terms: terms(), sales: 250_000, days: 31, daysInMonth: 31, gstPercent: 9 });
    expect(rent).toMatchObject({
      base_rent: 10_000,
      percentage_rent: 21_000,
      turnover_rent: 11_000,
      service_charge: 1_500,
      subtotal: 22_500,
      gst: 2_025,
      total_due: 24_525,
    });
    expect(rent.tiers).toEqual([
      { from: 0, to: 200_000, rate_percent: 8, turnover: 200_000, rent: 16_000 },
      { from: 200_000, to: null, rate_percent: 10, turnover: 50_000, rent: 5_000 },
    ]);
  });

  it('higher_of below the base rent adds nothing', () => {
    const rent = monthRent({ terms: terms(), sales: 100_000, days: 30, daysInMonth: 30, gstPercent: 9 });
    expect(rent).toMatchObject({
      percentage_rent: 8_000,
      turnover_rent: 0,
      subtotal: 11_500,
      gst: 1_035,
      total_due: 12_535,
    });
  });

  it('base_plus_overage: the percentage of the turnover above the breakpoint', () => {
    const lease = terms({
      base_rent: 8_000,
      service_charge: 1_000,
      turnover_rent: { model: 'base_plus_overage', tiers: [{ from: 150_000, rate_percent: 6 }] },
    });
    const rent = monthRent({ terms: lease, sales: 180_000, days: 30, daysInMonth: 30, gstPercent: 9 });
    expect(rent).toMatchObject({
      base_rent: 8_000,
      turnover_rent: 1_800,
      subtotal: 10_800,
      gst: 972,
      total_due: 11_772,
    });
    const below = monthRent({ terms: lease, sales: 120_000, days: 30, daysInMonth: 30, gstPercent: 9 });
    expect(below.turnover_rent).toBe(0);
  });

  it('a lease starting on the 11th of a 30-day month is prorated, thresholds and base rent alike', () => {
    const { days, daysInMonth } = leaseDaysInMonth('2026-11-11', '2029-11-10', '2026-11');
    expect([days, daysInMonth]).toEqual([20, 30]);
    const lease = terms({
      base_rent: 9_000,
      service_charge: 1_200,
      turnover_rent: {
        model: 'higher_of',
        tiers: [
          { from: 0, rate_percent: 10 },
          { from: 90_000, rate_percent: 12 },
        ],
      },
    });
    // Base 9,000 × 20/30 = 6,000; threshold 90,000 × 20/30 = 60,000; P = 6,000 + 10,000 × 12% = 7,200.
    const rent = monthRent({ terms: lease, sales: 70_000, days, daysInMonth, gstPercent: 9 });
    expect(rent).toMatchObject({
      base_rent: 6_000,
      percentage_rent: 7_200,
      turnover_rent: 1_200,
      service_charge: 800,
      subtotal: 8_000,
      gst: 720,
      total_due: 8_720,
    });
    expect(rent.tiers[1]).toMatchObject({ from: 60_000, turnover: 10_000, rent: 1_200 });
  });

  it('rounds each line to the cent, half away from zero, and the lines add up', () => {
    const lease = terms({ base_rent: 1_000.01, service_charge: 0.05 });
    const rent = monthRent({ terms: lease, sales: 0, days: 1, daysInMonth: 31, gstPercent: 9 });
    expect(rent.base_rent).toBe(32.26); // 32.2583…
    expect(rent.service_charge).toBe(0); // 0.0016…
    expect(rent.gst).toBe(2.9); // 32.26 × 9% = 2.9034
    expect(rent.total_due).toBe(35.16);
    const cents = monthRent({ terms: terms(), sales: 200_000.13, days: 31, daysInMonth: 31, gstPercent: 9 });
    expect(cents.tiers.map((tier) => tier.rent)).toEqual([16_000, 0.01]);
    expect(cents.percentage_rent).toBe(16_000.01);
  });

  it('a negative turnover counts as none', () => {
    const rent = monthRent({ terms: terms(), sales: -50, days: 31, daysInMonth: 31, gstPercent: 0 });
    expect(rent.percentage_rent).toBe(0);
    expect(rent.total_due).toBe(11_500);
  });
});

describe('leaseDaysInMonth', () => {
  it('counts the days of a month a lease covers', () => {
    expect(leaseDaysInMonth('2026-01-01', '2026-02-10', '2026-02')).toEqual({ days: 10, daysInMonth: 28 });
    expect(leaseDaysInMonth('2024-02-01', '2030-01-01', '2024-02')).toEqual({ days: 29, daysInMonth: 29 });
    expect(leaseDaysInMonth('2026-03-01', '2027-01-01', '2026-02')).toEqual({ days: 0, daysInMonth: 28 });
    expect(leaseDaysInMonth('2026-12-31', '2027-12-30', '2026-12')).toEqual({ days: 1, daysInMonth: 31 });
  });
});

describe('leaseProblem', () => {
  it('accepts good terms', () => {
    expect(leaseProblem(terms())).toBeUndefined();
  });
  it('names the field of each rule broken', () => {
    expect(leaseProblem(terms({ end_date: '2025-12-31' }))).toEqual({
      field: 'end_date',
      message: LEASE_MESSAGES.endBeforeStart,
    });
    expect(leaseProblem(terms({ end_date: '2056-01-01' }))?.field).toBe('end_date');
    expect(leaseProblem(terms({ end_date: '2055-12-31' }))).toBeUndefined();
    const descending = terms({
      turnover_rent: {
        model: 'higher_of',
        tiers: [
          { from: 0, rate_percent: 8 },
          { from: 0, rate_percent: 9 },
        ],
      },
    });
    expect(leaseProblem(descending)).toEqual({
      field: 'turnover_rent.tiers.1.from',
      message: LEASE_MESSAGES.tiersNotAscending,
    });
    const breakpoint = terms({ turnover_rent: { model: 'higher_of', tiers: [{ from: 5, rate_percent: 8 }] } });
    expect(leaseProblem(breakpoint)?.field).toBe('turnover_rent.tiers.0.from');
    const overage = terms({ turnover_rent: { model: 'base_plus_overage', tiers: [{ from: 5, rate_percent: 8 }] } });
    expect(leaseProblem(overage)).toBeUndefined();
    expect(leaseProblem(terms({ notice_date: '2029-01-01' }))?.field).toBe('notice_date');
    expect(leaseProblem(terms({ renewal_date: '2025-01-01' }))?.field).toBe('renewal_date');
  });
});

describe('occupancy measures', () => {
  it('occupancy cost ratio and sales per m² a year', () => {
    expect(occupancyCostRatio(22_500, 250_000)).toBe(9);
    expect(occupancyCostRatio(100, 0)).toBeNull();
    expect(salesPerSqm(250_000, 120, 31, 31)).toBe(25_000);
    expect(salesPerSqm(10_000, 100, 10, 30)).toBe(3_600);
    expect(salesPerSqm(10_000, 0, 10, 30)).toBeNull();
  });
});

describe('occupancy cost bands', () => {
  it('finds the published band of a category by its kind', () => {
    expect(defaultOccupancyBand('Groceries')).toEqual({ low_percent: 1, high_percent: 5 });
    expect(defaultOccupancyBand('F&B')).toEqual({ low_percent: 6, high_percent: 10 });
    expect(defaultOccupancyBand('Desserts & Bakery')).toEqual({ low_percent: 6, high_percent: 10 });
    expect(defaultOccupancyBand('Apparel')).toEqual({ low_percent: 10, high_percent: 15 });
    expect(defaultOccupancyBand('Fitness')).toEqual({ low_percent: 15, high_percent: 25 });
    expect(defaultOccupancyBand('Electronics')).toBeUndefined();
  });
  it('places a ratio against its band', () => {
    const band = { low_percent: 6, high_percent: 10 };
    expect(bandPosition(5.99, band)).toBe('below');
    expect(bandPosition(6, band)).toBe('within');
    expect(bandPosition(10, band)).toBe('within');
    expect(bandPosition(10.01, band)).toBe('above');
    expect(bandPosition(null, band)).toBeNull();
    expect(bandPosition(8, undefined)).toBeNull();
  });
});
