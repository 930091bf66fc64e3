import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { minimalPdf, tempDir } from '../helpers/temp.js';
import { apiFetch, assertBuilt, initDataDir, startServer, type RunAs, type ServerProcess } from '../helpers/process.js';
import { listTree, waitFor } from '../helpers/watched-folders.js';

// A file the server may not read (mode 000). Root reads every file whatever its mode, so when the tests run
// as root the server runs as `nobody` (uid/gid 65534) over a data directory and folder handed to that user:
// the permission check is then the kernel's, as on a workstation.

const NOBODY: RunAs = { uid: 65534, gid: 65534 };
const runAs = process.getuid?.() === 0 ? NOBODY : undefined;

function chownTree(dir: string, user: RunAs): void {
  fs.chownSync(dir, user.uid, user.gid);
  for (const entry of fs.readdirSync(dir, { recursive: true })) fs.chownSync(path.join(dir, String(entry)), user.uid, user.gid);
}

interface FileView {
  relative_path: string;
  state: string;
  error_step: string | null;
  error_message: string | null;
  document_id: string | null;
  disposed_path: string | null;
}

describe('an unreadable file in a watched folder', () => {
  let root: string;
  let dataDir: string;
  let inbox: string;
  let key: string;
  let server: ServerProcess | undefined;

  beforeAll(async () => {
    assertBuilt();
    root = tempDir('obscura-watch-perm-');
    fs.chmodSync(root, 0o755);
    dataDir = path.join(root, 'data');
    inbox = path.join(root, 'inbox');
    fs.mkdirSync(inbox);
    key = (await initDataDir(dataDir)).api_key;
    fs.writeFileSync(
      path.join(dataDir, 'config.json'),
      JSON.stringify({ watchedFolders: [{ name: 'perm', path: inbox, target: { mode: 'case_per_file' }, watch: { stability_ms: 150, rescan_interval_seconds: 0.5 } }] }),
    );
    if (runAs) {
      chownTree(dataDir, runAs);
      chownTree(inbox, runAs);
    }
    server = await startServer(dataDir, ['--no-rate-limits'], 20_000, runAs);
  });
  afterAll(async () => {
    await server?.stop('SIGKILL');
    fs.rmSync(root, { recursive: true, force: true });
  });

  it('goes to failed/ at step store with the permission error; the readable one beside it is taken', async () => {
    const locked = path.join(inbox, 'locked.pdf');
    fs.writeFileSync(locked, minimalPdf('Nobody may read this'));
    if (runAs) fs.chownSync(locked, runAs.uid, runAs.gid);
    fs.chmodSync(locked, 0o000);
    fs.writeFileSync(path.join(inbox, 'open.pdf'), minimalPdf('Readable'));

    const base = server?.url ?? '';
    // config.json's folders are applied before the server listens: listed by the first request, no waiting.
    const folderId = ((await apiFetch(base, key, 'GET', '/watched-folders')).json as { data?: { id: string }[] }).data?.[0]?.id;
    expect(folderId).toBeTruthy();
    const files = await waitFor(async () => {
      const listed = (await apiFetch(base, key, 'GET', `/watched-folders/${folderId}/files`)).json as { data: FileView[] };
      return listed.data.length === 2 && listed.data.every((file) => file.state === 'done' || file.state === 'failed') ? listed.data : undefined;
    }, 20_000, 'both files settled');
    const byName = new Map(files.map((file) => [file.relative_path, file]));
    expect(byName.get('open.pdf')?.state).toBe('done');
    expect(byName.get('locked.pdf')).toMatchObject({ state: 'failed', error_step: 'store', document_id: null, disposed_path: path.join(inbox, 'failed', 'locked.pdf') });
    expect(byName.get('locked.pdf')?.error_message).toMatch(/^cannot read the file: EACCES: permission denied/);
    expect(listTree(path.join(inbox, 'failed'))).toEqual(['locked.pdf', 'locked.pdf.error.txt']);
    expect(fs.readFileSync(path.join(inbox, 'failed', 'locked.pdf.error.txt'), 'utf8')).toContain('EACCES');
    // Still mode 000: it was moved, never opened.
    expect(fs.statSync(path.join(inbox, 'failed', 'locked.pdf')).mode & 0o777).toBe(0);
  });
});
