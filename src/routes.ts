import type { IconName } from '@blueprintjs/icons';
import { type ComponentType, type LazyExoticComponent, lazy } from 'react';
import { DEFAULT_FILTER_PAGE, type FilterPageConfig } from './domain/filterHeader';
import { findPage, type RouteNode } from './domain/permissions';
import { ROUTE_TABLE, type TableRoute, type TableRouteMeta } from './domain/routeTable';
import type { PageHeaderKind, PageProps } from './views/pages/pageProps';

/**
 * The routes of the app: the route table of §2 (domain/routeTable: paths, names, titles, icons, order) with
 * each page's filters, header and lazy page.
 */

export type PageComponent = LazyExoticComponent<ComponentType<PageProps>>;

export interface AppRouteMeta extends TableRouteMeta {
  readonly icon: IconName;
  /** What the page asks of the filter header (§2): period, Header V2, metric, breakeven limit, outlet dropdown. */
  readonly filters: FilterPageConfig;
  /** §2: 'mall' shows the mall header (Header V2 when `filters.headerV2`); 'none' only the title. */
  readonly header: 'mall' | 'none';
}

export interface AppRoute extends RouteNode {
  readonly meta: AppRouteMeta;
  /** The page of a leaf route (a group has none). */
  readonly page?: PageComponent;
  readonly children?: readonly AppRoute[];
}

/**
 * Pages not built yet: the header, 'This page is not available yet.' and the filters inside the main layout.
 * Loaded with the signed-in area, never by the signed-out screens.
 */
const notBuiltYet: PageComponent = lazy(() =>
  import('./views/pages/placeholder/PlaceholderPage').then((module) => ({ default: module.PlaceholderPage })),
);

const receiptsPage: PageComponent = lazy(() =>
  import('./views/pages/receipts/ReceiptsPage').then((module) => ({ default: module.ReceiptsPage })),
);

const settingsPage: PageComponent = lazy(() =>
  import('./views/pages/settings/SettingsPage').then((module) => ({ default: module.SettingsPage })),
);

/* The GTO pages. */
const gtoReviewPage: PageComponent = lazy(() =>
  import('./views/pages/gto/GtoReviewPage').then((module) => ({ default: module.GtoReviewPage })),
);
const gtoSubmissionPage: PageComponent = lazy(() =>
  import('./views/pages/gto/GtoSubmissionPage').then((module) => ({ default: module.GtoSubmissionPage })),
);
const grossTurnoverPage: PageComponent = lazy(() =>
  import('./views/pages/gto/GrossTurnoverPage').then((module) => ({ default: module.GrossTurnoverPage })),
);

const tenantReceiptDataPage: PageComponent = lazy(() =>
  import('./views/pages/tenants/TenantReceiptDataPage').then((module) => ({ default: module.TenantReceiptDataPage })),
);

const auditLogsPage: PageComponent = lazy(() =>
  import('./views/pages/tenant-connect/AuditLogsPage').then((module) => ({ default: module.AuditLogsPage })),
);
const tenantManagementPage: PageComponent = lazy(() =>
  import('./views/pages/tenant-connect/TenantManagementPage').then((module) => ({
    default: module.TenantManagementPage,
  })),
);

/* The calendar of holidays and the malls' events. */
const calendarPage: PageComponent = lazy(() =>
  import('./views/pages/shopper-connect/CalendarPage').then((module) => ({ default: module.CalendarPage })),
);
const eventsPage: PageComponent = lazy(() =>
  import('./views/pages/shopper-connect/EventsPage').then((module) => ({ default: module.EventsPage })),
);

/* Non-trading days and the sales review. */
const nonTradingDaysPage: PageComponent = lazy(() =>
  import('./views/pages/tenant-connect/NonTradingDaysPage').then((module) => ({ default: module.NonTradingDaysPage })),
);
const salesReviewPage: PageComponent = lazy(() =>
  import('./views/pages/tenant-connect/SalesReviewPage').then((module) => ({ default: module.SalesReviewPage })),
);
const salesAnalysisPage: PageComponent = lazy(() =>
  import('./views/pages/tenant-connect/SalesAnalysisPage').then((module) => ({ default: module.SalesAnalysisPage })),
);
const nonTradingDayPage: PageComponent = lazy(() =>
  import('./views/pages/tenant-connect/SalesReviewNonTradingDayPage').then((module) => ({
    default: module.SalesReviewNonTradingDayPage,
  })),
);

