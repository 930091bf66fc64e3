import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Document } from '../../main/common/schemas/documents.js';
import { createCase, startInstance, uploadDocuments, type TestInstance } from '../helpers/instance.js';
import { dataOf, keyOf } from '../helpers/integration-support.js';
import { tinyPdf } from '../helpers/search-support.js';

// An upload whose SHA-256 matches a live document of the same case is recorded as a duplicate of the first
// copy, on the completion answer and the document resource; other cases and organizations do not count.

let instance: TestInstance;

beforeAll(async () => {
  instance = await startInstance({ config: { rateLimits: { enabled: false } } });
});

afterAll(async () => {
  await instance.close();
});

async function documentOf(id: string, key?: string) {
  return dataOf(await instance.request({ method: 'GET', url: `/api/v1/documents/${id}`, ...(key && { key }) }), Document);
}

describe('duplicate uploads', () => {
  it('names the first copy in the completion answer and the document resource', async () => {
    const caseId = await createCase(instance, 'Duplicates');
    const bytes = await tinyPdf('dup');
    const [first] = await uploadDocuments(instance, caseId, [{ name: 'a.pdf', bytes }]);
    const again = await uploadDocuments(instance, caseId, [
      { name: 'a-copy.pdf', bytes },
      { name: 'other.pdf', bytes: await tinyPdf('other') },
      { name: 'a-third.pdf', bytes },
    ]);
    expect((await documentOf(first?.id ?? '')).duplicate_of).toBeNull();
    expect(again.map((document) => (document as { duplicate_of?: string | null }).duplicate_of)).toEqual([first?.id, null, first?.id]);
    expect((await documentOf(again[0]?.id ?? '')).duplicate_of).toBe(first?.id);
    expect((await documentOf(again[1]?.id ?? '')).duplicate_of).toBeNull();
  });

  it('counts only live documents of the same case, in the same organization', async () => {
    const bytes = await tinyPdf('scoped');
    const one = await createCase(instance, 'One');
    const two = await createCase(instance, 'Two');
    const [original] = await uploadDocuments(instance, one, [{ name: 'x.pdf', bytes }]);
    const [elsewhere] = await uploadDocuments(instance, two, [{ name: 'x.pdf', bytes }]);
    expect((await documentOf(elsewhere?.id ?? '')).duplicate_of).toBeNull();
    const otherKey = keyOf(instance, 1);
    const theirCase = await createCase(instance, 'Theirs', otherKey);
    const [theirs] = await uploadDocuments(instance, theirCase, [{ name: 'x.pdf', bytes }], otherKey);
    expect((await documentOf(theirs?.id ?? '', otherKey)).duplicate_of).toBeNull();
    // Within one session the second copy points at the first.
    const [, second] = await uploadDocuments(instance, theirCase, [{ name: 'y.pdf', bytes: await tinyPdf('y') }, { name: 'x2.pdf', bytes }], otherKey);
    expect((await documentOf(second?.id ?? '', otherKey)).duplicate_of).toBe(theirs?.id);
    // Deleting the first copy makes the next upload new again.
    expect((await instance.request({ method: 'DELETE', url: `/api/v1/documents/${original?.id}` })).statusCode).toBe(204);
    const [fresh] = await uploadDocuments(instance, one, [{ name: 'x-again.pdf', bytes }]);
    expect((await documentOf(fresh?.id ?? '')).duplicate_of).toBeNull();
  });
});
