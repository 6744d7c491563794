import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, test } from '@playwright/test';
import { day } from './session';

/*
 * The breakeven pages (§2) in Chromium against the real server and its demo data (every demo outlet has a target of
 * each department for the current month): the leasing user's page, titled Leasing, without GST, with the projected
 * month end; the marcom user's page with GST.
 */

const PASSWORD = 'demo-password-1';

async function signInAt(page: Page, path: string, username: string): Promise<void> {
  await page.goto(path);
  await expect(page).toHaveURL(/\/login/);
  await page.getByTestId('login-username').fill(username);
  await page.getByTestId('login-password').fill(PASSWORD);
  await page.getByTestId('login-submit').click();
  await expect(page.getByTestId('app-layout')).toBeVisible();
}

async function seriousFindings(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .flatMap((violation) => violation.nodes.map((node) => `${violation.id}: ${node.target.join(' ')}`));
}

test('the leasing user sees each outlet’s progress and projection without GST, sorted by any column', async ({
  page,
}) => {
  await signInAt(page, '/tenant-connect/breakeven-target', 'leasing@demo.mall');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Leasing');
  const table = page.getByTestId('breakeven-table');
  await expect(table.locator('tbody tr').first()).toBeVisible();
  await expect(page.getByTestId('breakeven-basis')).toContainText('GST excluded.');
  await expect(page.getByTestId('breakeven-basis')).toContainText('Projected month end');
  await expect(table.locator('thead th')).toContainText(['Outlet', 'Mall', 'GTO', 'Breakeven Target']);
  // Sorted by progress, highest first, as the server answers.
  const progress = await table
    .locator('tbody tr td:nth-child(6)')
    .evaluateAll((cells) =>
      cells.map((cell) => Number.parseFloat(cell.textContent ?? '')).filter((n) => !Number.isNaN(n)),
    );
  expect(progress.length).toBeGreaterThan(0);
  expect([...progress].sort((a, b) => b - a)).toEqual(progress);
  await expect(page.getByTestId('breakeven-track').first()).toHaveText(/On track|At risk/);
  await expect(page.getByTestId('breakeven-totals-table').locator('tbody tr').first()).toBeVisible();
  // Any column sorts: the outlets by name.
  await table.getByRole('button', { name: 'Outlet' }).click();
  const names = await table.locator('tbody tr td:first-child').allInnerTexts();
  expect(names.length).toBeGreaterThan(1);
  expect(await seriousFindings(page)).toEqual([]);

  // The leasing user sets an outlet's target to its GTO: its progress becomes 100.0%. The outlet is one with sales
  // in the month; on the month's first day in the malls' zone none has any yet (the demo's receipts end the day
  // before), so the month before is shown then.
  const withSales = async () => {
    await expect(table.locator('tbody tr').first()).toBeVisible();
    for (const row of await table.locator('tbody tr').all()) {
      const gto = (await row.locator('td:nth-child(3)').innerText()).replace(/[^\d.]/g, '');
      if (Number(gto) > 0) return { row, gto };
    }
    return undefined;
  };
  let found = await withSales();
  if (!found) {
    const previous = day(-Number(day(0).slice(8, 10))).slice(0, 7);
    await page.goto(`/tenant-connect/breakeven-target?month=${previous}`);
    found = await withSales();
  }
  if (!found) throw new Error('no outlet has sales in this month or the month before');
  const { row: first, gto } = found;
  const outlet = await first.locator('td').first().innerText();
  await page.getByTestId('breakeven-edit').click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toBeVisible();
  await dialog.getByLabel(`Target of ${outlet}`, { exact: true }).fill(gto);
  expect(await seriousFindings(page)).toEqual([]);
  const reread = page.waitForResponse(
    (response) => response.url().includes('/api/mall_report/breakeven_target') && response.request().method() === 'GET',
  );
  await dialog.getByTestId('breakeven-targets-save').click();
  await expect(dialog).toBeHidden();
  await reread;
  await expect(
    table
      .locator('tbody tr')
      .filter({ has: page.getByRole('cell', { name: outlet, exact: true }) })
      .locator('td:nth-child(6)'),
  ).toHaveText('100.0%');
});

test('the marcom user’s page includes GST', async ({ page }) => {
  await signInAt(page, '/shopper-connect/breakeven-target/marcom', 'marcom@demo.mall');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Marcom');
  await expect(page.getByTestId('breakeven-table').locator('tbody tr').first()).toBeVisible();
  await expect(page.getByTestId('breakeven-basis')).toContainText('GST included.');
  await expect(page.getByTestId('breakeven-department')).toHaveCount(0);
});
