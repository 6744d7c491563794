import { addMonths, dateOfDay, dayNumber } from './calendar.js';
import {
  type BrandSpec,
  CLIENTS,
  type ClientKey,
  FNB_BRANDS,
  MALLS,
  type MallSpec,
  NON_TRADING_REASONS,
  type Profile,
  RANGES,
  RETAIL_BRANDS,
} from './catalog.js';
import type { Country } from './festivalDays.js';
import { festivalSpansBetween } from './patterns.js';
import { itemAt, Random } from './random.js';

/** One planned SKU of an outlet. */
export interface SkuPlan {
  barcode: string;
  name: string;
  unitPrice: number;
  subcategory: string | undefined;
  /** How often it sells relative to the outlet's other SKUs. */
  weight: number;
}

/** One planned outlet, before it has a database id. */
export interface OutletPlan {
  mall: MallSpec;
  client: ClientKey;
  brand: BrandSpec;
  name: string;
  code: string;
  unitNo: string;
  level: string;
  type: 1 | 2;
  category: string;
  profile: Profile;
  openedOn: number;
  /** Relative number of receipts a day (on the last day of the demo). */
  popularity: number;
  /** How much busier it gets a year: 0.07 is 7 % more receipts than a year before. */
  growth: number;
  memberRate: number;
  /** The outlet's point-of-sale system prints no receipt number: receipt ids are bare Unix timestamps. */
  timestampIds: boolean;
  receiptFormat: 0 | 1 | 2;
  hasTables: boolean;
  skus: SkuPlan[];
  nonTradingDays: Map<number, NonTradingPlan>;
}

/** A day an outlet does not trade: why, and whether its tenant or the mall declared it, how many days before. */
export interface NonTradingPlan {
  reason: string;
  side: 'tenant' | 'mall';
  noticeDays: number;
}

export interface WorldPlan {
  /** The malls planned: the catalog's, each once, or several times for a benchmark at scale. */
  malls: readonly MallSpec[];
  start: number;
  /** Last day of receipts per mall key (yesterday in the mall's time zone unless an end date was given). */
  endByMall: Map<string, number>;
  end: number;
  outlets: OutletPlan[];
  /** Outlet, category and payment method names written out to 60 characters (the readability fixture). */
  longNames: boolean;
}

/**
 * Whole months of receipts before the month of the last day: two of each yearly festival, so that a year compares
 * with the year before it.
 */
export const DEMO_FULL_MONTHS = 26;

/** Each mall's yearly growth in receipts, about which its outlets' own rates spread. */
const MALL_GROWTH: Readonly<Record<Country, number>> = { SG: 0.06, MY: 0.075, ID: 0.09 };

/** The length a long-names world writes its names out to. */
export const LONG_NAME_LENGTH = 60;

const LONG_NAME_WORDS = 'of the Grand Atrium Collection Flagship Concept Store Annex Level Pavilion';

/** A name written out to exactly LONG_NAME_LENGTH characters (the readability fixture's names). */
export function longName(name: string): string {
  let long = name;
  for (const word of LONG_NAME_WORDS.split(' ')) {
    if (long.length >= LONG_NAME_LENGTH) break;
    long = `${long} ${word}`;
  }
  return long.padEnd(LONG_NAME_LENGTH, '.').slice(0, LONG_NAME_LENGTH);
}

/** A long name not yet used (two names can share their first 60 characters): numbered at its end when taken. */
function uniqueLongName(name: string, used: Set<string>): string {
  let long = longName(name);
  for (let copy = 2; used.has(long); copy += 1) {
    const suffix = ` ${copy}`;
    long = `${longName(name).slice(0, LONG_NAME_LENGTH - suffix.length)}${suffix}`;
  }
  used.add(long);
  return long;
}

/** A mall whose payment methods carry long names (the card methods too, so that card receipts still find them). */
function withLongMethodNames(mall: MallSpec): MallSpec {
  return {
    ...mall,
    paymentMethods: mall.paymentMethods.map(([method, weight]) => [
      method === '' || method === 'NONE' ? method : longName(method),
      weight,
    ]),
    cardMethods: mall.cardMethods.map(longName),
  };
}

