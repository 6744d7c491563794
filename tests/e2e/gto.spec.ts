import { type Browser, expect, type Page, test } from '@playwright/test';
import { seriousFindings } from './axe';
import { day } from './session';

/*
 * The GTO pages (§2, §7) in Chromium against the real server and its demo data. The demo tenant declares the GTO
 * of the previous month of its one outlet (a first submission, or a correction when the demo data submitted that
 * month already) with a first day far above its captured sales, saves, reloads, finds it kept and corrects it.
 * Then the demo leasing reviewer reviews that month, shows the flagged months, and follows the outlet's variance to
 * its receipts of the month; the audit log shows the submission and its correction.
 */

const PASSWORD = 'demo-password-1';
const MONTH_NAMES = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/** The previous month, `YYYY-MM`, and its name ('October 2026'). */
/**
 * The month `back` months before the malls' today's: the one before is still open for submissions until its next
 * month ends.
 */
function previousMonth(back = 1): { value: string; name: string; lastDay: string } {
  const today = day(0);
  const first = new Date(Date.UTC(Number(today.slice(0, 4)), Number(today.slice(5, 7)) - 1 - back, 1));
  const value = `${first.getUTCFullYear()}-${String(first.getUTCMonth() + 1).padStart(2, '0')}`;
  const last = new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + 1, 0)).getUTCDate();
  return { value, name: `${MONTH_NAMES[first.getUTCMonth()]} ${first.getUTCFullYear()}`, lastDay: `${value}-${last}` };
}

async function signInAt(page: Page, path: string, username: string): Promise<void> {
  await page.goto(path);
  await expect(page).toHaveURL(/\/login/);
  await page.getByTestId('login-username').fill(username);
  await page.getByTestId('login-password').fill(PASSWORD);
  await page.getByTestId('login-submit').click();
  await expect(page.getByTestId('app-layout')).toBeVisible();
}

async function newPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext();
  const page = await context.newPage();
  page.on('pageerror', (error) => console.log(`page error: ${error.message}`));
  return page;
}

/** The far-off first day: the month is then flagged whatever the outlet's captured sales. */
const FIRST_DAY_TEXT = '$12,345,678.90';
const FIRST_DAY_VALUE = '12345678.90';

