import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { SearchRedactResult, SearchResult } from '../../main/common/schemas/search.js';
import { upsertDocumentPage } from '../../main/db/queries/document-pages.js';
import { startScheduler, type JobScheduler } from '../../main/jobs/scheduler.js';
import { storePages } from '../helpers/analysis-support.js';
import { layoutPage, boxOf } from '../helpers/page-layout.js';
import { createCase, startInstance, uploadDocuments, type TestInstance } from '../helpers/instance.js';
import { auditOf, errorOf, keyOf, orgId, tableCounts } from '../helpers/integration-support.js';
import { contains, scanImage, scannedPdf } from '../helpers/ocr-fixtures.js';
import { ocrResultOf, startOcrJob, waitForJob } from '../helpers/ocr-support.js';
import { tinyPdf } from '../helpers/search-support.js';

// Case-wide search and search-and-redact through Fastify on real SQLite: pages stored as OCR stores them
// (and one scan OCR'd for real on worker threads: run `npm run build:main` first), hits checked against
// the known layout of every word.

const SearchPage = z.object({ data: SearchResult, cursor: z.string().nullable(), request_id: z.string() });
type Hit = z.infer<typeof SearchResult>['hits'][number];

let instance: TestInstance;
let scheduler: JobScheduler;
let caseId: string;
let memo: string;
let ledger: string;

async function search(body: Record<string, unknown>, options: { targetCase?: string; key?: string; query?: string } = {}) {
  return instance.request({ method: 'POST', url: `/api/v1/cases/${options.targetCase ?? caseId}/search${options.query ?? ''}`, body, ...(options.key && { key: options.key }) });
}

async function hitsOf(body: Record<string, unknown>, targetCase?: string): Promise<{ hits: Hit[]; total: number }> {
  const response = await search(body, { ...(targetCase && { targetCase }) });
  expect(response.statusCode, response.body).toBe(200);
  const page = SearchPage.parse(response.json());
  expect(page.cursor).toBeNull();
  return page.data;
}

