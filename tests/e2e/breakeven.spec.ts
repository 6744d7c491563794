import { expect, type Page, test } from '@playwright/test';
import { seriousFindings } from './axe';
import { expectExportButtonClear, expectXLabelsApart } from './chartLayout';
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

test('the leasing user sees each outlet’s progress and projection without GST, sorted by any column', async ({
  page,
}) => {
  await signInAt(page, '/tenant-connect/breakeven-target', 'leasing@demo.mall');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Leasing');
  const table = page.getByTestId('breakeven-table');
  await expect(table.locator('tbody tr').first()).toBeVisible();
  await expect(page.getByTestId('breakeven-basis')).toContainText('GST excluded.');
  await expect(page.getByTestId('breakeven-basis')).toContainText('Projected month end');
  await expect(table.locator('thead th')).toContainText(['Outlet', 'Mall', 'Currency', 'GTO', 'Breakeven Target']);
  // Each row's amounts are in its outlet's currency, named in its own column; nothing says they are converted.
  await expect(table.locator('tbody tr td:nth-child(3)').first()).toHaveText(/^[A-Z]{3}$/);
  await expect(page.getByTestId('currency-note').filter({ hasText: 'converted at' })).toHaveCount(0);
  // Sorted by progress, highest first, as the server answers.
  const progress = await table
    .locator('tbody tr td:nth-child(7)')
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
      const gto = (await row.locator('td:nth-child(4)').innerText()).replace(/[^\d.]/g, '');
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
      .locator('td:nth-child(7)'),
  ).toHaveText('100.0%');
});

test('the marcom user’s page includes GST', async ({ page }) => {
  await signInAt(page, '/shopper-connect/breakeven-target/marcom', 'marcom@demo.mall');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Marcom');
  await expect(page.getByTestId('breakeven-table').locator('tbody tr').first()).toBeVisible();
  await expect(page.getByTestId('breakeven-basis')).toContainText('GST included.');
  await expect(page.getByTestId('breakeven-department')).toHaveCount(0);
});

test('the progress chart stays readable: at most 20 bars, labels apart, the export button clear of them', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await signInAt(page, '/tenant-connect/breakeven-target', 'leasing@demo.mall');
  const table = page.getByTestId('breakeven-table');
  await expect(table.locator('tbody tr').first()).toBeVisible();
  const chart = page.getByTestId('breakeven-chart');
  await expect(chart.locator('.highcharts-container')).toBeVisible();
  const targeted = (await table.locator('tbody tr td:nth-child(7)').allInnerTexts()).filter((text) => text !== '');
  const bars = chart.locator('.highcharts-series-group .highcharts-series-0 .highcharts-point');
  await expect(bars).toHaveCount(Math.min(20, targeted.length));
  const note = page.getByTestId('breakeven-chart-note');
  if (targeted.length > 20) {
    await expect(note).toHaveText(
      `Showing the top 10 and bottom 10 of ${targeted.length} outlets with a target; every outlet is in the table.`,
    );
  } else {
    await expect(note).toHaveCount(0);
  }
  // The 100 % line is named in the legend, not over the bars.
  await expect(chart.locator('.highcharts-legend')).toContainText('Breakeven (100%)');
  await expect(chart.locator('.highcharts-plot-line-label')).toHaveCount(0);
  await expectXLabelsApart(chart);
  await expectExportButtonClear(chart);

  await page.setViewportSize({ width: 390, height: 844 });
  await expect(chart.locator('.highcharts-container')).toBeVisible();
  await expect
    .poll(async () => chart.locator('.highcharts-container').evaluate((element) => element.clientWidth))
    .toBeLessThan(400);
  await expectXLabelsApart(chart);
  await expectExportButtonClear(chart);
});