/* Whether the outlets' tills are sending receipts (issue 34). */
const dataFeedsPage: PageComponent = lazy(() =>
  import('./views/pages/shopper-connect/DataFeedsPage').then((module) => ({ default: module.DataFeedsPage })),
);
/* The client's report subscriptions: their schedules, recipients and last deliveries (issue 34). */
const reportSubscriptionsPage: PageComponent = lazy(() =>
  import('./views/pages/shopper-connect/ReportSubscriptionsPage').then((module) => ({
    default: module.ReportSubscriptionsPage,
  })),
);

/* The alert rules people set, and their history (issue 34). */
const alertsPage: PageComponent = lazy(() =>
  import('./views/pages/shopper-connect/AlertsPage').then((module) => ({ default: module.AlertsPage })),
);

/* The leases of the outlets and their turnover rent. */
const leasesPage: PageComponent = lazy(() =>
  import('./views/pages/tenant-connect/LeasesPage').then((module) => ({ default: module.LeasesPage })),
);

/* The breakeven pages: the department's (Leasing, Finance, Operations) and Marcom's. */
const breakevenPage: PageComponent = lazy(() =>
  import('./views/pages/breakeven/BreakevenTargetPage').then((module) => ({ default: module.BreakevenPage })),
);
const marcomBreakevenPage: PageComponent = lazy(() =>
  import('./views/pages/breakeven/BreakevenTargetPage').then((module) => ({ default: module.MarcomBreakevenPage })),
);

/* The rent statements (issue 33): the staff's of the selected malls and the tenant's own. */
const rentStatementsPage: PageComponent = lazy(() =>
  import('./views/pages/tenant-connect/RentStatementsPage').then((module) => ({ default: module.RentStatementsPage })),
);
const rentStatementPage: PageComponent = lazy(() =>
  import('./views/pages/tenants/RentStatementPage').then((module) => ({ default: module.RentStatementPage })),
);

/* The Apps pages. */
const appsPage: PageComponent = lazy(() =>
  import('./views/pages/apps/AppsPage').then((module) => ({ default: module.AppsPage })),
);
const xeroPage: PageComponent = lazy(() =>
  import('./views/pages/apps/XeroPage').then((module) => ({ default: module.XeroPage })),
);

/* The super admin's pages. */
const outboxPage: PageComponent = lazy(() =>
  import('./views/pages/admin/OutboxPage').then((module) => ({ default: module.OutboxPage })),
);

