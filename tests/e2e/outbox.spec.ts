import { expect, test } from '@playwright/test';
import { openAs, openPage, signIn } from './session';

/*
 * The super admin's Outbox page (/admin/outbox) in Chromium against the real server. The e2e server sends its
 * mail through SMTP_URL (a sink, tests/e2e/globalSetup.ts), so nothing is kept in the outbox table: the page
 * shows its empty state. Only the super admin reaches it; anyone else is sent to /404 by the navigation guard
 * (and refused by the server).
 */

test('the super admin opens the Outbox from the sidebar and sees the outbox (empty: mail goes out by SMTP)', async ({
  page,
}) => {
  await openAs(page, 'admin@demo.mall');
  const nav = page.getByTestId('nav');
  await expect(nav.getByTestId('nav-link-/admin/outbox')).toHaveText('Outbox');

  const answer = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/admin/outbox');
  await openPage(page, 'Outbox');
  // The sidebar link carries the current filters.
  await expect(page).toHaveURL(/\/admin\/outbox(\?.*)?$/);
  const response = await answer;
  expect(response.status()).toBe(200);
  expect(await response.json()).toEqual({ data: [], total: 0 });

  const outbox = page.getByTestId('outbox-page');
  await expect(outbox.getByRole('heading', { name: 'Outbox' })).toBeVisible();
  await expect(outbox.getByText('No mail yet')).toBeVisible();
  await expect(outbox.getByTestId('outbox-row')).toHaveCount(0);

  // Opened directly (a reload), the page is there too.
  await page.reload();
  await expect(page.getByTestId('outbox-page').getByText('No mail yet')).toBeVisible();
  // The sidebar link carries the current filters.
  await expect(page).toHaveURL(/\/admin\/outbox(\?.*)?$/);
});

test('an operator is refused the Outbox: /404, no sidebar item, and the server answers 403', async ({ page }) => {
  await page.goto('/admin/outbox');
  await expect(page).toHaveURL(/\/login\?redirect=%2Fadmin%2Foutbox$/);
  await signIn(page, 'operator@demo.mall');
  await expect(page).toHaveURL(/\/404$/);
  await expect(page.getByTestId('not-found')).toBeVisible();
  await expect(page.getByTestId('outbox-page')).toHaveCount(0);

  await page.goto('/receipts');
  await expect(page.getByTestId('nav-link-/receipts')).toBeVisible();
  await expect(page.getByTestId('nav-link-/admin/outbox')).toHaveCount(0);
  await expect(page.getByTestId('nav').getByRole('menuitem', { name: 'Outbox' })).toHaveCount(0);

  const forbidden = await page.request.get('/api/admin/outbox');
  expect(forbidden.status()).toBe(403);
});
