import type { IconName } from '@blueprintjs/icons';
import type { RouteMeta, RouteNode } from './permissions';

/**
 * The route table (§2) as pure data: every permission-gated route of the main layout with its path, name and
 * meta, no pages. Top-level routes are named after route permissions, children after sub-permissions (§6
 * matches them ignoring slashes). Order matters: the landing page is the first permitted one. src/routes.ts
 * adds each page and its filters; the server derives the demo roles' route permissions from it.
 */

export interface TableRouteMeta extends RouteMeta {
  readonly icon: IconName;
}

export interface TableRoute extends RouteNode {
  readonly meta: TableRouteMeta;
  readonly children?: readonly TableRoute[];
}

interface ChildOptions {
  readonly hidden?: boolean;
  readonly hideOnSidebar?: boolean;
  readonly index?: boolean;
  /** The path below the group when it differs from the name (parameters). */
  readonly path?: string;
  /** Only the super admin gets the page (domain/permissions). */
  readonly superAdminOnly?: boolean;
  /** Never a landing page (domain/permissions). */
  readonly notLanding?: boolean;
}

function child(group: string, name: string, title: string, icon: IconName, options: ChildOptions = {}): TableRoute {
  const below = options.path ?? name;
  return {
    name,
    path: below === '' ? `/${group}` : `/${group}/${below}`,
    meta: {
      title,
      icon,
      ...(options.hidden !== undefined && { hidden: options.hidden }),
      ...(options.hideOnSidebar !== undefined && { hideOnSidebar: options.hideOnSidebar }),
      ...(options.superAdminOnly !== undefined && { superAdminOnly: options.superAdminOnly }),
      ...(options.notLanding !== undefined && { notLanding: options.notLanding }),
    },
    ...(options.index !== undefined && { index: options.index }),
  };
}

function group(
  name: string,
  title: string,
  icon: IconName,
  children: readonly TableRoute[],
  options: Pick<ChildOptions, 'superAdminOnly'> = {},
): TableRoute {
  return {
    name,
    path: `/${name}`,
    meta: {
      title,
      icon,
      ...(options.superAdminOnly !== undefined && { superAdminOnly: options.superAdminOnly }),
    },
    children,
  };
}

/** A top-level page: a route with its page as its single child (kept whenever the route is permitted). */
function single(name: string, title: string, icon: IconName): TableRoute {
  return group(name, title, icon, [child(name, name, title, icon, { path: '', index: true })]);
}

export const ROUTE_TABLE: readonly TableRoute[] = [
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
    // Whether each outlet's till is sending receipts, and the silences the feed check raised (issue 34).
    child('shopper-connect', 'data-feeds', 'Data Feeds', 'feed'),
    // Alert rules people set on a metric of their malls, and each rule's history (issue 34).
    child('shopper-connect', 'alerts', 'Alerts', 'notifications'),
    // Report pages mailed on a schedule as their PDF and workbook (issue 34).
    child('shopper-connect', 'report-subscriptions', 'Report Subscriptions', 'envelope', { notLanding: true }),
    // Every staff role keeps these beside its own pages: never where it lands.
    child('shopper-connect', 'calendar', 'Calendar', 'calendar', { notLanding: true }),
    child('shopper-connect', 'events', 'Events', 'timeline-events', { notLanding: true }),
    child('shopper-connect', 'mall-outlet/:id', 'Mall Outlet', 'shop', { hideOnSidebar: true }),
  ]),
  group('tenant-connect', 'Tenant Connect', 'office', [
    child('tenant-connect', 'gto-review', 'GTO Review', 'th-list'),
    child('tenant-connect', 'non-trading-days', 'Non-trading Days', 'calendar', { hideOnSidebar: true }),
    // Leasing, Finance or Operations: the title follows the user's department (domain/permissions).
    child('tenant-connect', 'breakeven-target', 'Breakeven Target', 'target'),
    // The leases of the selected malls' outlets and their turnover rent (issue 33): the client's leasing and finance.
    child('tenant-connect', 'leases', 'Leases', 'book'),
    child('tenant-connect', 'rent-statements', 'Rent Statements', 'calculator'),
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
    child('tenants', 'rent-statement', 'Rent Statement', 'calculator'),
  ]),
  single('receipts', 'Receipts', 'th'),
  single('settings', 'Settings', 'cog'),
  group('apps', 'Apps', 'application', [
    child('apps', 'apps', 'Apps', 'application', { path: '', index: true }),
    child('apps', 'xero', 'Xero', 'link'),
  ]),
  // Not a route of §2: the super admin's own pages, for nobody else whatever their permissions. Last, so that
  // it is never a landing page. Its single page shows in the sidebar as one 'Outbox' item.
  group('admin', 'Admin', 'shield', [child('admin', 'outbox', 'Outbox', 'envelope', { superAdminOnly: true })], {
    superAdminOnly: true,
  }),
];

/**
 * The route permissions a role can be given: each top-level route open to permissions (not the super admin's
 * own) with the sub-permissions of its children (a group's index page comes with the group).
 */
export function routePermissionNames(
  table: readonly RouteNode[] = ROUTE_TABLE,
): { name: string; children: string[] }[] {
  return table
    .filter((route) => route.meta.superAdminOnly !== true)
    .map((route) => ({
      name: route.name,
      children: (route.children ?? []).filter((child) => child.index !== true).map((child) => child.name),
    }));
}
