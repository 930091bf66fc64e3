import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCase, uploadDocuments } from '../helpers/instance.js';
import { minimalPdf, tempDir } from '../helpers/temp.js';
import { errorOf, putUpload } from '../helpers/integration-support.js';
import { composeMessage, documentBytes, intakeOf, pdfText, settledIntake, startIntakeInstance, type IntakeHarness, type IntakeStateBody } from '../helpers/intake-support.js';
import { writeMsg } from '../helpers/msg-writer.js';
import { documentWithEmbeddedSheet, encryptedOdt, encryptedOoxml, flatPresentation, html, libreOfficeFile, ooxmlBomb, removeOfficeFixtures, withParts } from '../helpers/office-fixtures.js';

// .msg files written by msgreader's compound-file burner, mailboxes of nodemailer messages, and Office files
// written by LibreOffice itself, all made here; each goes through upload → intake on a worker thread → PDF,
// read back with pdftotext.

interface DocumentBody {
  id: string;
  file_name?: string;
  fileName?: string;
  document_type: string;
  source_type: string;
  parent_document_id: string | null;
  attachment_index: number | null;
  email: { from: string; to: string[]; cc: string[]; bcc: string[]; date: string | null; subject: string; message_id: string | null; in_reply_to: string | null } | null;
}

let h: IntakeHarness;
let caseId: string;
const office: { docx: Buffer; xlsx: Buffer; pptx: Buffer; odtLocked: Buffer; bomb: Buffer; odtWithSheet: Buffer; docxWithSheet: Buffer } = {} as never;
const sheetCells: [string, number][] = [
  ['Dredging', 120000],
  ['Paint', 4500],
];

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

async function until(id: string, status: string, timeoutMs = 60_000): Promise<IntakeStateBody> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const state = await intakeOf(h.instance, id);
    if (state.status === status) return state;
    if (Date.now() > deadline) throw new Error(`intake of ${id} is ${state.status} (${state.error}), not ${status}`);
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
}

beforeAll(async () => {
  h = await startIntakeInstance();
  caseId = await createCase(h.instance, 'Files intake');
  office.docx = libreOfficeFile('memo.html', html('Harbour memo', 'The dredging contract goes to Pier Seven Holdings.', 'Contact: clerk.harbour@example.gov'), 'docx:MS Word 2007 XML');
  office.xlsx = libreOfficeFile('budget.csv', 'Item,Amount\nDredging,120000\nLighthouse paint,4500\n', 'xlsx');
  office.pptx = libreOfficeFile('slides.fodp', flatPresentation(['Ferry timetable slide', 'Second slide about moorings']), 'pptx');
  office.odtLocked = encryptedOdt(html('Sealed bids', 'Confidential bid amounts'), 'secret');
  office.bomb = await ooxmlBomb(office.docx, 64 * 1024 * 1024);
  office.odtWithSheet = documentWithEmbeddedSheet('odt', 'Harbour memo with the budget sheet below.', sheetCells);
  office.docxWithSheet = documentWithEmbeddedSheet('docx', 'Harbour memo with the budget sheet below.', sheetCells);
}, 240_000);

afterAll(async () => {
  await h.close();
  removeOfficeFixtures();
});

