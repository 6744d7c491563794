import AxeBuilder from '@axe-core/playwright';
import { type Browser, expect, type Page, type Response, test } from '@playwright/test';

/*
 * The tenant's Receipt Data page (§2, §6, §7) in Chromium against the real server and its demo data. The demo
 * tenant opens it (its sidebar has the item) and sees the receipts of its one outlet over the last 30 days, sorts them by
 * amount and opens a receipt's image. The partner domain's account (§6) has no such page: no sidebar item, the
 * address goes to /404, and the server refuses the call.
 */

const PASSWORD = 'demo-password-1';

function day(offset: number): string {
  return new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
}

async function newPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext();
  const page = await context.newPage();
  page.on('pageerror', (error) => console.log(`page error: ${error.message}`));
  return page;
}

async function signInAt(page: Page, path: string, username: string): Promise<void> {
  await page.goto(path);
  await expect(page).toHaveURL(/\/login/);
  await page.getByTestId('login-username').fill(username);
  await page.getByTestId('login-password').fill(PASSWORD);
  await page.getByTestId('login-submit').click();
  await expect(page.getByTestId('app-layout')).toBeVisible();
}

const isListCall = (response: Response, sortColumn: string) => {
  const url = new URL(response.url());
  return url.pathname === '/api/tenant/receiptData' && url.searchParams.get('sortColumn') === sortColumn;
};

async function amounts(page: Page): Promise<number[]> {
  const texts = await page.getByTestId('trd-amount').allInnerTexts();
  return texts.map((text) => Number(text.replace(/[^0-9.-]/g, '')));
}

test('the tenant lists its outlet’s receipts, sorts them by amount and opens a receipt’s image', async ({
  browser,
}) => {
  const page = await newPage(browser);
  const firstList = page.waitForResponse((response) => isListCall(response, 'datetime'));
  await signInAt(page, `/tenants/tenant-receipt-data?from=${day(-30)}&to=${day(-1)}`, 'tenant@demo.mall');
  await expect(page).toHaveURL(/\/tenants\/tenant-receipt-data/);
  await expect(page.getByTestId('nav').getByRole('menuitem', { name: 'Receipt Data', exact: true })).toBeVisible();
  const listed = await firstList;
  expect(listed.status()).toBe(200);

  const receiptData = page.getByTestId('tenant-receipt-data-page');
  await expect(receiptData.getByRole('heading', { level: 1 })).toHaveText('Receipt Data');
  // The one outlet of the tenant is chosen, and the list is of it.
  const outlet = await page.getByTestId('outlet-dropdown').inputValue();
  expect(outlet).toMatch(/^\d+$/);
  expect(new URL(listed.url()).searchParams.get('id')).toBe(outlet);
  await expect(receiptData.getByTestId('trd-table')).toHaveAttribute('aria-busy', 'false');
  const rows = receiptData.getByTestId('trd-row');
  await expect(rows.first()).toBeVisible();
  const { summary } = (await listed.json()) as { summary: { total: number }[] };
  const total = summary[0]?.total ?? 0;
  expect(total).toBeGreaterThan(0);
  await expect(receiptData.getByTestId('trd-total')).toHaveText(`${total.toLocaleString('en-US')} receipts`);

  const sorted = page.waitForResponse((response) => isListCall(response, 'total_amount'));
  await receiptData.getByTestId('trd-sort-total_amount').click();
  expect((await sorted).status()).toBe(200);
  await expect(receiptData.getByTestId('trd-table')).toHaveAttribute('aria-busy', 'false');
  await expect(receiptData.getByRole('columnheader', { name: /Amount/ })).toHaveAttribute('aria-sort', 'descending');
  const shown = await amounts(page);
  expect(shown.length).toBeGreaterThan(0);
  expect(shown).toEqual([...shown].sort((a, b) => b - a));

  const imageCall = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/tenant/receiptImage');
  await rows.first().getByRole('button').click();
  expect((await imageCall).status()).toBe(200);
  const image = page.getByTestId('receipt-image');
  await expect(image).toBeVisible();
  expect(await image.getAttribute('src')).toMatch(/^data:image\/png;base64,/);

  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  expect(results.violations.map((violation) => violation.id)).toEqual([]);

  await page.keyboard.press('Escape');
  await expect(image).toBeHidden();
});

test('the partner domain has no Receipt Data: no sidebar item, the address goes to /404, the call answers 403', async ({
  browser,
}) => {
  const page = await newPage(browser);
  await signInAt(page, '/login', 'analyst@partner.example');
  const nav = page.getByTestId('nav');
  await expect(nav).toBeVisible();
  await expect(nav.getByRole('menuitem', { name: 'Receipt Data', exact: true })).toHaveCount(0);

  const credential = await page.request.get('/api/credential');
  const { user } = (await credential.json()) as { user: { client_id: number | null; clients: number[] } };
  const clientId = user.client_id ?? user.clients[0] ?? 1;
  const outlets = (await (await page.request.get(`/outlets?client_id=${clientId}`)).json()) as { id: number }[];
  const outletId = outlets[0]?.id ?? 1;
  const call = await page.request.get(
    `/api/tenant/receiptData?client_id=${clientId}&id=${outletId}&startTime=${day(-7)}&endTime=${day(-1)}`,
  );
  expect(call.status()).toBe(403);

  await page.goto('/tenants/tenant-receipt-data');
  await expect(page).toHaveURL(/\/404$/);
});
