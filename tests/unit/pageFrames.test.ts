import { describe, expect, it } from 'vitest';
import { pagesOf, permittedRoutes } from '../../src/domain/permissions';
import { pageFrameFor, ROUTES } from '../../src/routes';

/* The per-route filter configuration of the route table (§2): headers, periods and the outlet dropdown. */

const ALL = permittedRoutes(ROUTES, {
  roles: ['super admin'],
  permissions: [],
  flags: { tenantOnly: false, receiptsHidden: false },
});
const TENANT_CONNECT_ALL = permittedRoutes(ROUTES, {
  roles: [],
  permissions: [],
  flags: { tenantOnly: true, receiptsHidden: false },
});

function frame(path: string) {
  return pageFrameFor([...ALL, ...TENANT_CONNECT_ALL], path);
}

describe('the page frames of the route table', () => {
  it('puts the mall header on the shopper-connect pages §2 lists, data feeds, the tenant-connect breakeven page, leases and rent statements', () => {
    const withHeader = pagesOf(ROUTES)
      .map((page) => page.path)
      .filter((path) => frame(path.replace(':id', '7')).header !== 'none');
    expect(withHeader).toEqual([
      '/shopper-connect/mall-home',
      '/shopper-connect/mall-gmv',
      '/shopper-connect/breakeven-target/marcom',
      '/shopper-connect/mall-peak-hours',
      '/shopper-connect/mall-payment-methods',
      '/shopper-connect/member-vs-non-member',
      // The feeds are read now: the malls without a period (issue 34).
      '/shopper-connect/data-feeds',
      // The alert rules: the malls a new rule starts with (issue 34).
      '/shopper-connect/alerts',
      '/tenant-connect/breakeven-target',
      '/tenant-connect/leases',
      // Monthly, as the breakeven page (issue 33).
      '/tenant-connect/rent-statements',
    ]);
    // The leases and the data feeds follow the selected malls, not a period.
    for (const path of ['/tenant-connect/leases', '/shopper-connect/data-feeds', '/shopper-connect/alerts']) {
      expect(frame(path)).toMatchObject({
        header: 'mall',
        filters: { period: 'none', headerV2: false, outletMode: 'disabled' },
      });
    }
  });

  it('gives Header V2 to mall peak hours and member vs non-member, and the Month picker to the breakeven pages', () => {
    expect(frame('/shopper-connect/mall-peak-hours')).toMatchObject({ header: 'v2', filters: { headerV2: true } });
    expect(frame('/shopper-connect/member-vs-non-member')).toMatchObject({ header: 'v2', filters: { headerV2: true } });
    expect(frame('/shopper-connect/mall-home')).toMatchObject({
      header: 'mall',
      filters: { headerV2: false, period: 'range' },
    });
    for (const path of [
      '/shopper-connect/breakeven-target/marcom',
      '/tenant-connect/breakeven-target',
      '/tenant-connect/rent-statements',
    ]) {
      expect(frame(path)).toMatchObject({ header: 'mall', filters: { period: 'month', breakeven: true } });
    }
  });

  it('disables All Outlets on outlet-level pages and the whole dropdown on mall-level pages', () => {
    for (const path of [
      '/receipts',
      '/settings',
      '/shopper-connect/cross-spending',
      '/tenants/gross-turnover',
      '/tenants/gto_submission',
      '/tenants/rent-statement',
    ]) {
      expect(frame(path).filters.outletMode, path).toBe('single');
    }
    for (const path of [
      '/shopper-connect/mall-home',
      '/shopper-connect/export',
      '/shopper-connect/sales-trends',
      '/tenant-connect/breakeven-target',
    ]) {
      expect(frame(path).filters.outletMode, path).toBe('disabled');
    }
    expect(frame('/apps').filters.outletMode).toBe('all');
  });

  it("shows the super admin's outbox with its title only: no date filter, the outlet dropdown disabled", () => {
    expect(frame('/admin/outbox')).toEqual({
      pattern: '/admin/outbox',
      title: 'Outbox',
      header: 'none',
      filters: {
        period: 'none',
        headerV2: false,
        averageTransactionValue: false,
        breakeven: false,
        outletMode: 'disabled',
        lastCompleteMonth: false,
      },
    });
    // Off everyone else's routes: no page there.
    expect(pageFrameFor(TENANT_CONNECT_ALL, '/admin/outbox').pattern).toBeUndefined();
  });

  it('names the page, with its pattern, or nothing off the table', () => {
    expect(frame('/shopper-connect/mall-outlet/12')).toMatchObject({
      pattern: '/shopper-connect/mall-outlet/:id',
      title: 'Mall Outlet',
    });
    expect(pageFrameFor(ALL, '/')).toMatchObject({
      pattern: undefined,
      header: 'none',
      filters: { outletMode: 'disabled' },
    });
  });
});
