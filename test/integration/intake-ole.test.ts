import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCase, uploadDocuments } from '../helpers/instance.js';
import { tempDir } from '../helpers/temp.js';
import { documentBytes, pdfText, settledIntake, startIntakeInstance, type IntakeHarness } from '../helpers/intake-support.js';
import { writeCompoundFile } from '../helpers/msg-writer.js';
import { docWithObjectPool, docxWithOleObjects, html, libreOfficeFile, ole10Native, packageObject, removeOfficeFixtures } from '../helpers/office-fixtures.js';

// Files Word embeds as OLE "Package" objects (word/embeddings/oleObjectN.bin, an OLE compound file with an
// \x01Ole10Native stream) in a .docx written by LibreOffice, the objects written by msgreader's CFB burner;
// each goes through upload → intake on a worker thread, the children read back with pdftotext.

interface DocumentBody {
  id: string;
  fileName: string;
  document_type: string;
  source_type: string;
  attachment_index: number | null;
}

let h: IntakeHarness;
let caseId: string;
let docx: Buffer;

async function pdfWith(text: string): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  pdf.addPage([612, 792]).drawText(text, { x: 72, y: 700, size: 18, font });
  return Buffer.from(await pdf.save());
}

async function familyOf(id: string): Promise<DocumentBody[]> {
  const response = await h.instance.request({ method: 'GET', url: `/api/v1/documents/${id}/family` });
  return (response.json() as { data: { members: { depth: number; document: DocumentBody }[] } }).data.members.filter((member) => member.depth === 1).map((member) => member.document);
}

async function uploadOne(name: string, bytes: Buffer): Promise<string> {
  const [document] = await uploadDocuments(h.instance, caseId, [{ name, bytes }]);
  if (!document) throw new Error('no document');
  return document.id;
}

beforeAll(async () => {
  h = await startIntakeInstance();
  caseId = await createCase(h.instance, 'OLE objects');
  docx = libreOfficeFile('memo.html', html('Harbour memo', 'The inspection report is embedded below.'), 'docx:MS Word 2007 XML');
}, 240_000);

afterAll(async () => {
  await h.close();
  removeOfficeFixtures();
});

describe('OLE Package objects in a .docx', () => {
  it('each wrapped file becomes a child named by its label, in order, processed like an upload', async () => {
    const report = await pdfWith('Pier seven inspection found corroded pilings');
    const objects = [
      // The ANSI label is the 8.3 name; the Unicode label after the data is the real one and wins.
      packageObject(ole10Native('PIERRE~1.PDF', report, { unicodeLabel: 'Pier report – Ærø.pdf' })),
      packageObject(ole10Native('minutes.txt', Buffer.from('Minutes: the harbour board approved the dredging budget.\n'))),
      // Acrobat's own OLE object keeps the whole PDF in a CONTENTS stream.
      writeCompoundFile([{ name: 'CONTENTS', bytes: await pdfWith('Tide table for the east basin') }]),
    ];
    const bytes = await docxWithOleObjects(docx, objects);
    // The package holds the objects where Word keeps them (read with unzip, not intake).
    const dir = tempDir('obscura-ole-');
    fs.writeFileSync(path.join(dir, 'memo.docx'), bytes);
    expect(execFileSync('unzip', ['-Z1', path.join(dir, 'memo.docx')], { encoding: 'utf8' }).split('\n')).toEqual(expect.arrayContaining(['word/embeddings/oleObject1.bin', 'word/embeddings/oleObject3.bin']));
    expect(execFileSync('unzip', ['-p', path.join(dir, 'memo.docx'), 'word/_rels/document.xml.rels'], { encoding: 'utf8' })).toContain('relationships/oleObject" Target="embeddings/oleObject2.bin"');
    fs.rmSync(dir, { recursive: true, force: true });
    const id = await uploadOne('memo-with-objects.docx', bytes);
    expect(await settledIntake(h.instance, id, 120_000)).toMatchObject({ status: 'converted', error: null, warnings: [], children: 3 });
    expect(pdfText(await documentBytes(h.instance, id))).toContain('inspection report is embedded');
    const children = await familyOf(id);
    expect(children.map((child) => [child.attachment_index, child.fileName, child.source_type])).toEqual([
      [0, 'Pier report – Ærø.pdf', 'pdf'],
      [1, 'minutes.txt', expect.any(String)],
      [2, 'oleObject3.pdf', 'pdf'],
    ]);
    const [pdfChild, textChild, contentsChild] = children as [DocumentBody, DocumentBody, DocumentBody];
    expect(pdfChild.document_type).toBe('pdf');
    const pdfBytes = await documentBytes(h.instance, pdfChild.id);
    expect(pdfBytes.equals(report)).toBe(true);
    expect(pdfText(pdfBytes)).toContain('Pier seven inspection found corroded pilings');
    expect(await settledIntake(h.instance, textChild.id)).toMatchObject({ status: 'converted', error: null });
    expect(pdfText(await documentBytes(h.instance, textChild.id))).toContain('harbour board approved the dredging budget');
    expect(pdfText(await documentBytes(h.instance, contentsChild.id))).toContain('Tide table for the east basin');
  }, 240_000);

  it('a malformed package (data size past the end) is a warning, not a child; the parent still converts', async () => {
    const broken = packageObject(ole10Native('plan.pdf', await pdfWith('never seen'), { dataSizeOverride: 50_000_000 }));
    const cut = packageObject(ole10Native('cut.pdf', await pdfWith('also never seen')).subarray(0, 40));
    // (the second: a stream cut short, so its size field claims more than it holds)
    const id = await uploadOne('memo-broken-object.docx', await docxWithOleObjects(docx, [broken, cut]));
    const state = await settledIntake(h.instance, id, 120_000);
    expect(state).toMatchObject({ status: 'converted', error: null, children: 0 });
    expect(state.warnings).toEqual([
      expect.stringMatching(/oleObject1\.bin is malformed.*embedded file of 50000000 bytes runs past the end/),
      expect.stringMatching(/oleObject2\.bin is malformed.*claims \d+ bytes but the stream holds 36/),
    ]);
    expect(pdfText(await documentBytes(h.instance, id))).toContain('inspection report is embedded');
    expect(await familyOf(id)).toEqual([]);
  }, 240_000);

  it('a legacy .doc: each Package object in its ObjectPool becomes a child', async () => {
    const doc = libreOfficeFile('memo.html', html('Harbour memo 1998', 'The old inspection report is embedded below.'), 'doc:MS Word 97');
    const report = await pdfWith('Pier four inspection of 1998');
    const id = await uploadOne('memo-1998.doc', docWithObjectPool(doc, [ole10Native('report-1998.pdf', report)]));
    expect(await settledIntake(h.instance, id, 120_000)).toMatchObject({ status: 'converted', error: null, children: 1 });
    expect(pdfText(await documentBytes(h.instance, id))).toContain('old inspection report');
    const [child] = await familyOf(id);
    expect([child?.fileName, child?.document_type]).toEqual(['report-1998.pdf', 'pdf']);
    expect(pdfText(await documentBytes(h.instance, child?.id ?? ''))).toContain('Pier four inspection of 1998');
  }, 240_000);
});

