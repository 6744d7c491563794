import { expect, type Locator, type Page, test } from '@playwright/test';
import { seriousFindings } from './axe';

/*
 * The Settings page (§2, §4, §5, §7, §8) in Chromium against the real server and its demo data, as the demo
 * operator: each editor's data is changed and saved (with its toast), the page is reloaded and shows what was
 * saved, and a changed processing fee shows in the Receipts page's payment summary.
 */

function day(offset: number): string {
  const date = new Date(Date.now() + offset * 86_400_000);
  return date.toISOString().slice(0, 10);
}

/** A mark of this run, so that what it writes differs from what an earlier run left. */
const STAMP = String(Date.now() % 100_000);

async function openSettings(page: Page): Promise<void> {
  await page.goto('/settings');
  await expect(page).toHaveURL(/\/login/);
  await page.waitForLoadState('networkidle');
  await page.getByTestId('login-username').fill('operator@demo.mall');
  await page.getByTestId('login-password').fill('demo-password-1');
  await page.getByTestId('login-submit').click();
  await waitForEditors(page);
}

async function waitForEditors(page: Page): Promise<void> {
  await expect(page.getByTestId('settings-page')).toBeVisible();
  await expect(page.getByTestId('fee-row').first()).toBeVisible();
  await expect(page.getByTestId('target-row').first()).toBeVisible();
  await expect(page.getByTestId('categories-row').first()).toBeVisible();
  // The meal timings are loaded when a timing can be added (the outlet may have none).
  await expect(page.getByTestId('meal-add')).toBeEnabled();
}

/** Clicks `button` and waits for the answer of `method path`, then for the toast `message`. */
async function saveAndSee(page: Page, button: Locator, method: string, path: string, message: string) {
  const answer = page.waitForResponse(
    (response) => response.request().method() === method && new URL(response.url()).pathname === path,
  );
  await button.click();
  expect((await answer).status()).toBe(200);
  await expect(page.locator('.bp6-toast').filter({ hasText: message }).first()).toBeVisible();
}

/** The list's row named `name`, paging through the list until it shows. */
async function findRow(page: Page, list: 'categories' | 'subcategories', name: string): Promise<Locator> {
  const container = page.getByTestId(`${list}-list`);
  for (let turn = 0; turn < 50; turn++) {
    const row = container.getByTestId(`${list}-row`).filter({ hasText: name });
    if ((await row.count()) > 0) return row.first();
    const next = container.getByTestId('page-next');
    if (await next.isDisabled()) break;
    await next.click();
    await expect(container.locator('table')).toHaveAttribute('aria-busy', 'false');
  }
  throw new Error(`${name} is not in the ${list} list`);
}

