import { expect, type Page, test } from '@playwright/test';
import { readabilityProblems } from './readable';
import { DEVICES, day, openAs } from './session';

/*
 * The shared DataTable in Chromium, on the Receipts page of an outlet of type 1 (every extra column): at a laptop
 * and a phone width no header overlaps another, no id, date, time or amount is cut, and the page never scrolls
 * sideways (a wide table scrolls inside its own region; on a phone each row is a card).
 */

/** Through /login to the receipts of the malls' last 30 days, as the demo operator. */
async function signIn(page: Page) {
  await openAs(page, 'operator@demo.mall', `/receipts?from=${day(-29)}&to=${day(-1)}`);
  await expect(page.getByTestId('receipts-page')).toBeVisible();
}

/** The receipts of the last 30 days of the demo's first outlet of type 1 (the extra columns shown). */
async function openTypeOneReceipts(page: Page) {
  await signIn(page);
  await expect.poll(() => new URL(page.url()).searchParams.get('client')).not.toBeNull();
  const client = new URL(page.url()).searchParams.get('client');
  const outlets = (await (await page.request.get(`/outlets?client_id=${client}`)).json()) as {
    id: number;
    type: number;
  }[];
  const typeOne = outlets.find((outlet) => outlet.type === 1);
  if (!typeOne) throw new Error('the demo data has no outlet of type 1');
  await page.goto(`/receipts?client=${client}&outlet=${typeOne.id}&from=${day(-29)}&to=${day(-1)}`);
  const table = page.getByTestId('receipts-table');
  await expect(table).toHaveAttribute('aria-busy', 'false');
  await expect(table.locator('tbody [data-col="delivery_info"]').first()).toBeAttached();
}

/** The id, date, time and amount cells of the table shown (never to be cut), and those that are. */
async function wholeCells(page: Page): Promise<{ readonly cells: number; readonly cut: readonly string[] }> {
  return page.getByTestId('receipts-table').evaluate((root) => {
    const cells = [
      ...root.querySelectorAll('td.data-table-id, td.data-table-date, td.data-table-datetime, td.data-table-num'),
    ].filter((cell) => cell.getBoundingClientRect().width > 0);
    const cut = cells
      .filter((cell) => cell instanceof HTMLElement && cell.scrollWidth > cell.clientWidth + 1)
      .map(
        (cell) => `${cell.getAttribute('data-col')}: ${cell.textContent} (${cell.scrollWidth} > ${cell.clientWidth})`,
      );
    return { cells: cells.length, cut };
  });
}

// A laptop (1440x900) and a phone (390x844, a mobile user agent: the sidebar is a drawer).
for (const device of DEVICES) {
  test.describe(`the receipts table on a ${device.name}`, () => {
    test.use(device.use);

    test('has headers that never overlap, ids, dates and amounts whole, and no sideways page', async ({ page }) => {
      page.on('pageerror', (error) => console.log(`page error: ${error.message}`));
      await openTypeOneReceipts(page);
      await expect(page.getByTestId('receipts-table').locator('thead th').first()).toBeAttached();
      // Overlapping or cut headers, cut text without its whole text, a sideways page: the readability check's.
      const problems = await readabilityProblems(page);
      expect(problems, problems.join('\n')).toEqual([]);
      const cells = await wholeCells(page);
      expect(cells.cells).toBeGreaterThan(0);
      expect(cells.cut, 'cut ids, dates or amounts').toEqual([]);
      // One column per name: the list's status and §4's status tags are told apart.
      const names = await page.getByTestId('receipts-table').locator('thead th').allTextContents();
      expect(names.filter((name) => /^Status\b/.test(name.trim()))).toEqual(['Status Tags']);
    });
  });
}

test.describe('a wide table on a laptop', () => {
  test.use({ viewport: { width: 1024, height: 768 } });

  test('scrolls inside its region, keeping its first column in view', async ({ page }) => {
    await openTypeOneReceipts(page);
    const region = page.getByRole('region', { name: 'Receipts' });
    const wide = await region.evaluate((element) => element.scrollWidth > element.clientWidth);
    test.skip(!wide, 'the table fits at this width');
    const firstCell = page.getByTestId('receipts-table').locator('tbody tr').first().locator('td').first();
    const before = await firstCell.boundingBox();
    await region.evaluate((element) => element.scrollBy({ left: 400 }));
    await expect.poll(() => region.evaluate((element) => element.scrollLeft)).toBeGreaterThan(0);
    const after = await firstCell.boundingBox();
    expect(after?.x).toBeCloseTo(before?.x ?? -1, 0);
    const scrolling = await page.evaluate(() => (document.scrollingElement ?? document.documentElement).scrollWidth);
    expect(scrolling).toBeLessThanOrEqual(1024);
  });
});
