import type { Department } from '../../src/domain/breakeven.js';
import type { CompareRule } from '../../src/domain/comparisons.js';
import type { Metric, TimeRange } from '../../src/domain/dateLimits.js';
import { metricLabel, timeRangeLabel } from '../../src/domain/filterOptions.js';
import {
  paymentBuckets,
  peakHoursNeedsBuckets,
  peakHoursView,
  type ReportQuery,
  WEEKDAYS,
} from '../../src/domain/mallReportViews.js';
import { reportWorkbook, type WorkbookPage, workbookFileName } from '../../src/domain/reportWorkbooks.js';
import type { Queryable } from '../db/pool.js';
import { type CurrencyOf, mallScopeFor } from '../reports/mallAnswers.js';
import {
  dailyReport,
  groupReport,
  memberOutletRanking,
  memberOverall,
  monthlyReport,
  paymentMethodOverall,
  peakHours,
  type ReportRange,
  type ReportScope,
} from '../repositories/mallReports.js';
import { buildAmountWorkbook } from './amountWorkbooks.js';
import { buildBreakevenWorkbook } from './breakevenWorkbook.js';
import { buildCrossSpendingDetailsWorkbook, buildCrossSpendingWorkbook } from './crossSpendingWorkbook.js';
import { buildGrossTurnoverWorkbook } from './grossTurnoverWorkbook.js';
import { buildGtoReviewWorkbook } from './gtoReviewWorkbook.js';
import { buildMallHomeWorkbook, WORKBOOK_PAYMENT_METHOD_LIMIT } from './mallHomeWorkbook.js';
import { buildMallOutletWorkbook } from './mallOutletWorkbook.js';
import { buildRentStatementsWorkbook } from './rentStatementsWorkbook.js';
import { buildSalesAnalysisWorkbook } from './salesAnalysisWorkbook.js';
import { buildSalesReviewWorkbook } from './salesReviewWorkbook.js';
import { buildSalesTrendsWorkbook } from './salesTrendsWorkbook.js';
import { buildTenantRentStatementWorkbook } from './tenantRentStatementWorkbook.js';
import type { CellKind, SheetCell, SheetSpec } from './workbook.js';
import {
  type BuiltWorkbook,
  cell,
  currencyText,
  dailySheet,
  filtersSheet,
  hoursText,
  measureCells,
  measureColumns,
  outletsSheet,
  paymentsSheet,
  type WorkbookRequester,
  workbookNames,
  workbookSpecOf,
} from './workbookParts.js';
import { renderWorkbook } from './workbookRender.js';

/**
 * The report pages' workbooks besides Mall Home's (issue 34: any report page's data as one workbook, mailed by a
 * subscription or downloaded from the Export page): Mall GMV, Mall Peak Hours, Mall Payment Methods and Member vs
 * Non-member. Each reads the answers of the operations its page calls (the same repository functions, scope and
 * currency as server/routes/mallReports.ts) and shapes them by the page's own rules (src/domain/mallReportViews),
 * so every cell equals what the page shows; one sheet a table, then the filters sheet.
 */

/** A page's filters as its operations take them; hours, time range and metric only where the page has them. */
export interface ReportWorkbookQuery {
  client_id: number;
  mall_ids: number[];
  start_time: string;
  end_time: string;
  start_hour?: number | undefined;
  end_hour?: number | undefined;
  time_range?: TimeRange | undefined;
  metric?: Metric | undefined;
  /** The comparison of the pages with key figures (Mall Home, Refunds, Voucher Redemption, Mall Outlet). */
  compare?: CompareRule | undefined;
  like_for_like?: boolean | undefined;
  /**
   * The outlet of an outlet page (Sales Review's, Cross Spending's, Sales Analysis', Mall Outlet's of its path's id,
   * the tenant's Gross Turnover's and Rent Statement's), which the caller was checked to see.
   */
  outlet_id?: number | undefined;
  /** The second outlet of a page of a pair (Cross Spending Details' other outlet). */
  other_outlet_id?: number | undefined;
  /** The department of a breakeven page's targets: Marcom's page reads Marcom's; the other page this one's. */
  department?: Department | undefined;
}

