import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Scope } from '../../main/common/scopes.js';
import { insertServiceAccount } from '../../main/db/queries/service-accounts.js';
import { issueApiKey } from '../../main/services/api-keys.js';
import { minimalPdf, tempDir } from '../helpers/temp.js';
import { errorOf, orgId } from '../helpers/integration-support.js';
import { createFolder, FAST_WATCH, settled, startWatchHarness, watching, type WatchHarness } from '../helpers/watched-folders.js';

// Finding (issue 26, 3): a key with documents:write + credentials:write saved a folder with auto_accept and an
// export step, and dropped files left as releases of an unreviewed case (safeguards: not_checked). A folder's
// steps now need the scopes they use, from whoever saved it, when it is saved and when a file runs.

describe('security: watched-folder steps need their scopes', () => {
  let h: WatchHarness;
  let root: string;

  beforeAll(async () => {
    root = fs.realpathSync(tempDir('obscura-sec-scopes-'));
    h = await startWatchHarness({ watchedFolderOptions: { allowedRoots: [root] } });
  });
  afterAll(async () => {
    await h.close();
    fs.rmSync(root, { recursive: true, force: true });
  });

  async function keyWith(scopes: Scope[]): Promise<{ id: number; key: string }> {
    const db = h.instance.runtime.db;
    const now = new Date().toISOString();
    const accountId = await insertServiceAccount(db, { organization_id: orgId(h.instance), name: `sa-${scopes.length}-${Date.now()}-${Math.random()}`, description: '', max_scopes: JSON.stringify(scopes), active: 1, created_at: now, updated_at: now });
    const issued = await issueApiKey(db, { organizationId: orgId(h.instance), serviceAccountId: accountId, name: 'k', scopes, expiresAt: null, now });
    return { id: issued.id, key: issued.plaintext };
  }

  const releaseFolder = (dir: string, format = 'zip') => ({
    name: `f-${path.basename(dir)}`,
    path: dir,
    target: { mode: 'case_per_file' },
    watch: FAST_WATCH,
    pipeline: { scan: { enabled: false }, ocr: {}, detection: {}, auto_accept: { kinds: ['ssn'] }, export: { format, output_path: path.join(dir, '..', `${path.basename(dir)}-out`) } },
  });

  it('documents:write + credentials:write alone cannot save auto_accept or export steps; nothing is stored', async () => {
    const admin = await keyWith(['documents:write', 'documents:read', 'credentials:write']);
    const dir = fs.mkdtempSync(path.join(root, 'plain-'));
    const denied = errorOf(await h.instance.request({ method: 'POST', url: '/api/v1/watched-folders', key: admin.key, body: releaseFolder(dir) }), 403, 'permission_denied');
    expect(denied.details).toEqual({ required_scopes: ['redactions:write', 'exports:write', 'exports:override'] });
    expect(await h.instance.runtime.db.selectFrom('watched_folders').selectAll().where('path', '=', dir).execute()).toEqual([]);
    // exports:write without exports:override may set up an internal record, never a release.
    const writer = await keyWith(['documents:write', 'documents:read', 'credentials:write', 'redactions:write', 'exports:write']);
    const release = errorOf(await h.instance.request({ method: 'POST', url: '/api/v1/watched-folders', key: writer.key, body: releaseFolder(dir) }), 403, 'permission_denied');
    expect(release.details).toEqual({ required_scopes: ['exports:override'] });
    const internal = await h.instance.request({ method: 'POST', url: '/api/v1/watched-folders', key: writer.key, body: releaseFolder(dir, 'csv') });
    expect(internal.statusCode, internal.body).toBe(201);
    // Changing a folder hands it to whoever saves it: the same check.
    const folder = await createFolder(h.instance, releaseFolder(fs.mkdtempSync(path.join(root, 'byadmin-'))));
    errorOf(await h.instance.request({ method: 'PATCH', url: `/api/v1/watched-folders/${folder.id}`, key: admin.key, body: { name: 'renamed' } }), 403, 'permission_denied');
  });

  it('a folder whose saver lost the scopes stops at the export step when a file runs: nothing is written out', async () => {
    const saver = await keyWith(['documents:write', 'documents:read', 'credentials:write', 'redactions:write', 'exports:write', 'exports:override']);
    const dir = fs.mkdtempSync(path.join(root, 'revoked-'));
    const body = { ...releaseFolder(dir), pipeline: { scan: { enabled: false }, export: { format: 'zip', output_path: path.join(root, 'revoked-out') } } };
    const folder = await createFolder(h.instance, body, saver.key);
    await watching(h.instance, folder.id);
    expect((await h.instance.request({ method: 'POST', url: `/api/v1/api-keys/${saver.id}/revoke` })).statusCode).toBe(200);
    fs.writeFileSync(path.join(dir, 'dropped.pdf'), minimalPdf('unreviewed release'));
    const [file] = await settled(h.instance, folder.id, 1, 40_000);
    expect(file?.state).toBe('failed');
    expect(file?.error_message).toMatch(/exports:write, exports:override/);
    expect(fs.existsSync(path.join(root, 'revoked-out')) ? fs.readdirSync(path.join(root, 'revoked-out')) : []).toEqual([]);
    expect(await h.instance.runtime.db.selectFrom('exports').selectAll().execute()).toEqual([]);
  }, 60_000);
});
