import type { OccupancyBand } from '../../src/api/occupancyBands';
import type {
  RentStatementGroup,
  RentStatementReport,
  RentStatementRow,
  TenantRentStatement,
} from '../../src/api/rentStatements';
import { monthRent } from '../../src/domain/leases';

/*
 * The rent statements the client tests answer with, computed by hand (the rule of src/domain/leases.ts) for March
 * 2024 (31 days) and checked against monthRent where a test relies on it. Client 3's bands: F&B the published 6-10 %,
 * Fashion its own 12-16 % (the published would be 10-15 %), Services none.
 */

/**
 * Kopi Corner (SGD): higher of base 10,000.00 or 8% to 200,000 and 10% above; declared 200,000, captured 250,000.
 * Turnover rent on the declaration 16,000 − 10,000 = 6,000; on the captured 21,000 − 10,000 = 11,000: 5,000 at
 * stake. Flagged (declared 20% below). GST 9% of 17,500 = 1,575; total due 19,075. OCR 22,500 / 250,000 = 9%
 * (on the captured sales: 10,000 + 11,000 + 1,500), within F&B's 6-10 %; sales per m² 250,000 × 12 / 120 = 25,000.
 */
export const KOPI: RentStatementRow = {
  lease_id: 101,
  outlet_id: 12,
  outlet_name: 'Kopi Corner',
  mall_id: 1,
  mall_name: 'Central',
  category: 'F&B',
  level: 'L1',
  currency: 'SGD',
  model: 'higher_of',
  gla_sqm: 120,
  days_leased: 31,
  days_in_month: 31,
  partial: false,
  basis: 'declared',
  sales_declared: 200_000,
  sales_captured: 250_000,
  sales_projected: null,
  base_rent: 10_000,
  turnover_rent_declared: 6_000,
  turnover_rent_captured: 11_000,
  turnover_rent_projected: null,
  rent_at_stake: 5_000,
  service_charge: 1_500,
  gst_percent: 9,
  gst: 1_575,
  total_due: 19_075,
  occupancy_cost_ratio: 9,
  sales_per_sqm: 25_000,
  flagged: true,
  invoice_number: null,
  band_low_percent: 6,
  band_high_percent: 10,
  band_position: 'within',
};

/**
 * Batik House (IDR): base 20,000,000 plus 5% above the breakpoint 100,000,000; no declaration, captured
 * 150,000,000: turnover rent 2,500,000 on the captured sales (the basis), nothing at stake. GST 11% of 25,500,000
 * = 2,805,000; total due 28,305,000. OCR 25,500,000 / 150,000,000 = 17%, 1 point above Fashion's 12-16 %; sales per
 * m² 150,000,000 × 12 / 200 = 9,000,000.
 */
export const BATIK: RentStatementRow = {
  lease_id: 102,
  outlet_id: 14,
  outlet_name: 'Batik House',
  mall_id: 2,
  mall_name: 'East',
  category: 'Fashion',
  level: 'L2',
  currency: 'IDR',
  model: 'base_plus_overage',
  gla_sqm: 200,
  days_leased: 31,
  days_in_month: 31,
  partial: false,
  basis: 'captured',
  sales_declared: null,
  sales_captured: 150_000_000,
  sales_projected: null,
  base_rent: 20_000_000,
  turnover_rent_declared: null,
  turnover_rent_captured: 2_500_000,
  turnover_rent_projected: null,
  rent_at_stake: 0,
  service_charge: 3_000_000,
  gst_percent: 11,
  gst: 2_805_000,
  total_due: 28_305_000,
  occupancy_cost_ratio: 17,
  sales_per_sqm: 9_000_000,
  flagged: false,
  invoice_number: 'INV-0042',
  band_low_percent: 12,
  band_high_percent: 16,
  band_position: 'above',
};

/**
 * Shoe Lane (SGD): from 12 March, 20 of 31 days: base 6,200 → 4,000, service 930 → 600; higher of base or 10%.
 * Declared 50,000 (turnover rent 1,000), captured 45,000 (500): −500 at stake, flagged (11.1% above). GST 9% of
 * 5,600 = 504; total due 6,104. OCR 5,100 / 45,000 = 11.33%, 0.67 points below Fashion's 12-16 %; sales per m²
 * 45,000 × 31/20 × 12 / 80 = 10,462.50.
 */
