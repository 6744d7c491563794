import type { CompareRule } from '../../src/domain/comparisons.js';
import { COMPARE_RULE_LABELS } from '../../src/domain/comparisons.js';
import { type MallHomeKpis, mallHomeKpis } from '../../src/domain/mallReportViews.js';
import { workbookFileName } from '../../src/domain/reportWorkbooks.js';
import type { Queryable } from '../db/pool.js';
import { type CurrencyOf, type MallGrowthReport, mallGrowth, mallScopeFor } from '../reports/mallAnswers.js';
import type { Visibility } from '../repositories/lookup.js';
import {
  type DailyRow,
  dailyReport,
  type GroupRow,
  groupReport,
  mallRanking,
  memberOverall,
  paymentMethodOverall,
  type ReportRange,
} from '../repositories/mallReports.js';
import type { SheetCell, SheetSpec, WorkbookSpec } from './workbook.js';
import {
  type BuiltWorkbook,
  cell,
  currencyText,
  dailySheet,
  FILTERS_SHEET,
  filtersSheet,
  hoursText,
  keyFigureDays,
  kpiSheet,
  outletsSheet,
  paymentsSheet,
  type WorkbookFilters,
  type WorkbookRequester,
  workbookNames,
  workbookSpecOf,
} from './workbookParts.js';
import { renderWorkbook } from './workbookRender.js';

/**
 * Mall Home as one workbook (issue 34, reports by e-mail; the Export page offers it too): its key figures, daily
 * rows, outlets and payment methods, one sheet a table, and a sheet of the filters they were made with. The
 * figures are the answers of the operations the page calls (the same repository functions, scope, currency and
 * comparison: server/reports/mallAnswers.ts), and the key figures are shaped by the page's own rule
 * (`mallHomeKpis`), so every cell equals what the page shows, to the cent. Mall Home has no hour picker: whole days.
 */

/** What the workbook is made of: the page's filters (whole days) and its comparison. */
export interface MallHomeWorkbookQuery {
  client_id: number;
  mall_ids: number[];
  start_time: string;
  end_time: string;
  compare?: CompareRule | undefined;
  like_for_like?: boolean | undefined;
}

/** Every payment method (the contract's most): the page's ten are the first rows. */
export const WORKBOOK_PAYMENT_METHOD_LIMIT = 100;

/** The page's answers, as its calls give them. */
export interface MallHomeAnswers {
  readonly kpis: MallHomeKpis;
  readonly daily: readonly DailyRow[];
  /** Every outlet, ranked by GMV (the page charts the first 10). */
  readonly outlets: readonly GroupRow[];
  readonly payments: readonly { payment_method: string; sum: number }[];
  /** The growth's answer: the complete days against the compared days; none without a complete day. */
  readonly growth: MallGrowthReport | undefined;
  /** The figures' currency (ISO 4217), and whether other currencies were converted to it. */
  readonly currency: string;
  readonly converted: boolean;
  /** The malls' today the growth leaves out (the header's today). */
  readonly today: string | undefined;
}

/**
 * Mall Home's answers for `query` as the page's calls give them: the malls' totals and members (the KPIs), the
 * growth of the complete days (the malls' today left out) against the days `compare` chooses, the daily rows, the
 * outlets and the payment methods. A rate missing for a converted report answers 409 as the page's calls do.
 */
export async function mallHomeAnswers(
  db: Queryable,
  currencyOf: CurrencyOf,
  visibility: Visibility,
  query: MallHomeWorkbookQuery,
  now: Date,
): Promise<MallHomeAnswers> {
  const mallIds = [...new Set(query.mall_ids)];
  const range: ReportRange = { start: query.start_time, end: query.end_time, startHour: 0, endHour: 23 };
  const { today, comparison } = await keyFigureDays(db, visibility, query, now);
  const scope = await mallScopeFor(db, currencyOf, visibility, query, range);
  const money = await currencyOf(query.client_id, mallIds, range);
  const [malls, members, growth, daily, outlets, payments] = await Promise.all([
    mallRanking(db, scope, range, 'gmv'),
    memberOverall(db, scope, range, 'daily', 'gmv'),
    comparison
      ? mallGrowth(db, currencyOf, visibility, query, {
          ...range,
          start: comparison.current.start,
          end: comparison.current.end,
        })
      : Promise.resolve(undefined),
    dailyReport(db, scope, range),
    groupReport(db, scope, range, 'outlet'),
    paymentMethodOverall(db, scope, range, WORKBOOK_PAYMENT_METHOD_LIMIT),
  ]);
  return {
    kpis: mallHomeKpis(comparison, { malls, members, growth }),
    daily,
    outlets,
    payments,
    growth,
    currency: money.currency,
    converted: money.converted,
    today,
  };
}