describe('Outlook .msg', () => {
  it('renders header, recipients and HTML body; a file attachment and an embedded .msg become children', async () => {
    const inner = {
      subject: 'Pier seven survey',
      senderName: 'Bob Diver',
      senderAddress: 'bob.diver@example.net',
      recipients: [{ name: 'Ana', address: 'ana@example.org', type: 'to' as const }],
      body: 'The survey of pier seven found two cracked piles.',
      messageId: '<survey-7@example.net>',
    };
    const raw = writeMsg({
      subject: 'Dredging bids – año ✓',
      senderName: 'Ana Núñez',
      senderAddress: 'ana.nunez@example.org',
      recipients: [
        { name: 'Records Desk', address: 'records@city.example.gov', type: 'to' },
        { name: 'Cy Copy', address: 'cy.copy@example.org', type: 'cc' },
        { name: 'Blind Reader', address: 'blind.reader@example.org', type: 'bcc' },
      ],
      body: 'plain fallback',
      html: '<html><body><p>The <b>bids</b> for dredging close Friday.</p><img src="https://tracker.example.com/p.png"></body></html>',
      messageId: '<bids-1@example.org>',
      transportHeaders: 'Date: Tue, 4 Mar 2025 15:30:00 +0100\r\nIn-Reply-To: <call-for-bids@example.org>\r\n',
      attachments: [
        { name: 'bid list.txt', mimeType: 'text/plain', bytes: Buffer.from('Bidder A 1.2M\nBidder B 1.4M\n') },
        { name: 'Pier seven survey', message: inner },
      ],
    });
    const id = await uploadOne('bids.msg', raw);
    expect((await documentOf(id)).document_type).toBe('email');
    const state = await settledIntake(h.instance, id);
    expect(state).toMatchObject({ status: 'converted', error: null, original: { media_type: 'application/vnd.ms-outlook', format: 'msg', size: raw.length } });
    const document = await documentOf(id);
    expect(document).toMatchObject({ document_type: 'pdf', source_type: 'email' });
    expect(document.email).toMatchObject({
      from: 'Ana Núñez <ana.nunez@example.org>',
      to: ['Records Desk <records@city.example.gov>'],
      cc: ['Cy Copy <cy.copy@example.org>'],
      bcc: ['Blind Reader <blind.reader@example.org>'],
      date: 'Tue, 4 Mar 2025 15:30:00 +0100',
      subject: 'Dredging bids – año ✓',
      message_id: '<bids-1@example.org>',
      in_reply_to: '<call-for-bids@example.org>',
    });
    const text = pdfText(await documentBytes(h.instance, id));
    for (const expected of ['ana.nunez@example.org', 'records@city.example.gov', 'cy.copy@example.org', 'blind.reader@example.org', 'Dredging bids – año', 'for dredging close Friday', '+0100', 'bid list.txt']) {
      expect(text).toContain(expected);
    }
    expect(text).not.toContain('tracker.example.com');
    expect(text).not.toContain('plain fallback');
    const family = await familyOf(id);
    expect(family.members.map((member) => [member.depth, member.document.attachment_index, member.document.source_type])).toEqual([
      [0, null, 'email'],
      [1, 0, 'text'],
      [1, 1, 'email'],
    ]);
    const [, list, survey] = family.members.map((member) => member.document.id) as [string, string, string];
    expect(await settledIntake(h.instance, list)).toMatchObject({ status: 'converted', depth: 1 });
    expect(pdfText(await documentBytes(h.instance, list))).toContain('Bidder B 1.4M');
    expect(await settledIntake(h.instance, survey)).toMatchObject({ status: 'converted', depth: 1, original: { format: 'msg' } });
    expect((await documentOf(survey)).email).toMatchObject({ from: 'Bob Diver <bob.diver@example.net>', subject: 'Pier seven survey', message_id: '<survey-7@example.net>' });
    expect(pdfText(await documentBytes(h.instance, survey))).toContain('two cracked piles');
  });
});

describe('mbox', () => {
  it('expands into one child document per message, in order, with a listing page', async () => {
    const messages = [];
    for (const [index, subject] of ['Ferry schedule', 'Lighthouse repaint', 'Harbour fees 2025'].entries()) {
      const text = index === 1 ? 'First line.\nFrom the keeper: paint arrives Monday.\nLast line.' : `Message ${index + 1} about ${subject.toLowerCase()}.`;
      messages.push(await composeMessage({ from: `sender${index}@example.org`, to: 'desk@example.gov', subject, text, messageId: `<mbox-${index}@example.org>`, date: new Date(Date.UTC(2025, 0, index + 1)) }));
    }
    // mboxrd: a body line starting with "From " is written as ">From ".
    const mbox = Buffer.concat(messages.map((message) => Buffer.from(`From sender@example.org Thu Jan  1 00:00:00 2025\n${message.toString('latin1').replace(/\r\n/g, '\n').replace(/^(>*From )/gm, '>$1')}\n`, 'latin1')));
    const id = await uploadOne('harbour.mbox', mbox);
    const state = await settledIntake(h.instance, id);
    expect(state).toMatchObject({ status: 'converted', error: null, children: 3, original: { format: 'mbox', media_type: 'application/mbox' } });
    const listing = pdfText(await documentBytes(h.instance, id));
    expect(listing).toMatch(/Ferry schedule[\s\S]*Lighthouse repaint[\s\S]*Harbour fees 2025/);
    const family = await familyOf(id);
    const children = family.members.filter((member) => member.depth === 1);
    expect(children.map((member) => member.document.attachment_index)).toEqual([0, 1, 2]);
    const subjects = [];
    for (const child of children) {
      expect(await settledIntake(h.instance, child.document.id)).toMatchObject({ status: 'converted', original: { format: 'eml' } });
      subjects.push((await documentOf(child.document.id)).email?.subject);
    }
    expect(subjects).toEqual(['Ferry schedule', 'Lighthouse repaint', 'Harbour fees 2025']);
    const second = pdfText(await documentBytes(h.instance, children[1]?.document.id ?? ''));
    expect(second).toContain('From the keeper: paint arrives Monday.');
    expect(second).not.toContain('>From the keeper');
  });
});

