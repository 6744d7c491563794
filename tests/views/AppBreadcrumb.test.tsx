import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { AppBreadcrumb } from '../../src/views/layout/AppBreadcrumb';
import { ADMIN_ROUTES, renderFrame } from './layoutHarness';

/* The top bar's breadcrumb (§2): the matched named routes from Dashboard; hidden at 768 px and wider by CSS. */

afterEach(() => cleanup());

function crumbs(): string[] {
  return within(screen.getByTestId('breadcrumb'))
    .getAllByRole('listitem')
    .map((item) => item.textContent ?? '');
}

describe('the breadcrumb', () => {
  it('shows Dashboard, the group and the page', () => {
    renderFrame(<AppBreadcrumb routes={ADMIN_ROUTES} />, { path: '/shopper-connect/mall-peak-hours' });
    expect(crumbs()).toEqual(['Dashboard', 'Shopper Connect', 'Mall Peak Hours']);
    expect(screen.getByText('Mall Peak Hours').closest('.bp6-breadcrumb-current')).not.toBeNull();
    // A phone cuts a crumb to its share of the line: each carries its whole name.
    expect(screen.getByText('Shopper Connect').getAttribute('title')).toBe('Shopper Connect');
  });

  it('shows a single page once, and Dashboard leads to the landing page', () => {
    const harness = renderFrame(<AppBreadcrumb routes={ADMIN_ROUTES} />, { path: '/receipts' });
    expect(crumbs()).toEqual(['Dashboard', 'Receipts']);
    fireEvent.click(screen.getByText('Dashboard'));
    expect(harness.location.history?.at(-1)).toBe('/');
    expect(crumbs()).toEqual(['Dashboard']);
  });

  it('follows the page shown', () => {
    const harness = renderFrame(<AppBreadcrumb routes={ADMIN_ROUTES} />, { path: '/apps/xero' });
    expect(crumbs()).toEqual(['Dashboard', 'Apps', 'Xero']);
    harness.location.navigate('/tenants/gross-turnover');
    return screen.findByText('Gross Turnover').then(() => {
      expect(crumbs()).toEqual(['Dashboard', 'Tenants', 'Gross Turnover']);
    });
  });
});
