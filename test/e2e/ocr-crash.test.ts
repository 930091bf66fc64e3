import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { OcrResult } from '../../main/common/schemas/ocr.js';
import { tempDir } from '../helpers/temp.js';
import { characterErrorRate, proseLines, scanImage, scannedPdf } from '../helpers/ocr-fixtures.js';
import { apiFetch, assertBuilt, initDataDir, startServer, type InitialCredentials, type ServerProcess } from '../helpers/process.js';
import { inspectDatabase } from '../helpers/inspect-db.js';

// SIGKILL of `obscura serve` in the middle of an OCR job: after the restart the job is queued again,
// reads only the pages it had not stored, and completes with every page stored exactly once.

const PAGES = 5;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const Data = z.object({ data: z.record(z.string(), z.unknown()) });

async function api<T extends z.ZodType>(base: string, key: string, method: string, url: string, schema: T, body?: unknown): Promise<z.output<T>> {
  const response = await apiFetch(base, key, method, url, body);
  if (response.status >= 300) throw new Error(`${method} ${url}: ${response.status} ${JSON.stringify(response.json)}`);
  return schema.parse(Data.parse(response.json).data);
}

describe('SIGKILL during an OCR job', () => {
  let root: string;
  let dataDir: string;
  let credentials: InitialCredentials;
  let server: ServerProcess | undefined;

  beforeAll(async () => {
    assertBuilt();
    root = tempDir('obscura-ocr-crash-');
    dataDir = path.join(root, 'data');
    credentials = await initDataDir(dataDir);
  });
  afterAll(async () => {
    await server?.stop('SIGKILL');
    fs.rmSync(root, { recursive: true, force: true });
  });

  it('resumes after a restart and stores pages 1..N exactly once', async () => {
    const images = Array.from({ length: PAGES }, (_, index) => scanImage({ widthPx: 2550, heightPx: 1100, lines: proseLines(100 + index, 7, 60) }));
    const { bytes, truth } = await scannedPdf(images.map((image) => ({ image })));
    const key = credentials.api_key;

    server = await startServer(dataDir, ['--no-rate-limits']);
    const base = server.url;
    // This test runs its own OCR job; automatic processing (on by default) would run another on the upload.
    await api(base, key, 'PATCH', '/processing-settings', z.object({ auto_process: z.boolean() }), { auto_process: false });
    const created = await api(base, key, 'POST', '/cases', z.object({ id: z.string() }), { name: 'OCR crash' });
    const session = await api(base, key, 'POST', `/cases/${created.id}/upload-sessions`, z.object({ id: z.string(), files: z.array(z.object({ upload_url: z.string() })) }), {
      files: [{ name: 'scan.pdf', size: bytes.length }],
    });
    const put = await fetch(session.files[0]?.upload_url ?? '', { method: 'PUT', body: bytes, headers: { 'content-type': 'application/octet-stream' } });
    expect(put.status).toBe(200);
    const completed = await api(base, key, 'POST', `/upload-sessions/${session.id}/complete`, z.object({ documents: z.array(z.object({ id: z.string() })) }));
    const documentId = completed.documents[0]?.id ?? '';
    const job = await api(base, key, 'POST', `/documents/${documentId}/ocr-jobs`, z.object({ id: z.string(), status: z.string() }));

    // Kill as soon as the first page is committed, while the others are being recognised.
    const database = await inspectDatabase(dataDir);
    const count = async () => (await database.all<{ n: number }>('SELECT count(*) AS n FROM document_pages WHERE job_id = ?', Number(job.id)))[0]?.n ?? 0;
    const deadline = Date.now() + 120_000;
    while ((await count()) === 0) {
      if (Date.now() > deadline) throw new Error('no page was stored in time');
      await sleep(20);
    }
    server.child.kill('SIGKILL');
    expect((await server.exited).signal).toBe('SIGKILL');
    const storedBeforeKill = await count();
    expect(storedBeforeKill).toBeGreaterThan(0);
    expect(storedBeforeKill).toBeLessThan(PAGES);

    server = await startServer(dataDir, ['--no-rate-limits']);
    const JobBody = z.object({ status: z.string(), attempts: z.number(), error_message: z.string().nullable(), result: z.unknown() });
    let finished = await api(server.url, key, 'GET', `/jobs/${job.id}`, JobBody);
    while (finished.status !== 'completed' && finished.status !== 'failed') {
      if (Date.now() > deadline + 120_000) throw new Error(`job still ${finished.status}`);
      await sleep(100);
      finished = await api(server.url, key, 'GET', `/jobs/${job.id}`, JobBody);
    }
    expect(finished.status, finished.error_message ?? '').toBe('completed');
    expect(finished.attempts).toBe(2);
    const result = finished.result as OcrResult;
    expect(result.pages.map((page) => page.page_number)).toEqual([1, 2, 3, 4, 5]);
    expect(result.pages.filter((page) => page.resumed)).toHaveLength(storedBeforeKill);
    expect(result.pages.every((page) => page.source === 'ocr')).toBe(true);

    // Exactly one row and one store record per page, all from this job.
    const rows = await database.all('SELECT page_number, job_id FROM document_pages WHERE document_id = ? ORDER BY page_number', Number(documentId));
    expect(rows).toEqual(Array.from({ length: PAGES }, (_, index) => ({ page_number: index + 1, job_id: Number(job.id) })));
    const stores = (await database.all<{ details: string }>("SELECT details FROM audit_log WHERE action = 'document_page.store' AND resource_id = ?", documentId)).map(
      (row) => (JSON.parse(row.details) as { page_number: number }).page_number,
    );
    expect(stores.sort((a, b) => a - b)).toEqual(Array.from({ length: PAGES }, (_, index) => index + 1));
    await database.close();

    // And the application API serves them.
    const login = await fetch(`${server.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: credentials.admin_username, password: credentials.admin_password }),
    });
    const token = z.object({ token: z.string() }).parse(await login.json()).token;
    const text = await fetch(`${server.url}/ocr/text?doc_id=${documentId}`, { headers: { authorization: `Bearer ${token}` } });
    expect(text.status).toBe(200);
    const pages = z.object({ pages: z.array(z.object({ page_number: z.number(), text: z.string() })) }).parse(await text.json()).pages;
    expect(pages.map((page) => page.page_number)).toEqual([1, 2, 3, 4, 5]);
    pages.forEach((page, index) => expect(characterErrorRate(truth[index]?.text ?? '', page.text), page.text).toBeLessThan(0.05));

    expect(await server.stop()).toEqual({ code: 0, signal: null });
    server = undefined;
  }, 300_000);
});