describe('Office files written by LibreOffice', () => {
  it('converts .docx, .xlsx and .pptx to PDF with their text', async () => {
    const expectations: [string, Buffer, string[], number][] = [
      ['memo.docx', office.docx, ['Harbour memo', 'Pier Seven Holdings', 'clerk.harbour@example.gov'], 1],
      ['budget.xlsx', office.xlsx, ['Dredging', '120000', 'Lighthouse paint'], 1],
      ['slides.pptx', office.pptx, ['Ferry timetable slide', 'Second slide about moorings'], 2],
    ];
    for (const [name, bytes, words, pages] of expectations) {
      const id = await uploadOne(name, bytes);
      expect((await documentOf(id))).toMatchObject({ document_type: 'office', source_type: 'office' });
      const state = await settledIntake(h.instance, id, 120_000);
      expect(state, name).toMatchObject({ status: 'converted', error: null, pages, original: { format: 'office', size: bytes.length } });
      expect(await documentOf(id)).toMatchObject({ document_type: 'pdf', source_type: 'office' });
      const text = pdfText(await documentBytes(h.instance, id));
      for (const word of words) expect(text, name).toContain(word);
    }
  }, 240_000);

  it('a file kept in the package (word/embeddings) becomes a child document of the converted .docx', async () => {
    const docx = await withParts(office.docx, [{ name: 'word/embeddings/site-plan.pdf', bytes: minimalPdf('Site plan of the east pier') }]);
    const id = await uploadOne('memo-with-plan.docx', docx);
    expect(await settledIntake(h.instance, id, 120_000)).toMatchObject({ status: 'converted', children: 1 });
    const family = await familyOf(id);
    expect(family.members.map((member) => [member.depth, member.document.attachment_index, member.document.source_type])).toEqual([
      [0, null, 'office'],
      [1, 0, 'pdf'],
    ]);
    expect(pdfText(await documentBytes(h.instance, family.members[1]?.document.id ?? ''))).toContain('Site plan of the east pier');
    expect(pdfText(await documentBytes(h.instance, id))).toContain('Pier Seven Holdings');
  }, 180_000);
});

describe('objects embedded by LibreOffice', () => {
  it('a spreadsheet embedded as an OLE object in .odt and .docx becomes a child document with its cells', async () => {
    // The fixtures' packages really hold the object where each format keeps it (read with unzip, not intake).
    const dir = tempDir('obscura-embedded-');
    fs.writeFileSync(path.join(dir, 'memo.odt'), office.odtWithSheet);
    fs.writeFileSync(path.join(dir, 'memo.docx'), office.docxWithSheet);
    expect(execFileSync('unzip', ['-Z1', path.join(dir, 'memo.odt')], { encoding: 'utf8' }).split('\n')).toContain('Object 1/content.xml');
    expect(execFileSync('unzip', ['-Z1', path.join(dir, 'memo.docx')], { encoding: 'utf8' }).split('\n')).toContain('word/embeddings/oleObject1.xlsx');
    fs.rmSync(dir, { recursive: true, force: true });
    for (const [name, bytes, childName] of [
      ['memo-with-sheet.odt', office.odtWithSheet, 'Object 1.ods'],
      ['memo-with-sheet.docx', office.docxWithSheet, 'oleObject1.xlsx'],
    ] as const) {
      const id = await uploadOne(name, bytes);
      expect(await settledIntake(h.instance, id, 120_000), name).toMatchObject({ status: 'converted', error: null, children: 1 });
      expect(pdfText(await documentBytes(h.instance, id)), name).toContain('Harbour memo');
      const family = await familyOf(id);
      expect(family.members.map((member) => [member.depth, member.document.attachment_index, member.document.source_type]), name).toEqual([
        [0, null, 'office'],
        [1, 0, 'office'],
      ]);
      const child = family.members[1]?.document as DocumentBody;
      expect(child.file_name ?? child.fileName, name).toBe(childName);
      expect(await settledIntake(h.instance, child.id, 120_000), name).toMatchObject({ status: 'converted', error: null, depth: 1, original: { format: 'office' } });
      const sheet = pdfText(await documentBytes(h.instance, child.id));
      for (const [label, value] of sheetCells) expect(sheet, name).toMatch(new RegExp(`${label}\\s+${value}`));
    }
  }, 240_000);
});