/** The sheets' names. */
export const MALL_HOME_SHEETS = {
  kpis: 'Key figures',
  daily: 'Daily',
  outlets: 'Outlets',
  payments: 'Payment methods',
  filters: FILTERS_SHEET,
} as const;

/** The workbook of Mall Home's answers: the page's tables, then the filters they were made with. */
export function mallHomeWorkbookSpec(
  query: MallHomeWorkbookQuery,
  answers: MallHomeAnswers,
  filters: WorkbookFilters,
): WorkbookSpec {
  const rule = answers.growth?.compare ?? query.compare ?? 'previous';
  const likeForLike = answers.growth?.like_for_like;
  const comparison = answers.kpis.comparison;
  const pageRows: SheetCell[][] = [
    ['Hours', cell('text', hoursText(0, 23))],
    ['Currency', cell('text', currencyText(answers.currency, answers.converted))],
    ['Comparison', cell('text', COMPARE_RULE_LABELS[rule])],
    ['Like for like', cell('text', query.like_for_like === true ? 'Yes' : 'No')],
    ...(likeForLike
      ? [
          ['Outlets kept', cell('count', likeForLike.kept)],
          ['Outlets left out', cell('count', likeForLike.left_out)],
        ]
      : []),
    ['Growth from', cell('date', comparison?.current.start ?? null)],
    ['Growth to', cell('date', comparison?.current.end ?? null)],
    ['Compared from', cell('date', comparison?.previous.start ?? null)],
    ['Compared to', cell('date', comparison?.previous.end ?? null)],
    ['Malls’ today (left out of the growth)', cell('date', answers.today ?? null)],
  ];
  const sheets: SheetSpec[] = [
    kpiSheet(MALL_HOME_SHEETS.kpis, answers.kpis, [
      ['GMV', 'money', answers.kpis.gmv],
      ['Transactions', 'count', answers.kpis.transactions],
      ['Average Transaction Value', 'money', answers.kpis.averageTransactionValue],
      ['Member Share', 'share', answers.kpis.memberShare],
    ]),
    dailySheet(MALL_HOME_SHEETS.daily, answers.daily),
    outletsSheet(MALL_HOME_SHEETS.outlets, answers.outlets),
    paymentsSheet(MALL_HOME_SHEETS.payments, answers.payments),
    filtersSheet(query, filters, pageRows),
  ];
  return workbookSpecOf(sheets, answers.currency, filters);
}

/** The download's name: 'mall-home_2026-03-02_2026-03-08.xlsx'. */
export function mallHomeWorkbookName(query: Pick<MallHomeWorkbookQuery, 'start_time' | 'end_time'>): string {
  return workbookFileName('mall_home', { start: query.start_time, end: query.end_time });
}

/**
 * Mall Home's workbook for `requester` as of `now`: the page's answers read on this thread (its database calls),
 * the .xlsx written in a worker thread (workbookRender.ts). What a scheduled mail attaches and the Export page
 * downloads.
 */
export async function buildMallHomeWorkbook(
  db: Queryable,
  currencyOf: CurrencyOf,
  requester: WorkbookRequester,
  query: MallHomeWorkbookQuery,
  { now = new Date(), signal }: { now?: Date; signal?: AbortSignal } = {},
): Promise<BuiltWorkbook> {
  const [answers, names] = await Promise.all([
    mallHomeAnswers(db, currencyOf, requester.visibility, query, now),
    workbookNames(db, requester.visibility, query),
  ]);
  const spec = mallHomeWorkbookSpec(query, answers, { ...names, generatedAt: now, generatedBy: requester.email });
  return { name: mallHomeWorkbookName(query), bytes: await renderWorkbook(spec, signal ? { signal } : {}) };
}
