import { expect, type Page, test } from '@playwright/test';
import {
  DEVICES,
  expectMalls,
  hrefOf,
  openAs,
  openMenu,
  openPage,
  signIn,
  toggleMall,
  waitForFilters,
} from './session';

/*
 * The signed-in frame (§2, §4, §9) on a desktop and on a phone (phone-sized, mobile user agent), against
 * the real server and its demo data: the sidebar, the client selector, the breadcrumb, the outlet dropdown,
 * the showcase account without a top bar, and the machine inspector.
 */

for (const device of DEVICES) {
  test.describe(`on a ${device.name}`, () => {
    test.use(device.use);

    if (device.name === 'desktop') {
      test('the sidebar collapses to icons and the collapse is remembered after a reload', async ({ page }) => {
        await openAs(page, 'operator@demo.mall');
        const layout = page.getByTestId('app-layout');
        const sidebar = page.getByTestId('sidebar');
        await expect(layout).toHaveAttribute('data-device', 'desktop');
        await expect(layout).toHaveAttribute('data-sidebar', 'opened');
        await expect(page.getByTestId('nav')).toBeVisible();
        await expect(page.getByTestId('sidebar-close')).toHaveCount(0);

        await page.getByTestId('sidebar-toggle').click();
        await expect(layout).toHaveAttribute('data-sidebar', 'closed');
        await expect(sidebar).toHaveAttribute('data-collapsed', 'true');
        // Icons only: the links stay, their labels do not show.
        await expect(page.getByTestId('nav-link-/receipts')).toBeVisible();
        await expect(page.getByTestId('nav-link-/receipts').locator('.app-sidebar-label')).toBeHidden();
        const cookies = await page.context().cookies();
        expect(cookies.find((cookie) => cookie.name === 'sidebar_status')?.value).toBe('closed');

        await page.reload();
        await expect(layout).toHaveAttribute('data-sidebar', 'closed');
        await expect(sidebar).toHaveAttribute('data-collapsed', 'true');

        await page.getByTestId('sidebar-toggle').click();
        await expect(layout).toHaveAttribute('data-sidebar', 'opened');
        await page.reload();
        await expect(layout).toHaveAttribute('data-sidebar', 'opened');
        await expect(page.getByTestId('nav-link-/receipts').locator('.app-sidebar-label')).toBeVisible();
      });

      test('a collapsed sidebar opens a group as a sub-menu on hover', async ({ page }) => {
        await openAs(page, 'operator@demo.mall');
        await page.getByTestId('sidebar-toggle').click();
        await expect(page.getByTestId('app-layout')).toHaveAttribute('data-sidebar', 'closed');
        const sidebar = page.getByTestId('sidebar');
        await expect(sidebar).toHaveAttribute('data-collapsed', 'true');
        // The attribute changes at once, the width over 0.28 s: hovered mid-way, the group slides from under the
        // pointer and its sub-menu never opens.
        await expect.poll(() => sidebar.evaluate((element) => getComputedStyle(element).width)).toBe('54px');
        const item = page.getByRole('menuitem', { name: 'GTO Review', exact: true });
        // A re-render while the page loads can close the popover just opened: the pointer leaves and comes back.
        await expect(async () => {
          await page.mouse.move(700, 450);
          await page.getByTestId('nav-group-/tenant-connect').hover();
          await expect(item).toBeVisible({ timeout: 2_000 });
        }).toPass({ timeout: 15_000 });
        await item.click();
        await expect(page).toHaveURL(/\/tenant-connect\/gto-review\?client=/);
        await expect(page.getByTestId('page-title')).toHaveText('GTO Review');
      });

      test('the breadcrumb shows below 768 px only', async ({ page }) => {
        await openAs(page, 'operator@demo.mall');
        const breadcrumb = page.getByTestId('breadcrumb');
        await expect(breadcrumb).toBeHidden();
        await page.setViewportSize({ width: 767, height: 900 });
        await expect(breadcrumb).toBeVisible();
        await expect(breadcrumb.locator('li')).toHaveText(['Dashboard', 'Shopper Connect', 'Mall Home']);
        await page.setViewportSize({ width: 768, height: 900 });
        await expect(breadcrumb).toBeHidden();
      });

      test('the client selector shows with more than one client and the menu open', async ({ page }) => {
        await openAs(page, 'admin@demo.mall');
        await expect(page.getByTestId('client-select')).toBeVisible();
        await page.getByTestId('sidebar-toggle').click();
        await expect(page.getByTestId('client-select')).toHaveCount(0);
        await page.getByTestId('sidebar-toggle').click();
        await expect(page.getByTestId('client-select')).toBeVisible();

        await page.getByTestId('sidebar-logout').click();
        await expect(page).toHaveURL(/\/login/);
        await openAs(page, 'operator@demo.mall');
        await expect(page.getByTestId('nav')).toBeVisible();
        await expect(page.getByTestId('client-select')).toHaveCount(0);
      });
    } else {
      test('the sidebar starts closed, even when a desktop left it open, and closes again', async ({
        page,
        context,
        baseURL,
      }) => {
        await context.addCookies([{ name: 'sidebar_status', value: 'opened', url: baseURL ?? '' }]);
        await openAs(page, 'operator@demo.mall');
        const layout = page.getByTestId('app-layout');
        const nav = page.getByTestId('nav');
        await expect(layout).toHaveAttribute('data-device', 'mobile');
        await expect(layout).toHaveAttribute('data-sidebar', 'closed');
        await expect(nav).toBeHidden();

        // The close button.
        await page.getByTestId('sidebar-toggle').click();
        await expect(nav).toBeVisible();
        await page.getByTestId('sidebar-close').click();
        await expect(nav).toBeHidden();

        // The backdrop.
        await page.getByTestId('sidebar-toggle').click();
        await expect(nav).toBeVisible();
        await page.getByTestId('sidebar-backdrop').click({ position: { x: 360, y: 600 } });
        await expect(nav).toBeHidden();

        // The current page's link: no navigation, the menu closes.
        await page.getByTestId('sidebar-toggle').click();
        await nav.getByRole('menuitem', { name: 'Mall Home', exact: true }).click();
        await expect(nav).toBeHidden();
        expect(hrefOf(page)).toBe('/shopper-connect/mall-home');

        // Another page's link: it opens and the menu closes.
        await page.getByTestId('sidebar-toggle').click();
        await nav.getByRole('menuitem', { name: 'Mall GMV', exact: true }).click();
        await expect(page).toHaveURL(/\/shopper-connect\/mall-gmv\?client=/);
        await expect(nav).toBeHidden();
        await expect(page.getByTestId('page-title')).toHaveText('Mall GMV');
      });

      test('the breadcrumb shows the matched routes, from Dashboard', async ({ page }) => {
        await openAs(page, 'operator@demo.mall');
        const breadcrumb = page.getByTestId('breadcrumb');
        await expect(breadcrumb).toBeVisible();
        await expect(breadcrumb.locator('li')).toHaveText(['Dashboard', 'Shopper Connect', 'Mall Home']);
        await openPage(page, 'Receipts');
        await expect(page).toHaveURL(/\/receipts\?client=/);
        await expect(breadcrumb.locator('li')).toHaveText(['Dashboard', 'Receipts']);
        await breadcrumb.getByText('Dashboard').click();
        await expect(page).toHaveURL(/\/shopper-connect\/mall-home$/);
      });
    }

    test('switching the client clears the selected malls and reloads the lists', async ({ page }) => {
      await openAs(page, 'admin@demo.mall');
      await waitForFilters(page);
      await expectMalls(page, ['Bukit Bintang Plaza', 'Harbourfront Centre']);

      await page.getByTestId('malls-select').click();
      await page.getByTestId('malls-deselect-all').click();
      await toggleMall(page, 'Harbourfront Centre', true);
      await page.getByTestId('malls-apply').click();
      await expectMalls(page, ['Harbourfront Centre']);

      await openMenu(page);
      const select = page.getByTestId('client-select');
      await expect(select.locator('option')).toHaveText(['Harbourfront Malls', 'Sunrise Retail Group']);
      await expect(select.locator('option:checked')).toHaveText('Harbourfront Malls');
      await select.selectOption({ label: 'Sunrise Retail Group' });
      await expect(select.locator('option:checked')).toHaveText('Sunrise Retail Group');
      await expectMalls(page, ['Sunrise Mall Kemang']);
      await expect(page.getByTestId('outlet-dropdown').locator('option:checked')).toHaveText('All Outlets');

      // The 14-day cookies keep what the URL shows.
      const cookie = async (name: string) =>
        decodeURIComponent((await page.context().cookies()).find((known) => known.name === name)?.value ?? '');
      const param = (name: string) => new URL(page.url()).searchParams.get(name);
      await expect.poll(() => param('client')).toBe(await select.inputValue());
      await expect.poll(() => cookie('client_id')).toBe(param('client'));
      await expect.poll(() => cookie('mall_ids')).toBe(param('malls'));
      const expiry = (await page.context().cookies()).find((known) => known.name === 'mall_ids')?.expires ?? 0;
      expect(Math.round((expiry - Date.now() / 1000) / 86_400)).toBe(14);

      // Back to the first client: its malls start again from all of them, not from the one chosen before.
      await select.selectOption({ label: 'Harbourfront Malls' });
      await expectMalls(page, ['Bukit Bintang Plaza', 'Harbourfront Centre']);
    });

    test('receipts: All Outlets is disabled and the first outlet is selected; mall pages disable the dropdown', async ({
      page,
    }) => {
      await openAs(page, 'operator@demo.mall');
      await waitForFilters(page);
      const dropdown = page.getByTestId('outlet-dropdown');
      const options = dropdown.locator('option');
      // A mall page: the whole dropdown is disabled.
      await expect(dropdown).toBeDisabled();
      await expect(dropdown.locator('option:checked')).toHaveText('All Outlets');

      await openPage(page, 'Receipts');
      await expect(page).toHaveURL(/\/receipts\?client=/);
      await expect(options.first()).toHaveText('Choose an Outlet');
      await expect(options.nth(1)).toHaveText('All Outlets');
      await expect(options.nth(1)).toBeDisabled();
      const first = options.nth(2);
      const firstLabel = (await first.textContent()) ?? '';
      expect(firstLabel).toMatch(/^.+ \(\d+\)$/);
      await expect(dropdown).toHaveValue((await first.getAttribute('value')) ?? '');
      await expect(dropdown.locator('option:checked')).toHaveText(firstLabel);

      // Another outlet can be chosen; All Outlets cannot.
      const second = options.nth(3);
      const secondLabel = (await second.textContent()) ?? '';
      const secondValue = (await second.getAttribute('value')) ?? '';
      await dropdown.selectOption(secondValue);
      await expect(dropdown.locator('option:checked')).toHaveText(secondLabel);
      await expect.poll(() => new URL(page.url()).searchParams.get('outlet')).toBe(secondValue);

      // A page that offers All Outlets.
      await openPage(page, 'Apps', 'Apps');
      await expect(page).toHaveURL(/\/apps(\?|$)/);
      await expect(options.nth(1)).toBeEnabled();
      await expect(dropdown.locator('option:checked')).toHaveText(secondLabel);
      await dropdown.selectOption('all');
      await expect(dropdown.locator('option:checked')).toHaveText('All Outlets');
    });

    test('the Apps page shows its title and keeps the outlet filter in the address', async ({ page }) => {
      // Apps: its filters are the client, malls and outlet (All Outlets offered); no dates.
      await openAs(page, 'admin@demo.mall', '/apps');
      await expect(page.getByTestId('page-title')).toHaveText('Apps');
      await expect(page.getByTestId('apps-xero')).toBeVisible();
      const dropdown = page.getByTestId('outlet-dropdown');
      await expect(dropdown.locator('option:checked')).toHaveText('All Outlets');
      const third = dropdown.locator('option').nth(2);
      const value = (await third.getAttribute('value')) ?? '';
      await dropdown.selectOption(value);
      await expect.poll(() => new URL(page.url()).searchParams.get('outlet')).toBe(value);
    });

    test('the showcase account has no top bar', async ({ page }) => {
      await openAs(page, 'showcase@demo.mall');
      await expect(page.getByTestId('page-title')).toHaveText('Mall Home');
      await expect(page.getByTestId('top-bar')).toHaveCount(0);
      await expect(page.getByTestId('outlet-dropdown')).toHaveCount(0);
      await expect(page.getByTestId('breadcrumb')).toHaveCount(0);
    });
  });
}

