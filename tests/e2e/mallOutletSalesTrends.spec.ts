import { expect, type Page, test } from '@playwright/test';
import { day, openAs, queryOf } from './session';

/*
 * The mall outlet and sales trends pages against the real server and demo data, as the demo operator: an outlet of
 * the Mall GMV outlets table opens its own page (its KPIs with growth, its daily chart, its peers), and sales trends
 * shows the twelve months, Jan to Dec, with each month's growth.
 */

/** An amount in the outlet's mall's currency: its symbol, then the figure in the currency's minor units. */
const MONEY = /^[^\d\s-]+[\d,]+(\.\d+)?$/;
const GROWTH = /^(▲ |▼ )?-?\d+\.\d\d% vs /;
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** Waits until the page's report has loaded: no spinner, no skeleton. */
async function loaded(page: Page): Promise<void> {
  await expect(page.getByTestId('report-loading')).toHaveCount(0);
  await expect(page.getByTestId('panel-loading')).toHaveCount(0);
}

test.describe('mall outlet and sales trends', () => {
  test('an outlet of Mall GMV opens its page: KPIs, daily chart and peers', async ({ page }) => {
    await openAs(page, 'operator@demo.mall', '/shopper-connect/mall-gmv');
    await loaded(page);
    await expect(page.getByTestId('mall-header')).toHaveAttribute('aria-busy', 'false');
    const link = page.getByTestId('gmv-breakdown').locator('[data-testid^="outlet-link-"]').first();
    const name = ((await link.textContent()) ?? '').trim();
    const id = ((await link.getAttribute('data-testid')) ?? '').replace('outlet-link-', '');
    expect(name).not.toBe('');
    await link.click();

    // The client, malls and dates of Mall GMV come along in the address.
    await expect(page).toHaveURL(new RegExp(`/shopper-connect/mall-outlet/${id}\\?`));
    const query = new URL(page.url()).searchParams;
    expect(query.get('client')).toMatch(/^\d+$/);
    expect(query.get('malls')).toMatch(/^\d+(,\d+)*$/);
    expect(query.get('from')).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(query.get('to')).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Mall Outlet');
    await expect(page.getByTestId('mall-outlet-name')).toContainText(name);
    await loaded(page);

    await expect(page.getByTestId('kpi-gmv-value')).toHaveText(MONEY);
    await expect(page.getByTestId('kpi-gmv-value')).not.toHaveText(/^\D+0(\.0+)?$/);
    await expect(page.getByTestId('kpi-gmv-growth')).toHaveText(GROWTH);
    await expect(page.getByTestId('kpi-transactions-growth')).toHaveText(GROWTH);
    await expect(page.getByTestId('kpi-rank-value')).toHaveText(/^\d+ of \d+$/);
    await expect(page.getByTestId('kpi-rank-growth')).toHaveText(/^By GMV among the \d+ .+ outlets? of .+$/);
    await expect(page.getByTestId('kpi-level-growth')).toHaveText(/^\d+\.\d% of the level’s GMV of /);

    const chart = page.getByTestId('outlet-daily-chart');
    await expect(chart.locator('.highcharts-container')).toBeVisible();
    await expect(chart.locator('svg').first()).toHaveAttribute('aria-label', 'Daily GMV and Transactions');
    await expect(chart.locator('.highcharts-series-group path, .highcharts-series-group rect').first()).toBeAttached();

    const peers = page.getByTestId('outlet-peers-table');
    await expect(peers.locator('tbody tr').first()).toBeVisible();
    await expect(peers.getByTestId('peer-current')).toContainText(name);
  });

  test('sales trends shows Jan to Dec, this year beside last year, with each month’s growth', async ({ page }) => {
    await openAs(page, 'operator@demo.mall', '/shopper-connect/sales-trends');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Sales Trends');
    await loaded(page);
    const table = page.getByTestId('trends-gmv-table');
    // The malls' year (the header's today), not this machine's.
    const year = Number(day(0).slice(0, 4));
    await expect(table.locator('thead th')).toHaveText(['Month', String(year), String(year - 1), 'Growth']);
    const rows = table.locator('tbody tr');
    await expect(rows).toHaveCount(12);
    const labels = await rows.locator('td:first-child').allTextContents();
    expect(labels.map((label) => label.slice(0, 3))).toEqual(MONTHS);
    // The month still open is partial, labelled 'so far'; the months before it have a growth rate.
    expect(labels.filter((label) => label.endsWith('(so far)'))).toHaveLength(1);
    // Each growth with the two figures it compares and their days (issue 31): '+18.63%: $720,447.58, 1–27 Nov, vs
    // $607,297.18, 1–27 Nov 2025' (on the 2nd of a month, its one complete day: '1 Dec').
    const growth = await rows.locator('td:last-child').allTextContents();
    const line =
      /^(\+|-)?\d+\.\d\d%: .+, 1(–\d{1,2})? \w{3}, vs (.+|no data), 1(–\d{1,2})? \w{3} \d{4}( · nothing to compare)?$/;
    expect(growth[0]).toMatch(line);
    for (const rate of growth) expect(rate).toMatch(new RegExp(`${line.source}|^—$`));
    // The demo holds 26 whole months before this one: every month so far has last year's figure beside it, and the
    // whole months' transactions grew by what a mall believes (a few per cent a year, more or less where a festival
    // moved into or out of the month; the GMV of the browser tests' few receipts is too noisy to say).
    const month = Number(day(0).slice(5, 7));
    const lastYear = await rows.locator('td:nth-child(3)').allTextContents();
    for (const figure of lastYear.slice(0, month)) {
      expect(figure).toMatch(MONEY);
      expect(figure).not.toMatch(/^\D+0(\.0+)?$/);
    }
    const transactions = page.getByTestId('trends-transactions-table').locator('tbody tr');
    const transactionGrowth = await transactions.locator('td:last-child').allTextContents();
    for (const rate of transactionGrowth.slice(0, month - 1)) {
      expect(Number.parseFloat(rate)).toBeGreaterThan(-25);
      expect(Number.parseFloat(rate)).toBeLessThan(40);
    }
    const chart = page.getByTestId('trends-gmv-chart');
    // The chart's tooltip says it too, as text.
    await chart.locator('.highcharts-series-1 .highcharts-point').first().hover();
    await expect(chart.locator('.highcharts-tooltip')).toContainText(growth[0] ?? '');
    await expect(chart.locator('svg').first()).toHaveAttribute('aria-label', `GMV by Month, ${year} and ${year - 1}`);
    await expect(chart.getByText('No Data', { exact: true })).toHaveCount(0);

    // Last year against the year before it: whole months, none partial.
    await page.getByTestId('year-select').selectOption(String(year - 1));
    await expect(table.locator('thead th')).toHaveText(['Month', String(year - 1), String(year - 2), 'Growth']);
    await loaded(page);
    await expect(rows).toHaveCount(12);
    expect(await rows.locator('td:first-child').allTextContents()).toEqual(MONTHS);
    // Two years back still has its last quarter at least (26 whole months before this one).
    for (const figure of (await rows.locator('td:nth-child(3)').allTextContents()).slice(9)) {
      expect(figure).toMatch(MONEY);
      expect(figure).not.toMatch(/^\D+0(\.0+)?$/);
    }
  });

  test('sales trends compares February 2026 with last year festival-aligned, Chinese New Year met', async ({
    page,
  }) => {
    await openAs(page, 'operator@demo.mall', '/shopper-connect/sales-trends');
    await loaded(page);
    await page.getByTestId('year-select').selectOption('2026');
    await loaded(page);
    const rule = page.getByTestId('comparison-rule');
    await expect(rule.locator('option:checked')).toHaveText('Same month last year');
    await rule.selectOption('festival_aligned');
    await loaded(page);
    // February 2026 (Chinese New Year 17–18 Feb) against last year's days met with it: 1–16 Feb with the same
    // weekdays before 29 Jan 2025, 19–28 Feb with those after 30 Jan: 12 Jan – 15 Feb 2025.
    const february = page.getByTestId('trends-gmv-table').locator('tbody tr').nth(1);
    await expect(february.locator('td').first()).toHaveText('Feb');
    await expect(february.locator('td').last()).toHaveText(
      /^(\+|-)?\d+\.\d\d%: .+, 1–28 Feb, vs .+, 12 Jan – 15 Feb 2025, Chinese New Year 17–18 Feb met with 29–30 Jan 2025$/,
    );
    // The choice is in the address, as on every page with the comparison controls.
    await expect.poll(() => queryOf(page)).toMatchObject({ compare: 'festival_aligned' });

    // Back to the page's own rule, like-for-like: each month against the same dates last year, the outlets that
    // did not trade through both left out, and said so.
    await rule.selectOption('same_month_last_year');
    await loaded(page);
    await page.getByTestId('comparison-like-for-like').check({ force: true });
    await loaded(page);
    await expect(february.locator('td').last()).toHaveText(
      /^(\+|-)?\d+\.\d\d%: .+, 1–28 Feb, vs .+, 1–28 Feb 2025, same dates last year, like-for-like: \d+ outlets? left out$/,
    );
    await expect.poll(() => queryOf(page)).toMatchObject({ like_for_like: '1' });
    expect(queryOf(page)).not.toHaveProperty('compare');
  });
});
