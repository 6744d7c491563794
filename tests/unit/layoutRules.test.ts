import { describe, expect, it } from 'vitest';
import { isMobileUserAgent } from '../../src/domain/device';
import { hasFilterQuery } from '../../src/domain/filterUrl';
import { INSPECTOR_SHORTCUT_LABEL, inspectRequestOf, isInspectorShortcut } from '../../src/domain/inspector';
import {
  breadcrumbFor,
  isCurrentLink,
  isExternalLink,
  menuGroupOf,
  sidebarMenu,
  sortClients,
} from '../../src/domain/menu';
import {
  canInspectMachines,
  permittedRoutes,
  type RouteNode,
  type RoutePermission,
  type RouteUser,
} from '../../src/domain/permissions';
import { ROUTES } from '../../src/routes';

/* The layout's rules (§2, §3, §9) as pure functions: sidebar entries, breadcrumb, clients, device, inspector. */

function user(permissions: RoutePermission[], overrides: Partial<RouteUser> = {}): RouteUser {
  return { roles: [], permissions, flags: { tenantOnly: false, receiptsHidden: false }, ...overrides };
}

function route(path: string, title: string, extra: Partial<RouteNode> = {}): RouteNode {
  const name = path.split('/').filter(Boolean).at(-1) ?? '';
  return { name, path, meta: { title, icon: 'dot' }, ...extra };
}

describe('the sidebar (§2)', () => {
  it('lists groups as sub-menus and collapses a single visible child into one item', () => {
    const routes = permittedRoutes(
      ROUTES,
      user([
        { name: 'shopper-connect', subPermissions: ['mall-home', 'cross-spending', 'cross-spending/details'] },
        { name: 'tenants', subPermissions: ['gross-turnover'] },
        { name: 'receipts', subPermissions: [] },
      ]),
    );
    const menu = sidebarMenu(routes);
    expect(menu.map((entry) => `${entry.kind}:${entry.title}`)).toEqual([
      'group:Shopper Connect',
      'link:Gross Turnover',
      'link:Receipts',
    ]);
    const [shopper, grossTurnover, receipts] = menu;
    // Hide-on-sidebar children are not listed.
    expect(shopper?.kind === 'group' && shopper.children.map((child) => child.path)).toEqual([
      '/shopper-connect/mall-home',
      '/shopper-connect/cross-spending',
    ]);
    expect(grossTurnover).toMatchObject({ path: '/tenants/gross-turnover', icon: 'bank-account', external: false });
    expect(receipts).toMatchObject({ path: '/receipts', title: 'Receipts' });
  });

  it('leaves hidden routes out and marks external links', () => {
    const routes: RouteNode[] = [
      route('/help', 'Help', { meta: { title: 'Help', icon: 'help', hidden: true } }),
      route('https://docs.example.com/guide', 'Guide'),
      route('/docs', 'Docs', {
        children: [
          route('/docs/a', 'A', { meta: { title: 'A', icon: 'dot', hideOnSidebar: true } }),
          route('/docs/b', 'B'),
        ],
      }),
    ];
    const menu = sidebarMenu(routes);
    expect(menu.map((entry) => entry.title)).toEqual(['Guide', 'B']);
    expect(menu[0]).toMatchObject({ kind: 'link', external: true });
    expect(isExternalLink('mailto:ops@example.com')).toBe(true);
    expect(isExternalLink('tel:+6512345678')).toBe(true);
    expect(isExternalLink('/receipts')).toBe(false);
    expect(isExternalLink('//evil.example')).toBe(false);
  });

  it("lists the super admin's Outbox as one item, for the super admin only", () => {
    const adminMenu = sidebarMenu(permittedRoutes(ROUTES, user([], { roles: ['super admin'] })));
    expect(adminMenu.at(-1)).toEqual({
      kind: 'link',
      path: '/admin/outbox',
      title: 'Outbox',
      icon: 'envelope',
      external: false,
    });
    const operatorMenu = sidebarMenu(
      permittedRoutes(
        ROUTES,
        user([
          { name: 'receipts', subPermissions: [] },
          { name: 'admin', subPermissions: ['outbox'] },
        ]),
      ),
    );
    expect(operatorMenu.map((entry) => entry.title)).toEqual(['Receipts']);
  });

  it('finds the group of a page and the current link, parameters included', () => {
    const menu = sidebarMenu(ROUTES);
    expect(menuGroupOf(menu, '/shopper-connect/mall-gmv')).toBe('/shopper-connect');
    expect(menuGroupOf(menu, '/receipts')).toBeUndefined();
    expect(menuGroupOf(menu, '/no/such/page')).toBeUndefined();
    expect(isCurrentLink({ path: '/receipts', external: false }, '/receipts')).toBe(true);
    expect(
      isCurrentLink({ path: '/shopper-connect/mall-outlet/:id', external: false }, '/shopper-connect/mall-outlet/7'),
    ).toBe(true);
    expect(isCurrentLink({ path: '/receipts', external: true }, '/receipts')).toBe(false);
  });
});

