import { readFile } from 'node:fs/promises';
import AxeBuilder from '@axe-core/playwright';
import { expect, type Locator, type Page, test } from '@playwright/test';
import { openAs, openPage } from './session';

/*
 * Cross Spending against the real server and demo data, as the demo operator: opened from the sidebar (the top
 * bar's first outlet, the last 30 days), the outlets table's first row agrees with the chart's first bar, a column
 * sorts (by mouse and keyboard), the outlets table exports as CSV, and an outlet row opens the details of the pair,
 * whose days add up to the row's figures for the same range and export as CSV. Every figure is the server's.
 */

/** The lines of a downloaded CSV file, which starts with the UTF-8 BOM (for Excel; not part of its first line). */
async function csvLines(path: string): Promise<string[]> {
  const text = await readFile(path, 'utf8');
  expect(text.startsWith('\uFEFF')).toBe(true);
  return text.slice(1).split('\r\n');
}

/** Waits until the page's report has loaded: no spinner, no skeleton. */
async function loaded(page: Page): Promise<void> {
  await expect(page.getByTestId('report-loading')).toHaveCount(0);
  await expect(page.getByTestId('panel-loading')).toHaveCount(0);
}

/** axe (WCAG 2.1 A and AA) on the page as it is now: no serious or critical finding (a11y.spec opens the details
 * page without a pair; here it has one). */
