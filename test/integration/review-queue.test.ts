import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { QueueResult } from '../../main/common/schemas/review-queue.js';
import { closeHarness, harness, runJob, storePages, type Harness } from '../helpers/analysis-support.js';
import { layoutPage } from '../helpers/page-layout.js';
import { createCase, uploadDocuments } from '../helpers/instance.js';
import { dataOf, errorOf, keyOf } from '../helpers/integration-support.js';
import { tinyPdf } from '../helpers/search-support.js';

// The case-wide suggestions queue: detection's findings (run for real on worker threads: `npm run
// build:main` first) with the words under each box, filters, and decisions on one value across documents.

let h: Harness;
let caseId: string;
let first: string;
let second: string;

async function queue(query = '') {
  return dataOf(await h.instance.request({ method: 'GET', url: `/api/v1/cases/${caseId}/suggestions${query}` }), QueueResult);
}

beforeAll(async () => {
  h = await harness();
  caseId = await createCase(h.instance, 'Review queue');
  const documents = await uploadDocuments(h.instance, caseId, [
    { name: 'first.pdf', bytes: await tinyPdf('queue-1') },
    { name: 'second.pdf', bytes: await tinyPdf('queue-2') },
  ]);
  first = documents[0]?.id ?? '';
  second = documents[1]?.id ?? '';
  await storePages(h.instance, first, [layoutPage(['Applicant SSN 123-45-6789 on file', 'Write to john.smith@example.com today'])]);
  await storePages(h.instance, second, [layoutPage(['The SSN 123-45-6789 again', 'and another SSN 512-44-7781 here'])]);
  for (const id of [first, second]) expect((await runJob(h.instance, id, 'detection')).status).toBe('completed');
}, 60_000);

afterAll(async () => {
  await closeHarness(h);
});

describe('GET /cases/{id}/suggestions', () => {
  it('lists every pending suggestion of the case with its text, kind, document, page and context', async () => {
    const all = await queue();
    const ssn = all.items.filter((item) => item.kind === 'ssn');
    expect(ssn.map((item) => [item.file_name, item.page, item.text])).toEqual([
      ['first.pdf', 1, '123-45-6789'],
      ['second.pdf', 1, '123-45-6789'],
      ['second.pdf', 1, '512-44-7781'],
    ]);
    expect(ssn[0]?.context).toBe('Applicant SSN 123-45-6789 on file Write to john.smith@example.com today');
    expect(ssn[0]).toMatchObject({ layer: 'B6', exemption: '(b)(6)', label: 'US Social Security number' });
    expect(all.items.find((item) => item.kind === 'email')?.text).toBe('john.smith@example.com');
    expect(all.by_kind.ssn).toBe(3);
    expect(all.total).toBe(all.items.length);
  });

  it('filters by kind, document and value (case and diacritics ignored)', async () => {
    expect((await queue('?kind=email')).items.map((item) => item.text)).toEqual(['john.smith@example.com']);
    expect((await queue(`?document_id=${second}`)).items.map((item) => item.text)).toEqual(['123-45-6789', '512-44-7781']);
    expect((await queue('?value=JOHN.SMITH@EXAMPLE.COM')).total).toBe(1);
    errorOf(await h.instance.request({ method: 'GET', url: `/api/v1/cases/${caseId}/suggestions`, key: keyOf(h.instance, 1) }), 404, 'resource_not_found');
  });
});

describe('POST /cases/{id}/suggestions/decisions', () => {
  it('accepts one value everywhere in the case and leaves the rest pending', async () => {
    const response = await h.instance.request({ method: 'POST', url: `/api/v1/cases/${caseId}/suggestions/decisions`, body: { decision: 'accept', value: '123-45-6789', kind: 'ssn' } });
    expect(dataOf(response, z.object({ decided: z.number(), documents: z.number() }), 201)).toEqual({ decided: 2, documents: 2 });
    const left = await queue('?kind=ssn');
    expect(left.items.map((item) => item.text)).toEqual(['512-44-7781']);
    for (const id of [first, second]) {
      const listed = (await h.instance.request({ method: 'GET', url: `/api/v1/documents/${id}/redactions?limit=100` })).json() as { data: { state: string; review: { decision: string; reason: string } | null; pending_reason: { entity?: string } }[] };
      const accepted = listed.data.filter((box) => box.state === 'accepted');
      expect(accepted).toHaveLength(1);
      expect(accepted[0]?.review).toMatchObject({ decision: 'accept', reason: 'accepted everywhere in the case: 123-45-6789' });
    }
    const rejected = await h.instance.request({ method: 'POST', url: `/api/v1/cases/${caseId}/suggestions/decisions`, body: { decision: 'reject', value: 'john.smith@example.com' } });
    expect(dataOf(rejected, z.object({ decided: z.number(), documents: z.number() }), 201)).toEqual({ decided: 1, documents: 1 });
    expect((await queue()).items.map((item) => item.text)).toEqual(['512-44-7781']);
    // Nothing left with that value: nothing decided.
    const again = await h.instance.request({ method: 'POST', url: `/api/v1/cases/${caseId}/suggestions/decisions`, body: { decision: 'accept', value: '123-45-6789' } });
    expect(dataOf(again, z.object({ decided: z.number(), documents: z.number() }), 201)).toEqual({ decided: 0, documents: 0 });
  });
});
