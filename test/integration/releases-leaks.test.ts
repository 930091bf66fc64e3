import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertJob } from '../../main/db/queries/jobs.js';
import { insertUser } from '../../main/db/queries/users.js';
import { hashPassword } from '../../main/services/secrets.js';
import { signIn } from '../helpers/app-session.js';
import { downloadExport, exportFile, startExportHarness, waitForExport, type Harness } from '../helpers/export-fixtures.js';
import { encodings, pdftotext, qpdfExpanded } from '../helpers/pdf-tools.js';
import { createCase, uploadDocuments } from '../helpers/instance.js';
import { orgId } from '../helpers/integration-support.js';
import { approveCase, exportOf, pagesPdf, postExport, unzipAll, withhold } from '../helpers/release-support.js';
import { createBoxes, keyWithScopes, rect } from '../helpers/v1-redactions-support.js';

// Every internal field a case can hold gets its own distinctive value; no byte of the release package (every
// file unzipped, PDFs also decompressed by qpdf and read by pdftotext) may carry any of them. The internal
// record of the same case must carry them, so the values were really written where the test says.

const SECRETS = {
  caseName: 'ZQXCASENAME',
  caseDescription: 'ZQXCASEDESCRIPTION',
  documentDescription: 'ZQXDOCDESCRIPTION',
  comment: 'ZQXCOMMENTTEXT',
  userComment: 'ZQXUSERCOMMENT',
  redactionReason: 'ZQXREDACTIONREASON',
  rejectedReason: 'ZQXREJECTEDREASON',
  decisionReason: 'ZQXDECISIONREASON',
  suggestion: 'ZQXSUGGESTIONTEXT',
  summary: 'ZQXSUMMARYRESULT',
  jobError: 'ZQXJOBERROR',
  overrideReason: 'ZQXOVERRIDEREASON',
  userDisplayName: 'ZQXUSERDISPLAY',
  userLogin: 'zqxuserlogin',
  keyName: 'ZQXKEYNAME',
  boxedWord: 'ZQXBOXEDWORD',
  withheldPage: 'ZQXWITHHELDPAGE',
} as const;

/** Where a value could hide in one file: its bytes as text, and for PDFs the decompressed file and its text. */
function haystacks(name: string, bytes: Buffer): string[] {
  const texts = [bytes.toString('latin1'), bytes.toString('utf8'), bytes.toString('utf16le')];
  if (name.endsWith('.pdf')) texts.push(qpdfExpanded(bytes), pdftotext(bytes));
  return texts;
}

