import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { permittedRoutes } from '../../src/domain/permissions';
import { ROUTES } from '../../src/routes';
import { Sidebar } from '../../src/views/layout/Sidebar';
import { TopBar } from '../../src/views/layout/TopBar';
import { ADMIN_ROUTES, renderFrame } from './layoutHarness';
import { userInfo } from './renderApp';

/* The sidebar and the top bar's menu toggle (§2, §4), with the layout and filter header machines behind them. */

afterEach(() => cleanup());

function frame(routes = ADMIN_ROUTES) {
  return (
    <>
      <TopBar routes={routes} />
      <Sidebar routes={routes} />
    </>
  );
}

async function clientSelect(): Promise<HTMLSelectElement> {
  const select = await screen.findByTestId('client-select');
  if (!(select instanceof HTMLSelectElement)) throw new Error('not a select');
  return select;
}

describe('the client selector', () => {
  it('lists the clients sorted case-insensitively, and switching clears the malls and reloads the lists', async () => {
    const harness = renderFrame(frame());
    const select = await clientSelect();
    expect([...select.options].map((option) => option.text)).toEqual(['Harbourfront Malls', 'sunrise Retail Group']);
    await waitFor(() => expect(harness.header().getSnapshot().context.filters.mallIds).toEqual([1, 2]));
    expect(select.value).toBe('3');

    act(() => harness.header().send({ type: 'malls.open' }));
    act(() => harness.header().send({ type: 'malls.toggle', mallId: 1 }));
    act(() => harness.header().send({ type: 'malls.apply' }));
    expect(harness.header().getSnapshot().context.filters.mallIds).toEqual([2]);

    fireEvent.change(select, { target: { value: '4' } });
    expect(harness.header().getSnapshot().context.filters).toMatchObject({
      clientId: 4,
      mallIds: [],
      outlet: undefined,
    });
    await waitFor(() => expect(harness.header().getSnapshot().context.filters.mallIds).toEqual([5]));
    expect(
      harness
        .header()
        .getSnapshot()
        .context.outlets.map((outlet) => outlet.id),
    ).toEqual([20]);
    expect(select.value).toBe('4');
  });

  it('hides while the menu is collapsed', async () => {
    renderFrame(frame());
    await clientSelect();
    fireEvent.click(screen.getByTestId('sidebar-toggle'));
    expect(screen.queryByTestId('client-select')).toBeNull();
    fireEvent.click(screen.getByTestId('sidebar-toggle'));
    expect(await clientSelect()).toBeDefined();
  });

  it('is not there for a user of one client', async () => {
    const user = userInfo({ clients: [3], client_id: 3 });
    const harness = renderFrame(frame(permittedRoutes(ROUTES, user)), { user });
    await waitFor(() => expect(harness.header().getSnapshot().context.filters.mallIds).toEqual([1, 2]));
    expect(harness.layout().getSnapshot().matches({ clients: 'single' })).toBe(true);
    expect(screen.queryByTestId('client-select')).toBeNull();
  });
});

describe('collapsing the sidebar', () => {
  it('collapses to icons on the desktop, remembered in the cookie', async () => {
    const harness = renderFrame(frame());
    const sidebar = screen.getByTestId('sidebar');
    expect(sidebar.dataset.collapsed).toBe('false');
    expect(screen.queryByTestId('sidebar-close')).toBeNull();
    fireEvent.click(screen.getByTestId('sidebar-toggle'));
    expect(sidebar.dataset.collapsed).toBe('true');
    expect(harness.sidebarCookies).toEqual(['closed']);
    // Collapsed groups open as sub-menus (a menu item with a pop-over), not inline.
    expect(screen.getByTestId('nav-group-/shopper-connect').getAttribute('aria-haspopup')).toBe('menu');
    fireEvent.click(screen.getByTestId('sidebar-toggle'));
    expect(sidebar.dataset.collapsed).toBe('false');
    expect(harness.sidebarCookies).toEqual(['closed', 'opened']);
  });

  it('starts collapsed when the cookie says so', () => {
    renderFrame(frame(), { cookies: 'sidebar_status=closed' });
    expect(screen.getByTestId('sidebar').dataset.collapsed).toBe('true');
  });

  it('opens and closes the groups inline when open', () => {
    renderFrame(frame());
    const nav = screen.getByTestId('nav');
    expect(within(nav).getByRole('menuitem', { name: 'Mall GMV' })).toBeDefined();
    expect(within(nav).queryByRole('menuitem', { name: 'Receipt Data' })).toBeNull();
    fireEvent.click(within(nav).getByRole('button', { name: 'Tenants' }));
    expect(within(nav).getByRole('menuitem', { name: 'Receipt Data' })).toBeDefined();
    expect(within(nav).getByRole('button', { name: 'Tenants' }).getAttribute('aria-expanded')).toBe('true');
  });
});

