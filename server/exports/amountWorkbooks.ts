import { COMPARE_RULE_LABELS } from '../../src/domain/comparisons.js';
import { amountRate, MALL_AMOUNT_LABELS, type MallAmountKind, mallAmountKpis } from '../../src/domain/mallAmounts.js';
import { workbookFileName } from '../../src/domain/reportWorkbooks.js';
import type { Queryable } from '../db/pool.js';
import { type CurrencyOf, mallAmounts } from '../reports/mallAnswers.js';
import type { ReportRange } from '../repositories/mallReports.js';
import type { ReportWorkbookQuery } from './reportWorkbooks.js';
import type { SheetCell, SheetSpec } from './workbook.js';
import {
  type BuiltWorkbook,
  cell,
  currencyText,
  filtersSheet,
  hoursText,
  keyFigureDays,
  kpiSheet,
  type WorkbookRequester,
  workbookNames,
  workbookSpecOf,
} from './workbookParts.js';
import { renderWorkbook } from './workbookRender.js';

/**
 * The Refunds and Voucher Redemption pages as workbooks (issue 34): the page's key figures, its days and its outlets,
 * then the filters. The figures are the page's operation's answers (mallAmounts, as GET /api/mall_report/refund and
 * voucher answer) shaped by the page's own rule (`mallAmountKpis`): the whole range's figures, and the growth over
 * its complete days (the malls' today left out, asked apart as the page asks it) against the days its comparison
 * chooses, so every cell equals what the page shows.
 */

/** The sheets' names. */
export const AMOUNT_WORKBOOK_SHEETS = ['Key figures', 'Daily', 'Outlets'] as const;

export async function buildAmountWorkbook(
  db: Queryable,
  currencyOf: CurrencyOf,
  requester: WorkbookRequester,
  kind: MallAmountKind,
  query: ReportWorkbookQuery,
  { now = new Date(), signal }: { now?: Date; signal?: AbortSignal } = {},
): Promise<BuiltWorkbook> {
  const { visibility } = requester;
  const mallIds = [...new Set(query.mall_ids)];
  const range: ReportRange = { start: query.start_time, end: query.end_time, startHour: 0, endHour: 23 };
  const { today, comparison } = await keyFigureDays(db, visibility, query, now);
  const completeDays = comparison?.todayLeftOut ? comparison.current : undefined;
  const [whole, complete, money, names] = await Promise.all([
    mallAmounts(db, currencyOf, visibility, query, range, kind),
    completeDays
      ? mallAmounts(db, currencyOf, visibility, query, { ...range, ...completeDays }, kind)
      : Promise.resolve(undefined),
    currencyOf(query.client_id, mallIds, range),
    workbookNames(db, visibility, query),
  ]);
  const kpis = mallAmountKpis(
    whole,
    comparison && { report: complete ?? whole, current: comparison.current, todayLeftOut: comparison.todayLeftOut },
  );
  const labels = MALL_AMOUNT_LABELS[kind];
  const [kpiName, dailyName, outletsName] = AMOUNT_WORKBOOK_SHEETS;
  const sheets: SheetSpec[] = [
    kpiSheet(kpiName, kpis, [
      [labels.amount, 'money', kpis.amount],
      [labels.count, 'count', kpis.count],
      [labels.rate, 'share', kpis.rate],
    ]),
    {
      name: dailyName,
      columns: [
        { header: 'Date', kind: 'date' },
        { header: labels.amount, kind: 'money' },
        { header: labels.count, kind: 'count' },
      ],
      rows: whole.daily.map((day) => [day.date, day.amount, day.count]),
    },
    {
      name: outletsName,
      columns: [
        { header: 'Rank', kind: 'count' },
        { header: 'Outlet ID', kind: 'number' },
        { header: 'Outlet', kind: 'text' },
        { header: 'Mall', kind: 'text' },
        { header: labels.amount, kind: 'money' },
        { header: labels.count, kind: 'count' },
        { header: labels.rate, kind: 'share' },
        { header: 'GMV', kind: 'money' },
        { header: 'Transactions', kind: 'count' },
      ],
      rows: whole.outlets.map((row, index) => [
        index + 1,
        row.outlet_id,
        row.outlet_name,
        row.mall_name,
        row.amount,
        row.count,
        cell('share', amountRate(row)),
        row.gmv,
        row.transactions,
      ]),
    },
  ];
  const likeForLike = (complete ?? whole).comparison?.like_for_like;
  const filters = { ...names, generatedAt: now, generatedBy: requester.email };
  const pageRows: SheetCell[][] = [
    ['Hours', cell('text', hoursText(0, 23))],
    ['Currency', cell('text', currencyText(money.currency, money.converted))],
    ['Comparison', cell('text', COMPARE_RULE_LABELS[query.compare ?? 'previous'])],
    ['Like for like', cell('text', query.like_for_like === true ? 'Yes' : 'No')],
    ...(likeForLike
      ? [
          ['Outlets kept', cell('count', likeForLike.kept)],
          ['Outlets left out', cell('count', likeForLike.left_out)],
        ]
      : []),
    ['Malls’ today (left out of the growth)', cell('date', today ?? null)],
  ];
  const spec = workbookSpecOf([...sheets, filtersSheet(query, filters, pageRows)], money.currency, filters);
  return {
    name: workbookFileName(kind === 'refund' ? 'refunds' : 'voucher_redemption', {
      start: query.start_time,
      end: query.end_time,
    }),
    bytes: await renderWorkbook(spec, signal ? { signal } : {}),
  };
}