/** The sheets' names of each page. */
export const REPORT_WORKBOOK_SHEETS = {
  mall_gmv: ['Daily', 'Monthly', 'Outlets', 'Categories', 'Levels'],
  peak_hours: ['Heat map', 'Over time', 'Day and hour'],
  payment_methods: ['Payment methods', 'Over time'],
  member: ['Members over time', 'Member outlets', 'Non-member outlets'],
} as const;

/** The top outlets a member ranking lists, as the page ranks them. */
const MEMBER_OUTLETS = 10;
/** The top methods of each period of the payment methods over time, as the page charts them. */
const PAYMENTS_PER_PERIOD = 5;

/** What a page's sheets are made from: the caller's scope in one currency, and the filters. */
interface PageInput {
  readonly db: Queryable;
  readonly scope: ReportScope;
  readonly range: ReportRange;
  readonly timeRange: TimeRange;
  readonly metric: Metric;
}

/** The kind of a cell holding `metric`: money for GMV and the average transaction value, else a count. */
const metricKind = (metric: Metric): CellKind => (metric === 'transactions' ? 'count' : 'money');
/** An average of `metric` over days (a heat map's cell): money, or a number with decimals for transactions. */
const averageKind = (metric: Metric): CellKind => (metric === 'transactions' ? 'number' : 'money');

async function mallGmvSheets({ db, scope, range }: PageInput): Promise<SheetSpec[]> {
  const [daily, monthly, outlets, categories, levels] = await Promise.all([
    dailyReport(db, scope, range),
    monthlyReport(db, scope, range),
    groupReport(db, scope, range, 'outlet'),
    groupReport(db, scope, range, 'category'),
    groupReport(db, scope, range, 'level'),
  ]);
  const [dailyName, monthlyName, outletsName, categoriesName, levelsName] = REPORT_WORKBOOK_SHEETS.mall_gmv;
  const grouped = (name: string, header: string, rows: typeof categories): SheetSpec => ({
    name,
    columns: measureColumns({ header, kind: 'text' }),
    rows: rows.map((row) => [row.key, ...measureCells(row)]),
  });
  return [
    dailySheet(dailyName, daily),
    {
      name: monthlyName,
      columns: [
        { header: 'Month', kind: 'text' },
        { header: 'GMV', kind: 'money' },
        { header: 'Transactions', kind: 'count' },
      ],
      rows: monthly.map((row) => [row.month, row.gmv, row.transactions]),
    },
    outletsSheet(outletsName, outlets),
    grouped(categoriesName, 'Category', categories),
    grouped(levelsName, 'Level', levels),
  ];
}

async function peakHoursSheets({ db, scope, range, timeRange, metric }: PageInput): Promise<SheetSpec[]> {
  const bucketed = peakHoursNeedsBuckets(timeRange);
  const [gmvCells, transactionCells, gmvBuckets, transactionBuckets] = await Promise.all([
    peakHours(db, scope, range, 'daily', 'gmv'),
    peakHours(db, scope, range, 'daily', 'transactions'),
    bucketed ? peakHours(db, scope, range, timeRange, 'gmv') : Promise.resolve(undefined),
    bucketed ? peakHours(db, scope, range, timeRange, 'transactions') : Promise.resolve(undefined),
  ]);
  const query: ReportQuery = {
    clientId: scope.clientId,
    mallIds: [...(scope.mallIds ?? [])],
    start: range.start,
    end: range.end,
    startHour: range.startHour,
    endHour: range.endHour,
    timeRange,
    metric,
  };
  const view = peakHoursView(query, { gmvCells, transactionCells, gmvBuckets, transactionBuckets });
  const hourHeader = (hour: number) => `${String(hour).padStart(2, '0')}:00`;
  const transactionsOf = new Map(transactionCells.map((row) => [`${row.period} ${row.hour}`, row.value]));
  const [heatMapName, overTimeName, cellsName] = REPORT_WORKBOOK_SHEETS.peak_hours;
  return [
    {
      name: heatMapName,
      columns: [
        { header: 'Weekday', kind: 'text' },
        ...view.hours.map((hour) => ({ header: hourHeader(hour), kind: averageKind(metric) })),
      ],
      rows: WEEKDAYS.map((weekday, index) => [weekday, ...(view.heatMap[index] ?? [])]),
    },
    {
      name: overTimeName,
      columns: [
        { header: 'Period', kind: 'text' },
        { header: metricLabel(metric), kind: metricKind(metric) },
      ],
      rows: view.series.map((point) => [point.period, point.value]),
    },
    {
      name: cellsName,
      columns: [
        { header: 'Date', kind: 'date' },
        { header: 'Hour', kind: 'text' },
        { header: 'GMV', kind: 'money' },
        { header: 'Transactions', kind: 'count' },
      ],
      rows: gmvCells.map((row) => [
        row.period,
        hourHeader(row.hour),
        row.value,
        transactionsOf.get(`${row.period} ${row.hour}`) ?? 0,
      ]),
    },
  ];
}

