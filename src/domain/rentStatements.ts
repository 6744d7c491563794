import { PROJECTION_METHOD } from './breakeven';
import { type CsvFile, type CsvNumeral, csvNumeral } from './csv';
import { toFilterQuery } from './filterUrl';
import {
  type CurrencyFormat,
  currencyFormat,
  formatDay,
  formatMoney,
  formatMonth,
  formatNumber,
  formatPercentage,
  formatPercentRange,
} from './format';
import { receiptsHrefOf } from './gto';
import { type BandPosition, TURNOVER_MODEL_LABELS, TURNOVER_MODEL_RULES, type TurnoverModel, toCents } from './leases';

/**
 * The rent statements (issue 33) as pure functions: what the staff's Rent Statements page shows of each lease's
 * month (the basis of its rent, the rent at stake, the flag and the projection in words, the totals per currency,
 * the links to the GTO review and the receipts, where each occupancy cost falls against its category's band and the
 * outlets outside theirs, the figures per mall, floor and category, the CSV rows) and what the tenant's Rent
 * Statement page says (the lease's terms and the month's rent line by line). The rent itself is the server's, by the
 * rule of leases.ts, and so are the bands and the groups' sums; nothing here adds amounts of different currencies.
 */

/* ---------------------------------------------------------------- shapes (the contract's, structurally) */

/** Which sales the rent due is computed on: the tenant's declaration, else the captured sales. */
export type RentBasis = 'declared' | 'captured';

/** A lease's month as GET /api/rentStatements gives it. */
export interface RentStatementRowLike {
  readonly lease_id: number;
  readonly outlet_id: number;
  readonly outlet_name: string;
  readonly mall_name: string;
  readonly category: string;
  readonly level: string;
  readonly currency: string;
  readonly model: TurnoverModel;
  readonly gla_sqm: number;
  readonly days_leased: number;
  readonly days_in_month: number;
  readonly partial: boolean;
  readonly basis: RentBasis;
  readonly sales_declared: number | null;
  readonly sales_captured: number;
  readonly sales_projected: number | null;
  readonly base_rent: number;
  readonly turnover_rent_declared: number | null;
  readonly turnover_rent_captured: number;
  readonly turnover_rent_projected: number | null;
  readonly rent_at_stake: number;
  readonly service_charge: number;
  readonly gst_percent: number;
  readonly gst: number;
  readonly total_due: number;
  readonly occupancy_cost_ratio: number | null;
  readonly sales_per_sqm: number | null;
  readonly flagged: boolean;
  readonly invoice_number: string | null;
  /** The occupancy cost band of the outlet's category (percent), both null without one. */
  readonly band_low_percent: number | null;
  readonly band_high_percent: number | null;
  /** Where the occupancy cost ratio falls against the band; null without a ratio or a band. */
  readonly band_position: BandPosition | null;
}

/** The rows of one mall, floor or category summed, in one currency, as GET /api/rentStatements gives them. */
export interface RentStatementGroupLike {
  readonly by: RentGroupBy;
  readonly key: string;
  readonly currency: string;
  readonly outlets: number;
  readonly sales: number;
  readonly occupancy_cost: number;
  readonly gla_sqm: number;
  readonly occupancy_cost_ratio: number | null;
  readonly sales_per_sqm: number | null;
}

/** A lease as the tenant's statement gives it. */
export interface LeaseLike {
  readonly currency: string;
  readonly gst_percent: number;
  readonly start_date: string;
  readonly end_date: string;
  readonly gla_sqm: number;
  readonly base_rent: number;
  readonly service_charge: number;
  readonly turnover_rent: {
    readonly model: TurnoverModel;
    readonly tiers: readonly { readonly from: number; readonly rate_percent: number }[];
  };
  readonly notice_date: string | null;
  readonly renewal_date: string | null;
}

