import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Document, DownloadUrl, UploadSession } from '../../main/common/schemas/documents.js';
import { Me } from '../../main/common/schemas/me.js';
import { createCase, startInstance, type TestInstance } from '../helpers/instance.js';
import { minimalPdf } from '../helpers/temp.js';
import {
  auditOf,
  dataOf,
  detailFields,
  errorOf,
  eventsOf,
  getUrl,
  manualClock,
  pageOf,
  putUpload,
  rawHttp,
  requestIdOf,
  sha256,
  tableCounts,
  tinyJpeg,
  tinyPng,
  tinyTiff,
  type Response,
} from '../helpers/integration-support.js';

const MAX_FILE_BYTES = 64 * 1024;
const SESSION_TTL_MS = 3600 * 1000;
const DOWNLOAD_TTL_MS = 300 * 1000;

const UploadReceipt = z.object({ file_id: z.string(), name: z.string(), received_bytes: z.number(), status: z.literal('uploaded') });

const ProblemDetail = z.strictObject({
  file_id: z.string(),
  name: z.string(),
  problem: z.enum(['missing', 'short']),
  expected_bytes: z.number(),
  received_bytes: z.number(),
});

/** Plain text exactly as long as `length`, which file-type does not recognise. */
function textOfLength(length: number): Buffer {
  return Buffer.from('Dear records officer, please find my request below. '.repeat(Math.ceil(length / 50)).slice(0, length), 'utf8');
}

