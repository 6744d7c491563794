import { formatFileDateRange } from './format';

/**
 * The report pages that have an Excel workbook (issue 34: a page's data as one workbook, one sheet a table, numbers
 * as numbers, money in the currency's format, a sheet of the filters used), written once for the server that builds
 * them (server/exports), the subscriptions that mail them and the Export page that downloads them.
 */

export type WorkbookPage =
  | 'mall_home'
  | 'mall_gmv'
  | 'peak_hours'
  | 'payment_methods'
  | 'member'
  | 'cross_spending'
  | 'cross_spending_details'
  | 'refunds'
  | 'voucher_redemption'
  | 'rent_statements'
  | 'sales_trends'
  | 'breakeven_marcom'
  | 'breakeven'
  | 'sales_review'
  | 'mall_outlet'
  | 'sales_analysis'
  | 'gross_turnover'
  | 'tenant_rent_statement'
  | 'gto_review';

export interface ReportWorkbook {
  readonly page: WorkbookPage;
  /** The page's title, as the menu names it. */
  readonly title: string;
  /** The page's path in the app (its route's: '/shopper-connect/mall-outlet/:id' for the pages of an id). */
  readonly pagePath: string;
  /** The operation that answers the workbook. */
  readonly operationPath:
    | '/api/mall_report/mall_home/workbook'
    | '/api/mall_report/crossSpending/details/workbook'
    | '/api/mall_report/mall_gmv/workbook'
    | '/api/mall_report/peak_hour/workbook'
    | '/api/mall_report/payment_method/workbook'
    | '/api/mall_report/member/workbook'
    | '/api/mall_report/crossSpending/workbook'
    | '/api/mall_report/refund/workbook'
    | '/api/mall_report/voucher/workbook'
    | '/api/rentStatements/workbook'
    | '/api/mall_report/sales_trends/workbook'
    | '/api/mall_report/breakeven_target/workbook'
    | '/api/salesReview/workbook'
    | '/api/mall_report/outlet/workbook'
    | '/outlets/salesAnalysis/workbook'
    | '/api/gtoReport/outletMonths/workbook'
    | '/api/tenant/rentStatement/workbook'
    | '/api/gtoReport/summary/workbook';
  /**
   * The start of the download's name: '<fileBase>_<start>_<end>.xlsx'; a breakeven page's names its department
   * after it ('breakeven-target-marcom_2026-02.xlsx'), a page of a path's id its id ('mall-outlet-12_...').
   */
  readonly fileBase: string;
  /** Whether the page reports the header's hours, time range and metric (Header V2); the others whole days. */
  readonly withHours: boolean;
  /**
   * What the page reports: a date range, a month (`month=`; its workbook is named after the month) or a year (named
   * after the year).
   */
  readonly period: 'range' | 'month' | 'year';
  /**
   * What its figures are of: the malls of the header, the one outlet of an outlet page (`outlet_id`), or the
   * client's outlets the caller sees (the GTO Review: no malls in its filters).
   */
  readonly scope: 'malls' | 'outlet' | 'client';
  /** What the workbook holds, as the Export page says it. */
  readonly sheets: string;
}

