import fs from 'node:fs/promises';
import { expect, type Page, test } from '@playwright/test';
import { pdfLines } from '../support/pdfText.js';

/*
 * The Receipts page (§2, §4, §7) in Chromium against the real server and its demo data, as the demo operator:
 * the list of the auto-selected outlet over the last 30 days, sorting, paging, the receipt id search, a receipt's
 * image, and the PDF download (a real PDF holding every receipt the filters select, more than the page shows).
 */

function day(offset: number): string {
  const date = new Date(Date.now() + offset * 86_400_000);
  return date.toISOString().slice(0, 10);
}

/** Opens the receipts page of the last 30 days: through /login, signing in as the demo operator. */
async function openReceipts(page: Page) {
  await page.goto(`/receipts?from=${day(-29)}&to=${day(-1)}`);
  await expect(page).toHaveURL(/\/login/);
  await page.waitForLoadState('networkidle');
  await page.getByTestId('login-username').fill('operator@demo.mall');
  await page.getByTestId('login-password').fill('demo-password-1');
  await page.getByTestId('login-submit').click();
  await expect(page.getByTestId('receipts-page')).toBeVisible();
  await expect(page.getByTestId('receipts-table')).toHaveAttribute('aria-busy', 'false');
  await expect(page.locator('[data-testid^="receipt-link-"]').first()).toBeVisible();
}

async function receiptIds(page: Page): Promise<string[]> {
  const links = page.locator('[data-testid^="receipt-link-"]');
  const ids = await links.evaluateAll((nodes) =>
    nodes.map((node) => node.getAttribute('data-testid')?.slice('receipt-link-'.length) ?? ''),
  );
  return ids;
}

/** The texts of one column's cells on the page (each body cell is marked with its column key). */
async function columnTexts(page: Page, key: string): Promise<string[]> {
  return page.getByTestId('receipts-table').locator(`tbody [data-col="${key}"]`).allInnerTexts();
}

async function totalAmounts(page: Page): Promise<number[]> {
  return (await columnTexts(page, 'total_amount')).map((text) => Number(text.replace(/[^0-9.-]/g, '')));
}

async function waitForList(page: Page) {
  await expect(page.getByTestId('receipts-table')).toHaveAttribute('aria-busy', 'false');
}

