import { accessSync, constants } from 'node:fs';
import { type Browser, chromium, type Page } from 'playwright-core';

/**
 * Report pages printed to PDF by a headless Chromium on the server (issue 34, reports by e-mail; the approach of
 * Grafana's image renderer): the browser opens the app's own address for the page and its filters, with a
 * render-only session of the recipient (server/auth/renderSessions.ts), waits until the page says its data has
 * loaded (`data-report-ready="true"` on every report toolbar of the page, each set when none of its panels is
 * loading: a page of several sections has one a section), and prints it with the
 * print stylesheet. So what is mailed is what the recipient would see.
 *
 * One browser process is started on the first render and reused (started again if it ends); each render has a
 * context of its own (its cookies, its memory), closed when it ends. How many render at once is bounded by the
 * export slots of the caller (EXPORTS_PER_USER, EXPORTS_MAX); each render by RENDER_TIMEOUT_SECONDS, and the
 * browser's JavaScript heap by RENDER_HEAP_MB. Without an executable at CHROMIUM_PATH the renderer says it is not
 * available, and report subscriptions are off with that message.
 */

/** The JavaScript heap of the renderer's pages (V8's old space), in MB. */
export const RENDER_HEAP_MB = 512;

/** The attribute the report toolbar sets on itself: 'true' when its panels have all loaded (or failed). */
export const READY_ATTRIBUTE = 'data-report-ready';

/** How often the renderer looks whether the page has loaded, ms. */
const READY_POLL_MS = 100;

/**
 * Waits until the page has loaded: it has a report toolbar, and every one says ready (a page of sections has one a
 * section, each with its own panels). Read with selectors, not a script of ours: the app's CSP allows no eval.
 */
async function pageReady(page: Page, timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs;
  const marks = page.locator(`[${READY_ATTRIBUTE}]`);
  const waiting = page.locator(`[${READY_ATTRIBUTE}]:not([${READY_ATTRIBUTE}="true"])`);
  while ((await marks.count()) === 0 || (await waiting.count()) > 0) {
    if (Date.now() >= until) throw new Error('render: the page did not finish loading in time');
    await new Promise((resolve) => setTimeout(resolve, READY_POLL_MS));
  }
}

export interface RendererSettings {
  /** The Chromium executable (CHROMIUM_PATH). */
  chromiumPath: string;
  /** The app's own base URL as the renderer reaches it (RENDER_BASE_URL; loopback by default). */
  baseUrl: string;
  /** The longest a page may take, from opening to its PDF (RENDER_TIMEOUT_SECONDS). */
  timeoutMs: number;
}

export interface RenderingState {
  available: boolean;
  /** Why PDFs cannot be rendered; '' when they can. */
  message: string;
}

export interface PdfRequest {
  /** The page's path and query ('/shopper-connect/mall-home?client=1&malls=2&...'). */
  target: string;
  /** The session cookie the browser carries. */
  cookie: { name: string; value: string };
}

export interface PageRenderer {
  readonly state: RenderingState;
  /** The page printed as A4 landscape; rejects when it takes longer than the time limit or the page fails. */
  renderPdf: (request: PdfRequest) => Promise<Buffer>;
  /** Closes the browser (the server stops). */
  close: () => Promise<void>;
}

/** The message the API and the subscribe dialog give when no browser is installed. */
export function renderingUnavailableMessage(chromiumPath: string): string {
  return `Report subscriptions are off: this server has no browser to render PDFs (no executable at CHROMIUM_PATH ${chromiumPath}). Ask your administrator to install Chromium or set CHROMIUM_PATH.`;
}

function renderingStateOf(chromiumPath: string): RenderingState {
  try {
    accessSync(chromiumPath, constants.X_OK);
    return { available: true, message: '' };
  } catch {
    return { available: false, message: renderingUnavailableMessage(chromiumPath) };
  }
}

export function createPageRenderer(settings: RendererSettings): PageRenderer {
  const state = renderingStateOf(settings.chromiumPath);
  let browser: Promise<Browser> | undefined;

  const browserOf = () => {
    if (!browser) {
      const starting = chromium.launch({
        executablePath: settings.chromiumPath,
        headless: true,
        args: [
          // Chromium's sandbox needs user namespaces, which a root process in a container does not have.
          ...(process.getuid?.() === 0 ? ['--no-sandbox'] : []),
          '--disable-gpu',
          '--disable-dev-shm-usage',
          '--disable-background-networking',
          '--disable-component-update',
          '--disable-sync',
          '--no-first-run',
          `--js-flags=--max-old-space-size=${RENDER_HEAP_MB}`,
        ],
      });
      browser = starting;
      starting
        .then((started) =>
          started.on('disconnected', () => {
            if (browser === starting) browser = undefined;
          }),
        )
        .catch(() => {
          if (browser === starting) browser = undefined;
        });
    }
    return browser;
  };

  return {
    state,
    async renderPdf(request) {
      if (!state.available) throw new Error(state.message);
      const started = Date.now();
      const left = () => Math.max(1, settings.timeoutMs - (Date.now() - started));
      const context = await (await browserOf()).newContext({
        viewport: { width: 1280, height: 900 },
        deviceScaleFactor: 1,
      });
      try {
        await context.addCookies([{ ...request.cookie, url: settings.baseUrl, httpOnly: true, sameSite: 'Strict' }]);
        const page = await context.newPage();
        await page.goto(new URL(request.target, settings.baseUrl).toString(), { timeout: left(), waitUntil: 'load' });
        await pageReady(page, left());
        await page.emulateMedia({ media: 'print' });
        // Charts redraw at the print width before they are printed.
        await page.evaluate("window.dispatchEvent(new Event('resize'))");
        const pdf = await Promise.race([
          page.pdf({
            format: 'A4',
            landscape: true,
            printBackground: true,
            margin: { top: '12mm', bottom: '12mm', left: '10mm', right: '10mm' },
          }),
          new Promise<never>((_, reject) => setTimeout(() => reject(new Error('render: took too long')), left())),
        ]);
        return pdf;
      } finally {
        await context.close().catch(() => {});
      }
    },
    async close() {
      const running = browser;
      browser = undefined;
      if (running) await (await running.catch(() => undefined))?.close().catch(() => {});
    },
  };
}
