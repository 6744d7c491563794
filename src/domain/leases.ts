import { addDays, daysInRange, firstDayOfNextMonth } from './reports';

/**
 * Leases and turnover rent (issue 33): the rules a lease keeps, shared by the server (which refuses a lease that
 * breaks one, 400 naming the field) and the editor (which says so at the field), and the one rent rule both the
 * rent statements and the tenant's statement apply.
 *
 * The rent of a month, for a lease trading d of the month's D days:
 * - base rent and service charge are the lease's monthly amounts × d / D, each rounded to the cent;
 * - the tiers' thresholds are prorated alike: tier i covers the turnover from `from_i` × d / D to the next tier's;
 *   its rent is its rate × the part of the turnover s that falls in it, rounded to the cent, and the percentage
 *   rent P(s) is the sum of the tiers' rents (so the lines add up to it);
 * - turnover rent is what the turnover part adds to the base rent: `higher_of`, max(0, P(s) − base rent);
 *   `base_plus_overage`, P(s) (its first tier's `from` is the breakpoint);
 * - GST is (base rent + turnover rent + service charge) × the mall's GST percent, rounded to the cent, and the
 *   total due is that subtotal plus GST.
 * Amounts are whole cents in exact integers; rounding is half away from zero.
 */

export type TurnoverModel = 'higher_of' | 'base_plus_overage';

export interface RentTier {
  readonly from: number;
  readonly rate_percent: number;
}

export interface TurnoverRentTerms {
  readonly model: TurnoverModel;
  readonly tiers: readonly RentTier[];
}

export interface LeaseTerms {
  readonly start_date: string;
  readonly end_date: string;
  readonly gla_sqm: number;
  readonly base_rent: number;
  readonly service_charge: number;
  readonly turnover_rent: TurnoverRentTerms;
  readonly notice_date?: string | null;
  readonly renewal_date?: string | null;
}

export const TURNOVER_MODEL_LABELS: Readonly<Record<TurnoverModel, string>> = {
  higher_of: 'Higher of base or turnover',
  base_plus_overage: 'Base plus overage',
};

/** The rule of each model in words, on the pages and in the contract. */
export const TURNOVER_MODEL_RULES: Readonly<Record<TurnoverModel, string>> = {
  higher_of:
    'The higher of the base rent and the percentage rent: turnover rent is what the percentage rent adds to the base rent.',
  base_plus_overage:
    'Base rent plus the percentage rent of the turnover above the breakpoint (the first tier’s threshold).',
};

/** The longest lease, in years. */
export const MAX_LEASE_YEARS = 30;
/** The most tiers a lease has. */
export const MAX_TIERS = 10;

export const LEASE_MESSAGES = {
  endBeforeStart: 'The end date must be on or after the start date.',
  tooLong: `A lease runs at most ${MAX_LEASE_YEARS} years.`,
  tiersNotAscending: 'Each tier must start above the one before it.',
  firstTierOfHigherOf: 'The first tier of a higher-of lease starts at 0.',
  noticeAfterEnd: 'The notice date must be on or before the end date.',
  renewalBeforeStart: 'The renewal date must be on or after the start date.',
  overlapping: 'This outlet already has a lease in these dates.',
  otherOutlet: 'A lease stays with its outlet: end it and create one for the other outlet.',
  noSuchLease: 'No such lease.',
} as const;

/** A rule a lease breaks: the field it names and the message. */
export interface LeaseProblem {
  readonly field: string;
  readonly message: string;
}

/**
 * The first rule between fields the terms break (the schema has checked each field alone), undefined when none:
 * the end on or after the start and within 30 years of it; tiers strictly ascending by `from`, the first of a
 * `higher_of` lease at 0; the notice date on or before the end, the renewal date on or after the start.
 */
