import { expect, type Page, test } from '@playwright/test';
import { appLinkIn, oneTimeCodeIn, waitForMail } from './mailbox';

/*
 * Sign-in and access control against the real server with its demo data (every demo account's
 * password is demo-password-1). Mails go to the SMTP sink of the e2e server (see mailbox.ts).
 * Accounts whose password changes here (expired@demo.mall, operations@demo.mall) are used by one
 * test only.
 */

const PASSWORD = 'demo-password-1';

async function signIn(page: Page, username: string, password = PASSWORD): Promise<void> {
  await page.getByTestId('login-username').fill(username);
  await page.getByTestId('login-password').fill(password);
  await page.getByTestId('login-submit').click();
}

async function openLoginAndSignIn(page: Page, username: string, password = PASSWORD): Promise<void> {
  await page.goto('/login');
  await signIn(page, username, password);
}

function pathOf(page: Page): string {
  const url = new URL(page.url());
  return `${url.pathname}${url.search}`;
}

test.describe('landing pages of the demo accounts (§2)', () => {
  for (const [username, landing] of [
    ['admin@demo.mall', '/shopper-connect/mall-home'],
    ['operator@demo.mall', '/shopper-connect/mall-home'],
    ['tenant-only@demo.mall', '/tenant-connect/sales-review'],
  ] as const) {
    test(`${username} lands on ${landing}`, async ({ page }) => {
      await openLoginAndSignIn(page, username);
      await expect(page).toHaveURL(new RegExp(`${landing}$`));
      await expect(page.getByTestId('navbar-username')).toHaveText(username);
      await expect(page.getByTestId('nav')).toBeVisible();
    });
  }

  test('marcom@demo.mall lands on its breakeven page, titled Marcom', async ({ page }) => {
    await openLoginAndSignIn(page, 'marcom@demo.mall');
    await expect(page).toHaveURL(/\/shopper-connect\/breakeven-target\/marcom$/);
    await expect(page.getByTestId('page-title')).toHaveText('Marcom');
  });

  test('leasing@demo.mall lands on GTO review; its breakeven page is titled Leasing', async ({ page }) => {
    await openLoginAndSignIn(page, 'leasing@demo.mall');
    await expect(page).toHaveURL(/\/tenant-connect\/gto-review(\?.*)?$/);
    await page.goto('/tenant-connect/breakeven-target');
    await expect(page.getByTestId('page-title')).toHaveText('Leasing');
  });

  test('tenant@demo.mall lands on its first permitted page', async ({ page }) => {
    await openLoginAndSignIn(page, 'tenant@demo.mall');
    await expect(page.getByTestId('nav')).toBeVisible();
    const firstLink = page.getByTestId('nav').getByRole('menuitem').first();
    const href = await firstLink.getAttribute('href');
    expect(href).toBeTruthy();
    // The link carries the current filters; the landing address may be bare until a filter changes.
    const path = new URL(href ?? '', 'http://localhost').pathname;
    await expect(page).toHaveURL(new RegExp(`${path}(\\?.*)?$`));
    await expect(page.getByTestId('page-title')).toBeVisible();
  });
});

test('a logged-out visit to a deep link returns there after sign-in', async ({ page }) => {
  await page.goto('/shopper-connect/mall-gmv?range=7');
  await expect(page).toHaveURL(/\/login\?redirect=%2Fshopper-connect%2Fmall-gmv%3Frange%3D7$/);
  await signIn(page, 'admin@demo.mall');
  await expect(page).toHaveURL(/\/shopper-connect\/mall-gmv\?range=7$/);
  await expect(page.getByTestId('page-title')).toHaveText('Mall GMV');
});

test('an unknown path goes to /404 and / to the landing page', async ({ page }) => {
  await openLoginAndSignIn(page, 'operator@demo.mall');
  await expect(page).toHaveURL(/\/shopper-connect\/mall-home$/);
  await page.goto('/no/such/page');
  await expect(page).toHaveURL(/\/404$/);
  await expect(page.getByText('Page not found.')).toBeVisible();
  await page.goto('/');
  await expect(page).toHaveURL(/\/shopper-connect\/mall-home$/);
  await page.goto('/login');
  await expect(page).toHaveURL(/\/shopper-connect\/mall-home$/);
});

test('MFA: the code mailed to mfa@demo.mall signs in', async ({ page }) => {
  await page.goto('/login');
  const since = Date.now();
  await signIn(page, 'mfa@demo.mall');
  await expect(page).toHaveURL(/\/mfa-validation$/);
  await expect(page.getByTestId('otp-sent')).toBeVisible();
  const mail = await waitForMail('mfa@demo.mall', { since, matching: /\b\d{6}\b/ });
  const code = oneTimeCodeIn(mail);

  const wrong = code === '000000' ? '111111' : '000000';
  await page.getByTestId('otp-code').fill(wrong);
  await page.getByTestId('otp-submit').click();
  await expect(page.getByTestId('otp-error')).toHaveText('Invalid or expired code.');

  await page.getByTestId('otp-code').fill(code);
  await page.getByTestId('otp-submit').click();
  await expect(page.getByTestId('navbar-username')).toHaveText('mfa@demo.mall');
  await expect(page).not.toHaveURL(/mfa-validation|login/);
});

