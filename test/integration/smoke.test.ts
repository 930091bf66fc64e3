import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCase, startInstance, uploadDocuments, type TestInstance } from '../helpers/instance.js';
import { minimalPdf } from '../helpers/temp.js';

describe('smoke', () => {
  let instance: TestInstance;
  beforeAll(async () => {
    instance = await startInstance();
  });
  afterAll(() => instance.close());

  it('creates a case and uploads a PDF', async () => {
    const caseId = await createCase(instance);
    const documents = await uploadDocuments(instance, caseId, [{ name: 'letter.pdf', bytes: minimalPdf() }]);
    expect(documents).toHaveLength(1);
    const got = await instance.request({ method: 'GET', url: `/api/v1/documents/${documents[0]!.id}` });
    expect(got.statusCode).toBe(200);
    expect(got.json().data.document_type).toBe('pdf');
  });
});

describe('case reads after writes', () => {
  let instance: TestInstance;
  beforeAll(async () => {
    instance = await startInstance();
  });
  afterAll(() => instance.close());

  it('a read that follows a change sees the change (the row cache never serves a stale case)', async () => {
    const caseId = await createCase(instance, 'Before');
    const read = async () => (await instance.request({ method: 'GET', url: `/api/v1/cases/${caseId}` })).json().data as { name: string; status: string; priority: string };
    expect((await read()).name).toBe('Before');
    expect((await read()).name).toBe('Before');
    await instance.request({ method: 'PATCH', url: `/api/v1/cases/${caseId}`, body: { name: 'After', priority: 'urgent' } });
    expect(await read()).toMatchObject({ name: 'After', priority: 'urgent' });
    await instance.request({ method: 'POST', url: `/api/v1/cases/${caseId}/actions`, body: { action: 'start' } });
    expect((await read()).status).toBe('in_progress');
    const refused = await instance.request({ method: 'POST', url: `/api/v1/cases/${caseId}/actions`, body: { action: 'approve' } });
    expect(refused.statusCode).toBe(409);
    expect((await read()).status).toBe('in_progress');
    await instance.request({ method: 'DELETE', url: `/api/v1/cases/${caseId}` });
    expect((await read()).status).toBe('deleted');
  });
});
