import { findPage, pathMatchesPattern, type RouteNode, sidebarRoutes } from './permissions';

/**
 * What the sidebar lists and what the breadcrumb shows (§2), as pure functions of the user's routes.
 * The routes are the navigation guard's (already filtered by permissions, §6).
 */

/** One link of the sidebar: a page of the app, or an outside address (§2: "not routed internally"). */
export interface MenuLink {
  readonly kind: 'link';
  readonly path: string;
  readonly title: string;
  readonly icon: string;
  readonly external: boolean;
}

/** A group of the sidebar, shown as a sub-menu. */
export interface MenuGroup {
  readonly kind: 'group';
  /** The group's path (`/shopper-connect`): names the group, never opened. */
  readonly path: string;
  readonly title: string;
  readonly icon: string;
  readonly children: readonly MenuLink[];
}

export type MenuEntry = MenuLink | MenuGroup;

/** §2: "Links that pass a URL check are external": a scheme such as `https:`, `mailto:` or `tel:`. */
export function isExternalLink(path: string): boolean {
  return /^(https?:|mailto:|tel:)/i.test(path);
}

function linkOf(route: RouteNode, fallbackIcon?: string): MenuLink {
  return {
    kind: 'link',
    path: route.path,
    title: route.meta.title,
    icon: route.meta.icon === '' && fallbackIcon !== undefined ? fallbackIcon : route.meta.icon,
    external: isExternalLink(route.path),
  };
}

/**
 * The sidebar's entries (§2): the permitted routes that are neither hidden nor hide-on-sidebar, a
 * route whose only visible child collapses into that child's item, other groups as sub-menus.
 */
export function sidebarMenu(routes: readonly RouteNode[]): MenuEntry[] {
  return sidebarRoutes(routes).map((route): MenuEntry => {
    const children = route.children ?? [];
    const only = children.length === 1 ? children[0] : undefined;
    if (only) return linkOf(only, route.meta.icon);
    if (children.length === 0) return linkOf(route);
    return {
      kind: 'group',
      path: route.path,
      title: route.meta.title,
      icon: route.meta.icon,
      children: children.map((child) => linkOf(child)),
    };
  });
}

/** The group (its path) of the sidebar that lists the page at `path`, if the page is in a group. */
export function menuGroupOf(menu: readonly MenuEntry[], path: string): string | undefined {
  for (const entry of menu) {
    if (entry.kind === 'group' && entry.children.some((child) => pathMatchesPattern(child.path, path))) {
      return entry.path;
    }
  }
  return undefined;
}

/** Whether a menu link is the page shown at `path`. */
export function isCurrentLink(link: Pick<MenuLink, 'path' | 'external'>, path: string): boolean {
  return !link.external && pathMatchesPattern(link.path, path);
}

/* ---------------------------------------------------------------- breadcrumb */

export const DASHBOARD_TITLE = 'Dashboard';
/** Where the Dashboard crumb leads: `/`, which the navigation guard turns into the landing page. */
export const DASHBOARD_PATH = '/';

export interface Crumb {
  readonly title: string;
  /** Where the crumb leads; undefined for the current page and for groups (they have no page). */
  readonly path: string | undefined;
}

/** The named routes a path matches: its group (when it has one) and its page. */
export function matchedRoutes(routes: readonly RouteNode[], path: string): RouteNode[] {
  const page = findPage(routes, path);
  if (!page) return [];
  const parent = routes.find((route) => route.children?.some((child) => child === page || child.path === page.path));
  return parent && parent !== page ? [parent, page] : [page];
}

/**
 * §2: the breadcrumb is built from the matched named routes and always starts with Dashboard unless
 * the first route is the dashboard (the route at `dashboardPath`). A group whose page has the group's
 * own title (a single page like Receipts) shows once. Only the Dashboard crumb is a link: groups have
 * no page and the last crumb is the page shown.
 */
export function breadcrumbFor(
  routes: readonly RouteNode[],
  path: string,
  dashboardPath: string = DASHBOARD_PATH,
): Crumb[] {
  const matched = matchedRoutes(routes, path).filter((route, index, all) => {
    const next = all[index + 1];
    return route.meta.title !== '' && (next === undefined || next.meta.title !== route.meta.title);
  });
  const crumbs: Crumb[] = matched.map((route) => ({ title: route.meta.title, path: undefined }));
  const first = matched[0];
  if (first === undefined || first.path !== dashboardPath) {
    const isHome = path === dashboardPath;
    crumbs.unshift({ title: DASHBOARD_TITLE, path: isHome ? undefined : dashboardPath });
  }
  return crumbs;
}

/* ---------------------------------------------------------------- clients */

/** §3: clients sorted case-insensitively by name (ties by id, so the order is stable). */
export function sortClients<T extends { readonly id: number; readonly name: string }>(clients: readonly T[]): T[] {
  return [...clients].sort((a, b) => {
    const left = a.name.toLowerCase();
    const right = b.name.toLowerCase();
    if (left !== right) return left < right ? -1 : 1;
    return a.id - b.id;
  });
}
