import { defineConfig } from '@playwright/test';

// UI tests run in Debian's Chromium against a real `obscura serve` (started by test/ui/global-setup.ts from
// dist/, so `npm run build` comes first). One worker: the tests share one server on a two-core machine.
export default defineConfig({
  testDir: 'test/ui',
  testMatch: '*.spec.ts',
  globalSetup: './test/ui/global-setup.ts',
  outputDir: 'test-results/ui',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  use: {
    browserName: 'chromium',
    viewport: { width: 1440, height: 900 },
    acceptDownloads: true,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.OBSCURA_CHROMIUM ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    },
  },
});
