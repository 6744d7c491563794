import { expect, type Locator, type Page, test } from '@playwright/test';
import { seriousFindings } from './axe';
import { openAs, openPage } from './session';

/*
 * The Outlet Code page against the real server and its demo data (every demo outlet has a code, unique in its mall),
 * as the demo operator: opened from the sidebar, an outlet searched, its code edited in place and saved, the code
 * still there after a reload; a code another outlet of the mall has is refused with the server's reason at the field.
 */

/** Waits until the list has answered and its rows can be edited. */
async function loaded(page: Page): Promise<void> {
  await expect(page.getByTestId('outlet-code-skeleton-row')).toHaveCount(0);
  await expect(page.getByTestId('outlet-code-input').first()).toBeEnabled();
}

const rowOf = (page: Page, index: number): Locator => page.getByTestId('outlet-code-row').nth(index);
const cell = (row: Locator, column: number) => row.locator('td').nth(column);

/** Saves (`submit`), waits for the PUT's answer, which must have `status`, then for the toast `message`. */
async function save(page: Page, submit: () => Promise<void>, status: number, message: string): Promise<void> {
  const answer = page.waitForResponse(
    (response) =>
      response.request().method() === 'PUT' && new URL(response.url()).pathname === '/api/mall_report/outletCode',
  );
  await submit();
  expect((await answer).status()).toBe(status);
  await expect(page.locator('.bp6-toast').filter({ hasText: message }).first()).toBeVisible();
}

async function search(page: Page, text: string): Promise<void> {
  await page.getByTestId('outlet-code-search').fill(text);
  await page.getByTestId('outlet-code-search-button').click();
  await loaded(page);
}

test('the operator searches an outlet, sets its code, sees it after a reload, and a duplicate is refused', async ({
  page,
}) => {
  await openAs(page, 'operator@demo.mall');
  await openPage(page, 'Outlet Code', 'Shopper Connect');
  await expect(page).toHaveURL(/\/shopper-connect\/outlet-code/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Outlet Code');
  await loaded(page);
  // §2: no mall header here; the page has its own Malls select.
  await expect(page.getByTestId('mall-header')).toHaveCount(0);
  await expect(page.getByTestId('outlet-code-header').getByTestId('malls-select')).toBeVisible();
  await expect(page.locator('table[aria-label="Outlet codes"] thead th')).toHaveText(['Mall', 'Outlet', 'Code']);

  // Two outlets of the first mall (sorted by mall): the first to edit, the second's code to try as a duplicate.
  const first = rowOf(page, 0);
  const second = rowOf(page, 1);
  await expect(cell(second, 0)).toHaveText((await cell(first, 0).textContent()) ?? '');
  const mall = (await cell(first, 0).textContent()) ?? '';
  const outlet = (await cell(first, 1).textContent()) ?? '';
  const otherOutlet = (await cell(second, 1).textContent()) ?? '';
  const otherCode = await second.getByTestId('outlet-code-input').inputValue();
  expect(otherCode).not.toBe('');

  // Search the outlet by its name.
  await search(page, outlet);
  const found = page.getByTestId('outlet-code-row');
  for (const name of await found.locator('td:nth-child(2)').allTextContents()) {
    expect(name.toLowerCase()).toContain(outlet.toLowerCase());
  }
  const row = found.filter({ has: page.getByRole('cell', { name: outlet, exact: true }) }).first();
  const input = row.getByRole('textbox', { name: `Code of ${outlet}` });

  // Edit it in place and save from the keyboard (Enter in the field).
  const code = `E2E-${Date.now().toString(36).toUpperCase()}`;
  await input.fill(code);
  await expect(page.getByTestId('outlet-code-held')).toBeVisible();
  await expect(page.getByTestId('outlet-code-search')).toBeDisabled();
  await expect(page.getByTestId('outlet-code-save')).toBeEnabled();
  await save(page, () => input.press('Enter'), 200, 'Save Successfully.');
  await expect(input).toHaveValue(code);
  await expect(page.getByTestId('outlet-code-held')).toHaveCount(0);

  // Persisted: after a reload the search by the new code finds the outlet with it.
  await page.reload();
  await loaded(page);
  await search(page, code);
  await expect(page.getByTestId('outlet-code-row')).toHaveCount(1);
  await expect(cell(rowOf(page, 0), 1)).toHaveText(outlet);
  await expect(page.getByRole('textbox', { name: `Code of ${outlet}` })).toHaveValue(code);

  // The code of another outlet of the same mall, in another case: refused at the field, the draft kept.
  const refused = page.getByRole('textbox', { name: `Code of ${outlet}` });
  await refused.fill(otherCode.toLowerCase());
  await save(page, () => page.getByTestId('outlet-code-save').click(), 400, 'Save Failed.');
  const error = page.getByTestId('outlet-code-error');
  await expect(error).toHaveText(
    `"${otherCode.toLowerCase()}" is already the code of ${otherOutlet} in ${mall}; a code is unique within its mall.`,
  );
  await expect(refused).toHaveAttribute('aria-invalid', 'true');
  await expect(refused).toHaveValue(otherCode.toLowerCase());
  expect(await seriousFindings(page)).toEqual([]);

  // Cancel puts the saved code back, and the page lets go.
  await page.getByTestId('outlet-code-cancel').click();
  await expect(refused).toHaveValue(code);
  await expect(error).toHaveCount(0);
  await expect(page.getByTestId('outlet-code-search')).toBeEnabled();
});