describe('release package leaks nothing internal', () => {
  let h: Harness;
  let caseId: string;
  let release: Map<string, Buffer>;

  beforeAll(async () => {
    h = await startExportHarness({ safeguards: true });
    const drawer = await keyWithScopes(h.instance, ['cases:read', 'cases:write', 'documents:read', 'documents:write', 'redactions:read', 'redactions:write', 'comments:write']);
    await h.instance.runtime.db.updateTable('api_keys').set({ name: SECRETS.keyName }).where('organization_id', '=', orgId(h.instance)).where('name', 'like', 'scoped %').execute();
    caseId = await createCase(h.instance, SECRETS.caseName, drawer);
    expect((await h.instance.request({ method: 'PATCH', url: `/api/v1/cases/${caseId}`, body: { description: SECRETS.caseDescription } })).statusCode).toBe(200);
    const bytes = await pagesPdf([['Public KEEPWORD', SECRETS.boxedWord], [SECRETS.withheldPage]]);
    const [document] = await uploadDocuments(h.instance, caseId, [{ name: 'record.pdf', bytes }], drawer);
    const documentId = document?.id ?? '';
    expect((await h.instance.request({ method: 'PATCH', url: `/api/v1/documents/${documentId}`, body: { description: SECRETS.documentDescription } })).statusCode).toBe(200);
    expect((await h.instance.request({ method: 'POST', url: `/api/v1/documents/${documentId}/comments`, body: { text: SECRETS.comment } })).statusCode).toBe(201);
    const now = new Date().toISOString();
    await insertUser(h.instance.runtime.db, { organization_id: orgId(h.instance), username: SECRETS.userLogin, display_name: SECRETS.userDisplayName, email: null, password_hash: await hashPassword('a long enough passphrase'), is_admin: 1, active: 1, created_at: now, updated_at: now });
    const user = await signIn(h.instance, SECRETS.userLogin, 'a long enough passphrase');
    const byUser = await h.instance.request({ method: 'POST', url: `/api/v1/documents/${documentId}/comments`, body: { text: SECRETS.userComment }, key: null, headers: { authorization: `Bearer ${user.token}` } });
    expect(byUser.statusCode, byUser.body).toBe(201);
    await createBoxes(h.instance, documentId, [rect({ reason: SECRETS.redactionReason, coordinates: { page: 1, units: 'pdf_points', box: { x1: 68, y1: 675, x2: 220, y2: 693 } } })], drawer);
    const [toReject] = await createBoxes(h.instance, documentId, [rect({ state: 'pending', reason: SECRETS.rejectedReason })], drawer);
    await createBoxes(h.instance, documentId, [rect({ state: 'pending', pending_reason: { entity: 'person_name', text: SECRETS.suggestion }, coordinates: { page: 1, units: 'pdf_points', box: { x1: 300, y1: 300, x2: 320, y2: 320 } } })], drawer);
    const decided = await h.instance.request({ method: 'POST', url: `/api/v1/documents/${documentId}/review-decisions`, body: { decisions: [{ redaction_id: toReject?.id, decision: 'reject', reason: SECRETS.decisionReason }] }, key: drawer });
    expect(decided.statusCode).toBe(201);
    const job = { organization_id: orgId(h.instance), document_id: Number(documentId), options: '{}', progress: 1, attempts: 1, created_at: now, started_at: now, finished_at: now, updated_at: now };
    await insertJob(h.instance.runtime.db, { ...job, kind: 'summary', status: 'completed', result: JSON.stringify({ summary: SECRETS.summary }), error_message: null });
    await insertJob(h.instance.runtime.db, { ...job, kind: 'ocr', status: 'failed', result: null, error_message: SECRETS.jobError });
    await withhold(h.instance, caseId, { document_id: documentId, pages: { from: 2, to: 2 }, exemption: '(b)(6)' }, drawer);
    await approveCase(h.instance, caseId);
    // A pending suggestion and a failed OCR job block the release: it goes out on an override with a reason.
    const queued = exportOf(await postExport(h.instance, { case_id: caseId, format: 'zip', options: { stamps: { prefix: 'R' }, cover_letter: true }, override: { reason: SECRETS.overrideReason } }));
    const done = await waitForExport(h.instance, queued.id, ['completed', 'failed'], 120_000);
    expect(done.error_message).toBeNull();
    release = unzipAll((await downloadExport(h.instance, done.id)).bytes);
  }, 120_000);
  afterAll(async () => {
    await h.close();
  });

  it('no file of the release, decompressed, holds any internal value', () => {
    expect(release.size).toBeGreaterThanOrEqual(5);
    expect(pdftotext(release.get('documents/001-record.pdf') as Buffer)).toContain('KEEPWORD');
    for (const [name, bytes] of release) {
      const texts = haystacks(name, bytes);
      for (const [field, secret] of Object.entries(SECRETS)) {
        for (const form of name.endsWith('.pdf') ? encodings(secret) : [secret, secret.toLowerCase()]) {
          expect(texts.some((text) => text.includes(form)), `${name} carries ${field} (${JSON.stringify(form)})`).toBe(false);
        }
      }
      // No coordinates, ids or internal names in the text files either.
      if (!name.endsWith('.pdf')) expect(bytes.toString('utf8'), name).not.toMatch(/"x1"|"document_id"|"case_id"|"export_id"|api_key:|user:\d|system:/);
    }
  });

  it('the internal record of the same case carries them (the values were really written)', async () => {
    const { bytes } = await exportFile(h.instance, { case_id: caseId, format: 'zip', options: { audience: 'internal' } });
    const internal = unzipAll(bytes);
    expect([...internal.keys()].sort()).toEqual(['INTERNAL-README.txt', 'INTERNAL-case-record.json', 'INTERNAL-redaction-log.csv', 'manifest.json']);
    const all = [...internal.values()].map((file) => file.toString('utf8')).join('\n');
    const recorded = ['caseName', 'caseDescription', 'documentDescription', 'comment', 'userComment', 'redactionReason', 'rejectedReason', 'decisionReason', 'summary', 'jobError', 'overrideReason'] as const;
    for (const field of recorded) expect(all.includes(SECRETS[field]), `the internal record lacks ${field}`).toBe(true);
    // The rest live in the database: suggestion details, the key's and the user's names.
    const rows = await h.instance.runtime.db.selectFrom('redactions').select('pending_reason').where('pending_reason', 'like', `%${SECRETS.suggestion}%`).execute();
    expect(rows.length).toBe(1);
    const key = await h.instance.runtime.db.selectFrom('api_keys').select('name').where('name', '=', SECRETS.keyName).execute();
    expect(key.length).toBe(1);
  }, 60_000);
});
