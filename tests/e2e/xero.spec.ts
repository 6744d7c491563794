import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, test } from '@playwright/test';
import { day, openAs } from './session';

/*
 * The Xero integration in Chromium against the server of `npm start`, which runs its stand-in for Xero on loopback
 * (an authorization server with its own sign-in page, and the accounting API): a staff user opens Apps, goes to
 * Xero, connects the client's organisation at the (demo) Xero page, chooses the journal accounts, posts a past day
 * and sees each outlet's day in the log once, also after posting the same day again.
 */

const ORGANISATION = 'Harbourfront Malls Pte Ltd (demo)';

/** The rows of one page of the posting log that are of `posted`: [outlet, status, journal id]. */
async function pageRowsOf(page: Page, posted: string): Promise<string[][]> {
  const rows = page.getByTestId('xero-log-row').filter({ has: page.locator('td:first-child', { hasText: posted }) });
  const count = await rows.count();
  const found: string[][] = [];
  for (let index = 0; index < count; index += 1) {
    const cells = rows.nth(index).locator('td');
    found.push([
      (await cells.nth(1).innerText()).trim(),
      (await cells.nth(3).locator('.bp6-tag').innerText()).trim(),
      (await cells.nth(4).innerText()).trim(),
    ]);
  }
  return found;
}

/**
 * The day's rows of the posting log, over every page (a day of the demo's outlets, posted and skipped, can hold
 * more rows than a page), read from the first page on; the log is left on its first page.
 */
async function logRowsOf(page: Page, posted: string): Promise<string[][]> {
  const log = page.getByTestId('xero-log');
  const indicator = log.getByTestId('page-indicator');
  while (await log.getByTestId('page-prev').isEnabled()) {
    const before = await indicator.innerText();
    await log.getByTestId('page-prev').click();
    await expect(indicator).not.toHaveText(before);
  }
  await expect(page.getByTestId('xero-log-skeleton-row')).toHaveCount(0);
  const found = await pageRowsOf(page, posted);
  let pages = 0;
  while (await log.getByTestId('page-next').isEnabled()) {
    const before = await indicator.innerText();
    await log.getByTestId('page-next').click();
    await expect(indicator).not.toHaveText(before);
    await expect(page.getByTestId('xero-log-skeleton-row')).toHaveCount(0);
    await expect(page.getByTestId('xero-log-row').first()).toBeVisible();
    found.push(...(await pageRowsOf(page, posted)));
    pages += 1;
  }
  for (let back = 0; back < pages; back += 1) {
    const before = await indicator.innerText();
    await log.getByTestId('page-prev').click();
    await expect(indicator).not.toHaveText(before);
  }
  await expect(page.getByTestId('xero-log-skeleton-row')).toHaveCount(0);
  return found;
}

