import { createHash } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { minimalPdf, tempDir } from '../helpers/temp.js';
import { apiFetch, assertBuilt, initDataDir, runCli, startServer, type InitialCredentials, type ServerProcess } from '../helpers/process.js';
import { inspectDatabase } from '../helpers/inspect-db.js';
import { onPostgres } from '../helpers/test-database.js';

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** Every file under a directory with its content hash and modification time. */
function snapshot(dir: string): Record<string, { sha256: string; mtimeMs: number; mode: number }> {
  const result: Record<string, { sha256: string; mtimeMs: number; mode: number }> = {};
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    const stat = fs.statSync(file);
    result[path.relative(dir, file)] = { sha256: sha256(fs.readFileSync(file)), mtimeMs: stat.mtimeMs, mode: stat.mode };
  }
  return result;
}

async function integrityProblems(dataDir: string): Promise<unknown[]> {
  const inspector = await inspectDatabase(dataDir);
  try {
    return await inspector.integrityProblems();
  } finally {
    await inspector.close();
  }
}

interface Envelope<T> {
  data: T;
  request_id: string;
}
interface UploadSession {
  id: string;
  files: { upload_url: string }[];
  documents: { id: string; sha256: string; size: number; document_type: string }[];
}

function dataOf<T>(response: { status: number; json: unknown }, status: number): T {
  expect(response.status, JSON.stringify(response.json)).toBe(status);
  return (response.json as Envelope<T>).data;
}

/** PUTs the body in two halves, calling `between` after the first half has been sent. */
function putInTwoHalves(url: string, bytes: Buffer, between: () => Promise<void>): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = http.request(url, { method: 'PUT', headers: { 'content-type': 'application/pdf', 'content-length': String(bytes.length) } }, (response) => {
      let body = '';
      response.setEncoding('utf8').on('data', (text: string) => (body += text));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
    request.on('error', reject);
    const half = Math.floor(bytes.length / 2);
    request.write(bytes.subarray(0, half), () => {
      between().then(() => request.end(bytes.subarray(half)), reject);
    });
  });
}

