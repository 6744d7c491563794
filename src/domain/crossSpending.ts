import type { CsvFile } from './csv';
import type { CommittedFilters } from './filterHeader';
import { type OutletSelection, parsePositiveInt } from './filterOptions';
import { toFilterQuery, withReadableCommas } from './filterUrl';
import { type CurrencyFormat, formatDay, formatMoney, formatNumber } from './format';
import { type ClientOutlet, lookUpOutlet, mallOutletQuery } from './mallOutlet';
import type { ReportQuery } from './mallReportViews';
import { dayMark, type PeriodMark } from './periods';
import type { Period } from './reports';

/**
 * Cross spending (/shopper-connect/cross-spending): where the loyalty members who bought at the header's outlet
 * also spend in its mall, by outlet and by category; and its details (/shopper-connect/cross-spending/details,
 * `?other=<id>`): one other outlet of the mall day by day. Pure functions: the answers' shapes, what is empty, the
 * headlines, the links between the two pages, which pair the details page may ask for, the days as the chart and
 * table show them, and the CSV files.
 */

export const CROSS_SPENDING_PATH = '/shopper-connect/cross-spending';
export const CROSS_SPENDING_DETAILS_PATH = '/shopper-connect/cross-spending/details';
/** The details page's query key naming the other outlet of the pair. */
export const OTHER_OUTLET_KEY = 'other';

/** The '{what}' of the failure toasts (§8). */
export const CROSS_SPENDING_WHAT = 'Cross spending';
export const CROSS_SPENDING_DETAILS_WHAT = 'Cross spending details';

/** How many outlets the bar chart draws (the table lists every one the server gives, at most 50). */
export const TOP_OUTLETS_CHARTED = 10;

/* ---------------------------------------------------------------- the answers */

export interface CrossSpendingOutletRef {
  readonly outlet_id: number;
  readonly outlet_name: string;
  readonly mall_id: number;
  readonly mall_name: string;
  readonly category: string | null;
  /** The mall's currency (ISO 4217): every amount of the answer is in it. */
  readonly currency: string;
}

/** What the outlet's shoppers did at another outlet (or in a category) in the range. */
export interface CrossSpendingFigures {
  /** How many of the outlet's shoppers also bought there. */
  readonly shared_shoppers: number;
  /** shared_shoppers / the outlet's shoppers, in percent with 1 decimal. */
  readonly share_percent: number;
  /** What they spent there. */
  readonly spend: number;
  readonly visits: number;
}

export interface CrossSpendingOutletRow extends CrossSpendingFigures {
  readonly outlet_id: number;
  readonly outlet_name: string;
  readonly category: string | null;
}

export interface CrossSpendingCategoryRow extends CrossSpendingFigures {
  readonly category: string | null;
}

/** GET /api/mall_report/crossSpending. */
export interface CrossSpendingAnswer {
  readonly outlet: CrossSpendingOutletRef;
  /** Members who bought at the outlet in the range. */
  readonly shoppers: number;
  /** What they spent at the outlet in the range. */
  readonly spend: number;
  /** At most 50, most shared shoppers first. */
  readonly outlets: readonly CrossSpendingOutletRow[];
  readonly categories: readonly CrossSpendingCategoryRow[];
}

export interface CrossSpendingDay {
  readonly date: string;
  readonly shoppers: number;
  readonly visits: number;
  readonly spend: number;
}

/** GET /api/mall_report/crossSpending/details. */
export interface CrossSpendingPairAnswer {
  readonly outlet: CrossSpendingOutletRef;
  readonly other_outlet: CrossSpendingOutletRef;
  /** Members who bought at the outlet in the range. */
  readonly shoppers: number;
  /** Those of them who also bought at the other outlet in the range. */
  readonly shared_shoppers: number;
  /** Every day of the range, zeros included, oldest first. */
  readonly daily: readonly CrossSpendingDay[];
}

/** The details panel: the pair's figures, or the server's refusal of the pair (a 404: retrying will not help). */
export type CrossSpendingPairResult =
  | { readonly kind: 'pair'; readonly details: CrossSpendingPairAnswer }
  | { readonly kind: 'refused'; readonly message: string };

/** Nothing to show: no member bought at the outlet in the range. */
export function isCrossSpendingEmpty(answer: CrossSpendingAnswer): boolean {
  return answer.shoppers === 0;
}

/** Nothing to show of the pair: none of the outlet's shoppers bought at the other outlet in the range. */
export function isPairEmpty(result: CrossSpendingPairResult): boolean {
  return result.kind === 'pair' && result.details.shared_shoppers === 0;
}