test('a tenant declares the previous month, and the leasing reviewer follows its flagged variance to the receipts', async ({
  browser,
}) => {
  // Two accounts, a month of days, a reload and the review: longer than the default 30 s on a busy machine.
  test.setTimeout(90_000);
  const month = previousMonth();
  const firstDay = `${month.value}-01`;

  /* ---- the tenant */
  const tenant = await newPage(browser);
  await signInAt(tenant, '/tenants/gto_submission', 'tenant@demo.mall');
  await expect(tenant.getByTestId('gto-submission-page')).toBeVisible();
  await expect(tenant.getByRole('heading', { level: 1 })).toHaveText('GTO Submission');
  // GTO Submission opens on the last complete month, not the unfinished current one.
  await expect(tenant.getByTestId('month-picker')).toHaveValue(month.value);
  await expect(tenant.getByTestId('gto-submission-form')).toBeVisible();
  await expect(tenant.getByRole('heading', { name: `GTO of ${month.name}` })).toBeVisible();
  // Every day of a past month is listed.
  await expect(tenant.locator('[data-testid^="gto-amount-"]')).toHaveCount(Number(month.lastDay.slice(8)));

  expect(await seriousFindings(tenant)).toEqual([]);

  const save = tenant.getByTestId('gto-save');
  const correction = (await save.innerText()).includes('Save correction');
  await expect(save).toBeDisabled();

  const amount = tenant.getByTestId(`gto-amount-${firstDay}`);
  // An amount that does not parse disables the save and says why.
  await amount.fill('12.345');
  await expect(tenant.getByTestId('gto-problem')).toHaveText('Correct the amounts marked in red to save.');
  await expect(save).toBeDisabled();
  expect(await seriousFindings(tenant)).toEqual([]);
  await amount.fill(FIRST_DAY_TEXT);
  await tenant.getByTestId('gto-remarks').fill('Declared by the browser test');
  await expect(save).toBeEnabled();
  await save.click();

  const verb = correction ? 'corrected' : 'submitted';
  await expect(tenant.locator('.bp6-toast').filter({ hasText: `GTO for ${month.name} ${verb}.` })).toBeVisible();
  await expect(tenant.getByTestId('gto-submitted-line')).toContainText('tenant@demo.mall');
  await expect(save).toHaveText('Save correction');
  // The page opened on its month without a filter change, so the address may not name the outlet yet: the header does.
  const outletId = await tenant.getByTestId('outlet-dropdown').inputValue();
  expect(outletId).toMatch(/^\d+$/);

  // A reload shows the month as the server keeps it.
  await tenant.reload();
  await expect(tenant.getByTestId('gto-submission-form')).toBeVisible();
  await expect(tenant.getByTestId(`gto-amount-${firstDay}`)).toHaveValue(FIRST_DAY_VALUE);
  await expect(tenant.getByTestId('gto-remarks')).toHaveValue('Declared by the browser test');
  await expect(tenant.getByTestId('gto-submitted-line')).toContainText('tenant@demo.mall');
  // A correction of the month: the remarks.
  await tenant.getByTestId('gto-remarks').fill('Corrected by the browser test');
  await tenant.getByTestId('gto-save').click();
  await expect(tenant.locator('.bp6-toast').filter({ hasText: `GTO for ${month.name} corrected.` })).toBeVisible();
  await tenant.context().close();

  /* ---- the leasing reviewer */
  const reviewer = await newPage(browser);
  await signInAt(reviewer, '/tenant-connect/gto-review', 'leasing@demo.mall');
  await expect(reviewer.getByTestId('gto-review-page')).toBeVisible();
  // GTO Review opens on the last complete month too.
  await expect(reviewer.getByTestId('month-picker')).toHaveValue(month.value);
  await expect(reviewer.getByTestId('gto-threshold-rule')).toContainText(
    /Flagged: declared GTO differs from the sales captured from receipts by more than [\d.]+%\./,
  );
  await reviewer.getByTestId('gto-filter-flagged').click();
  await expect(reviewer.getByTestId('gto-filter-flagged')).toHaveAttribute('aria-pressed', 'true');
  await expect(reviewer.getByTestId('gto-review-table')).toHaveAttribute('aria-busy', 'false');
  // The highest declared GTO first: the tenant's month.
  await reviewer.getByTestId('gto-sort-gto_amount').click();
  await expect(reviewer.getByTestId('gto-sort-gto_amount')).toHaveAttribute('data-order', 'desc');
  await expect(reviewer.getByTestId('gto-review-table')).toHaveAttribute('aria-busy', 'false');
  const rows = reviewer.getByTestId('gto-review-row');
  await expect(rows.first()).toHaveAttribute('data-outlet', outletId ?? '');
  for (const flagged of await rows.evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-flagged')))) {
    expect(flagged).toBe('true');
  }
  await expect(rows.first().getByTestId('gto-flagged')).toHaveText('Flagged');
  expect(await seriousFindings(reviewer)).toEqual([]);

  await reviewer.getByTestId(`gto-variance-link-${outletId}`).click();
  await expect(reviewer.getByTestId('receipts-page')).toBeVisible();
  const url = new URL(reviewer.url());
  expect(url.pathname).toBe('/receipts');
  expect(url.searchParams.get('outlet')).toBe(outletId);
  expect(url.searchParams.get('from')).toBe(firstDay);
  expect(url.searchParams.get('to')).toBe(month.lastDay);
  await reviewer.context().close();

  /* ---- the audit log (§6: the super admin's page) shows the submission and its correction */
  const admin = await newPage(browser);
  await signInAt(admin, '/tenant-connect/audit-logs', 'admin@demo.mall');
  const filtered = admin.waitForResponse(
    (response) =>
      new URL(response.url()).pathname === '/api/auditLogs' &&
      new URL(response.url()).searchParams.get('entity') === 'gto_submission',
  );
  await admin.getByTestId('audit-entity').selectOption('gto_submission');
  expect((await filtered).status()).toBe(200);
  const changes = admin.getByTestId('audit-row').filter({ hasText: 'tenant@demo.mall' });
  await expect(changes.filter({ hasText: 'Corrected by the browser test' }).first()).toBeVisible();
  expect(await changes.filter({ hasText: 'update' }).count()).toBeGreaterThan(0);
  await admin.context().close();
});

test('a leasing user changes the review rules, and the late months follow the new due day', async ({ browser }) => {
  test.setTimeout(90_000);
  // Two months back: every demo submission of it is in (the month before may have none yet, early in a month).
  const month = previousMonth(2);
  const leasing = await newPage(browser);
  await signInAt(leasing, '/tenant-connect/gto-review', 'leasing@demo.mall');
  await expect(leasing.getByTestId('gto-review-page')).toBeVisible();
  await leasing.getByTestId('month-picker').selectOption(month.value);
  await expect(leasing.getByTestId('gto-review-table')).toHaveAttribute('aria-busy', 'false');
  await expect(leasing.getByTestId('gto-due-rule')).toContainText(/^ ?Due on \d+ \w+ \d{4};/);

  const lateCount = async (dueDay: number) => {
    await leasing.getByTestId('gto-rules-open').click();
    const dialog = leasing.getByRole('dialog', { name: 'GTO review rules' });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByLabel('Variance threshold (%)')).not.toHaveValue('');
    await dialog.getByLabel('Due on day of the following month').selectOption(String(dueDay));
    expect(await seriousFindings(leasing)).toEqual([]);
    await dialog.getByTestId('gto-rules-save').click();
    await expect(dialog).toBeHidden();
    await expect(leasing.getByTestId('gto-due-rule')).toContainText(`Due on ${dueDay} `);
    const answer = leasing.waitForResponse((response) => response.url().includes('filterOption=late'));
    await leasing.getByTestId('gto-filter-late').click();
    await answer;
    await expect(leasing.getByTestId('gto-count')).toHaveText(/^\d[\d,]* outlets?$/);
    const text = (await leasing.getByTestId('gto-count').innerText()).replace(/,/g, '');
    await leasing.getByTestId('gto-filter-all').click();
    return Number(/^(\d+)/.exec(text)?.[1] ?? 0);
  };
  // Demo months are submitted between the 3rd and the 12th of the next month: an earlier due day makes more late.
  const lateBy28 = await lateCount(28);
  const lateBy2 = await lateCount(2);
  expect(lateBy2).toBeGreaterThan(lateBy28);
  // Back to the demo's due day.
  await lateCount(7);
  await leasing.context().close();
});