test.describe('receipts', () => {
  test.beforeEach(async ({ page }) => {
    page.on('pageerror', (error) => console.log(`page error: ${error.message}`));
    await openReceipts(page);
  });

  test('lists, sorts by amount, pages and filters by receipt id', async ({ page }) => {
    const firstPage = await receiptIds(page);
    expect(firstPage.length).toBeGreaterThan(0);
    expect(firstPage.length).toBeLessThanOrEqual(10);
    await expect(page.getByTestId('summary-total')).not.toHaveText('0');

    await page.getByTestId('sort-total_amount').click();
    await expect(page.getByTestId('sort-total_amount')).toHaveAttribute('data-order', 'desc');
    await waitForList(page);
    const desc = await totalAmounts(page);
    expect(desc.length).toBeGreaterThan(0);
    expect(desc).toEqual([...desc].sort((a, b) => b - a));

    await page.getByTestId('sort-total_amount').click();
    await expect(page.getByTestId('sort-total_amount')).toHaveAttribute('data-order', 'asc');
    await waitForList(page);
    const asc = await totalAmounts(page);
    expect(asc).toEqual([...asc].sort((a, b) => a - b));

    const total = Number((await page.getByTestId('summary-total').innerText()).replace(/,/g, ''));
    if (total > 10) {
      const before = await receiptIds(page);
      await page.getByTestId('page-next').click();
      await expect(page.getByTestId('page-indicator')).toContainText('Page 2 of');
      await waitForList(page);
      const after = await receiptIds(page);
      expect(after.length).toBeGreaterThan(0);
      expect(after.some((id) => before.includes(id))).toBe(false);
      const page2Amounts = await totalAmounts(page);
      expect(Math.min(...page2Amounts)).toBeGreaterThanOrEqual(Math.max(...asc));
    }

    const wanted = firstPage[0] ?? '';
    await page.getByTestId('receipt-id-search').fill(wanted.toLowerCase());
    await page.getByTestId('receipt-id-search-button').click();
    await expect(page.getByTestId('page-indicator')).toContainText('Page 1 of');
    await waitForList(page);
    await expect(page.getByTestId(`receipt-link-${wanted}`)).toBeVisible();
    const found = await receiptIds(page);
    expect(found.every((id) => id.toLowerCase().includes(wanted.toLowerCase()))).toBe(true);
  });

  test('filters by receipt type and shows the payment breakdown and summary', async ({ page }) => {
    await expect(page.getByTestId('payment-summary')).toBeVisible();
    await expect(page.getByTestId('payment-breakdown-chart')).toBeVisible();
    await expect(page.locator('[data-testid^="payment-row-"]').first()).toBeVisible();
    const options = await page
      .getByTestId('receipt-type-select')
      .locator('option')
      .evaluateAll((nodes) => nodes.map((node) => (node as HTMLOptionElement).value));
    expect(options).toContain('allReceipts');
    if (options.includes('voidReceipts')) {
      await page.getByTestId('receipt-type-select').selectOption('voidReceipts');
      await waitForList(page);
      await expect(page.getByTestId('page-indicator')).toContainText('Page 1 of');
      const statuses = await columnTexts(page, 'receipt_status');
      expect(statuses.length).toBeGreaterThan(0);
      expect(statuses.every((status) => status === 'Void')).toBe(true);
    }
  });

  test('opens a receipt image', async ({ page }) => {
    const [id] = await receiptIds(page);
    await page.getByTestId(`receipt-link-${id}`).click();
    const image = page.getByTestId('receipt-image');
    await expect(image).toBeVisible();
    const size = await image.evaluate((node) => ({
      w: (node as HTMLImageElement).naturalWidth,
      h: (node as HTMLImageElement).naturalHeight,
    }));
    expect(size.w).toBeGreaterThan(100);
    expect(size.h).toBeGreaterThan(100);
    await page.getByRole('button', { name: 'Close' }).last().click();
    await expect(image).toBeHidden();
  });

  test('downloads the PDF of every receipt the filters select, not only the page on screen', async ({ page }) => {
    // The outlet with the most receipts in the window, so that its list is longer than the page on screen.
    const from = day(-29);
    const to = day(-1);
    const client = new URL(page.url()).searchParams.get('client') ?? '';
    expect(client).not.toBe('');
    const outlets = (await (await page.request.get(`/outlets?client_id=${client}`)).json()) as { id: number }[];
    let best = { id: 0, total: 0 };
    for (const outlet of outlets) {
      const answer = await page.request.get(
        `/outlets/transaction?client_id=${client}&id=${outlet.id}&startTime=${from}&endTime=${to}&rowsPerPage=10`,
      );
      const total = ((await answer.json()) as { summary: { total: number }[] }).summary[0]?.total ?? 0;
      if (total > best.total) best = { id: outlet.id, total };
    }
    expect(best.total).toBeGreaterThan(10);
    await page.goto(`/receipts?client=${client}&outlet=${best.id}&from=${from}&to=${to}`);
    await expect(page.getByTestId('summary-total')).toHaveText(best.total.toLocaleString('en-US'));
    await waitForList(page);

    await expect(page.getByTestId('pdf-cap')).toHaveText(
      'The PDF holds every receipt the filters select, up to 10,000.',
    );
    const ids = await receiptIds(page);
    expect(ids.length).toBe(10);
    const expected = Math.min(best.total, 10_000);
    const downloadPromise = page.waitForEvent('download');
    const answer = page.waitForResponse((response) => response.url().includes('/outlets/transaction/generatepdf'));
    await page.getByTestId('generate-pdf').click();
    const response = await answer;
    expect(new URL(response.url()).searchParams.has('page')).toBe(false);
    expect(response.headers()['x-receipt-count']).toBe(String(expected));
    const download = await downloadPromise;
    expect(download.suggestedFilename()).toBe(`receipts_${from}_${to}.pdf`);
    const pdf = await fs.readFile(await download.path());
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    const headings = (await pdfLines(pdf))
      // A receipt whose id is a bare timestamp is headed 'Receipt no receipt id' (§9).
      .filter((line) => /^Receipt (\S+|no receipt id)$/.test(line));
    expect(headings).toHaveLength(expected);
    expect(headings.slice(0, ids.length)).toEqual(ids.map((id) => `Receipt ${id}`));
    await expect(page.getByTestId('generate-pdf')).toHaveText('Generate PDF');
    await expect(page.getByTestId('pdf-progress')).toBeHidden();
  });

  test('a signed download link copies, works without a session, and a forged one is refused', async ({
    page,
    browser,
  }) => {
    await page.getByTestId('pdf-link').click();
    const url = await page.getByTestId('pdf-link-url').inputValue();
    expect(url).toMatch(/\/download\/receipts\/pdf\?token=/);
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.getByTestId('pdf-link-copy').click();
    await expect(page.getByText('Link copied.')).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(url);
    const anonymous = await browser.newContext();
    const response = await anonymous.request.get(url);
    expect(response.status()).toBe(200);
    expect((await response.body()).subarray(0, 5).toString()).toBe('%PDF-');
    const forged = await anonymous.request.get(url.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A')));
    expect(forged.status()).toBe(403);
    await anonymous.close();
  });
});