test.describe('settings', () => {
  test.beforeEach(async ({ page }) => {
    page.on('pageerror', (error) => console.log(`page error: ${error.message}`));
    await openSettings(page);
  });

  test('changes every editor, keeps it over a reload, and the fee reaches the payment summary', async ({ page }) => {
    test.setTimeout(120_000);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Settings');

    // E-mail subscriptions: flip the void alerts.
    const voidSwitch = page.getByTestId('email-void');
    const voidBefore = await voidSwitch.isChecked();
    await page.getByText('Void receipt alerts').click();
    await saveAndSee(page, page.getByTestId('email-save'), 'POST', '/outlets/emailSubscribe', 'Save Successfully.');

    // Processing fee of a method the outlet was paid with in the last month (the Receipts page's payment summary),
    // VISA if it was: the demo's receipts follow today's date, so a month may hold no VISA receipt of this outlet.
    await page.goto(`/receipts?from=${day(-29)}&to=${day(0)}`);
    const paidRows = page.locator('[data-testid^="payment-row-"]');
    await expect(paidRows.first()).toBeVisible();
    const paid = (await paidRows.evaluateAll((rows) => rows.map((row) => row.getAttribute('data-testid') ?? ''))).map(
      (testId) => testId.slice('payment-row-'.length),
    );
    await page.goto('/settings');
    await waitForEditors(page);
    const method = paid.includes('VISA') ? 'VISA' : (paid[0] ?? '');
    const feeRow = page.locator(`[data-testid="fee-row"][data-method="${method}"]`);
    const feeBefore = (await feeRow.getByTestId('fee-value').innerText()).trim();
    const fee = feeBefore === '2.35' ? '3.45' : '2.35';
    await feeRow.getByTestId('fee-edit').click();
    const feeInput = feeRow.getByTestId('fee-input');
    await feeInput.fill('101');
    await expect(feeRow.getByText('Enter a fee from 0 to 100 with at most 2 decimals.')).toBeVisible();
    await expect(feeRow.getByTestId('fee-save')).toBeDisabled();
    await feeInput.fill(fee);
    const feeMethod = (await feeRow.getByText('New').count()) > 0 ? 'POST' : 'PUT';
    await saveAndSee(page, feeRow.getByTestId('fee-save'), feeMethod, '/outlets/processingFees', 'Save Successfully.');
    await expect(feeRow.getByTestId('fee-value')).toHaveText(fee);

    // Sales target of the first outlet this month.
    const targetRow = page.getByTestId('target-row').first();
    const outletId = (await targetRow.getAttribute('data-outlet')) ?? '';
    const target = `1${STAMP.padStart(5, '0')}.50`;
    await targetRow.getByTestId('target-input').fill(`$${Number(target).toLocaleString('en-US')}0`);
    await saveAndSee(
      page,
      page.getByTestId('targets-save'),
      'POST',
      '/outlets/salesTargets',
      'Updated Sales Targets successfully.',
    );

    // Meal timings: add one (the server names and times it), then rename it.
    const mealsBefore = await page.getByTestId('meal-row').count();
    const added = page.waitForResponse(
      (response) =>
        response.request().method() === 'POST' && new URL(response.url()).pathname === '/outlets/mealTimings',
    );
    await page.getByTestId('meal-add').click();
    const addedId = String(((await (await added).json()) as { id: number }).id);
    await expect(page.getByTestId('meal-row')).toHaveCount(mealsBefore + 1);
    const mealRow = page.locator(`[data-testid="meal-row"][data-id="${addedId}"]`);
    const mealName = `Meal ${STAMP}`;
    await mealRow.getByTestId('meal-name').fill(mealName);
    await saveAndSee(page, page.getByTestId('meals-save'), 'PUT', '/outlets/mealTimings', 'Save Successfully.');

    // A category: an empty name sends nothing; a named one is added; a subcategory is assigned to it.
    let creates = 0;
    page.on('request', (request) => {
      if (request.method() === 'POST' && new URL(request.url()).pathname === '/outlets/categories') creates += 1;
    });
    await page.getByTestId('categories-add').click();
    await page.getByTestId('create-submit').click();
    await expect(page.getByTestId('create-name')).toBeHidden();
    expect(creates).toBe(0);
    const category = `E2E ${STAMP}`;
    await page.getByTestId('categories-add').click();
    await page.getByTestId('create-name').fill(category);
    await saveAndSee(
      page,
      page.getByTestId('create-submit'),
      'POST',
      '/outlets/categories',
      `${category} has been added successfully.`,
    );
    await (await findRow(page, 'categories', category)).getByTestId('categories-assign').click();
    const dialog = page.getByTestId('assign-dialog');
    await expect(dialog.getByTestId('assign-option').first()).toBeVisible();
    await dialog.getByTestId('assign-submit').click();
    await expect(page.locator('.bp6-toast').filter({ hasText: 'No subcategory selected.' }).first()).toBeVisible();
    const subcategoryName = (await dialog.getByTestId('assign-option').first().innerText()).trim();
    await dialog.getByTestId('assign-option').first().locator('label').click();
    await saveAndSee(
      page,
      dialog.getByTestId('assign-submit'),
      'PUT',
      '/outlets/subcategories',
      'Assign subcategory successfully.',
    );

    // Items of the first subcategory: tick the first one not assigned yet.
    await page.getByTestId('subcategories-row').first().getByTestId('subcategories-assign').click();
    await expect(dialog.getByTestId('assign-option').first()).toBeVisible();
    const unticked = dialog.locator('[data-testid="assign-option"]:has(input:not(:checked))').first();
    const itemLabel = (await unticked.innerText()).trim();
    await unticked.locator('label').click();
    await saveAndSee(
      page,
      dialog.getByTestId('assign-submit'),
      'POST',
      '/outlets/skuCategory',
      'Assign items successfully.',
    );

    // Everything is kept over a reload.
    await page.reload();
    await waitForEditors(page);
    expect(await page.getByTestId('email-void').isChecked()).toBe(!voidBefore);
    await expect(page.locator(`[data-testid="fee-row"][data-method="${method}"]`).getByTestId('fee-value')).toHaveText(
      fee,
    );
    await expect(
      page.locator(`[data-testid="target-row"][data-outlet="${outletId}"]`).getByTestId('target-input'),
    ).toHaveValue(target);
    await expect(page.getByTestId('meal-row')).toHaveCount(mealsBefore + 1);
    await expect(mealRow.getByTestId('meal-name')).toHaveValue(mealName);
    const categoryRow = await findRow(page, 'categories', category);
    await categoryRow.getByTestId('categories-assign').click();
    await expect(
      dialog.getByTestId('assign-option').filter({ hasText: subcategoryName }).first().locator('input'),
    ).toBeChecked();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await page.getByTestId('subcategories-row').first().getByTestId('subcategories-assign').click();
    await dialog.getByTestId('assign-search').fill(itemLabel);
    await dialog.getByTestId('assign-search').press('Enter');
    await expect(
      dialog.getByTestId('assign-option').filter({ hasText: itemLabel }).first().locator('input'),
    ).toBeChecked();
    await expect(dialog.locator('mark').first()).toBeVisible();
    await dialog.getByRole('button', { name: 'Cancel' }).click();

    // Tidy up what only this run needs: the added meal timing and the category.
    await saveAndSee(
      page,
      mealRow.getByTestId('meal-delete'),
      'DELETE',
      '/outlets/mealTimings',
      'Meal timing deleted.',
    );
    await (await findRow(page, 'categories', category)).getByTestId('categories-delete').click();
    await saveAndSee(
      page,
      page.getByRole('button', { name: 'Delete', exact: true }),
      'DELETE',
      '/outlets/categories',
      `${category} has been deleted successfully.`,
    );

    // The changed fee is in the Receipts page's payment summary of the same outlet.
    await page.goto(`/receipts?from=${day(-29)}&to=${day(0)}`);
    await expect(page.getByTestId('receipts-page')).toBeVisible();
    await expect(page.getByTestId(`payment-row-${method}`)).toContainText(`${fee}%`);
  });
});

