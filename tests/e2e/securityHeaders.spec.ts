import { expect, type Page, test } from '@playwright/test';

/*
 * The built app under its Content-Security-Policy (scripts from its own files only): no page of it, signed out or
 * signed in with charts and tables drawn, breaks a rule of the policy, and the API reference still works.
 */

declare global {
  interface Window {
    cspViolations?: string[];
  }
}

/** Collects the page's CSP violations: the DOM event and the console's report of them. */
async function watchViolations(page: Page): Promise<string[]> {
  const violations: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  await page.addInitScript(() => {
    window.cspViolations = [];
    document.addEventListener('securitypolicyviolation', (event) => {
      window.cspViolations?.push(`${event.violatedDirective} ${event.blockedURI}`);
    });
  });
  return violations;
}

async function violationsIn(page: Page, fromConsole: string[]): Promise<string[]> {
  const fromEvents = await page.evaluate(() => window.cspViolations ?? []);
  return [...fromConsole, ...fromEvents];
}

test('the app loads, signs in and draws a report page without a CSP violation', async ({ page }) => {
  const consoleViolations = await watchViolations(page);
  const response = await page.goto('/login');
  expect(response?.headers()['content-security-policy']).toContain("script-src 'self'");
  expect(response?.headers()['x-content-type-options']).toBe('nosniff');
  await expect(page.getByTestId('login-username')).toBeVisible();

  await page.getByTestId('login-username').fill('admin@demo.mall');
  await page.getByTestId('login-password').fill('demo-password-1');
  await page.getByTestId('login-submit').click();
  await expect(page.getByTestId('navbar-username')).toHaveText('admin@demo.mall');

  await page.goto('/shopper-connect/mall-gmv');
  await expect(page.getByTestId('page-title')).toHaveText('Mall GMV');
  await expect(page.getByTestId('gmv-trend-chart').locator('.highcharts-container')).toBeVisible();
  await page.goto('/receipts');
  await expect(page.getByTestId('page-title')).toBeVisible();

  expect(await violationsIn(page, consoleViolations)).toEqual([]);
});

test('the API reference renders under its own policy', async ({ page }) => {
  const consoleViolations = await watchViolations(page);
  await page.goto('/api/docs/');
  await expect(page.locator('.swagger-ui .information-container')).toBeVisible();
  expect(await violationsIn(page, consoleViolations)).toEqual([]);
});
