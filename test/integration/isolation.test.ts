import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Case } from '../../main/common/schemas/cases.js';
import { Document, DownloadUrl, UploadSession } from '../../main/common/schemas/documents.js';
import { createCase, startInstance, uploadDocuments, type TestInstance } from '../helpers/instance.js';
import { minimalPdf } from '../helpers/temp.js';
import { dataOf, errorOf, keyOf, pageOf, putUpload, tableCounts, type Page, type Response } from '../helpers/integration-support.js';

const ABSENT_ID = '987654321';

interface Route {
  name: string;
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** Builds the path for a given id of the route's resource. */
  path: (id: string) => string;
  body?: unknown;
  /** Which of org 1's resources the route addresses. */
  target: 'case' | 'document' | 'session';
}

/** Every /api/v1 route that names a resource. */
const ROUTES: Route[] = [
  { name: 'GET case', method: 'GET', path: (id) => `/api/v1/cases/${id}`, target: 'case' },
  { name: 'PATCH case', method: 'PATCH', path: (id) => `/api/v1/cases/${id}`, body: { description: 'hijacked' }, target: 'case' },
  { name: 'PATCH case status', method: 'PATCH', path: (id) => `/api/v1/cases/${id}`, body: { status: 'cancelled' }, target: 'case' },
  { name: 'DELETE case', method: 'DELETE', path: (id) => `/api/v1/cases/${id}`, target: 'case' },
  { name: 'case action', method: 'POST', path: (id) => `/api/v1/cases/${id}/actions`, body: { action: 'start' }, target: 'case' },
  { name: 'case documents', method: 'GET', path: (id) => `/api/v1/cases/${id}/documents`, target: 'case' },
  { name: 'upload session', method: 'POST', path: (id) => `/api/v1/cases/${id}/upload-sessions`, body: { files: [{ name: 'x.pdf', size: 10 }] }, target: 'case' },
  { name: 'complete upload session', method: 'POST', path: (id) => `/api/v1/upload-sessions/${id}/complete`, target: 'session' },
  { name: 'GET document', method: 'GET', path: (id) => `/api/v1/documents/${id}`, target: 'document' },
  { name: 'PATCH document', method: 'PATCH', path: (id) => `/api/v1/documents/${id}`, body: { fileName: 'stolen.pdf' }, target: 'document' },
  { name: 'DELETE document', method: 'DELETE', path: (id) => `/api/v1/documents/${id}`, target: 'document' },
  { name: 'document download-url', method: 'GET', path: (id) => `/api/v1/documents/${id}/download-url`, target: 'document' },
];

const Body = z.object({ request_id: z.string() }).catchall(z.unknown());

/** The response body without its request id, which differs on every response. */
function bodyWithoutRequestId(response: Response): Record<string, unknown> {
  const { request_id: _requestId, ...rest } = Body.parse(JSON.parse(response.body));
  return rest;
}