/** The month's rent of the tenant's statement. */
export interface StatementLike {
  readonly days_leased: number;
  readonly days_in_month: number;
  readonly partial: boolean;
  readonly basis: RentBasis;
  readonly sales: number;
  readonly base_rent: number;
  readonly percentage_rent: number;
  readonly turnover_rent: number;
  readonly service_charge: number;
  readonly gst_percent: number;
  readonly gst: number;
  readonly total_due: number;
  readonly tiers: readonly {
    readonly from: number;
    readonly to: number | null;
    readonly rate_percent: number;
    readonly turnover: number;
    readonly rent: number;
  }[];
  readonly invoice_number: string | null;
}

/* ---------------------------------------------------------------- messages */

/** The '{what}' of the Rent Statements page's toasts ('Rent statements error occurs. Please try again later.'). */
export const RENT_STATEMENTS_WHAT = 'Rent statements';
/** The '{what}' of the tenant's Rent Statement page's toast. */
export const RENT_STATEMENT_WHAT = 'Rent statement fetching';
/** The tenant's page when no lease of the outlet covers the month. */
export const NO_LEASE_MESSAGE = 'No lease covers this month.';
/** The tenant's page before an outlet and a month are chosen. */
export const RENT_STATEMENT_CHOOSE_MESSAGE = 'Choose an Outlet and a month to see its rent statement.';

/** What each figure of the Rent Statements page is on. */
export const RENT_STATEMENTS_BASIS =
  'Rent due (turnover rent, GST, total due) is on the GTO the tenant declared, or on the sales captured from receipts where the month has no declaration. Rent at stake: the turnover rent on the captured sales less that on the declared GTO. Occupancy cost: base rent, turnover rent and service charge, without GST, over the captured sales; sales per m²: the captured sales at the month’s pace over a year, per m² of lettable area. A month the lease starts or ends in is prorated by its days leased.';

/* ---------------------------------------------------------------- the staff's rows */

const FORMATS = new Map<string, CurrencyFormat>();

/** An amount in its own currency, '$1,234.50' (each currency's format made once: a table of 300 rows draws many). */
export function money(value: number, currency: string): string {
  let format = FORMATS.get(currency);
  if (format === undefined) {
    format = currencyFormat(currency);
    FORMATS.set(currency, format);
  }
  return formatMoney(value, format);
}

/** The rows by the rent at stake, largest first (then by outlet name, then lease), as the page lists them. */
export function rowsByRentAtStake<T extends RentStatementRowLike>(rows: readonly T[]): T[] {
  return [...rows].sort(
    (a, b) =>
      b.rent_at_stake - a.rent_at_stake || a.outlet_name.localeCompare(b.outlet_name) || a.lease_id - b.lease_id,
  );
}

/** The basis of a row's rent due: 'Declared', or 'Captured (no declaration)'. */
export function basisLabel(basis: RentBasis): string {
  return basis === 'declared' ? 'Declared' : 'Captured (no declaration)';
}

/** The days of the month a lease covers: '20 of 30'. */
export function daysLeasedText(days: number, daysInMonth: number): string {
  return `${formatNumber(days)} of ${formatNumber(daysInMonth)}`;
}

/** A rate or threshold in percent as written: '8%', '7.5%'. */
export function rateText(percent: number): string {
  return `${formatNumber(percent)}%`;
}

/** A percentage the server gives in percent (the occupancy cost ratio): '12.5%'; '—' without one. */
export function percentFigure(percent: number | null): string {
  return percent === null ? '—' : formatPercentage(percent / 100);
}

/** An amount that may be missing: '—' without one. */
export function moneyOrDash(value: number | null, currency: string): string {
  return value === null ? '—' : money(value, currency);
}

/**
 * Why a row is flagged, with the client's threshold: 'Declared GTO 12.5% below the captured sales, beyond the 5%
 * threshold.'; undefined for a row not flagged.
 */
export function flaggedWording(
  row: Pick<RentStatementRowLike, 'flagged' | 'sales_declared' | 'sales_captured'>,
  thresholdPercent: number,
): string | undefined {
  if (!row.flagged) return undefined;
  const threshold = `beyond the ${rateText(thresholdPercent)} threshold.`;
  const declared = row.sales_declared;
  if (declared === null) return `Flagged: the declared GTO differs from the captured sales ${threshold}`;
  if (row.sales_captured === 0) return `Declared GTO against no captured sales, ${threshold}`;
  const ratio = (declared - row.sales_captured) / row.sales_captured;
  const side = ratio < 0 ? 'below' : 'above';
  return `Declared GTO ${formatPercentage(Math.abs(ratio))} ${side} the captured sales, ${threshold}`;
}