const MEMO = [
  'Memo to the clerk about Jane',
  'Roe and her appeal of the assess-',
  'ment notice; JANE ROE wrote again',
  'Café receipts signed by José Núñez',
  'Account 4417-2231-0098 and 9911-0000-1234',
];
const LEDGER = ['Ledger entries for Jane Roebuck', 'Payment to Jane Roe on 2026-03-14', 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!'];

beforeAll(async () => {
  instance = await startInstance({ config: { rateLimits: { enabled: false } } });
  scheduler = startScheduler(instance.runtime, { poolSize: 2 });
  caseId = await createCase(instance, 'Search case');
  const documents = await uploadDocuments(instance, caseId, [
    { name: 'memo.pdf', bytes: await tinyPdf('memo') },
    { name: 'ledger.pdf', bytes: await tinyPdf('ledger') },
  ]);
  memo = documents[0]?.id ?? '';
  ledger = documents[1]?.id ?? '';
  await storePages(instance, memo, [layoutPage(MEMO)]);
  await storePages(instance, ledger, [layoutPage(LEDGER), layoutPage(['Second page mentions jane roe once'])]);
});

afterAll(async () => {
  await scheduler.stop();
  await instance.close();
});

describe('POST /cases/{id}/search', () => {
  it('finds a name across a line break and in every case, with one box per line piece', async () => {
    const { hits, total } = await hitsOf({ query: 'jane roe' });
    // memo: "Jane / Roe" (two lines), "JANE ROE"; ledger: "Jane Roe" (p1), "Jane Roe" inside "Jane Roebuck", "jane roe" (p2).
    expect(total).toBe(5);
    const broken = hits[0];
    expect(broken).toMatchObject({ document_id: memo, page: 1, text: 'Jane Roe', units: 'pdf_points', file_name: 'memo.pdf' });
    expect(broken?.boxes).toEqual([boxOf(0, 24, 28), boxOf(1, 0, 3)]);
    expect(broken?.box).toEqual({ x1: 72, y1: boxOf(1, 0, 3).y1, x2: boxOf(0, 24, 28).x2, y2: boxOf(0, 24, 28).y2 });
    expect(broken?.context).toContain('about Jane Roe and her');
    expect(hits[1]).toMatchObject({ text: 'JANE ROE', box: boxOf(2, 13, 21) });
    expect(hits[1]?.boxes).toBeUndefined();
    // A hit inside a longer word is cut to its own characters.
    expect(hits.find((hit) => hit.document_id === ledger && hit.page === 1 && hit.box.y1 === boxOf(0, 0, 1).y1)?.box).toEqual(boxOf(0, 19, 27));
  });

  it('joins a word hyphenated at a line end, and folds diacritics unless asked not to', async () => {
    const assessment = await hitsOf({ query: 'assessment notice' });
    expect(assessment.total).toBe(1);
    // The hyphen goes under the box with the word it split.
    expect(assessment.hits[0]?.boxes).toEqual([boxOf(1, 26, 33), boxOf(2, 0, 11)]);
    expect((await hitsOf({ query: 'jose nunez' })).hits.map((hit) => hit.text)).toEqual(['José Núñez']);
    expect((await hitsOf({ query: 'cafe' })).total).toBe(1);
    expect((await hitsOf({ query: 'JANE ROE', case_sensitive: true })).hits.map((hit) => hit.text)).toEqual(['JANE ROE']);
  });

  it('whole_word leaves out hits inside longer words', async () => {
    const { hits } = await hitsOf({ query: 'Jane Roe', whole_word: true });
    expect(hits).toHaveLength(4);
    expect(hits.some((hit) => hit.context.includes('Roebuck') && hit.page === 1 && hit.document_id === ledger && hit.box.x2 === boxOf(0, 0, 27).x2)).toBe(false);
  });

  it('phrase mode matches whole words with the diacritics as typed', async () => {
    expect((await hitsOf({ query: '"josé núñez"', mode: 'phrase' })).total).toBe(1);
    expect((await hitsOf({ query: 'jose nunez', mode: 'phrase' })).total).toBe(0);
    expect((await hitsOf({ query: 'jane roe', mode: 'phrase' })).total).toBe(4);
  });

  it('terms mode searches one term per line', async () => {
    const { hits } = await hitsOf({ query: 'Roebuck\n\nnúñez\n  receipts  ', mode: 'terms' });
    expect(hits.map((hit) => hit.text).sort()).toEqual(['Núñez', 'Roebuck', 'receipts']);
  });

  it('pattern mode runs RE2 patterns; one that would backtrack forever answers promptly', async () => {
    const accounts = await hitsOf({ query: String.raw`\d{4}-\d{4}-\d{4}`, mode: 'pattern' });
    expect(accounts.hits.map((hit) => hit.text)).toEqual(['4417-2231-0098', '9911-0000-1234']);
    expect(accounts.hits[0]?.box).toEqual(boxOf(4, 8, 22));
    expect((await hitsOf({ query: 'jane\\s+roe\\b', mode: 'pattern' })).total).toBe(4);
    expect((await hitsOf({ query: 'jane\\s+roe\\b', mode: 'pattern', case_sensitive: true })).hits.map((hit) => hit.page)).toEqual([2]);
    const started = performance.now();
    const evil = await hitsOf({ query: '(a+)+$', mode: 'pattern' });
    const nested = await hitsOf({ query: '(a|aa)+(a|aa)+#', mode: 'pattern' });
    expect(performance.now() - started).toBeLessThan(2000);
    expect(evil.total).toBe(0);
    expect(nested.total).toBe(0);
  });

  it('pages through hits with a cursor, none twice', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const response = await search({ query: 'e' }, { query: `?limit=7${cursor ? `&cursor=${cursor}` : ''}` });
      const page = SearchPage.parse(response.json());
      expect(page.data.hits.length).toBeLessThanOrEqual(7);
      seen.push(...page.data.hits.map((hit) => hit.ref));
      expect(page.data.total).toBeGreaterThan(20);
      cursor = page.cursor;
      if (!cursor) expect(seen).toHaveLength(page.data.total);
    } while (cursor);
    expect(new Set(seen).size).toBe(seen.length);
  });

  it('limits to document_ids and refuses documents of another case', async () => {
    expect((await hitsOf({ query: 'jane roe', document_ids: [ledger] })).total).toBe(3);
    const otherCase = await createCase(instance, 'Other');
    const [other] = await uploadDocuments(instance, otherCase, [{ name: 'o.pdf', bytes: await tinyPdf('o') }]);
    const error = errorOf(await search({ query: 'x', document_ids: [other?.id] }), 400, 'validation_error');
    expect(error.message).toContain(String(other?.id));
    errorOf(await search({ query: '(unclosed', mode: 'pattern' }), 400, 'validation_error');
    errorOf(await search({ query: 'x', mode: 'fuzzy' }), 400, 'validation_error');
    expect(errorOf(await search({ query: 'a'.repeat(1001), mode: 'pattern' }), 400, 'validation_error').message).toContain('at most 1000 characters');
  });

  it('keeps the index current: a replaced page is searched as it now reads, a deleted document not at all', async () => {
    const caseOwn = await createCase(instance, 'Current');
    const [doc] = await uploadDocuments(instance, caseOwn, [{ name: 'c.pdf', bytes: await tinyPdf('c') }]);
    await storePages(instance, doc?.id ?? '', [layoutPage(['Original text about Harold Finch'])]);
    expect((await hitsOf({ query: 'harold finch' }, caseOwn)).total).toBe(1);
    await upsertDocumentPage(instance.runtime.db, {
      organization_id: orgId(instance), document_id: Number(doc?.id), page_number: 1, source: 'ocr', job_id: null, unit: 'pdf_points',
      width: 612, height: 792, rotation: 0, mean_confidence: 90, created_at: new Date().toISOString(), ...layoutPageRow(['Replaced text about Reese']),
    });
    expect((await hitsOf({ query: 'harold finch' }, caseOwn)).total).toBe(0);
    expect((await hitsOf({ query: 'reese' }, caseOwn)).total).toBe(1);
    expect((await instance.request({ method: 'DELETE', url: `/api/v1/documents/${doc?.id}` })).statusCode).toBe(204);
    expect((await hitsOf({ query: 'reese' }, caseOwn)).total).toBe(0);
  });

  it('isolates organizations: another organization cannot search the case nor see its text', async () => {
    const otherKey = keyOf(instance, 1);
    errorOf(await search({ query: 'jane' }, { key: otherKey }), 404, 'resource_not_found');
    const theirs = await createCase(instance, 'Theirs', otherKey);
    const response = await search({ query: 'jane' }, { targetCase: theirs, key: otherKey });
    expect(SearchPage.parse(response.json()).data.total).toBe(0);
    errorOf(await instance.request({ method: 'POST', url: `/api/v1/cases/${caseId}/search/redactions`, key: otherKey, body: { query: 'jane', layer: 'B6' } }), 404, 'resource_not_found');
  });

  it('finds text in an OCR-read scan, with boxes over the words on the page', async () => {
    const scanCase = await createCase(instance, 'Scans');
    const image = scanImage({ widthPx: 2000, heightPx: 700, lines: ['The complaint names Margaret', 'Whitfield as the tenant of record'], fontPx: 60, marginPx: 80 });
    const { bytes, truth } = await scannedPdf([{ image }]);
    const [scan] = await uploadDocuments(instance, scanCase, [{ name: 'scan.pdf', bytes }]);
    ocrResultOf(await waitForJob(instance, (await startOcrJob(instance, scan?.id ?? '')).id));
    const { hits } = await hitsOf({ query: 'margaret whitfield' }, scanCase);
    expect(hits).toHaveLength(1);
    const [first, second] = hits[0]?.boxes ?? [];
    const at = (word: string) => truth[0]?.words.find((entry) => entry.text === word)?.at ?? [0, 0];
    expect(first && contains({ text: '', ...first }, at('Margaret'))).toBe(true);
    expect(second && contains({ text: '', ...second }, at('Whitfield'))).toBe(true);
  }, 120_000);
});

