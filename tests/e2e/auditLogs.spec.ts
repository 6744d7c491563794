import { expect, test } from '@playwright/test';
import { openAs } from './session';

/*
 * Tenant Connect's Audit Logs in Chromium against the real server and its demo data (a few hundred changes over
 * the last two months): the super admin (§6: the other accounts' Tenant Connect holds only GTO review,
 * non-trading days and breakeven) reads the last days' changes, narrows them to one kind of row and sorts them.
 */

test('the super admin reads the audit log, filters it by kind of row and sorts it by who made the change', async ({
  page,
}) => {
  await openAs(page, 'admin@demo.mall', '/tenant-connect/audit-logs');
  const logs = page.getByTestId('audit-logs-page');
  await expect(logs.getByRole('heading', { name: 'Audit Logs' })).toBeVisible();
  const rows = logs.getByTestId('audit-row');
  await expect(rows.first()).toBeVisible();
  await expect(logs.getByTestId('audit-total')).toHaveText(/^\d[\d,]* changes?$/);

  const filtered = page.waitForResponse(
    (response) =>
      new URL(response.url()).pathname === '/api/auditLogs' &&
      new URL(response.url()).searchParams.get('entity') === 'sales_target',
  );
  await logs.getByTestId('audit-entity').selectOption('sales_target');
  expect((await filtered).status()).toBe(200);
  await expect(logs.getByTestId('audit-skeleton-row')).toHaveCount(0);
  const whats = await rows.locator('td:nth-child(4)').allTextContents();
  expect(whats.length).toBeGreaterThan(0);
  for (const what of whats) expect(what).toMatch(/^Sales target /);
  // A sales target change reads as its before and after, as a person reads them: the field's name and money.
  await expect(rows.first().locator('td:nth-child(5)')).toHaveText(/→/);
  const changes = await rows.locator('td:nth-child(5)').allTextContents();
  expect(changes.some((change) => /^Target: \$[\d,]+\.\d\d → \$[\d,]+\.\d\d$/.test(change))).toBe(true);
  // When: the spec's date and time (YYYY-MM-DD HH:mm:ss); the action as a word.
  await expect(rows.first().locator('td:nth-child(1)')).toHaveText(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
  await expect(rows.first().locator('td:nth-child(3)')).toHaveText('Updated');

  const sorted = page.waitForResponse(
    (response) =>
      new URL(response.url()).pathname === '/api/auditLogs' &&
      new URL(response.url()).searchParams.get('sortColumn') === 'user_email',
  );
  await logs.getByTestId('audit-sort-user_email').click();
  expect((await sorted).status()).toBe(200);
  await expect(logs.getByRole('columnheader', { name: 'Who' })).toHaveAttribute('aria-sort', 'descending');
});
