import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { issueApiKey } from '../../main/services/api-keys.js';
import { mayDeleteSource } from '../../main/services/watched-folders.js';
import { insertServiceAccount } from '../../main/db/queries/service-accounts.js';
import type { Scope } from '../../main/common/scopes.js';
import { startInstance, type TestInstance } from '../helpers/instance.js';
import { minimalPdf, tempDir } from '../helpers/temp.js';
import { detailFields, errorOf, orgId } from '../helpers/integration-support.js';
import { createFolder, FAST_WATCH, settled, startWatchHarness, watching, type WatchHarness } from '../helpers/watched-folders.js';

// Finding (HIGH): any key with documents:write could watch /etc or any path, write release files anywhere
// and, with disposition delete, delete the files there; allowedRoots was unrestricted by default.

const body = (dir: string, extra: Record<string, unknown> = {}) => ({ name: `f-${path.basename(dir)}`, path: dir, target: { mode: 'case_per_file' }, watch: FAST_WATCH, ...extra });

describe('security: watched folders, default configuration', () => {
  let instance: TestInstance;
  let dir: string;
  beforeAll(async () => {
    instance = await startInstance({ organizations: 1, config: { rateLimits: { enabled: false } } });
    dir = tempDir('obscura-sec-default-');
  });
  afterAll(async () => {
    await instance.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it.each(['/etc', '/var/log'])('with no allowed roots configured, even an administrator cannot watch %s (or anything) through the API', async (target) => {
    const error = errorOf(await instance.request({ method: 'POST', url: '/api/v1/watched-folders', body: body(target) }), 400, 'validation_error');
    expect(detailFields(error)).toContain('path');
    expect(JSON.stringify(error.details)).toMatch(/allowedRoots/);
  });

  it('nor a fresh temporary folder; the database holds no folder afterwards', async () => {
    errorOf(await instance.request({ method: 'POST', url: '/api/v1/watched-folders', body: body(dir, { disposition: 'delete' }) }), 400, 'validation_error');
    expect(await instance.runtime.db.selectFrom('watched_folders').selectAll().execute()).toEqual([]);
  });
});

describe('security: watched folders under allowed roots', () => {
  let h: WatchHarness;
  let root: string;
  let outside: string;

  beforeAll(async () => {
    root = fs.realpathSync(tempDir('obscura-sec-root-'));
    outside = fs.realpathSync(tempDir('obscura-sec-outside-'));
    h = await startWatchHarness({ watchedFolderOptions: { allowedRoots: [root] } });
  });
  afterEach(async () => {
    for (const row of await h.instance.runtime.db.selectFrom('watched_folders').select('id').where('deleted_at', 'is', null).execute()) {
      await h.instance.request({ method: 'DELETE', url: `/api/v1/watched-folders/${row.id}` });
    }
  });
  afterAll(async () => {
    await h.close();
    fs.rmSync(root, { recursive: true, force: true });
    fs.rmSync(outside, { recursive: true, force: true });
  });

  async function keyWith(scopes: Scope[]): Promise<string> {
    const db = h.instance.runtime.db;
    const now = new Date().toISOString();
    const accountId = await insertServiceAccount(db, { organization_id: orgId(h.instance), name: `sa-${scopes.join('-')}-${Date.now()}`, description: '', max_scopes: JSON.stringify(scopes), active: 1, created_at: now, updated_at: now });
    return (await issueApiKey(db, { organizationId: orgId(h.instance), serviceAccountId: accountId, name: 'k', scopes, expiresAt: null, now })).plaintext;
  }

  it('a key with documents:write but no administrative scope cannot create, change or delete a folder', async () => {
    const dir = fs.mkdtempSync(path.join(root, 'writer-'));
    const writer = await keyWith(['documents:write', 'documents:read']);
    const denied = errorOf(await h.instance.request({ method: 'POST', url: '/api/v1/watched-folders', key: writer, body: body(dir) }), 403, 'permission_denied');
    expect(denied.details).toEqual({ required_scopes: ['documents:write', 'credentials:write'] });
    const folder = await createFolder(h.instance, body(dir));
    errorOf(await h.instance.request({ method: 'PATCH', url: `/api/v1/watched-folders/${folder.id}`, key: writer, body: { disposition: 'delete' } }), 403, 'permission_denied');
    expect((await h.instance.request({ method: 'DELETE', url: `/api/v1/watched-folders/${folder.id}`, key: writer })).statusCode).toBe(403);
    // Reading stays with documents:read.
    expect((await h.instance.request({ method: 'GET', url: `/api/v1/watched-folders/${folder.id}`, key: writer })).statusCode).toBe(200);
  });

  it('paths outside the roots are refused, and a symlink inside a root that leads outside is resolved first (folder and output)', async () => {
    errorOf(await h.instance.request({ method: 'POST', url: '/api/v1/watched-folders', body: body(outside) }), 400, 'validation_error');
    const link = path.join(root, 'link-out');
    fs.symlinkSync(outside, link);
    const viaLink = errorOf(await h.instance.request({ method: 'POST', url: '/api/v1/watched-folders', body: body(link) }), 400, 'validation_error');
    expect(detailFields(viaLink)).toContain('path');
    const dir = fs.mkdtempSync(path.join(root, 'out-'));
    const output = errorOf(
      await h.instance.request({ method: 'POST', url: '/api/v1/watched-folders', body: body(dir, { pipeline: { scan: { enabled: false }, export: { format: 'pdf', output_path: path.join(link, 'releases') } } }) }),
      400,
      'validation_error',
    );
    expect(detailFields(output)).toEqual(['pipeline.export.output_path']);
    errorOf(
      await h.instance.request({ method: 'POST', url: '/api/v1/watched-folders', body: body(dir, { pipeline: { scan: { enabled: false }, export: { format: 'pdf', output_path: '/etc/obscura-releases' } } }) }),
      400,
      'validation_error',
    );
  });

  it('disposition delete: the runner deletes only files whose real path stays inside the folder and an allowed root', async () => {
    const dir = fs.mkdtempSync(path.join(root, 'del-'));
    const folder = await createFolder(h.instance, body(dir, { disposition: 'delete', pipeline: { scan: { enabled: false } } }));
    await watching(h.instance, folder.id);
    fs.writeFileSync(path.join(dir, 'own.pdf'), minimalPdf('mine to delete'));
    await settled(h.instance, folder.id, 1);
    expect(fs.existsSync(path.join(dir, 'own.pdf'))).toBe(false);

    const options = h.instance.runtime.config.watchedFolderOptions;
    const victimDir = fs.mkdtempSync(path.join(outside, 'victim-'));
    const victim = path.join(victimDir, 'precious.pdf');
    fs.writeFileSync(victim, 'precious');
    fs.writeFileSync(path.join(dir, 'mine.pdf'), 'mine');
    // A sub-folder link that leads out of the folder.
    fs.symlinkSync(victimDir, path.join(dir, 'linked'));
    expect(mayDeleteSource(path.join(dir, 'mine.pdf'), dir, 'api', options)).toBe(true);
    expect(mayDeleteSource(path.join(dir, 'linked', 'precious.pdf'), dir, 'api', options)).toBe(false);
    expect(mayDeleteSource(path.join(dir, 'linked', 'precious.pdf'), dir, 'config', options)).toBe(false);
    // The folder itself swapped for a link to elsewhere after it was saved.
    const swapped = path.join(root, 'swapped');
    fs.symlinkSync(victimDir, swapped);
    expect(mayDeleteSource(path.join(swapped, 'precious.pdf'), swapped, 'api', options)).toBe(false);
    expect(fs.existsSync(victim)).toBe(true);
  }, 40_000);
});