/** The rule the Flagged tag follows, with the client's threshold. */
export function rentFlagRule(thresholdPercent: number): string {
  return `Flagged: the declared GTO differs from the sales captured from receipts by more than ${rateText(thresholdPercent)}, either way.`;
}

/**
 * A partial row's projection in words: 'Partial month: projected sales $9,000.00, projected turnover rent
 * $620.00.'; undefined for a month that is over.
 */
export function partialWording(
  row: Pick<RentStatementRowLike, 'partial' | 'currency' | 'sales_projected' | 'turnover_rent_projected'>,
): string | undefined {
  if (!row.partial) return undefined;
  if (row.sales_projected === null) return 'Partial month: the figures are to date.';
  const rent =
    row.turnover_rent_projected === null
      ? ''
      : `, projected turnover rent ${money(row.turnover_rent_projected, row.currency)}`;
  return `Partial month: projected sales ${money(row.sales_projected, row.currency)}${rent}.`;
}

/** What the page says of a month not over: the figures are to date, and how the month end is projected. */
export function partialMonthNote(month: string): string {
  return `Partial: ${formatMonth(month)} is not over, so its figures are to date and each outlet’s month end is projected. ${PROJECTION_METHOD}`;
}

/** A currency's totals: its leases' amounts added, never with another currency's. */
export interface RentTotal {
  readonly currency: string;
  readonly leases: number;
  readonly flagged: number;
  readonly base_rent: number;
  readonly turnover_rent_declared: number;
  readonly turnover_rent_captured: number;
  readonly rent_at_stake: number;
  readonly service_charge: number;
  readonly gst: number;
  readonly total_due: number;
}

type SummedField = Exclude<keyof RentTotal, 'currency' | 'leases' | 'flagged'>;

const SUMMED: readonly SummedField[] = [
  'base_rent',
  'turnover_rent_declared',
  'turnover_rent_captured',
  'rent_at_stake',
  'service_charge',
  'gst',
  'total_due',
];

/** The totals per currency (by currency code), each added in whole cents. */
export function rentTotalsByCurrency(rows: readonly RentStatementRowLike[]): RentTotal[] {
  const totals = new Map<string, { leases: number; flagged: number; cents: Record<SummedField, bigint> }>();
  for (const row of rows) {
    const total = totals.get(row.currency) ?? {
      leases: 0,
      flagged: 0,
      cents: Object.fromEntries(SUMMED.map((field) => [field, 0n])) as Record<SummedField, bigint>,
    };
    total.leases += 1;
    if (row.flagged) total.flagged += 1;
    for (const field of SUMMED) total.cents[field] += toCents(row[field] ?? 0);
    totals.set(row.currency, total);
  }
  return [...totals.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([currency, total]) => ({
      currency,
      leases: total.leases,
      flagged: total.flagged,
      ...(Object.fromEntries(SUMMED.map((field) => [field, Number(total.cents[field]) / 100])) as Record<
        SummedField,
        number
      >),
    }));
}

/* ---------------------------------------------------------------- links */

/** A day after every month's days. */
const LAST_DAY = '9999-12-31';

/** The page where a month's declarations are reviewed. */
export const GTO_REVIEW_PATH = '/tenant-connect/gto-review';

/** The GTO review of the row's month, the client and the row's outlet in the address (the header's filters). */
export function gtoReviewHrefOf(row: Pick<RentStatementRowLike, 'outlet_id'>, month: string, clientId: number): string {
  return `${GTO_REVIEW_PATH}?${toFilterQuery({ clientId, outlet: row.outlet_id, month })}`;
}