/* ---------------------------------------------------------------- labels */

export const UNCATEGORISED = 'Uncategorised';

/** A category as the tables write it (an outlet without one: 'Uncategorised'). */
export function categoryLabel(category: string | null): string {
  return category ?? UNCATEGORISED;
}

/** A share the server gives in percent with 1 decimal: 12.5 → '12.5%'. */
export function formatSharePercent(percent: number): string {
  return `${(Number.isFinite(percent) ? percent : 0).toFixed(1)}%`;
}

const members = (count: number) => `${formatNumber(count)} ${count === 1 ? 'member' : 'members'}`;

/** 'from 9 Mar 2024 to 15 Mar 2024', or 'on 9 Mar 2024' for one day. */
export function rangeText(range: Period): string {
  return range.start === range.end
    ? `on ${formatDay(range.start)}`
    : `from ${formatDay(range.start)} to ${formatDay(range.end)}`;
}

/**
 * The page's headline: '12 members bought at Kopi Corner from 9 Mar 2024 to 15 Mar 2024; they spent $1,234.50
 * there.' ('No member bought at … .' when none did).
 */
export function crossSpendingHeadline(answer: CrossSpendingAnswer, range: Period, currency: CurrencyFormat): string {
  const where = `at ${answer.outlet.outlet_name} ${rangeText(range)}`;
  if (answer.shoppers === 0) return `No member bought ${where}.`;
  return `${members(answer.shoppers)} bought ${where}; they spent ${formatMoney(answer.spend, currency)} there.`;
}

/**
 * The details page's headline: '4 of the 12 members who bought at Kopi Corner from … also bought at Tea Time
 * (33.3%).' ('None of the 12 members …' when none did; 'No member bought at Kopi Corner …' without shoppers).
 */
export function pairHeadline(answer: CrossSpendingPairAnswer, range: Period): string {
  const outlet = answer.outlet.outlet_name;
  const other = answer.other_outlet.outlet_name;
  if (answer.shoppers === 0) return `No member bought at ${outlet} ${rangeText(range)}.`;
  const who = `${answer.shoppers === 1 ? 'the 1 member who' : `the ${formatNumber(answer.shoppers)} members who`}`;
  const bought = `bought at ${outlet} ${rangeText(range)}`;
  if (answer.shared_shoppers === 0) return `None of ${who} ${bought} also bought at ${other}.`;
  const share = formatSharePercent(Math.round((answer.shared_shoppers / answer.shoppers) * 1000) / 10);
  return `${formatNumber(answer.shared_shoppers)} of ${who} ${bought} also bought at ${other} (${share}).`;
}

/** The outlets the bar chart draws: the most shared shoppers first (ties in the server's order), at most `limit`. */
export function topOutletsBySharedShoppers(
  rows: readonly CrossSpendingOutletRow[],
  limit: number = TOP_OUTLETS_CHARTED,
): CrossSpendingOutletRow[] {
  return rows
    .map((row, index) => ({ row, index }))
    .sort((a, b) => b.row.shared_shoppers - a.row.shared_shoppers || a.index - b.index)
    .slice(0, limit)
    .map(({ row }) => row);
}

/** The categories, the most shared shoppers first. */
export function categoriesBySharedShoppers(rows: readonly CrossSpendingCategoryRow[]): CrossSpendingCategoryRow[] {
  return rows
    .map((row, index) => ({ row, index }))
    .sort((a, b) => b.row.shared_shoppers - a.row.shared_shoppers || a.index - b.index)
    .map(({ row }) => row);
}

/* ---------------------------------------------------------------- links */

type LinkFilters = Pick<CommittedFilters, 'clientId' | 'mallIds' | 'outlet' | 'dateRange'>;

/** The filter keys of a link: the client, malls, outlet and days of the page it is on, commas left readable. */
function filterSearch(filters: LinkFilters): string {
  return withReadableCommas(
    toFilterQuery({
      clientId: filters.clientId,
      mallIds: filters.mallIds,
      outlet: filters.outlet,
      dateRange: { start: filters.dateRange.start, end: filters.dateRange.end },
    }),
  );
}

/** The cross spending page, keeping the header's filters (the details page's link back). */
export function crossSpendingHref(filters: LinkFilters): string {
  const search = filterSearch(filters);
  return `${CROSS_SPENDING_PATH}${search === '' ? '' : `?${search}`}`;
}

/** The details of the header's outlet and `otherOutletId`, keeping the header's filters (its outlet and days). */
export function crossSpendingDetailsHref(otherOutletId: number, filters: LinkFilters): string {
  const search = filterSearch(filters);
  return `${CROSS_SPENDING_DETAILS_PATH}?${OTHER_OUTLET_KEY}=${otherOutletId}${search === '' ? '' : `&${search}`}`;
}