test.describe('settings dialogs and edit modes', () => {
  test('are axe-clean and keyboard usable', async ({ page }) => {
    // axe reads the whole page (every outlet's target) once per state.
    test.setTimeout(120_000);
    await openSettings(page);
    const feeRow = page.getByTestId('fee-row').first();
    await feeRow.getByTestId('fee-edit').focus();
    await page.keyboard.press('Enter');
    await expect(feeRow.getByTestId('fee-input')).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(feeRow.getByTestId('fee-input')).toHaveCount(0);
    await feeRow.getByTestId('fee-edit').click();
    await feeRow.getByTestId('fee-input').fill('x');
    expect(await seriousFindings(page)).toEqual([]);
    await feeRow.getByRole('button', { name: 'Cancel' }).click();

    await page.getByTestId('categories-add').click();
    await expect(page.getByTestId('create-name')).toBeFocused();
    expect(await seriousFindings(page)).toEqual([]);
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('create-name')).toBeHidden();

    await page.getByTestId('subcategories-row').first().getByTestId('subcategories-assign').click();
    const dialog = page.getByTestId('assign-dialog');
    await expect(dialog.getByTestId('assign-option').first()).toBeVisible();
    expect(await seriousFindings(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
  });
});

test.describe('settings on a phone', () => {
  test.use({
    viewport: { width: 390, height: 844 },
    userAgent:
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1',
  });

  test('every editor fits the width, one under the other', async ({ page }) => {
    await openSettings(page);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    const boxes = await Promise.all(
      ['settings-email', 'settings-fees', 'settings-targets', 'settings-meals', 'settings-categories'].map((id) =>
        page.getByTestId(id).boundingBox(),
      ),
    );
    for (const box of boxes) {
      expect(box?.width ?? 0).toBeGreaterThan(300);
      expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(390);
    }
    await page.screenshot({ path: '.tmp/test-results/settings-phone.png', fullPage: true });
  });
});