export function leaseProblem(terms: LeaseTerms): LeaseProblem | undefined {
  if (terms.end_date < terms.start_date) return { field: 'end_date', message: LEASE_MESSAGES.endBeforeStart };
  const [year, rest] = [Number(terms.start_date.slice(0, 4)), terms.start_date.slice(4)];
  if (terms.end_date >= `${year + MAX_LEASE_YEARS}${rest}`)
    return { field: 'end_date', message: LEASE_MESSAGES.tooLong };
  const tiers = terms.turnover_rent.tiers;
  for (let index = 1; index < tiers.length; index += 1) {
    const tier = tiers[index];
    const before = tiers[index - 1];
    if (tier && before && toCents(tier.from) <= toCents(before.from)) {
      return { field: `turnover_rent.tiers.${index}.from`, message: LEASE_MESSAGES.tiersNotAscending };
    }
  }
  if (terms.turnover_rent.model === 'higher_of' && toCents(tiers[0]?.from ?? 0) !== 0n) {
    return { field: 'turnover_rent.tiers.0.from', message: LEASE_MESSAGES.firstTierOfHigherOf };
  }
  if (terms.notice_date && terms.notice_date > terms.end_date) {
    return { field: 'notice_date', message: LEASE_MESSAGES.noticeAfterEnd };
  }
  if (terms.renewal_date && terms.renewal_date < terms.start_date) {
    return { field: 'renewal_date', message: LEASE_MESSAGES.renewalBeforeStart };
  }
  return undefined;
}

/** The days of `month` (YYYY-MM) a lease from `start` to `end` (both included) covers, and the month's days. */
export function leaseDaysInMonth(start: string, end: string, month: string): { days: number; daysInMonth: number } {
  const first = `${month}-01`;
  const last = addDays(firstDayOfNextMonth(month), -1);
  const daysInMonth = daysInRange(first, last);
  const from = start > first ? start : first;
  const to = end < last ? end : last;
  return { days: from > to ? 0 : daysInRange(from, to), daysInMonth };
}

/** A tier's line of a month's rent: its prorated bounds, the turnover in it and its rent. */
export interface TierLine {
  readonly from: number;
  /** The next tier's prorated threshold; null for the last tier. */
  readonly to: number | null;
  readonly rate_percent: number;
  readonly turnover: number;
  readonly rent: number;
}

export interface MonthRent {
  readonly base_rent: number;
  /** P(s): the sum of the tiers' rents. */
  readonly percentage_rent: number;
  readonly turnover_rent: number;
  readonly service_charge: number;
  readonly subtotal: number;
  readonly gst: number;
  readonly total_due: number;
  readonly tiers: readonly TierLine[];
}

export interface MonthRentInput {
  readonly terms: Pick<LeaseTerms, 'base_rent' | 'service_charge' | 'turnover_rent'>;
  /** The month's turnover the rent is computed on (a negative turnover counts as 0). */
  readonly sales: number;
  /** The days of the month the lease covers, and the month's days. */
  readonly days: number;
  readonly daysInMonth: number;
  readonly gstPercent: number;
}

/** An amount of 2 decimals as whole cents. */
export function toCents(amount: number): bigint {
  return BigInt(Math.round(amount * 100));
}

/** A percent of 2 decimals in hundredths of a percent (basis points). */
function toBasisPoints(percent: number): bigint {
  return BigInt(Math.round(percent * 100));
}

/** numerator / denominator (> 0) rounded half away from zero. */
function roundDivide(numerator: bigint, denominator: bigint): bigint {
  const negative = numerator < 0n;
  const magnitude = negative ? -numerator : numerator;
  const quotient = (magnitude * 2n + denominator) / (denominator * 2n);
  return negative ? -quotient : quotient;
}

const amount = (cents: bigint): number => Number(cents) / 100;

