import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Job } from '../../main/common/schemas/jobs.js';
import type { ScanResult } from '../../main/common/schemas/jobs.js';
import { ALL_SCOPES, type Scope } from '../../main/common/scopes.js';
import { loadConfig } from '../../main/config.js';
import { insertJob } from '../../main/db/queries/jobs.js';
import { createHttpServer } from '../../main/http/server.js';
import { startScheduler, type JobScheduler } from '../../main/jobs/scheduler.js';
import { openRuntime } from '../../main/runtime.js';
import { issueApiKey } from '../../main/services/api-keys.js';
import { createCase, startInstance, uploadDocuments, type TestInstance } from '../helpers/instance.js';
import { minimalPdf } from '../helpers/temp.js';
import { dataOf, errorOf, eventsOf, keyOf, orgId, pageOf, sha256, tinyPng } from '../helpers/integration-support.js';

// Jobs through real Fastify, SQLite and worker threads (the compiled dist/worker; run `npm run build:main`).

/** A PDF from numbered object bodies (object 1 is the catalog), with a correct xref table. */
function pdfFrom(objects: string[], options: { trailer?: string; afterHeader?: string } = {}): Buffer {
  let body = `%PDF-1.7\n${options.afterHeader ?? ''}`;
  const offsets: number[] = [];
  objects.forEach((object, index) => {
    offsets.push(Buffer.byteLength(body, 'latin1'));
    body += `${index + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = Buffer.byteLength(body, 'latin1');
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) body += `${String(offset).padStart(10, '0')} 00000 n \n`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R ${options.trailer ?? ''}>>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}

function textStream(text: string): string {
  const stream = `BT /F1 12 Tf 72 700 Td (${text}) Tj ET`;
  return `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`;
}

const FONT = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>';
const PAGE_ONE_TEXT = 'Records request 2026-114 for the city clerk';

/**
 * Three pages: Letter with text; A4 without text; Letter with a crop box offset by 36 pt, rotated 90°, with
 * text. Object 2 is the page tree; pages inherit nothing, except page 2 its MediaBox from the tree.
 */
function bornDigitalPdf(): Buffer {
  return pdfFrom([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R 4 0 R 5 0 R] /Count 3 /MediaBox [0 0 595 842] >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 6 0 R >> >> /Contents 7 0 R >>',
    '<< /Type /Page /Parent 2 0 R /Resources << >> /Contents 8 0 R >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /CropBox [36 36 576 756] /Rotate 90 /Resources << /Font << /F1 6 0 R >> >> /Contents 9 0 R >>',
    FONT,
    textStream(PAGE_ONE_TEXT),
    '<< /Length 0 >>\nstream\n\nendstream',
    textStream('Rotated page with a crop box offset'),
  ]);
}

/** Opens with JavaScript (the action's type hidden as /J#61vaScript) and carries a form. */
function activePdf(): Buffer {
  return pdfFrom([
    '<< /Type /Catalog /Pages 2 0 R /OpenAction 5 0 R /AcroForm << /Fields [] >> >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R >> >> /Contents 6 0 R >>',
    FONT,
    '<< /Type /Action /S /J#61vaScript /JS (app.alert\\(1\\)) >>',
    textStream('Active content sample page'),
  ]);
}

/** minimalPdf plus one incremental save that replaces the page's content stream. */
function incrementallyUpdatedPdf(): Buffer {
  const original = minimalPdf('Original text that was later replaced');
  const text = original.toString('latin1');
  const previousXref = /startxref\n(\d+)\n%%EOF\n$/.exec(text)?.[1] ?? '0';
  const stream = 'BT /F1 24 Tf 72 700 Td (Replacement text) Tj ET';
  const object = `4 0 obj\n<< /Length ${stream.length} >>\nstream\n${stream}\nendstream\nendobj\n`;
  const objectOffset = original.length;
  const xref = objectOffset + Buffer.byteLength(object, 'latin1');
  const update = `${object}xref\n4 1\n${String(objectOffset).padStart(10, '0')} 00000 n \ntrailer\n<< /Size 6 /Root 1 0 R /Prev ${previousXref} >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.concat([original, Buffer.from(update, 'latin1')]);
}

function encryptedPdf(): Buffer {
  const pad = '<' + '00'.repeat(32) + '>';
  return pdfFrom(
    [
      '<< /Type /Catalog /Pages 2 0 R >>',
      '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>',
      `<< /Filter /Standard /V 1 /R 2 /O ${pad} /U ${pad} /P -4 >>`,
    ],
    { trailer: `/Encrypt 4 0 R /ID [<0123456789abcdef0123456789abcdef> <0123456789abcdef0123456789abcdef>] ` },
  );
}

/** The EICAR test string in a PDF comment, assembled here so this file itself is not flagged. */
function eicarPdf(): Buffer {
  const eicar = ['X5O!P%@AP[4\\PZX54(P^)7CC)7}$', 'EICAR-STANDARD-ANTIVIRUS-', 'TEST-FILE!$H+H*'].join('');
  return pdfFrom(['<< /Type /Catalog /Pages 2 0 R >>', '<< /Type /Pages /Kids [3 0 R] /Count 1 >>', '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>'], {
    afterHeader: `%${eicar}\n`,
  });
}

/** Many small text pages: enough work that a tiny time limit stops it mid-run. */
function manyPagesPdf(pages: number): Buffer {
  const kids = Array.from({ length: pages }, (_, index) => `${4 + index * 2} 0 R`).join(' ');
  const objects = ['<< /Type /Catalog /Pages 2 0 R >>', `<< /Type /Pages /Kids [${kids}] /Count ${pages} /MediaBox [0 0 612 792] >>`, FONT];
  for (let index = 0; index < pages; index += 1) {
    objects.push(`<< /Type /Page /Parent 2 0 R /Resources << /Font << /F1 3 0 R >> >> /Contents ${5 + index * 2} 0 R >>`);
    objects.push(textStream(`Page ${index + 1} of a long generated file`));
  }
  return pdfFrom(objects);
}

type Scan = ScanResult;

function scanOf(job: Job): Scan {
  expect(job.status, job.error_message ?? '').toBe('completed');
  return job.result as unknown as Scan;
}

interface Harness {
  instance: TestInstance;
  scheduler: JobScheduler;
}

async function harness(config: Parameters<typeof startInstance>[0] = {}): Promise<Harness> {
  const instance = await startInstance({ ...config, config: { rateLimits: { enabled: false }, ...config.config } });
  return { instance, scheduler: startScheduler(instance.runtime) };
}

async function upload(instance: TestInstance, name: string, bytes: Buffer, key?: string): Promise<string> {
  const caseId = await createCase(instance, `Jobs ${name}`, key);
  const [document] = await uploadDocuments(instance, caseId, [{ name, bytes }], key);
  if (!document) throw new Error('no document');
  return document.id;
}

async function startScan(instance: TestInstance, documentId: string, body?: unknown, key?: string): Promise<Job> {
  const response = await instance.request({ method: 'POST', url: `/api/v1/documents/${documentId}/scan-jobs`, ...(body !== undefined && { body }), ...(key && { key }) });
  return dataOf(response, Job, 202);
}

async function finished(instance: TestInstance, jobId: string, timeoutMs = 20_000): Promise<Job> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const job = dataOf(await instance.request({ method: 'GET', url: `/api/v1/jobs/${jobId}` }), Job);
    if (job.status === 'completed' || job.status === 'failed') return job;
    if (Date.now() > deadline) throw new Error(`job ${jobId} still ${job.status} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('scan jobs', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await harness();
  });
  afterAll(async () => {
    await h.scheduler.stop();
    await h.instance.close();
  });

  it('a born-digital PDF: 202 queued, then completed with pages, sizes, boxes and text layers', async () => {
    const bytes = bornDigitalPdf();
    const documentId = await upload(h.instance, 'born-digital.pdf', bytes);
    const queued = await startScan(h.instance, documentId);
    expect(queued).toMatchObject({ document_id: documentId, kind: 'scan', status: 'queued', progress: 0, attempts: 0, result: null, error_message: null, options: { min_text_chars: 10 } });

    const job = await finished(h.instance, queued.id);
    expect(job).toMatchObject({ status: 'completed', progress: 1, attempts: 1, error_message: null });
    expect(job.started_at).not.toBeNull();
    expect(job.finished_at).not.toBeNull();
    const scan = scanOf(job);
    expect(scan.file).toEqual({ media_type: 'application/pdf', document_type: 'pdf', size: bytes.length, sha256: sha256(bytes), sha256_matches: true });
    expect(scan.pdf).toMatchObject({ parses: true, parse_error: null, encrypted: false, page_count: 3, text_layer_pages: [1, 3] });
    expect(scan.pdf?.pages).toEqual([
      { page: 1, width: 612, height: 792, rotation: 0, media_box: [0, 0, 612, 792], crop_box: [0, 0, 612, 792], crop_box_differs: false, text_chars: PAGE_ONE_TEXT.replace(/\s/g, '').length, has_text_layer: true },
      { page: 2, width: 595, height: 842, rotation: 0, media_box: [0, 0, 595, 842], crop_box: [0, 0, 595, 842], crop_box_differs: false, text_chars: 0, has_text_layer: false },
      { page: 3, width: 540, height: 720, rotation: 90, media_box: [0, 0, 612, 792], crop_box: [36, 36, 576, 756], crop_box_differs: true, text_chars: 'Rotatedpagewithacropboxoffset'.length, has_text_layer: true },
    ]);
    expect(scan.active_content).toEqual({
      javascript: false,
      open_action: false,
      additional_actions: false,
      launch: false,
      embedded_files: false,
      forms: false,
      incremental_updates: 0,
      eof_markers: 1,
      startxref_markers: 1,
    });
    expect(scan).toMatchObject({ eicar: false, findings: [], verdict: 'clean' });

    const events = await eventsOf(h.instance, 'job', job.id);
    expect(events.map((event) => event.type)).toEqual(['job.completed']);
    expect(Job.parse(events[0]?.payload.job)).toMatchObject({ id: job.id, status: 'completed' });
  });

  it('options are validated and used: min_text_chars raises the bar for a text layer', async () => {
    const documentId = await upload(h.instance, 'strict.pdf', bornDigitalPdf());
    errorOf(await h.instance.request({ method: 'POST', url: `/api/v1/documents/${documentId}/scan-jobs`, body: { min_text_chars: 0 } }), 400, 'validation_error');
    errorOf(await h.instance.request({ method: 'POST', url: `/api/v1/documents/${documentId}/scan-jobs`, body: { pages: [1] } }), 400, 'validation_error');
    const job = await finished(h.instance, (await startScan(h.instance, documentId, { min_text_chars: 33 })).id);
    expect(job.options).toEqual({ min_text_chars: 33 });
    // Page 1 has 36 characters, page 3 has 29.
    expect(scanOf(job).pdf?.text_layer_pages).toEqual([1]);
  });

  it('JavaScript, OpenAction and forms are reported, also behind #xx name escapes', async () => {
    const scan = scanOf(await finished(h.instance, (await startScan(h.instance, await upload(h.instance, 'active.pdf', activePdf()))).id));
    expect(scan.pdf).toMatchObject({ parses: true, page_count: 1 });
    expect(scan.active_content).toMatchObject({ javascript: true, open_action: true, forms: true, launch: false, embedded_files: false, incremental_updates: 0 });
    expect(scan.findings.map((finding) => finding.code).sort()).toEqual(['forms', 'javascript', 'open_action']);
    expect(scan.verdict).toBe('danger');
  });

  it('an incremental update is counted; the file still parses', async () => {
    const scan = scanOf(await finished(h.instance, (await startScan(h.instance, await upload(h.instance, 'updated.pdf', incrementallyUpdatedPdf()))).id));
    expect(scan.active_content).toMatchObject({ incremental_updates: 1, eof_markers: 2, startxref_markers: 2 });
    expect(scan.pdf).toMatchObject({ parses: true, page_count: 1, text_layer_pages: [1] });
    expect(scan.findings.map((finding) => finding.code)).toEqual(['incremental_updates']);
    expect(scan.verdict).toBe('warning');
  });

  it('an encrypted PDF is reported as encrypted', async () => {
    const scan = scanOf(await finished(h.instance, (await startScan(h.instance, await upload(h.instance, 'locked.pdf', encryptedPdf()))).id));
    expect(scan.pdf?.encrypted).toBe(true);
    expect(scan.findings.map((finding) => finding.code)).toContain('encrypted');
  });

  it('the EICAR test string is found', async () => {
    const scan = scanOf(await finished(h.instance, (await startScan(h.instance, await upload(h.instance, 'eicar.pdf', eicarPdf()))).id));
    expect(scan.eicar).toBe(true);
    expect(scan.findings.map((finding) => finding.code)).toContain('eicar');
    expect(scan.verdict).toBe('danger');
  });

  it('a PNG: its type from the bytes, no PDF structure', async () => {
    const bytes = tinyPng();
    const scan = scanOf(await finished(h.instance, (await startScan(h.instance, await upload(h.instance, 'picture.png', bytes))).id));
    expect(scan).toEqual({
      file: { media_type: 'image/png', document_type: 'png', size: bytes.length, sha256: sha256(bytes), sha256_matches: true },
      pdf: null,
      active_content: null,
      eicar: false,
      findings: [],
      verdict: 'clean',
    });
  });

  it('a job whose task throws fails alone; the others complete', async () => {
    const broken = minimalPdf('This blob will be removed from disk');
    const brokenId = await upload(h.instance, 'gone.pdf', broken);
    fs.rmSync(h.instance.runtime.blobs.pathFor(sha256(broken)));
    const goodIds = [await upload(h.instance, 'a.pdf', minimalPdf('First good file')), await upload(h.instance, 'b.pdf', minimalPdf('Second good file'))];
    const jobs = [await startScan(h.instance, goodIds[0] ?? ''), await startScan(h.instance, brokenId), await startScan(h.instance, goodIds[1] ?? '')];
    const [first, failed, last] = await Promise.all(jobs.map((job) => finished(h.instance, job.id)));
    expect(first?.status).toBe('completed');
    expect(last?.status).toBe('completed');
    expect(failed).toMatchObject({ status: 'failed', result: null });
    expect(failed?.error_message).toMatch(/^the scan job failed: ENOENT/);
    // The missing file is named inside the data directory, never by its absolute path.
    expect(failed?.error_message).toContain('<data dir>/');
    expect(failed?.error_message).not.toContain(h.instance.runtime.dataDir);
    const events = await eventsOf(h.instance, 'job', failed?.id ?? '');
    expect(events.map((event) => event.type)).toEqual(['job.failed']);
    expect(Job.parse(events[0]?.payload.job)).toMatchObject({ status: 'failed', error_message: failed?.error_message });
  });

  it('lists a document’s jobs oldest first, paginated', async () => {
    const documentId = await upload(h.instance, 'listed.pdf', minimalPdf('Listed'));
    const ids: string[] = [];
    for (let index = 0; index < 3; index += 1) ids.push((await startScan(h.instance, documentId)).id);
    const first = pageOf(await h.instance.request({ method: 'GET', url: `/api/v1/documents/${documentId}/jobs?limit=2` }), Job);
    expect(first.data.map((job) => job.id)).toEqual(ids.slice(0, 2));
    expect(first.cursor).not.toBeNull();
    const second = pageOf(await h.instance.request({ method: 'GET', url: `/api/v1/documents/${documentId}/jobs?limit=2&cursor=${first.cursor}` }), Job);
    expect(second.data.map((job) => job.id)).toEqual(ids.slice(2));
    expect(second.cursor).toBeNull();
    await Promise.all(ids.map((id) => finished(h.instance, id)));
  });

  it('Idempotency-Key: a replay returns the same job and queues nothing more', async () => {
    const documentId = await upload(h.instance, 'idem.pdf', minimalPdf('Idempotent'));
    const send = () => h.instance.request({ method: 'POST', url: `/api/v1/documents/${documentId}/scan-jobs`, idempotencyKey: `scan-${documentId}` });
    const first = await send();
    const again = await send();
    expect(again.headers['idempotent-replayed']).toBe('true');
    // The replay is the stored body byte for byte (its request_id is the first request's).
    expect(again.statusCode).toBe(202);
    expect(again.body).toBe(first.body);
    errorOf(await h.instance.request({ method: 'POST', url: `/api/v1/documents/${documentId}/scan-jobs`, idempotencyKey: null }), 400, 'validation_error');
    const listed = pageOf(await h.instance.request({ method: 'GET', url: `/api/v1/documents/${documentId}/jobs` }), Job);
    expect(listed.data).toHaveLength(1);
    await finished(h.instance, dataOf(first, Job, 202).id);
  });

  describe('scopes and organizations', () => {
    let documentId: string;
    let jobId: string;
    beforeAll(async () => {
      documentId = await upload(h.instance, 'scoped.pdf', minimalPdf('Scoped'));
      jobId = (await startScan(h.instance, documentId)).id;
      await finished(h.instance, jobId);
    });

    async function keyWith(scopes: readonly Scope[]): Promise<string> {
      const account = await h.instance.runtime.db.selectFrom('service_accounts').select('id').where('organization_id', '=', orgId(h.instance)).executeTakeFirstOrThrow();
      const issued = await issueApiKey(h.instance.runtime.db, { organizationId: orgId(h.instance), serviceAccountId: account.id, name: scopes.join(' '), scopes, expiresAt: null, now: new Date().toISOString() });
      return issued.plaintext;
    }

    const routes = () => [
      { method: 'POST' as const, url: `/api/v1/documents/${documentId}/scan-jobs`, scope: 'processing:write' as Scope, status: 202 },
      { method: 'GET' as const, url: `/api/v1/jobs/${jobId}`, scope: 'processing:read' as Scope, status: 200 },
      { method: 'GET' as const, url: `/api/v1/documents/${documentId}/jobs`, scope: 'processing:read' as Scope, status: 200 },
    ];

    it('each route needs its scope, and only it', async () => {
      for (const route of routes()) {
        const only = await h.instance.request({ method: route.method, url: route.url, key: await keyWith([route.scope]) });
        expect(only.statusCode, `${route.method} ${route.url}: ${only.body}`).toBe(route.status);
        const others = await h.instance.request({ method: route.method, url: route.url, key: await keyWith(ALL_SCOPES.filter((scope) => scope !== route.scope)) });
        expect(errorOf(others, 403, 'permission_denied').details).toEqual({ required_scopes: [route.scope] });
      }
    });

    it("another organization's key gets 404 on all three", async () => {
      const before = await h.instance.runtime.db.selectFrom('jobs').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
      for (const route of routes()) errorOf(await h.instance.request({ method: route.method, url: route.url, key: keyOf(h.instance, 1) }), 404, 'resource_not_found');
      const after = await h.instance.runtime.db.selectFrom('jobs').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
      expect(Number(after.n)).toBe(Number(before.n));
      errorOf(await h.instance.request({ method: 'GET', url: '/api/v1/jobs/987654' }), 404, 'resource_not_found');
    });

    it('jobs are published under their own tag in the OpenAPI document', async () => {
      const doc = z.object({ paths: z.record(z.string(), z.record(z.string(), z.looseObject({ tags: z.array(z.string()).optional() }))) }).parse(
        JSON.parse((await h.instance.request({ method: 'GET', url: '/api/v1/openapi.json' })).body),
      );
      const published = Object.entries(doc.paths).flatMap(([path, operations]) =>
        Object.entries(operations)
          .filter(([, operation]) => operation.tags?.includes('jobs'))
          .map(([method]) => `${method.toUpperCase()} ${path}`),
      );
      const starts = ['detection', 'ocr', 'scan', 'summary', 'transcription'].map((kind) => `POST /documents/{document_id}/${kind}-jobs`);
      expect(published.sort()).toEqual(['GET /documents/{document_id}/jobs', 'GET /jobs/{job_id}', ...starts]);
    });
  });
});

describe('time limit', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await harness();
  });
  afterAll(async () => {
    await h.scheduler.stop();
    await h.instance.close();
  });

  it('a job past its limit is stopped and fails with a clear message; the replaced worker runs the next job', async () => {
    const config = h.instance.runtime.config;
    // Warm a thread first, so the limit stops a task that is really running on it.
    await finished(h.instance, (await startScan(h.instance, await upload(h.instance, 'warm.pdf', minimalPdf('Warm up')))).id);
    const big = await upload(h.instance, 'big.pdf', manyPagesPdf(1500));
    config.jobs.timeLimitSeconds.scan = 0.05;
    const stopped = await finished(h.instance, (await startScan(h.instance, big)).id);
    expect(stopped).toMatchObject({ status: 'failed', result: null, attempts: 1 });
    expect(stopped.error_message).toBe('the scan job exceeded its time limit of 0.05 s (jobs.timeLimitSeconds.scan) and was stopped');
    expect((await eventsOf(h.instance, 'job', stopped.id)).map((event) => event.type)).toEqual(['job.failed']);

    config.jobs.timeLimitSeconds.scan = 120;
    const next = await finished(h.instance, (await startScan(h.instance, big)).id, 60_000);
    expect(scanOf(next).pdf?.page_count).toBe(1500);
    // The whole 1,500-page scan runs here: the test's limit covers the 60 s it lets that scan take.
  }, 120_000);
});

describe('restart recovery', () => {
  it('jobs a dead process left running are queued again and complete; one out of attempts fails', async () => {
    const instance = await startInstance({ config: { rateLimits: { enabled: false } } });
    const documentId = await upload(instance, 'interrupted.pdf', minimalPdf('Interrupted scan'));
    const now = new Date().toISOString();
    const running = { organization_id: orgId(instance), document_id: Number(documentId), kind: 'scan' as const, status: 'running' as const, options: '{"min_text_chars":10}', progress: 0.5, result: null, error_message: null, created_at: now, started_at: now, finished_at: null, updated_at: now };
    const resumable = await insertJob(instance.runtime.db, { ...running, attempts: 1 });
    const exhausted = await insertJob(instance.runtime.db, { ...running, attempts: 3 });
    // The "dead process": closed without a scheduler ever settling those rows.
    await instance.server.close();
    await instance.runtime.close();

    const runtime = await openRuntime(instance.dataDir, loadConfig(instance.dataDir, { port: 0, rateLimits: { enabled: false } }));
    const server = await createHttpServer(runtime);
    const baseUrl = await server.listen('127.0.0.1', 0);
    const restarted: TestInstance = { ...instance, runtime, server, baseUrl, host: new URL(baseUrl).host, request: (options) => server.app.inject({ method: options.method, url: options.url, headers: { host: new URL(baseUrl).host, 'x-api-key': keyOf(instance, 0) } }) };
    const recovered = await runtime.db.selectFrom('jobs').select(['id', 'status', 'attempts', 'error_message']).orderBy('id').execute();
    expect(recovered).toEqual([
      { id: resumable, status: 'queued', attempts: 1, error_message: null },
      { id: exhausted, status: 'failed', attempts: 3, error_message: 'interrupted 3 times (the process stopped while it ran); not retried again' },
    ]);
    const scheduler = startScheduler(runtime);
    try {
      const job = await finished(restarted, String(resumable));
      expect(job).toMatchObject({ status: 'completed', attempts: 2 });
      expect(scanOf(job).pdf?.page_count).toBe(1);
      expect((await eventsOf(restarted, 'job', String(resumable))).map((event) => event.type)).toEqual(['job.completed']);
      expect((await eventsOf(restarted, 'job', String(exhausted))).map((event) => event.type)).toEqual(['job.failed']);
    } finally {
      await scheduler.stop();
      await server.close();
      await runtime.close();
      fs.rmSync(instance.dataDir, { recursive: true, force: true });
    }
  });

  it('stopping the scheduler puts a running job back in the queue without counting the attempt', async () => {
    const h = await harness();
    try {
      const documentId = await upload(h.instance, 'long.pdf', manyPagesPdf(1500));
      const job = await startScan(h.instance, documentId);
      const deadline = Date.now() + 10_000;
      while ((await h.instance.runtime.db.selectFrom('jobs').select('status').where('id', '=', Number(job.id)).executeTakeFirstOrThrow()).status !== 'running') {
        if (Date.now() > deadline) throw new Error('job never started');
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      await h.scheduler.stop();
      const row = await h.instance.runtime.db.selectFrom('jobs').selectAll().where('id', '=', Number(job.id)).executeTakeFirstOrThrow();
      expect(row).toMatchObject({ status: 'queued', attempts: 0, started_at: null });
    } finally {
      await h.scheduler.stop();
      await h.instance.close();
    }
  });
});
