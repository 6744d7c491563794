import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['tests/unit/**/*.test.ts', 'tests/machines/**/*.test.ts'],
          environment: 'node',
          // Pure functions and machines keep no module state between files: import them once per worker.
          isolate: false,
        },
      },
      {
        test: {
          name: 'views',
          include: ['tests/views/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
          setupFiles: ['tests/views/browserRequest.ts'],
          // Each test signs in to the whole app and draws Blueprint tables and Highcharts charts in jsdom.
          testTimeout: 20_000,
        },
      },
      {
        test: {
          name: 'server',
          include: ['tests/server/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['tests/server/globalSetup.ts'],
          testTimeout: 30_000,
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          name: 'cluster',
          include: ['tests/cluster/**/*.test.ts'],
          environment: 'node',
          // Three server processes, a replica and nginx, timed: alone, after the other projects (about 2 minutes).
          sequence: { groupOrder: 1 },
          testTimeout: 300_000,
          hookTimeout: 240_000,
        },
      },
    ],
  },
});
