import { expect, type Page, test } from '@playwright/test';
import { expectExportButtonClear, expectXLabelsApart } from './chartLayout';
import { day } from './session';

/*
 * The Shopper Connect mall report pages against the real server and demo data, as the demo operator:
 * every page draws its charts, changing malls and dates changes the figures, an empty range says 'No Data',
 * the CSV export of several files downloads a zip, and a chart exports to PNG and SVG with no other host reachable.
 */

async function signIn(page: Page): Promise<void> {
  await page.goto('/login');
  await page.getByTestId('login-username').fill('operator@demo.mall');
  await page.getByTestId('login-password').fill('demo-password-1');
  await page.getByTestId('login-submit').click();
  await expect(page.getByText('operator@demo.mall')).toBeVisible();
}

/** Waits until the page's report has loaded (no spinner, the header enabled again). */
async function loaded(page: Page): Promise<void> {
  await expect(page.getByTestId('report-loading')).toHaveCount(0);
  await expect(page.getByTestId('mall-header')).toHaveAttribute('aria-busy', 'false');
}

const PAGES = [
  { path: 'mall-home', charts: ['daily-trend-chart', 'outlet-ranking-chart', 'payment-split-chart'] },
  { path: 'mall-gmv', charts: ['gmv-trend-chart', 'gmv-breakdown-chart'] },
  { path: 'mall-peak-hours', charts: ['peak-heat-map-chart', 'peak-series-chart'] },
  { path: 'mall-payment-methods', charts: ['payment-overall-chart', 'payment-over-time-chart'] },
  {
    path: 'member-vs-non-member',
    charts: ['member-overall-chart', 'member-outlets-chart', 'non-member-outlets-chart'],
  },
] as const;

