import { expect, test } from '@playwright/test';
import { openAs } from './session';

/*
 * The tenant's Gross Turnover in Chromium against the real server and its demo data: the year of months up to the
 * current one, each with what the tenant declared beside what its receipts captured.
 */

test('a tenant sees its declared GTO beside the captured sales, month by month', async ({ page }) => {
  const answer = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/gtoReport/outletMonths');
  await openAs(page, 'tenant@demo.mall', '/tenants/gross-turnover');
  expect((await answer).status()).toBe(200);
  const block = page.getByTestId('gross-turnover');
  await expect(page.getByTestId('gross-turnover-page').getByRole('heading', { level: 1 })).toHaveText('Gross Turnover');
  const rows = block.locator('tbody tr');
  await expect(rows).toHaveCount(12);
  // The demo tenant declared most of its past months; the current month is still open.
  const declared = await rows.locator('td:nth-child(2)').allTextContents();
  expect(declared.filter((text) => text !== 'Not submitted').length).toBeGreaterThan(0);
  await expect(rows.last().locator('td:nth-child(2)')).toHaveText('Not submitted');
  await expect(page.getByTestId('gross-turnover-chart')).toBeVisible();
});