/** The receipts of the row's outlet and month (to `today` while the month is open), as the receipts page reads them. */
export function rentReceiptsHrefOf(
  row: Pick<RentStatementRowLike, 'outlet_id'>,
  month: string,
  clientId: number,
  today: string | undefined,
): string {
  // Without the malls' today, the whole month: the receipts page fits the range to its own window.
  return receiptsHrefOf({ outlet_id: row.outlet_id, month }, clientId, today ?? LAST_DAY);
}

/* ---------------------------------------------------------------- occupancy cost bands */

/** What the page says of the bands: where they come from, and what a tenant outside its band may mean. */
export const OCCUPANCY_BANDS_NOTE =
  'Each category’s occupancy cost band is your own, else the one the industry publishes for its kind (supermarkets 1–5%, food and beverage 6–10%, fashion 10–15%, fitness 15–25%). A tenant above its band is at risk of leaving; below it, the rent may be under market.';

/** The panel of the outlets outside their band when every outlet with a band is within it. */
export const ALL_WITHIN_BANDS_MESSAGE = 'Every outlet with a band is within it.';

/** What a position outside the band may mean. */
export const BAND_MEANINGS: Readonly<Record<Exclude<BandPosition, 'within'>, string>> = {
  above: 'At risk of leaving',
  below: 'Rent may be under market',
};

export const POSITION_WORDS: Readonly<Record<BandPosition, string>> = {
  above: 'Above',
  within: 'Within',
  below: 'Below',
};

type BandFields = Pick<RentStatementRowLike, 'band_low_percent' | 'band_high_percent' | 'band_position'>;

/** The row's band: '6–10%'; undefined without one. */
export function bandText(row: BandFields): string | undefined {
  const { band_low_percent: low, band_high_percent: high } = row;
  return low === null || high === null ? undefined : formatPercentRange(low, high);
}

/**
 * Where the row's occupancy cost falls against its band: 'Above 6–10%', 'Within 6–10%', 'Below 6–10%'; the band
 * alone ('6–10%') for a row without a ratio (no sales); undefined without a band.
 */
export function bandWording(row: BandFields): string | undefined {
  const band = bandText(row);
  if (band === undefined) return undefined;
  return row.band_position === null ? band : `${POSITION_WORDS[row.band_position]} ${band}`;
}

/** How far a row's occupancy cost lies outside its band, in percentage points (0 within it or without one). */
function pointsOutside(row: Pick<RentStatementRowLike, 'occupancy_cost_ratio'> & BandFields): number {
  const ratio = row.occupancy_cost_ratio;
  if (ratio === null || row.band_low_percent === null || row.band_high_percent === null) return 0;
  if (row.band_position === 'above') return ratio - row.band_high_percent;
  if (row.band_position === 'below') return row.band_low_percent - ratio;
  return 0;
}

/** How far the row's occupancy cost lies outside its band: '1 point', '0.67 points' (percentage points). */
export function pointsOutsideText(row: Pick<RentStatementRowLike, 'occupancy_cost_ratio'> & BandFields): string {
  const points = Math.round(pointsOutside(row) * 100) / 100;
  return `${formatNumber(points)} ${points === 1 ? 'point' : 'points'}`;
}

/**
 * The outlets whose occupancy cost is outside their category's band: those above it first (at risk of leaving),
 * then those below it (rent may be under market), each side the furthest from its band first, then by outlet name.
 */
export function outsideBandRows<T extends RentStatementRowLike>(rows: readonly T[]): T[] {
  const side = (row: T) => (row.band_position === 'above' ? 0 : 1);
  return rows
    .filter((row) => row.band_position === 'above' || row.band_position === 'below')
    .sort(
      (a, b) =>
        side(a) - side(b) ||
        pointsOutside(b) - pointsOutside(a) ||
        a.outlet_name.localeCompare(b.outlet_name) ||
        a.lease_id - b.lease_id,
    );
}

/** What the page says of the rows in categories without a band ('2 outlets are in categories without a band.'). */
export function withoutBandNote(rows: readonly BandFields[]): string | undefined {
  const count = rows.filter((row) => bandText(row) === undefined).length;
  if (count === 0) return undefined;
  return count === 1
    ? '1 outlet is in a category without a band.'
    : `${formatNumber(count)} outlets are in categories without a band.`;
}

