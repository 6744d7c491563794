import { expect, type Locator, type Response, test } from '@playwright/test';
import { seriousFindings } from './axe';
import { sellAllWeek, tenantOutlet } from './outletWeek';
import { openAs, openPage } from './session';

/*
 * Tenant Connect's sales analysis in Chromium against the real server and its demo data. The tenant-only account
 * (§6: the account that sees Tenant Connect's own pages; other tenants see only its three shared pages) opens it
 * from the sidebar: its one outlet over the header's days. The figures are the server's: the KPI revenue and
 * transactions are the series' totals, the tables hold the rows the calls answered. The days include today, so the
 * KPIs' growth is asked over the complete days (start to yesterday) and says today is left out. The chart's measure switches;
 * the top SKUs sort on the server (quantity, amount) and on the page (item), page, narrow to an SKU searched and
 * export as CSV; the meal timings and the item breakdown show what their calls answered. Then the demo super admin
 * opens an outlet with meal timings (found through the same calls) and sees them with their shares.
 */

type SeriesAnswer = { data: { key: string; value: number }[]; total: number };

const isCall =
  (path: string, params: Record<string, string> = {}) =>
  (response: Response) => {
    const url = new URL(response.url());
    return (
      url.pathname === path &&
      response.request().method() === 'GET' &&
      Object.entries(params).every(([key, value]) => url.searchParams.get(key) === value)
    );
  };

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A figure as the page writes it ('$1,234.50', 'RM12.00', '1,234') as a number. */
const figure = (text: string | null) => Number((text ?? '').replace(/[^0-9.-]/g, ''));

async function cells(table: Locator, column: number): Promise<string[]> {
  return table.locator(`tbody tr td:nth-child(${column})`).allInnerTexts();
}

