import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportWithWordBoxed } from '../helpers/burn-exports.js';
import { bboxWords, pdflatex, stextWords } from '../helpers/burn-producers.js';
import { exportFile, startExportHarness, type Harness } from '../helpers/export-fixtures.js';
import { encodings, pdftotext, qpdfExpanded } from '../helpers/pdf-tools.js';
import { createCase, uploadDocuments } from '../helpers/instance.js';
import { tempDir } from '../helpers/temp.js';
import { createBoxes, rect } from '../helpers/v1-redactions-support.js';

// Encrypted PDFs that open without a password (qpdf's encryption of a pdfTeX page, made here: RC4 40 and 128
// bits, AES-128, AES-256) are redacted in their content through an unencrypted working copy, not rendered; the
// boxed word is found neither by pdftotext nor in qpdf's decompressed rewrite. Needs npm run build:main.

const SECRET = 'Quillfeather';

function encrypted(source: Buffer, args: string[], userPassword = ''): Buffer {
  const dir = tempDir('obscura-qpdf-');
  try {
    fs.writeFileSync(path.join(dir, 'in.pdf'), source);
    execFileSync('qpdf', ['--allow-weak-crypto', '--object-streams=generate', '--encrypt', userPassword, 'owner', ...args, '--', 'in.pdf', 'out.pdf'], { cwd: dir });
    return fs.readFileSync(path.join(dir, 'out.pdf'));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const MODES: [string, string[]][] = [
  ['RC4 40-bit', ['40']],
  ['RC4 128-bit', ['128', '--use-aes=n']],
  ['AES-128', ['128', '--use-aes=y']],
  ['AES-256', ['256']],
];

let harness: Harness;

beforeAll(async () => {
  harness = await startExportHarness();
});

afterAll(async () => {
  await harness?.close();
});

describe('exports of encrypted PDFs', () => {
  it('each encryption that needs no user password: redacted in its content, the boxed word gone, the rest kept', async () => {
    const source = pdflatex(`\\noindent Applicant name ${SECRET} appears here.\\\\\nA second line stays as it is.`);
    const word = stextWords(source).find((entry) => entry.text === SECRET);
    expect(word).toBeDefined();
    const box = { x1: (word?.x1 ?? 0) - 0.5, y1: (word?.baseline ?? 0) - 2.5, x2: (word?.x2 ?? 0) + 0.5, y2: (word?.baseline ?? 0) + 7.5 };
    const caseId = await createCase(harness.instance, 'Encrypted');
    const files = MODES.map(([name, args]) => ({ name: `${name.replace(/\W+/g, '-')}.pdf`, bytes: encrypted(source, args) }));
    // Encrypted indeed: pdf-lib refuses each as it is.
    for (const file of files) await expect(PDFDocument.load(file.bytes)).rejects.toThrow(/encrypted/i);
    const documents = await uploadDocuments(harness.instance, caseId, files);
    for (const document of documents) await createBoxes(harness.instance, document.id, [rect({ coordinates: { page: 1, units: 'pdf_points', box } })]);
    const { exported, bytes } = await exportFile(harness.instance, { case_id: caseId, options: { method: 'auto', labels: false } });
    const burn = exported.summary?.burn;
    expect(burn?.rendered, JSON.stringify(burn?.rendered)).toEqual([]);
    expect(burn?.vector_pages).toBe(MODES.length);
    const text = pdftotext(bytes);
    expect(text).not.toContain(SECRET);
    const expanded = qpdfExpanded(bytes);
    for (const form of encodings(SECRET)) expect(expanded.includes(form), `decompressed output holds ${JSON.stringify(form)}`).toBe(false);
    // The words around the box stay, in every document, as text (not a rendering).
    expect(text.match(/Applicant name/g)).toHaveLength(MODES.length);
    expect(text.match(/A second line stays as it is\./g)).toHaveLength(MODES.length);
    expect(bboxWords(bytes, MODES.length).map((entry) => entry.text)).toContain('appears');
  }, 120_000);

  it('a PDF whose password the clerk supplied: redacted in its content through the working copy', async () => {
    const source = pdflatex(`\\noindent Claimant ${SECRET} signed below.\\\\\nThis line is unmarked.`);
    const caseId = await createCase(harness.instance, 'Supplied password');
    const [document] = await uploadDocuments(harness.instance, caseId, [{ name: 'locked.pdf', bytes: encrypted(source, ['256'], 'open-sesame') }]);
    const unlocked = await harness.instance.request({ method: 'POST', url: `/api/v1/documents/${document?.id}/password`, body: { password: 'open-sesame' } });
    expect(unlocked.statusCode, unlocked.body).toBe(200);
    const { exported } = await exportWithWordBoxed(harness.instance, { caseId, documentId: document?.id ?? '', source }, SECRET, ['Claimant', 'This line is unmarked.']);
    expect(exported.summary?.burn?.rendered, JSON.stringify(exported.summary?.burn?.rendered)).toEqual([]);
    expect(exported.summary?.burn?.vector_pages).toBe(1);
  }, 120_000);
});