test.describe('mall report pages', () => {
  test.beforeEach(async ({ page }) => {
    await signIn(page);
  });

  for (const { path, charts } of PAGES) {
    test(`${path} draws its charts with data`, async ({ page }) => {
      await page.goto(`/shopper-connect/${path}`);
      await loaded(page);
      for (const chart of charts) {
        const container = page.getByTestId(chart);
        await expect(container.locator('.highcharts-container')).toBeVisible();
        await expect(
          container.locator('.highcharts-series-group path, .highcharts-series-group rect').first(),
        ).toBeAttached();
        await expect(container.getByText('No Data', { exact: true })).toHaveCount(0);
      }
    });
  }

  test('mall home: changing malls and dates changes the figures', async ({ page }) => {
    await page.goto('/shopper-connect/mall-home');
    await loaded(page);
    const gmv = page.getByTestId('kpi-gmv-value');
    const allMalls = await gmv.textContent();
    expect(allMalls).toMatch(/^\$[\d,]+\.\d\d$/);
    expect(allMalls).not.toBe('$0.00');

    // Only the first mall.
    await page.getByTestId('malls-select').click();
    await page.getByTestId('malls-deselect-all').click();
    await page.locator('[data-testid^="malls-option-"]').first().check({ force: true });
    await page.getByTestId('malls-apply').click();
    await loaded(page);
    await expect(gmv).not.toHaveText(allMalls ?? '');
    const oneMall = await gmv.textContent();
    expect(oneMall).not.toBe('$0.00');

    // Other dates (through the URL, as a link or the back button would).
    const url = new URL(page.url());
    const to = url.searchParams.get('to') ?? '';
    const from = url.searchParams.get('from') ?? '';
    const shift = (day: string, days: number) =>
      new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
    url.searchParams.set('from', shift(from, -14));
    url.searchParams.set('to', shift(to, -14));
    await page.goto(url.toString());
    await loaded(page);
    await expect(gmv).not.toHaveText(oneMall ?? '');
    await expect(gmv).not.toHaveText('$0.00');
  });

  test('mall home: the daily chart’s date labels never overlap, at 1440 px nor at 390 px', async ({ page }) => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto(`/shopper-connect/mall-home?from=${day(-30)}&to=${day(-1)}`);
    await loaded(page);
    const chart = page.getByTestId('daily-trend-chart');
    await expect(chart.locator('.highcharts-series-group path, .highcharts-series-group rect').first()).toBeAttached();
    await expectXLabelsApart(chart);
    await expectExportButtonClear(chart);
    await page.setViewportSize({ width: 390, height: 844 });
    await expect
      .poll(async () => chart.locator('.highcharts-container').evaluate((element) => element.clientWidth))
      .toBeLessThan(400);
    await expectXLabelsApart(chart);
    await expectExportButtonClear(chart);
  });

  test('on a phone the filters are one line that opens them, under a one-line top bar', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/shopper-connect/mall-peak-hours');
    await loaded(page);
    const line = page.getByTestId('filter-line');
    await expect(line).toBeVisible();
    await expect(line).toHaveAttribute('aria-expanded', 'false');
    await expect(line).toContainText('Daily · GMV');
    for (const control of ['malls-select', 'date-range-button', 'metric-select']) {
      await expect(page.getByTestId(control)).toBeHidden();
    }
    // The top bar is one line (menu, breadcrumb; no disabled outlet box on a mall page) and so is the filter line.
    const bar = await page.getByTestId('top-bar').boundingBox();
    expect(bar?.height ?? 0).toBeLessThanOrEqual(56);
    await expect(page.getByTestId('outlet-dropdown')).toBeHidden();
    expect((await line.boundingBox())?.height ?? 0).toBeLessThanOrEqual(40);
    await line.click();
    await expect(line).toHaveAttribute('aria-expanded', 'true');
    await page.getByTestId('metric-select').selectOption('transactions');
    await loaded(page);
    await expect(line).toContainText('Daily · Transactions');
    await expect(page.getByTestId('peak-series').locator('h5')).toHaveText('Transactions over Time');
    // Wider, every filter shows and the line does not.
    await page.setViewportSize({ width: 1440, height: 900 });
    await expect(line).toBeHidden();
    await expect(page.getByTestId('malls-select')).toBeVisible();
    await expect(page.getByTestId('navbar-username')).toBeVisible();
  });

  test('an empty range shows No Data', async ({ page }) => {
    await page.goto('/shopper-connect/mall-home?from=2020-01-01&to=2020-01-07');
    await loaded(page);
    // No sale at all: the figures say so rather than $0.00, and the growth has nothing to compare.
    await expect(page.getByTestId('kpi-gmv-value')).toHaveText('No Data');
    await expect(page.getByTestId('kpi-gmv-growth')).toContainText('nothing to compare');
    for (const chart of ['daily-trend-chart', 'outlet-ranking-chart', 'payment-split-chart']) {
      await expect(page.getByTestId(chart).getByText('No Data', { exact: true })).toBeVisible();
    }
    await page.goto('/shopper-connect/member-vs-non-member?from=2020-01-01&to=2020-01-07');
    await loaded(page);
    await expect(page.getByTestId('member-overall-chart').getByText('No Data', { exact: true })).toBeVisible();
  });

  test('peak hours follows the metric of Header V2', async ({ page }) => {
    await page.goto('/shopper-connect/mall-peak-hours');
    await loaded(page);
    const title = page.getByTestId('peak-series').locator('h5');
    await expect(title).toHaveText('GMV over Time');
    await page.getByTestId('metric-select').selectOption('transactions');
    await loaded(page);
    await expect(title).toHaveText('Transactions over Time');
    await expect(page.getByTestId('peak-series-chart').getByText('No Data', { exact: true })).toHaveCount(0);
  });

  test('CSV export of several files downloads a zip', async ({ page }) => {
    await page.goto('/shopper-connect/mall-payment-methods');
    await loaded(page);
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-csv').click()]);
    expect(download.suggestedFilename()).toMatch(/^mall_payment_methods_\d{4}-\d{2}-\d{2}_\d{4}-\d{2}-\d{2}\.zip$/);
  });

  test('a chart exports to PNG and SVG offline', async ({ page }) => {
    // Only the app's own server answers: an export that needed an export server would fail.
    const origin = new URL(page.url()).origin;
    await page.route('**/*', (route) => (route.request().url().startsWith(origin) ? route.continue() : route.abort()));
    await page.goto('/shopper-connect/mall-home');
    await loaded(page);
    const chart = page.getByTestId('daily-trend-chart');
    for (const [item, extension] of [
      ['Download PNG image', 'png'],
      ['Download SVG vector image', 'svg'],
    ] as const) {
      await chart.locator('.highcharts-contextbutton').click();
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        chart.getByText(item, { exact: true }).click(),
      ]);
      expect(download.suggestedFilename()).toBe(`daily-trend-chart.${extension}`);
      const bytes = await download.createReadStream().then(async (stream) => {
        const chunks: Buffer[] = [];
        for await (const chunk of stream) chunks.push(chunk as Buffer);
        return Buffer.concat(chunks);
      });
      if (extension === 'png') expect(bytes.subarray(1, 4).toString('latin1')).toBe('PNG');
      else expect(bytes.toString('utf8')).toContain('<svg');
    }
  });
});
