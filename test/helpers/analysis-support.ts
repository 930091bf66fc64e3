import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Job } from '../../main/common/schemas/jobs.js';
import type { PageWord } from '../../main/common/schemas/pages.js';
import { upsertDocumentPage } from '../../main/db/queries/document-pages.js';
import { startScheduler, type JobScheduler } from '../../main/jobs/scheduler.js';
import { createCase, startInstance, uploadDocuments, type TestInstance } from './instance.js';
import { dataOf, orgId } from './integration-support.js';
import { boxOf, layoutPage } from './page-layout.js';

export { boxOf, CHAR, layoutPage, LEADING, TOP } from './page-layout.js';

// Fixtures for the detection, summary and transcription suites: stored pages as OCR writes them, job
// polling, and small HTTP servers speaking the OpenAI-compatible protocols.

export interface Harness {
  instance: TestInstance;
  scheduler: JobScheduler;
}

export async function harness(): Promise<Harness> {
  const instance = await startInstance({ config: { rateLimits: { enabled: false } } });
  return { instance, scheduler: startScheduler(instance.runtime, { poolSize: 2 }) };
}

export async function closeHarness(h: Harness): Promise<void> {
  await h.scheduler.stop();
  await h.instance.close();
}

export async function upload(instance: TestInstance, name: string, bytes: Buffer): Promise<string> {
  const caseId = await createCase(instance, `Analysis ${name}`);
  const [document] = await uploadDocuments(instance, caseId, [{ name, bytes }]);
  if (!document) throw new Error('no document');
  return document.id;
}

export async function startJob(instance: TestInstance, documentId: string, kind: string, body?: unknown): Promise<Job> {
  const response = await instance.request({ method: 'POST', url: `/api/v1/documents/${documentId}/${kind}-jobs`, ...(body !== undefined && { body }) });
  return dataOf(response, Job, 202);
}

export async function finished(instance: TestInstance, jobId: string, timeoutMs = 20_000): Promise<Job> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const job = dataOf(await instance.request({ method: 'GET', url: `/api/v1/jobs/${jobId}` }), Job);
    if (job.status === 'completed' || job.status === 'failed') return job;
    if (Date.now() > deadline) throw new Error(`job ${jobId} still ${job.status} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

export async function runJob(instance: TestInstance, documentId: string, kind: string, body?: unknown): Promise<Job> {
  return finished(instance, (await startJob(instance, documentId, kind, body)).id);
}




/** Stores pages the way the OCR job does: one row per page through the query module. */
export async function storePages(
  instance: TestInstance,
  documentId: string,
  pages: { text: string; words: PageWord[] }[],
  options: { unit?: 'pdf_points' | 'image_pixels' | 'seconds'; source?: 'ocr' | 'text_layer' | 'transcript' } = {},
): Promise<void> {
  for (const [index, page] of pages.entries()) {
    await upsertDocumentPage(instance.runtime.db, {
      organization_id: orgId(instance),
      document_id: Number(documentId),
      page_number: index + 1,
      source: options.source ?? 'ocr',
      job_id: null,
      unit: options.unit ?? 'pdf_points',
      width: 612,
      height: 792,
      rotation: 0,
      text: page.text,
      words: JSON.stringify(page.words),
      mean_confidence: 95,
      created_at: new Date().toISOString(),
    });
  }
}

/** A short real WAV file (mono 16-bit PCM tone). */
export function wavFile(seconds = 0.25, rate = 8000): Buffer {
  const samples = Math.round(seconds * rate);
  const data = Buffer.alloc(samples * 2);
  for (let index = 0; index < samples; index += 1) data.writeInt16LE(Math.round(Math.sin(index / 5) * 8000), index * 2);
  const header = Buffer.alloc(44);
  header.write('RIFF', 0);
  header.writeUInt32LE(36 + data.length, 4);
  header.write('WAVE', 8);
  header.write('fmt ', 12);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(rate, 24);
  header.writeUInt32LE(rate * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36);
  header.writeUInt32LE(data.length, 40);
  return Buffer.concat([header, data]);
}

export interface Received {
  method: string;
  path: string;
  contentType: string;
  body: Buffer;
}

export interface FakeServer {
  url: string;
  received: Received[];
  close(): Promise<void>;
}

/** A real HTTP server on a free loopback port; `answer` decides each response. */
export async function fakeServer(answer: (request: Received) => { status: number; body: unknown } | Promise<{ status: number; body: unknown }>): Promise<FakeServer> {
  const received: Received[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const entry = { method: request.method ?? '', path: request.url ?? '', contentType: request.headers['content-type'] ?? '', body: Buffer.concat(chunks) };
      received.push(entry);
      Promise.resolve(answer(entry)).then(({ status, body }) => {
        response.writeHead(status, { 'content-type': typeof body === 'string' ? 'text/plain' : 'application/json' });
        response.end(typeof body === 'string' ? body : JSON.stringify(body));
      }, (error: unknown) => {
        response.writeHead(500);
        response.end(String(error));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Parses a multipart/form-data body as the server side of the protocol would. */
export async function formDataOf(request: Received): Promise<FormData> {
  return new Response(request.body, { headers: { 'content-type': request.contentType } }).formData();
}
