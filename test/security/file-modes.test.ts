import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../main/config.js';
import { openRuntime, type Runtime } from '../../main/runtime.js';
import { createHttpServer, type ObscuraServer } from '../../main/http/server.js';
import { createOrganization } from '../../main/services/bootstrap.js';
import { systemClock } from '../../main/services/context.js';
import { secureDataDir } from '../../main/services/data-dir.js';
import { tempDir } from '../helpers/temp.js';

// Finding: when the data directory already existed, obscura.db, -wal and -shm were 0644 and blob folders
// 0755, readable by every local user; the database holds the session signing key.

const modeOf = (file: string) => fs.statSync(file).mode & 0o777;

describe.skipIf(process.platform === 'win32')('security: file modes of the data directory', () => {
  let runtime: Runtime | undefined;
  let server: ObscuraServer | undefined;
  const dirs: string[] = [];
  afterEach(async () => {
    await server?.close();
    await runtime?.close();
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('an existing world-readable data directory, database and blob tree are made owner-only at start; new blobs are 0600', async () => {
    const previousUmask = process.umask(0o022);
    try {
      const parent = tempDir('obscura-modes-');
      dirs.push(parent);
      const dataDir = path.join(parent, 'data');
      // As an earlier version (or a restored backup) left it.
      fs.mkdirSync(dataDir, { mode: 0o755 });
      fs.chmodSync(dataDir, 0o755);
      const old = new SQLite(path.join(dataDir, 'obscura.db'));
      old.pragma('journal_mode = WAL');
      old.exec('CREATE TABLE leftover (x)');
      old.close();
      const blobDir = path.join(dataDir, 'blobs', 'sha256', 'ab');
      fs.mkdirSync(blobDir, { recursive: true, mode: 0o755 });
      const oldBlob = path.join(blobDir, 'ab'.padEnd(64, '0'));
      fs.writeFileSync(oldBlob, 'old bytes', { mode: 0o644 });
      expect(modeOf(path.join(dataDir, 'obscura.db'))).toBe(0o644);

      runtime = await openRuntime(dataDir, loadConfig(dataDir, { port: 0, rateLimits: { enabled: false } }));
      const org = await createOrganization(runtime.db, systemClock, { name: 'Modes', adminUsername: 'modes-admin' });
      expect(modeOf(dataDir)).toBe(0o700);
      for (const file of ['obscura.db', 'obscura.db-wal', 'obscura.db-shm']) expect([file, modeOf(path.join(dataDir, file))]).toEqual([file, 0o600]);
      for (const dir of ['blobs', 'blobs/sha256', 'blobs/sha256/ab', 'blobs/tmp']) expect([dir, modeOf(path.join(dataDir, dir))]).toEqual([dir, 0o700]);
      // (That blob had no row, so the start-up sweep removed it.) A stray world-readable blob is tightened too.
      expect(fs.existsSync(oldBlob)).toBe(false);
      fs.writeFileSync(oldBlob, 'old bytes', { mode: 0o644 });
      secureDataDir(dataDir);
      expect(modeOf(oldBlob)).toBe(0o600);

      // A document uploaded now lands owner-only too.
      server = await createHttpServer(runtime);
      const base = await server.listen('127.0.0.1', 0);
      const headers = { 'x-api-key': org.api_key, 'content-type': 'application/json' };
      const made = await fetch(`${base}/api/v1/cases`, { method: 'POST', headers: { ...headers, 'idempotency-key': 'c1' }, body: JSON.stringify({ name: 'modes' }) });
      const caseId = ((await made.json()) as { data: { id: string } }).data.id;
      const bytes = Buffer.from('%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj 2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n');
      const session = await fetch(`${base}/api/v1/cases/${caseId}/upload-sessions`, { method: 'POST', headers: { ...headers, 'idempotency-key': 'u1' }, body: JSON.stringify({ files: [{ name: 'a.pdf', size: bytes.length }] }) });
      const upload = ((await session.json()) as { data: { id: string; files: { upload_url: string }[] } }).data;
      await fetch(upload.files[0]?.upload_url ?? '', { method: 'PUT', body: bytes, headers: { 'content-type': 'application/pdf' } });
      const done = await fetch(`${base}/api/v1/upload-sessions/${upload.id}/complete`, { method: 'POST', headers: { 'x-api-key': org.api_key, 'idempotency-key': 'u2' } });
      const sha = ((await done.json()) as { data: { documents: { sha256: string }[] } }).data.documents[0]?.sha256 ?? '';
      const blob = runtime.blobs.pathFor(sha);
      expect(modeOf(blob)).toBe(0o600);
      expect(modeOf(path.dirname(blob))).toBe(0o700);
    } finally {
      process.umask(previousUmask);
    }
  });
});