/** Base transactions a day by profile and category: what makes a food court busier than a jeweller. */
function basePopularity(brand: BrandSpec): number {
  const byProfile: Record<Profile, number> = {
    quick: 1.7,
    cafe: 1.5,
    dessert: 1.2,
    restaurant: 1.0,
    grocery: 2.0,
    retail: 0.6,
  };
  const byCategory: Record<string, number> = {
    'Jewellery & Watches': 0.18,
    Electronics: 0.55,
    Beauty: 0.9,
    'Books & Toys': 0.8,
    Health: 1.1,
  };
  return byProfile[brand.profile] * (byCategory[brand.category] ?? 1);
}

function levelFor(brand: BrandSpec, random: Random): string {
  if (brand.type === 1) {
    if (brand.profile === 'restaurant') return random.pick(['L3', 'L3', 'L2', 'B1']);
    if (brand.profile === 'cafe') return random.pick(['L1', 'B1', 'L2']);
    return random.pick(['B1', 'B1', 'L3', 'L1']);
  }
  switch (brand.category) {
    case 'Supermarket':
    case 'Health':
      return random.pick(['B1', 'B1', 'L1']);
    case 'Fashion':
    case 'Beauty':
    case 'Jewellery & Watches':
      return random.pick(['L1', 'L1', 'L2']);
    default:
      return random.pick(['L2', 'L3', 'L2']);
  }
}

/** An EAN-13 with its check digit. */
function ean13(prefix: string, body: number): string {
  const digits = (prefix + String(body).padStart(12 - prefix.length, '0')).slice(0, 12);
  let sum = 0;
  for (let i = 0; i < 12; i++) sum += Number(digits[i]) * (i % 2 === 0 ? 1 : 3);
  return digits + String((10 - (sum % 10)) % 10);
}

function roundTo(value: number, step: number): number {
  const rounded = Math.round(value / step) * step;
  return Math.round(rounded * 100) / 100;
}

function planSkus(brand: BrandSpec, mall: MallSpec, outletIndex: number, random: Random): SkuPlan[] {
  const range = RANGES[brand.range];
  if (!range) throw new Error(`no product range '${brand.range}'`);
  const variants = range.variants ?? [];
  const candidates: { name: string; price: number; subcategory: string | undefined }[] = [];
  for (const [name, price, subcategory] of range.items) {
    if (variants.length === 0) candidates.push({ name, price, subcategory });
    else for (const variant of variants) candidates.push({ name: `${name} - ${variant}`, price, subcategory });
  }
  // Outlets of a brand carry most of its range, and their own prices.
  const chosen = random
    .shuffle(candidates)
    .slice(0, Math.max(6, Math.round(candidates.length * random.float(0.75, 1))));
  const priceFactor = random.float(0.9, 1.15);
  return chosen.map((candidate, rank) => ({
    barcode: ean13(mall.barcodePrefix, outletIndex * 10_000 + rank + 1),
    name: candidate.name,
    unitPrice: Math.max(mall.priceStep, roundTo(candidate.price * priceFactor * mall.priceScale, mall.priceStep)),
    subcategory: candidate.subcategory,
    weight: 1 / (rank + 1) ** 0.75,
  }));
}

function levelCode(level: string): string {
  return level === 'B1' ? 'B1' : `0${level.slice(1)}`;
}

/** F&B and retail outlets of a mall: the mall's own numbers, or `total` in the same proportion. */
function outletCounts(mall: MallSpec, total: number | undefined): { fnb: number; retail: number } {
  if (total === undefined) return { fnb: mall.fnbOutlets, retail: mall.retailOutlets };
  const fnb = Math.round((total * mall.fnbOutlets) / (mall.fnbOutlets + mall.retailOutlets));
  return { fnb, retail: total - fnb };
}

/** The first `count` brands, going round the list again (numbered copies: 'Brand 2') when it is shorter. */
function repeated<T extends { name: string }>(brands: readonly T[], count: number): (T & { copy: number })[] {
  return Array.from({ length: count }, (_, i) => ({
    ...itemAt(brands, i % brands.length),
    copy: Math.floor(i / brands.length) + 1,
  }));
}

