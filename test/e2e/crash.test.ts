import { createHash } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { minimalPdf, tempDir } from '../helpers/temp.js';
import { apiFetch, assertBuilt, initDataDir, startServer, type ServerProcess } from '../helpers/process.js';
import { inspectDatabase } from '../helpers/inspect-db.js';

// SIGKILL leaves no chance to clean up: whatever the server promised (2xx) must survive, and whatever it
// was in the middle of must leave no trace that contradicts the database.

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A real PDF padded to `size` bytes with a PDF comment, so its type is detected and its hash is unique. */
function paddedPdf(size: number, label: string): Buffer {
  const head = minimalPdf(label);
  return Buffer.concat([head, Buffer.from('%'), Buffer.alloc(Math.max(0, size - head.length - 2), 0x61), Buffer.from('\n')]);
}

interface UploadSession {
  id: string;
  files: { upload_url: string }[];
  documents: { id: string; sha256: string }[];
}

/** What a request answered, or null when the connection died. */
async function call<T>(base: string, key: string, method: string, urlPath: string, body?: unknown): Promise<{ status: number; data: T } | null> {
  try {
    const response = await apiFetch(base, key, method, urlPath, body);
    return { status: response.status, data: (response.json as { data: T }).data };
  } catch {
    return null;
  }
}

async function put(url: string, bytes: Buffer): Promise<number | null> {
  try {
    const response = await fetch(url, { method: 'PUT', body: bytes, headers: { 'content-type': 'application/octet-stream' } });
    await response.arrayBuffer();
    return response.status;
  } catch {
    return null;
  }
}

/** Streams `bytes` slowly in chunks; resolves with the status, or null when the server went away. */
function slowPut(url: string, bytes: Buffer, chunkSize: number, delayMs: number): Promise<number | null> {
  return new Promise((resolve) => {
    const request = http.request(url, { method: 'PUT', headers: { 'content-type': 'application/pdf', 'content-length': String(bytes.length) } }, (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode ?? null));
    });
    request.on('error', () => resolve(null));
    void (async () => {
      for (let offset = 0; offset < bytes.length && !request.destroyed; offset += chunkSize) {
        request.write(bytes.subarray(offset, offset + chunkSize));
        await sleep(delayMs);
      }
      if (!request.destroyed) request.end();
    })();
  });
}

async function waitFor(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await sleep(20);
  }
}

interface Promised {
  cases: string[];
  documents: { id: string; sha256: string }[];
}

/** Everything that must hold for a data directory after a crash and a restart. */
async function checkDataDir(dataDir: string, promised: Promised): Promise<void> {
  const db = await inspectDatabase(dataDir);
  try {
    expect(await db.integrityProblems()).toEqual([]);
    const blobPath = (hash: string) => path.join(dataDir, 'blobs', 'sha256', hash.slice(0, 2), hash);

    const documents = await db.all<{ id: number; sha256: string; size: number }>('SELECT id, sha256, size FROM documents');
    for (const document of documents) {
      const file = blobPath(document.sha256);
      expect(fs.existsSync(file), `blob of document ${document.id}`).toBe(true);
      const bytes = fs.readFileSync(file);
      expect(bytes.length).toBe(document.size);
      expect(sha256(bytes)).toBe(document.sha256);
    }

    const received = await db.all<{ id: number; sha256: string | null }>('SELECT id, sha256 FROM upload_files WHERE uploaded_at IS NOT NULL');
    const blobRows = new Set((await db.all<{ sha256: string }>('SELECT sha256 FROM blobs')).map((row) => row.sha256));
    for (const file of received) {
      expect(file.sha256, `upload file ${file.id}`).not.toBeNull();
      expect(blobRows.has(file.sha256 ?? '')).toBe(true);
      expect(fs.existsSync(blobPath(file.sha256 ?? ''))).toBe(true);
    }
    // Every blob on disk has its row (orphans are swept at start) and every blob row its file.
    for (const hash of blobRows) expect(fs.existsSync(blobPath(hash)), `blob ${hash}`).toBe(true);
    const blobRoot = path.join(dataDir, 'blobs', 'sha256');
    const onDisk = fs.readdirSync(blobRoot).flatMap((prefix) => fs.readdirSync(path.join(blobRoot, prefix)));
    for (const hash of onDisk) expect(blobRows.has(hash), `file ${hash} has a blobs row`).toBe(true);

    expect(fs.readdirSync(path.join(dataDir, 'blobs', 'tmp'))).toEqual([]);
    expect(await db.all("SELECT count(*) AS n FROM idempotency_keys WHERE state = 'running'")).toEqual([{ n: 0 }]);

    const caseIds = new Set((await db.all<{ id: number }>('SELECT id FROM cases')).map((row) => String(row.id)));
    for (const id of promised.cases) expect(caseIds.has(id), `case ${id} was answered 2xx`).toBe(true);
    const documentHashes = new Map(documents.map((row) => [String(row.id), row.sha256]));
    for (const document of promised.documents) expect(documentHashes.get(document.id), `document ${document.id} was answered 2xx`).toBe(document.sha256);
    // Completed sessions have one document per file; no session is half completed.
    const halfDone = await db.all("SELECT s.id FROM upload_sessions s JOIN upload_files f ON f.upload_session_id = s.id WHERE s.status = 'completed' AND f.document_id IS NULL");
    expect(halfDone).toEqual([]);
  } finally {
    await db.close();
  }
}

