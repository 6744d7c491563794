import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, test } from '@playwright/test';
import { openRoute, PAGE_PATTERNS, settled } from './everyRoute';

/*
 * Accessibility by construction: axe (WCAG 2.1 A and AA) over every page of the route table as the demo super
 * admin, in the light and in the dark theme (switched by the sidebar's toggle, no second sign-in), and over the
 * signed-out pages. Any finding of impact serious or critical fails, and every signed-in page has one `main`
 * landmark and one `h1`. A page added to the route table is covered without a test of its own.
 */

const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];
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

      // The same page in the dark theme: Blueprint's, the app's CSS and the charts drawn again.
      await page.getByTestId('theme-toggle').click();
      await expect(page.locator('body')).toHaveClass(/bp6-dark/);
      await settled(page);
      const darkFindings = await seriousFindings(page);
      expect(darkFindings, describeFindings(`${path ?? pattern} (dark)`, darkFindings)).toEqual([]);
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
