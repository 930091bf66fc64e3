import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * Part of vitest's global setup (global-setup.ts): the run's temporary files (test directories, the SQLite
 * template, what child servers and converters write) go under one directory of their own, removed when the run
 * ends, whether or not each test cleaned up after itself. The converted fixtures' cache stays, kept between runs.
 */
export function useRunTempDir(): () => void {
  const systemTemp = os.tmpdir();
  process.env.OBSCURA_FIXTURE_CACHE_DIR ??= path.join(systemTemp, 'obscura-fixture-cache');
  const root = fs.mkdtempSync(path.join(systemTemp, 'obscura-run-'));
  // As open as the system's temp directory it replaces: a server a test runs as another user (run as root, the
  // permission tests use nobody) reaches its folders, and writes its own temp files, under it.
  fs.chmodSync(root, 0o1777);
  process.env.TMPDIR = root;
  return () => fs.rmSync(root, { recursive: true, force: true });
}