/* ---------------------------------------------------------------- per mall, floor and category */

/** What the rows are summed by. */
export type RentGroupBy = 'mall' | 'level' | 'category';

/** The choices of the groups panel, in the order offered, and what the first column is called in each. */
export const RENT_GROUP_CHOICES: readonly { readonly by: RentGroupBy; readonly label: string }[] = [
  { by: 'mall', label: 'Mall' },
  { by: 'level', label: 'Floor' },
  { by: 'category', label: 'Category' },
];

/** The name of a group's first column: 'Mall', 'Floor' or 'Category'. */
export function groupLabel(by: RentGroupBy): string {
  return RENT_GROUP_CHOICES.find((choice) => choice.by === by)?.label ?? by;
}

/** What the figures of the groups are on. */
export const RENT_GROUPS_NOTE =
  'Occupancy cost: base rent, turnover rent and service charge, without GST, over the sales (captured; projected to the month’s end while it is not over). Sales per m²: those sales over a year, per m² of lettable area. Each row is in one currency: a group with outlets in two currencies is two rows.';

/** The groups of one kind (every mall, every floor or every category), by name and then currency. */
export function groupRowsBy<T extends RentStatementGroupLike>(groups: readonly T[], by: RentGroupBy): T[] {
  return groups
    .filter((group) => group.by === by)
    .sort((a, b) => a.key.localeCompare(b.key) || a.currency.localeCompare(b.currency));
}

/* ---------------------------------------------------------------- CSV */

export const RENT_STATEMENTS_CSV_KEYS = [
  'outlet',
  'mall',
  'category',
  'level',
  'currency',
  'model',
  'lettable_area_square_metres',
  'days_leased',
  'days_in_month',
  'basis',
  'declared_gto',
  'captured_sales',
  'projected_sales',
  'base_rent',
  'turnover_rent_on_declared_gto',
  'turnover_rent_on_captured_sales',
  'projected_turnover_rent',
  'rent_at_stake',
  'service_charge',
  'gst_percent',
  'gst',
  'total_due',
  'occupancy_cost_percent',
  'occupancy_cost_band',
  'band_position',
  'annual_sales_per_square_metre',
  'flagged',
  'partial',
  'invoice_number',
] as const;

type RentCsvKey = (typeof RENT_STATEMENTS_CSV_KEYS)[number];

const figure = (value: number | null): CsvNumeral | '' => (value === null ? '' : csvNumeral(value.toFixed(2)));

/**
 * The CSV of the rows shown, in their order (the page names the file by its month: 'rent_statements_2026-03.csv').
 * Amounts are in each row's own currency, named in its Currency column, and are numerals; names and codes are
 * text, so a name a spreadsheet would run as a formula is not run. The band is written as the page shows it
 * ('6–10%'), with where the occupancy cost falls against it ('Above', 'Within', 'Below'; empty without either).
 */
export function rentStatementsCsv(rows: readonly RentStatementRowLike[]): CsvFile {
  return {
    name: 'rent_statements',
    keys: RENT_STATEMENTS_CSV_KEYS,
    rows: rows.map(
      (row): Record<RentCsvKey, string | number | CsvNumeral> => ({
        outlet: row.outlet_name,
        mall: row.mall_name,
        category: row.category,
        level: row.level,
        currency: row.currency,
        model: TURNOVER_MODEL_LABELS[row.model],
        lettable_area_square_metres: figure(row.gla_sqm),
        days_leased: row.days_leased,
        days_in_month: row.days_in_month,
        basis: basisLabel(row.basis),
        declared_gto: figure(row.sales_declared),
        captured_sales: figure(row.sales_captured),
        projected_sales: figure(row.sales_projected),
        base_rent: figure(row.base_rent),
        turnover_rent_on_declared_gto: figure(row.turnover_rent_declared),
        turnover_rent_on_captured_sales: figure(row.turnover_rent_captured),
        projected_turnover_rent: figure(row.turnover_rent_projected),
        rent_at_stake: figure(row.rent_at_stake),
        service_charge: figure(row.service_charge),
        gst_percent: figure(row.gst_percent),
        gst: figure(row.gst),
        total_due: figure(row.total_due),
        occupancy_cost_percent: figure(row.occupancy_cost_ratio),
        occupancy_cost_band: bandText(row) ?? '',
        band_position: row.band_position === null ? '' : POSITION_WORDS[row.band_position],
        annual_sales_per_square_metre: figure(row.sales_per_sqm),
        flagged: row.flagged ? 'Yes' : 'No',
        partial: row.partial ? 'Yes' : 'No',
        invoice_number: row.invoice_number ?? '',
      }),
    ),
  };
}