/** The month's rent of a lease by the rule above (module comment), line by line. */
export function monthRent(input: MonthRentInput): MonthRent {
  const d = BigInt(input.days);
  const D = BigInt(input.daysInMonth);
  const base = roundDivide(toCents(input.terms.base_rent) * d, D);
  const service = roundDivide(toCents(input.terms.service_charge) * d, D);
  const salesCents = toCents(input.sales);
  const scaledSales = (salesCents > 0n ? salesCents : 0n) * D;
  const tiers = input.terms.turnover_rent.tiers;
  const lines: TierLine[] = tiers.map((tier, index) => {
    const next = tiers[index + 1];
    const low = toCents(tier.from) * d;
    const high = next ? toCents(next.from) * d : undefined;
    const top = high === undefined || scaledSales < high ? scaledSales : high;
    const part = top > low ? top - low : 0n;
    const rent = roundDivide(part * toBasisPoints(tier.rate_percent), D * 10000n);
    return {
      from: amount(roundDivide(low, D)),
      to: high === undefined ? null : amount(roundDivide(high, D)),
      rate_percent: tier.rate_percent,
      turnover: amount(roundDivide(part, D)),
      rent: amount(rent),
    };
  });
  const percentage = lines.reduce((sum, line) => sum + toCents(line.rent), 0n);
  const turnover =
    input.terms.turnover_rent.model === 'higher_of' ? (percentage > base ? percentage - base : 0n) : percentage;
  const subtotal = base + turnover + service;
  const gst = roundDivide(subtotal * toBasisPoints(input.gstPercent), 10000n);
  return {
    base_rent: amount(base),
    percentage_rent: amount(percentage),
    turnover_rent: amount(turnover),
    service_charge: amount(service),
    subtotal: amount(subtotal),
    gst: amount(gst),
    total_due: amount(subtotal + gst),
    tiers: lines,
  };
}

/** Occupancy cost ratio: (rent + service charge, without GST) / sales × 100; null without sales. */
export function occupancyCostRatio(subtotal: number, sales: number): number | null {
  if (sales <= 0) return null;
  return Math.round((subtotal / sales) * 10000) / 100;
}

/** Sales per m² a year: the month's sales (of the days the lease covers) × 12 / GLA, 2 decimals. */
export function salesPerSqm(sales: number, glaSqm: number, days: number, daysInMonth: number): number | null {
  if (glaSqm <= 0 || days <= 0) return null;
  return Math.round(((sales * (daysInMonth / days) * 12) / glaSqm) * 100) / 100;
}

/** An occupancy cost band of a kind of outlet: the ratio (percent) a tenant of that kind usually pays. */
export interface OccupancyBand {
  readonly low_percent: number;
  readonly high_percent: number;
}

/**
 * The bands the industry publishes for common kinds of tenant, found by the outlet's category name: supermarkets
 * 1-5 %, food and beverage 6-10 %, fashion 10-15 %, fitness 15-25 %. A client sets its own per category.
 */
const DEFAULT_BANDS: readonly { readonly pattern: RegExp; readonly band: OccupancyBand }[] = [
  { pattern: /supermarket|grocer|hypermarket/i, band: { low_percent: 1, high_percent: 5 } },
  {
    pattern: /f\s*&\s*b|food|beverage|dessert|bakery|restaurant|caf[eé]|coffee|dining/i,
    band: { low_percent: 6, high_percent: 10 },
  },
  { pattern: /fashion|apparel|footwear|bags|clothing|jewel|watch/i, band: { low_percent: 10, high_percent: 15 } },
  { pattern: /fitness|gym|sport/i, band: { low_percent: 15, high_percent: 25 } },
];

/** The published band of an outlet category, or undefined when none is published for its kind. */
export function defaultOccupancyBand(category: string): OccupancyBand | undefined {
  return DEFAULT_BANDS.find((entry) => entry.pattern.test(category))?.band;
}

export type BandPosition = 'below' | 'within' | 'above';

/** Where an occupancy cost ratio falls against its band; null without a ratio or a band. */
export function bandPosition(ratio: number | null, band: OccupancyBand | undefined): BandPosition | null {
  if (ratio === null || band === undefined) return null;
  if (ratio < band.low_percent) return 'below';
  return ratio > band.high_percent ? 'above' : 'within';
}
