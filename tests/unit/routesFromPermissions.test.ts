import { describe, expect, it } from 'vitest';
import {
  breakevenDepartmentOf,
  findPage,
  holdsPermission,
  landingPageFor,
  pagesOf,
  pathMatchesPattern,
  permittedRoutes,
  type RoutePermission,
  type RouteUser,
  routeNameKey,
  sidebarRoutes,
} from '../../src/domain/permissions';
import { ROUTES } from '../../src/routes';

function user(permissions: RoutePermission[], overrides: Partial<RouteUser> = {}): RouteUser {
  return { roles: [], permissions, flags: { tenantOnly: false, receiptsHidden: false }, ...overrides };
}

function pathsOf(routeUser: RouteUser): string[] {
  return pagesOf(permittedRoutes(ROUTES, routeUser)).map((page) => page.path);
}

const TENANT_CONNECT_PAGES = [
  '/tenant-connect/gto-review',
  '/tenant-connect/non-trading-days',
  '/tenant-connect/breakeven-target',
  '/tenant-connect/leases',
  '/tenant-connect/rent-statements',
  '/tenant-connect/tenant-management',
  '/tenant-connect/audit-logs',
  '/tenant-connect/sales-analysis',
  '/tenant-connect/sales-review',
  '/tenant-connect/sales-review/non-trading-day',
];
const SHOPPER_CONNECT_PAGES = [
  '/shopper-connect/mall-home',
  '/shopper-connect/mall-gmv',
  '/shopper-connect/breakeven-target/marcom',
  '/shopper-connect/mall-peak-hours',
  '/shopper-connect/mall-payment-methods',
  '/shopper-connect/member-vs-non-member',
  '/shopper-connect/export',
  '/shopper-connect/cross-spending',
  '/shopper-connect/cross-spending/details',
  '/shopper-connect/sales-trends',
  '/shopper-connect/refunds',
  '/shopper-connect/voucher-redemption',
  '/shopper-connect/outlet-code',
  '/shopper-connect/data-feeds',
  '/shopper-connect/alerts',
  '/shopper-connect/report-subscriptions',
  '/shopper-connect/calendar',
  '/shopper-connect/events',
  '/shopper-connect/mall-outlet/:id',
];

describe('the route table', () => {
  it('holds every permission-gated route of §2, in landing order', () => {
    expect(pagesOf(ROUTES).map((page) => page.path)).toEqual([
      ...SHOPPER_CONNECT_PAGES,
      '/tenant-connect/gto-review',
      '/tenant-connect/non-trading-days',
      '/tenant-connect/breakeven-target',
      // Beyond §2: the leases (issue 33).
      '/tenant-connect/leases',
      '/tenant-connect/rent-statements',
      '/tenant-connect/tenant-management',
      '/tenant-connect/audit-logs',
      '/tenant-connect/sales-analysis',
      '/tenant-connect/sales-review',
      '/tenant-connect/sales-review/non-trading-day',
      '/tenants/tenant-receipt-data',
      '/tenants/gross-turnover',
      '/tenants/gto_submission',
      '/tenants/rent-statement',
      '/receipts',
      '/settings',
      '/apps',
      '/apps/xero',
      // Not of §2: the super admin's outbox, last so that it is never a landing page.
      '/admin/outbox',
    ]);
  });

  it('hides the detail pages of §2 from the sidebar', () => {
    const hidden = pagesOf(ROUTES)
      .filter((page) => page.meta.hideOnSidebar === true)
      .map((page) => page.path);
    expect(hidden).toEqual([
      '/shopper-connect/cross-spending/details',
      '/shopper-connect/mall-outlet/:id',
      '/tenant-connect/non-trading-days',
      '/tenant-connect/sales-review/non-trading-day',
    ]);
    const listed = pagesOf(sidebarRoutes(ROUTES)).map((page) => page.path);
    for (const path of hidden) expect(listed).not.toContain(path);
    expect(listed).toContain('/shopper-connect/cross-spending');
  });

  it('titles the breakeven pages and the receipt data page as §2 says', () => {
    const titles = new Map(pagesOf(ROUTES).map((page) => [page.path, page.meta.title]));
    expect(titles.get('/shopper-connect/mall-home')).toBe('Mall Home');
    expect(titles.get('/shopper-connect/breakeven-target/marcom')).toBe('Marcom');
    expect(titles.get('/tenants/tenant-receipt-data')).toBe('Receipt Data');
  });
});

