import { COMPARE_RULE_LABELS, type CompareRule } from './comparisons';
import type { CommittedFilters } from './filterHeader';
import { parsePositiveInt } from './filterOptions';
import { toFilterQuery, withReadableCommas } from './filterUrl';
import type { Kpi, KpiCsvRow, ReportQuery, SalesMeasures } from './mallReportViews';
import { type ComparisonMeta, completeDaysComparison, type GrowthComparison, withComparisonMeta } from './periods';
import type { Period } from './reports';

/**
 * The mall outlet page (/shopper-connect/mall-outlet/:id): one outlet of a mall, the outlet named by its path.
 * Which outlet that is among the client's, the page's query, its KPIs with their growth against the previous
 * period of equal length in whole weeks (§9), and its place among the outlets of its category and on its level.
 */

export const MALL_OUTLET_PATH = '/shopper-connect/mall-outlet';

/** An outlet of the client as the lookups give it. */
export interface ClientOutlet {
  readonly id: number;
  readonly name: string;
  readonly mall_id: number | null;
  readonly currency: string;
}

export interface ClientMall {
  readonly id: number;
  readonly name: string;
  readonly currency: string;
}

/** The outlet a path's id names: a positive whole number, or undefined. */
export function outletIdOf(text: string | undefined): number | undefined {
  return text === undefined ? undefined : parsePositiveInt(text);
}

/** The page of an outlet, keeping the client, the malls and the date range of the page it is opened from. */
export function mallOutletHref(
  outletId: number | string,
  filters: Pick<CommittedFilters, 'clientId' | 'mallIds' | 'dateRange'>,
): string {
  const query = toFilterQuery({
    clientId: filters.clientId,
    mallIds: filters.mallIds,
    dateRange: { start: filters.dateRange.start, end: filters.dateRange.end },
  });
  const search = withReadableCommas(query);
  return `${MALL_OUTLET_PATH}/${outletId}${search === '' ? '' : `?${search}`}`;
}

/** What the page knows of the outlet of its path, once the client's outlets are known. */
export type OutletLookup =
  /** The client or its outlets are not known yet. */
  | { readonly kind: 'waiting' }
  /** The client's outlets could not be loaded. */
  | { readonly kind: 'failed' }
  /** The id names no outlet of a mall that the user sees in the client. */
  | { readonly kind: 'unknown' }
  | {
      readonly kind: 'found';
      readonly outlet: ClientOutlet & { readonly mall_id: number };
      readonly mall?: ClientMall;
    };

/** The outlet of `outletId` among the client's outlets (`status`: how their lookup stands). */
export function lookUpOutlet(
  outletId: number | undefined,
  outlets: readonly ClientOutlet[],
  malls: readonly ClientMall[],
  status: 'loading' | 'loaded' | 'failed',
): OutletLookup {
  if (outletId === undefined) return { kind: 'unknown' };
  if (status === 'loading') return { kind: 'waiting' };
  if (status === 'failed') return { kind: 'failed' };
  const outlet = outlets.find((candidate) => candidate.id === outletId);
  if (!outlet || outlet.mall_id === null) return { kind: 'unknown' };
  const mallId = outlet.mall_id;
  const mall = malls.find((candidate) => candidate.id === mallId);
  return { kind: 'found', outlet: { ...outlet, mall_id: mallId }, ...(mall ? { mall } : {}) };
}

export const UNKNOWN_OUTLET_TITLE = 'Outlet not available';

/** Why the page shows no figures for the id of its path. */
export function unknownOutletMessage(idText: string): string {
  return outletIdOf(idText) === undefined
    ? `“${idText}” is not an outlet id.`
    : `Outlet ${idText} is not one of the outlets you can see in this client.`;
}

export const OUTLETS_FAILED_MESSAGE = 'The outlets of this client could not be loaded. Please try again later.';

/**
 * The page's query: the outlet over the header's date range, in whole days, its mall the only one (its peers and
 * its level are its mall's); undefined without a client.
 */