describe('the breadcrumb (§2)', () => {
  const routes = permittedRoutes(ROUTES, user([], { roles: ['super admin'] }));

  it('starts with Dashboard, then the matched named routes; only Dashboard is a link', () => {
    expect(breadcrumbFor(routes, '/shopper-connect/mall-gmv')).toEqual([
      { title: 'Dashboard', path: '/' },
      { title: 'Shopper Connect', path: undefined },
      { title: 'Mall GMV', path: undefined },
    ]);
    expect(breadcrumbFor(routes, '/shopper-connect/mall-outlet/12').map((crumb) => crumb.title)).toEqual([
      'Dashboard',
      'Shopper Connect',
      'Mall Outlet',
    ]);
  });

  it('shows a single page once (Receipts is a route and its page)', () => {
    expect(breadcrumbFor(routes, '/receipts').map((crumb) => crumb.title)).toEqual(['Dashboard', 'Receipts']);
    expect(breadcrumbFor(routes, '/apps').map((crumb) => crumb.title)).toEqual(['Dashboard', 'Apps']);
    expect(breadcrumbFor(routes, '/apps/xero').map((crumb) => crumb.title)).toEqual(['Dashboard', 'Apps', 'Xero']);
    expect(breadcrumbFor(routes, '/admin/outbox').map((crumb) => crumb.title)).toEqual([
      'Dashboard',
      'Admin',
      'Outbox',
    ]);
  });

  it('does not start with Dashboard when the first route is the dashboard', () => {
    const withDashboard: RouteNode[] = [route('/', 'Home', { children: [route('/', 'Home')] }), ...routes];
    expect(breadcrumbFor(withDashboard, '/', '/')).toEqual([{ title: 'Home', path: undefined }]);
    // Off the table (/ without pages): Dashboard alone, the page shown.
    expect(breadcrumbFor(routes, '/')).toEqual([{ title: 'Dashboard', path: undefined }]);
  });

  it("uses the department's title on the breakeven page", () => {
    const leasing = permittedRoutes(
      ROUTES,
      user([{ name: 'tenant-connect', subPermissions: ['breakeven-target'] }], { roles: ['leasing'] }),
    );
    expect(breadcrumbFor(leasing, '/tenant-connect/breakeven-target').map((crumb) => crumb.title)).toEqual([
      'Dashboard',
      'Tenant Connect',
      'Leasing',
    ]);
  });
});

describe('clients, device and the machine inspector', () => {
  it('sorts clients case-insensitively by name (§3)', () => {
    const clients = [
      { id: 3, name: 'sunrise Retail' },
      { id: 1, name: 'Harbourfront' },
      { id: 2, name: 'alpha Malls' },
      { id: 4, name: 'Harbourfront' },
    ];
    expect(sortClients(clients).map((client) => client.id)).toEqual([2, 1, 4, 3]);
    // Not in place.
    expect(clients[0]?.id).toBe(3);
  });

  it('tells mobile by the user agent (§2)', () => {
    expect(
      isMobileUserAgent('Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148'),
    ).toBe(true);
    expect(
      isMobileUserAgent('Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 Chrome/126 Mobile Safari'),
    ).toBe(true);
    expect(isMobileUserAgent('Mozilla/5.0 (iPad; CPU OS 17_4 like Mac OS X) AppleWebKit/605.1.15')).toBe(true);
    expect(isMobileUserAgent('Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/126 Safari/537.36')).toBe(
      false,
    );
    expect(isMobileUserAgent('Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:126.0) Gecko/20100101 Firefox/126.0')).toBe(
      false,
    );
  });

  it('opens the inspector with Ctrl+Alt+I (not the devtools Ctrl+Shift+I) or ?inspect=1 / ?inspect=stately', () => {
    const keys = { ctrlKey: true, altKey: true, shiftKey: false, metaKey: false, code: 'KeyI' };
    expect(INSPECTOR_SHORTCUT_LABEL).toBe('Ctrl+Alt+I');
    expect(isInspectorShortcut(keys)).toBe(true);
    expect(isInspectorShortcut({ ...keys, altKey: false, shiftKey: true })).toBe(false);
    expect(isInspectorShortcut({ ...keys, code: 'KeyJ' })).toBe(false);
    expect(isInspectorShortcut({ ...keys, metaKey: true })).toBe(false);
    expect(inspectRequestOf('?inspect=1')).toBe('panel');
    expect(inspectRequestOf('client=1&inspect=true')).toBe('panel');
    expect(inspectRequestOf('inspect=stately')).toBe('stately');
    expect(inspectRequestOf('inspect=0')).toBeUndefined();
    expect(inspectRequestOf('')).toBeUndefined();
  });

  it('lets super admins and holders of the machine-inspector component permission inspect', () => {
    expect(canInspectMachines({ roles: ['super admin'], permissionsComponents: [] })).toBe(true);
    expect(canInspectMachines({ roles: ['mall operator'], permissionsComponents: ['machine-inspector'] })).toBe(true);
    expect(
      canInspectMachines({ roles: ['mall operator'], permissionsComponents: ['datetime-picker-limitation'] }),
    ).toBe(false);
  });

  it('tells a query that carries filters from one that does not', () => {
    expect(hasFilterQuery('')).toBe(false);
    expect(hasFilterQuery('?range=7&inspect=1')).toBe(false);
    expect(hasFilterQuery('?malls=1,2')).toBe(true);
    expect(hasFilterQuery('page=2&time_range=weekly')).toBe(true);
  });
});