describe('routes from permissions (§6)', () => {
  it('gives super admin every route, every tenant-connect page included (the first rule of §6)', () => {
    const paths = pathsOf(user([], { roles: ['super admin'] }));
    expect(paths.slice(0, SHOPPER_CONNECT_PAGES.length)).toEqual(SHOPPER_CONNECT_PAGES);
    const tenantConnect = paths.filter((path) => path.startsWith('/tenant-connect/'));
    expect(tenantConnect).toEqual(TENANT_CONNECT_PAGES);
    expect(tenantConnect).toHaveLength(10);
    expect(paths).toContain('/tenants/tenant-receipt-data');
    expect(paths).toContain('/receipts');
    expect(paths).toContain('/apps/xero');
    expect(paths).toContain('/admin/outbox');
    expect(paths).toHaveLength(SHOPPER_CONNECT_PAGES.length + 10 + 4 + 4 + 1);
  });

  it('gives an operator the routes and children its permissions name, ignoring slashes', () => {
    const operator = user([
      {
        name: 'shopper-connect',
        subPermissions: ['mall-home', 'mall-gmv', 'breakeven-targetmarcom', 'cross-spending/details'],
      },
      { name: 'tenant-connect', subPermissions: ['gto-review', 'sales-review', 'audit-logs'] },
      { name: 'receipts', subPermissions: [] },
      { name: 'settings', subPermissions: [] },
    ]);
    expect(pathsOf(operator)).toEqual([
      '/shopper-connect/mall-home',
      '/shopper-connect/mall-gmv',
      '/shopper-connect/breakeven-target/marcom',
      '/shopper-connect/cross-spending/details',
      // "All other users see tenant-connect only with the gto-review, non-trading-days and breakeven-target children."
      '/tenant-connect/gto-review',
      // A route with a single child is kept, without a sub-permission.
      '/receipts',
      '/settings',
    ]);
    expect(landingPageFor(permittedRoutes(ROUTES, operator), operator)).toBe('/shopper-connect/mall-home');
  });

  it('matches the sub-permission "breakeven-target/marcom" written with or without its slash', () => {
    expect(routeNameKey('breakeven-target/marcom')).toBe(routeNameKey('breakeven-targetmarcom'));
    for (const sub of ['breakeven-target/marcom', 'breakeven-targetmarcom']) {
      expect(pathsOf(user([{ name: 'shopper-connect', subPermissions: [sub] }]))).toEqual([
        '/shopper-connect/breakeven-target/marcom',
      ]);
    }
    expect(pathsOf(user([{ name: 'shopper-connect', subPermissions: ['breakeven-target'] }]))).toEqual([]);
  });

  it('gives a department user its breakeven page, titled after the department', () => {
    const leasing = user([{ name: 'tenant-connect', subPermissions: ['breakeven-target'] }], { roles: ['leasing'] });
    const routes = permittedRoutes(ROUTES, leasing);
    expect(pagesOf(routes).map((page) => [page.path, page.meta.title])).toEqual([
      ['/tenant-connect/breakeven-target', 'Leasing'],
    ]);
    expect(landingPageFor(routes, leasing)).toBe('/tenant-connect/breakeven-target');
    expect(breakevenDepartmentOf(['Finance team'])).toBe('Finance');
    expect(breakevenDepartmentOf(['operations'])).toBe('Operations');
    expect(breakevenDepartmentOf(['mall operator'])).toBeUndefined();
    // The table itself is untouched.
    expect(findPage(ROUTES, '/tenant-connect/breakeven-target')?.meta.title).toBe('Breakeven Target');
  });

  it('gives a tenant its tenant pages and lands on the first one it can list', () => {
    const tenant = user([
      { name: 'tenant-connect', subPermissions: ['non-trading-days', 'sales-review'] },
      { name: 'tenants', subPermissions: ['gross-turnover', 'gto_submission'] },
    ]);
    const routes = permittedRoutes(ROUTES, tenant);
    expect(pagesOf(routes).map((page) => page.path)).toEqual([
      '/tenant-connect/non-trading-days',
      '/tenants/gross-turnover',
      '/tenants/gto_submission',
    ]);
    // non-trading-days is a hide-on-sidebar page: not a landing page.
    expect(landingPageFor(routes, tenant)).toBe('/tenants/gross-turnover');
    expect(pagesOf(sidebarRoutes(routes)).map((page) => page.path)).toEqual([
      '/tenants/gross-turnover',
      '/tenants/gto_submission',
    ]);
  });

  it('gives the tenant-only account only tenant-connect minus gto-review, non-trading-days and breakeven-target', () => {
    const tenantOnly = user([{ name: 'shopper-connect', subPermissions: ['mall-home'] }], {
      flags: { tenantOnly: true, receiptsHidden: false },
    });
    const routes = permittedRoutes(ROUTES, tenantOnly);
    expect(pagesOf(routes).map((page) => page.path)).toEqual([
      '/tenant-connect/tenant-management',
      '/tenant-connect/audit-logs',
      '/tenant-connect/sales-analysis',
      '/tenant-connect/sales-review',
      '/tenant-connect/sales-review/non-trading-day',
    ]);
    // Always sales review, even holding mall-home.
    expect(landingPageFor(routes, tenantOnly)).toBe('/tenant-connect/sales-review');
  });

  it('takes the receipts route and the Receipt Data child of tenants from the partner account', () => {
    const partner = user(
      [
        { name: 'shopper-connect', subPermissions: ['mall-home'] },
        { name: 'tenants', subPermissions: ['tenant-receipt-data', 'gross-turnover'] },
        { name: 'receipts', subPermissions: [] },
      ],
      { flags: { tenantOnly: false, receiptsHidden: true } },
    );
    expect(pathsOf(partner)).toEqual(['/shopper-connect/mall-home', '/tenants/gross-turnover']);
    const onlyReceipts = user([{ name: 'tenants', subPermissions: ['tenant-receipt-data'] }], {
      roles: ['super admin'],
      flags: { tenantOnly: false, receiptsHidden: true },
    });
    // The super admin sees every route, whatever the account's domain: the narrowing rules are for the others.
    const paths = pathsOf(onlyReceipts);
    expect(paths).toContain('/receipts');
    expect(paths).toContain('/tenants/tenant-receipt-data');
    expect(paths).toContain('/tenants/gross-turnover');
  });

  it('matches the mall outlet page with or without its parameter', () => {
    for (const sub of ['mall-outlet/:id', 'mall-outlet']) {
      expect(pathsOf(user([{ name: 'shopper-connect', subPermissions: [sub] }]))).toEqual([
        '/shopper-connect/mall-outlet/:id',
      ]);
    }
    expect(routeNameKey('mall-outlet/:id')).toBe('mall-outlet');
  });

  it('keeps the index page of a permitted group and needs a sub-permission for its other children', () => {
    expect(pathsOf(user([{ name: 'apps', subPermissions: [] }]))).toEqual(['/apps']);
    expect(pathsOf(user([{ name: 'apps', subPermissions: ['xero'] }]))).toEqual(['/apps', '/apps/xero']);
  });

  it('merges the sub-permissions of one route given by several roles', () => {
    const merged = user([
      { name: 'shopper-connect', subPermissions: ['mall-gmv'] },
      { name: 'shopper-connect', subPermissions: ['export'] },
    ]);
    expect(pathsOf(merged)).toEqual(['/shopper-connect/mall-gmv', '/shopper-connect/export']);
    expect(holdsPermission(merged.permissions, 'shopper-connect', 'export')).toBe(true);
    expect(holdsPermission(merged.permissions, 'tenant-connect', 'export')).toBe(false);
  });

  it('drops a group left without children and ignores unknown permissions', () => {
    expect(pathsOf(user([{ name: 'tenant-connect', subPermissions: ['sales-review'] }]))).toEqual([]);
    expect(pathsOf(user([{ name: 'no-such-route', subPermissions: ['x'] }]))).toEqual([]);
  });
});

