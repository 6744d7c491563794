import { expect, type Page, test } from '@playwright/test';
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

interface Measures {
  readonly overlaps: readonly string[];
  readonly clipped: readonly string[];
  readonly headers: number;
  readonly cells: number;
  readonly page: { readonly scrollWidth: number; readonly innerWidth: number };
  /** The innermost elements past the window's right edge (what makes the page scroll sideways). */
  readonly outside: readonly string[];
}

async function measure(page: Page): Promise<Measures> {
  return page.getByTestId('receipts-table').evaluate((root) => {
    const shown = (element: Element) => {
      const box = element.getBoundingClientRect();
      return box.width > 0 && box.height > 0;
    };
    const headers = [...root.querySelectorAll('thead th')].filter(shown);
    const overlaps: string[] = [];
    headers.forEach((one, index) => {
      const a = one.getBoundingClientRect();
      for (const other of headers.slice(index + 1)) {
        const b = other.getBoundingClientRect();
        const width = Math.min(a.right, b.right) - Math.max(a.left, b.left);
        const height = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
        if (width > 0.5 && height > 0.5) overlaps.push(`${one.textContent} / ${other.textContent}`);
      }
      // A header's own text is never cut either.
      if (one.scrollWidth > one.clientWidth + 1) overlaps.push(`${one.textContent} is cut`);
    });
    const cells = [
      ...root.querySelectorAll('td.data-table-id, td.data-table-date, td.data-table-datetime, td.data-table-num'),
    ].filter(shown);
    const clipped = cells
      .filter((cell) => cell instanceof HTMLElement && cell.scrollWidth > cell.clientWidth + 1)
      .map(
        (cell) => `${cell.getAttribute('data-col')}: ${cell.textContent} (${cell.scrollWidth} > ${cell.clientWidth})`,
      );
    const scrolling = document.scrollingElement ?? document.documentElement;
    const past = (element: Element) => element.getBoundingClientRect().right > window.innerWidth + 1;
    const outside = [...document.querySelectorAll('body *')]
      .filter((element) => past(element) && ![...element.children].some(past))
      .slice(0, 5)
      .map(
        (element) =>
          `${element.tagName.toLowerCase()}.${[...element.classList].join('.')} ${element.getAttribute('data-testid') ?? ''}`,
      );
    return {
      outside,
      overlaps,
      clipped,
      headers: headers.length,
      cells: cells.length,
      page: { scrollWidth: scrolling.scrollWidth, innerWidth: window.innerWidth },
    };
  });
}

// A laptop (1440x900) and a phone (390x844, a mobile user agent: the sidebar is a drawer).
for (const device of DEVICES) {
  test.describe(`the receipts table on a ${device.name}`, () => {
    test.use(device.use);

    test('has headers that never overlap, ids, dates and amounts whole, and no sideways page', async ({ page }) => {
      page.on('pageerror', (error) => console.log(`page error: ${error.message}`));
      await openTypeOneReceipts(page);
      const measures = await measure(page);
      expect(measures.headers).toBeGreaterThan(0);
      expect(measures.cells).toBeGreaterThan(0);
      expect(measures.overlaps, 'overlapping or cut headers').toEqual([]);
      expect(measures.clipped, 'cut ids, dates or amounts').toEqual([]);
      expect(
        measures.page.scrollWidth,
        `the page scrolls sideways: ${measures.outside.join('; ')}`,
      ).toBeLessThanOrEqual(measures.page.innerWidth);
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
