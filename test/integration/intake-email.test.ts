import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCase, uploadDocuments } from '../helpers/instance.js';
import { minimalPdf } from '../helpers/temp.js';
import { errorOf, putUpload, tinyPng } from '../helpers/integration-support.js';
import { composeMessage, documentBytes, pdfFonts, pdfText, settledIntake, startIntakeInstance, type IntakeHarness } from '../helpers/intake-support.js';

interface DocumentBody {
  id: string;
  fileName: string;
  document_type: string;
  source_type: string;
  media_type: string;
  parent_document_id: string | null;
  attachment_index: number | null;
  thread_id: string | null;
  email: { from: string; to: string[]; cc: string[]; date: string | null; subject: string; message_id: string | null } | null;
}

let h: IntakeHarness;
let caseId: string;

async function documentOf(id: string): Promise<DocumentBody> {
  return ((await h.instance.request({ method: 'GET', url: `/api/v1/documents/${id}` })).json() as { data: DocumentBody }).data;
}

async function familyOf(id: string) {
  return ((await h.instance.request({ method: 'GET', url: `/api/v1/documents/${id}/family` })).json() as { data: { root_id: string; members: { depth: number; document: DocumentBody }[] } }).data;
}

async function uploadOne(name: string, bytes: Buffer): Promise<string> {
  const [document] = await uploadDocuments(h.instance, caseId, [{ name, bytes }]);
  if (!document) throw new Error('no document');
  return document.id;
}

const tender =
  'The tender for dredging the north basin closes on the first of May. Bidders must submit the bond, the insurance certificate and the method statement together, sealed, to the port office before noon.';
const body = 'Dear clerk,\n\nPlease find the budget for the harbour renovation attached. The committee meets on Thursday at the town hall to discuss the tender and the environmental review.\n\nRegards,\nAna';

beforeAll(async () => {
  h = await startIntakeInstance();
  caseId = await createCase(h.instance, 'Mail intake');
});
afterAll(async () => {
  await h.close();
});

