import type { IconName } from '@blueprintjs/icons';
import { type ComponentType, type LazyExoticComponent, lazy } from 'react';
import type { RouteMeta, RouteNode } from './domain/permissions';
import type { PageProps } from './views/pages/pageProps';

/**
 * The route table (§2): every permission-gated route of the main layout, with its meta and its lazy
 * page. Top-level routes are named after route permissions, children after sub-permissions
 * (§6 matches them ignoring slashes). Order matters: the landing page is the first permitted one.
 */

export type PageComponent = LazyExoticComponent<ComponentType<PageProps>>;

export interface AppRouteMeta extends RouteMeta {
  readonly icon: IconName;
}

export interface AppRoute extends RouteNode {
  readonly meta: AppRouteMeta;
  /** The page of a leaf route (a group has none). */
  readonly page?: PageComponent;
  readonly children?: readonly AppRoute[];
}

/** Pages not built yet: the title and 'This page is not available yet.' inside the main layout. */
const notBuiltYet: PageComponent = lazy(() =>
  import('./views/pages/placeholder/PlaceholderPage').then((module) => ({ default: module.PlaceholderPage })),
);

interface ChildOptions {
  readonly hidden?: boolean;
  readonly hideOnSidebar?: boolean;
  readonly index?: boolean;
  /** The path below the group when it differs from the name (parameters). */
  readonly path?: string;
  readonly page?: PageComponent;
}

function child(group: string, name: string, title: string, icon: IconName, options: ChildOptions = {}): AppRoute {
  const below = options.path ?? name;
  return {
    name,
    path: below === '' ? `/${group}` : `/${group}/${below}`,
    meta: {
      title,
      icon,
      ...(options.hidden !== undefined && { hidden: options.hidden }),
      ...(options.hideOnSidebar !== undefined && { hideOnSidebar: options.hideOnSidebar }),
    },
    ...(options.index !== undefined && { index: options.index }),
    page: options.page ?? notBuiltYet,
  };
}

function group(name: string, title: string, icon: IconName, children: readonly AppRoute[]): AppRoute {
  return { name, path: `/${name}`, meta: { title, icon }, children };
}

/** A top-level page: a route with its page as its single child (kept whenever the route is permitted). */
function single(name: string, title: string, icon: IconName): AppRoute {
  return group(name, title, icon, [child(name, name, title, icon, { path: '', index: true })]);
}

export const ROUTES: readonly AppRoute[] = [
  group('shopper-connect', 'Shopper Connect', 'shop', [
    child('shopper-connect', 'mall-home', 'Mall Home', 'home'),
    child('shopper-connect', 'mall-gmv', 'Mall GMV', 'dollar'),
    child('shopper-connect', 'breakeven-target/marcom', 'Marcom', 'target'),
    child('shopper-connect', 'mall-peak-hours', 'Mall Peak Hours', 'time'),
    child('shopper-connect', 'mall-payment-methods', 'Mall Payment Methods', 'credit-card'),
    child('shopper-connect', 'member-vs-non-member', 'Member vs Non-member', 'people'),
    child('shopper-connect', 'export', 'Export', 'export'),
    child('shopper-connect', 'cross-spending', 'Cross Spending', 'exchange'),
    child('shopper-connect', 'cross-spending/details', 'Cross Spending Details', 'list-detail-view', {
      hideOnSidebar: true,
    }),
    child('shopper-connect', 'sales-trends', 'Sales Trends', 'trending-up'),
    child('shopper-connect', 'refunds', 'Refunds', 'undo'),
    child('shopper-connect', 'voucher-redemption', 'Voucher Redemption', 'tag'),
    child('shopper-connect', 'outlet-code', 'Outlet Code', 'barcode'),
    child('shopper-connect', 'mall-outlet/:id', 'Mall Outlet', 'shop', { hideOnSidebar: true }),
  ]),
  group('tenant-connect', 'Tenant Connect', 'office', [
    child('tenant-connect', 'gto-review', 'GTO Review', 'th-list'),
    child('tenant-connect', 'non-trading-days', 'Non-trading Days', 'calendar', { hideOnSidebar: true }),
    // Leasing, Finance or Operations: the title follows the user's department (domain/permissions).
    child('tenant-connect', 'breakeven-target', 'Breakeven Target', 'target'),
    child('tenant-connect', 'tenant-management', 'Tenant Management', 'people'),
    child('tenant-connect', 'audit-logs', 'Audit Logs', 'history'),
    child('tenant-connect', 'sales-analysis', 'Sales Analysis', 'chart'),
    child('tenant-connect', 'sales-review', 'Sales Review', 'timeline-line-chart'),
    child('tenant-connect', 'sales-review/non-trading-day', 'Non-trading Day', 'calendar', { hideOnSidebar: true }),
  ]),
  group('tenants', 'Tenants', 'shopping-cart', [
    child('tenants', 'tenant-receipt-data', 'Receipt Data', 'document'),
    child('tenants', 'gross-turnover', 'Gross Turnover', 'bank-account'),
    child('tenants', 'gto_submission', 'GTO Submission', 'clipboard'),
  ]),
  single('receipts', 'Receipts', 'th'),
  single('settings', 'Settings', 'cog'),
  group('apps', 'Apps', 'application', [
    child('apps', 'apps', 'Apps', 'application', { path: '', index: true }),
    child('apps', 'xero', 'Xero', 'link'),
  ]),
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