describe('organization isolation', () => {
  let instance: TestInstance;
  let org2Key: string;
  const ids = { case: '', document: '', session: '' };
  let pdf: Buffer;

  beforeAll(async () => {
    instance = await startInstance({ config: { rateLimits: { enabled: false } } });
    org2Key = keyOf(instance, 1);
    pdf = minimalPdf('organization one');
    ids.case = await createCase(instance, 'Org 1 case');
    const [document] = await uploadDocuments(instance, ids.case, [{ name: 'org1.pdf', bytes: pdf }]);
    ids.document = document?.id ?? '';
    // An open session whose file is uploaded: completing it would create a document.
    const session = dataOf(
      await instance.request({ method: 'POST', url: `/api/v1/cases/${ids.case}/upload-sessions`, body: { files: [{ name: 'pending.pdf', size: pdf.length }] } }),
      UploadSession,
      201,
    );
    ids.session = session.id;
    const url = session.files[0]?.upload_url ?? '';
    expect((await putUpload(instance, url, pdf)).statusCode).toBe(200);
    // Org 2 has resources of its own, so its key is a working key with data.
    await createCase(instance, 'Org 2 case', org2Key);
  });
  afterAll(() => instance.close());

  async function snapshot() {
    const db = instance.runtime.db;
    return {
      counts: await tableCounts(instance),
      case: await db.selectFrom('cases').selectAll().where('id', '=', Number(ids.case)).executeTakeFirst(),
      document: await db.selectFrom('documents').selectAll().where('id', '=', Number(ids.document)).executeTakeFirst(),
      session: await db.selectFrom('upload_sessions').selectAll().where('id', '=', Number(ids.session)).executeTakeFirst(),
    };
  }

  it.each(ROUTES)("$name: org 1's resource with org 2's key looks exactly like an absent one", async (route) => {
    const send = (id: string, key: string) =>
      instance.request({ method: route.method, url: route.path(id), key, ...(route.body !== undefined && { body: route.body }) });
    const before = await snapshot();

    const foreign = await send(ids[route.target], org2Key);
    const absent = await send(ABSENT_ID, org2Key);
    errorOf(foreign, 404, 'resource_not_found');
    errorOf(absent, 404, 'resource_not_found');
    expect(bodyWithoutRequestId(foreign)).toEqual(bodyWithoutRequestId(absent));
    expect(Object.keys(foreign.headers).sort()).toEqual(Object.keys(absent.headers).sort());

    // And to org 1 itself an absent id answers the same way.
    expect(bodyWithoutRequestId(await send(ABSENT_ID, keyOf(instance, 0)))).toEqual(bodyWithoutRequestId(absent));
    expect(await snapshot()).toEqual(before);
  });

  it("org 2's case list never shows org 1's cases, on any page", async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: Page<Case> = pageOf(await instance.request({ method: 'GET', url: `/api/v1/cases?limit=1${cursor ? `&cursor=${cursor}` : ''}`, key: org2Key }), Case);
      seen.push(...page.data.map((item) => item.name));
      cursor = page.cursor;
    } while (cursor);
    expect(seen).toEqual(['Org 2 case']);
  });

  it("a cursor from org 1's list does not reveal org 1's rows to org 2", async () => {
    await createCase(instance, 'Org 1 second case');
    const org1Page = pageOf(await instance.request({ method: 'GET', url: '/api/v1/cases?limit=1' }), Case);
    expect(org1Page.cursor).not.toBeNull();
    const response = await instance.request({ method: 'GET', url: `/api/v1/cases?cursor=${org1Page.cursor ?? ''}`, key: org2Key });
    if (response.statusCode === 200) {
      expect(pageOf(response, Case).data.every((item) => item.name.startsWith('Org 2'))).toBe(true);
    } else {
      errorOf(response, 400, 'validation_error');
    }
  });

  it("org 1's resources are untouched and still work for org 1 after every attempt", async () => {
    const got = dataOf(await instance.request({ method: 'GET', url: `/api/v1/cases/${ids.case}` }), Case);
    expect(got).toMatchObject({ name: 'Org 1 case', status: 'open', description: '' });
    const document = dataOf(await instance.request({ method: 'GET', url: `/api/v1/documents/${ids.document}` }), Document);
    expect(document.fileName).toBe('org1.pdf');
    dataOf(await instance.request({ method: 'GET', url: `/api/v1/documents/${ids.document}/download-url` }), DownloadUrl);
    const completed = dataOf(await instance.request({ method: 'POST', url: `/api/v1/upload-sessions/${ids.session}/complete` }), UploadSession);
    expect(completed.documents.map((item) => item.fileName)).toEqual(['pending.pdf']);
  });

  it("org 1's key cannot reach org 2's case either", async () => {
    const org2Case = pageOf(await instance.request({ method: 'GET', url: '/api/v1/cases', key: org2Key }), Case).data[0];
    if (!org2Case) throw new Error('org 2 has no case');
    const foreign = await instance.request({ method: 'GET', url: `/api/v1/cases/${org2Case.id}` });
    const absent = await instance.request({ method: 'GET', url: `/api/v1/cases/${ABSENT_ID}` });
    errorOf(foreign, 404, 'resource_not_found');
    expect(bodyWithoutRequestId(foreign)).toEqual(bodyWithoutRequestId(absent));
  });
});