/** The `other` of an address's query (with or without '?'): its text as given, and the id when it is one. */
export function otherOutletOf(search: string): { readonly text: string | undefined; readonly id: number | undefined } {
  const text = new URLSearchParams(search.startsWith('?') ? search.slice(1) : search).get(OTHER_OUTLET_KEY);
  if (text === null) return { text: undefined, id: undefined };
  return { text, id: parsePositiveInt(text) };
}

/* ---------------------------------------------------------------- the pair the details page asks for */

/** Why the details page asks nothing for the pair of its address. */
export type PairRefusal =
  /** No `other` in the address. */
  | 'missing'
  /** `other` is not a positive whole number. */
  | 'invalid'
  /** No outlet the user sees in the client (the server would refuse it). */
  | 'notVisible'
  /** The header's outlet itself. */
  | 'same'
  /** An outlet of another mall: cross spending compares the outlets of one mall. */
  | 'otherMall'
  /** The server refused the pair (404). */
  | 'server';

export type OutletWithMall = ClientOutlet & { readonly mall_id: number };

export type PairLookup =
  /** The client's outlets are not known yet. */
  | { readonly kind: 'waiting' }
  /** The client's outlets could not be loaded. */
  | { readonly kind: 'failed' }
  /** The header has no single outlet chosen. */
  | { readonly kind: 'choose' }
  | {
      readonly kind: 'refused';
      readonly reason: PairRefusal;
      readonly outlet?: OutletWithMall;
      readonly other?: OutletWithMall;
    }
  | { readonly kind: 'found'; readonly outlet: OutletWithMall; readonly other: OutletWithMall };

/**
 * The pair of the header's outlet and the address's other outlet, among the client's outlets (`status`: how their
 * lookup stands). Only a pair of two different outlets of one mall, both the user's, is asked for.
 */
export function lookUpPair(
  selection: OutletSelection | undefined,
  other: { readonly text: string | undefined; readonly id: number | undefined },
  outlets: readonly ClientOutlet[],
  status: 'loading' | 'loaded' | 'failed',
): PairLookup {
  if (other.text === undefined) return { kind: 'refused', reason: 'missing' };
  if (other.id === undefined) return { kind: 'refused', reason: 'invalid' };
  const found = lookUpOutlet(other.id, outlets, [], status);
  if (found.kind === 'waiting' || found.kind === 'failed') return { kind: found.kind };
  if (typeof selection !== 'number') return { kind: 'choose' };
  const outlet = lookUpOutlet(selection, outlets, [], status);
  if (outlet.kind !== 'found') return { kind: 'choose' };
  if (found.kind === 'unknown') return { kind: 'refused', reason: 'notVisible', outlet: outlet.outlet };
  if (found.outlet.id === outlet.outlet.id) {
    return { kind: 'refused', reason: 'same', outlet: outlet.outlet, other: found.outlet };
  }
  if (found.outlet.mall_id !== outlet.outlet.mall_id) {
    return { kind: 'refused', reason: 'otherMall', outlet: outlet.outlet, other: found.outlet };
  }
  return { kind: 'found', outlet: outlet.outlet, other: found.outlet };
}

export const PAIR_REFUSED_TITLE = 'Outlet not available';

/** The title above the reason: 'No outlet to compare' for an address without one. */
export function pairRefusalTitle(reason: PairRefusal | undefined): string {
  return reason === 'missing' ? 'No outlet to compare' : PAIR_REFUSED_TITLE;
}

export const PAIR_OUTLETS_FAILED_MESSAGE = 'The outlets of this client could not be loaded. Please try again later.';

export const CHOOSE_OUTLET_MESSAGE = 'Choose an Outlet to see where its members also spend.';

/** Why the details page shows no figures for its pair. */
export function pairRefusalMessage(
  reason: PairRefusal,
  names: { readonly otherText?: string | undefined; readonly outlet?: string; readonly other?: string },
): string {
  const other = names.other ?? `Outlet ${names.otherText ?? ''}`;
  const outlet = names.outlet ?? 'the chosen outlet';
  switch (reason) {
    case 'missing':
      return 'No outlet to compare with: choose one of the outlets listed on Cross Spending.';
    case 'invalid':
      return `“${names.otherText ?? ''}” is not an outlet id.`;
    case 'notVisible':
      return `Outlet ${names.otherText ?? ''} is not one of the outlets you can see in this client.`;
    case 'same':
      return `${other} is the outlet chosen above: choose another outlet to compare it with.`;
    case 'otherMall':
      return `${other} is not in the mall of ${outlet}: cross spending compares the outlets of one mall.`;
    case 'server':
      return `There are no figures for ${outlet} and ${other}: the server does not know them as two outlets of one mall you can see.`;
  }
}