describe('SIGKILL and restart', () => {
  let root: string;
  let dataDir: string;
  let key: string;
  let server: ServerProcess | undefined;

  beforeAll(async () => {
    assertBuilt();
    root = tempDir('obscura-crash-');
    dataDir = path.join(root, 'data');
    key = (await initDataDir(dataDir)).api_key;
  });
  afterAll(async () => {
    await server?.stop('SIGKILL');
    fs.rmSync(root, { recursive: true, force: true });
  });

  async function restart(): Promise<ServerProcess> {
    if (server) {
      server.child.kill('SIGKILL');
      expect((await server.exited).signal).toBe('SIGKILL');
    }
    server = await startServer(dataDir, ['--no-rate-limits']);
    return server;
  }

  it('during an upload: the partial file is discarded and the same URL then takes the upload', async () => {
    const running = await restart();
    const promised: Promised = { cases: [], documents: [] };
    const pdf = paddedPdf(2 * 1024 * 1024, 'killed mid-upload');
    const created = await call<{ id: string }>(running.url, key, 'POST', '/cases', { name: 'Upload crash' });
    expect(created?.status).toBe(201);
    promised.cases.push(created?.data.id ?? '');
    const session = await call<UploadSession>(running.url, key, 'POST', `/cases/${created?.data.id ?? ''}/upload-sessions`, {
      files: [{ name: 'big.pdf', size: pdf.length }],
    });
    expect(session?.status).toBe(201);
    const uploadUrl = session?.data.files[0]?.upload_url ?? '';

    const tmp = path.join(dataDir, 'blobs', 'tmp');
    const upload = slowPut(uploadUrl, pdf, 64 * 1024, 30);
    // Kill once the server is demonstrably part-way through writing the file.
    await waitFor(() => fs.readdirSync(tmp).some((name) => fs.statSync(path.join(tmp, name)).size >= 128 * 1024));
    const restarted = await restart();
    expect(await upload).toBeNull();
    await checkDataDir(dataDir, promised);

    const sessionAfter = await call<{ files: { status: string }[] }>(restarted.url, key, 'POST', `/upload-sessions/${session?.data.id ?? ''}/complete`);
    expect(sessionAfter?.status).toBe(409); // the file never arrived
    expect(await put(new URL(new URL(uploadUrl).pathname, restarted.url).toString(), pdf)).toBe(200);
    const completed = await call<UploadSession>(restarted.url, key, 'POST', `/upload-sessions/${session?.data.id ?? ''}/complete`);
    expect(completed?.status).toBe(200);
    expect(completed?.data.documents.map((document) => document.sha256)).toEqual([sha256(pdf)]);
    promised.documents.push(...(completed?.data.documents ?? []));
    await checkDataDir(dataDir, promised);
  });

  it('during a burst of concurrent writes: every answered change survives and nothing is half made', async () => {
    const running = await restart();
    const promised: Promised = { cases: [], documents: [] };
    let failures = 0;

    /** One client: create a case, open a session, upload two files, complete. Stops at the first failure. */
    const client = async (index: number) => {
      const created = await call<{ id: string }>(running.url, key, 'POST', '/cases', { name: `Burst ${index}` });
      if (created?.status !== 201) return void (failures += 1);
      promised.cases.push(created.data.id);
      const files = [paddedPdf(96 * 1024, `burst ${index} a`), paddedPdf(160 * 1024, `burst ${index} b`)];
      const session = await call<UploadSession>(running.url, key, 'POST', `/cases/${created.data.id}/upload-sessions`, {
        files: files.map((bytes, position) => ({ name: `f${position}.pdf`, size: bytes.length })),
      });
      if (session?.status !== 201) return void (failures += 1);
      const statuses = await Promise.all(session.data.files.map((file, position) => put(file.upload_url, files[position] ?? Buffer.alloc(0))));
      if (statuses.some((status) => status !== 200)) return void (failures += 1);
      const completed = await call<UploadSession>(running.url, key, 'POST', `/upload-sessions/${session.data.id}/complete`);
      if (completed?.status !== 200) return void (failures += 1);
      promised.documents.push(...completed.data.documents);
    };

    const clients = Array.from({ length: 40 }, (_, index) => client(index));
    await waitFor(() => promised.documents.length >= 4, 45_000);
    running.child.kill('SIGKILL');
    await Promise.all(clients);
    expect(failures, 'the kill should interrupt some clients').toBeGreaterThan(0);
    expect(promised.cases.length).toBeGreaterThan(0);

    await restart();
    await checkDataDir(dataDir, promised);

    // The restarted server serves what was promised, bytes intact.
    const base = server?.url ?? '';
    for (const document of promised.documents.slice(0, 3)) {
      const link = await call<{ url: string }>(base, key, 'GET', `/documents/${document.id}/download-url`);
      const bytes = Buffer.from(await (await fetch(link?.data.url ?? '')).arrayBuffer());
      expect(sha256(bytes)).toBe(document.sha256);
    }
    expect(await server?.stop()).toEqual({ code: 0, signal: null });
    server = undefined;
  }, 120_000);
});
