import { defineConfig } from 'vitest/config';
import { databaseFreeTestFiles } from './test/helpers/database-reach.js';

const onPostgres = process.env.OBSCURA_TEST_DATABASE === 'postgres';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // test/ui holds Playwright specs (`npm run test:ui`), never vitest files. The PostgreSQL run repeats only the
    // files that can reach a database: the others ran the same code in the SQLite run (test/helpers/database-reach.ts).
    exclude: ['test/ui/**', 'node_modules/**', ...(onPostgres ? databaseFreeTestFiles() : [])],
    // OBSCURA_TEST_DATABASE=postgres: starts a throwaway PostgreSQL cluster for the run (no-op otherwise).
    globalSetup: ['test/helpers/postgres-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Two cores: keep files from starving the child servers some tests spawn.
    maxWorkers: 2,
  },
});
