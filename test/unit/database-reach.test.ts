import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { databaseFreeTestFiles, reachesDatabase } from '../helpers/database-reach.js';
import { tempDir } from '../helpers/temp.js';

// The PostgreSQL run leaves out the files this says reach no database: a file wrongly called free would go
// untested on PostgreSQL, so the rule is checked on a planted tree and on files whose answer is known.

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const planted = tempDir('obscura-reach-');
afterAll(() => fs.rmSync(planted, { recursive: true, force: true }));

function plant(files: Record<string, string>): void {
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(planted, name)), { recursive: true });
    fs.writeFileSync(path.join(planted, name), text);
  }
}

describe('which test files reach a database', () => {
  plant({
    'main/db/connection.ts': 'export const open = 1;\n',
    'main/common/shape.ts': "export type Shape = { a: number };\n",
    'worker/pure.ts': "import { type Shape } from '../main/common/shape.js';\nexport const pure = (shape: Shape) => shape.a;\n",
    'test/helpers/uses-db.ts': "import { open } from '../../main/db/connection.js';\nexport const x = open;\n",
    'test/helpers/driver.ts': "import pg from 'pg';\nexport const y = pg;\n",
    'test/helpers/reexports.ts': "export { x } from './uses-db.js';\n",
    'test/helpers/spawns.ts': "const CLI = ['dist', 'main', 'cli', 'index.js'].join('/');\nexport const z = CLI;\n",
    'test/unit/free.test.ts': "import { pure } from '../../worker/pure.js';\nimport type { x } from '../helpers/uses-db.js';\nexport const f = pure;\n",
    'test/unit/direct.test.ts': "import { open } from '../../main/db/connection.js';\nexport const d = open;\n",
    'test/unit/through-helper.test.ts': "import {\n  x,\n} from '../helpers/uses-db.js';\nexport const h = x;\n",
    'test/unit/through-reexport.test.ts': "import { x } from '../helpers/reexports.js';\nexport const r = x;\n",
    'test/unit/driver.test.ts': "import { y } from '../helpers/driver.js';\nexport const v = y;\n",
    'test/unit/dynamic.test.ts': "export const later = () => import('../helpers/uses-db.js');\n",
    'test/unit/unresolved.test.ts': "import { gone } from '../helpers/missing.js';\nexport const g = gone;\n",
    'test/unit/child-server.test.ts': "import { z } from '../helpers/spawns.js';\nexport const c = z;\n",
    'test/unit/env.test.ts': "export const e = process.env.OBSCURA_TEST_DATABASE;\n",
  });

  it('follows imports, re-exports and dynamic imports to main/db, drivers, child servers and the test database switch', () => {
    for (const name of ['direct', 'through-helper', 'through-reexport', 'driver', 'dynamic', 'unresolved', 'child-server', 'env']) {
      expect(reachesDatabase(path.join(planted, `test/unit/${name}.test.ts`), planted), name).toBe(true);
    }
    // Type-only imports are erased: they reach nothing at run time.
    expect(reachesDatabase(path.join(planted, 'test/unit/free.test.ts'), planted)).toBe(false);
    expect(databaseFreeTestFiles(planted)).toEqual(['test/unit/free.test.ts']);
  });

  it('on this repository: every integration, security and end-to-end file reaches one; the burn-in units do not', () => {
    const free = new Set(databaseFreeTestFiles(ROOT));
    for (const dir of ['integration', 'security', 'e2e']) {
      for (const name of fs.readdirSync(path.join(ROOT, 'test', dir)).filter((entry) => entry.endsWith('.test.ts'))) expect(free.has(`test/${dir}/${name}`), `${dir}/${name}`).toBe(false);
    }
    for (const name of ['migrations', 'access-migration', 'intake-indexes']) expect(free.has(`test/unit/${name}.test.ts`), name).toBe(false);
    for (const name of ['burn-in-vector', 'release-adversarial-burn', 'detection']) expect(free.has(`test/unit/${name}.test.ts`), name).toBe(true);
  });
});