describe('obscura init and serve, end to end', () => {
  let dataDir: string;
  let credentials: InitialCredentials;
  let server: ServerProcess | undefined;

  beforeAll(async () => {
    assertBuilt();
    dataDir = path.join(tempDir('obscura-e2e-'), 'data');
    credentials = await initDataDir(dataDir);
  });
  afterAll(async () => {
    await server?.stop('SIGKILL');
    fs.rmSync(path.dirname(dataDir), { recursive: true, force: true });
  });

  it('init prints one JSON object with the credentials and keeps a 0600 copy', () => {
    expect(Object.keys(credentials).sort()).toEqual(['admin_password', 'admin_username', 'api_key', 'organization_id']);
    expect(credentials.api_key).toMatch(/^obs_[0-9a-f]{12}_[A-Za-z0-9_-]{43}$/);
    expect(credentials.admin_password.length).toBeGreaterThanOrEqual(12);
    const file = path.join(dataDir, 'initial-credentials.json');
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toEqual(credentials);
    if (process.platform !== 'win32') expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    // On PostgreSQL the database is the server's; the directory keeps blobs and config only.
    expect(fs.existsSync(path.join(dataDir, 'obscura.db'))).toBe(!onPostgres());
  });

  it('a second init fails with a clear message and changes nothing', async () => {
    const before = snapshot(dataDir);
    const again = await runCli(['init', '--data-dir', dataDir, '--json']);
    expect(again.code).toBe(1);
    expect(again.stdout).toBe('');
    expect(again.stderr).toContain('already initialised');
    expect(again.stderr).toContain(dataDir);
    expect(snapshot(dataDir)).toEqual(before);
  });

  it('serve prints its listening line on a free port picked by --port 0', async () => {
    server = await startServer(dataDir);
    const url = new URL(server.url);
    expect(url.hostname).toBe('127.0.0.1');
    expect(Number(url.port)).toBeGreaterThan(0);
    expect(server.output().stdout.trim().split('\n')).toContain(`listening on ${server.url}`);
    // Another server at the same time gets another free port.
    const otherDir = path.join(path.dirname(dataDir), 'other');
    const other = await startServer(otherDir);
    try {
      expect(new URL(other.url).port).not.toBe(url.port);
      expect(other.output().stdout).toContain('First run');
    } finally {
      expect(await other.stop()).toEqual({ code: 0, signal: null });
    }
  });

  it('uploads real PDF bytes through upload_url, completes, downloads, and the SHA-256 matches', async () => {
    if (!server) throw new Error('server not started');
    const base = server.url;
    const key = credentials.api_key;
    const pdf = Buffer.concat([minimalPdf('End to end'), Buffer.from(`% padding ${'x'.repeat(50_000)}\n`)]);

    const created = dataOf<{ id: string }>(await apiFetch(base, key, 'POST', '/cases', { name: 'E2E request 2026-1' }), 201);
    const session = dataOf<UploadSession>(
      await apiFetch(base, key, 'POST', `/cases/${created.id}/upload-sessions`, { files: [{ name: 'letter.pdf', size: pdf.length }] }),
      201,
    );
    const uploadUrl = session.files[0]?.upload_url ?? '';
    expect(uploadUrl.startsWith(`${base}/files/uploads/`)).toBe(true);

    const put = await fetch(uploadUrl, { method: 'PUT', body: pdf, headers: { 'content-type': 'application/octet-stream' } });
    expect(put.status, await put.clone().text()).toBe(200);
    await put.arrayBuffer();

    const completed = dataOf<UploadSession>(await apiFetch(base, key, 'POST', `/upload-sessions/${session.id}/complete`), 200);
    expect(completed.documents).toHaveLength(1);
    const document = completed.documents[0];
    expect(document).toMatchObject({ sha256: sha256(pdf), size: pdf.length, document_type: 'pdf' });

    const { url } = dataOf<{ url: string }>(await apiFetch(base, key, 'GET', `/documents/${document?.id ?? ''}/download-url`), 200);
    const download = await fetch(url);
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toBe('application/pdf');
    const downloaded = Buffer.from(await download.arrayBuffer());
    expect(sha256(downloaded)).toBe(sha256(pdf));
    expect(downloaded.equals(pdf)).toBe(true);
  });

  it('on SIGTERM finishes the request in flight, exits 0, and leaves an intact database', async () => {
    if (!server) throw new Error('server not started');
    const running = server;
    const pdf = minimalPdf('In flight');
    const created = dataOf<{ id: string }>(await apiFetch(running.url, credentials.api_key, 'POST', '/cases', { name: 'Last one' }), 201);
    const session = dataOf<UploadSession>(
      await apiFetch(running.url, credentials.api_key, 'POST', `/cases/${created.id}/upload-sessions`, { files: [{ name: 'late.pdf', size: pdf.length }] }),
      201,
    );
    const put = await putInTwoHalves(session.files[0]?.upload_url ?? '', pdf, async () => {
      await new Promise((resolve) => setTimeout(resolve, 100));
      running.child.kill('SIGTERM');
      await new Promise((resolve) => setTimeout(resolve, 200));
    });
    expect(put.status, put.body).toBe(200);
    const answeredAt = Date.now();
    expect(await running.exited).toEqual({ code: 0, signal: null });
    // Shutdown does not wait for the client to drop its keep-alive connection.
    expect(Date.now() - answeredAt).toBeLessThan(2000);
    server = undefined;
    expect(running.output().stderr).toBe('');
    expect(await integrityProblems(dataDir)).toEqual([]);
    // On SQLite the WAL was checkpointed into the file at shutdown.
    expect(fs.existsSync(path.join(dataDir, 'obscura.db-wal')) ? fs.statSync(path.join(dataDir, 'obscura.db-wal')).size : 0).toBe(0);
  });
});