/* ---------------------------------------------------------------- the tenant's statement */

/** One of the lease's terms in words. */
export interface TermLine {
  readonly label: string;
  readonly text: string;
}

/** A tier of the lease's terms: '8% of the month’s turnover from $0.00 to $200,000.00'. */
function tierTerm(
  tier: { readonly from: number; readonly rate_percent: number },
  next: { readonly from: number } | undefined,
  breakpoint: boolean,
  currency: string,
): string {
  const from = `${money(tier.from, currency)}${breakpoint ? ' (the breakpoint)' : ''}`;
  const range = next === undefined ? `above ${from}` : `from ${from} to ${money(next.from, currency)}`;
  return `${rateText(tier.rate_percent)} of the month’s turnover ${range}`;
}

/** The lease's terms in words, as the tenant reads them. */
export function leaseTermsInWords(lease: LeaseLike): TermLine[] {
  const { currency } = lease;
  const { model, tiers } = lease.turnover_rent;
  return [
    { label: 'Term', text: `${formatDay(lease.start_date)} to ${formatDay(lease.end_date)}` },
    { label: 'Lettable area', text: `${formatNumber(lease.gla_sqm)} m²` },
    { label: 'Base rent', text: `${money(lease.base_rent, currency)} a month` },
    { label: 'Service charge', text: `${money(lease.service_charge, currency)} a month` },
    { label: 'Turnover rent', text: `${TURNOVER_MODEL_LABELS[model]}. ${TURNOVER_MODEL_RULES[model]}` },
    ...tiers.map((tier, index) => ({
      label: tiers.length === 1 ? 'Rate' : `Tier ${index + 1}`,
      text: tierTerm(tier, tiers[index + 1], model === 'base_plus_overage' && index === 0, currency),
    })),
    { label: 'GST', text: rateText(lease.gst_percent) },
    ...(lease.notice_date ? [{ label: 'Notice date', text: formatDay(lease.notice_date) }] : []),
    ...(lease.renewal_date ? [{ label: 'Renewal date', text: formatDay(lease.renewal_date) }] : []),
  ];
}

/**
 * A line of the month's rent: what it is and how it is computed, in words, and its amount. `kind` says how the
 * line reads: the sales the rent is on, a part of the rent, a tier of the percentage rent (a detail of it), or a
 * sum of the lines above.
 */
export interface StatementLine {
  readonly key: string;
  readonly text: string;
  readonly amount: number;
  readonly kind: 'sales' | 'rent' | 'tier' | 'sum';
}

/** The days a prorated amount covers: ', 20 of 30 days', or ', the whole month'. */
function daysPart(statement: Pick<StatementLike, 'days_leased' | 'days_in_month'>): string {
  return statement.days_leased === statement.days_in_month
    ? ', the whole month'
    : `, ${formatNumber(statement.days_leased)} of ${formatNumber(statement.days_in_month)} days`;
}

/** The sales line: which sales the rent is on, and whether the month is over. */
function salesText(statement: Pick<StatementLike, 'basis' | 'partial'>): string {
  const soFar = statement.partial ? ' so far' : '';
  return statement.basis === 'declared'
    ? `Sales declared${soFar} (GTO submission)`
    : `Sales captured from receipts${soFar} (no declaration)`;
}

/** A tier's line: '8% of $200,000.00 from $0.00 to $200,000.00'; the last tier 'above' its threshold. */
function tierText(tier: StatementLike['tiers'][number], currency: string): string {
  const range =
    tier.to === null
      ? `above ${money(tier.from, currency)}`
      : `from ${money(tier.from, currency)} to ${money(tier.to, currency)}`;
  return `${rateText(tier.rate_percent)} of ${money(tier.turnover, currency)} ${range}`;
}