/** What a world holds beyond the catalog's defaults (benchmarks and the readability fixture ask for more). */
export interface WorldOptions {
  /** Outlets in each mall (default: each mall's own numbers). */
  outletsPerMall?: number | undefined;
  /** Outlet, category and payment method names written out to 60 characters. */
  longNames?: boolean | undefined;
  /** Each catalog mall this many times (default 1): 10 gives a regional operator's 30 malls. */
  mallCopies?: number | undefined;
  /** Whole months of receipts before the last day's month (default DEMO_FULL_MONTHS). */
  fullMonths?: number | undefined;
}

/**
 * The catalog's malls, each `copies` times: a copy after the first is the same mall under a numbered key, name and
 * code ("Harbourfront Centre 2", HFC2), so that its outlets' codes and names stay unique within its client.
 */
export function demoMalls(copies: number): readonly MallSpec[] {
  if (!Number.isInteger(copies) || copies < 1)
    throw new Error(`mall copies must be a whole number >= 1, got ${copies}`);
  return Array.from({ length: copies }, (_, i) =>
    MALLS.map((mall) =>
      i === 0
        ? mall
        : {
            ...mall,
            key: `${mall.key}${i + 1}`,
            name: `${mall.name} ${i + 1}`,
            shortName: `${mall.shortName} ${i + 1}`,
            code: `${mall.code}${i + 1}`,
          },
    ),
  ).flat();
}

/**
 * Lays out the demo world: which brands each mall has, outlet codes and units, opening dates, popularity,
 * SKUs and non-trading days, and the date range of receipts.
 */
export function planWorld(seed: number, endByMall: Map<string, number>, options: WorldOptions = {}): WorldPlan {
  const { outletsPerMall, longNames = false } = options;
  const malls = demoMalls(options.mallCopies ?? 1);
  const end = Math.max(...endByMall.values());
  const start = addMonths(Math.min(...endByMall.values()), -(options.fullMonths ?? DEMO_FULL_MONTHS));
  const outlets: OutletPlan[] = [];
  const namesByClient = new Map<ClientKey, Set<string>>(CLIENTS.map((client) => [client.key, new Set<string>()]));
  let outletIndex = 0;
  const longNamesUsed = new Set<string>();

  for (const catalogMall of malls) {
    const mall = longNames ? withLongMethodNames(catalogMall) : catalogMall;
    const random = Random.derive(seed, 'mall', mall.key);
    const mallEnd = endByMall.get(mall.key) ?? end;
    const counts = outletCounts(mall, outletsPerMall);
    const brands = [
      ...repeated(random.shuffle(FNB_BRANDS), counts.fnb),
      ...repeated(random.shuffle(RETAIL_BRANDS), counts.retail),
    ];
    const unitsByLevel = new Map<string, number>();
    // Two outlets of each mall open during the year shown, so their first months show up as growth.
    const newcomers = new Set(random.shuffle(brands.map((_, i) => i)).slice(0, 2));
    brands.forEach((brand, i) => {
      outletIndex += 1;
      const level = levelFor(brand, random);
      const unit = (unitsByLevel.get(level) ?? 0) + 1;
      unitsByLevel.set(level, unit);
      const unitNo =
        mall.key === 'hfc'
          ? `#${levelCode(level)}-${String(unit).padStart(2, '0')}`
          : `${level}-${String(unit).padStart(2, '0')}`;
      const names = namesByClient.get(mall.client) ?? new Set<string>();
      namesByClient.set(mall.client, names);
      const base = brand.copy > 1 ? `${brand.name} ${brand.copy}` : brand.name;
      const plain = names.has(base) ? `${base} (${mall.shortName})` : base;
      const name = longNames ? uniqueLongName(plain, longNamesUsed) : plain;
      names.add(name);
      const openedOn = newcomers.has(i)
        ? mallEnd - random.int(60, 300)
        : dayNumber('2012-03-01') + random.int(0, start - dayNumber('2012-03-01') - 45);
      outlets.push({
        mall,
        client: mall.client,
        brand,
        name,
        code: `${mall.code}-${level}-${String(unit).padStart(2, '0')}`,
        unitNo,
        level,
        type: brand.type,
        category: brand.category,
        profile: brand.profile,
        openedOn,
        popularity: basePopularity(brand) * mall.traffic * Math.exp(random.gaussian() * 0.4),
        // From a stream of its own, so the rest of the world stays that of the seed.
        growth: MALL_GROWTH[mall.country] + Random.derive(seed, 'growth', mall.key, i).gaussian() * 0.03,
        memberRate: brand.type === 1 ? random.float(0.2, 0.4) : random.float(0.3, 0.55),
        timestampIds: random.chance(0.08),
        receiptFormat: random.pick([0, 1, 2] as const),
        hasTables: brand.type === 1 && brand.profile !== 'quick',
        skus: planSkus(brand, mall, outletIndex, random),
        nonTradingDays: new Map(),
      });
    });
  }
  planNonTradingDays(seed, outlets, start, end);
  return { malls, start, end, endByMall, outlets, longNames };
}