describe("the super admin's pages", () => {
  const EVERY_ROUTE_PERMISSION: RoutePermission[] = [
    { name: 'shopper-connect', subPermissions: ['mall-home'] },
    { name: 'receipts', subPermissions: [] },
    // Even a permission that names the admin route and its page does not open it.
    { name: 'admin', subPermissions: ['outbox'] },
    { name: 'outbox', subPermissions: [] },
  ];

  it('gives the outbox to the super admin, titled Outbox, under Admin, with no filters', () => {
    const routes = permittedRoutes(ROUTES, user([], { roles: ['mall operator', 'super admin'] }));
    const page = findPage(routes, '/admin/outbox');
    expect(page?.meta).toMatchObject({ title: 'Outbox', superAdminOnly: true });
    expect(routes.find((route) => route.name === 'admin')?.meta).toMatchObject({
      title: 'Admin',
      superAdminOnly: true,
    });
    expect(pagesOf(sidebarRoutes(routes)).map((entry) => entry.path)).toContain('/admin/outbox');
  });

  it('keeps it from everyone else, whatever their permissions and account flags', () => {
    const others: RouteUser[] = [
      user(EVERY_ROUTE_PERMISSION, { roles: ['mall operator'] }),
      user(EVERY_ROUTE_PERMISSION, { roles: ['admin', 'Super Admin ', 'superadmin'] }),
      user(EVERY_ROUTE_PERMISSION, { flags: { tenantOnly: false, receiptsHidden: true } }),
      user(EVERY_ROUTE_PERMISSION, { flags: { tenantOnly: true, receiptsHidden: false } }),
    ];
    for (const other of others) {
      const routes = permittedRoutes(ROUTES, other);
      expect(findPage(routes, '/admin/outbox'), other.roles.join()).toBeUndefined();
      expect(routes.map((route) => route.name)).not.toContain('admin');
    }
    // The rest of their routes stay as their permissions say.
    expect(pathsOf(user(EVERY_ROUTE_PERMISSION))).toEqual(['/shopper-connect/mall-home', '/receipts']);
  });

  it('drops a super-admin-only child from a group everyone may open, and the group when nothing is left', () => {
    const meta = (title: string, superAdminOnly?: boolean) => ({
      title,
      icon: 'cog',
      ...(superAdminOnly && { superAdminOnly }),
    });
    const table = [
      {
        name: 'tools',
        path: '/tools',
        meta: meta('Tools'),
        children: [
          { name: 'public', path: '/tools/public', meta: meta('Public') },
          { name: 'secret', path: '/tools/secret', meta: meta('Secret', true) },
        ],
      },
      {
        name: 'vault',
        path: '/vault',
        meta: meta('Vault'),
        children: [{ name: 'vault', path: '/vault', meta: meta('Vault', true) }],
      },
    ];
    const permissions = [
      { name: 'tools', subPermissions: ['public', 'secret'] },
      { name: 'vault', subPermissions: [] },
    ];
    expect(pagesOf(permittedRoutes(table, user(permissions))).map((page) => page.path)).toEqual(['/tools/public']);
    expect(pagesOf(permittedRoutes(table, user([], { roles: ['super admin'] }))).map((page) => page.path)).toEqual([
      '/tools/public',
      '/tools/secret',
      '/vault',
    ]);
  });

  it('comes last in the table, so that it is no landing page for anyone with another page', () => {
    expect(ROUTES.at(-1)?.name).toBe('admin');
    const admin = user([], { roles: ['super admin'] });
    const onlyOutbox = permittedRoutes(
      ROUTES.filter((route) => route.name === 'admin' || route.name === 'receipts'),
      admin,
    );
    expect(landingPageFor(onlyOutbox, admin)).toBe('/receipts');
  });
});

