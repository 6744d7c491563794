import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { type Browser, chromium, type Page } from '@playwright/test';
import { themeStorageKey } from '../src/domain/theme';
import { startLongNamesServer } from '../tests/support/fixtureServer';

/*
 * `npm run screenshots`: the pages a reviewer looks at first, at a workstation's and a phone's size, in light and
 * dark, on the readability fixture (300 outlets a mall, 60-character names), written to .tmp/screenshots (not
 * committed). It builds nothing: run `npm run build` first when the app changed. Starts its own server on
 * SCREENSHOTS_PORT (default 18900; its embedded PostgreSQL on the next port).
 */

const PASSWORD = 'demo-password-1';
const OUT = path.resolve('.tmp/screenshots');
const PHONE_USER_AGENT =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';

const SHOTS = [
  { name: 'mall-home', account: 'operator@demo.mall', path: '/shopper-connect/mall-home' },
  { name: 'breakeven-300-outlets', account: 'leasing@demo.mall', path: '/tenant-connect/breakeven-target' },
  { name: 'receipts-tenant', account: 'tenant@demo.mall', path: '/receipts' },
  { name: 'gto-review', account: 'leasing@demo.mall', path: '/tenant-connect/gto-review' },
] as const;

const SIZES = [
  { name: '1440', viewport: { width: 1440, height: 900 } },
  { name: '390', viewport: { width: 390, height: 844 }, userAgent: PHONE_USER_AGENT },
] as const;

const THEMES = ['light', 'dark'] as const;

async function settle(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle');
  await page
    .locator('.bp6-spinner:visible, [data-testid="panel-loading"]')
    .first()
    .waitFor({ state: 'detached', timeout: 30_000 })
    .catch(() => undefined);
  // A string: this file is checked without the DOM's types (it runs in Node, the expression in the page).
  await page.evaluate('document.fonts.ready.then(() => undefined)');
}

/**
 * The theme the user chose, as the app remembers it (per user in this browser, see src/domain/theme.ts), then the
 * page loaded again: on a phone the sidebar holding the toggle is closed.
 */
async function pickTheme(page: Page, theme: (typeof THEMES)[number]): Promise<void> {
  const credential = (await (await page.request.get('/api/credential')).json()) as { user: { id: number } };
  await page.evaluate(`localStorage.setItem(${JSON.stringify(themeStorageKey(credential.user.id))}, '${theme}')`);
  await page.reload();
}

async function shoot(browser: Browser, baseURL: string): Promise<string[]> {
  const written: string[] = [];
  for (const size of SIZES) {
    for (const shot of SHOTS) {
      const context = await browser.newContext({
        baseURL,
        viewport: size.viewport,
        ...('userAgent' in size ? { userAgent: size.userAgent } : {}),
      });
      const page = await context.newPage();
      await page.goto('/login');
      await page.getByTestId('login-username').fill(shot.account);
      await page.getByTestId('login-password').fill(PASSWORD);
      await page.getByTestId('login-submit').click();
      await page.getByTestId('app-layout').waitFor();
      for (const theme of THEMES) {
        await page.goto(shot.path);
        await pickTheme(page, theme);
        await settle(page);
        const file = path.join(OUT, `${shot.name}-${size.name}-${theme}.png`);
        await page.screenshot({ path: file, fullPage: true });
        written.push(file);
      }
      await context.close();
    }
  }
  return written;
}

async function main(): Promise<void> {
  mkdirSync(OUT, { recursive: true });
  const port = Number(process.env.SCREENSHOTS_PORT ?? 18900);
  console.log(`Starting the fixture server on ${port} (300 outlets a mall, 60-character names)…`);
  const server = await startLongNamesServer(port);
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
  try {
    for (const file of await shoot(browser, server.url)) console.log(file);
  } finally {
    await browser.close();
    await server.stop();
  }
}

await main();