test('the tenant analyses its outlet’s sales: KPIs, the series, top SKUs, meal timings, items and a CSV', async ({
  page,
  browser,
}) => {
  // One path through every section of the page: longer than the default 30 s on a busy machine.
  test.setTimeout(90_000);
  page.on('pageerror', (error) => console.log(`page error: ${error.message}`));
  await openAs(page, 'tenant-only@demo.mall');
  await expect(page).toHaveURL(/\/tenant-connect\/sales-review(\?|$)/);
  // The week's sales of its outlet are pinned by the path (three SKUs each day), not left to the demo's chance.
  await sellAllWeek(browser, await tenantOutlet(page));

  const comparisons: Response[] = [];
  page.on('response', (response) => {
    if (isCall('/outlets/overallComparison')(response)) comparisons.push(response);
  });
  const revenue = page.waitForResponse(isCall('/outlets/totalRevenuePoints', { timeRange: 'daily' }));
  const transactions = page.waitForResponse(isCall('/outlets/totalTransactionPoints', { timeRange: 'daily' }));
  const meals = page.waitForResponse(isCall('/outlets/mealTimingReport'));
  const items = page.waitForResponse(isCall('/outlets/itemSalesBreakdown', { timeRange: 'daily' }));
  const topSkus = page.waitForResponse(isCall('/outlets/topSKU', { page: '1' }));
  await openPage(page, 'Sales Analysis', 'Tenant Connect');
  await expect(page).toHaveURL(/\/tenant-connect\/sales-analysis(\?|$)/);
  const view = page.getByTestId('sales-analysis-page');
  await expect(view.getByRole('heading', { level: 1 })).toHaveText('Sales Analysis');
  for (const response of [revenue, transactions, meals, items, topSkus]) {
    expect((await response).status()).toBe(200);
  }
  await expect(view.getByTestId('panel-loading')).toHaveCount(0);

  /* ---- the KPIs' calls: each comparison's whole days, and apart its complete days (today left out) */
  const days = new URL((await revenue).url()).searchParams;
  const [start, end] = [days.get('startTime') ?? '', days.get('endTime') ?? ''];
  const yesterday = new Date(Date.parse(`${end}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
  expect(start < end).toBe(true);
  // Three comparisons (previous, same weekdays last year, festival-aligned last year), each asked at once.
  await expect.poll(() => comparisons.length).toBe(6);
  const periods = comparisons.map((response) => {
    const params = new URL(response.url()).searchParams;
    expect(response.status()).toBe(200);
    expect(params.get('startTime')).toBe(start);
    return params.get('endTime');
  });
  expect(periods.sort()).toEqual([yesterday, yesterday, yesterday, end, end, end]);
  const comparison = comparisons.find((response) => new URL(response.url()).searchParams.get('endTime') === end);
  if (!comparison) throw new Error('no comparison of the whole days');

  /* ---- KPIs: the server's totals, and the series agree with them */
  const outlet = new URL((await revenue).url()).searchParams.get('id');
  expect(outlet).toBe(await page.getByTestId('outlet-dropdown').inputValue());
  const revenueSeries = (await (await revenue).json()) as SeriesAnswer;
  const transactionSeries = (await (await transactions).json()) as SeriesAnswer;
  const totals = (await comparison.json()) as { current: { revenue: number; transactions: number } };
  expect(totals.current.revenue).toBeCloseTo(revenueSeries.total, 2);
  expect(totals.current.transactions).toBe(transactionSeries.total);
  const kpiRevenue = await view.getByTestId('sa-kpi-revenue-value').textContent();
  expect(figure(kpiRevenue)).toBeCloseTo(totals.current.revenue, 0);
  expect(kpiRevenue).toBe(await view.getByTestId('sa-trend-total-revenue').textContent());
  expect(figure(await view.getByTestId('sa-kpi-transactions-value').textContent())).toBe(transactionSeries.total);
  expect(await view.getByTestId('sa-kpi-transactions-value').textContent()).toBe(
    await view.getByTestId('sa-trend-total-transactions').textContent(),
  );
  // The rate and what it is against, and the two figures it compares with their days (issue 31).
  await expect(view.getByTestId('sa-kpi-revenue-growth')).toHaveText(
    /^(▲ |▼ )?-?\d+\.\d{2}% vs .+ \(today left out\)( · nothing to compare)?$/,
  );
  await expect(view.getByTestId('sa-kpi-units-compared')).toHaveText(
    /^[\d,]+, \d{1,2}.* vs ([\d,]+|no data), \d{1,2}.+$/,
  );
  await expect(view.getByTestId('sa-compared-dates')).toHaveText(/^Compared with .+ \(the previous \d+ days?\)$/);
  await expect(view.getByTestId('sa-today-note')).toHaveText(/^\s*· The days include today: its figures are so far\.$/);
  await expect(view.getByTestId('sa-growth-days')).toHaveText(/^\s*Growth vs .+ \(today left out\)\.$/);
  // The same weekdays last year: 364 days back, said on the page.
  await view.getByLabel('Compare with').selectOption({ label: 'Same weekdays last year' });
  await expect(view.getByTestId('sa-compared-dates')).toHaveText(
    /^Compared with .+ \d{4} \(the same weekdays last year\)$/,
  );
  await expect(view.getByTestId('sa-kpi-revenue-growth')).toHaveText(
    /^(▲ |▼ )?-?\d+\.\d{2}% vs .+ \d{4}, same weekdays last year \(today left out\)( · nothing to compare)?$/,
  );
  // Last year with its festivals met: the server chose the days by the outlet's calendar.
  await view.getByLabel('Compare with').selectOption({ label: 'Festival-aligned last year' });
  await expect(view.getByTestId('sa-compared-dates')).toHaveText(
    /^Compared with .+ \d{4} \(last year, its festivals met\)$/,
  );
  await view.getByLabel('Compare with').selectOption({ label: 'Previous period' });

  /* ---- the series: a row a day of the answer, today so far; the measure switches */
  const trendTable = view.getByTestId('sa-trend-table');
  await expect(trendTable.locator('tbody tr')).toHaveCount(revenueSeries.data.length);
  expect((await cells(trendTable, 2)).map(figure)).toEqual(revenueSeries.data.map((point) => point.value));
  await expect(trendTable.locator('tbody tr').last().locator('td').first()).toHaveText(/\(so far\)$/);
  const chart = view.getByTestId('sa-trend-chart');
  await expect(chart.locator('.highcharts-yaxis .highcharts-axis-title')).toHaveText(/^Revenue/);
  await view.getByTestId('sa-measure-transactions').click();
  await expect(view.getByTestId('sa-measure-transactions')).toHaveAttribute('aria-pressed', 'true');
  await expect(chart.locator('.highcharts-yaxis .highcharts-axis-title')).toHaveText('Transactions');

  /* ---- top SKUs: the server's ranking, sorted on the server and on the page, paged, searched */
  const skus = view.getByTestId('sa-skus');
  const skuTable = skus.getByTestId('sa-skus-table');
  const firstPage = (await (await topSkus).json()) as {
    data: { sku_id: number; item_name: string; quantity: number; amount: number }[];
    total: { rows_total: number };
  };
  expect(firstPage.total.rows_total).toBeGreaterThan(0);
  await expect(skuTable.locator('tbody tr')).toHaveCount(firstPage.data.length);
  expect(await cells(skuTable, 2)).toEqual(firstPage.data.map((row) => row.item_name));
  const quantities = (await cells(skuTable, 4)).map(figure);
  expect(quantities).toEqual([...quantities].sort((a, b) => b - a));

  const byAmount = page.waitForResponse(isCall('/outlets/topSKU', { sortMethod: 'amount', orderByMethod: 'desc' }));
  await skus.getByTestId('sa-skus-sort-amount').click();
  expect((await byAmount).status()).toBe(200);
  await expect(skus.getByRole('columnheader', { name: /^Amount/ })).toHaveAttribute('aria-sort', 'descending');
  const amounts = (await cells(skuTable, 6)).map(figure);
  expect(amounts).toEqual([...amounts].sort((a, b) => b - a));

  await skus.getByTestId('sa-skus-sort-item_name').click();
  await expect(skus.getByRole('columnheader', { name: /^Item/ })).toHaveAttribute('aria-sort', 'ascending');
  const names = await cells(skuTable, 2);
  expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b, 'en', { numeric: true, sensitivity: 'base' })));

  if (firstPage.total.rows_total > 10) {
    const second = page.waitForResponse(isCall('/outlets/topSKU', { page: '2', sortMethod: 'amount' }));
    await skus.getByTestId('page-next').click();
    expect((await second).status()).toBe(200);
    await expect(skus.getByTestId('page-indicator')).toHaveText(/^Page 2 of \d+$/);
    const ranks = (await cells(skuTable, 1)).map(figure).sort((a, b) => a - b);
    expect(ranks[0]).toBe(11);
  }

  const wanted = firstPage.data[0];
  if (!wanted) throw new Error('no SKU sold');
  await skus.getByTestId('sa-sku-search').click();
  const searched = page.waitForResponse(isCall('/outlets/sku', { searchText: wanted.item_name }));
  await page.getByLabel('Search SKUs by name or barcode').fill(wanted.item_name);
  expect((await searched).status()).toBe(200);
  // The menu first shows the SKUs of the search opened with no text; the click waits until it shows the answer of
  // the text typed, so it cannot land on a row of the earlier list as the menu redraws (another SKU, or All SKUs).
  const found = (await (await searched).json()) as { id: number }[];
  const menu = page.getByTestId('sa-sku-menu');
  await expect(menu.locator('[data-testid^="sa-sku-option-"]')).toHaveCount(found.length);
  const only = page.waitForResponse(isCall('/outlets/topSKU', { sku_id: String(wanted.sku_id) }));
  await menu.getByTestId(`sa-sku-option-${wanted.sku_id}`).click();
  await expect(skus.getByTestId('sa-sku-search')).toHaveAccessibleName(
    new RegExp(`^SKU shown: .*${escapeRegExp(wanted.item_name)}`),
  );
  const narrowed = (await (await only).json()) as { data: { sku_id: number; quantity: number }[] };
  expect(narrowed.data.map((row) => row.sku_id)).toEqual([wanted.sku_id]);
  await expect(skuTable.locator('tbody tr')).toHaveCount(1);
  await expect(skuTable.locator('tbody tr td').nth(1)).toHaveText(wanted.item_name);
  expect(figure(await skuTable.locator('tbody tr td').nth(3).innerText())).toBe(wanted.quantity);
  // Cleared, the ranking is asked for every SKU again (however many the outlet sold: one is enough for the path).
  const unnarrowed = page.waitForResponse(
    (response) =>
      isCall('/outlets/topSKU', { page: '1' })(response) && !new URL(response.url()).searchParams.has('sku_id'),
  );
  await skus.getByTestId('sa-sku-clear').click();
  const cleared = (await (await unnarrowed).json()) as { data: unknown[] };
  await expect(skuTable.locator('tbody tr')).toHaveCount(cleared.data.length);

  /* ---- the CSV of the ranking: every SKU */
  await expect(skus.getByTestId('sa-skus-export')).toBeEnabled();
  const [download] = await Promise.all([page.waitForEvent('download'), skus.getByTestId('sa-skus-export').click()]);
  expect(download.suggestedFilename()).toMatch(/^top_skus_\d{4}-\d{2}-\d{2}_\d{4}-\d{2}-\d{2}\.csv$/);
  const text = await download.createReadStream().then(async (stream) => {
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  });
  // The file starts with the UTF-8 BOM (for Excel), not part of its first line.
  expect(text.startsWith('\uFEFF')).toBe(true);
  const lines = text
    .slice(1)
    .split('\r\n')
    .filter((line) => line !== '');
  expect(lines[0]).toMatch(/^Rank,SKU ID,Barcode,Item Name,Quantity,Unit Price,Amount,Currency$/);
  expect(lines).toHaveLength(Math.min(firstPage.total.rows_total, 5000) + 1);

  /* ---- meal timings: what the call answered (this retail outlet has none: the page says so) */
  const mealRows = ((await (await meals).json()) as { data: unknown[] }).data;
  if (mealRows.length === 0) {
    await expect(view.getByTestId('sa-meals')).toContainText('No meal timings are set up for this outlet.');
  } else {
    await expect(view.getByTestId('sa-meals-table').locator('tbody tr')).toHaveCount(mealRows.length);
  }

  /* ---- item breakdown: the call's rows; weekly asks again */
  const itemRows = ((await (await items).json()) as { data: { item_name: string }[] }).data;
  const itemTable = view.getByTestId('sa-items-table');
  if (itemRows.length === 0) await expect(itemTable.locator('tbody tr')).toHaveText(['No Data']);
  else expect(await cells(itemTable, 3)).toEqual(itemRows.map((row) => row.item_name));
  const weekly = page.waitForResponse(isCall('/outlets/itemSalesBreakdown', { timeRange: 'weekly' }));
  await view.getByTestId('sa-item-bucket').selectOption('weekly');
  const weeklyRows = ((await (await weekly).json()) as { data: unknown[] }).data;
  await expect(itemTable.locator('tbody tr')).toHaveCount(Math.max(1, weeklyRows.length));

  await expect(view.getByTestId('panel-loading')).toHaveCount(0);
  expect(await seriousFindings(page)).toEqual([]);
});

test('the meal timings of an outlet that has them, with their share of its revenue', async ({ page }) => {
  const first = page.waitForResponse(isCall('/outlets/mealTimingReport'));
  await openAs(page, 'admin@demo.mall', '/tenant-connect/sales-analysis');
  const view = page.getByTestId('sales-analysis-page');
  await expect(view.getByRole('heading', { level: 1 })).toHaveText('Sales Analysis');
  const dropdown = page.getByTestId('outlet-dropdown');
  await expect(view.getByTestId('panel-loading')).toHaveCount(0);

  // An outlet with meal timings, found through the call the page makes (the session's own GETs).
  const asked = new URL((await first).url()).searchParams;
  const clientId = asked.get('client_id') ?? '';
  const from = asked.get('startTime') ?? '';
  const to = asked.get('endTime') ?? '';
  const outletIds = await dropdown
    .locator('option:not([disabled])')
    .evaluateAll((options) =>
      options.map((option) => (option as HTMLOptionElement).value).filter((value) => /^\d+$/.test(value)),
    );
  let chosen: { id: string; rows: { name: string; revenue: number }[] } | undefined;
  for (const id of outletIds) {
    const answer = await page.request.get(
      `/outlets/mealTimingReport?client_id=${clientId}&id=${id}&startTime=${from}&endTime=${to}`,
    );
    const rows = ((await answer.json()) as { data: { name: string; revenue: number }[] }).data;
    if (rows.some((row) => row.revenue > 0)) {
      chosen = { id, rows };
      break;
    }
  }
  if (!chosen) throw new Error('no outlet of the demo data has meal timings with sales');

  const totalAnswer = await page.request.get(
    `/outlets/totalRevenuePoints?client_id=${clientId}&id=${chosen.id}&startTime=${from}&endTime=${to}&timeRange=monthly`,
  );
  const revenueTotal = ((await totalAnswer.json()) as SeriesAnswer).total;
  if ((await dropdown.inputValue()) !== chosen.id) {
    const meals = page.waitForResponse(isCall('/outlets/mealTimingReport', { id: chosen.id }));
    await dropdown.selectOption(chosen.id);
    expect((await meals).status()).toBe(200);
  }
  const table = view.getByTestId('sa-meals-table');
  await expect(table.locator('tbody tr')).toHaveCount(chosen.rows.length);
  expect(await cells(table, 1)).toEqual(chosen.rows.map((row) => row.name));
  expect((await cells(table, 3)).map(figure)).toEqual(chosen.rows.map((row) => row.revenue));
  const shares = (await cells(table, 5)).map(figure);
  shares.forEach((share, index) => {
    expect(share).toBeCloseTo(((chosen?.rows[index]?.revenue ?? 0) / revenueTotal) * 100, 0);
  });
  await expect(view.getByTestId('sa-meals-chart').locator('svg')).toHaveAttribute('aria-label', 'Sales by Meal Timing');
  expect(await seriousFindings(page)).toEqual([]);
});