describe('the sidebar on mobile', () => {
  it('starts closed even when the cookie says open, and its close button closes it', () => {
    const harness = renderFrame(frame(), { mobile: true, cookies: 'sidebar_status=opened' });
    const sidebar = screen.getByTestId('sidebar');
    expect(sidebar.getAttribute('aria-hidden')).toBe('true');
    fireEvent.click(screen.getByTestId('sidebar-toggle'));
    expect(sidebar.getAttribute('aria-hidden')).toBeNull();
    fireEvent.click(screen.getByTestId('sidebar-close'));
    expect(sidebar.getAttribute('aria-hidden')).toBe('true');
    expect(harness.sidebarCookies).toEqual([]);
  });

  it("closes when the current page's link is clicked, without navigating", () => {
    const harness = renderFrame(frame(), { mobile: true });
    fireEvent.click(screen.getByTestId('sidebar-toggle'));
    const before = harness.location.history?.length;
    fireEvent.click(screen.getByTestId('nav-link-/shopper-connect/mall-home'));
    expect(harness.layout().getSnapshot().hasTag('sidebarOpened')).toBe(false);
    expect(harness.location.history?.length).toBe(before);
  });

  it('closes and navigates when another link is clicked', () => {
    const harness = renderFrame(frame(), { mobile: true });
    fireEvent.click(screen.getByTestId('sidebar-toggle'));
    fireEvent.click(screen.getByTestId('nav-link-/shopper-connect/mall-gmv'));
    expect(harness.layout().getSnapshot().hasTag('sidebarOpened')).toBe(false);
    expect(harness.location.history?.at(-1)).toMatch(/^\/shopper-connect\/mall-gmv\?client=3&/);
  });

  it('keeps the menu open on the desktop when a link is clicked', () => {
    const harness = renderFrame(frame());
    fireEvent.click(screen.getByTestId('nav-link-/shopper-connect/mall-gmv'));
    expect(harness.layout().getSnapshot().hasTag('sidebarOpened')).toBe(true);
    expect(harness.location.history?.at(-1)).toMatch(/^\/shopper-connect\/mall-gmv\?client=3&/);
  });
});

describe('the sidebar links keep the filters', () => {
  async function settled(harness: ReturnType<typeof renderFrame>): Promise<void> {
    await waitFor(() => expect(harness.header().getSnapshot().context.filters.mallIds).toEqual([1, 2]));
    await waitFor(() => expect(harness.header().getSnapshot().context.filters.outlet).toBe('all'));
  }

  it('carries the committed malls and dates in every app link, as the page will show them', async () => {
    const harness = renderFrame(frame());
    await settled(harness);
    act(() => harness.header().send({ type: 'malls.open' }));
    act(() => harness.header().send({ type: 'malls.toggle', mallId: 1 }));
    act(() => harness.header().send({ type: 'malls.apply' }));
    act(() => harness.header().send({ type: 'dateRange.change', range: { start: '2024-03-01', end: '2024-03-10' } }));

    const gmv = screen.getByTestId('nav-link-/shopper-connect/mall-gmv');
    expect(gmv.getAttribute('href')).toBe(
      '/shopper-connect/mall-gmv?client=3&malls=2&outlet=all&from=2024-03-01&to=2024-03-10',
    );
    // Header V2 pages add their own fields; a page without dates carries no dates; an outlet-level page takes
    // its outlet as it will (All Outlets is not offered there).
    expect(screen.getByTestId('nav-link-/shopper-connect/mall-peak-hours').getAttribute('href')).toBe(
      '/shopper-connect/mall-peak-hours?client=3&malls=2&outlet=all&from=2024-03-01&to=2024-03-10&hours=0-23&time_range=daily&metric=gmv',
    );
    expect(screen.getByTestId('nav-link-/receipts').getAttribute('href')).toBe(
      '/receipts?client=3&malls=2&outlet=12&from=2024-03-01&to=2024-03-10',
    );

    fireEvent.click(gmv);
    expect(harness.location.history?.at(-1)).toBe(
      '/shopper-connect/mall-gmv?client=3&malls=2&outlet=all&from=2024-03-01&to=2024-03-10',
    );
  });
});

describe('the theme toggle', () => {
  it('switches the whole document to the dark theme and back, and the layout remembers each choice', async () => {
    const harness = renderFrame(frame());
    const toggle = await screen.findByRole('menuitemcheckbox', { name: 'Dark theme' });
    const dark = () => document.body.classList.contains('bp6-dark');
    expect(toggle.getAttribute('aria-checked')).toBe('false');
    expect(dark()).toBe(false);
    fireEvent.click(toggle);
    expect(screen.getByRole('menuitemcheckbox', { name: 'Dark theme' }).getAttribute('aria-checked')).toBe('true');
    expect(dark()).toBe(true);
    fireEvent.click(screen.getByTestId('theme-toggle'));
    expect(dark()).toBe(false);
    expect(harness.themeWrites).toEqual(['dark', 'light']);
  });
});
