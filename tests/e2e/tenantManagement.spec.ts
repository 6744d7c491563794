import { type Browser, expect, type Page, test } from '@playwright/test';
import { appLinkIn, waitForMail } from './mailbox';
import { openAs, PASSWORD } from './session';

/*
 * Tenant Connect's Tenant Management in Chromium against the real server, its demo data and its SMTP sink. The
 * page is driven by the super admin (§6: every other account's Tenant Connect holds only GTO review, non-trading
 * days and breakeven, so the page is not among the operator's routes); the operator's role holds the calls
 * themselves, which the last test shows.
 */

const PAGE_PATH = '/tenant-connect/tenant-management';
const NEW_PASSWORD = 'Harbour-lights-2026';

async function newPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  return context.newPage();
}

const toast = (page: Page, text: string) => page.locator('.bp6-toast').filter({ hasText: text });

test('a tenant invited to one outlet activates, sees only that outlet, and is signed out when deactivated', async ({
  browser,
}) => {
  test.setTimeout(90_000);
  const admin = await newPage(browser);
  await openAs(admin, 'admin@demo.mall', PAGE_PATH);
  const management = admin.getByTestId('tenant-management-page');
  await expect(management.getByRole('heading', { name: 'Tenant Management' })).toBeVisible();
  await expect(management.getByTestId('tenant-row').first()).toBeVisible();
  // The demo's tenants show every status.
  await management.getByTestId('tenant-status-filter').selectOption('deactivated');
  await expect(management.getByTestId('tenant-row').filter({ hasText: 'tenant-former@demo.mall' })).toBeVisible();
  await management.getByTestId('tenant-status-filter').selectOption('invited');
  await expect(management.getByTestId('tenant-row').filter({ hasText: 'tenant-invited@demo.mall' })).toBeVisible();
  await management.getByTestId('tenant-status-filter').selectOption('all');

  // Invite a new tenant to the first outlet offered.
  const email = `tenant-${Date.now()}@demo.mall`;
  const name = 'Nadia Tenant';
  await management.getByTestId('tenant-invite-open').click();
  const dialog = admin.getByRole('dialog', { name: 'Invite a tenant user' });
  await dialog.getByTestId('tenant-invite-email').fill(email);
  await dialog.getByTestId('tenant-invite-name').fill(name);
  const firstOutlet = dialog.getByTestId('tenant-invite-outlets').locator('label').first();
  const outletLabel = (await firstOutlet.textContent())?.trim() ?? '';
  const outletId = /\((\d+)\)$/.exec(outletLabel)?.[1];
  expect(outletId, outletLabel).toBeDefined();
  await firstOutlet.click();
  const since = Date.now();
  await dialog.getByTestId('tenant-invite-submit').click();
  await expect(toast(admin, `Invitation sent to ${email}.`)).toBeVisible();
  await expect(dialog).toHaveCount(0);

  // The invitation arrives; the link activates the account.
  const mail = await waitForMail(email, { since, matching: /account-creation/ });
  expect(mail.subject).toBe('You are invited to Mall Analytics');
  const tenant = await newPage(browser);
  await tenant.goto(appLinkIn(mail, '/account-creation'));
  await tenant.getByTestId('account-email').fill(email);
  await tenant.getByTestId('account-new-password').fill(NEW_PASSWORD);
  await tenant.getByTestId('account-confirm-password').fill(NEW_PASSWORD);
  await tenant.getByTestId('account-submit').click();
  await expect(tenant).toHaveURL(/\/login$/);

  // Signed in, the tenant sees that one outlet only.
  await tenant.getByTestId('login-username').fill(email);
  await tenant.getByTestId('login-password').fill(NEW_PASSWORD);
  await tenant.getByTestId('login-submit').click();
  await expect(tenant.getByTestId('app-layout')).toBeVisible();
  const credential = (await (await tenant.request.get('/api/credential')).json()) as { user: { client_id: number } };
  const outlets = (await (await tenant.request.get(`/outlets?client_id=${credential.user.client_id}`)).json()) as {
    id: number;
  }[];
  expect(outlets.map((outlet) => String(outlet.id))).toEqual([outletId]);
  const dropdownOutlets = tenant.getByTestId('outlet-dropdown').locator('option', { hasText: /\(\d+\)$/ });
  await expect(dropdownOutlets).toHaveCount(1);
  await expect(dropdownOutlets).toHaveText(outletLabel);

  // The super admin finds the tenant active, and deactivates them.
  await management.getByTestId('tenant-search').fill(email);
  await management.getByTestId('tenant-search-button').click();
  const row = management.getByTestId('tenant-row').filter({ hasText: email });
  await expect(row.getByTestId('tenant-status')).toHaveText('Active');
  await row.getByRole('button', { name: `Deactivate: ${name}` }).click();
  await expect(admin.getByTestId('tenant-action-question')).toHaveText(
    `Deactivate ${name}? They are signed out at once and cannot sign in until reactivated.`,
  );
  await admin.getByRole('button', { name: 'Deactivate', exact: true }).click();
  await expect(toast(admin, `${name} has been deactivated.`)).toBeVisible();
  await expect(row.getByTestId('tenant-status')).toHaveText('Deactivated');

  // The tenant's open session has ended: the next page they open is the sign-in page.
  await tenant.reload();
  await expect(tenant).toHaveURL(/\/login(\?|$)/);
  await tenant.getByTestId('login-username').fill(email);
  await tenant.getByTestId('login-password').fill(NEW_PASSWORD);
  await tenant.getByTestId('login-submit').click();
  await expect(tenant.getByText('username or password is incorrect')).toBeVisible();

  await admin.context().close();
  await tenant.context().close();
});

test('the operator’s role holds the tenant management calls of its client', async ({ page }) => {
  await openAs(page, 'operator@demo.mall');
  const credential = (await (await page.request.get('/api/credential')).json()) as { user: { client_id: number } };
  const answer = await page.request.get(
    `/api/tenantManagement/users?client_id=${credential.user.client_id}&status=deactivated`,
  );
  expect(answer.status()).toBe(200);
  const body = (await answer.json()) as { data: { email: string; status: string }[]; total: number };
  expect(body.data.map((user) => [user.email, user.status])).toContainEqual(['tenant-former@demo.mall', 'deactivated']);
  expect(body.data.every((user) => user.status === 'deactivated')).toBe(true);
});

test('a tenant is refused the tenant management calls', async ({ page }) => {
  await page.goto('/login');
  await page.getByTestId('login-username').fill('tenant@demo.mall');
  await page.getByTestId('login-password').fill(PASSWORD);
  await page.getByTestId('login-submit').click();
  await expect(page.getByTestId('app-layout')).toBeVisible();
  const refused = await page.request.get('/api/tenantManagement/users?client_id=1');
  expect(refused.status()).toBe(403);
});
