import type { CsvFile } from './csv';
import { KPI_CSV_KEYS, type Kpi, type KpiCsvRow, kpiCsvRow } from './mallReportViews';
import {
  type ComparisonMeta,
  dayMark,
  type GrowthComparison,
  spanInYearOf,
  spanText,
  withComparisonMeta,
} from './periods';
import { type Period, percentOf, share } from './reports';

/**
 * The refunds and voucher redemption pages (/shopper-connect/refunds, /shopper-connect/voucher-redemption): one
 * report of the selected malls' days against as many days before them, read the same way for both kinds.
 *
 * - refunds: amount = the refunds of receipts that are not void, count = the receipts with a refund, rate = the
 *   refund amount as a share of GMV;
 * - vouchers: amount = the part of receipts paid with mall vouchers, count = the receipts that redeemed one (redeemed
 *   bills), rate = the share of GMV paid with vouchers.
 *
 * Pure functions: the labels of each kind, the KPIs and their growth, the days and outlets as the tables show
 * them, and the CSV files.
 */

export type MallAmountKind = 'refund' | 'voucher';

export const MALL_AMOUNT_KINDS: readonly MallAmountKind[] = ['refund', 'voucher'];

/* ---------------------------------------------------------------- the answer (GET /api/mall_report/{kind}) */

export interface MallAmountTotals {
  readonly amount: number;
  readonly count: number;
  readonly gmv: number;
  readonly transactions: number;
}

export interface MallAmountDay {
  /** `YYYY-MM-DD`, the malls' local day. */
  readonly date: string;
  readonly amount: number;
  readonly count: number;
}

export interface MallAmountOutlet extends MallAmountTotals {
  readonly outlet_id: number;
  readonly outlet_name: string;
  readonly mall_id: number;
  readonly mall_name: string;
}

export interface MallAmountReport {
  readonly current: MallAmountTotals;
  readonly previous: MallAmountTotals;
  /** The first and last days the server compared with (as many days just before the range, unless chosen). */
  readonly previous_start_time: string;
  readonly previous_end_time: string;
  /** How those days were chosen. */
  readonly comparison?: ComparisonMeta;
  /** Every day of the range, zeros included, oldest first. */
  readonly daily: readonly MallAmountDay[];
  /** The outlets with any amount or count, largest amount first (at most 100). */
  readonly outlets: readonly MallAmountOutlet[];
}

/* ---------------------------------------------------------------- labels */

export interface MallAmountLabels {
  /** The page (and its machine's) name, and the '{what}' of its failure toasts. */
  readonly what: string;
  /** The amount, the count and the rate as the KPIs, tables and charts name them. */
  readonly amount: string;
  readonly count: string;
  readonly rate: string;
  /** The title of the by-day and outlet blocks. */
  readonly byDay: string;
  readonly outlets: string;
  /** The CSV keys of the amount, count and rate columns (title-cased into the headers). */
  readonly keys: { readonly amount: string; readonly count: string; readonly rate: string };
  /** The name of the export's zip. */
  readonly base: string;
}

export const MALL_AMOUNT_LABELS: Readonly<Record<MallAmountKind, MallAmountLabels>> = {
  refund: {
    what: 'Refunds',
    amount: 'Refund Amount',
    count: 'Refund Transactions',
    rate: 'Refund Rate',
    byDay: 'Refunds by Day',
    outlets: 'Top Outlets by Refund Amount',
    keys: { amount: 'refund_amount', count: 'refund_transactions', rate: 'refund_rate_percent' },
    base: 'refunds',
  },
  voucher: {
    what: 'Voucher redemption',
    amount: 'Voucher Amount',
    count: 'Voucher Transactions',
    rate: 'Voucher Share of GMV',
    byDay: 'Voucher Redemption by Day',
    outlets: 'Top Outlets by Voucher Amount',
    keys: { amount: 'voucher_amount', count: 'voucher_transactions', rate: 'voucher_share_percent' },
    base: 'voucher_redemption',
  },
};

/* ---------------------------------------------------------------- KPIs */

/** The amount as a share (0–1) of GMV; 0 without GMV. */
export function amountRate(totals: Pick<MallAmountTotals, 'amount' | 'gmv'>): number {
  return share(totals.amount, totals.gmv);
}

export interface MallAmountKpis {
  readonly amount: Kpi;
  readonly count: Kpi;
  /** amountRate: 0–1. */
  readonly rate: Kpi;
  /** The periods the growth compares; undefined when the range holds no complete day. */
  readonly comparison: GrowthComparison | undefined;
  /** The range holds no sale at all: the figures say 'No Data' rather than zeros. */
  readonly noData: boolean;
}

/** What the growth compares: an answer for `current` (the range's complete days), with the days before it. */
export interface MallAmountGrowth {
  readonly report: Pick<
    MallAmountReport,
    'current' | 'previous' | 'previous_start_time' | 'previous_end_time' | 'comparison'
  >;
  readonly current: Period;
  /** The range reaches today, which is left out of `current`. */
  readonly todayLeftOut: boolean;
}

/**
 * The KPIs: the whole range's figures (today included), each with its growth over `growth`'s complete days against
 * the days the server compared them with (none without a complete day).
 */
