import { type Browser, expect, type Page, test } from '@playwright/test';
import { seriousFindings } from './axe';
import { day as mallsDay, openAs } from './session';

/*
 * Non-trading days in Chromium against the real server and its demo data. The tenant-only account lands on its
 * sales review, goes to its non-trading days, declares today as a day its outlet does not trade, and finds the day
 * marked in its sales review. The demo operator finds the day in the mall's list of non-trading days, declared by the
 * tenant; and the audit log (Tenant Connect's Audit Logs: §6 gives that page to the super admin) has the declaration.
 * The demo data declares no day on today, so the declaration is a first one.
 */

const REASON = 'Browser test closure';

async function newPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext();
  const page = await context.newPage();
  page.on('pageerror', (error) => console.log(`page error: ${error.message}`));
  return page;
}

test('the tenant declares a non-trading day, sees it in its sales review, and the mall sees it and its audit entry', async ({
  browser,
}) => {
  /* ---- the tenant */
  const tenant = await newPage(browser);
  await openAs(tenant, 'tenant-only@demo.mall');
  await expect(tenant).toHaveURL(/\/tenant-connect\/sales-review(\?|$)/);
  const review = tenant.getByTestId('sales-review-page');
  await expect(review.getByRole('heading', { level: 1 })).toHaveText('Sales Review');
  await expect(review.getByTestId('sales-review-table').locator('tbody tr')).not.toHaveCount(0);
  await expect(review.getByTestId('panel-loading')).toHaveCount(0);
  const today = mallsDay(0);

  await review.getByTestId('sales-review-non-trading-link').click();
  await expect(tenant).toHaveURL(/\/tenant-connect\/sales-review\/non-trading-day/);
  const view = tenant.getByTestId('non-trading-day-page');
  await expect(view.getByRole('heading', { level: 1 })).toHaveText('Non-trading Day');
  await expect(view.getByTestId('ntd-skeleton-row')).toHaveCount(0);
  expect(await seriousFindings(tenant)).toEqual([]);

  const declare = view.getByTestId('ntd-declare');
  await expect(declare).toBeDisabled();
  await view.getByLabel('Day', { exact: true }).fill(today);
  await expect(view.getByTestId('ntd-problem')).toHaveText('Give a reason.');
  await view.getByLabel('Reason', { exact: true }).fill(REASON);
  await expect(declare).toBeEnabled();
  const declared = tenant.waitForResponse(
    (response) =>
      new URL(response.url()).pathname === '/api/salesReview/nonTradingDays' && response.request().method() === 'POST',
  );
  await declare.click();
  expect((await declared).status()).toBe(200);
  await expect(tenant.locator('.bp6-toast').filter({ hasText: /^Non-trading day .+ declared\.$/ })).toBeVisible();
  const row = view.getByTestId('ntd-row').filter({ hasText: REASON });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('Tenant');
  await expect(row).toContainText('tenant-only@demo.mall');
  await expect(row.getByRole('button', { name: /^Withdraw / })).toBeEnabled();

  // Back to the sales review: the day is marked, with its reason.
  await view.getByTestId('ntd-sales-review-link').click();
  await expect(tenant).toHaveURL(/\/tenant-connect\/sales-review(\?|$)/);
  const day = tenant.getByTestId('sales-review-table').locator('tbody tr').filter({ hasText: today });
  await expect(day).toHaveCount(1);
  await expect(day.getByTestId('sales-review-non-trading')).toHaveText(`Not trading${REASON} (Tenant)`);
  expect(await seriousFindings(tenant)).toEqual([]);
  await tenant.context().close();

  /* ---- the operator */
  const operator = await newPage(browser);
  await openAs(operator, 'operator@demo.mall', '/tenant-connect/non-trading-days');
  const list = operator.getByTestId('non-trading-days-page');
  await expect(list.getByRole('heading', { level: 1 })).toHaveText('Non-trading Days');
  const mallRow = list.getByTestId('ntd-row').filter({ hasText: REASON });
  await expect(mallRow).toHaveCount(1);
  await expect(mallRow.locator('td').nth(3)).toHaveText('Tenant');
  await expect(mallRow.locator('td').nth(4)).toHaveText('tenant-only@demo.mall');
  // The mall may remove the tenant's day.
  await expect(mallRow.getByRole('button', { name: /^Remove / })).toBeEnabled();
  expect(await seriousFindings(operator)).toEqual([]);
  await operator.context().close();

  /* ---- the audit log */
  const admin = await newPage(browser);
  await openAs(admin, 'admin@demo.mall', '/tenant-connect/audit-logs');
  const logs = admin.getByTestId('audit-logs-page');
  const filtered = admin.waitForResponse(
    (response) =>
      new URL(response.url()).pathname === '/api/auditLogs' &&
      new URL(response.url()).searchParams.get('entity') === 'non_trading_day',
  );
  await logs.getByTestId('audit-entity').selectOption('non_trading_day');
  expect((await filtered).status()).toBe(200);
  await expect(logs.getByTestId('audit-skeleton-row')).toHaveCount(0);
  const entry = logs.getByTestId('audit-row').first();
  await expect(entry.locator('td').nth(1)).toHaveText('tenant-only@demo.mall');
  await expect(entry.locator('td').nth(2)).toHaveText('Created');
  await expect(entry.locator('td').nth(3)).toHaveText(new RegExp(`^Non-trading day \\d+:${today}$`));
  await expect(entry.locator('td').nth(4)).toContainText(REASON);
  await admin.context().close();
});
