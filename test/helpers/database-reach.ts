import fs from 'node:fs';
import path from 'node:path';

// Which test files can reach a database. The PostgreSQL run (OBSCURA_TEST_DATABASE=postgres) repeats only those:
// a file that reaches none (the burn-in, release-check, detection and OCR unit tests: worker code never opens
// the database) would run the same code twice. Decided from the source by following relative imports (type-only
// imports are erased and not followed): a file reaches a database when anything it imports lives under main/db/
// (the only code that opens one), imports a database driver, or names the test databases, the server's entry
// points (run as child processes) or OBSCURA_TEST_DATABASE. Erring towards "reaches" only costs time.

const PROJECT_ROOT = path.resolve(import.meta.dirname, '..', '..');
const DATABASE_MARKERS = /createTestDatabase|OBSCURA_TEST_DATABASE|onPostgres\(|dist[/'", ]+main|main\/cli|bin\/obscura|from\s*['"](?:better-sqlite3|pg|kysely)['"]/;
/** Relative imports and re-exports, static or dynamic; group 1 is `type ` for an erased, type-only one. */
const IMPORT = /(?:\b(?:import|export)\s+(type\s+)?(?:[\w*{}\s,]+?\s+from\s*)?|\bimport\s*\(\s*)['"](\.{1,2}\/[^'"]+)['"]/g;

function resolveImport(from: string, specifier: string): string | null {
  const target = path.resolve(path.dirname(from), specifier);
  for (const candidate of [target, target.replace(/\.m?js$/, '.ts'), target.replace(/\.m?js$/, '.tsx'), `${target}.ts`, path.join(target, 'index.ts')]) {
    if (fs.existsSync(candidate) && fs.statSync(candidate).isFile()) return candidate;
  }
  return null;
}

function touchesDatabaseItself(root: string, file: string, source: string): boolean {
  const relative = path.relative(root, file).split(path.sep).join('/');
  if (relative.startsWith('main/db/')) return true;
  return DATABASE_MARKERS.test(source);
}

/** True when the file, or anything it imports through relative paths, can open a database. */
export function reachesDatabase(testFile: string, root = PROJECT_ROOT, memo = new Map<string, boolean>()): boolean {
  const seen = new Set<string>();
  const pending = [path.resolve(testFile)];
  while (pending.length > 0) {
    const file = pending.pop() as string;
    if (seen.has(file)) continue;
    seen.add(file);
    if (memo.get(file) === true) return true;
    const source = fs.readFileSync(file, 'utf8');
    if (touchesDatabaseItself(root, file, source)) {
      memo.set(file, true);
      return true;
    }
    for (const match of source.matchAll(IMPORT)) {
      if (match[1]) continue;
      const imported = resolveImport(file, match[2] as string);
      // An import that resolves to nothing may be code generated at build time: count it as reaching.
      if (!imported) return true;
      pending.push(imported);
    }
  }
  return false;
}

/** The test files under test/ (vitest's include) that reach no database, relative to the project root. */
export function databaseFreeTestFiles(root = PROJECT_ROOT): string[] {
  const memo = new Map<string, boolean>();
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== 'ui' && entry.name !== 'node_modules') walk(full);
      } else if (entry.name.endsWith('.test.ts') && !reachesDatabase(full, root, memo)) {
        out.push(path.relative(root, full).split(path.sep).join('/'));
      }
    }
  };
  walk(path.join(root, 'test'));
  return out.sort();
}