/** The details report's query: the pair over the header's days (the outlet's mall the only one). */
export interface CrossSpendingPairQuery extends ReportQuery {
  readonly outletId: number;
  readonly otherOutletId: number;
}

/** The query of a found pair; undefined without a client. */
export function pairQuery(
  filters: Pick<CommittedFilters, 'clientId' | 'dateRange'>,
  pair: { readonly outlet: OutletWithMall; readonly other: OutletWithMall },
  today: string | undefined,
): CrossSpendingPairQuery | undefined {
  const query = mallOutletQuery(filters, pair.outlet, today);
  return query && { ...query, outletId: pair.outlet.id, otherOutletId: pair.other.id };
}

/** The pair of a details report's query (told by the details page: it carries both outlets). */
export function pairOf(query: ReportQuery): { readonly outletId: number; readonly otherOutletId: number } {
  const { outletId } = query;
  const otherOutletId = (query as Partial<CrossSpendingPairQuery>).otherOutletId;
  if (outletId === undefined || otherOutletId === undefined) throw new Error('cross spending details: no pair');
  return { outletId, otherOutletId };
}

/* ---------------------------------------------------------------- the pair's days */

export interface PairDayRow extends CrossSpendingDay {
  /** The chart's label ('24/11', '25/11 (so far)') and whether the day is still open. */
  readonly mark: PeriodMark;
  /** 'Today, so far' for the day still open; '' otherwise. */
  readonly note: string;
}

export const TODAY_SO_FAR = 'Today, so far';

/** The days as the chart and the table show them: today's marked partial ('so far'). */
export function pairDays(
  daily: readonly CrossSpendingDay[],
  today: string | undefined,
  dayLabel: (date: string) => string,
): PairDayRow[] {
  return daily.map((day) => {
    const mark =
      today === undefined
        ? { label: dayLabel(day.date), partial: false, open: false }
        : dayMark(day.date, today, dayLabel);
    return { ...day, mark, note: mark.open ? TODAY_SO_FAR : '' };
  });
}

/** The range's totals at the other outlet: spend (to the cent) and visits summed over the days. */
export function pairTotals(daily: readonly CrossSpendingDay[]): { readonly spend: number; readonly visits: number } {
  const cents = daily.reduce((sum, day) => sum + Math.round(day.spend * 100), 0);
  return { spend: cents / 100, visits: daily.reduce((sum, day) => sum + day.visits, 0) };
}

/* ---------------------------------------------------------------- CSV */

export const OUTLETS_CSV_KEYS = [
  'outlet_id',
  'outlet_name',
  'category',
  'shared_shoppers',
  'share_percent',
  'spend',
  'visits',
] as const;

export const CATEGORIES_CSV_KEYS = ['category', 'shared_shoppers', 'share_percent', 'spend', 'visits'] as const;

export const PAIR_DAILY_CSV_KEYS = ['date', 'shoppers', 'visits', 'spend', 'note'] as const;

/** The other outlets as the table lists them (`outletId`: the outlet whose shoppers they are). */
export function crossSpendingOutletsCsv(outletId: number, rows: readonly CrossSpendingOutletRow[]): CsvFile {
  return {
    name: `cross_spending_${outletId}_outlets`,
    keys: OUTLETS_CSV_KEYS,
    rows: rows.map((row) => ({ ...row, category: categoryLabel(row.category) })),
  };
}

/** The categories as the table lists them. */
export function crossSpendingCategoriesCsv(outletId: number, rows: readonly CrossSpendingCategoryRow[]): CsvFile {
  return {
    name: `cross_spending_${outletId}_categories`,
    keys: CATEGORIES_CSV_KEYS,
    rows: rows.map((row) => ({ ...row, category: categoryLabel(row.category) })),
  };
}

/** The pair's days (today's noted 'Today, so far'). */
export function pairDailyCsv(
  pair: { readonly outletId: number; readonly otherOutletId: number },
  rows: readonly PairDayRow[],
): CsvFile {
  return {
    name: `cross_spending_${pair.outletId}_${pair.otherOutletId}_daily`,
    keys: PAIR_DAILY_CSV_KEYS,
    rows: rows.map(({ date, shoppers, visits, spend, note }) => ({ date, shoppers, visits, spend, note })),
  };
}