test("the expired password: 'Password expired.', update, sign in with the new one", async ({ page }) => {
  const newPassword = 'renewed-password-42';
  await openLoginAndSignIn(page, 'expired@demo.mall');
  await expect(page.getByTestId('login-error')).toHaveText('Password expired.');
  await page.getByTestId('login-update-password').click();
  await expect(page).toHaveURL(/\/update-password$/);
  await expect(page.getByTestId('update-username')).toHaveValue('expired@demo.mall');

  await page.getByTestId('update-current-password').fill(PASSWORD);
  await page.getByTestId('update-new-password').fill(newPassword);
  await page.getByTestId('update-confirm-password').fill(newPassword);
  await page.getByTestId('update-submit').click();

  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByText('Your password has been updated. Please sign in with your new password.')).toBeVisible();
  await signIn(page, 'expired@demo.mall', PASSWORD);
  await expect(page.getByTestId('login-error')).toHaveText('username or password is incorrect');
  await signIn(page, 'expired@demo.mall', newPassword);
  await expect(page.getByTestId('navbar-username')).toHaveText('expired@demo.mall');
});

test('a password reset from the mailed link (operations@demo.mall)', async ({ page }) => {
  const newPassword = 'reset-password-77';
  await page.goto('/login');
  await page.getByText('Forgot password?').click();
  await expect(page).toHaveURL(/\/reset-password$/);
  const since = Date.now();
  await page.getByTestId('reset-email').fill('operations@demo.mall');
  await page.getByTestId('reset-request-submit').click();
  await expect(page.getByTestId('reset-requested')).toHaveText(
    'If an account exists for that e-mail, a reset link has been sent.',
  );

  const mail = await waitForMail('operations@demo.mall', { since, matching: /reset-password\?validationKey=/ });
  const link = appLinkIn(mail, '/reset-password');
  await page.goto(link);
  await page.getByTestId('reset-new-password').fill(newPassword);
  await page.getByTestId('reset-confirm-password').fill(newPassword);
  await page.getByTestId('reset-submit').click();
  await expect(page).toHaveURL(/\/reset-password-success$/);
  await expect(page.getByTestId('reset-success')).toHaveText(
    'Your password has been reset. Please sign in with your new password.',
  );

  // The link works once.
  await page.goto(link);
  await expect(page.getByTestId('reset-invalid')).toHaveText('This reset link is invalid or has expired.');

  await page.goto('/login');
  await signIn(page, 'operations@demo.mall', newPassword);
  await expect(page.getByTestId('navbar-username')).toHaveText('operations@demo.mall');
});

test('the partner account has no Receipts entry and the receipts calls answer 403', async ({ page }) => {
  await openLoginAndSignIn(page, 'analyst@partner.example');
  const nav = page.getByTestId('nav');
  await expect(nav).toBeVisible();
  await expect(nav.getByRole('menuitem', { name: 'Receipts', exact: true })).toHaveCount(0);
  await expect(nav.getByRole('menuitem', { name: 'Receipt Data', exact: true })).toHaveCount(0);

  // page.request carries the browser context's cookies (the partner's session).
  const credential = await page.request.get('/api/credential');
  expect(credential.status()).toBe(200);
  const { user } = (await credential.json()) as { user: { client_id: number | null; clients: number[] } };
  const clientId = user.client_id ?? user.clients[0] ?? 1;
  const outlets = await page.request.get(`/outlets?client_id=${clientId}`);
  const outletList = outlets.ok() ? ((await outlets.json()) as { id: number }[] | { data?: { id: number }[] }) : [];
  const firstOutlet = Array.isArray(outletList) ? outletList[0] : outletList.data?.[0];
  const outletId = firstOutlet?.id ?? 1;

  const receipts = await page.request.get(`/outlets/transaction/focReason?client_id=${clientId}&id=${outletId}`);
  expect(receipts.status()).toBe(403);

  // Opening the route directly is refused by the navigation guard too.
  await page.goto('/receipts');
  await expect(page).toHaveURL(/\/404$/);
});

test('/mfa-validation, /update-password and /reset-password-success need their preceding step', async ({ page }) => {
  for (const flowPage of ['/mfa-validation', '/update-password', '/reset-password-success']) {
    await page.goto(flowPage);
    await expect(page).toHaveURL(/\/login$/);
  }
});

test('Sign in with SSO starts at the identity provider of the e-mail domain', async ({ page }) => {
  await page.goto('/login');
  await page.getByText('Sign in with SSO').click();
  await expect(page).toHaveURL(/\/sso$/);
  await page.getByTestId('sso-email').fill('someone@unknown-domain.example');
  await page.getByTestId('sso-submit').click();
  // No provider for that domain: the server sends the browser back to /sso with a code, whose fixed message shows.
  await expect(page).toHaveURL(/\/sso\?error=not_set_up$/);
  await expect(page.getByTestId('sso-error')).toHaveText('Single sign-on is not set up for this e-mail domain.');
  expect(pathOf(page)).toMatch(/^\/sso\?error=/);
});