describe('landing page (§2)', () => {
  it('is mall home for a holder of shopper-connect with mall-home', () => {
    const holder = user([
      { name: 'tenants', subPermissions: ['gross-turnover'] },
      { name: 'shopper-connect', subPermissions: ['mall-gmv', 'mall-home'] },
    ]);
    expect(landingPageFor(permittedRoutes(ROUTES, holder), holder)).toBe('/shopper-connect/mall-home');
  });

  it('is the first permitted route (its first permitted child) otherwise', () => {
    const noHome = user([
      { name: 'settings', subPermissions: [] },
      { name: 'shopper-connect', subPermissions: ['refunds', 'export'] },
    ]);
    expect(landingPageFor(permittedRoutes(ROUTES, noHome), noHome)).toBe('/shopper-connect/export');
  });

  it('is mall home for super admin (the first route of the table)', () => {
    const admin = user([], { roles: ['super admin'] });
    expect(landingPageFor(permittedRoutes(ROUTES, admin), admin)).toBe('/shopper-connect/mall-home');
  });

  it('is / without any page', () => {
    const nobody = user([]);
    expect(landingPageFor(permittedRoutes(ROUTES, nobody), nobody)).toBe('/');
  });
});

describe('path matching', () => {
  it('matches parameters to one non-empty segment', () => {
    expect(pathMatchesPattern('/shopper-connect/mall-outlet/:id', '/shopper-connect/mall-outlet/42')).toBe(true);
    expect(pathMatchesPattern('/shopper-connect/mall-outlet/:id', '/shopper-connect/mall-outlet')).toBe(false);
    expect(pathMatchesPattern('/shopper-connect/mall-outlet/:id', '/shopper-connect/mall-outlet/4/2')).toBe(false);
    expect(pathMatchesPattern('/receipts', '/receipts')).toBe(true);
    expect(pathMatchesPattern('/receipts', '/receipts/')).toBe(true);
    expect(pathMatchesPattern('/receipts', '/settings')).toBe(false);
  });

  it('finds a permitted page by path', () => {
    expect(findPage(ROUTES, '/apps')?.name).toBe('apps');
    expect(findPage(ROUTES, '/apps/xero')?.name).toBe('xero');
    expect(findPage(ROUTES, '/apps/other')).toBeUndefined();
    expect(findPage(ROUTES, '/shopper-connect/mall-outlet/7')?.name).toBe('mall-outlet/:id');
    expect(findPage(ROUTES, '/tenants')).toBeUndefined();
  });
});

