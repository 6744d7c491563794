/**
 * Request permissions (§6): the server hands the browser a list of `path::Action` pairs and
 * the browser cancels any call that no pair allows. Pure functions, no I/O.
 */

export type PermissionAction = 'Read' | 'Create' | 'Update' | 'Delete';

const actionsByMethod: Readonly<Record<string, PermissionAction>> = {
  GET: 'Read',
  POST: 'Create',
  PUT: 'Update',
  DELETE: 'Delete',
};

/** GET = Read, POST = Create, PUT = Update, DELETE = Delete; any other method has no action. */
export function actionForMethod(method: string): PermissionAction | undefined {
  return actionsByMethod[method.toUpperCase()];
}

/** Authentication endpoints that work without (or before) a permission list. */
const authPaths: ReadonlySet<string> = new Set([
  '/api/login',
  '/api/logout',
  '/api/getcsrftoken',
  '/api/credential',
  '/api/otp',
  '/api/verifyOtp',
]);
const authPrefixes: readonly string[] = ['/api/user/'];

/** The path part of a request target: no origin, no query string, no fragment. */
export function requestPathOf(target: string): string {
  const withoutOrigin = target.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i, '');
  const end = withoutOrigin.search(/[?#]/);
  const path = end === -1 ? withoutOrigin : withoutOrigin.slice(0, end);
  return path === '' ? '/' : path;
}

/** Login, logout, CSRF token, credential check, one-time code and everything under /api/user/. */
export function isAuthEndpoint(path: string): boolean {
  const requestPath = requestPathOf(path);
  return authPaths.has(requestPath) || authPrefixes.some((prefix) => requestPath.startsWith(prefix));
}

/** Calls that are never cancelled on the client even without a matching pair (§6). */
export function isExemptFromPermissions(path: string): boolean {
  const requestPath = requestPathOf(path);
  return requestPath.includes('/payment') || requestPath === '/api/user/password';
}

interface PermissionPair {
  readonly path: string;
  readonly action: string;
}

/** Splits `path::Action`; a string without `::` is not a pair. */
export function parsePermission(permission: string): PermissionPair | undefined {
  const separator = permission.lastIndexOf('::');
  if (separator <= 0) return undefined;
  return { path: permission.slice(0, separator).trim(), action: permission.slice(separator + 2).trim() };
}

function pathMatches(pattern: string, requestPath: string): boolean {
  if (pattern === '*') return true;
  if (pattern.endsWith('/*')) return requestPath.startsWith(pattern.slice(0, -1));
  return pattern === requestPath;
}

/**
 * Whether a `path::Action` pair of the list matches the path (exactly, by a `prefix/*` pattern or
 * by `*`) and the action of the method (or `*`). No exemptions: the server uses this too.
 */
export function hasPermission(permissionsList: readonly string[], path: string, method: string): boolean {
  const requestPath = requestPathOf(path);
  const action = actionForMethod(method);
  return permissionsList.some((permission) => {
    const pair = parsePermission(permission);
    if (!pair) return false;
    const actionMatches = pair.action === '*' || (action !== undefined && pair.action === action);
    return actionMatches && pathMatches(pair.path, requestPath);
  });
}

/**
 * Whether the browser may send a request (§6): authentication endpoints always, payment URLs and
 * the password change always, anything else only with a matching pair.
 */
export function isRequestAllowed(permissionsList: readonly string[], path: string, method: string): boolean {
  return isAuthEndpoint(path) || isExemptFromPermissions(path) || hasPermission(permissionsList, path, method);
}

/*
 * Routes from permissions (§6) and the landing page (§2). The route table itself lives in
 * src/routes.ts (it names lazy pages); these functions only see its pure shape.
 */

export interface RouteMeta {
  readonly title: string;
  /** A Blueprint icon name. */
  readonly icon: string;
  /** Never listed (nor chosen as a landing page). */
  readonly hidden?: boolean;
  /** Routed, but not listed in the sidebar (detail pages). */
  readonly hideOnSidebar?: boolean;
  /** Only the super admin gets the route, whatever the permissions of anyone else name (the admin pages). */
  readonly superAdminOnly?: boolean;
  /**
   * Listed, but never a landing page: a page every staff role keeps beside its own (the calendar, the events), so
   * that a department still lands on its own first page.
   */
  readonly notLanding?: boolean;
}

export interface RouteNode {
  /** Top-level: the permission name (`shopper-connect`); child: the sub-permission name (`breakeven-target/marcom`). */
  readonly name: string;
  /** Absolute path; a child's may hold parameters (`/shopper-connect/mall-outlet/:id`). */
  readonly path: string;
  readonly meta: RouteMeta;
  /** The group's own page (e.g. /apps): kept whenever its group is permitted. */
  readonly index?: boolean;
  readonly children?: readonly RouteNode[];
}

/** A route permission as the server sends it: a top-level route name and its permitted children. */
export interface RoutePermission {
  readonly name: string;
  readonly subPermissions: readonly string[];
}

/** The account flags that stand for the special accounts (data, not names in code). */
export interface AccountFlags {
  readonly tenantOnly: boolean;
  readonly receiptsHidden: boolean;
}

/** What route generation reads of the user info. */
export interface RouteUser {
  readonly roles: readonly string[];
  readonly permissions: readonly RoutePermission[];
  readonly flags: AccountFlags;
}

export const SUPER_ADMIN_ROLE = 'super admin';
export const TENANT_ONLY_LANDING_PAGE = '/tenant-connect/sales-review';
export const MALL_HOME_PAGE = '/shopper-connect/mall-home';

/**
 * The tenant-connect children that the tenant-only account loses and everyone else is limited to: §6's three, and
 * the staff pages beyond the spec that follow the same rule (the leases and their rent statements, issue 33).
 */
const TENANT_CONNECT_GROUP = 'tenant-connect';
const TENANT_CONNECT_SHARED_CHILDREN: readonly string[] = [
  'gto-review',
  'non-trading-days',
  'breakeven-target',
  'leases',
  'rent-statements',
];
const RECEIPTS_ROUTE = 'receipts';
const TENANTS_GROUP = 'tenants';
const RECEIPT_DATA_CHILD = 'tenant-receipt-data';
const BREAKEVEN_CHILD = 'breakeven-target';

/**
 * Route and permission names are compared ignoring slashes: 'breakeven-targetmarcom' names
 * 'breakeven-target/marcom'. Path parameters are ignored too: 'mall-outlet' names 'mall-outlet/:id'.
 */
export function routeNameKey(name: string): string {
  return name.replace(/\/?:[^/]+/g, '').replace(/\//g, '');
}

function sameRouteName(a: string, b: string): boolean {
  return routeNameKey(a) === routeNameKey(b);
}

export function isSuperAdmin(user: Pick<RouteUser, 'roles'>): boolean {
  return user.roles.includes(SUPER_ADMIN_ROLE);
}

/** The sub-permissions the user holds under a top-level route name (undefined: no such permission). */
function subPermissionsOf(permissions: readonly RoutePermission[], name: string): readonly string[] | undefined {
  const held = permissions.filter((permission) => sameRouteName(permission.name, name));
  if (held.length === 0) return undefined;
  return held.flatMap((permission) => permission.subPermissions);
}

/** Whether the user holds the route permission `name` with the sub-permission `child` (ignoring slashes). */
export function holdsPermission(permissions: readonly RoutePermission[], name: string, child: string): boolean {
  return (subPermissionsOf(permissions, name) ?? []).some((sub) => sameRouteName(sub, child));
}

function withChildren<T extends RouteNode>(route: T, children: readonly RouteNode[]): T {
  return { ...route, children };
}

/**
 * §6: "Role 'super admin' gets all routes. Other users get routes whose names match their
 * permissions and sub-permissions, ignoring slashes. A route with a single child is kept."
 * (A route with a single child keeps that child without a sub-permission; a group's index page is
 * kept with its group.)
 */
function routesByPermission<T extends RouteNode>(table: readonly T[], user: RouteUser): T[] {
  if (isSuperAdmin(user)) return [...table];
  const result: T[] = [];
  for (const route of table) {
    const subPermissions = subPermissionsOf(user.permissions, route.name);
    if (subPermissions === undefined) continue;
    const children = route.children;
    if (!children || children.length <= 1) {
      result.push(route);
      continue;
    }
    const permitted = children.filter(
      (child) => child.index === true || subPermissions.some((sub) => sameRouteName(sub, child.name)),
    );
    if (permitted.length > 0) result.push(withChildren(route, permitted));
  }
  return result;
}

/**
 * §6, implemented literally: "A specific tenant-only account sees only tenant-connect, minus
 * gto-review, non-trading-days and breakeven-target. All other users see tenant-connect only with
 * the gto-review, non-trading-days and breakeven-target children."
 * The tenant-only account gets the tenant-connect group of the whole table (it is an account rule,
 * not a permission); every other account but the super admin (who sees every route, the first rule)
 * keeps of their tenant-connect children only those three.
 */
function applyTenantConnectRule<T extends RouteNode>(table: readonly T[], routes: readonly T[], user: RouteUser): T[] {
  if (user.flags.tenantOnly) {
    return table
      .filter((route) => route.name === TENANT_CONNECT_GROUP)
      .map((route) =>
        withChildren(
          route,
          (route.children ?? []).filter((child) => !TENANT_CONNECT_SHARED_CHILDREN.includes(child.name)),
        ),
      );
  }
  return routes.flatMap((route) => {
    if (route.name !== TENANT_CONNECT_GROUP) return [route];
    const children = (route.children ?? []).filter((child) => TENANT_CONNECT_SHARED_CHILDREN.includes(child.name));
    return children.length > 0 ? [withChildren(route, children)] : [];
  });
}

/**
 * §6: "Accounts with one particular partner e-mail domain lose the receipts route and the Receipt
 * Data child of tenants." (flags.receiptsHidden)
 */
function applyPartnerRule<T extends RouteNode>(routes: readonly T[], user: RouteUser): T[] {
  if (!user.flags.receiptsHidden) return [...routes];
  return routes.flatMap((route) => {
    if (route.name === RECEIPTS_ROUTE) return [];
    if (route.name !== TENANTS_GROUP) return [route];
    const children = (route.children ?? []).filter((child) => child.name !== RECEIPT_DATA_CHILD);
    return children.length > 0 ? [withChildren(route, children)] : [];
  });
}

/**
 * Routes flagged super-admin-only (and such children of other routes) are the super admin's alone: everyone
 * else loses them, even with a route permission that names them.
 */
function applySuperAdminRule<T extends RouteNode>(routes: readonly T[], user: RouteUser): T[] {
  if (isSuperAdmin(user)) return [...routes];
  return routes.flatMap((route) => {
    if (route.meta.superAdminOnly === true) return [];
    if (!route.children) return [route];
    const children = route.children.filter((child) => child.meta.superAdminOnly !== true);
    if (children.length === route.children.length) return [route];
    return children.length > 0 ? [withChildren(route, children)] : [];
  });
}

/** §2: breakeven target pages are titled Leasing, Finance, Marcom and Operations. */
const BREAKEVEN_DEPARTMENTS: readonly string[] = ['Leasing', 'Finance', 'Operations'];

/**
 * The department title of the tenant-connect breakeven page, from the user's roles ('leasing',
 * 'Finance team', …); undefined when no role names a department.
 */
export function breakevenDepartmentOf(roles: readonly string[]): string | undefined {
  return BREAKEVEN_DEPARTMENTS.find((department) =>
    roles.some((role) => role.toLowerCase().includes(department.toLowerCase())),
  );
}

function applyDepartmentTitle<T extends RouteNode>(routes: readonly T[], user: RouteUser): T[] {
  const department = breakevenDepartmentOf(user.roles);
  if (department === undefined) return [...routes];
  return routes.map((route) => {
    if (route.name !== TENANT_CONNECT_GROUP || !route.children) return route;
    return withChildren(
      route,
      route.children.map((child) =>
        child.name === BREAKEVEN_CHILD ? { ...child, meta: { ...child.meta, title: department } } : child,
      ),
    );
  });
}

/**
 * The routes a user may open (§6), in table order, with the department title on the breakeven page; the
 * super-admin-only routes for the super admin alone.
 */
export function permittedRoutes<T extends RouteNode>(table: readonly T[], user: RouteUser): T[] {
  // The first rule first: the super admin sees every route; the narrowing rules are for the other accounts.
  if (isSuperAdmin(user)) return applyDepartmentTitle(table, user);
  const byPermission = routesByPermission(table, user);
  const tenantConnect = applyTenantConnectRule(table, byPermission, user);
  return applySuperAdminRule(applyDepartmentTitle(applyPartnerRule(tenantConnect, user), user), user);
}

/** The pages of a route list: the children of groups, or the route itself when it has none. */
export function pagesOf<T extends RouteNode>(routes: readonly T[]): RouteNode[] {
  return routes.flatMap((route) => (route.children && route.children.length > 0 ? [...route.children] : [route]));
}

/** Whether a path pattern (`/a/:id`) matches a concrete path (no query). */
export function pathMatchesPattern(pattern: string, path: string): boolean {
  const patternParts = pattern.split('/').filter(Boolean);
  const pathParts = path.split('/').filter(Boolean);
  if (patternParts.length !== pathParts.length) return false;
  return patternParts.every((part, index) => {
    const actual = pathParts[index];
    if (actual === undefined) return false;
    return part.startsWith(':') ? actual !== '' : part === actual;
  });
}

/** The permitted page a path opens, if any. */
export function findPage(routes: readonly RouteNode[], path: string): RouteNode | undefined {
  return pagesOf(routes).find((page) => pathMatchesPattern(page.path, path));
}

/** A page one can land on: listed, not kept from landing, and without path parameters. */
function isLandable(page: RouteNode): boolean {
  return (
    page.meta.hidden !== true &&
    page.meta.hideOnSidebar !== true &&
    page.meta.notLanding !== true &&
    !page.path.includes('/:')
  );
}

/** The routes and children listed in the sidebar: hidden and hide-on-sidebar routes are not. */
export function sidebarRoutes<T extends RouteNode>(routes: readonly T[]): T[] {
  return routes.flatMap((route) => {
    if (route.meta.hidden === true || route.meta.hideOnSidebar === true) return [];
    if (!route.children) return [route];
    const children = route.children.filter((child) => child.meta.hidden !== true && child.meta.hideOnSidebar !== true);
    return children.length > 0 ? [withChildren(route, children)] : [];
  });
}

/**
 * §2: "Landing page: /shopper-connect/mall-home if the user holds the shopper-connect permission
 * with the mall-home sub-permission; otherwise the first permitted route (its first permitted
 * child); else /. A specific tenant-only account always lands on /tenant-connect/sales-review."
 * Detail pages (hidden, hide-on-sidebar or with parameters) are skipped as landing pages.
 */
export function landingPageFor(routes: readonly RouteNode[], user: RouteUser): string {
  if (user.flags.tenantOnly) return TENANT_ONLY_LANDING_PAGE;
  if (holdsPermission(user.permissions, 'shopper-connect', 'mall-home')) return MALL_HOME_PAGE;
  for (const route of routes) {
    if (route.meta.hidden === true) continue;
    const pages = route.children && route.children.length > 0 ? route.children : [route];
    const first = pages.find(isLandable);
    if (first) return first.path;
  }
  return '/';
}

/* ---------------------------------------------------------------- machine inspector */

/** The component permission that opens the live machine inspector to a user who is not super admin. */
export const MACHINE_INSPECTOR_COMPONENT = 'machine-inspector';

/** Who may open the machine inspector: super admin, or a holder of the 'machine-inspector' component permission. */
export function canInspectMachines(user: {
  readonly roles: readonly string[];
  readonly permissionsComponents: readonly string[];
}): boolean {
  return isSuperAdmin(user) || user.permissionsComponents.includes(MACHINE_INSPECTOR_COMPONENT);
}
