import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUserAndSignIn, signInAdmin, type AppClient } from '../helpers/app-session.js';
import { createCase, startInstance, uploadDocuments, type TestInstance } from '../helpers/instance.js';
import { minimalPdf } from '../helpers/temp.js';

function pdfBox(layer = 'B6', extra: Record<string, unknown> = {}) {
  return { redaction_id: randomUUID(), page_number: 1, redaction_type: 'rectangle', layer, pdf_x1: 10, pdf_y1: 20, pdf_x2: 110, pdf_y2: 60, pdf_polygon_points: [], ...extra };
}

describe('application redactions: basic flow', () => {
  let instance: TestInstance;
  let admin: AppClient;
  let docId: string;
  beforeAll(async () => {
    instance = await startInstance();
    admin = await signInAdmin(instance);
    const caseId = await createCase(instance);
    docId = (await uploadDocuments(instance, caseId, [{ name: 'a.pdf', bytes: minimalPdf() }]))[0]!.id;
  });
  afterAll(() => instance.close());

  it('saves, versions, lists, and reads back through the integration API', async () => {
    const first = await admin.request('POST', `/api/redactions/${docId}`, { redactions: [pdfBox()] });
    expect(first.statusCode).toBe(201);
    expect(first.json()).toMatchObject({ success: true, message: 'Saved 1 redaction(s)', count: 1, version: 1, layer: 'B6' });
    const stale = await admin.request('POST', `/api/redactions/${docId}`, { redactions: [pdfBox()], versionInfo: { versionId: null } });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().currentVersion.version_id).toBe(first.json().version_id);
    const second = await admin.request('POST', `/api/redactions/${docId}`, { redactions: [pdfBox()], versionInfo: { versionId: first.json().version_id } });
    expect(second.statusCode).toBe(201);
    expect(second.json().version).toBe(2);
    const list = await admin.request('GET', `/api/redactions/${docId}`);
    expect(list.json().count).toBe(2);
    const v1 = await instance.request({ method: 'GET', url: `/api/v1/documents/${docId}/redactions` });
    expect(v1.statusCode).toBe(200);
    expect(v1.json().data).toHaveLength(2);
    expect(v1.json().data[0].coordinates).toMatchObject({ page: 1, units: 'pdf_points', box: { x1: 10, y1: 20, x2: 110, y2: 60 } });
  });

  it('a lock held by one user blocks another user and an integration PATCH', async () => {
    const clerk = await createUserAndSignIn(instance);
    const lock = await clerk.request('POST', `/api/redactions/${docId}/layer/B5/lock`);
    expect(lock.statusCode).toBe(200);
    const blocked = await admin.request('POST', `/api/redactions/${docId}`, { redactions: [pdfBox('B5')] });
    expect(blocked.statusCode).toBe(423);
    expect(blocked.json().locked_by).toBeTruthy();
    const own = await clerk.request('POST', `/api/redactions/${docId}`, { redactions: [pdfBox('B5')] });
    expect(own.statusCode).toBe(201);
    const listed = await instance.request({ method: 'GET', url: `/api/v1/documents/${docId}/redactions` });
    const b5 = (listed.json().data as { id: string; layer: string }[]).find((item) => item.layer === 'B5')!;
    const patch = await instance.request({ method: 'PATCH', url: `/api/v1/redactions/${b5.id}`, body: { reason: 'privacy' } });
    expect(patch.statusCode).toBe(423);
    expect(patch.json().error.code).toBe('locked');
    expect(patch.json().error.locked_layers).toEqual(['B5']);
  });
});

describe('application paths answer shared refusals in their own error body', () => {
  let instance: TestInstance;
  beforeAll(async () => {
    instance = await startInstance();
  });
  afterAll(() => instance.close());

  it('a foreign Host on /api/redactions gets a 403 whose error is text', async () => {
    const response = await instance.server.app.inject({ method: 'GET', url: '/api/redactions/1', headers: { host: 'evil.example:80' } });
    expect(response.statusCode).toBe(403);
    const body = response.json() as { success: boolean; error: unknown; message: unknown; code: string };
    expect(body.success).toBe(false);
    expect(typeof body.error).toBe('string');
    expect(body.message).toBe(body.error);
    expect(body.code).toBe('permission_denied');
  });

  it('an unknown application route gets a 404 whose error is text, while /api/v1 keeps its envelope', async () => {
    const app = await instance.server.app.inject({ method: 'GET', url: '/ocr/nowhere', headers: { host: instance.host } });
    expect(app.statusCode).toBe(404);
    expect(typeof (app.json() as { error: unknown }).error).toBe('string');
    const v1 = await instance.request({ method: 'GET', url: '/api/v1/nowhere' });
    expect(v1.statusCode).toBe(404);
    expect((v1.json() as { error: { code: string } }).error.code).toBe('resource_not_found');
  });
});