export const SHOE: RentStatementRow = {
  lease_id: 103,
  outlet_id: 15,
  outlet_name: 'Shoe Lane',
  mall_id: 1,
  mall_name: 'Central',
  category: 'Fashion',
  level: 'B1',
  currency: 'SGD',
  model: 'higher_of',
  gla_sqm: 80,
  days_leased: 20,
  days_in_month: 31,
  partial: false,
  basis: 'declared',
  sales_declared: 50_000,
  sales_captured: 45_000,
  sales_projected: null,
  base_rent: 4_000,
  turnover_rent_declared: 1_000,
  turnover_rent_captured: 500,
  turnover_rent_projected: null,
  rent_at_stake: -500,
  service_charge: 600,
  gst_percent: 9,
  gst: 504,
  total_due: 6_104,
  occupancy_cost_ratio: 11.33,
  sales_per_sqm: 10_462.5,
  flagged: true,
  invoice_number: null,
  band_low_percent: 12,
  band_high_percent: 16,
  band_position: 'below',
};

/**
 * March 2024's rows summed per category, floor and mall, one currency a group (by hand, as the server sorts them: by
 * kind, name, currency). Cost: base rent, turnover rent on the captured sales and service charge; a year's sales:
 * the month's × 31 / days leased × 12. Central (SGD): Kopi Corner and Shoe Lane, sales 250,000 + 45,000 = 295,000,
 * cost 22,500 + 5,100 = 27,600 (9.36%), a year's sales 3,000,000 + 837,000 = 3,837,000 over 200 m² = 19,185.
 * Fashion is two groups: Batik House in IDR, Shoe Lane in SGD.
 */
export const CLOSED_GROUPS: RentStatementGroup[] = [
  group('category', 'F&B', 'SGD', 1, 250_000, 22_500, 120, 9, 25_000),
  group('category', 'Fashion', 'IDR', 1, 150_000_000, 25_500_000, 200, 17, 9_000_000),
  group('category', 'Fashion', 'SGD', 1, 45_000, 5_100, 80, 11.33, 10_462.5),
  group('level', 'B1', 'SGD', 1, 45_000, 5_100, 80, 11.33, 10_462.5),
  group('level', 'L1', 'SGD', 1, 250_000, 22_500, 120, 9, 25_000),
  group('level', 'L2', 'IDR', 1, 150_000_000, 25_500_000, 200, 17, 9_000_000),
  group('mall', 'Central', 'SGD', 2, 295_000, 27_600, 200, 9.36, 19_185),
  group('mall', 'East', 'IDR', 1, 150_000_000, 25_500_000, 200, 17, 9_000_000),
];

/** A group of the report, its figures in the order of the contract. */
function group(
  by: RentStatementGroup['by'],
  key: string,
  currency: string,
  outlets: number,
  sales: number,
  occupancyCost: number,
  glaSqm: number,
  ratio: number,
  perSqm: number,
): RentStatementGroup {
  return {
    by,
    key,
    currency,
    outlets,
    sales,
    occupancy_cost: occupancyCost,
    gla_sqm: glaSqm,
    occupancy_cost_ratio: ratio,
    sales_per_sqm: perSqm,
  };
}

/** March 2024 closed: the rows as the server sorts them (by the rent at stake), threshold 5%. */
export const CLOSED_REPORT: RentStatementReport = {
  month: '2024-03',
  partial: false,
  threshold_percent: 5,
  rows: [KOPI, BATIK, SHOE],
  groups: CLOSED_GROUPS,
};

/**
 * March 2024 open (15 of 31 days): Kopi Corner has declared nothing yet, 120,000 captured so far; projected month end
 * 248,000, whose turnover rent would be 20,800 − 10,000 = 10,800. Its occupancy cost is on the projection: (10,000 +
 * 10,800 + 1,500) / 248,000 = 8.99%, within 6-10 %; so are its groups' (a year's sales 2,976,000 over 120 m²).
 */