async function paymentMethodsSheets({ db, scope, range }: PageInput): Promise<SheetSpec[]> {
  const overall = await paymentMethodOverall(db, scope, range, WORKBOOK_PAYMENT_METHOD_LIMIT);
  const overTime: SheetCell[][] = [];
  // One period after another: a year is 53 weeks, each a small read of the payment rollup.
  for (const bucket of paymentBuckets(range.start, range.end)) {
    const rows = await paymentMethodOverall(
      db,
      scope,
      { ...range, start: bucket.start, end: bucket.end },
      PAYMENTS_PER_PERIOD,
    );
    for (const row of rows) overTime.push([bucket.label, bucket.start, bucket.end, row.payment_method, row.sum]);
  }
  const [overallName, overTimeName] = REPORT_WORKBOOK_SHEETS.payment_methods;
  return [
    paymentsSheet(overallName, overall),
    {
      name: overTimeName,
      columns: [
        { header: 'Period', kind: 'text' },
        { header: 'From', kind: 'date' },
        { header: 'To', kind: 'date' },
        { header: 'Payment Method', kind: 'text' },
        { header: 'Sum', kind: 'money' },
      ],
      rows: overTime,
    },
  ];
}

async function memberSheets({ db, scope, range, timeRange, metric }: PageInput): Promise<SheetSpec[]> {
  const ranking = (member: boolean) =>
    memberOutletRanking(db, scope, range, { member, rankBy: metric, limit: MEMBER_OUTLETS });
  const [overall, members, nonMembers] = await Promise.all([
    memberOverall(db, scope, range, timeRange, metric),
    ranking(true),
    ranking(false),
  ]);
  const kind = metricKind(metric);
  const ranked = (name: string, rows: typeof members): SheetSpec => ({
    name,
    columns: measureColumns(
      { header: 'Rank', kind: 'count' },
      { header: 'Outlet ID', kind: 'number' },
      { header: 'Outlet', kind: 'text' },
      { header: 'Mall', kind: 'text' },
    ),
    rows: rows.map((row, index) => [index + 1, row.outlet_id, row.outlet_name, row.mall_name, ...measureCells(row)]),
  });
  const [overTimeName, membersName, nonMembersName] = REPORT_WORKBOOK_SHEETS.member;
  return [
    {
      name: overTimeName,
      columns: [
        { header: 'Period', kind: 'text' },
        { header: `Members (${metricLabel(metric)})`, kind },
        { header: `Non-members (${metricLabel(metric)})`, kind },
      ],
      rows: [
        ...overall.data.map((row) => [row.period, row.member, row.non_member]),
        ['Whole range', overall.total.member, overall.total.non_member],
      ],
    },
    ranked(membersName, members),
    ranked(nonMembersName, nonMembers),
  ];
}

/** The pages whose workbook is their sheets and the filters sheet, made here. */
type SheetsPage = 'mall_gmv' | 'peak_hours' | 'payment_methods' | 'member';

