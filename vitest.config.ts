import { defineConfig } from 'vitest/config';
import { databaseFreeTestFiles } from './test/helpers/database-reach.js';

const onPostgres = process.env.OBSCURA_TEST_DATABASE === 'postgres';
const databaseFree = databaseFreeTestFiles();
// Unit files that reach no database hold worker code and pure rules: they share one process per vitest worker
// (isolate: false) instead of loading pdf.js, zod and the rest again for each file. The others start servers,
// child processes and temp directories of their own and keep a fresh module state per file.
const sharedUnitFiles = onPostgres ? [] : databaseFree.filter((file) => file.startsWith('test/unit/'));
// The PostgreSQL run also leaves out the files whose time is LibreOffice converting (about 190 s of tests on a
// 2-core machine): their database work (upload sessions, documents, child documents, jobs, redactions, exports) is
// every intake's, which the e-mail, upload and watched-folder files run on PostgreSQL; what they add, the
// conversion and its sandbox, never touches the database.
const libreOfficeBound = ['test/integration/intake-files.test.ts', 'test/integration/intake-ole.test.ts', 'test/integration/intake-redaction-export.test.ts', 'test/security/libreoffice.test.ts'];
// Likewise the files whose time is the worker burning and checking release pages (about 75 s): their database
// work (an export's rows, jobs and blobs) is every export's, which the lifecycle, format, restart and release
// files run on PostgreSQL. OBSCURA_TEST_ALL_ON_POSTGRES=1 keeps both groups.
const burnInBound = ['test/integration/exports-leaks.test.ts', 'test/integration/exports-hidden-content.test.ts'];
const leftOutOnPostgres = process.env.OBSCURA_TEST_ALL_ON_POSTGRES === '1' ? databaseFree : [...databaseFree, ...libreOfficeBound, ...burnInBound];
// test/ui holds Playwright specs (`npm run test:ui`), never vitest files. The PostgreSQL run repeats only the
// files that can reach a database: the others ran the same code in the SQLite run (test/helpers/database-reach.ts).
const exclude = ['test/ui/**', 'node_modules/**', ...(onPostgres ? leftOutOnPostgres : [])];

export default defineConfig({
  test: {
    // OBSCURA_TEST_DATABASE=postgres: starts a throwaway PostgreSQL cluster for the run (no-op otherwise); then the
    // run's own temp directory, removed at its end (temp-root-setup.ts).
    globalSetup: ['test/helpers/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Two cores: keep files from starving the child servers some tests spawn.
    maxWorkers: 2,
    projects: [
      ...(sharedUnitFiles.length > 0 ? [{ extends: true as const, test: { name: 'unit', include: sharedUnitFiles, isolate: false } }] : []),
      { extends: true as const, test: { name: 'isolated', include: ['test/**/*.test.ts'], exclude: [...exclude, ...sharedUnitFiles] } },
    ],
  },
});