export function mallOutletQuery(
  filters: Pick<CommittedFilters, 'clientId' | 'dateRange'>,
  outlet: { readonly id: number; readonly mall_id: number },
  today: string | undefined,
): ReportQuery | undefined {
  if (filters.clientId === undefined) return undefined;
  return {
    clientId: filters.clientId,
    mallIds: [outlet.mall_id],
    start: filters.dateRange.start,
    end: filters.dateRange.end,
    startHour: 0,
    endHour: 23,
    timeRange: 'daily',
    metric: 'gmv',
    ...(today === undefined ? {} : { today }),
    outletId: outlet.id,
  };
}

/* ---------------------------------------------------------------- KPIs */

/** How the page names the previous period it compares with: the range moved back by whole weeks (§9). */
export const OUTLET_PREVIOUS_LABEL = 'Previous whole weeks';

/** How the page names a comparison rule ('Previous whole weeks', 'Same weekdays last year'). */
export function outletComparisonLabel(rule: CompareRule): string {
  return rule === 'previous' ? OUTLET_PREVIOUS_LABEL : COMPARE_RULE_LABELS[rule];
}

/** An answer of the outlet comparison call: the period's totals and those of the period it is compared with. */
export interface OutletComparison {
  readonly outlet: { readonly id: number; readonly name: string };
  readonly current: SalesMeasures;
  readonly previous: SalesMeasures;
  readonly previous_start_time: string;
  readonly previous_end_time: string;
  /** How the previous days were chosen (§9's whole weeks, unless the user chose last year). */
  readonly comparison?: ComparisonMeta;
}

/**
 * What the KPIs' growth compares: the range's complete days (today is still open and left out), or the whole
 * range when it ends before today; undefined when the range is today alone.
 */
export function outletGrowthDays(query: Pick<ReportQuery, 'start' | 'end' | 'today'>):
  | {
      readonly days: Period;
      readonly todayLeftOut: boolean;
    }
  | undefined {
  const range = { start: query.start, end: query.end };
  if (query.today === undefined) return { days: range, todayLeftOut: false };
  const comparison = completeDaysComparison(range, query.today);
  return comparison && { days: comparison.current, todayLeftOut: comparison.todayLeftOut };
}

export interface MallOutletKpis {
  readonly gmv: Kpi;
  readonly transactions: Kpi;
  readonly averageTransactionValue: Kpi;
  /** The periods the growth rates compare (the previous one moved back by whole weeks); none without a complete day. */
  readonly comparison: GrowthComparison | undefined;
  /** The range holds no sale at all: the figures say 'No Data' rather than zeros. */
  readonly noData: boolean;
}

/**
 * The KPIs: the whole range's figures, each with its growth over the compared days against the server's previous
 * period (`growth`: the answer for the compared days, absent when the range holds no complete day).
 */
export function mallOutletKpis(
  whole: OutletComparison,
  growth: { readonly answer: OutletComparison; readonly todayLeftOut: boolean } | undefined,
  comparedDays: Period | undefined,
): MallOutletKpis {
  const kpi = (pick: (measures: SalesMeasures) => number): Kpi => ({
    current: pick(whole.current),
    growth: growth && { current: pick(growth.answer.current), previous: pick(growth.answer.previous) },
  });
  return {
    gmv: kpi((measures) => measures.gmv),
    transactions: kpi((measures) => measures.transactions),
    averageTransactionValue: kpi((measures) => measures.average_transaction_value),
    noData: whole.current.transactions === 0 && whole.current.gmv === 0,
    comparison:
      growth && comparedDays
        ? withComparisonMeta(
            { current: comparedDays, previous: comparedDays, todayLeftOut: growth.todayLeftOut },
            { start: growth.answer.previous_start_time, end: growth.answer.previous_end_time },
            growth.answer.comparison,
          )
        : undefined,
  };
}

const periodText = (period: Period) => `${period.start} to ${period.end}`;

