import { expect, test } from '@playwright/test';

test('the login page renders its form', async ({ page }) => {
  await page.goto('/login');
  await expect(page.getByTestId('login-username')).toBeVisible();
  await expect(page.getByTestId('login-password')).toBeVisible();
  await expect(page.getByTestId('login-submit')).toBeVisible();
  await expect(page).toHaveTitle(/Mall Analytics/);
});

test('a signed-out visit to a deep link goes to /login with the wanted path', async ({ page }) => {
  await page.goto('/shopper-connect/mall-home');
  await expect(page).toHaveURL(/\/login\?redirect=%2Fshopper-connect%2Fmall-home/);
});

test('a wrong password shows the server message', async ({ page }) => {
  await page.goto('/login');
  await page.getByTestId('login-username').fill('operator@demo.mall');
  await page.getByTestId('login-password').fill('not-the-password');
  await page.getByTestId('login-submit').click();
  await expect(page.getByTestId('login-error')).toHaveText('username or password is incorrect');
  // Said once: no toast repeats it.
  await page.waitForTimeout(300);
  await expect(page.getByText('username or password is incorrect')).toHaveCount(1);
});

test('a demo operator signs in against the real server and signs out', async ({ page }) => {
  await page.goto('/login');
  await page.getByTestId('login-username').fill('  Operator@Demo.Mall ');
  await page.getByTestId('login-password').fill('demo-password-1');
  await page.getByTestId('login-submit').click();
  await expect(page.getByText('operator@demo.mall')).toBeVisible();
  await expect(page.getByText('Logout', { exact: true })).toHaveCount(1);
  await page.getByTestId('sidebar-logout').click();
  await expect(page).toHaveURL(/\/login/);
});