describe('e-mail intake', () => {
  it('renders a MIME message to a searchable PDF with its header block, keeps the original, and makes attachments children', async () => {
    const forwarded = await composeMessage({ from: 'bob@example.net', to: 'ana@example.org', subject: 'Original notes', text: 'The forwarded notes about pier seven.', messageId: '<fwd-1@example.net>' });
    const raw = await composeMessage({
      from: { name: 'Ana Núñez', address: 'ana.nunez@example.org' },
      to: [{ name: 'Records Desk', address: 'records@city.example.gov' }, 'jo.private@example.com'],
      cc: 'cc.person@example.org',
      subject: 'Presupuesto del año 2025 – puerto ✓',
      date: new Date('2025-03-04T15:30:00Z'),
      messageId: '<budget-1@example.org>',
      text: body,
      html: `<p>${body.replace(/\n/g, '<br>')}</p><img src="https://tracker.example.com/pixel.png"><img src="cid:logo@x">`,
      attachments: [
        { filename: 'presupuesto año.pdf', content: minimalPdf('Budget attachment text') },
        { filename: 'logo.png', content: tinyPng(), cid: 'logo@x' },
        { filename: 'notes.eml', content: forwarded, contentType: 'message/rfc822' },
      ],
    });
    const id = await uploadOne('budget.eml', raw);
    expect((await documentOf(id)).document_type).toBe('email');
    const state = await settledIntake(h.instance, id);
    expect(state).toMatchObject({ status: 'converted', error: null, depth: 0, original: { media_type: 'message/rfc822', size: raw.length, format: 'eml' } });
    expect(state.warnings.join(' ')).toContain('1 inline images under');
    const document = await documentOf(id);
    expect(document).toMatchObject({ document_type: 'pdf', source_type: 'email', media_type: 'application/pdf', parent_document_id: null });
    expect(document.email).toMatchObject({
      from: 'Ana Núñez <ana.nunez@example.org>',
      to: ['Records Desk <records@city.example.gov>', 'jo.private@example.com'],
      cc: ['cc.person@example.org'],
      subject: 'Presupuesto del año 2025 – puerto ✓',
      message_id: '<budget-1@example.org>',
    });
    expect(document.email?.date).toMatch(/^Tue, 0?4 Mar 2025 15:30:00 \+0000$/);
    // The original is kept unchanged in the blob store.
    const { readFileSync } = await import('node:fs');
    expect(readFileSync(h.instance.runtime.blobs.pathFor(state.original?.sha256 ?? '')).equals(raw)).toBe(true);
    const pdf = await documentBytes(h.instance, id);
    const text = pdfText(pdf);
    for (const expected of ['ana.nunez@example.org', 'records@city.example.gov', 'jo.private@example.com', 'cc.person@example.org', 'Presupuesto del año 2025 – puerto', 'harbour renovation', 'presupuesto año.pdf', 'notes.eml', '+0000']) {
      expect(text).toContain(expected);
    }
    expect(text).not.toContain('tracker.example.com');
    // Embedded (emb yes) with a ToUnicode map (uni yes).
    expect(pdfFonts(pdf)).toMatch(/DejaVuSans\S* +CID TrueType +Identity-H +yes +\S+ +yes/);
    const family = await familyOf(id);
    expect(family.root_id).toBe(id);
    expect(family.members.map((member) => [member.depth, member.document.fileName, member.document.attachment_index])).toEqual([
      [0, 'budget.eml', null],
      [1, 'presupuesto año.pdf', 0],
      [1, 'notes.eml', 1],
    ]);
    const nested = family.members[2]?.document.id ?? '';
    expect(await settledIntake(h.instance, nested)).toMatchObject({ status: 'converted', depth: 1 });
    expect((await documentOf(nested)).email).toMatchObject({ from: 'bob@example.net', subject: 'Original notes', message_id: '<fwd-1@example.net>' });
    expect(pdfText(await documentBytes(h.instance, nested))).toContain('pier seven');
  });

  it('records the same Message-ID and body as an exact duplicate, a lightly edited copy as a near-duplicate, and threads replies', async () => {
    const first = await composeMessage({ from: 'a@example.org', to: 'b@example.org', subject: 'Tender schedule', messageId: '<tender-1@example.org>', text: tender, date: new Date('2025-04-01T09:00:00Z') });
    const again = await composeMessage({ from: 'a@example.org', to: 'b@example.org', subject: 'Tender schedule', messageId: '<tender-1@example.org>', text: tender, date: new Date('2025-04-01T09:00:05Z'), headers: { 'X-Copy': 'from another mailbox' } });
    const edited = await composeMessage({ from: 'a@example.org', to: 'c@example.org', subject: 'Tender schedule (copy)', messageId: '<tender-2@example.org>', text: `${tender}\nP.S. bring the map.` });
    const reply = await composeMessage({ from: 'b@example.org', to: 'a@example.org', subject: 'Re: Tender schedule', messageId: '<tender-3@example.org>', inReplyTo: '<tender-1@example.org>', references: ['<tender-1@example.org>'], text: 'Thursday works for me. Unrelated wording entirely here.' });
    const ids = [];
    for (const [name, bytes] of [['first.eml', first], ['again.eml', again], ['edited.eml', edited], ['reply.eml', reply]] as const) {
      const id = await uploadOne(name, bytes);
      await settledIntake(h.instance, id);
      ids.push(id);
    }
    const [firstId, againId, editedId, replyId] = ids as [string, string, string, string];
    const againState = await settledIntake(h.instance, againId);
    expect(againState.duplicate_of).toBe(firstId);
    const editedState = await settledIntake(h.instance, editedId);
    expect(editedState.duplicate_of).toBeNull();
    expect(editedState.near_duplicate_of).toBe(firstId);
    expect(editedState.near_duplicate_score).toBeGreaterThanOrEqual(0.8);
    const replyState = await settledIntake(h.instance, replyId);
    expect(replyState.near_duplicate_of).toBeNull();
    const firstState = await settledIntake(h.instance, firstId);
    expect(replyState.thread_id).not.toBeNull();
    expect(firstState.thread_id).toBe(replyState.thread_id);
    expect(replyState.thread_inclusive).toBe(true);
    expect(firstState.thread_inclusive).toBe(false);
    const threaded = ((await h.instance.request({ method: 'GET', url: `/api/v1/cases/${caseId}/intake?filter=thread` })).json() as { data: { document: { id: string } }[] }).data.map((entry) => entry.document.id);
    expect(threaded).toEqual(expect.arrayContaining([firstId, againId, replyId]));
    expect(threaded).not.toContain(editedId);
    const duplicates = ((await h.instance.request({ method: 'GET', url: `/api/v1/cases/${caseId}/intake?filter=duplicates` })).json() as { data: { document: { id: string } }[] }).data.map((entry) => entry.document.id);
    expect(duplicates).toEqual(expect.arrayContaining([againId, editedId]));
    expect(duplicates).not.toContain(firstId);
  });

  it('refuses text that is not a message at upload (415), and keeps the server up', async () => {
    const bytes = Buffer.from('this is just a note, no header fields at all\n'.repeat(4));
    const session = await h.instance.request({ method: 'POST', url: `/api/v1/cases/${caseId}/upload-sessions`, body: { files: [{ name: 'note.eml', size: bytes.length }] } });
    const url = (session.json() as { data: { files: { upload_url: string }[] } }).data.files[0]?.upload_url ?? '';
    errorOf(await putUpload(h.instance, url, bytes), 415, 'unsupported_media_type');
  });

  it('a message nested 50 deep is converted to the nesting limit; deeper levels fail plainly', async () => {
    let message = await composeMessage({ from: 'deep@example.org', to: 'x@example.org', subject: 'level 50', text: 'innermost' });
    for (let level = 49; level >= 1; level -= 1) {
      message = await composeMessage({ from: 'deep@example.org', to: 'x@example.org', subject: `level ${level}`, text: `level ${level}`, attachments: [{ filename: `level-${level + 1}.eml`, content: message, contentType: 'message/rfc822' }] });
    }
    let id = await uploadOne('deep.eml', message);
    let state = await settledIntake(h.instance, id);
    for (let depth = 0; state.status === 'converted'; depth += 1) {
      expect(state.depth).toBe(depth);
      const family = await familyOf(id);
      const child = family.members.find((member) => member.document.parent_document_id === id);
      if (!child) throw new Error(`level ${depth} has no child`);
      id = child.document.id;
      state = await settledIntake(h.instance, id);
    }
    expect(state).toMatchObject({ status: 'failed', depth: 21 });
    expect(state.error).toContain('more than 20 levels deep');
    expect((await h.instance.request({ method: 'GET', url: '/api/v1/cases' })).statusCode).toBe(200);
  }, 120_000);

  it('a message with 10,000 attachments keeps the first 500 and says so', async () => {
    const attachments = Array.from({ length: 10_000 }, (_, index) => ({ filename: `part-${index}.dat`, content: Buffer.from([0, 1, 2, index & 255]) }));
    const raw = await composeMessage({ from: 'bulk@example.org', to: 'x@example.org', subject: 'Many parts', text: 'see attached', attachments });
    const id = await uploadOne('bulk.eml', raw);
    const state = await settledIntake(h.instance, id, 120_000);
    expect(state).toMatchObject({ status: 'converted', error: null });
    expect(state.warnings.join('\n')).toContain('10000 attachments: only the first 500 were made documents');
    // .dat bytes are no type Obscura takes: named in warnings, not made documents.
    expect(state.warnings.filter((warning) => warning.includes('is not a type Obscura takes'))).toHaveLength(500);
    expect(pdfText(await documentBytes(h.instance, id))).toContain('part-0.dat');
  }, 180_000);
});
