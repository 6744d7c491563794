import { type Browser, expect, type Page, test } from '@playwright/test';
import { seriousFindings } from './axe';
import { day } from './session';

/*
 * Leases and turnover rent (issue 33) in Chromium against the real server and its demo data (every demo outlet has a
 * lease; a few tenants declare less than their tills took). The demo leasing user ends an outlet's lease at the end
 * of the month and gives it a new tiered lease from the next; reads the previous month's rent statements, where the
 * outlet that under-declared most leads with its rent at stake, and follows it to the GTO review and its receipts.
 * The demo tenant reads its own statement, line by line.
 */

const PASSWORD = 'demo-password-1';
/** An outlet of Harbourfront Centre no other browser test changes. */
const OUTLET = 'PixelPoint Cameras';

async function newPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  return context.newPage();
}

async function signInAt(page: Page, path: string, username: string): Promise<void> {
  await page.goto(path);
  await expect(page).toHaveURL(/\/login/);
  await page.getByTestId('login-username').fill(username);
  await page.getByTestId('login-password').fill(PASSWORD);
  await page.getByTestId('login-submit').click();
  await expect(page.getByTestId('app-layout')).toBeVisible();
}

/** The malls' month of `today` and the days around it: its last day, the next month's first, the month before. */
function months() {
  const today = day(0);
  const [year, month] = [Number(today.slice(0, 4)), Number(today.slice(5, 7))];
  const iso = (date: Date) => date.toISOString().slice(0, 10);
  return {
    lastDay: iso(new Date(Date.UTC(year, month, 0))),
    nextFirst: iso(new Date(Date.UTC(year, month, 1))),
    nextEnd: iso(new Date(Date.UTC(year + 3, month, 0))),
    previous: iso(new Date(Date.UTC(year, month - 2, 1))).slice(0, 7),
  };
}

test('a leasing user ends a lease, adds a tiered one, and follows the rent at stake to the GTO review and receipts', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const { lastDay, nextFirst, nextEnd, previous } = months();
  const page = await newPage(browser);
  await signInAt(page, '/tenant-connect/leases', 'leasing@demo.mall');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Leases');
  await page.getByTestId('leases-search').fill(OUTLET);
  await page.getByTestId('leases-search-button').click();
  const endButton = page.getByRole('button', { name: `End the lease of ${OUTLET}`, exact: true });
  await expect(endButton).toBeVisible();
  expect(await seriousFindings(page)).toEqual([]);

  // The outlet's lease ends on the last day of this month.
  await endButton.click();
  await page.getByTestId('lease-end-day').fill(lastDay);
  await page.getByTestId('lease-end-submit').click();
  await expect(page.locator('.bp6-toast').filter({ hasText: `${OUTLET}'s lease ends on` })).toBeVisible();

  // A new lease from the next month: higher of the base rent or 8 % up to 60,000 and 10 % above.
  await page.getByTestId('lease-add').click();
  const outlet = page.getByTestId('lease-outlet');
  const label = (await outlet.locator('option').allInnerTexts()).find(
    (text) => text.startsWith(`${OUTLET} (`) && !text.includes('Bukit'),
  );
  if (!label) throw new Error(`${OUTLET} is not among the outlets`);
  await outlet.selectOption({ label });
  await page.getByTestId('lease-start').fill(nextFirst);
  await page.getByTestId('lease-end').fill(nextEnd);
  await page.getByTestId('lease-gla').fill('95');
  await page.getByTestId('lease-base-rent').fill('4000');
  await page.getByTestId('lease-service-charge').fill('600');
  await page.getByTestId('lease-model').selectOption('higher_of');
  await page.getByTestId('lease-tier-from-0').fill('0');
  await page.getByTestId('lease-tier-rate-0').fill('8');
  await page.getByTestId('lease-add-tier').click();
  await page.getByTestId('lease-tier-from-1').fill('30000');
  // A second tier below the first is refused at its field before anything is sent.
  await page.getByTestId('lease-tier-from-1').fill('0');
  await expect(page.getByTestId('lease-tier-from-1-problem')).toHaveText(
    'Each tier must start above the one before it.',
  );
  await page.getByTestId('lease-tier-from-1').fill('60000');
  await page.getByTestId('lease-tier-rate-1').fill('10');
  expect(await seriousFindings(page)).toEqual([]);
  await page.getByTestId('lease-submit').click();
  await expect(
    page.locator('.bp6-toast').filter({ hasText: `Lease of ${OUTLET} has been added successfully.` }),
  ).toBeVisible();
  await page.getByTestId('leases-status-filter').selectOption('upcoming');
  const upcoming = page.getByTestId('lease-row').filter({ hasText: OUTLET });
  await expect(upcoming.first()).toContainText('Higher of');

  // The previous month's statements, sorted by the rent at stake: the first under-declared.
  await page.goto(`/tenant-connect/rent-statements?month=${previous}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Rent Statements');
  const table = page.getByTestId('rent-statements-table');
  const first = table.locator('tbody tr').first();
  await expect(first).toBeVisible();
  expect(await seriousFindings(page)).toEqual([]);
  const flagged = table.locator('tbody tr').filter({ has: page.getByTestId('rent-flagged') });
  await expect(flagged.first()).toBeVisible();
  const leader = await first.locator('td').first().innerText();
  const leaseId = await first.getByRole('link', { name: /GTO review/ }).getAttribute('data-testid');
  expect(leaseId).toMatch(/^rent-gto-review-\d+$/);
  const receiptsLink = first.getByRole('link', { name: /Receipts/ });
  const receiptsHref = await receiptsLink.getAttribute('href');
  await first.getByRole('link', { name: /GTO review/ }).click();
  await expect(page).toHaveURL(/\/tenant-connect\/gto-review/);
  await expect(page.getByTestId('gto-review-page')).toBeVisible();
  expect(new URL(page.url()).searchParams.get('month')).toBe(previous);
  // The review opens narrowed to the statement's outlet: its one row, and the outlet filter naming it.
  const outletName = leader.split('\n')[0] ?? leader;
  const reviewRows = page.getByTestId('gto-review-page').locator('tbody tr');
  await expect(reviewRows).toHaveCount(1);
  await expect(reviewRows.first()).toContainText(outletName);
  await expect(page.getByTestId('gto-outlet-filter')).toContainText(outletName);
  await page.goBack();
  await expect(page.getByTestId('rent-statements-table').locator('tbody tr').first()).toContainText(
    leader.split('\n')[0] ?? leader,
  );
  expect(receiptsHref).toMatch(/^\/receipts\?/);
  await page
    .getByTestId('rent-statements-table')
    .locator('tbody tr')
    .first()
    .getByRole('link', { name: /Receipts/ })
    .click();
  await expect(page).toHaveURL(/\/receipts\?/);
  await expect(page.getByTestId('receipts-page')).toBeVisible();
  await page.context().close();
});

test('the tenant reads its rent statement, line by line', async ({ browser }) => {
  const { previous } = months();
  const page = await newPage(browser);
  await signInAt(page, `/tenants/rent-statement?month=${previous}`, 'tenant@demo.mall');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Rent Statement');
  await expect(page.getByTestId('rent-statement-terms')).toBeVisible();
  const lines = page.getByTestId('rent-statement-lines');
  await expect(lines).toContainText('Base rent');
  await expect(lines).toContainText('Service charge');
  await expect(lines).toContainText('Total due');
  expect(await seriousFindings(page)).toEqual([]);
  await page.context().close();
});
