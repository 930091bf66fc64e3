import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AuditEntry } from '../../main/common/schemas/audit.js';
import { auditCsv } from '../../main/services/audit/index.js';
import { storePages } from '../helpers/analysis-support.js';
import { layoutPage } from '../helpers/page-layout.js';
import { createCase, startInstance, uploadDocuments, type TestInstance } from '../helpers/instance.js';
import { errorOf, keyOf, pageOf } from '../helpers/integration-support.js';
import { tinyPdf } from '../helpers/search-support.js';

// The audit trail of a case through the API: who did what and when, redaction boxes before and after,
// filters, paging and the CSV export.

let instance: TestInstance;
let caseId: string;
let documentId: string;
let otherDocument: string;

async function audit(query = ''): Promise<z.infer<typeof AuditEntry>[]> {
  return pageOf(await instance.request({ method: 'GET', url: `/api/v1/cases/${caseId}/audit?limit=100${query}` }), AuditEntry).data;
}

beforeAll(async () => {
  instance = await startInstance({ config: { rateLimits: { enabled: false } } });
  caseId = await createCase(instance, 'Audited');
  const documents = await uploadDocuments(instance, caseId, [
    { name: 'a.pdf', bytes: await tinyPdf('audit-a') },
    { name: 'b.pdf', bytes: await tinyPdf('audit-b') },
  ]);
  documentId = documents[0]?.id ?? '';
  otherDocument = documents[1]?.id ?? '';
  await storePages(instance, documentId, [layoutPage(['Payment to =Jane Roe approved'])]);
  const redacted = await instance.request({ method: 'POST', url: `/api/v1/cases/${caseId}/search/redactions`, body: { query: 'jane roe', layer: 'B6', state: 'pending' } });
  expect(redacted.statusCode, redacted.body).toBe(201);
  const [id] = (redacted.json() as { data: { redaction_ids: string[] } }).data.redaction_ids;
  const decided = await instance.request({ method: 'POST', url: `/api/v1/documents/${documentId}/review-decisions`, body: { decisions: [{ redaction_id: id, decision: 'accept', reason: 'privacy' }] } });
  expect(decided.statusCode, decided.body).toBe(201);
  expect((await instance.request({ method: 'PATCH', url: `/api/v1/cases/${caseId}`, body: { priority: 'high' } })).statusCode).toBe(200);
});

afterAll(async () => {
  await instance.close();
});

describe('GET /cases/{id}/audit', () => {
  it('lists the case history newest first, with boxes before and after each layer write', async () => {
    const entries = await audit();
    const actions = entries.map((entry) => entry.action);
    expect(actions[0]).toBe('case.update');
    expect(actions).toEqual(expect.arrayContaining(['case.create', 'document.create', 'redactions.write', 'search.redact']));
    expect(entries.map((entry) => Number(entry.id))).toEqual([...entries.map((entry) => Number(entry.id))].sort((a, b) => b - a));
    const writes = entries.filter((entry) => entry.action === 'redactions.write');
    expect(writes).toHaveLength(2);
    const [decision, creation] = writes;
    expect(creation?.changes).toEqual([{ redaction_id: expect.any(String), change: 'created', before: null, after: expect.objectContaining({ state: 'pending', layer: 'B6' }) }]);
    expect(decision?.changes?.[0]).toMatchObject({ change: 'updated', before: { state: 'pending' }, after: { state: 'accepted' } });
    expect(decision?.document_id).toBe(documentId);
    expect(entries.every((entry) => entry.actor.type === 'api_key' || entry.actor.type === 'system')).toBe(true);
  });

  it('filters by action prefix, document and actor, and pages without repeats', async () => {
    expect((await audit('&action=redactions.')).map((entry) => entry.action)).toEqual(['redactions.write', 'redactions.write']);
    const ofOther = await audit(`&document_id=${otherDocument}`);
    expect(ofOther.map((entry) => entry.action)).toEqual(['document.create']);
    const actor = (await audit())[0]?.actor;
    const byActor = await audit(`&actor=${actor?.type}:${actor?.id}`);
    expect(byActor.length).toBeGreaterThan(3);
    expect(await audit('&actor=user:999')).toEqual([]);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const response = await instance.request({ method: 'GET', url: `/api/v1/cases/${caseId}/audit?limit=2${cursor ? `&cursor=${cursor}` : ''}` });
      const page = pageOf(response, AuditEntry);
      seen.push(...page.data.map((entry) => entry.id));
      cursor = page.cursor;
    } while (cursor);
    expect(seen).toEqual((await audit()).map((entry) => entry.id));
  });

  it('lists the history of a case without documents', async () => {
    const empty = await createCase(instance, 'Nothing uploaded');
    const entries = pageOf(await instance.request({ method: 'GET', url: `/api/v1/cases/${empty}/audit` }), AuditEntry).data;
    expect(entries.map((entry) => entry.action)).toEqual(['case.create']);
  });

  it('refuses documents of other cases and other organizations\' cases', async () => {
    const other = await createCase(instance, 'Elsewhere');
    const [foreign] = await uploadDocuments(instance, other, [{ name: 'c.pdf', bytes: await tinyPdf('audit-c') }]);
    errorOf(await instance.request({ method: 'GET', url: `/api/v1/cases/${caseId}/audit?document_id=${foreign?.id}` }), 400, 'validation_error');
    errorOf(await instance.request({ method: 'GET', url: `/api/v1/cases/${caseId}/audit`, key: keyOf(instance, 1) }), 404, 'resource_not_found');
    errorOf(await instance.request({ method: 'GET', url: `/api/v1/cases/${caseId}/audit.csv`, key: keyOf(instance, 1) }), 404, 'resource_not_found');
  });

  it('exports the same history as CSV, one row per box change, formulas defused', async () => {
    const response = await instance.request({ method: 'GET', url: `/api/v1/cases/${caseId}/audit.csv?action=redactions.` });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toBe(`attachment; filename="case-${caseId}-audit.csv"`);
    const lines = response.body.trimEnd().split('\r\n');
    expect(lines[0]).toBe('id,at,actor,actor_name,action,resource_type,resource_id,document_id,redaction_id,change,before,after,details');
    expect(lines).toHaveLength(3);
    expect(lines[1]).toContain(',updated,');
    expect(lines[2]).toContain(',created,,');
    const all = await instance.request({ method: 'GET', url: `/api/v1/cases/${caseId}/audit.csv` });
    expect(all.body.trimEnd().split('\r\n').length).toBe((await audit()).length + 1);
    // A name a spreadsheet would run as a formula is written as text; quotes and commas are quoted.
    const row = auditCsv([{ id: '1', at: '2031-01-01T00:00:00.000Z', actor: { type: 'user', id: '2', name: '=HYPERLINK("x")' }, action: 'case.update', resource_type: 'case', resource_id: '3', document_id: null, details: { a: 1 } }]);
    expect(row.split('\r\n')[1]).toBe(`1,2031-01-01T00:00:00.000Z,user:2,"'=HYPERLINK(""x"")",case.update,case,3,,,,,,"{""a"":1}"`);
  });
});