export function mallAmountKpis(whole: Pick<MallAmountReport, 'current'>, growth?: MallAmountGrowth): MallAmountKpis {
  const now = whole.current;
  const kpi = (pick: (totals: MallAmountTotals) => number): Kpi => ({
    current: pick(now),
    growth: growth && { current: pick(growth.report.current), previous: pick(growth.report.previous) },
  });
  return {
    amount: kpi((totals) => totals.amount),
    count: kpi((totals) => totals.count),
    rate: kpi(amountRate),
    noData: now.amount === 0 && now.count === 0 && now.gmv === 0 && now.transactions === 0,
    comparison:
      growth &&
      withComparisonMeta(
        { current: growth.current, previous: growth.current, todayLeftOut: growth.todayLeftOut },
        { start: growth.report.previous_start_time, end: growth.report.previous_end_time },
        growth.report.comparison,
      ),
  };
}

/** The periods the growth rates compare, in words ('Growth: 9–14 Mar against 2–8 Mar; today is left out.'). */
export function comparisonNote(comparison: GrowthComparison | undefined): string | undefined {
  if (!comparison) return undefined;
  const { current, previous } = comparison;
  const note = `Growth: ${spanText(current.start, current.end)} against ${spanInYearOf(previous, current.end)}`;
  return comparison.todayLeftOut ? `${note}; today is left out until it is over.` : `${note}.`;
}

/* ---------------------------------------------------------------- by day */

export interface MallAmountDayRow extends MallAmountDay {
  /** The day as the table shows it: '2026-03-15 (so far)' when it is today. */
  readonly label: string;
  /** Still open (today): its figures will grow. */
  readonly partial: boolean;
}

/** The days as the table and the chart show them: today (when the range holds it) labelled 'so far'. */
export function amountDays(days: readonly MallAmountDay[], today: string | undefined): MallAmountDayRow[] {
  return days.map((day) => {
    const mark = today === undefined ? undefined : dayMark(day.date, today, (date) => date);
    return { ...day, label: mark?.label ?? day.date, partial: mark?.partial ?? false };
  });
}

/** No amount and no count on any day: nothing to show. */
export function noAmounts(days: readonly Pick<MallAmountDay, 'amount' | 'count'>[]): boolean {
  return days.every((day) => day.amount === 0 && day.count === 0);
}

/* ---------------------------------------------------------------- by outlet */

export interface MallAmountOutletRow {
  readonly outletId: number;
  readonly outlet: string;
  readonly mall: string;
  readonly amount: number;
  readonly count: number;
  /** amountRate of the outlet: 0–1. */
  readonly rate: number;
  readonly gmv: number;
}

/** The outlets as the table shows them, in the server's order (largest amount first). */
export function amountOutletRows(outlets: readonly MallAmountOutlet[]): MallAmountOutletRow[] {
  return outlets.map((row) => ({
    outletId: row.outlet_id,
    outlet: row.outlet_name,
    mall: row.mall_name,
    amount: row.amount,
    count: row.count,
    rate: amountRate(row),
    gmv: row.gmv,
  }));
}

/* ---------------------------------------------------------------- CSV */

/** The KPIs as CSV rows (KPI_CSV_KEYS): the range's figure, then the periods compared with their figures. */
export function amountKpiCsvRows(kind: MallAmountKind, kpis: MallAmountKpis | undefined): KpiCsvRow[] {
  if (!kpis) return [];
  const labels = MALL_AMOUNT_LABELS[kind];
  const row = (measure: string, kpi: Kpi, shown?: (value: number) => number) =>
    kpiCsvRow(kpis.comparison, measure, kpi, shown);
  return [
    row(labels.amount, kpis.amount),
    row(labels.count, kpis.count),
    // As the page shows it: a percentage to 1 decimal.
    row(`${labels.rate} (%)`, kpis.rate, percentOf),
  ];
}

/**
 * The page's CSV files: the KPIs, the days and the outlets shown (headers title-cased from the keys: 'Date, Refund
 * Amount, Refunded Receipts'). A panel without figures gives a file of headers only.
 */
export function mallAmountCsvFiles(
  kind: MallAmountKind,
  shown: {
    readonly kpis?: MallAmountKpis | undefined;
    readonly days?: readonly MallAmountDay[] | undefined;
    readonly outlets?: readonly MallAmountOutletRow[] | undefined;
  },
): CsvFile[] {
  const { keys } = MALL_AMOUNT_LABELS[kind];
  return [
    { name: 'kpis', keys: KPI_CSV_KEYS, rows: amountKpiCsvRows(kind, shown.kpis) },
    {
      name: 'daily',
      keys: ['date', keys.amount, keys.count],
      rows: (shown.days ?? []).map((day) => ({ date: day.date, [keys.amount]: day.amount, [keys.count]: day.count })),
    },
    {
      name: 'outlets',
      keys: ['outlet', 'mall', keys.amount, keys.count, keys.rate, 'gmv'],
      rows: (shown.outlets ?? []).map((row) => ({
        outlet: row.outlet,
        mall: row.mall,
        [keys.amount]: row.amount,
        [keys.count]: row.count,
        [keys.rate]: percentOf(row.rate),
        gmv: row.gmv,
      })),
    },
  ];
}
