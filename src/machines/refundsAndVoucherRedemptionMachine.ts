import { type ApiClient, api } from '../api/client';
import { getMallAmountReport } from '../api/mallAmountReports';
import type { ChartAnnotation } from '../domain/chartAnnotations';
import {
  amountDays,
  amountOutletRows,
  MALL_AMOUNT_LABELS,
  type MallAmountDayRow,
  type MallAmountKind,
  type MallAmountKpis,
  type MallAmountOutletRow,
  type MallAmountReport,
  mallAmountKpis,
  noAmounts,
} from '../domain/mallAmounts';
import { mallHomeComparison, type ReportQuery } from '../domain/mallReportViews';
import { createQueryPageMachine } from './factories/queryPageMachine';
import { annotationsPanel } from './mallReportLoaders';

/**
 * The refunds and voucher redemption pages: one query page each (factories/queryPageMachine) with three panels,
 * the KPIs, the days and the outlets. The three read one answer of GET /api/mall_report/{kind} for the range,
 * asked once for them all (sharedCalls); the KPIs' growth, when the range reaches today, is over its complete days,
 * which the KPI panel asks apart (the server answers those days against as many days before them).
 */

export interface MallAmountPanels {
  readonly kpis: MallAmountKpis;
  readonly daily: readonly MallAmountDayRow[];
  readonly outlets: readonly MallAmountOutletRow[];
  /** The festivals, holidays and events the daily chart draws (none when their call fails). */
  readonly annotations: readonly ChartAnnotation[];
}

/**
 * One call shared by the loads that ask for the same key while it runs: the first asks, the others join it. Each
 * load keeps its own signal: the call is aborted only when every load that joined it has been aborted. A settled
 * call is forgotten, so a later load (a retry) asks again.
 */
export function sharedCalls<TKey, T>(
  call: (key: TKey, signal: AbortSignal) => Promise<T>,
): (key: TKey, signal: AbortSignal) => Promise<T> {
  const running = new Map<string, { promise: Promise<T>; controller: AbortController; loads: number }>();
  return (key, signal) => {
    if (signal.aborted) return Promise.reject(signal.reason);
    const id = JSON.stringify(key);
    let entry = running.get(id);
    if (!entry) {
      const controller = new AbortController();
      const started = { promise: call(key, controller.signal), controller, loads: 0 };
      const forget = () => {
        if (running.get(id) === started) running.delete(id);
      };
      started.promise.then(forget, forget);
      running.set(id, started);
      entry = started;
    }
    const joined = entry;
    joined.loads += 1;
    return new Promise<T>((resolve, reject) => {
      const leave = () => {
        joined.loads -= 1;
        if (joined.loads === 0) {
          joined.controller.abort();
          if (running.get(id) === joined) running.delete(id);
        }
        reject(signal.reason);
      };
      signal.addEventListener('abort', leave, { once: true });
      joined.promise.then(
        (value) => {
          signal.removeEventListener('abort', leave);
          resolve(value);
        },
        (error: unknown) => {
          signal.removeEventListener('abort', leave);
          reject(error);
        },
      );
    });
  };
}

export interface MallAmountMachineOptions {
  readonly kind: MallAmountKind;
  /** The api client (tests answer its network). */
  readonly client?: ApiClient;
}

/** The page machine of refunds or voucher redemption. */
export function createMallAmountMachine({ kind, client = api }: MallAmountMachineOptions) {
  const ask = (query: ReportQuery, signal: AbortSignal): Promise<MallAmountReport> =>
    getMallAmountReport(kind, query, { signal, client });
  /** The range's report: one call for the three panels. */
  const rangeReport = sharedCalls((query: ReportQuery, signal: AbortSignal) => ask(query, signal));

  /** The whole range's figures; the growth over its complete days (asked apart when today is left out). */
  const loadKpis = async (query: ReportQuery, signal: AbortSignal): Promise<MallAmountKpis> => {
    const comparison = mallHomeComparison(query);
    const completeDays = comparison?.todayLeftOut ? comparison.current : undefined;
    const [whole, complete] = await Promise.all([
      rangeReport(query, signal),
      completeDays ? ask({ ...query, ...completeDays }, signal) : Promise.resolve(undefined),
    ]);
    return mallAmountKpis(
      whole,
      comparison && {
        report: complete ?? whole,
        current: comparison.current,
        todayLeftOut: comparison.todayLeftOut,
      },
    );
  };

  return createQueryPageMachine<MallAmountPanels>({
    id: kind === 'refund' ? 'refundsReport' : 'voucherRedemptionReport',
    what: MALL_AMOUNT_LABELS[kind].what,
    comparisonInUrl: true,
    panels: {
      kpis: { load: loadKpis },
      daily: {
        load: async (query, signal) => amountDays((await rangeReport(query, signal)).daily, query.today),
        isEmpty: noAmounts,
      },
      outlets: {
        load: async (query, signal) => amountOutletRows((await rangeReport(query, signal)).outlets),
        isEmpty: (rows) => rows.length === 0,
      },
      annotations: annotationsPanel,
    },
  });
}

export const refundsMachine = createMallAmountMachine({ kind: 'refund' });
export const voucherRedemptionMachine = createMallAmountMachine({ kind: 'voucher' });