const PAGE_SHEETS: Record<SheetsPage, (input: PageInput) => Promise<SheetSpec[]>> = {
  mall_gmv: mallGmvSheets,
  peak_hours: peakHoursSheets,
  payment_methods: paymentMethodsSheets,
  member: memberSheets,
};

interface BuildOptions {
  now: Date;
  signal?: AbortSignal;
}

type WorkbookBuilder = (
  db: Queryable,
  currencyOf: CurrencyOf,
  requester: WorkbookRequester,
  query: ReportWorkbookQuery,
  options: BuildOptions,
) => Promise<BuiltWorkbook>;

/** A page of PAGE_SHEETS: its sheets, then the filters sheet (with the page's hours where it has them). */
const sheetsWorkbook =
  (page: SheetsPage): WorkbookBuilder =>
  async (db, currencyOf, requester, query, { now, signal }) => {
    // Pages with the header's hours, time range and metric (withHours); the others report whole days.
    const hourly = reportWorkbook(page).withHours;
    const range: ReportRange = {
      start: query.start_time,
      end: query.end_time,
      startHour: hourly ? (query.start_hour ?? 0) : 0,
      endHour: hourly ? (query.end_hour ?? 23) : 23,
    };
    const timeRange = hourly ? (query.time_range ?? 'daily') : 'daily';
    const metric = hourly ? (query.metric ?? 'gmv') : 'gmv';
    const mallIds = [...new Set(query.mall_ids)];
    const scope = await mallScopeFor(db, currencyOf, requester.visibility, query, range);
    const [money, names, sheets] = await Promise.all([
      currencyOf(query.client_id, mallIds, range),
      workbookNames(db, requester.visibility, query),
      PAGE_SHEETS[page]({ db, scope, range, timeRange, metric }),
    ]);
    const filters = { ...names, generatedAt: now, generatedBy: requester.email };
    const pageRows: SheetCell[][] = [
      ['Hours', cell('text', hoursText(range.startHour, range.endHour))],
      ...(hourly
        ? [
            ['Time range', cell('text', timeRangeLabel(timeRange))],
            ['Metric', cell('text', metricLabel(metric))],
          ]
        : []),
      ['Currency', cell('text', currencyText(money.currency, money.converted))],
    ];
    const spec = workbookSpecOf([...sheets, filtersSheet(query, filters, pageRows)], money.currency, filters);
    return {
      name: workbookFileName(page, { start: query.start_time, end: query.end_time }),
      bytes: await renderWorkbook(spec, signal ? { signal } : {}),
    };
  };

/** The client, malls and month of a month page's filters (its days are its month's). */
const monthOf = (query: ReportWorkbookQuery) => ({
  client_id: query.client_id,
  mall_ids: query.mall_ids,
  month: query.start_time.slice(0, 7),
});

/** An outlet page's outlet (its subscription's scope names one). */
function outletOf(query: ReportWorkbookQuery): number {
  if (query.outlet_id === undefined) throw new Error("an outlet page's workbook needs its outlet");
  return query.outlet_id;
}

/** The client, outlet and month of an outlet page of a month (its days are its month's). */
const outletMonthOf = (query: ReportWorkbookQuery) => ({
  client_id: query.client_id,
  outlet_id: outletOf(query),
  month: query.start_time.slice(0, 7),
});

/**
 * How each page's workbook is made from the page's filters: its own builder (Mall Home, Refunds and Voucher
 * Redemption with their key figures, Rent Statements and the breakeven pages of the month and Sales Trends of the
 * year the range is in, the outlet pages: Sales Review, Mall Outlet, Cross Spending, Sales Analysis, and the tenant's
 * Gross Turnover and Rent Statement of the month, the GTO Review of the client's outlets the requester sees in the
 * month the range starts in), or its sheets here.
 */
