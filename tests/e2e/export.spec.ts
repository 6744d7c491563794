import { readFile } from 'node:fs/promises';
import { expect, type Page, type Request, test } from '@playwright/test';
import ExcelJS from 'exceljs';
import JSZip from 'jszip';
import { seriousFindings } from './axe';
import { openAs, openPage, waitForPopoversClosed } from './session';

/*
 * The Export page against the real server and demo data, as the demo operator: opened from the sidebar, one mall
 * and the last 30 days chosen on the page, three reports ticked; the zip downloaded holds one CSV a report named by
 * the date range, with title-cased headers, and its figures are those the Mall GMV page's own calls answer for the
 * same client, mall and dates. Or one report page's Excel workbook, the page chosen on the Export page (Mall Home at
 * first, or Mall GMV), its sheets read back.
 */

interface ReportAnswer {
  readonly query: URLSearchParams;
  readonly rows: readonly Record<string, string | number>[];
}

/** The CSV cell of a value as the export writes it (quoted when it holds a comma, a quote or a line end). */
function cell(value: string | number | undefined): string {
  const text = String(value ?? '');
  return /[",\r\n]/.test(text) || /^\s|\s$/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** The report calls a page makes from now on, by path. */
function recordReportCalls(page: Page): Map<string, URLSearchParams> {
  const calls = new Map<string, URLSearchParams>();
  page.on('request', (request: Request) => {
    const url = new URL(request.url());
    if (url.pathname.startsWith('/api/mall_report/')) calls.set(url.pathname, url.searchParams);
  });
  return calls;
}

/** The answer of the next call to `path` the page makes (its query and rows). */
async function nextAnswer(page: Page, path: string): Promise<ReportAnswer> {
  const response = await page.waitForResponse(
    (candidate) => new URL(candidate.url()).pathname === path && candidate.status() === 200,
  );
  const body = (await response.json()) as { data: Record<string, string | number>[] };
  return { query: new URL(response.url()).searchParams, rows: body.data };
}

/** The scope a report call was asked for: client, malls, dates and hours. */
const scopeOf = (query: URLSearchParams) => ({
  client: query.get('client_id'),
  malls: query.getAll('mall_ids'),
  start: query.get('start_time'),
  end: query.get('end_time'),
  hours: `${query.get('start_hour')}-${query.get('end_hour')}`,
});

test('the export downloads the ticked reports as one zip, with the figures the mall pages show', async ({ page }) => {
  test.setTimeout(60_000);
  await openAs(page, 'operator@demo.mall');
  await openPage(page, 'Export', 'Shopper Connect');
  await expect(page).toHaveURL(/\/shopper-connect\/export(\?|$)/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Export');
  await expect(page.getByTestId('mall-header')).toHaveCount(0);
  await expect(page.getByTestId('malls-select')).toHaveAttribute('title', /\S/);

  // One mall, the last 30 days, on the page's own filters.
  await page.getByTestId('malls-select').click();
  await page.getByTestId('malls-deselect-all').click();
  const option = page.locator('[data-testid^="malls-option-"]').first();
  await option.check({ force: true });
  const mallId = ((await option.getAttribute('data-testid')) ?? '').replace('malls-option-', '');
  await page.getByTestId('malls-apply').click();
  await page.getByTestId('date-range-button').click();
  await page.getByText('Last 30 days', { exact: true }).click();
  await page.getByTestId('date-range-apply').click();
  // The picker gone: a Space below goes to the box focused.
  await expect(page.getByTestId('date-range-apply')).toHaveCount(0);
  await waitForPopoversClosed(page);
  await expect(page).toHaveURL(new RegExp(`[?&]malls=${mallId}(&|$)`));
  const address = new URL(page.url()).searchParams;
  const from = address.get('from') ?? '';
  const to = address.get('to') ?? '';
  expect(from).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  const range = `${from}_${to}`;

  // Three reports, ticked from the keyboard.
  await page.getByTestId('export-clear-all').click();
  for (const name of ['Daily', 'Monthly', 'Category']) {
    const box = page.getByRole('checkbox', { name, exact: true });
    await box.focus();
    await expect(box).toBeFocused();
    await page.keyboard.press('Space');
    await expect(box).toBeChecked();
  }
  await expect(page.getByRole('checkbox', { name: 'Level', exact: true })).not.toBeChecked();

  const exportCalls = recordReportCalls(page);
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-start').click()]);
  expect(download.suggestedFilename()).toBe(`mall-report_${range}.zip`);
  await expect(page.getByTestId('export-done')).toContainText(`Downloaded mall-report_${range}.zip.`);
  // Done, as after loading (a11y.spec): no serious or critical axe finding.
  expect(await seriousFindings(page)).toEqual([]);
  expect([...exportCalls.keys()].sort()).toEqual([
    '/api/mall_report/category',
    '/api/mall_report/daily',
    '/api/mall_report/monthly',
  ]);

  const zip = await JSZip.loadAsync(await readFile(await download.path()));
  expect(Object.keys(zip.files).sort()).toEqual([
    `categories_${range}.csv`,
    `daily_${range}.csv`,
    `monthly_${range}.csv`,
  ]);
  const linesOf = async (name: string) => {
    const text = (await zip.file(`${name}_${range}.csv`)?.async('string')) ?? '';
    // Each file starts with the UTF-8 BOM (for Excel), not part of its first line.
    expect(text.startsWith('\uFEFF')).toBe(true);
    return text
      .slice(1)
      .split('\r\n')
      .filter((line) => line !== '');
  };
  const daily = await linesOf('daily');
  const monthly = await linesOf('monthly');
  const categories = await linesOf('categories');
  expect(daily[0]).toBe('Date,GMV,Transactions,Currency');
  expect(monthly[0]).toBe('Month,GMV,Transactions,Currency');
  expect(categories[0]).toBe('Category,GMV,Transactions,Average Transaction Value,Currency');
  const currency = daily[1]?.split(',').at(-1) ?? '';
  expect(currency).toMatch(/^[A-Z]{3}$/);

  // The same filters on Mall GMV (the header's, kept across pages): its calls answer the same figures.
  const answers = Promise.all([
    nextAnswer(page, '/api/mall_report/daily'),
    nextAnswer(page, '/api/mall_report/monthly'),
    nextAnswer(page, '/api/mall_report/category'),
  ]);
  await openPage(page, 'Mall GMV', 'Shopper Connect');
  const [gmvDaily, gmvMonthly, gmvCategories] = await answers;
  for (const [path, answer] of [
    ['/api/mall_report/daily', gmvDaily],
    ['/api/mall_report/monthly', gmvMonthly],
    ['/api/mall_report/category', gmvCategories],
  ] as const) {
    const asked = exportCalls.get(path);
    if (!asked) throw new Error(`the export did not ask ${path}`);
    expect(scopeOf(answer.query)).toEqual(scopeOf(asked));
    expect(scopeOf(asked)).toMatchObject({ malls: [mallId], start: from, end: to, hours: '0-23' });
  }
  expect(gmvDaily.rows.length).toBeGreaterThan(0);
  expect(gmvDaily.rows.some((row) => Number(row.gmv) > 0)).toBe(true);
  expect(daily.slice(1)).toEqual(
    gmvDaily.rows.map((row) => [row.date, row.gmv, row.transactions, currency].map(cell).join(',')),
  );
  expect(monthly.slice(1)).toEqual(
    gmvMonthly.rows.map((row) => [row.month, row.gmv, row.transactions, currency].map(cell).join(',')),
  );
  expect(gmvCategories.rows.length).toBeGreaterThan(0);
  expect(categories.slice(1)).toEqual(
    gmvCategories.rows.map((row) =>
      [row.category, row.gmv, row.transactions, row.average_transaction_value, currency].map(cell).join(','),
    ),
  );
});

test('the export downloads Mall Home as one Excel workbook, its sheets and filters read back', async ({ page }) => {
  test.setTimeout(60_000);
  await openAs(page, 'operator@demo.mall');
  await openPage(page, 'Export', 'Shopper Connect');
  await expect(page.getByTestId('export-start')).toBeEnabled();
  // The label is what a user clicks (Blueprint draws its own indicator over the input).
  await page.locator('label', { has: page.getByTestId('export-format-workbook') }).click();
  await expect(page.getByRole('radio', { name: /Excel workbook/ })).toBeChecked();
  await expect(page.getByTestId('export-reports')).toHaveAttribute('disabled', '');
  // Mall Home's workbook at first.
  await expect(page.getByRole('combobox', { name: 'Report page' })).toHaveValue('mall_home');
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-start').click()]);
  expect(download.suggestedFilename()).toMatch(/^mall-home_\d{4}-\d{2}-\d{2}_\d{4}-\d{2}-\d{2}\.xlsx$/);
  await expect(page.getByTestId('export-done')).toContainText(download.suggestedFilename());
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load((await readFile(await download.path())) as unknown as ExcelJS.Buffer);
  expect(workbook.worksheets.map((sheet) => sheet.name)).toEqual([
    'Key figures',
    'Daily',
    'Outlets',
    'Payment methods',
    'Filters',
  ]);
  const daily = workbook.getWorksheet('Daily');
  expect(daily?.getCell('A2').type).toBe(ExcelJS.ValueType.Date);
  expect(daily?.getCell('B2').type).toBe(ExcelJS.ValueType.Number);
  const filters = new Map<string, unknown>();
  workbook.getWorksheet('Filters')?.eachRow((row) => {
    filters.set(String(row.getCell(1).value), row.getCell(2).value);
  });
  expect(filters.get('Generated by')).toBe('operator@demo.mall');
});

test('the export downloads the Mall GMV workbook chosen, its Daily sheet adding up to the daily report', async ({
  page,
}) => {
  test.setTimeout(60_000);
  await openAs(page, 'operator@demo.mall');
  await openPage(page, 'Export', 'Shopper Connect');
  await expect(page.getByTestId('export-start')).toBeEnabled();
  await page.locator('label', { has: page.getByTestId('export-format-workbook') }).click();
  await expect(page.getByRole('radio', { name: /Excel workbook/ })).toBeChecked();
  const reportPage = page.getByRole('combobox', { name: 'Report page' });
  await reportPage.selectOption({ label: 'Mall GMV' });
  await expect(reportPage).toHaveValue('mall_gmv');
  await expect(page.getByTestId('export-workbook-page-sheets')).toHaveText(
    'Days, months, outlets, categories and levels.',
  );

  const workbookCall = page.waitForRequest(
    (request) => new URL(request.url()).pathname === '/api/mall_report/mall_gmv/workbook',
  );
  const [download, asked] = await Promise.all([
    page.waitForEvent('download'),
    workbookCall,
    page.getByTestId('export-start').click(),
  ]);
  // The page's malls and dates, whole days: Mall GMV has no hours.
  const query = new URL(asked.url()).searchParams;
  expect(query.get('client_id')).toMatch(/^\d+$/);
  expect(query.getAll('mall_ids').length).toBeGreaterThan(0);
  expect(query.has('start_hour')).toBe(false);
  const range = `${query.get('start_time')}_${query.get('end_time')}`;
  expect(range).toMatch(/^\d{4}-\d{2}-\d{2}_\d{4}-\d{2}-\d{2}$/);
  expect(download.suggestedFilename()).toBe(`mall-gmv_${range}.xlsx`);
  await expect(page.getByTestId('export-done')).toContainText(`Downloaded mall-gmv_${range}.xlsx.`);
  // Done, the page choice shown: no serious or critical axe finding.
  expect(await seriousFindings(page)).toEqual([]);

  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load((await readFile(await download.path())) as unknown as ExcelJS.Buffer);
  expect(workbook.worksheets.map((sheet) => sheet.name)).toEqual([
    'Daily',
    'Monthly',
    'Outlets',
    'Categories',
    'Levels',
    'Filters',
  ]);
  const daily = workbook.getWorksheet('Daily');
  if (!daily) throw new Error('the workbook has no Daily sheet');
  expect([1, 2, 3].map((column) => daily.getRow(1).getCell(column).value)).toEqual(['Date', 'GMV', 'Transactions']);
  const sheetGmv: number[] = [];
  daily.eachRow((row, rowNumber) => {
    if (rowNumber === 1) return;
    expect(row.getCell(1).type).toBe(ExcelJS.ValueType.Date);
    const gmv = row.getCell(2).value;
    expect(typeof gmv).toBe('number');
    sheetGmv.push(Number(gmv));
  });

  // The daily report for the same filters, read with the browser's session: the same days, the same GMV in all.
  const answer = await page.request.get(`/api/mall_report/daily?${query.toString()}`);
  expect(answer.status()).toBe(200);
  const { data } = (await answer.json()) as { data: { date: string; gmv: number; transactions: number }[] };
  expect(data.some((row) => row.gmv > 0)).toBe(true);
  expect(sheetGmv).toHaveLength(data.length);
  const cents = (values: readonly number[]) => Math.round(values.reduce((sum, value) => sum + value, 0) * 100);
  expect(cents(sheetGmv)).toBe(cents(data.map((row) => row.gmv)));
});