/** Every workbook, in the menu's order. */
export const REPORT_WORKBOOKS: readonly ReportWorkbook[] = [
  {
    page: 'mall_home',
    title: 'Mall Home',
    pagePath: '/shopper-connect/mall-home',
    operationPath: '/api/mall_report/mall_home/workbook',
    fileBase: 'mall-home',
    withHours: false,
    period: 'range',
    scope: 'malls',
    sheets: 'Key figures, days, outlets and payment methods',
  },
  {
    page: 'mall_gmv',
    title: 'Mall GMV',
    pagePath: '/shopper-connect/mall-gmv',
    operationPath: '/api/mall_report/mall_gmv/workbook',
    fileBase: 'mall-gmv',
    withHours: false,
    period: 'range',
    scope: 'malls',
    sheets: 'Days, months, outlets, categories and levels',
  },
  {
    page: 'peak_hours',
    title: 'Mall Peak Hours',
    pagePath: '/shopper-connect/mall-peak-hours',
    operationPath: '/api/mall_report/peak_hour/workbook',
    fileBase: 'mall-peak-hours',
    withHours: true,
    period: 'range',
    scope: 'malls',
    sheets: 'Heat map, the metric over time, every day and hour',
  },
  {
    page: 'payment_methods',
    title: 'Mall Payment Methods',
    pagePath: '/shopper-connect/mall-payment-methods',
    operationPath: '/api/mall_report/payment_method/workbook',
    fileBase: 'mall-payment-methods',
    withHours: false,
    period: 'range',
    scope: 'malls',
    sheets: 'Payment methods and the top methods over time',
  },
  {
    page: 'member',
    title: 'Member vs Non-member',
    pagePath: '/shopper-connect/member-vs-non-member',
    operationPath: '/api/mall_report/member/workbook',
    fileBase: 'member-vs-non-member',
    withHours: true,
    period: 'range',
    scope: 'malls',
    sheets: 'Members against non-members over time, their top outlets',
  },
  {
    page: 'cross_spending',
    title: 'Cross Spending',
    pagePath: '/shopper-connect/cross-spending',
    operationPath: '/api/mall_report/crossSpending/workbook',
    fileBase: 'cross-spending',
    withHours: false,
    period: 'range',
    scope: 'outlet',
    sheets: 'The outlet’s shoppers, the other outlets and categories of its mall where they also spent',
  },
  {
    page: 'cross_spending_details',
    title: 'Cross Spending Details',
    pagePath: '/shopper-connect/cross-spending/details',
    operationPath: '/api/mall_report/crossSpending/details/workbook',
    fileBase: 'cross-spending-details',
    withHours: false,
    period: 'range',
    scope: 'outlet',
    sheets: 'The pair’s shoppers and what they spent at the other outlet, day by day',
  },
  {
    page: 'refunds',
    title: 'Refunds',
    pagePath: '/shopper-connect/refunds',
    operationPath: '/api/mall_report/refund/workbook',
    fileBase: 'refunds',
    withHours: false,
    period: 'range',
    scope: 'malls',
    sheets: 'Key figures, refunds by day and by outlet',
  },
  {
    page: 'voucher_redemption',
    title: 'Voucher Redemption',
    pagePath: '/shopper-connect/voucher-redemption',
    operationPath: '/api/mall_report/voucher/workbook',
    fileBase: 'voucher-redemption',
    withHours: false,
    period: 'range',
    scope: 'malls',
    sheets: 'Key figures, voucher redemption by day and by outlet',
  },
  {
    page: 'rent_statements',
    title: 'Rent Statements',
    pagePath: '/tenant-connect/rent-statements',
    operationPath: '/api/rentStatements/workbook',
    fileBase: 'rent-statements',
    withHours: false,
    period: 'month',
    scope: 'malls',
    sheets: 'Every lease’s rent of the month, the totals per currency, the groups',
  },
  {
    page: 'sales_trends',
    title: 'Sales Trends',
    pagePath: '/shopper-connect/sales-trends',
    operationPath: '/api/mall_report/sales_trends/workbook',
    fileBase: 'sales-trends',
    withHours: false,
    period: 'year',
    scope: 'malls',
    sheets: 'The months of the year beside the year before, their growth and what it compares',
  },
  {
    page: 'breakeven_marcom',
    title: 'Marcom Breakeven Target',
    pagePath: '/shopper-connect/breakeven-target/marcom',
    operationPath: '/api/mall_report/breakeven_target/workbook',
    fileBase: 'breakeven-target',
    withHours: false,
    period: 'month',
    scope: 'malls',
    sheets: 'Every outlet’s GTO of the month against Marcom’s target, the totals per currency',
  },
  {
    page: 'breakeven',
    title: 'Breakeven Target',
    pagePath: '/tenant-connect/breakeven-target',
    operationPath: '/api/mall_report/breakeven_target/workbook',
    fileBase: 'breakeven-target',
    withHours: false,
    period: 'month',
    scope: 'malls',
    sheets: 'Every outlet’s GTO of the month against the department’s target, the totals per currency',
  },
  {
    page: 'sales_review',
    title: 'Sales Review',
    pagePath: '/tenant-connect/sales-review',
    operationPath: '/api/salesReview/workbook',
    fileBase: 'sales-review',
    withHours: false,
    period: 'range',
    scope: 'outlet',
    sheets: 'The outlet’s days with their notes (non-trading days, today so far)',
  },
  {
    page: 'mall_outlet',
    title: 'Mall Outlet',
    pagePath: '/shopper-connect/mall-outlet/:id',
    operationPath: '/api/mall_report/outlet/workbook',
    fileBase: 'mall-outlet',
    withHours: false,
    period: 'range',
    scope: 'outlet',
    sheets: 'Key figures, the place among its peers, days and the category’s outlets',
  },
  {
    page: 'sales_analysis',
    title: 'Sales Analysis',
    pagePath: '/tenant-connect/sales-analysis',
    operationPath: '/outlets/salesAnalysis/workbook',
    fileBase: 'sales-analysis',
    withHours: false,
    period: 'range',
    scope: 'outlet',
    sheets: 'The outlet’s key figures with each comparison, its days, meal timings and best-selling items',
  },
  {
    page: 'gross_turnover',
    title: 'Gross Turnover',
    pagePath: '/tenants/gross-turnover',
    operationPath: '/api/gtoReport/outletMonths/workbook',
    fileBase: 'gross-turnover',
    withHours: false,
    period: 'month',
    scope: 'outlet',
    sheets: 'The outlet’s declared GTO beside its captured sales, month by month over the year to the month',
  },
  {
    page: 'tenant_rent_statement',
    title: 'Rent Statement',
    pagePath: '/tenants/rent-statement',
    operationPath: '/api/tenant/rentStatement/workbook',
    fileBase: 'rent-statement',
    withHours: false,
    period: 'month',
    scope: 'outlet',
    sheets: 'The outlet’s lease terms in words and the month’s rent line by line',
  },
  {
    page: 'gto_review',
    title: 'GTO Review',
    pagePath: '/tenant-connect/gto-review',
    operationPath: '/api/gtoReport/summary/workbook',
    fileBase: 'gto-review',
    withHours: false,
    period: 'month',
    scope: 'client',
    sheets: 'Every outlet’s GTO of the month against its captured sales, the whole list',
  },
];