describe('POST /cases/{id}/search/redactions', () => {
  it('creates one pending redaction per hit piece, excludes what it is told, and creates nothing the second time', async () => {
    const { hits } = await hitsOf({ query: 'jane roe', whole_word: true });
    const skipped = hits.find((hit) => hit.document_id === ledger && hit.page === 2);
    const body = { query: 'jane roe', whole_word: true, layer: 'B6', exemption: '(b)(6)', state: 'pending', exclude: [skipped?.ref] };
    const first = await instance.request({ method: 'POST', url: `/api/v1/cases/${caseId}/search/redactions`, body });
    const created = z.object({ data: SearchRedactResult }).parse(first.json()).data;
    expect(first.statusCode).toBe(201);
    // 3 hits; the memo's line-broken hit is two boxes.
    expect(created).toMatchObject({ hits: 3, created: 4, documents: 2 });
    const listed = await instance.request({ method: 'GET', url: `/api/v1/documents/${memo}/redactions?limit=100` });
    const boxes = (listed.json() as { data: { id: string; state: string; layer: string; reason: string | null; coordinates: { page: number; box: unknown } }[] }).data;
    expect(boxes.map((box) => box.coordinates.box)).toEqual([boxOf(0, 24, 28), boxOf(1, 0, 3), boxOf(2, 13, 21)]);
    expect(boxes.every((box) => box.state === 'pending' && box.layer === 'B6' && box.reason === '(b)(6)')).toBe(true);
    expect(created.redaction_ids).toEqual(expect.arrayContaining(boxes.map((box) => box.id)));

    const before = await tableCounts(instance);
    const again = await instance.request({ method: 'POST', url: `/api/v1/cases/${caseId}/search/redactions`, body });
    expect(z.object({ data: SearchRedactResult }).parse(again.json()).data).toMatchObject({ created: 0, redaction_ids: [], hits: 3 });
    const versions = await instance.runtime.db.selectFrom('layer_versions').select('id').where('document_id', '=', Number(memo)).execute();
    expect(versions).toHaveLength(1);
    expect((await tableCounts(instance)).documents).toBe(before.documents);
    const audit = await auditOf(instance, 'case', caseId);
    expect(audit.filter((row) => row.action === 'search.redact')).toHaveLength(2);
  });

  it('accepted state writes accepted boxes; a bad layer changes nothing', async () => {
    const response = await instance.request({ method: 'POST', url: `/api/v1/cases/${caseId}/search/redactions`, body: { query: String.raw`\d{4}-\d{4}-\d{4}`, mode: 'pattern', layer: 'B7', state: 'accepted' } });
    const result = z.object({ data: SearchRedactResult }).parse(response.json()).data;
    expect(result.created).toBe(2);
    const before = await tableCounts(instance);
    errorOf(await instance.request({ method: 'POST', url: `/api/v1/cases/${caseId}/search/redactions`, body: { query: 'jane', layer: 'B9' } }), 400, 'validation_error');
    expect(await tableCounts(instance)).toEqual(before);
  });
});

function layoutPageRow(lines: string[]) {
  const page = layoutPage(lines);
  return { text: page.text, words: JSON.stringify(page.words) };
}
