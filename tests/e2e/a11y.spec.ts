import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, test } from '@playwright/test';
import { pagesOf } from '../../src/domain/permissions';
import { ROUTES } from '../../src/routes';
import { PASSWORD } from './session';

/*
 * Accessibility by construction: axe (WCAG 2.1 A and AA) over every page of the route table as the demo super
 * admin, and over the signed-out pages. Any finding of impact serious or critical fails, and every signed-in
 * page has one `main` landmark and one `h1`. A page added to the route table is covered without a test of its own.
 */

const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];
/** The demo super admin, then the tenant-only account for the pages only it sees (§6). */
const SIGNED_IN_ACCOUNTS = ['admin@demo.mall', 'tenant-only@demo.mall'];

/** Every page path of the route table, `:id` parameters left for the test to fill. */
const PAGE_PATTERNS = pagesOf(ROUTES).map((route) => route.path);

/**
 * The signed-out pages; those of a flow without their preceding step show the sign-in page instead.
 * /download/receipts/pdf is not among them: loaded from the address bar it is the server's PDF download.
 */
const PUBLIC_PATHS = [
  '/login',
  '/sso',
  '/reset-password',
  '/account-creation',
  '/404',
  '/payment',
  '/mfa-validation',
  '/update-password',
  '/reset-password-success',
];

interface Finding {
  readonly id: string;
  readonly impact: string;
  readonly help: string;
  readonly targets: readonly string[];
}

/** The serious and critical findings of axe on the page as it is now. */
async function seriousFindings(page: Page): Promise<Finding[]> {
  const results = await new AxeBuilder({ page }).withTags(WCAG_TAGS).analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => ({
      id: violation.id,
      impact: violation.impact ?? '',
      help: violation.help,
      targets: violation.nodes.map((node) => node.target.join(' ')),
    }));
}

function describeFindings(path: string, findings: readonly Finding[]): string {
  const lines = findings.map(
    (finding) =>
      `  [${finding.impact}] ${finding.id}: ${finding.help} (${finding.targets.length})\n` +
      finding.targets.map((target) => `      ${target}`).join('\n'),
  );
  return `${path}: ${findings.reduce((sum, finding) => sum + finding.targets.length, 0)} serious or critical\n${lines.join('\n')}`;
}

/** Waits until the page has settled: no page or report spinner, the mall header (if any) idle. */
async function settled(page: Page): Promise<void> {
  await expect(page.locator('[aria-label="Loading page"]')).toHaveCount(0);
  await expect(page.getByTestId('report-loading')).toHaveCount(0);
  const header = page.getByTestId('mall-header');
  if ((await header.count()) > 0) await expect(header).toHaveAttribute('aria-busy', 'false');
  await expect(page.locator('.bp6-spinner:visible')).toHaveCount(0);
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
}

async function signIn(page: Page, username: string): Promise<void> {
  await page.goto('/login');
  await page.getByTestId('login-username').fill(username);
  await page.getByTestId('login-password').fill(PASSWORD);
  await page.getByTestId('login-submit').click();
  await expect(page.getByTestId('app-layout')).toBeVisible();
}

/** The id of one of the super admin's outlets, for the `:id` of /shopper-connect/mall-outlet/:id. */
async function anOutletId(page: Page): Promise<string> {
  const credential = (await (await page.request.get('/api/credential')).json()) as {
    user: { client_id: number | null; clients: number[] };
  };
  const clientId = credential.user.client_id ?? credential.user.clients[0] ?? 1;
  const answer = await page.request.get(`/outlets?client_id=${clientId}`);
  const body = (await answer.json()) as { id: number }[] | { data?: { id: number }[] };
  const first = Array.isArray(body) ? body[0] : body.data?.[0];
  return String(first?.id ?? 1);
}

/** Opens a page of the route table as the first account that may open it; false when none may. */
async function openRoute(page: Page, pattern: string): Promise<string | undefined> {
  for (const username of SIGNED_IN_ACCOUNTS) {
    await page.context().clearCookies();
    await signIn(page, username);
    const path = pattern.replace(/:id\b/, await anOutletId(page));
    await page.goto(path);
    await expect(page.getByTestId('app-layout').or(page.getByTestId('not-found'))).toBeVisible();
    if (new URL(page.url()).pathname === path) return path;
  }
  return undefined;
}

test.describe('accessibility of every page of the route table', () => {
  test.describe.configure({ timeout: 90_000 });

  for (const pattern of PAGE_PATTERNS) {
    test(`${pattern}: no serious or critical axe finding, one main, one h1`, async ({ page }) => {
      const path = await openRoute(page, pattern);
      expect(path, `no demo account may open ${pattern}`).toBeDefined();
      await settled(page);
      await expect(page.getByRole('main')).toHaveCount(1);
      await expect(page.locator('h1')).toHaveCount(1);
      const findings = await seriousFindings(page);
      expect(findings, describeFindings(path ?? pattern, findings)).toEqual([]);
    });
  }
});

test('the signed-out pages: no serious or critical axe finding, one h1', async ({ page }) => {
  const report: string[] = [];
  for (const path of PUBLIC_PATHS) {
    await page.goto(path);
    await expect(page.locator('#root > *').first()).toBeVisible();
    if (new URL(page.url()).pathname !== path) continue;
    await expect(page.locator('.bp6-spinner:visible')).toHaveCount(0);
    const findings = await seriousFindings(page);
    if (findings.length > 0) report.push(describeFindings(path, findings));
    const headings = await page.locator('h1').count();
    if (headings !== 1) report.push(`${path}: ${headings} h1`);
  }
  expect(report, report.join('\n')).toEqual([]);
});