/** The workbook of `page`. */
export function reportWorkbook(page: WorkbookPage): ReportWorkbook {
  const workbook = REPORT_WORKBOOKS.find((candidate) => candidate.page === page);
  if (!workbook) throw new Error(`no workbook for ${page}`);
  return workbook;
}

/**
 * The id a path gives its route's `:id` ('/shopper-connect/mall-outlet/:id' of '/shopper-connect/mall-outlet/12':
 * 12): a positive whole number of Postgres' integer; undefined for a route without `:id` or a path of another page.
 */
export function routePathId(routePath: string, path: string): number | undefined {
  if (!routePath.endsWith('/:id')) return undefined;
  const prefix = routePath.slice(0, -':id'.length);
  const id = path.startsWith(prefix) ? path.slice(prefix.length) : '';
  return /^[1-9]\d{0,9}$/.test(id) && Number(id) <= 2_147_483_647 ? Number(id) : undefined;
}

/** Whether `path` is a path of the route `routePath`: the same, or for a route with `:id` the route with an id. */
export function pathMatches(routePath: string, path: string): boolean {
  return routePath === path || routePathId(routePath, path) !== undefined;
}

/** The workbook of the page at `pagePath` (a route with `:id` matches its paths with an id), if it has one. */
export function workbookOfPagePath(pagePath: string): ReportWorkbook | undefined {
  return REPORT_WORKBOOKS.find((workbook) => pathMatches(workbook.pagePath, pagePath));
}

export function isWorkbookPage(value: string): value is WorkbookPage {
  return REPORT_WORKBOOKS.some((workbook) => workbook.page === value);
}

/**
 * The download's name, as the server names it: 'mall-gmv_2026-10-01_2026-10-31.xlsx'; a month page's after its
 * month ('rent-statements_2026-10.xlsx'), a year page's after its year ('sales-trends_2026.xlsx'); a department's
 * page with its department ('breakeven-target-marcom_2026-10.xlsx'), a page of a path's id with its id
 * ('mall-outlet-12_2026-10-01_2026-10-31.xlsx', as its subscription names its PDF: subscriptionFileBase).
 */
export function workbookFileName(
  page: WorkbookPage,
  range: { readonly start: string; readonly end: string },
  qualifier?: string,
): string {
  const workbook = reportWorkbook(page);
  const when =
    workbook.period === 'range'
      ? formatFileDateRange(range.start, range.end)
      : range.start.slice(0, workbook.period === 'month' ? 7 : 4);
  return `${workbook.fileBase}${qualifier === undefined ? '' : `-${qualifier}`}_${when}.xlsx`;
}
