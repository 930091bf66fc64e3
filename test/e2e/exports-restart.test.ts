import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Export } from '../../main/common/schemas/exports.js';
import { textPagesPdf } from '../helpers/export-fixtures.js';
import { pdftotext } from '../helpers/pdf-tools.js';
import { tempDir } from '../helpers/temp.js';
import { apiFetch, assertBuilt, initDataDir, startServer, type ServerProcess } from '../helpers/process.js';

// A real `obscura serve` killed with SIGKILL in the middle of an export: after the restart the export runs
// again and completes, or, past exports.maxAttempts, fails cleanly. None stays processing.

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function call(base: string, key: string, method: string, urlPath: string, body?: unknown) {
  const response = await apiFetch(base, key, method, urlPath, body);
  return { status: response.status, data: (response.json as { data: unknown } | null)?.data };
}

async function exportOf(base: string, key: string, id: string): Promise<Export> {
  const response = await call(base, key, 'GET', `/exports/${id}`);
  expect(response.status).toBe(200);
  return Export.parse(response.data);
}

async function waitFor(base: string, key: string, id: string, done: (current: Export) => boolean, timeoutMs = 90_000): Promise<Export> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const current = await exportOf(base, key, id);
    if (done(current)) return current;
    if (Date.now() > deadline) throw new Error(`export ${id} still ${current.status} (progress ${current.progress})`);
    await sleep(50);
  }
}

describe('exports across a SIGKILL', () => {
  let root: string;
  let dataDir: string;
  let key: string;
  let server: ServerProcess | undefined;
  let caseId: string;

  async function restart(): Promise<ServerProcess> {
    if (server) {
      server.child.kill('SIGKILL');
      expect((await server.exited).signal).toBe('SIGKILL');
    }
    server = await startServer(dataDir, ['--no-rate-limits']);
    return server;
  }

  beforeAll(async () => {
    assertBuilt();
    root = tempDir('obscura-export-crash-');
    dataDir = path.join(root, 'data');
    key = (await initDataDir(dataDir)).api_key;
    const running = await restart();
    // About restarts, not review: the release safeguards (test/integration/releases-*.test.ts) are turned off.
    const off = { pending_suggestions: false, unprocessed_documents: false, case_approved: false, separation_of_duties: false, changed_after_approval: false };
    expect((await call(running.url, key, 'PATCH', '/release-settings', { safeguards: off })).status).toBe(200);
    const created = await call(running.url, key, 'POST', '/cases', { name: 'Crash case' });
    caseId = (created.data as { id: string }).id;
    const { bytes, box } = await textPagesPdf(16);
    const session = await call(running.url, key, 'POST', `/cases/${caseId}/upload-sessions`, { files: [{ name: 'long.pdf', size: bytes.length }] });
    const uploadUrl = (session.data as { id: string; files: { upload_url: string }[] }).files[0]?.upload_url ?? '';
    expect((await fetch(uploadUrl, { method: 'PUT', body: bytes })).status).toBe(200);
    const completed = await call(running.url, key, 'POST', `/upload-sessions/${(session.data as { id: string }).id}/complete`);
    const documentId = (completed.data as { documents: { id: string }[] }).documents[0]?.id ?? '';
    const boxes = Array.from({ length: 16 }, (_, index) => ({ kind: 'rectangle', layer: 'B6', coordinates: { page: index + 1, units: 'pdf_points', box } }));
    expect((await call(running.url, key, 'POST', `/documents/${documentId}/redactions`, { redactions: boxes })).status).toBe(201);
  }, 60_000);
  afterAll(async () => {
    await server?.stop('SIGKILL');
    fs.rmSync(root, { recursive: true, force: true });
  });

  it('killed while processing: the export starts again after the restart and completes', async () => {
    const running = server as ServerProcess;
    const queued = await call(running.url, key, 'POST', '/exports', { case_id: caseId, options: { dpi: 100, image_mode: 'color', method: 'raster' } });
    expect(queued.status).toBe(202);
    const id = Export.parse(queued.data).id;
    await waitFor(running.url, key, id, (current) => current.status === 'processing' && current.progress > 0);

    const restarted = await restart();
    const done = await waitFor(restarted.url, key, id, (current) => current.status !== 'processing' && current.status !== 'pending');
    expect(done).toMatchObject({ status: 'completed', attempts: 2, error_message: null });
    const link = await call(restarted.url, key, 'GET', `/exports/${id}/download-url`);
    const file = Buffer.from(await (await fetch((link.data as { url: string }).url)).arrayBuffer());
    expect(file.length).toBe(done.file?.size);
    const text = pdftotext(file);
    expect(text).toContain('memorandum');
    expect(text.split('\f').filter((page) => page.trim() !== '')).toHaveLength(16);
    // The killed attempt's work files were swept at the start.
    expect(fs.readdirSync(path.join(dataDir, 'blobs', 'tmp'))).toEqual([]);
  }, 180_000);

  it('killed more often than exports.maxAttempts allows: failed with the reason, never stuck in processing', async () => {
    fs.writeFileSync(path.join(dataDir, 'config.json'), JSON.stringify({ exports: { maxAttempts: 1 } }));
    const running = await restart();
    const queued = await call(running.url, key, 'POST', '/exports', { case_id: caseId, options: { dpi: 100, image_mode: 'color', method: 'raster' } });
    const id = Export.parse(queued.data).id;
    await waitFor(running.url, key, id, (current) => current.status === 'processing');

    const restarted = await restart();
    const failed = await exportOf(restarted.url, key, id);
    expect(failed.status).toBe('failed');
    expect(failed.error_message).toMatch(/^interrupted 1 times/);
    const retried = await call(restarted.url, key, 'POST', `/exports/${id}/retry`);
    expect(retried.status).toBe(202);
    const done = await waitFor(restarted.url, key, id, (current) => current.status === 'completed' || current.status === 'failed');
    expect(done.status).toBe('completed');
    expect(await (server as ServerProcess).stop()).toEqual({ code: 0, signal: null });
    server = undefined;
  }, 180_000);
});