/** How the turnover rent comes from the percentage rent, by the lease's model. */
function turnoverText(statement: StatementLike, model: TurnoverModel, currency: string): string {
  if (model === 'higher_of') {
    return `Turnover rent: the higher of the base rent (${money(statement.base_rent, currency)}) and the percentage rent (${money(statement.percentage_rent, currency)}), less the base rent`;
  }
  const breakpoint = statement.tiers[0]?.from ?? 0;
  return `Turnover rent: the percentage rent of the turnover above the breakpoint (${money(breakpoint, currency)})`;
}

/**
 * The month's rent line by line, in words: the sales it is on, the base rent (prorated by days), each tier of the
 * percentage rent, the percentage rent, the turnover rent by the lease's model, the service charge, the subtotal
 * without GST and the GST; then the total due.
 */
export function statementLines(
  statement: StatementLike,
  model: TurnoverModel,
  currency: string,
): { lines: StatementLine[]; total: StatementLine } {
  const prorated = statement.days_leased !== statement.days_in_month;
  const subtotalCents =
    toCents(statement.base_rent) + toCents(statement.turnover_rent) + toCents(statement.service_charge);
  const lines: StatementLine[] = [
    { key: 'sales', text: salesText(statement), amount: statement.sales, kind: 'sales' },
    { key: 'base_rent', text: `Base rent${daysPart(statement)}`, amount: statement.base_rent, kind: 'rent' },
    ...statement.tiers.map(
      (tier, index): StatementLine => ({
        key: `tier_${index + 1}`,
        text: tierText(tier, currency),
        amount: tier.rent,
        kind: 'tier',
      }),
    ),
    {
      key: 'percentage_rent',
      text: `Percentage rent: the sum of the tiers${prorated ? `, their thresholds prorated to ${formatNumber(statement.days_leased)} of ${formatNumber(statement.days_in_month)} days` : ''}`,
      amount: statement.percentage_rent,
      kind: 'sum',
    },
    {
      key: 'turnover_rent',
      text: turnoverText(statement, model, currency),
      amount: statement.turnover_rent,
      kind: 'rent',
    },
    {
      key: 'service_charge',
      text: `Service charge${daysPart(statement)}`,
      amount: statement.service_charge,
      kind: 'rent',
    },
    {
      key: 'subtotal',
      text: 'Rent and service charge, without GST',
      amount: Number(subtotalCents) / 100,
      kind: 'sum',
    },
    { key: 'gst', text: `GST ${rateText(statement.gst_percent)}`, amount: statement.gst, kind: 'rent' },
  ];
  return { lines, total: { key: 'total_due', text: 'Total due', amount: statement.total_due, kind: 'sum' } };
}

/** What the tenant's page says of a month without a declaration. */
export const NO_DECLARATION_NOTE =
  'No GTO was declared for this month: the rent is on the sales captured from your receipts.';

/** What the tenant's page says of a month not over. */
export const STATEMENT_PARTIAL_NOTE =
  'Partial: the month is not over, so this is the rent on the sales so far; it is final when the month ends.';

/** The tenant's statement's heading: 'Rent of March 2026'. */
export function statementTitle(month: string): string {
  return `Rent of ${formatMonth(month)}`;
}

/* ---------------------------------------------------------------- invoices */

/** What posting a month's invoices to Xero did, as its toast says it. */
export function invoicesPostedMessage(month: string, postedNow: number): string {
  const name = formatMonth(month);
  if (postedNow === 0)
    return `No new invoice for ${name}: every outlet's month was posted before or owes no turnover rent.`;
  return `${postedNow} turnover-rent ${postedNow === 1 ? 'invoice' : 'invoices'} for ${name} posted to Xero.`;
}

export const INVOICES_FAILED_MESSAGE = 'Post invoices failed.';
/** The button that posts the shown month's turnover-rent invoices. */
export const POST_INVOICES_TEXT = 'Post invoices to Xero';