/* The Shopper Connect mall report pages. */
const mallHomePage: PageComponent = lazy(() =>
  import('./views/pages/shopper-connect/MallHomePage').then((module) => ({ default: module.MallHomePage })),
);
const mallGmvPage: PageComponent = lazy(() =>
  import('./views/pages/shopper-connect/MallGmvPage').then((module) => ({ default: module.MallGmvPage })),
);
const mallPeakHoursPage: PageComponent = lazy(() =>
  import('./views/pages/shopper-connect/MallPeakHoursPage').then((module) => ({ default: module.MallPeakHoursPage })),
);
const mallPaymentMethodsPage: PageComponent = lazy(() =>
  import('./views/pages/shopper-connect/MallPaymentMethodsPage').then((module) => ({
    default: module.MallPaymentMethodsPage,
  })),
);
const memberVsNonMemberPage: PageComponent = lazy(() =>
  import('./views/pages/shopper-connect/MemberVsNonMemberPage').then((module) => ({
    default: module.MemberVsNonMemberPage,
  })),
);
const mallOutletPage: PageComponent = lazy(() =>
  import('./views/pages/shopper-connect/MallOutletPage').then((module) => ({ default: module.MallOutletPage })),
);
const salesTrendsPage: PageComponent = lazy(() =>
  import('./views/pages/shopper-connect/SalesTrendsPage').then((module) => ({ default: module.SalesTrendsPage })),
);
const outletCodePage: PageComponent = lazy(() =>
  import('./views/pages/shopper-connect/OutletCodePage').then((module) => ({ default: module.OutletCodePage })),
);
const crossSpendingPage: PageComponent = lazy(() =>
  import('./views/pages/shopper-connect/CrossSpendingPage').then((module) => ({ default: module.CrossSpendingPage })),
);
const crossSpendingDetailsPage: PageComponent = lazy(() =>
  import('./views/pages/shopper-connect/CrossSpendingDetailsPage').then((module) => ({
    default: module.CrossSpendingDetailsPage,
  })),
);
const exportPage: PageComponent = lazy(() =>
  import('./views/pages/shopper-connect/ExportPage').then((module) => ({ default: module.ExportPage })),
);
const refundsPage: PageComponent = lazy(() =>
  import('./views/pages/shopper-connect/RefundsAndVoucherRedemptionPage').then((module) => ({
    default: module.RefundsPage,
  })),
);
const voucherRedemptionPage: PageComponent = lazy(() =>
  import('./views/pages/shopper-connect/RefundsAndVoucherRedemptionPage').then((module) => ({
    default: module.VoucherRedemptionPage,
  })),
);

/** What a page of the table shows besides its route meta. */
interface PageSetup {
  /** The mall header (§2); default none. */
  readonly mallHeader?: boolean;
  /** The page's filters; default: a date range, All Outlets offered, no Header V2. */
  readonly filters?: Partial<FilterPageConfig>;
  /** Default: not built yet. */
  readonly page?: PageComponent;
}

/*
 * The filters of each page (§2). Mall header: /shopper-connect/* except mall-outlet, export, cross-spending,
 * refunds, voucher-redemption, outlet-code and sales-trends, and /tenant-connect/breakeven-target (beyond §2,
 * /tenant-connect/leases too, without a date filter); Header V2 on mall-peak-hours and member-vs-non-member; the
 * Month picker on the monthly breakeven pages. Outlet
 * dropdown: 'single' (All Outlets disabled, the first outlet auto-selected) on outlet-level pages (receipts,
 * settings with its meal timings, cross-selling, the GTO pages of tenants, tenant sales), 'disabled' on the
 * mall-level pages, 'all' elsewhere.
 */
const MALL_PAGE: PageSetup = { mallHeader: true, filters: { outletMode: 'disabled' } };
const BREAKEVEN_PAGE: PageSetup = {
  mallHeader: true,
  filters: { period: 'month', breakeven: true, outletMode: 'disabled' },
};
const MALL_LEVEL: Partial<FilterPageConfig> = { outletMode: 'disabled' };
const OUTLET_LEVEL: Partial<FilterPageConfig> = { outletMode: 'single' };

