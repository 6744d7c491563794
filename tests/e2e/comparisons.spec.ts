import { expect, type Page, test } from '@playwright/test';
import { expectMalls, hrefOf, openAs, queryOf, toggleMall, waitForFilters } from './session';

/*
 * Growth against last year, Chinese New Year met: the demo operator opens Mall Home for February 2026, chooses
 * festival-aligned last year, and reads Chinese New Year's days (17–18 Feb 2026) against last year's (29–30 Jan
 * 2025), on the real server and the demo's 26 months of data. The choice is kept in the address: a reload shows the
 * same comparison, and back and forward show the choice of each entry.
 */

/** Waits until the page's report has loaded (no spinner, the header enabled again). */
async function loaded(page: Page): Promise<void> {
  await expect(page.getByTestId('report-loading')).toHaveCount(0);
  await expect(page.getByTestId('mall-header')).toHaveAttribute('aria-busy', 'false');
}

test('an operator compares Chinese New Year 2026 with 2025, festival-aligned, and like-for-like', async ({ page }) => {
  await openAs(page, 'operator@demo.mall', '/shopper-connect/mall-home?from=2026-02-01&to=2026-02-28');
  await waitForFilters(page);
  await loaded(page);
  const growth = page.getByTestId('kpi-gmv-growth');
  const compared = page.getByTestId('kpi-gmv-compared');
  // The previous period: the 28 days before.
  await expect(growth).toContainText('vs 4–31 Jan');
  await page.getByTestId('comparison-rule').selectOption('festival_aligned');
  await loaded(page);
  await expect(growth).toContainText('Chinese New Year 17–18 Feb met with 29–30 Jan 2025');
  await expect(compared).toContainText('1–28 Feb vs $');
  await expect(compared).toContainText('2025');

  // The choice is in the address beside the filters; a reload shows the same comparison of the same days.
  await expect.poll(() => queryOf(page)).toMatchObject({ compare: 'festival_aligned', from: '2026-02-01' });
  const growthText = await growth.textContent();
  const comparedText = await compared.textContent();
  await page.reload();
  await waitForFilters(page);
  await loaded(page);
  await expect(page.getByTestId('comparison-rule')).toHaveValue('festival_aligned');
  await expect(page.getByTestId('comparison-rule').locator('option:checked')).toHaveText('Festival-aligned last year');
  await expect(growth).toHaveText(growthText ?? '');
  await expect(compared).toHaveText(comparedText ?? '');
  expect(queryOf(page)).toMatchObject({ compare: 'festival_aligned', from: '2026-02-01', to: '2026-02-28' });

  // Chinese New Year's own days against last year's.
  await page.goto('/shopper-connect/mall-home?from=2026-02-17&to=2026-02-18');
  await waitForFilters(page);
  await loaded(page);
  await page.getByTestId('comparison-rule').selectOption('festival_aligned');
  await loaded(page);
  await expect(growth).toContainText('vs 29–30 Jan 2025');
  await expect(compared).toContainText('17–18 Feb vs $');
  await expect(compared).not.toContainText('no data');

  // Same weekdays last year, like-for-like: says how many outlets it left out.
  await page.getByTestId('comparison-rule').selectOption('same_weekday_last_year');
  await loaded(page);
  await expect(growth).toContainText('vs 18–19 Feb 2025, same weekdays last year');
  await page.getByTestId('comparison-like-for-like').check({ force: true });
  await loaded(page);
  await expect(growth).toContainText(/like-for-like: \d+ outlets? left out/);
  // Back and forward: the previous period on both malls; Harbourfront Centre alone (a new entry), compared
  // festival-aligned (in place of that entry); back shows the previous period on both malls again.
  await page.getByTestId('comparison-like-for-like').uncheck({ force: true });
  await loaded(page);
  await page.getByTestId('comparison-rule').selectOption('previous');
  await loaded(page);
  await expect(growth).toContainText('vs 15–16 Feb');
  const bothMalls = hrefOf(page);
  const previousText = await growth.textContent();
  await page.getByTestId('malls-select').click();
  await toggleMall(page, 'Bukit Bintang Plaza', false);
  await page.getByTestId('malls-apply').click();
  await loaded(page);
  await expectMalls(page, ['Harbourfront Centre']);
  await page.getByTestId('comparison-rule').selectOption('festival_aligned');
  await loaded(page);
  await expect(growth).toContainText('vs 29–30 Jan 2025');
  await expect.poll(() => queryOf(page)).toMatchObject({ compare: 'festival_aligned' });
  const festivalAlone = hrefOf(page);
  const festivalText = await growth.textContent();

  await page.goBack();
  await expect(page.getByTestId('comparison-rule')).toHaveValue('previous');
  await expectMalls(page, ['Bukit Bintang Plaza', 'Harbourfront Centre']);
  await loaded(page);
  await expect(growth).toHaveText(previousText ?? '');
  expect(hrefOf(page)).toBe(bothMalls);

  await page.goForward();
  await expect(page.getByTestId('comparison-rule')).toHaveValue('festival_aligned');
  await expectMalls(page, ['Harbourfront Centre']);
  await loaded(page);
  await expect(growth).toHaveText(festivalText ?? '');
  expect(hrefOf(page)).toBe(festivalAlone);
});