const WORKBOOK_BUILDERS: Record<WorkbookPage, WorkbookBuilder> = {
  mall_home: (db, currencyOf, requester, query, options) =>
    buildMallHomeWorkbook(db, currencyOf, requester, query, options),
  mall_gmv: sheetsWorkbook('mall_gmv'),
  peak_hours: sheetsWorkbook('peak_hours'),
  payment_methods: sheetsWorkbook('payment_methods'),
  member: sheetsWorkbook('member'),
  cross_spending: (db, _currencyOf, requester, query, options) =>
    buildCrossSpendingWorkbook(db, requester, { ...query, outlet_id: outletOf(query) }, options),
  cross_spending_details: (db, _currencyOf, requester, query, options) => {
    if (query.other_outlet_id === undefined) throw new Error('the Cross Spending Details workbook needs its pair');
    const pair = { ...query, outlet_id: outletOf(query), other_outlet_id: query.other_outlet_id };
    return buildCrossSpendingDetailsWorkbook(db, requester, pair, options);
  },
  refunds: (db, currencyOf, requester, query, options) =>
    buildAmountWorkbook(db, currencyOf, requester, 'refund', query, options),
  voucher_redemption: (db, currencyOf, requester, query, options) =>
    buildAmountWorkbook(db, currencyOf, requester, 'voucher', query, options),
  rent_statements: (db, _currencyOf, requester, query, options) =>
    buildRentStatementsWorkbook(db, requester, monthOf(query), options),
  sales_trends: (db, currencyOf, requester, query, options) =>
    buildSalesTrendsWorkbook(
      db,
      currencyOf,
      requester,
      { ...query, year: Number(query.end_time.slice(0, 4)) },
      options,
    ),
  breakeven_marcom: (db, _currencyOf, requester, query, options) =>
    buildBreakevenWorkbook(db, requester, { ...monthOf(query), department: 'marcom' }, options),
  breakeven: (db, _currencyOf, requester, query, options) =>
    buildBreakevenWorkbook(db, requester, { ...monthOf(query), department: query.department ?? 'leasing' }, options),
  sales_review: (db, _currencyOf, requester, query, options) =>
    buildSalesReviewWorkbook(db, requester, { ...query, outlet_id: outletOf(query) }, options),
  // The outlet's mall is its own (the subscription's malls are not asked).
  mall_outlet: (db, currencyOf, requester, query, options) =>
    buildMallOutletWorkbook(db, currencyOf, requester, { ...query, outlet_id: outletOf(query) }, options),
  sales_analysis: (db, _currencyOf, requester, query, options) =>
    buildSalesAnalysisWorkbook(
      db,
      requester,
      {
        client_id: query.client_id,
        outlet_id: outletOf(query),
        start_time: query.start_time,
        end_time: query.end_time,
      },
      options,
    ),
  // The tenant's pages of an outlet and a month (the month's days; Rent Statement's a complete month).
  gross_turnover: (db, _currencyOf, requester, query, options) =>
    buildGrossTurnoverWorkbook(db, requester, outletMonthOf(query), options),
  tenant_rent_statement: (db, _currencyOf, requester, query, options) =>
    buildTenantRentStatementWorkbook(db, requester, outletMonthOf(query), options),
  // The month's whole list of the client's outlets the requester sees (the subscription's malls are its zone's).
  gto_review: (db, _currencyOf, requester, query, options) =>
    buildGtoReviewWorkbook(db, requester, { client_id: query.client_id, month: query.start_time.slice(0, 7) }, options),
};

/**
 * `page`'s workbook for `requester` as of `now`: its answers read on this thread (its database calls), the .xlsx
 * written in a worker thread (workbookRender.ts). A range the page's operations refuse is refused by the caller
 * (reportRange); a rate missing for a converted report answers 409 as the page's calls do.
 */
export function buildReportWorkbook(
  db: Queryable,
  currencyOf: CurrencyOf,
  requester: WorkbookRequester,
  page: WorkbookPage,
  query: ReportWorkbookQuery,
  { now = new Date(), signal }: { now?: Date; signal?: AbortSignal } = {},
): Promise<BuiltWorkbook> {
  return WORKBOOK_BUILDERS[page](db, currencyOf, requester, query, { now, ...(signal ? { signal } : {}) });
}
