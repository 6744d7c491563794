/**
 * Exact money of converted reports, and its rounding for display (pure: no SQL, no I/O).
 *
 * A converted report multiplies each rollup row's cents by its month's rate in exact `numeric` (never float8), so
 * its sums come back as decimal text with fractions of a cent ('1234.5678900000'). They are read here into exact
 * integers (`Exact`: cents × 10^SCALE as a bigint) and rounded only at the end, for the answer: the rows of a
 * breakdown are rounded together by largest remainder (Hamilton), so their cents add up to the rounded total
 * (`apportion`), and a breakdown of a row (the hours of a day) to that row's cents. Whole cents (reports in one
 * currency) come out as they are.
 */

/** Decimal places of a cent an `Exact` keeps: more than any rate (numeric(20,10)) times cents (2 places) needs. */
const SCALE = 20;
const UNIT = 10n ** BigInt(SCALE);

/** An exact amount in units of 10^-SCALE cents. */
export type Exact = bigint;

/** Exact cents from decimal text as PostgreSQL writes numeric ('-12.5', '3', '0.0000000001'); null or '' is 0. */
export function exactCents(text: string | null | undefined): Exact {
  if (text === null || text === undefined || text === '') return 0n;
  const match = /^(-)?(\d*)(?:\.(\d*))?$/.exec(text.trim());
  if (!match) throw new Error(`exactCents: not a decimal number: ${text}`);
  const [, minus, whole = '', fraction = ''] = match;
  if (fraction.length > SCALE && /[1-9]/.test(fraction.slice(SCALE))) {
    throw new Error(`exactCents: more than ${SCALE} decimal places: ${text}`);
  }
  const units = BigInt(whole || '0') * UNIT + BigInt((fraction.slice(0, SCALE) || '0').padEnd(SCALE, '0'));
  return minus ? -units : units;
}

/** Whole cents as an Exact. */
export const wholeCents = (cents: bigint): Exact => cents * UNIT;

/** The largest whole number of cents at most `exact`. */
function floorCents(exact: Exact): bigint {
  const quotient = exact / UNIT;
  return exact < 0n && quotient * UNIT !== exact ? quotient - 1n : quotient;
}

/** `exact` rounded to whole cents, halves away from zero (as PostgreSQL's round(numeric)). */
export function roundCents(exact: Exact): bigint {
  const half = UNIT / 2n;
  return exact < 0n ? -((-exact + half) / UNIT) : (exact + half) / UNIT;
}

/** The sum of exact amounts. */
export const exactSum = (parts: readonly Exact[]): Exact => parts.reduce((sum, part) => sum + part, 0n);

/**
 * Whole cents for each of `parts` adding up to `total` (by default the parts' exact sum rounded): each part gets
 * its cents rounded down, and the cents left go one each to the parts with the largest fractions (ties: the
 * earlier part). With `total` within a cent of the parts' exact sum (the parent's own apportioned cents), each
 * part ends within a cent of its exact amount, a part of whole cents keeps them, and a larger part never gets
 * fewer cents than a smaller one.
 */
export function apportion(parts: readonly Exact[], total: bigint = roundCents(exactSum(parts))): bigint[] {
  const floors = parts.map(floorCents);
  if (parts.length === 0) return [];
  let left = total - floors.reduce((sum, cents) => sum + cents, 0n);
  if (left === 0n) return floors;
  const n = BigInt(parts.length);
  // A total further off than the parts' count (never with a parent's apportioned cents) spreads evenly first.
  const each = left >= 0n ? left / n : -((-left + n - 1n) / n);
  left -= each * n;
  const order = parts
    .map((part, index) => ({ index, fraction: part - wholeCents(floors[index] ?? 0n) }))
    .sort((a, b) => (a.fraction === b.fraction ? a.index - b.index : a.fraction > b.fraction ? -1 : 1));
  const cents = floors.map((floor) => floor + each);
  for (const { index } of order) {
    if (left === 0n) break;
    cents[index] = (cents[index] ?? 0n) + 1n;
    left -= 1n;
  }
  return cents;
}

/** Cents as the money number of an answer (123456n → 1234.56). */
export const money = (cents: bigint): number => Number(cents) / 100;

/** Average of `cents` over `count`, rounded to the cent (halves away from zero), as money; 0 without a count. */
export function averageMoney(cents: bigint, count: number): number {
  if (count === 0) return 0;
  const n = BigInt(count);
  const twice = (2n * (cents < 0n ? -cents : cents) + n) / (2n * n);
  return money(cents < 0n ? -twice : twice);
}

/**
 * Whole cents for parts in groups (the hours of each day): the groups (their parts' exact sums) are apportioned to
 * `total` (by default the exact sum of all rounded), then each group's parts to the group's cents. The groups' cents
 * are what a breakdown by group alone gives (`apportion` of the same sums), so a day has the same cents in a report
 * by day as in one by day and hour.
 */
export function apportionNested(groups: readonly (readonly Exact[])[], total?: bigint): bigint[][] {
  const sums = groups.map(exactSum);
  const groupCents = apportion(sums, total ?? roundCents(exactSum(sums)));
  return groups.map((parts, index) => apportion(parts, groupCents[index] ?? 0n));
}