async function expectNoSeriousAxeFinding(page: Page) {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  const serious = results.violations.filter(
    (violation) => violation.impact === 'serious' || violation.impact === 'critical',
  );
  expect(
    serious.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target).join(' ')}`),
  ).toEqual([]);
}

test('a staff user connects Xero, chooses the accounts and posts a day once', async ({ page }) => {
  test.setTimeout(90_000);
  await openAs(page, 'admin@demo.mall', '/apps');
  await expect(page).toHaveURL(/\/apps(\?.*)?$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Apps' })).toBeVisible();
  const card = page.getByTestId('apps-xero');
  await expect(card.getByTestId('apps-xero-status')).toHaveText('Not connected');

  await card.getByTestId('apps-xero-open').click();
  await expect(page).toHaveURL(/\/apps\/xero(\?.*)?$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Xero' })).toBeVisible();
  await expect(page.getByTestId('xero-status')).toHaveText('Not connected');

  // To the authorization server (another origin), with PKCE and a state, and back.
  await page.getByTestId('xero-connect').click();
  await expect(page.getByRole('heading', { name: 'Xero (demo): connect an organisation' })).toBeVisible();
  expect(new URL(page.url()).port).not.toBe(new URL(test.info().project.use.baseURL ?? page.url()).port);
  await page.getByLabel(ORGANISATION).check();
  await page.getByRole('button', { name: 'Allow access' }).click();

  await expect(page).toHaveURL(/\/apps\/xero\?xero=connected/);
  await expect(page.getByTestId('xero-outcome')).toContainText('Connected to Xero.');
  await expect(page.getByTestId('xero-status')).toHaveText('Connected');
  await expect(page.getByTestId('xero-organisation')).toHaveText(ORGANISATION);
  await expect(page.getByTestId('xero-connected')).toContainText('by admin@demo.mall');

  // The journal accounts, chosen with the keyboard-usable selects and saved.
  const save = page.getByTestId('xero-accounts-save');
  await expect(save).toBeDisabled();
  await page.getByLabel('Sales account').selectOption('200');
  await page.getByLabel('Tax rate').selectOption('OUTPUT');
  await page.getByLabel('Clearing account').selectOption('615');
  await save.click();
  await expect(page.getByText('Save Successfully.')).toBeVisible();

  // A past day, posted now.
  const posted = day(-2);
  await page.getByTestId('xero-day').fill(posted);
  await page.getByTestId('xero-post-now').click();
  const toast = page.getByText(new RegExp(`^Posted (\\d+) journals? for ${posted} to Xero\\.$`));
  await expect(toast).toBeVisible();
  const postedNow = Number(/Posted (\d+)/.exec(await toast.innerText())?.[1]);
  expect(postedNow).toBeGreaterThan(0);

  await page.getByTestId('xero-log').getByLabel('Rows per page').selectOption('50');
  await expect(page.getByTestId('xero-log-row').first()).toBeVisible();
  const first = await logRowsOf(page, posted);
  const postedRows = first.filter(([, status]) => status === 'Posted');
  expect(postedRows).toHaveLength(postedNow);
  expect(new Set(postedRows.map(([, , journal]) => journal)).size).toBe(postedNow);
  // Outlets in another currency than the organisation's are skipped, never added together.
  for (const [, status] of first) expect(['Posted', 'Skipped']).toContain(status);

  // The same day again: nothing new is posted; the log still holds each outlet's day once.
  await page.getByTestId('xero-post-now').click();
  await expect(
    page.getByText(`Nothing new to post for ${posted}: every outlet's sales of that day are in the log.`),
  ).toBeVisible();
  await expect(page.getByTestId('xero-post-result')).toContainText(`${posted}: 0 posted now`);
  await expect.poll(() => logRowsOf(page, posted)).toEqual(first);

  await expect(page.getByRole('main')).toHaveCount(1);
  await expect(page.locator('h1')).toHaveCount(1);
  await expectNoSeriousAxeFinding(page);

  // The Apps list tells the connection.
  await page.goto('/apps');
  await expect(page.getByTestId('apps-xero-status')).toHaveText('Connected');
  await expect(page.getByTestId('apps-xero-organisation')).toHaveText(`Organisation: ${ORGANISATION}`);
});

test('with Xero connected, the month’s turnover-rent invoices are posted once and the statements show them', async ({
  page,
}) => {
  test.setTimeout(90_000);
  // The month before the malls' current one has ended everywhere: its invoices may be posted.
  const today = day(0);
  const previous = new Date(Date.UTC(Number(today.slice(0, 4)), Number(today.slice(5, 7)) - 2, 1))
    .toISOString()
    .slice(0, 7);
  await openAs(page, 'admin@demo.mall', `/tenant-connect/rent-statements?month=${previous}`);
  const table = page.getByTestId('rent-statements-table');
  await expect(table.locator('tbody tr').first()).toBeVisible();
  await expect(table).not.toContainText(/INV-\d{4}/);
  await page.getByTestId('rent-invoices-post').click();
  await expect(
    page.locator('.bp6-toast').filter({ hasText: /\d+ turnover-rent invoices? for .+ posted to Xero\./ }),
  ).toBeVisible();
  // The statements read again show each invoice's number.
  await expect(table).toContainText(/INV-\d{4}/);
  const numbers = await table.getByText(/^INV-\d{4}$/).allInnerTexts();
  expect(new Set(numbers).size).toBe(numbers.length);
  // Posting the month again makes no second invoice.
  await page.getByTestId('rent-invoices-post').click();
  await expect(page.locator('.bp6-toast').filter({ hasText: /^No new invoice for / })).toBeVisible();
  await expect.poll(() => table.getByText(/^INV-\d{4}$/).allInnerTexts()).toEqual(numbers);
});