test.describe('the machine inspector', () => {
  test('opens for a super admin with ?inspect=1 and with Ctrl+Alt+I, and lists the running actors', async ({
    page,
  }) => {
    await openAs(page, 'admin@demo.mall', '/shopper-connect/mall-home?inspect=1');
    await expect(page).toHaveURL(/\/shopper-connect\/mall-home\?inspect=1$/);
    const panel = page.getByTestId('inspector-panel');
    await expect(panel).toBeVisible();
    await expect(panel.getByTestId('inspector-shortcut')).toHaveText('Ctrl+Alt+I');
    for (const name of ['auth', 'navigationGuard', 'layout', 'filterHeader', 'dateRangePicker', 'hourPicker']) {
      await expect(panel.getByTestId(`inspector-actor-${name}`)).toHaveCount(1);
    }
    await expect(panel.getByTestId('inspector-actor-auth').getByTestId('inspector-state')).toHaveText('"signedIn"');

    await panel.getByRole('button', { name: 'Close the inspector' }).click();
    await expect(panel).toBeHidden();
    await page.keyboard.press('Control+Alt+KeyI');
    await expect(panel).toBeVisible();
    await page.keyboard.press('Control+Alt+KeyI');
    await expect(panel).toBeHidden();
  });

  test("shows the filter header's state change after Apply", async ({ page }) => {
    await openAs(page, 'admin@demo.mall', '/shopper-connect/mall-home?inspect=1');
    await waitForFilters(page);
    const header = page.getByTestId('inspector-panel').getByTestId('inspector-actor-filterHeader');
    const state = header.getByTestId('inspector-state');
    await expect(state).toContainText('"mallSelect":"closed"');

    await page.getByTestId('malls-select').click();
    await expect(state).toContainText('"mallSelect":{"open":"editing"}');
    await toggleMall(page, 'Bukit Bintang Plaza', false);
    await page.getByTestId('malls-apply').click();
    await expect(state).toContainText('"mallSelect":"closed"');
    // The recent events, newest first: the Apply, then the new address the header was told of (the page's own
    // page.loading and page.loaded, as it loads the new malls, may come after).
    const events = header.getByTestId('inspector-event');
    await expect(events.filter({ hasText: 'malls.apply' })).toHaveCount(1);
    await expect
      .poll(async () => {
        const types = (await events.allTextContents()).map((text) => text.split(' ')[0]);
        return types.indexOf('url.change') >= 0 && types.indexOf('url.change') < types.indexOf('malls.apply');
      })
      .toBe(true);
    await expectMalls(page, ['Harbourfront Centre']);

    await header.getByTestId('inspector-context').locator('summary').click();
    const mallIds = new URL(page.url()).searchParams.get('malls') ?? '';
    await expect(header.getByTestId('inspector-context').locator('pre')).toContainText(
      `"mallIds": [\n      ${mallIds}\n    ]`,
    );
  });

  test('stays closed for a user without the permission', async ({ page }) => {
    await openAs(page, 'operator@demo.mall', '/shopper-connect/mall-home?inspect=1');
    await expect(page.getByTestId('page-title')).toHaveText('Mall Home');
    await page.keyboard.press('Control+Alt+KeyI');
    await expect(page.getByTestId('inspector-panel')).toHaveCount(0);
  });
});

