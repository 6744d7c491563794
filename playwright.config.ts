import { defineConfig } from '@playwright/test';

const PORT = Number(process.env.E2E_PORT ?? 18080);
const SMTP_PORT = PORT + 2;
process.env.E2E_SMTP_PORT = String(SMTP_PORT);
const baseURL = `http://127.0.0.1:${PORT}`;

/** Browser tests drive Debian's Chromium against the real server, with demo data on its own embedded PostgreSQL. */
export default defineConfig({
  testDir: 'tests/e2e',
  globalSetup: './tests/e2e/globalSetup.ts',
  timeout: 30_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: [['list']],
  outputDir: '.tmp/test-results',
  use: {
    baseURL,
    // A zone none of the demo malls is in (they are UTC+7 and UTC+8): the browser's calendar day differs from the
    // malls' for most of every day, so a page that took the browser's today for the malls' would fail here.
    timezoneId: 'Pacific/Honolulu',
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  projects: [{ name: 'chromium', use: { browserName: 'chromium', viewport: { width: 1440, height: 900 } } }],
  webServer: {
    command: 'rm -rf .tmp/e2e && tsx server/main.ts',
    url: `${baseURL}/healthz`,
    timeout: 180_000,
    reuseExistingServer: false,
    stdout: 'pipe',
    stderr: 'pipe',
    gracefulShutdown: { signal: 'SIGTERM', timeout: 15_000 },
    env: {
      PORT: String(PORT),
      HOST: '127.0.0.1',
      DATA_DIR: '.tmp/e2e',
      EMBEDDED_PG_PORT: String(PORT + 1),
      DEMO_RECEIPTS: process.env.E2E_DEMO_RECEIPTS ?? '20000',
      LOG_LEVEL: 'warn',
      SMTP_URL: `smtp://127.0.0.1:${SMTP_PORT}`,
      // Password hashes at 2^14 rather than the production 2^17: the paths sign in over a hundred times.
      PASSWORD_HASH_COST: '14',
    },
  },
});
