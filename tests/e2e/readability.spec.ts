import { type Browser, expect, test } from '@playwright/test';
import { startLongNamesServer } from '../support/fixtureServer';
import type { ServerProcess } from '../support/serverProcess';
import { walkEveryRoute } from './everyRoute';
import { readabilityProblems } from './readable';
import { PHONE_USER_AGENT } from './session';

/*
 * Every page of the route table readable at a workstation's, a laptop's and a phone's size: nothing clipped
 * without its whole text, no header cells or axis labels overlapping, nothing overflowing its card, no sideways
 * page scroll (tests/e2e/readable.ts). Each page is opened as the first demo account that may. It runs on the demo
 * data (the suite's server), and on a fixture of long names and many outlets: a server of its own whose demo malls
 * have 300 outlets each, and whose outlet, category and payment method names are 60 characters long.
 */

const SIZES = [
  { name: '1440x900', viewport: { width: 1440, height: 900 } },
  { name: '1280x800', viewport: { width: 1280, height: 800 } },
  { name: '390x844', viewport: { width: 390, height: 844 }, userAgent: PHONE_USER_AGENT },
] as const;

type Size = (typeof SIZES)[number];

/** The theme a user who chose none gets: the browser's preferred scheme (src/domain/theme.ts). */
const THEMES = ['light', 'dark'] as const;
type Theme = (typeof THEMES)[number];

async function everyPageProblems(browser: Browser, size: Size, theme: Theme, baseURL?: string): Promise<string[]> {
  const context = await browser.newContext({
    viewport: size.viewport,
    colorScheme: theme,
    ...('userAgent' in size ? { userAgent: size.userAgent } : {}),
    ...(baseURL ? { baseURL } : {}),
  });
  try {
    const page = await context.newPage();
    const report: string[] = [];
    const unopened = await walkEveryRoute(page, async (path) => {
      const dark = await page.evaluate(() => document.body.classList.contains('bp6-dark'));
      if (dark !== (theme === 'dark')) report.push(`${path}: not in the ${theme} theme`);
      for (const problem of await readabilityProblems(page)) report.push(`${path}: ${problem}`);
    });
    expect(unopened, 'pages no demo account may open').toEqual([]);
    return report;
  } finally {
    await context.close();
  }
}

test.describe('on the demo data', () => {
  for (const size of SIZES) {
    for (const theme of THEMES) {
      test(`every page reads well at ${size.name}, ${theme}`, async ({ browser }) => {
        test.setTimeout(300_000);
        const report = await everyPageProblems(browser, size, theme);
        expect(report, report.join('\n')).toEqual([]);
      });
    }
  }
});

test.describe('with 60-character names and 300 outlets a mall', () => {
  let server: ServerProcess | undefined;

  test.beforeAll(async () => {
    test.setTimeout(300_000);
    server = await startLongNamesServer(Number(process.env.E2E_PORT ?? 18080) + 10);
  });

  test.afterAll(async () => {
    await server?.stop();
  });

  for (const size of SIZES) {
    for (const theme of THEMES) {
      test(`every page reads well at ${size.name}, ${theme}`, async ({ browser }) => {
        test.setTimeout(300_000);
        if (!server) throw new Error('no fixture server');
        const report = await everyPageProblems(browser, size, theme, server.url);
        expect(report, report.join('\n')).toEqual([]);
      });
    }
  }
});