/** The setup of each page of the table, by route path. */
const PAGES: Readonly<Record<string, PageSetup>> = {
  '/shopper-connect/mall-home': { ...MALL_PAGE, page: mallHomePage },
  '/shopper-connect/mall-gmv': { ...MALL_PAGE, page: mallGmvPage },
  '/shopper-connect/breakeven-target/marcom': { ...BREAKEVEN_PAGE, page: marcomBreakevenPage },
  '/shopper-connect/mall-peak-hours': {
    page: mallPeakHoursPage,
    mallHeader: true,
    filters: { headerV2: true, averageTransactionValue: true, outletMode: 'disabled' },
  },
  '/shopper-connect/mall-payment-methods': { ...MALL_PAGE, page: mallPaymentMethodsPage },
  '/shopper-connect/member-vs-non-member': {
    page: memberVsNonMemberPage,
    mallHeader: true,
    filters: { headerV2: true, outletMode: 'disabled' },
  },
  // Its own malls and date range (the header's filters): no mall header (§2).
  '/shopper-connect/export': { filters: MALL_LEVEL, page: exportPage },
  // The header's one outlet and its days: no mall header (§2). The details' other outlet comes from `?other=`.
  '/shopper-connect/cross-spending': { filters: OUTLET_LEVEL, page: crossSpendingPage },
  '/shopper-connect/cross-spending/details': { filters: OUTLET_LEVEL, page: crossSpendingDetailsPage },
  // Their own malls and date range (the header's filters): no mall header (§2).
  '/shopper-connect/refunds': { filters: MALL_LEVEL, page: refundsPage },
  '/shopper-connect/voucher-redemption': { filters: MALL_LEVEL, page: voucherRedemptionPage },
  // Its own malls (no mall header, §2) and search.
  '/shopper-connect/outlet-code': { filters: { period: 'none', outletMode: 'disabled' }, page: outletCodePage },
  // Beyond §2: the mall header with its Malls choice and no date (the feeds are read now).
  '/shopper-connect/data-feeds': {
    mallHeader: true,
    filters: { period: 'none', outletMode: 'disabled' },
    page: dataFeedsPage,
  },
  // The mall header's malls without a date: a new rule's malls; the rules are the client's.
  '/shopper-connect/alerts': {
    mallHeader: true,
    filters: { period: 'none', outletMode: 'disabled' },
    page: alertsPage,
  },
  // The client's report subscriptions (issue 34): the header's client, no malls or period.
  '/shopper-connect/report-subscriptions': {
    filters: { period: 'none', outletMode: 'disabled' },
    page: reportSubscriptionsPage,
  },
  // Its own date range; the outlet comes from the path.
  '/shopper-connect/mall-outlet/:id': { filters: MALL_LEVEL, page: mallOutletPage },
  // Its own malls and year: no date range in the header.
  '/shopper-connect/sales-trends': { filters: { period: 'none', outletMode: 'disabled' }, page: salesTrendsPage },
  // The holidays of a country of the client's malls in a year (its own selects): no mall header.
  '/shopper-connect/calendar': { filters: { period: 'none', outletMode: 'disabled' }, page: calendarPage },
  // The events of its own malls and date range (the header's filters): no mall header (§2).
  '/shopper-connect/events': { filters: MALL_LEVEL, page: eventsPage },
  '/tenant-connect/gto-review': {
    filters: { period: 'month', outletMode: 'disabled', lastCompleteMonth: true },
    page: gtoReviewPage,
  },
  // The mall's list covers one outlet or all of them.
  '/tenant-connect/non-trading-days': { page: nonTradingDaysPage },
  '/tenant-connect/breakeven-target': { ...BREAKEVEN_PAGE, page: breakevenPage },
  // Beyond §2: the leases follow the selected malls, so the mall header with its Malls choice and no date (a lease
  // list is not of a period; its expiry filter is the page's own).
  '/tenant-connect/leases': {
    mallHeader: true,
    filters: { period: 'none', outletMode: 'disabled' },
    page: leasesPage,
  },
  // Monthly, the mall header with its Month picker, as the breakeven page.
  '/tenant-connect/rent-statements': { ...BREAKEVEN_PAGE, page: rentStatementsPage },
  '/tenant-connect/tenant-management': {
    filters: { period: 'none', outletMode: 'disabled' },
    page: tenantManagementPage,
  },
  '/tenant-connect/audit-logs': { filters: MALL_LEVEL, page: auditLogsPage },
  '/tenant-connect/sales-analysis': { filters: OUTLET_LEVEL, page: salesAnalysisPage },
  '/tenant-connect/sales-review': { filters: OUTLET_LEVEL, page: salesReviewPage },
  '/tenant-connect/sales-review/non-trading-day': { filters: OUTLET_LEVEL, page: nonTradingDayPage },
  '/tenants/tenant-receipt-data': { filters: OUTLET_LEVEL, page: tenantReceiptDataPage },
  '/tenants/gross-turnover': { filters: { period: 'month', outletMode: 'single' }, page: grossTurnoverPage },
  '/tenants/gto_submission': {
    filters: { period: 'month', outletMode: 'single', lastCompleteMonth: true },
    page: gtoSubmissionPage,
  },
  // The header's one outlet and the month chosen on the page, as the GTO submission.
  '/tenants/rent-statement': {
    filters: { period: 'month', outletMode: 'single', lastCompleteMonth: true },
    page: rentStatementPage,
  },
  '/receipts': { filters: OUTLET_LEVEL, page: receiptsPage },
  '/settings': { filters: { period: 'none', outletMode: 'single' }, page: settingsPage },
  '/apps': { filters: { period: 'none' }, page: appsPage },
  '/apps/xero': { filters: { period: 'none' }, page: xeroPage },
  '/admin/outbox': { filters: { period: 'none', outletMode: 'disabled' }, page: outboxPage },
};