describe('bad input', () => {
  it('each bad file fails with a clear error naming it; the server stays up and what was converted stays', async () => {
    const good = await uploadOne('kept.eml', await composeMessage({ from: 'a@example.org', to: 'b@example.org', subject: 'Kept message', text: 'This one must survive the bad files.' }));
    expect(await settledIntake(h.instance, good)).toMatchObject({ status: 'converted' });
    const goodBytes = await documentBytes(h.instance, good);
    const truncatedMsg = writeMsg({ subject: 'cut', senderName: 'x', senderAddress: 'x@example.org', recipients: [], body: 'cut short'.repeat(1000) }).subarray(0, 1536);
    const cases: [string, Buffer, RegExp][] = [
      ['sealed-bids.odt', office.odtLocked, /password-protected/],
      ['locked.docx', encryptedOoxml(), /password-protected/],
      ['bomb.docx', office.bomb, /archive bomb/],
      ['cut.msg', truncatedMsg, /not a readable Outlook message \(damaged or cut short\)/],
    ];
    const ids: string[] = [];
    for (const [name, bytes] of cases) ids.push(await uploadOne(name, bytes));
    for (const [index, [name, , reason]] of cases.entries()) {
      const state = await settledIntake(h.instance, ids[index] ?? '', 120_000);
      expect(state.status, name).toBe('failed');
      expect(state.error, name).toMatch(new RegExp(`^${name.replace('.', '\\.')}: `));
      expect(state.error, name).toMatch(reason);
      // The original stays, the document stays unconverted and listed.
      expect(await documentOf(ids[index] ?? '')).toMatchObject({ document_type: name.endsWith('.msg') ? 'email' : 'office' });
      expect(state.original?.size).toBe(cases[index]?.[1].length);
    }
    expect((await h.instance.request({ method: 'GET', url: '/api/v1/cases' })).statusCode).toBe(200);
    expect(await intakeOf(h.instance, good)).toMatchObject({ status: 'converted' });
    expect((await documentBytes(h.instance, good)).equals(goodBytes)).toBe(true);
    const failedList = ((await h.instance.request({ method: 'GET', url: `/api/v1/cases/${caseId}/intake` })).json() as { data: { document: { id: string }; intake: { status: string } }[] }).data;
    expect(failedList.filter((entry) => ids.includes(entry.document.id)).map((entry) => entry.intake.status)).toEqual(['failed', 'failed', 'failed', 'failed']);
  }, 240_000);

  it('a name the bytes contradict is refused at upload (415)', async () => {
    const session = await h.instance.request({ method: 'POST', url: `/api/v1/cases/${caseId}/upload-sessions`, body: { files: [{ name: 'report.docx', size: 30 }] } });
    const url = (session.json() as { data: { files: { upload_url: string }[] } }).data.files[0]?.upload_url ?? '';
    errorOf(await putUpload(h.instance, url, Buffer.from('just some words, not a package')), 415, 'unsupported_media_type');
  });
});

describe('without LibreOffice', () => {
  it('keeps an Office upload as needs_libreoffice with how to install it, and converts it once soffice is there', async () => {
    const soffice = execFileSync('sh', ['-c', 'command -v soffice'], { encoding: 'utf8' }).trim();
    const before = process.env.OBSCURA_SOFFICE;
    try {
      // Configuration points at no soffice: as on a machine without LibreOffice.
      process.env.OBSCURA_SOFFICE = '/nonexistent/libreoffice/soffice';
      const id = await uploadOne('waiting.docx', office.docx);
      const waiting = await until(id, 'needs_libreoffice');
      expect(waiting.error).toContain('needs LibreOffice to convert');
      expect(waiting.error).toContain('apt-get install');
      expect(await documentOf(id)).toMatchObject({ document_type: 'office' });
      // Still waiting a while later: not failed, not retried to death.
      await new Promise((resolve) => setTimeout(resolve, 2_500));
      expect(await intakeOf(h.instance, id)).toMatchObject({ status: 'needs_libreoffice' });
      process.env.OBSCURA_SOFFICE = soffice;
      const converted = await until(id, 'converted', 120_000);
      expect(converted.error).toBeNull();
      expect(pdfText(await documentBytes(h.instance, id))).toContain('Pier Seven Holdings');
    } finally {
      if (before === undefined) delete process.env.OBSCURA_SOFFICE;
      else process.env.OBSCURA_SOFFICE = before;
    }
  }, 180_000);
});