/** The relative luminance (0 black .. 1 white) of a computed CSS colour `rgb(r, g, b)`. */
function luminanceOf(color: string): number {
  const [r = 0, g = 0, b = 0] = (color.match(/[\d.]+/g) ?? []).map(Number).map((channel) => {
    const c = channel / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** The drawn colour (computed `fill`) of the first axis label of the page's charts. */
async function axisLabelLuminance(page: Page): Promise<number> {
  const label = page.locator('.highcharts-axis-labels text').first();
  await expect(label).toBeVisible();
  return luminanceOf(await label.evaluate((element) => getComputedStyle(element).fill));
}

test.describe('the dark theme', () => {
  test.use({ viewport: { width: 1440, height: 900 } });
  test.describe.configure({ timeout: 90_000 });

  test('is toggled in the sidebar, remembered per user after a reload, and draws the charts light on dark', async ({
    page,
  }) => {
    const body = page.locator('body');
    await openAs(page, 'operator@demo.mall', '/shopper-connect/mall-gmv');
    const toggle = page.getByRole('menuitemcheckbox', { name: 'Dark theme' });
    await expect(toggle).toHaveAttribute('aria-checked', 'false');
    await expect(body).not.toHaveClass(/bp6-dark/);
    expect(await axisLabelLuminance(page)).toBeLessThan(0.5);

    await toggle.click();
    await expect(toggle).toHaveAttribute('aria-checked', 'true');
    await expect(body).toHaveClass(/bp6-dark/);
    await expect(body).toHaveCSS('color-scheme', 'dark');
    // The charts are drawn again in the dark theme: their text light.
    await expect.poll(() => axisLabelLuminance(page)).toBeGreaterThan(0.5);

    await page.reload();
    await expect(page.getByTestId('app-layout')).toHaveAttribute('data-theme', 'dark');
    await expect(body).toHaveClass(/bp6-dark/);
    await expect(toggle).toHaveAttribute('aria-checked', 'true');
    await expect.poll(() => axisLabelLuminance(page)).toBeGreaterThan(0.5);

    // Signed out, the sign-in page is light; another account of this browser keeps its own (light) theme, and the
    // showcase account, without a top bar, reaches the toggle in its sidebar.
    await page.getByTestId('sidebar-logout').click();
    await expect(page.getByTestId('login-username')).toBeVisible();
    await expect(body).not.toHaveClass(/bp6-dark/);
    await signIn(page, 'showcase@demo.mall');
    await expect(page.getByTestId('app-layout')).toHaveAttribute('data-theme', 'light');
    await expect(page.getByTestId('top-bar')).toHaveCount(0);
    await expect(body).not.toHaveClass(/bp6-dark/);
    await expect(toggle).toHaveAttribute('aria-checked', 'false');
  });
});