describe('the calendar and events pages (issue 31)', () => {
  it('are listed for a department that keeps them, and never where it lands', () => {
    const leasing = user([
      { name: 'shopper-connect', subPermissions: ['calendar', 'events'] },
      { name: 'tenant-connect', subPermissions: ['gto-review', 'non-trading-days', 'breakeven-target'] },
    ]);
    expect(pathsOf(leasing).slice(0, 2)).toEqual(['/shopper-connect/calendar', '/shopper-connect/events']);
    expect(landingPageFor(permittedRoutes(ROUTES, leasing), leasing)).toBe('/tenant-connect/gto-review');
  });
});

describe('the leases page (issue 33)', () => {
  it('is the staff’s among the tenant-connect children they keep, in the sidebar after the breakeven page', () => {
    const leasing = user(
      [{ name: 'tenant-connect', subPermissions: ['gto-review', 'non-trading-days', 'breakeven-target', 'leases'] }],
      { roles: ['leasing'] },
    );
    const routes = permittedRoutes(ROUTES, leasing);
    expect(pagesOf(sidebarRoutes(routes)).map((page) => [page.path, page.meta.title])).toEqual([
      ['/tenant-connect/gto-review', 'GTO Review'],
      ['/tenant-connect/breakeven-target', 'Leasing'],
      ['/tenant-connect/leases', 'Leases'],
    ]);
    expect(pathsOf(user([{ name: 'tenant-connect', subPermissions: ['leases'] }]))).toEqual(['/tenant-connect/leases']);
  });

  it('is never the tenant-only account’s, whatever it holds', () => {
    const tenantOnly = user([{ name: 'tenant-connect', subPermissions: ['leases', 'sales-review'] }], {
      flags: { tenantOnly: true, receiptsHidden: false },
    });
    expect(pathsOf(tenantOnly)).not.toContain('/tenant-connect/leases');
  });
});
