import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCase, minimalPdf, startInstance, uploadDocuments, type TestInstance } from '../helpers/instance.js';

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
