import type { IconName } from '@blueprintjs/icons';
import { type ComponentType, type LazyExoticComponent, lazy } from 'react';
import { DEFAULT_FILTER_PAGE, type FilterPageConfig } from './domain/filterHeader';
import { findPage, type RouteMeta, type RouteNode } from './domain/permissions';
import type { PageHeaderKind, PageProps } from './views/pages/pageProps';
import { PlaceholderPage } from './views/pages/placeholder/PlaceholderPage';

/**
 * The route table (§2): every permission-gated route of the main layout, with its meta and its lazy
 * page. Top-level routes are named after route permissions, children after sub-permissions
 * (§6 matches them ignoring slashes). Order matters: the landing page is the first permitted one.
 */

export type PageComponent = LazyExoticComponent<ComponentType<PageProps>>;

export interface AppRouteMeta extends RouteMeta {
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
 * Loaded with the app (its headers are the ones most pages show), so it resolves at once.
 */
const notBuiltYet: PageComponent = lazy(() => Promise.resolve({ default: PlaceholderPage }));

const receiptsPage: PageComponent = lazy(() =>
  import('./views/pages/receipts/ReceiptsPage').then((module) => ({ default: module.ReceiptsPage })),
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

interface ChildOptions {
  /** The mall header (§2); default none. */
  readonly mallHeader?: boolean;
  /** The page's filters; default: a date range, All Outlets offered, no Header V2. */
  readonly filters?: Partial<FilterPageConfig>;
  readonly hidden?: boolean;
  readonly hideOnSidebar?: boolean;
  readonly index?: boolean;
  /** The path below the group when it differs from the name (parameters). */
  readonly path?: string;
  readonly page?: PageComponent;
  /** Only the super admin gets the page (domain/permissions). */
  readonly superAdminOnly?: boolean;
}

function child(group: string, name: string, title: string, icon: IconName, options: ChildOptions = {}): AppRoute {
  const below = options.path ?? name;
  return {
    name,
    path: below === '' ? `/${group}` : `/${group}/${below}`,
    meta: {
      title,
      icon,
      filters: { ...DEFAULT_FILTER_PAGE, ...options.filters },
      header: options.mallHeader === true ? 'mall' : 'none',
      ...(options.hidden !== undefined && { hidden: options.hidden }),
      ...(options.hideOnSidebar !== undefined && { hideOnSidebar: options.hideOnSidebar }),
      ...(options.superAdminOnly !== undefined && { superAdminOnly: options.superAdminOnly }),
    },
    ...(options.index !== undefined && { index: options.index }),
    page: options.page ?? notBuiltYet,
  };
}

function group(
  name: string,
  title: string,
  icon: IconName,
  children: readonly AppRoute[],
  options: Pick<ChildOptions, 'superAdminOnly'> = {},
): AppRoute {
  return {
    name,
    path: `/${name}`,
    meta: {
      title,
      icon,
      filters: DEFAULT_FILTER_PAGE,
      header: 'none',
      ...(options.superAdminOnly !== undefined && { superAdminOnly: options.superAdminOnly }),
    },
    children,
  };
}

/** A top-level page: a route with its page as its single child (kept whenever the route is permitted). */
function single(name: string, title: string, icon: IconName, options: ChildOptions = {}): AppRoute {
  return group(name, title, icon, [child(name, name, title, icon, { ...options, path: '', index: true })]);
}

/*
 * The filters of each page (§2). Mall header: /shopper-connect/* except mall-outlet, export, cross-spending,
 * refunds, voucher-redemption, outlet-code and sales-trends, and /tenant-connect/breakeven-target; Header V2
 * on mall-peak-hours and member-vs-non-member; the Month picker on the monthly breakeven pages. Outlet
 * dropdown: 'single' (All Outlets disabled, the first outlet auto-selected) on outlet-level pages (receipts,
 * settings with its meal timings, cross-selling, the GTO pages of tenants, tenant sales), 'disabled' on the
 * mall-level pages, 'all' elsewhere.
 */
const MALL_PAGE: ChildOptions = { mallHeader: true, filters: { outletMode: 'disabled' } };
const BREAKEVEN_PAGE: ChildOptions = {
  mallHeader: true,
  filters: { period: 'month', breakeven: true, outletMode: 'disabled' },
};
const MALL_LEVEL: Partial<FilterPageConfig> = { outletMode: 'disabled' };
const OUTLET_LEVEL: Partial<FilterPageConfig> = { outletMode: 'single' };

export const ROUTES: readonly AppRoute[] = [
  group('shopper-connect', 'Shopper Connect', 'shop', [
    child('shopper-connect', 'mall-home', 'Mall Home', 'home', { ...MALL_PAGE, page: mallHomePage }),
    child('shopper-connect', 'mall-gmv', 'Mall GMV', 'dollar', { ...MALL_PAGE, page: mallGmvPage }),
    child('shopper-connect', 'breakeven-target/marcom', 'Marcom', 'target', BREAKEVEN_PAGE),
    child('shopper-connect', 'mall-peak-hours', 'Mall Peak Hours', 'time', {
      page: mallPeakHoursPage,
      mallHeader: true,
      filters: { headerV2: true, averageTransactionValue: true, outletMode: 'disabled' },
    }),
    child('shopper-connect', 'mall-payment-methods', 'Mall Payment Methods', 'credit-card', {
      ...MALL_PAGE,
      page: mallPaymentMethodsPage,
    }),
    child('shopper-connect', 'member-vs-non-member', 'Member vs Non-member', 'people', {
      page: memberVsNonMemberPage,
      mallHeader: true,
      filters: { headerV2: true, outletMode: 'disabled' },
    }),
    child('shopper-connect', 'export', 'Export', 'export', { filters: MALL_LEVEL }),
    child('shopper-connect', 'cross-spending', 'Cross Spending', 'exchange', { filters: OUTLET_LEVEL }),
    child('shopper-connect', 'cross-spending/details', 'Cross Spending Details', 'list-detail-view', {
      hideOnSidebar: true,
      filters: OUTLET_LEVEL,
    }),
    child('shopper-connect', 'sales-trends', 'Sales Trends', 'trending-up'),
    child('shopper-connect', 'refunds', 'Refunds', 'undo', { filters: MALL_LEVEL }),
    child('shopper-connect', 'voucher-redemption', 'Voucher Redemption', 'tag', { filters: MALL_LEVEL }),
    child('shopper-connect', 'outlet-code', 'Outlet Code', 'barcode', {
      filters: { period: 'none', outletMode: 'disabled' },
    }),
    child('shopper-connect', 'mall-outlet/:id', 'Mall Outlet', 'shop', { hideOnSidebar: true, filters: MALL_LEVEL }),
  ]),
  group('tenant-connect', 'Tenant Connect', 'office', [
    child('tenant-connect', 'gto-review', 'GTO Review', 'th-list', {
      filters: { period: 'month', outletMode: 'disabled' },
    }),
    child('tenant-connect', 'non-trading-days', 'Non-trading Days', 'calendar', {
      hideOnSidebar: true,
      filters: OUTLET_LEVEL,
    }),
    // Leasing, Finance or Operations: the title follows the user's department (domain/permissions).
    child('tenant-connect', 'breakeven-target', 'Breakeven Target', 'target', BREAKEVEN_PAGE),
    child('tenant-connect', 'tenant-management', 'Tenant Management', 'people', {
      filters: { period: 'none', outletMode: 'disabled' },
    }),
    child('tenant-connect', 'audit-logs', 'Audit Logs', 'history', { filters: MALL_LEVEL }),
    child('tenant-connect', 'sales-analysis', 'Sales Analysis', 'chart'),
    child('tenant-connect', 'sales-review', 'Sales Review', 'timeline-line-chart', { filters: OUTLET_LEVEL }),
    child('tenant-connect', 'sales-review/non-trading-day', 'Non-trading Day', 'calendar', {
      hideOnSidebar: true,
      filters: OUTLET_LEVEL,
    }),
  ]),
  group('tenants', 'Tenants', 'shopping-cart', [
    child('tenants', 'tenant-receipt-data', 'Receipt Data', 'document', { filters: OUTLET_LEVEL }),
    child('tenants', 'gross-turnover', 'Gross Turnover', 'bank-account', {
      filters: { period: 'month', outletMode: 'single' },
    }),
    child('tenants', 'gto_submission', 'GTO Submission', 'clipboard', {
      filters: { period: 'month', outletMode: 'single' },
    }),
  ]),
  single('receipts', 'Receipts', 'th', { filters: OUTLET_LEVEL, page: receiptsPage }),
  single('settings', 'Settings', 'cog', { filters: { period: 'none', outletMode: 'single' } }),
  group('apps', 'Apps', 'application', [
    child('apps', 'apps', 'Apps', 'application', { path: '', index: true, filters: { period: 'none' } }),
    child('apps', 'xero', 'Xero', 'link', { filters: { period: 'none' } }),
  ]),
  // Not a route of §2: the super admin's own pages, for nobody else whatever their permissions. Last, so that
  // it is never a landing page. Its single page shows in the sidebar as one 'Outbox' item.
  group(
    'admin',
    'Admin',
    'shield',
    [
      child('admin', 'outbox', 'Outbox', 'envelope', {
        superAdminOnly: true,
        filters: { period: 'none', outletMode: 'disabled' },
        page: outboxPage,
      }),
    ],
    { superAdminOnly: true },
  ),
];

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