async function expectNoSeriousFindings(page: Page): Promise<void> {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  const serious = results.violations.filter(
    (violation) => violation.impact === 'serious' || violation.impact === 'critical',
  );
  expect(
    serious.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target).join(' ')}`),
  ).toEqual([]);
}

/** An amount as shown ('$1,234.50', 'RM88.10', 'Rp1,200') in hundredths of its currency. */
function cents(text: string): number {
  const figure = text.replace(/[^\d.-]/g, '');
  expect(figure, `an amount: ${text}`).toMatch(/^\d+(\.\d+)?$/);
  return Math.round(Number(figure) * 100);
}

const cellTexts = async (row: Locator) => (await row.locator('td').allTextContents()).map((text) => text.trim());

/** The outlets table's columns. */
const OUTLET = 0;
const SHARED = 2;
const SPEND = 4;
const VISITS = 5;

test('cross spending: the outlets where the outlet’s members also spend, and one pair’s days', async ({ page }) => {
  test.setTimeout(90_000);
  await openAs(page, 'operator@demo.mall');
  await openPage(page, 'Cross Spending', 'Shopper Connect');
  await expect(page).toHaveURL(/\/shopper-connect\/cross-spending(\?|$)/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Cross Spending');
  await expect(page.getByTestId('mall-header')).toHaveCount(0);
  // The top bar's first outlet is chosen (All Outlets is not offered here).
  await expect.poll(() => new URL(page.url()).searchParams.get('outlet')).toMatch(/^\d+$/);

  // The last 30 days.
  await loaded(page);
  const weekFrom = new URL(page.url()).searchParams.get('from');
  await page.getByTestId('date-range-button').click();
  await page.getByText('Last 30 days', { exact: true }).click();
  await page.getByTestId('date-range-apply').click();
  await expect.poll(() => new URL(page.url()).searchParams.get('from')).not.toBe(weekFrom);
  await loaded(page);
  const headline = page.getByTestId('cross-spending-headline');
  const table = page.getByTestId('cross-spending-outlets-table');
  const rows = table.locator('tbody tr');
  // The demo's members are few: the next outlet of the top bar until one's members also bought elsewhere.
  const options = page.getByTestId('outlet-dropdown').locator('option');
  for (let index = 3; (await table.locator('tbody tr a').count()) === 0; index++) {
    expect(index, 'an outlet of the demo whose members also bought elsewhere').toBeLessThan(20);
    const option = options.nth(index);
    const value = (await option.getAttribute('value')) ?? '';
    const name = ((await option.textContent()) ?? '').replace(/ \(\d+\)$/, '');
    await page.getByTestId('outlet-dropdown').selectOption(value);
    await expect.poll(() => new URL(page.url()).searchParams.get('outlet')).toBe(value);
    await expect(headline).toContainText(` at ${name} `);
    await loaded(page);
  }
  const address = new URL(page.url()).searchParams;
  const outletId = address.get('outlet') ?? '';
  const range = `${address.get('from')}_${address.get('to')}`;

  await expect(headline).toHaveText(
    /^[\d,]+ members? bought at .+ from \d+ \w{3} \d{4} to \d+ \w{3} \d{4}; they spent \D+[\d,]+(\.\d+)? there\.$/,
  );
  await expect(rows.first().locator('a')).toBeVisible();
  const first = await cellTexts(rows.first());
  const firstName = first[OUTLET] ?? '';
  expect(first[SHARED]).toMatch(/^[\d,]+$/);

  // The chart's first bar is the table's first row: its name and its shared shoppers.
  const chart = page.getByTestId('cross-spending-outlets-chart');
  await expect(chart.locator('svg.highcharts-root')).toHaveAttribute('aria-label', 'Other outlets by shared shoppers');
  await chart.locator('.highcharts-series-0 .highcharts-point').first().hover();
  const tooltip = chart.locator('.highcharts-tooltip');
  await expect(tooltip).toContainText(firstName);
  await expect(tooltip).toContainText(`Shared Shoppers: ${first[SHARED]}`);

  // The outlets table as CSV, the first row as the table shows it.
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-outlets-csv').click()]);
  expect(download.suggestedFilename()).toBe(`cross_spending_${outletId}_outlets_${range}.csv`);
  const lines = await csvLines(await download.path());
  expect(lines[0]).toBe('Outlet ID,Outlet Name,Category,Shared Shoppers,Share Percent,Spend,Visits,Currency');
  expect(lines).toHaveLength((await rows.count()) + 2);
  const csvFirst = lines[1] ?? '';
  expect(csvFirst).toContain(`,${(first[SHARED] ?? '').replace(/,/g, '')},`);
  expect(cents(csvFirst.split(',').at(-3) ?? '')).toBe(cents(first[SPEND] ?? ''));

  // Sorted by spend: the most first, then the least first.
  const spendHeader = table.getByRole('columnheader', { name: /^Spend/ });
  const spends = async () => (await rows.locator('td:nth-child(5)').allTextContents()).map(cents);
  await spendHeader.getByRole('button').click();
  await expect(spendHeader).toHaveAttribute('aria-sort', 'descending');
  const descending = await spends();
  expect(descending).toEqual([...descending].sort((a, b) => b - a));
  // From the keyboard too.
  await spendHeader.getByRole('button').focus();
  await page.keyboard.press('Enter');
  await expect(spendHeader).toHaveAttribute('aria-sort', 'ascending');
  const ascending = await spends();
  expect(ascending).toEqual([...descending].sort((a, b) => a - b));
  await spendHeader.getByRole('button').click();

  // The outlet that took the most of their spend opens the pair's details, with the same filters.
  const top = rows.first();
  const row = await cellTexts(top);
  const link = top.locator('a');
  const otherId = ((await link.getAttribute('data-testid')) ?? '').replace('cross-spending-link-', '');
  await link.focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/shopper-connect/cross-spending/details\\?other=${otherId}&`));
  const detailsAddress = new URL(page.url()).searchParams;
  expect(detailsAddress.get('outlet')).toBe(outletId);
  expect(`${detailsAddress.get('from')}_${detailsAddress.get('to')}`).toBe(range);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Cross Spending Details');
  await loaded(page);
  await expect(page.getByTestId('cross-spending-pair')).toContainText(row[OUTLET] ?? '');

  // Its figures are the row's, and its days add up to them.
  await expect(page.getByTestId('kpi-shared-value')).toHaveText(row[SHARED] ?? '');
  await expect(page.getByTestId('kpi-spend-value')).toHaveText(row[SPEND] ?? '');
  await expect(page.getByTestId('kpi-spend-growth')).toHaveText(new RegExp(`^in ${row[VISITS]} visits?$`));
  const days = page.getByTestId('cross-spending-daily-table').locator('tbody tr');
  const dayCount = await days.count();
  expect(dayCount).toBeGreaterThanOrEqual(30);
  const daySpends = (await days.locator('td:nth-child(4)').allTextContents()).map(cents);
  expect(daySpends.reduce((sum, value) => sum + value, 0)).toBe(cents(row[SPEND] ?? ''));
  const dayVisits = (await days.locator('td:nth-child(3)').allTextContents()).map((text) =>
    Number(text.replace(/,/g, '')),
  );
  expect(dayVisits.reduce((sum, value) => sum + value, 0)).toBe(Number((row[VISITS] ?? '').replace(/,/g, '')));
  // Today's day is the last, marked so far.
  await expect(days.last().locator('td').last()).toHaveText('Today, so far');
  await expect(page.getByTestId('cross-spending-daily-chart').locator('svg.highcharts-root')).toHaveAttribute(
    'aria-label',
    `Shared shoppers at ${row[OUTLET]} by day`,
  );

  await expectNoSeriousFindings(page);

  // The days as CSV.
  const [daily] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-csv').click()]);
  expect(daily.suggestedFilename()).toBe(`cross_spending_${outletId}_${otherId}_daily_${range}.csv`);
  const dailyLines = await csvLines(await daily.path());
  expect(dailyLines[0]).toBe('Date,Shoppers,Visits,Spend,Note,Currency');
  expect(dailyLines).toHaveLength(dayCount + 2);

  // Back to the page, its filters kept.
  await page.getByTestId('cross-spending-back').click();
  await expect(page).toHaveURL(/\/shopper-connect\/cross-spending\?/);
  await loaded(page);
  await expect(page.getByTestId('cross-spending-outlets-table').locator('tbody tr').first()).toContainText(firstName);
});

test('cross spending details: an outlet the user does not see is not asked for', async ({ page }) => {
  await openAs(page, 'operator@demo.mall', '/shopper-connect/cross-spending/details?other=999999');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Cross Spending Details');
  await expect(page.getByTestId('cross-spending-details-unavailable')).toContainText(
    'Outlet 999999 is not one of the outlets you can see in this client.',
  );
  // Still signed in.
  await expect(page.getByTestId('app-layout')).toBeVisible();
});