export const PARTIAL_KOPI: RentStatementRow = {
  ...KOPI,
  partial: true,
  basis: 'captured',
  sales_declared: null,
  sales_captured: 120_000,
  sales_projected: 248_000,
  turnover_rent_declared: null,
  turnover_rent_captured: 0,
  turnover_rent_projected: 10_800,
  rent_at_stake: 0,
  gst: 1_035,
  total_due: 12_535,
  occupancy_cost_ratio: 8.99,
  sales_per_sqm: 24_800,
  flagged: false,
};

export const PARTIAL_REPORT: RentStatementReport = {
  month: '2024-03',
  partial: true,
  threshold_percent: 5,
  rows: [PARTIAL_KOPI],
  groups: [
    group('category', 'F&B', 'SGD', 1, 248_000, 22_300, 120, 8.99, 24_800),
    group('level', 'L1', 'SGD', 1, 248_000, 22_300, 120, 8.99, 24_800),
    group('mall', 'Central', 'SGD', 1, 248_000, 22_300, 120, 8.99, 24_800),
  ],
};

export const EMPTY_REPORT: RentStatementReport = {
  month: '2024-03',
  partial: false,
  threshold_percent: 5,
  rows: [],
  groups: [],
};

/** Kopi Corner's lease (outlet 12, Central, GST 9%). */
export const KOPI_LEASE: NonNullable<TenantRentStatement['lease']> = {
  id: 101,
  outlet_id: 12,
  outlet_name: 'Kopi Corner',
  outlet_code: 'KC-01',
  mall_id: 1,
  mall_name: 'Central',
  currency: 'SGD',
  gst_percent: 9,
  start_date: '2024-03-12',
  end_date: '2027-03-11',
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
  notice_date: '2026-09-11',
  renewal_date: null,
  status: 'current',
};

/**
 * The tenant's statement of a month the lease starts in (20 of 30 days: April's 11th on, say) on 150,000 of sales.
 * By hand: base 10,000 × 20/30 = 6,666.67; service 1,000.00; threshold 200,000 × 20/30 = 133,333.33; tier 1 8% of
 * 133,333.33 = 10,666.67; tier 2 10% of 16,666.67 = 1,666.67; P 12,333.34; turnover rent 5,666.67; subtotal
 * 13,333.34; GST 9% 1,200.00; total due 14,533.34.
 */
export function proratedStatement(
  basis: 'declared' | 'captured',
  partial: boolean,
): NonNullable<TenantRentStatement['statement']> {
  const rent = monthRent({ terms: KOPI_LEASE, sales: 150_000, days: 20, daysInMonth: 30, gstPercent: 9 });
  return {
    days_leased: 20,
    days_in_month: 30,
    partial,
    basis,
    sales: 150_000,
    base_rent: rent.base_rent,
    percentage_rent: rent.percentage_rent,
    turnover_rent: rent.turnover_rent,
    service_charge: rent.service_charge,
    gst_percent: 9,
    gst: rent.gst,
    total_due: rent.total_due,
    tiers: rent.tiers.map((tier) => ({ ...tier })),
    invoice_number: null,
  };
}

/** Kopi Corner's statement of April 2024 (the month it starts in, by the figures above). */
export function tenantStatement(basis: 'declared' | 'captured' = 'declared', partial = false): TenantRentStatement {
  return {
    month: '2024-04',
    outlet_id: 12,
    currency: 'SGD',
    lease: { ...KOPI_LEASE, start_date: '2024-04-11' },
    statement: proratedStatement(basis, partial),
  };
}

/** No lease of the outlet covers the month. */
export const NO_LEASE: TenantRentStatement = {
  month: '2024-01',
  outlet_id: 12,
  currency: 'SGD',
};

/** Client 3's bands as GET /api/occupancyBands answers them: the published F&B band, its own Fashion band, none for Services. */
export const BANDS: OccupancyBand[] = [
  { category: 'F&B', low_percent: 6, high_percent: 10, source: 'default' },
  { category: 'Fashion', low_percent: 12, high_percent: 16, source: 'client' },
  { category: 'Services', low_percent: null, high_percent: null, source: 'none' },
];