const PUBLIC_HOLIDAY_CLOSURE = 'Public holiday closure';

function planNonTradingDays(seed: number, outlets: OutletPlan[], start: number, end: number): void {
  for (const outlet of outlets) {
    const random = Random.derive(seed, 'closed', outlet.code);
    // Who declared each day and when comes from a generator of its own, so the days stay those of the seed.
    const declaring = Random.derive(seed, 'closed-by', outlet.code);
    const close = (day: number, reason: string, side: NonTradingPlan['side']) =>
      outlet.nonTradingDays.set(day, { reason, side, noticeDays: declaring.int(2, 30) });
    // Many shops close on the first one or two days of Chinese New Year, restaurants less often (families eat out);
    // the mall records the closures.
    const cnyClosing = outlet.mall.country === 'ID' ? 0.15 : outlet.type === 2 ? 0.45 : 0.12;
    for (const span of festivalSpansBetween(outlet.mall.country, 'Chinese New Year', start, end)) {
      if (!random.chance(cnyClosing)) continue;
      close(span.from, PUBLIC_HOLIDAY_CLOSURE, 'mall');
      if (span.to > span.from && random.chance(0.5)) close(span.from + 1, PUBLIC_HOLIDAY_CLOSURE, 'mall');
    }
    // Some renovate for a few days, some close for a stocktake or a private event.
    if (random.chance(0.1)) {
      const from = random.int(Math.max(start, outlet.openedOn + 30), end - 20);
      const length = random.int(3, 9);
      const side = declaring.chance(0.5) ? 'tenant' : 'mall';
      for (let day = from; day < from + length; day++) close(day, 'Renovation', side);
    }
    if (random.chance(0.25)) {
      const day = random.int(Math.max(start, outlet.openedOn + 1), end);
      const reason = random.pick(NON_TRADING_REASONS.filter((candidate) => candidate !== 'Renovation'));
      close(day, reason, reason === 'Mall maintenance' ? 'mall' : 'tenant');
    }
    // A few have declared a closure ahead.
    if (declaring.chance(0.12))
      close(end + declaring.int(3, 60), declaring.pick(['Renovation', 'Private event']), 'tenant');
  }
}

/**
 * The demo tenants' outlets (`outlets`) did not trade on a day of the last week (declared by the tenant), one of the
 * weeks before (by the mall), and will close for a day ahead: their sales review has days to mark.
 */
export function planAccountClosures(seed: number, world: WorldPlan, outlets: readonly OutletPlan[]): void {
  for (const outlet of outlets) {
    const random = Random.derive(seed, 'account closures', outlet.code);
    const last = world.endByMall.get(outlet.mall.key) ?? world.end;
    const plans: [number, NonTradingPlan][] = [
      [last - random.int(1, 5), { reason: 'Private event', side: 'tenant', noticeDays: random.int(3, 14) }],
      [last - random.int(9, 20), { reason: 'Mall maintenance', side: 'mall', noticeDays: random.int(5, 20) }],
      [last + random.int(10, 40), { reason: 'Renovation', side: 'tenant', noticeDays: random.int(30, 45) }],
    ];
    for (const [day, plan] of plans) outlet.nonTradingDays.set(day, plan);
  }
}

/** A description of the world for logs. */
export function describeWorld(world: WorldPlan): string {
  const fnb = world.outlets.filter((outlet) => outlet.type === 1).length;
  return (
    `${world.malls.length} malls, ${world.outlets.length} outlets (${fnb} F&B, ${world.outlets.length - fnb} retail), ` +
    `receipts from ${dateOfDay(world.start)} to ${dateOfDay(world.end)}`
  );
}
