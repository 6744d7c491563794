import { expect, type Locator, type Page, test } from '@playwright/test';
import { day, expectMalls, openAs, queryOf, waitForFilters } from './session';

/*
 * The filter header by keyboard alone (WCAG 2.1.1, 2.4.7) in Chromium against the real server: from the page's
 * heading, Tab reaches the malls, the date range and the hours; Enter opens each panel; Tab walks its controls;
 * Space, arrows and Enter choose and apply. Every control the keyboard lands on shows its focus.
 */

/** Presses Tab (Shift+Tab backwards) until `target` has the focus; fails if it is not reached. */
async function tabTo(page: Page, target: Locator, { backwards = false, limit = 40 } = {}): Promise<void> {
  for (let step = 0; step < limit; step++) {
    if (await target.evaluate((element) => element === document.activeElement)) {
      // The focus is visible where the keyboard put it.
      expect(await target.evaluate((element) => element.matches(':focus-visible'))).toBe(true);
      return;
    }
    await page.keyboard.press(backwards ? 'Shift+Tab' : 'Tab');
  }
  throw new Error(`Tab did not reach ${target.toString()}`);
}

/**
 * Starts keyboard navigation at the page's heading, as a user landing on the page would, once the page has loaded
 * what the last change asked for (the header is disabled while it loads).
 */
async function startAtHeading(page: Page): Promise<void> {
  for (const control of ['malls-select', 'date-range-button', 'hour-picker']) {
    await expect(page.getByTestId(control)).toBeEnabled();
  }
  // A panel that is still closing gives the focus back to its button when it has gone: wait for that first.
  await expect(page.locator('.bp6-popover-transition-container, .bp6-overlay-open')).toHaveCount(0);
  const heading = page.getByRole('heading', { level: 1 });
  await heading.evaluate((element) => {
    element.setAttribute('tabindex', '-1');
    (element as HTMLElement).focus();
  });
  await expect(heading).toBeFocused();
}

test('the mall header works by keyboard: malls, date range and hours', async ({ page }) => {
  await openAs(page, 'operator@demo.mall', '/shopper-connect/mall-peak-hours');
  await waitForFilters(page);
  await startAtHeading(page);

  // Malls: open, untick all, tick the first, apply.
  const malls = page.getByTestId('malls-select');
  await tabTo(page, malls, { backwards: true });
  await page.keyboard.press('Enter');
  const panel = page.getByTestId('malls-panel');
  await expect(panel).toBeVisible();
  await tabTo(page, page.getByTestId('malls-deselect-all'));
  await page.keyboard.press('Enter');
  const firstMall = panel.locator('input[type="checkbox"]').first();
  await tabTo(page, firstMall);
  await page.keyboard.press('Space');
  await expect(firstMall).toBeChecked();
  const firstName = (await panel.locator('label').first().textContent())?.trim() ?? '';
  await tabTo(page, page.getByTestId('malls-apply'));
  await page.keyboard.press('Enter');
  await expect(panel).toBeHidden();
  await expectMalls(page, [firstName]);
  await expect.poll(() => queryOf(page).malls?.split(',').length).toBe(1);

  // Hours: open, choose From and To with the arrow keys, apply.
  await startAtHeading(page);
  const hours = page.getByTestId('hour-picker');
  await tabTo(page, hours);
  await page.keyboard.press('Enter');
  const from = page.getByTestId('hour-picker-from');
  await tabTo(page, from);
  for (let hour = 0; hour < 9; hour++) await page.keyboard.press('ArrowDown');
  await expect(from).toHaveValue('9');
  const to = page.getByTestId('hour-picker-to');
  await tabTo(page, to);
  // To starts at 23 (all day): up to 17.
  for (let hour = 23; hour > 17; hour--) await page.keyboard.press('ArrowUp');
  await expect(to).toHaveValue('17');
  await tabTo(page, page.getByTestId('hour-picker-apply'));
  await page.keyboard.press('Enter');
  await expect(hours).toHaveText('09:00 AM - 05:00 PM');
  await expect.poll(() => queryOf(page)).toMatchObject({ hours: '9-17' });

  // Date range: open, type a From day, apply; Escape closes a panel without applying.
  await startAtHeading(page);
  const range = page.getByTestId('date-range-button');
  await tabTo(page, range);
  await page.keyboard.press('Enter');
  const fromDay = page.locator('#date-range-from');
  await tabTo(page, fromDay);
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.type(day(-2));
  await page.keyboard.press('Enter');
  await tabTo(page, page.getByTestId('date-range-apply'));
  await page.keyboard.press('Enter');
  await expect.poll(() => queryOf(page)).toMatchObject({ from: day(-2) });

  await tabTo(page, hours, { backwards: true });
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('hour-picker-panel')).toBeVisible();
  // The panel takes the focus when it has opened (a frame after it shows); Escape is the panel's from then on.
  await expect.poll(() => page.evaluate(() => document.activeElement?.closest('.bp6-overlay') != null)).toBe(true);
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('hour-picker-panel')).toBeHidden();
  await expect(hours).toHaveText('09:00 AM - 05:00 PM');
});