/** The KPIs as CSV rows (the mall home's columns): one measure a row, then the periods the growth compares. */
export function mallOutletKpiCsvRows(kpis: MallOutletKpis | undefined): KpiCsvRow[] {
  if (!kpis) return [];
  const { comparison } = kpis;
  const row = (measure: string, kpi: Kpi): KpiCsvRow => ({
    measure,
    current: kpi.current,
    compared_period: comparison ? periodText(comparison.current) : '',
    compared: kpi.growth ? kpi.growth.current : '',
    previous_period: comparison ? periodText(comparison.previous) : '',
    previous: kpi.growth ? kpi.growth.previous : '',
  });
  return [
    row('GMV', kpis.gmv),
    row('Transactions', kpis.transactions),
    row('Average Transaction Value', kpis.averageTransactionValue),
  ];
}

/* ---------------------------------------------------------------- peers and level */

/** An outlet ranked within its category (the category/outlet call's row). */
export interface CategoryOutletRow extends SalesMeasures {
  readonly category: string;
  readonly outlet_id: number;
  readonly outlet_name: string;
  readonly mall_id: number;
  readonly mall_name: string;
  readonly level: string;
  readonly rank: number;
  readonly category_outlets: number;
}

export interface LevelRow extends SalesMeasures {
  readonly level: string;
}

/** How many peers the page shows (the outlet's own row comes with them whatever its rank). */
export const PEERS_SHOWN = 10;

export interface PeerRow extends CategoryOutletRow {
  /** The page's outlet. */
  readonly current: boolean;
}

export interface OutletPlacement {
  readonly category: string;
  readonly rank: number;
  readonly categoryOutlets: number;
  /** The mall whose outlets of the category it is ranked among. */
  readonly mallName: string;
  /** The category's best outlets, and the page's outlet, by rank. */
  readonly peers: readonly PeerRow[];
  /** The outlet's level of its mall: its figures, and the outlet's share of its GMV (0–1). */
  readonly level: {
    readonly name: string;
    readonly gmv: number;
    readonly transactions: number;
    readonly share: number;
  };
}

/**
 * The outlet among its peers: its category's ranking and its level's figures. Undefined when the answer has no row
 * of the outlet (nothing to place it by).
 */
export function outletPlacement(
  outletId: number,
  peers: readonly CategoryOutletRow[],
  levels: readonly LevelRow[],
): OutletPlacement | undefined {
  const own = peers.find((row) => row.outlet_id === outletId);
  if (!own) return undefined;
  const level = levels.find((row) => row.level === own.level);
  const levelGmv = level?.gmv ?? 0;
  return {
    category: own.category,
    rank: own.rank,
    categoryOutlets: own.category_outlets,
    mallName: own.mall_name,
    peers: [...peers].sort((a, b) => a.rank - b.rank).map((row) => ({ ...row, current: row.outlet_id === outletId })),
    level: {
      name: own.level,
      gmv: levelGmv,
      transactions: level?.transactions ?? 0,
      share: levelGmv === 0 ? 0 : own.gmv / levelGmv,
    },
  };
}

/** What the rank is among: 'By GMV among the 5 F&B outlets of Central'. */
export function rankNote(placement: Pick<OutletPlacement, 'categoryOutlets' | 'category' | 'mallName'>): string {
  const outlets = placement.categoryOutlets === 1 ? 'outlet' : 'outlets';
  return `By GMV among the ${placement.categoryOutlets} ${placement.category} ${outlets} of ${placement.mallName}`;
}

/** The peers as CSV rows, as the table shows them. */
export const PEERS_CSV_KEYS = [
  'rank',
  'outlet',
  'level',
  'gmv',
  'transactions',
  'average_transaction_value',
  'this_outlet',
] as const;

export function peersCsvRows(
  placement: OutletPlacement | undefined,
): Record<(typeof PEERS_CSV_KEYS)[number], string | number>[] {
  return (placement?.peers ?? []).map((row) => ({
    rank: row.rank,
    outlet: row.outlet_name,
    level: row.level,
    gmv: row.gmv,
    transactions: row.transactions,
    average_transaction_value: row.average_transaction_value,
    this_outlet: row.current ? 'Yes' : '',
  }));
}
