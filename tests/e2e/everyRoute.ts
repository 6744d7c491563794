import { expect, type Page } from '@playwright/test';
import { pagesOf } from '../../src/domain/permissions';
import { ROUTES } from '../../src/routes';
import { PASSWORD } from './session';

/*
 * Every page of the route table, opened as the first demo account that may open it: the specs that check every
 * page (accessibility, readability) walk the same pages, and a page added to the route table is covered by them
 * without a test of its own.
 */

/** The demo super admin, then the tenant-only account for the pages only it sees (§6). */
export const SIGNED_IN_ACCOUNTS = ['admin@demo.mall', 'tenant-only@demo.mall'];

/** Every page path of the route table, `:id` parameters left for the walk to fill. */
export const PAGE_PATTERNS = pagesOf(ROUTES).map((route) => route.path);

/** Waits until the page has settled: no page or report spinner, the mall header (if any) idle. */
export async function settled(page: Page): Promise<void> {
  await expect(page.locator('[aria-label="Loading page"]')).toHaveCount(0);
  await expect(page.getByTestId('report-loading')).toHaveCount(0);
  const header = page.getByTestId('mall-header');
  if ((await header.count()) > 0) await expect(header).toHaveAttribute('aria-busy', 'false');
  await expect(page.locator('.bp6-spinner:visible')).toHaveCount(0);
  await expect(page.getByTestId('panel-loading')).toHaveCount(0);
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
}

export async function signInAs(page: Page, username: string): Promise<void> {
  await page.goto('/login');
  await page.getByTestId('login-username').fill(username);
  await page.getByTestId('login-password').fill(PASSWORD);
  await page.getByTestId('login-submit').click();
  await expect(page.getByTestId('app-layout')).toBeVisible();
}

/** The id of one of the signed-in user's outlets, for the `:id` of /shopper-connect/mall-outlet/:id. */
export async function anOutletId(page: Page): Promise<string> {
  const credential = (await (await page.request.get('/api/credential')).json()) as {
    user: { client_id: number | null; clients: number[] };
  };
  const clientId = credential.user.client_id ?? credential.user.clients[0] ?? 1;
  const answer = await page.request.get(`/outlets?client_id=${clientId}`);
  const body = (await answer.json()) as { id: number }[] | { data?: { id: number }[] };
  const first = Array.isArray(body) ? body[0] : body.data?.[0];
  return String(first?.id ?? 1);
}

/** Opens a page of the route table as the first account that may open it; undefined when none may. */
export async function openRoute(page: Page, pattern: string): Promise<string | undefined> {
  for (const username of SIGNED_IN_ACCOUNTS) {
    await page.context().clearCookies();
    await signInAs(page, username);
    const path = pattern.replace(/:id\b/, await anOutletId(page));
    await page.goto(path);
    await expect(page.getByTestId('app-layout').or(page.getByTestId('not-found'))).toBeVisible();
    if (new URL(page.url()).pathname === path) return path;
  }
  return undefined;
}

/**
 * Visits every page of the route table with as few sign-ins as it can: each account in turn opens the pages not
 * yet opened, and `visit` runs on each page it may open (the page settled).
 */
export async function walkEveryRoute(
  page: Page,
  visit: (path: string, pattern: string) => Promise<void>,
  accounts: readonly string[] = SIGNED_IN_ACCOUNTS,
): Promise<string[]> {
  const left = new Set(PAGE_PATTERNS);
  for (const username of accounts) {
    if (left.size === 0) break;
    await page.context().clearCookies();
    await signInAs(page, username);
    const outlet = await anOutletId(page);
    for (const pattern of [...left]) {
      const path = pattern.replace(/:id\b/, outlet);
      await page.goto(path);
      await expect(page.getByTestId('app-layout').or(page.getByTestId('not-found'))).toBeVisible();
      if (new URL(page.url()).pathname !== path) continue;
      left.delete(pattern);
      await settled(page);
      await visit(path, pattern);
    }
  }
  return [...left];
}
