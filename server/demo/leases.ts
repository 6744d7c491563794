import type { RentTier, TurnoverModel } from '../../src/domain/leases.js';
import { addMonths, dateOfDay, firstOfMonth } from './calendar.js';
import type { Random } from './random.js';
import type { OutletPlan } from './world.js';

/**
 * The demo's leases (issue 33): one per outlet, covering the whole demo, so that every rent statement has rows.
 * Both models, flat and tiered; most leases run a year or more past the demo's today, some end within six months
 * (the expiring list), most with a notice date six months before the end. Rents and service charges are set
 * against the outlet's average monthly GMV, so that turnover rent is sometimes above the base rent and sometimes not.
 */

export interface DemoLease {
  client_id: number;
  outlet_id: number;
  start_date: string;
  end_date: string;
  gla_sqm: number;
  base_rent: number;
  service_charge: number;
  turnover_model: TurnoverModel;
  turnover_tiers: RentTier[];
  notice_date: string | null;
  renewal_date: string | null;
}

/** Lettable area by the outlet's kind, m²: [smallest, largest]. */
function areaRange(category: string): [number, number] {
  if (/groceries/i.test(category)) return [600, 1_500];
  if (/f&b|food|beverage|dessert/i.test(category)) return [40, 180];
  if (/electronics|home/i.test(category)) return [100, 400];
  return [50, 250];
}

/** An amount rounded to the currency's step (IDR to 10,000, else to 10). */
function rounded(value: number, currency: string): number {
  const step = currency === 'IDR' ? 10_000 : 10;
  return Math.max(step, Math.round(value / step) * step);
}

/**
 * The outlet's lease: from the first month of the demo (or its opening) to `endMonths` months past the demo's
 * current month, rents from its average monthly GMV.
 */
export function demoLease(
  outlet: OutletPlan,
  ids: { clientId: number; outletId: number },
  averageGmv: number,
  span: { firstDay: number; currentMonth: number },
  random: Random,
): DemoLease {
  const currency = outlet.mall.currency;
  const start = firstOfMonth(Math.min(outlet.openedOn, span.firstDay));
  const endMonths = random.chance(0.15) ? random.int(1, 6) : random.int(9, 40);
  const end = addMonths(span.currentMonth, endMonths) - 1;
  const [small, large] = areaRange(outlet.category);
  const gla = Math.round(random.float(small, large) * 2) / 2;
  const base = rounded(averageGmv * random.float(0.05, 0.1), currency);
  const rate = Math.round(random.float(6, 12) * 2) / 2;
  let model: TurnoverModel;
  let tiers: RentTier[];
  if (random.chance(0.55)) {
    model = 'higher_of';
    tiers = random.chance(0.4)
      ? [
          { from: 0, rate_percent: rate },
          { from: rounded(averageGmv * random.float(1.1, 1.4), currency), rate_percent: rate + 2 },
        ]
      : [{ from: 0, rate_percent: rate }];
  } else {
    model = 'base_plus_overage';
    const breakpoint = rounded(averageGmv * random.float(0.7, 0.95), currency);
    tiers = random.chance(0.3)
      ? [
          { from: breakpoint, rate_percent: rate },
          { from: rounded(breakpoint * 1.5, currency), rate_percent: rate + 2 },
        ]
      : [{ from: breakpoint, rate_percent: rate }];
  }
  return {
    client_id: ids.clientId,
    outlet_id: ids.outletId,
    start_date: dateOfDay(start),
    end_date: dateOfDay(end),
    gla_sqm: gla,
    base_rent: base,
    service_charge: rounded(averageGmv * random.float(0.015, 0.035), currency),
    turnover_model: model,
    turnover_tiers: tiers,
    notice_date: random.chance(0.7) ? dateOfDay(addMonths(end + 1, -6) - 1) : null,
    renewal_date: random.chance(0.3) ? dateOfDay(addMonths(end + 1, -3) - 1) : null,
  };
}
