import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // test/ui holds Playwright specs (`npm run test:ui`), never vitest files.
    exclude: ['test/ui/**', 'node_modules/**'],
    // OBSCURA_TEST_DATABASE=postgres: starts a throwaway PostgreSQL cluster for the run (no-op otherwise).
    globalSetup: ['test/helpers/postgres-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Two cores: keep files from starving the child servers some tests spawn.
    maxWorkers: 2,
  },
});