describe('documents and uploads', () => {
  const clock = manualClock('2031-03-01T09:00:00.000Z');
  let instance: TestInstance;
  let caseId: string;

  beforeAll(async () => {
    instance = await startInstance({ clock, config: { rateLimits: { enabled: false }, uploads: { maxFileBytes: MAX_FILE_BYTES } } });
    caseId = await createCase(instance, 'Uploads');
  });
  afterAll(() => instance.close());

  const api = {
    openSession: (forCase: string, body: unknown) => instance.request({ method: 'POST', url: `/api/v1/cases/${forCase}/upload-sessions`, body }),
    complete: (sessionId: string, idempotencyKey?: string) =>
      instance.request({ method: 'POST', url: `/api/v1/upload-sessions/${sessionId}/complete`, ...(idempotencyKey && { idempotencyKey }) }),
    getDocument: (id: string) => instance.request({ method: 'GET', url: `/api/v1/documents/${id}` }),
    patchDocument: (id: string, body: unknown) => instance.request({ method: 'PATCH', url: `/api/v1/documents/${id}`, body }),
    deleteDocument: (id: string) => instance.request({ method: 'DELETE', url: `/api/v1/documents/${id}` }),
    downloadUrl: (id: string) => instance.request({ method: 'GET', url: `/api/v1/documents/${id}/download-url` }),
    caseDocuments: (forCase: string) => instance.request({ method: 'GET', url: `/api/v1/cases/${forCase}/documents?limit=100` }),
  };

  async function session(files: { name: string; size: number }[], forCase = caseId): Promise<UploadSession> {
    return dataOf(await api.openSession(forCase, { files }), UploadSession, 201);
  }

  function urlOf(opened: UploadSession, index = 0): string {
    const url = opened.files[index]?.upload_url;
    if (!url) throw new Error(`file #${index} has no upload_url`);
    return url;
  }

  async function completed(sessionId: string, idempotencyKey?: string): Promise<UploadSession> {
    return dataOf(await api.complete(sessionId, idempotencyKey), UploadSession);
  }

  /** Session, one PUT per file, complete; every step checked. */
  async function upload(files: { name: string; bytes: Buffer }[], forCase = caseId): Promise<Document[]> {
    const opened = await session(
      files.map((file) => ({ name: file.name, size: file.bytes.length })),
      forCase,
    );
    for (const [index, file] of files.entries()) dataOf(await putUpload(instance, urlOf(opened, index), file.bytes), UploadReceipt);
    return (await completed(opened.id)).documents;
  }

  async function uploadOne(name = 'letter.pdf', bytes = minimalPdf(`doc ${randomBytes(4).toString('hex')}`)): Promise<Document> {
    const [document] = await upload([{ name, bytes }]);
    if (!document) throw new Error('no document created');
    return document;
  }

  function problemsOf(response: Response) {
    return z.array(ProblemDetail).parse(errorOf(response, 409, 'conflict').details);
  }

  describe('upload sessions', () => {
    it('gives each file its own absolute upload_url on this server and lists the files as pending', async () => {
      const opened = await session([
        { name: 'a.pdf', size: 10 },
        { name: 'b.pdf', size: 20 },
      ]);
      expect(opened).toMatchObject({
        case_id: caseId,
        status: 'open',
        completed_at: null,
        created_at: clock.now().toISOString(),
        expires_at: new Date(clock.now().getTime() + SESSION_TTL_MS).toISOString(),
        documents: [],
      });
      expect(opened.files.map((file) => [file.name, file.size, file.status, file.document_id])).toEqual([
        ['a.pdf', 10, 'pending', null],
        ['b.pdf', 20, 'pending', null],
      ]);
      const urls = opened.files.map((_, index) => new URL(urlOf(opened, index)));
      for (const url of urls) {
        expect(url.origin).toBe(instance.baseUrl);
        expect(url.pathname).toMatch(/^\/files\/uploads\/[A-Za-z0-9_-]{43}$/);
      }
      expect(new Set(urls.map(String)).size).toBe(2);
    });

    it('the upload_url accepts a PUT of the raw bytes over real HTTP', async () => {
      const bytes = minimalPdf('over TCP');
      const opened = await session([{ name: 'tcp.pdf', size: bytes.length }]);
      const put = await fetch(urlOf(opened), { method: 'PUT', body: bytes, headers: { 'content-type': 'application/pdf' } });
      expect(put.status).toBe(200);
      const receipt = UploadReceipt.parse(z.object({ data: z.unknown() }).parse(await put.json()).data);
      expect(receipt).toEqual({ file_id: opened.files[0]?.id, name: 'tcp.pdf', received_bytes: bytes.length, status: 'uploaded' });
      const done = await completed(opened.id);
      expect(done.documents.map((document) => document.sha256)).toEqual([sha256(bytes)]);
    });

    it('is single use: a second PUT to the same URL answers 409', async () => {
      const bytes = minimalPdf('once');
      const opened = await session([{ name: 'once.pdf', size: bytes.length }]);
      dataOf(await putUpload(instance, urlOf(opened), bytes), UploadReceipt);
      errorOf(await putUpload(instance, urlOf(opened), bytes), 409, 'conflict');
      const done = await completed(opened.id);
      expect(done.documents).toHaveLength(1);
    });

    it('expires: after the session lifetime a PUT and complete answer 409, and nothing is created', async () => {
      const bytes = minimalPdf('late');
      const opened = await session([
        { name: 'late.pdf', size: bytes.length },
        { name: 'later.pdf', size: bytes.length },
      ]);
      dataOf(await putUpload(instance, urlOf(opened, 0), bytes), UploadReceipt);
      clock.advance(SESSION_TTL_MS + 1_000);
      const before = await tableCounts(instance);
      errorOf(await putUpload(instance, urlOf(opened, 1), bytes), 409, 'conflict');
      errorOf(await api.complete(opened.id), 409, 'conflict');
      expect(await tableCounts(instance)).toEqual(before);
    });

    it('refuses a Content-Length different from the declared size with 400, and the URL stays usable', async () => {
      const bytes = minimalPdf('declared');
      const opened = await session([{ name: 'declared.pdf', size: bytes.length }]);
      const error = errorOf(await putUpload(instance, urlOf(opened), bytes, { contentLength: bytes.length + 1 }), 400, 'validation_error');
      expect(detailFields(error)).toEqual(['Content-Length']);
      dataOf(await putUpload(instance, urlOf(opened), bytes), UploadReceipt);
      expect((await completed(opened.id)).documents).toHaveLength(1);
    });

    it('refuses more bytes than declared with 413, keeps nothing, and the URL stays usable', async () => {
      const bytes = minimalPdf('exact');
      const opened = await session([{ name: 'exact.pdf', size: bytes.length }]);
      const blobsBefore = (await tableCounts(instance)).blobs;
      const tooMuch = Buffer.concat([bytes, Buffer.from('trailing garbage')]);
      // Over real HTTP: the server stops reading once the declared size is passed and must still answer 413.
      const refused = await rawHttp('PUT', urlOf(opened), [tooMuch.subarray(0, 300), tooMuch.subarray(300), Buffer.alloc(256 * 1024, 7)]);
      expect(refused.status).toBe(413);
      expect(refused.headers.connection).toBe('close');
      expect(JSON.parse(refused.body)).toMatchObject({ error: { code: 'payload_too_large' }, request_id: refused.headers['x-request-id'] });
      expect((await tableCounts(instance)).blobs).toBe(blobsBefore);
      problemsOf(await api.complete(opened.id));
      dataOf(await putUpload(instance, urlOf(opened), bytes, { stream: true }), UploadReceipt);
      expect((await completed(opened.id)).documents.map((document) => document.sha256)).toEqual([sha256(bytes)]);
    });

    it('refuses fewer bytes with 400; complete then reports the file as short', async () => {
      const bytes = minimalPdf('short');
      const opened = await session([{ name: 'short.pdf', size: bytes.length }]);
      const fileId = opened.files[0]?.id;
      errorOf(await putUpload(instance, urlOf(opened), bytes.subarray(0, 100), { stream: true }), 400, 'validation_error');
      const before = await tableCounts(instance);
      const problems = problemsOf(await api.complete(opened.id));
      expect(problems).toEqual([{ file_id: fileId, name: 'short.pdf', problem: 'short', expected_bytes: bytes.length, received_bytes: 100 }]);
      expect(await tableCounts(instance)).toEqual(before);
    });

    it('complete with a file never sent answers 409 conflict naming it as missing, and creates no document', async () => {
      const bytes = minimalPdf('sent');
      const opened = await session([
        { name: 'sent.pdf', size: bytes.length },
        { name: 'never.pdf', size: 1234 },
      ]);
      dataOf(await putUpload(instance, urlOf(opened, 0), bytes), UploadReceipt);
      const before = await tableCounts(instance);
      const problems = problemsOf(await api.complete(opened.id));
      expect(problems).toEqual([{ file_id: opened.files[1]?.id, name: 'never.pdf', problem: 'missing', expected_bytes: 1234, received_bytes: 0 }]);
      expect(await tableCounts(instance)).toEqual(before);
    });

    it('refuses an empty file (size 0) when the session is created', async () => {
      const before = await tableCounts(instance);
      const error = errorOf(await api.openSession(caseId, { files: [{ name: 'ok.pdf', size: 5 }, { name: 'empty.pdf', size: 0 }] }), 400, 'validation_error');
      expect(detailFields(error)).toEqual(['files.1.size']);
      expect(await tableCounts(instance)).toEqual(before);
    });

    it.each([
      { label: 'file over the size limit', body: { files: [{ name: 'big.pdf', size: MAX_FILE_BYTES + 1 }] }, field: 'files.0.size' },
      { label: 'negative size', body: { files: [{ name: 'neg.pdf', size: -1 }] }, field: 'files.0.size' },
      { label: 'fractional size', body: { files: [{ name: 'half.pdf', size: 1.5 }] }, field: 'files.0.size' },
      { label: 'name with a path separator', body: { files: [{ name: '../etc/passwd', size: 5 }] }, field: 'files.0.name' },
      { label: 'missing name', body: { files: [{ size: 5 }] }, field: 'files.0.name' },
      { label: 'files not an array', body: { files: 'a.pdf' }, field: 'files' },
    ])('refuses a session with a $label (400 naming $field)', async ({ body, field }) => {
      const before = await tableCounts(instance);
      expect(detailFields(errorOf(await api.openSession(caseId, body), 400, 'validation_error'))).toContain(field);
      expect(await tableCounts(instance)).toEqual(before);
    });

    it('refuses bytes of an unknown type with 415, and the URL then takes a correct upload', async () => {
      const pdf = minimalPdf('retry after text');
      const text = textOfLength(pdf.length);
      expect(text.length).toBe(pdf.length);
      const opened = await session([{ name: 'request.pdf', size: pdf.length }]);
      const blobsBefore = (await tableCounts(instance)).blobs;
      errorOf(await putUpload(instance, urlOf(opened), text, { contentType: 'application/pdf' }), 415, 'unsupported_media_type');
      expect((await tableCounts(instance)).blobs).toBe(blobsBefore);
      expect(problemsOf(await api.complete(opened.id)).map((problem) => problem.problem)).toEqual(['missing']);
      dataOf(await putUpload(instance, urlOf(opened), pdf), UploadReceipt);
      const [document] = (await completed(opened.id)).documents;
      expect(document).toMatchObject({ fileName: 'request.pdf', document_type: 'pdf', sha256: sha256(pdf) });
    });

    it('answers 404 for an unknown upload token and 400 for a malformed one', async () => {
      const unknown = `${instance.baseUrl}/files/uploads/${randomBytes(32).toString('base64url')}`;
      errorOf(await putUpload(instance, unknown, minimalPdf()), 404, 'resource_not_found');
      errorOf(await putUpload(instance, `${instance.baseUrl}/files/uploads/short-token`, minimalPdf()), 400, 'validation_error');
    });

    it('a session may have no files; completing it creates nothing', async () => {
      const opened = dataOf(await api.openSession(caseId, {}), UploadSession, 201);
      expect(opened.files).toEqual([]);
      const done = await completed(opened.id);
      expect(done).toMatchObject({ status: 'completed', files: [], documents: [], completed_at: clock.now().toISOString() });
    });

    it('complete takes no fields', async () => {
      const opened = dataOf(await api.openSession(caseId, {}), UploadSession, 201);
      const response = await instance.request({ method: 'POST', url: `/api/v1/upload-sessions/${opened.id}/complete`, body: { files: [] } });
      errorOf(response, 400, 'validation_error');
      const withEmptyObject = await instance.request({ method: 'POST', url: `/api/v1/upload-sessions/${opened.id}/complete`, body: {} });
      expect(dataOf(withEmptyObject, UploadSession).status).toBe('completed');
    });

    it('answers 404 for sessions of absent cases and completes of absent sessions, 409 for a deleted case', async () => {
      errorOf(await api.openSession('987654321', { files: [] }), 404, 'resource_not_found');
      errorOf(await api.complete('987654321'), 404, 'resource_not_found');
      const doomed = await createCase(instance, 'Doomed');
      expect((await instance.request({ method: 'DELETE', url: `/api/v1/cases/${doomed}` })).statusCode).toBe(204);
      errorOf(await api.openSession(doomed, { files: [] }), 409, 'conflict');
    });

    it('a case deleted after the upload cannot receive the documents at complete', async () => {
      const target = await createCase(instance, 'Deleted before complete');
      const bytes = minimalPdf('orphan');
      const opened = await session([{ name: 'orphan.pdf', size: bytes.length }], target);
      dataOf(await putUpload(instance, urlOf(opened), bytes), UploadReceipt);
      expect((await instance.request({ method: 'DELETE', url: `/api/v1/cases/${target}` })).statusCode).toBe(204);
      errorOf(await api.complete(opened.id), 409, 'conflict');
    });
  });

  describe('type detection from bytes', () => {
    it('decides the document type from content, never the name or Content-Type', async () => {
      const files = [
        { name: 'x.pdf', bytes: tinyPng(), type: 'png', media: 'image/png' },
        { name: 'photo.png', bytes: tinyJpeg(), type: 'jpeg', media: 'image/jpeg' },
        { name: 'scan.jpg', bytes: tinyTiff(), type: 'tiff', media: 'image/tiff' },
        { name: 'image.tiff', bytes: minimalPdf('really a pdf'), type: 'pdf', media: 'application/pdf' },
      ];
      const opened = await session(files.map((file) => ({ name: file.name, size: file.bytes.length })));
      for (const [index, file] of files.entries()) {
        // Each upload claims the type its name suggests; the server must ignore it.
        dataOf(await putUpload(instance, urlOf(opened, index), file.bytes, { contentType: 'application/pdf' }), UploadReceipt);
      }
      const done = await completed(opened.id);
      expect(done.documents.map((document) => [document.fileName, document.document_type, document.media_type, document.size, document.sha256])).toEqual(
        files.map((file) => [file.name, file.type, file.media, file.bytes.length, sha256(file.bytes)]),
      );
      expect(done.files.map((file) => file.media_type)).toEqual(files.map((file) => file.media));
      for (const document of done.documents) expect(dataOf(await api.getDocument(document.id), Document)).toEqual(document);
    });
  });

  describe('complete is repeat-safe', () => {
    it('a second complete with a new Idempotency-Key returns the same documents and creates none', async () => {
      const target = await createCase(instance, 'Repeat');
      const files = [
        { name: 'one.pdf', bytes: minimalPdf('one') },
        { name: 'two.png', bytes: tinyPng() },
      ];
      const opened = await session(
        files.map((file) => ({ name: file.name, size: file.bytes.length })),
        target,
      );
      for (const [index, file] of files.entries()) dataOf(await putUpload(instance, urlOf(opened, index), file.bytes), UploadReceipt);
      const first = await completed(opened.id, `first-${opened.id}`);
      expect(first.status).toBe('completed');
      expect(first.documents).toHaveLength(2);
      expect(first.files.map((file) => file.document_id)).toEqual(first.documents.map((document) => document.id));
      const before = await tableCounts(instance);
      const second = await completed(opened.id, `second-${opened.id}`);
      expect(second).toEqual(first);
      expect(await tableCounts(instance)).toEqual(before);
      const listed = pageOf(await api.caseDocuments(target), Document).data;
      expect(listed).toEqual(first.documents);
    });
  });

  describe('documents', () => {
    it('reads a document with the stored size and SHA-256, and lists it under its case', async () => {
      const bytes = minimalPdf('readable');
      const document = await uploadOne('readable.pdf', bytes);
      expect(document).toMatchObject({
        case_id: caseId,
        fileName: 'readable.pdf',
        description: '',
        document_type: 'pdf',
        media_type: 'application/pdf',
        size: bytes.length,
        sha256: sha256(bytes),
      });
      expect(dataOf(await api.getDocument(document.id), Document)).toEqual(document);
      expect(pageOf(await api.caseDocuments(caseId), Document).data).toContainEqual(document);
      errorOf(await api.getDocument('987654321'), 404, 'resource_not_found');
    });

    it('patches fileName and description', async () => {
      const document = await uploadOne();
      clock.advance(2_000);
      const patched = dataOf(await api.patchDocument(document.id, { fileName: 'Renamed letter.pdf', description: 'From the mayor' }), Document);
      expect(patched).toEqual({ ...document, fileName: 'Renamed letter.pdf', description: 'From the mayor', updated_at: clock.now().toISOString() });
      expect(dataOf(await api.getDocument(document.id), Document)).toEqual(patched);
      const onlyDescription = dataOf(await api.patchDocument(document.id, { description: 'Second thoughts' }), Document);
      expect(onlyDescription.fileName).toBe('Renamed letter.pdf');
    });

    it.each([
      { label: 'no fields', body: {}, field: null },
      { label: 'empty fileName', body: { fileName: '' }, field: 'fileName' },
      { label: 'fileName with a slash', body: { fileName: 'a/b.pdf' }, field: 'fileName' },
      { label: 'fileName with a control character', body: { fileName: 'a\u0007.pdf' }, field: 'fileName' },
      { label: 'numeric description', body: { description: 5 }, field: 'description' },
      { label: 'unknown field', body: { document_type: 'png' }, field: null },
    ])('refuses a PATCH with $label (400) and changes nothing', async ({ body, field }) => {
      const document = await uploadOne();
      const error = errorOf(await api.patchDocument(document.id, body), 400, 'validation_error');
      if (field) expect(detailFields(error)).toContain(field);
      expect(dataOf(await api.getDocument(document.id), Document)).toEqual(document);
    });

    it('deletes a document: 204, then 404 everywhere, and gone from the case list', async () => {
      const document = await uploadOne();
      const earlierUrl = dataOf(await api.downloadUrl(document.id), DownloadUrl).url;
      const response = await api.deleteDocument(document.id);
      expect(response.statusCode).toBe(204);
      expect(response.body).toBe('');
      errorOf(await api.getDocument(document.id), 404, 'resource_not_found');
      errorOf(await api.patchDocument(document.id, { description: 'x' }), 404, 'resource_not_found');
      errorOf(await api.downloadUrl(document.id), 404, 'resource_not_found');
      errorOf(await api.deleteDocument(document.id), 404, 'resource_not_found');
      errorOf(await getUrl(instance, earlierUrl), 404, 'resource_not_found');
      expect(pageOf(await api.caseDocuments(caseId), Document).data.map((item) => item.id)).not.toContain(document.id);
    });

    it("a soft-deleted case's documents stay readable", async () => {
      const target = await createCase(instance, 'Closed later');
      const [document] = await upload([{ name: 'kept.pdf', bytes: minimalPdf('kept') }], target);
      expect((await instance.request({ method: 'DELETE', url: `/api/v1/cases/${target}` })).statusCode).toBe(204);
      expect(dataOf(await api.getDocument(document?.id ?? ''), Document)).toEqual(document);
    });
  });

  describe('downloads', () => {
    it('returns a fresh URL each call, each usable once, serving the original bytes', async () => {
      const bytes = minimalPdf('download me');
      const document = await uploadOne('download me.pdf', bytes);
      const first = dataOf(await api.downloadUrl(document.id), DownloadUrl);
      const second = dataOf(await api.downloadUrl(document.id), DownloadUrl);
      expect(first.url).not.toBe(second.url);
      for (const issued of [first, second]) {
        const url = new URL(issued.url);
        expect(url.origin).toBe(instance.baseUrl);
        expect(url.pathname).toMatch(/^\/files\/downloads\/[A-Za-z0-9_-]{43}$/);
        expect(issued.expires_at).toBe(new Date(clock.now().getTime() + DOWNLOAD_TTL_MS).toISOString());
      }

      const got = await getUrl(instance, first.url);
      expect(got.statusCode).toBe(200);
      expect(sha256(got.rawPayload)).toBe(sha256(bytes));
      expect(sha256(got.rawPayload)).toBe(document.sha256);
      expect(got.headers['content-type']).toBe('application/pdf');
      expect(got.headers['content-length']).toBe(String(bytes.length));
      expect(String(got.headers['content-disposition'])).toMatch(/^attachment; filename="download me\.pdf"/);
      requestIdOf(got);

      errorOf(await getUrl(instance, first.url), 404, 'resource_not_found');
      const viaSecond = await getUrl(instance, second.url);
      expect(viaSecond.statusCode).toBe(200);
      expect(sha256(viaSecond.rawPayload)).toBe(sha256(bytes));
      errorOf(await getUrl(instance, second.url), 404, 'resource_not_found');
    });

    it('downloads over real HTTP with identical bytes', async () => {
      const bytes = tinyJpeg();
      const document = await uploadOne('picture.bin', bytes);
      const { url } = dataOf(await api.downloadUrl(document.id), DownloadUrl);
      const response = await fetch(url);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('image/jpeg');
      expect(sha256(Buffer.from(await response.arrayBuffer()))).toBe(sha256(bytes));
      expect((await fetch(url)).status).toBe(404);
    });

    it('an expired download URL answers 404', async () => {
      const document = await uploadOne();
      const { url } = dataOf(await api.downloadUrl(document.id), DownloadUrl);
      clock.advance(DOWNLOAD_TTL_MS + 1_000);
      errorOf(await getUrl(instance, url), 404, 'resource_not_found');
    });
  });

  describe('audit log and events', () => {
    it('writes document.created, document.updated and document.deleted with actor and request id', async () => {
      const keyId = dataOf(await instance.request({ method: 'GET', url: '/api/v1/me' }), Me).api_key.id;
      const bytes = minimalPdf('evented');
      const opened = await session([{ name: 'evented.pdf', size: bytes.length }]);
      dataOf(await putUpload(instance, urlOf(opened), bytes), UploadReceipt);
      const completeResponse = await api.complete(opened.id);
      const [document] = dataOf(completeResponse, UploadSession).documents;
      if (!document) throw new Error('no document');
      const patchResponse = await api.patchDocument(document.id, { description: 'annotated' });
      const patched = dataOf(patchResponse, Document);
      const deleteResponse = await api.deleteDocument(document.id);
      expect(deleteResponse.statusCode).toBe(204);

      const events = await eventsOf(instance, 'document', document.id);
      expect(events.map((event) => event.type)).toEqual(['document.created', 'document.updated', 'document.deleted']);
      expect(events[0]?.payload).toEqual({ document });
      expect(events[1]?.payload).toEqual({ document: patched, changed: ['description'] });
      expect(events[2]?.payload).toEqual({ document: patched });

      const audit = await auditOf(instance, 'document', document.id);
      expect(audit.map((row) => [row.action, row.actor_type, row.actor_id, row.request_id])).toEqual([
        ['document.create', 'api_key', keyId, requestIdOf(completeResponse)],
        ['document.update', 'api_key', keyId, requestIdOf(patchResponse)],
        ['document.delete', 'api_key', keyId, requestIdOf(deleteResponse)],
      ]);

      const fileId = opened.files[0]?.id ?? '';
      const received = await auditOf(instance, 'upload_file', fileId);
      expect(received.map((row) => [row.action, row.actor_type, row.actor_id])).toEqual([['upload_file.receive', 'upload_url', fileId]]);
      expect(JSON.parse(received[0]?.details ?? 'null')).toMatchObject({ sha256: sha256(bytes), size: bytes.length, media_type: 'application/pdf' });
    });

    it('one document.created event per document of a multi-file session', async () => {
      const documents = await upload([
        { name: 'm1.pdf', bytes: minimalPdf('m1') },
        { name: 'm2.png', bytes: tinyPng() },
        { name: 'm3.jpg', bytes: tinyJpeg() },
      ]);
      for (const document of documents) {
        expect((await eventsOf(instance, 'document', document.id)).map((event) => [event.type, event.payload])).toEqual([['document.created', { document }]]);
      }
    });
  });
});
