import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

// Fixture files made by an installed program at test time (LibreOffice spends about five seconds on each) come out
// the same for the same inputs, the same program build and the same making code. They are kept under the system
// temp folder, so the PostgreSQL run and later files take what the SQLite run made instead of starting the
// program again. The key names everything that goes into the file; change any of it and the file is made anew.
// OBSCURA_FIXTURE_CACHE=off makes every fixture anew.

const ROOT = process.env.OBSCURA_FIXTURE_CACHE_DIR ?? path.join(os.tmpdir(), 'obscura-fixture-cache');

function enabled(): boolean {
  return process.env.OBSCURA_FIXTURE_CACHE !== 'off';
}

/** A digest of what makes a fixture: strings, bytes and JSON-able values, in order. */
export function fixtureKey(parts: readonly unknown[]): string {
  const hash = createHash('sha256');
  for (const part of parts) {
    const bytes = part instanceof Uint8Array ? part : Buffer.from(typeof part === 'string' ? part : JSON.stringify(part) ?? 'undefined');
    hash.update(String(bytes.length)).update(':').update(bytes).update(';');
  }
  return hash.digest('hex');
}

/** The fixture made by `make` for these parts: from the cache when an earlier run made it, else made and kept. */
export function cachedFixture(kind: string, parts: readonly unknown[], make: () => Buffer): Buffer {
  if (!enabled()) return make();
  const file = path.join(ROOT, `${kind}-${fixtureKey([kind, ...parts])}`);
  try {
    return fs.readFileSync(file);
  } catch {
    // Not made yet (or the folder was cleaned): make it.
  }
  const bytes = make();
  fs.mkdirSync(ROOT, { recursive: true });
  // Written aside and renamed, so a file running beside this one never reads half a fixture.
  const partial = `${file}.${process.pid}.${Date.now()}.partial`;
  fs.writeFileSync(partial, bytes);
  fs.renameSync(partial, file);
  return bytes;
}

/** What identifies an installed program's build: its resolved path, size and time, and any version files beside it. */
export function programBuild(executable: string, versionFiles: readonly string[] = []): string {
  const resolved = (() => {
    for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
      const candidate = path.join(dir, executable);
      if (fs.existsSync(candidate)) return fs.realpathSync(candidate);
    }
    return executable;
  })();
  const stat = fs.existsSync(resolved) ? fs.statSync(resolved) : null;
  const versions = versionFiles.map((name) => {
    const file = path.join(path.dirname(resolved), name);
    return fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
  });
  return JSON.stringify([resolved, stat?.size ?? null, stat?.mtimeMs ?? null, versions]);
}