function withPage(route: TableRoute): AppRoute {
  const setup = PAGES[route.path] ?? {};
  return {
    name: route.name,
    path: route.path,
    ...(route.index !== undefined && { index: route.index }),
    meta: {
      ...route.meta,
      filters: { ...DEFAULT_FILTER_PAGE, ...setup.filters },
      header: setup.mallHeader === true ? 'mall' : 'none',
    },
    page: setup.page ?? notBuiltYet,
  };
}

export const ROUTES: readonly AppRoute[] = ROUTE_TABLE.map((group) => ({
  name: group.name,
  path: group.path,
  meta: { ...group.meta, filters: DEFAULT_FILTER_PAGE, header: 'none' },
  children: (group.children ?? []).map(withPage),
}));

const unknownPages = Object.keys(PAGES).filter(
  (path) => !ROUTE_TABLE.some((group) => group.children?.some((route) => route.path === path)),
);
if (unknownPages.length > 0) throw new Error(`routes.ts: pages of no route of the table: ${unknownPages.join(', ')}`);

const routesByPath: ReadonlyMap<string, AppRoute> = new Map(
  ROUTES.flatMap((route) => [route, ...(route.children ?? [])]).map((route) => [route.path, route] as const),
);

/** The lazy page of a route path of the table (the guard's routes carry only the pure route shape). */
export function pageFor(path: string): PageComponent | undefined {
  return routesByPath.get(path)?.page;
}

/** The Blueprint icon of a route path of the table. */
export function iconFor(path: string): IconName | undefined {
  return routesByPath.get(path)?.meta.icon;
}

/** The table's meta of a route path (a pattern such as `/shopper-connect/mall-outlet/:id`). */
export function routeMetaFor(path: string): AppRouteMeta | undefined {
  return routesByPath.get(path)?.meta;
}

/** What a page at a concrete path shows: its title, header kind and filter configuration. */
export interface PageFrame {
  /** The page's route path (its pattern), or undefined off the table (/, an unknown path). */
  readonly pattern: string | undefined;
  readonly title: string | undefined;
  readonly header: PageHeaderKind;
  readonly filters: FilterPageConfig;
}

/**
 * The frame of the page at `path` among the user's routes (the guard's, with the department title on the
 * breakeven page). Off the table: no header, default filters with the outlet dropdown disabled.
 */
export function pageFrameFor(routes: readonly RouteNode[], path: string): PageFrame {
  const page = findPage(routes, path);
  const meta = page ? routeMetaFor(page.path) : undefined;
  if (!page || !meta) {
    return {
      pattern: undefined,
      title: undefined,
      header: 'none',
      filters: { ...DEFAULT_FILTER_PAGE, outletMode: 'disabled' },
    };
  }
  const header: PageHeaderKind = meta.header === 'mall' ? (meta.filters.headerV2 ? 'v2' : 'mall') : 'none';
  return { pattern: page.path, title: page.meta.title, header, filters: meta.filters };
}

/** The filters the page at `path` asks of the header (the app machine's `pageFilters`). */
export function pageFiltersFor(routes: readonly RouteNode[], path: string): FilterPageConfig {
  return pageFrameFor(routes, path).filters;
}
