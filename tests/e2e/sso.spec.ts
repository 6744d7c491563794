import { expect, test } from '@playwright/test';

/*
 * Single sign-on against the demo's identity provider, which `npm start` runs for the demo accounts' domain
 * (demo.mall): the browser leaves for the provider's sign-in page, and comes back signed in.
 */

test('Sign in with SSO completes at the demo identity provider', async ({ page }) => {
  await page.goto('/login');
  await page.getByText('Sign in with SSO').click();
  await expect(page).toHaveURL(/\/sso$/);
  await page.getByTestId('sso-email').fill('operator2@demo.mall');
  await page.getByTestId('sso-submit').click();

  await expect(page.getByRole('heading', { name: 'Demo sign-in service' })).toBeVisible();
  expect(new URL(page.url()).port).not.toBe(new URL(test.info().project.use.baseURL ?? page.url()).port);
  await page.getByLabel('E-mail').fill('operator2@demo.mall');
  await page.getByLabel('Password').fill('not-the-password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('alert')).toHaveText('The e-mail or password is incorrect.');

  await page.getByLabel('Password').fill('demo-password-1');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByTestId('navbar-username')).toHaveText('operator2@demo.mall');
  await expect(page).toHaveURL(/\/shopper-connect\/mall-home$/);
});
