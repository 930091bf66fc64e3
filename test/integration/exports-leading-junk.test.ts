import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportWithWordBoxed } from '../helpers/burn-exports.js';
import { pdflatex } from '../helpers/burn-producers.js';
import { startExportHarness, type Harness } from '../helpers/export-fixtures.js';
import { createCase, uploadDocuments } from '../helpers/instance.js';
import { minimalPdf } from '../helpers/temp.js';

// Readers accept bytes before the `%PDF-` header within the first 1,024 bytes (mail gateways and old scanners
// write them). Such a file is accepted as a PDF and released like any other. Needs npm run build:main.

const SECRET = 'Marrowgate';

let harness: Harness;

beforeAll(async () => {
  harness = await startExportHarness();
});

afterAll(async () => {
  await harness?.close();
});

describe('a PDF with junk before its header', () => {
  it('is accepted as a PDF and exported with the boxed word gone and the rest kept', async () => {
    const clean = pdflatex(`\\noindent Requester ${SECRET} wrote twice.\\\\\nThe next line stays.`);
    const bytes = Buffer.concat([Buffer.from('Some junk before the header\r\n\r\n', 'latin1'), clean]);
    const caseId = await createCase(harness.instance, 'Leading junk');
    const [document] = await uploadDocuments(harness.instance, caseId, [{ name: 'gateway.pdf', bytes }]);
    const read = await harness.instance.request({ method: 'GET', url: `/api/v1/documents/${document?.id}` });
    expect(read.json().data).toMatchObject({ document_type: 'pdf' });
    await exportWithWordBoxed(harness.instance, { caseId, documentId: document?.id ?? '', source: clean }, SECRET, ['Requester', 'The next line stays.']);
  }, 120_000);

  it('with a damaged cross-reference table too: read without it and still redacted in its content', async () => {
    const clean = minimalPdf(`Keep ${SECRET} here`);
    // As a broken producer writes it: junk first, the table's subsection header lost, startxref without offset.
    const damaged = Buffer.from(`Junk\n${clean.toString('latin1').replace(/xref\n0 \d+\n/, 'xref\n').replace(/startxref\n\d+\n/, 'startxref\n')}`, 'latin1');
    expect(damaged.toString('latin1')).not.toMatch(/xref\n0 \d+|startxref\n\d/);
    const caseId = await createCase(harness.instance, 'Damaged xref');
    const [document] = await uploadDocuments(harness.instance, caseId, [{ name: 'damaged.pdf', bytes: damaged }]);
    const { exported } = await exportWithWordBoxed(harness.instance, { caseId, documentId: document?.id ?? '', source: clean }, SECRET, ['Keep', 'here'], { below: 6, above: 18 });
    expect(exported.summary?.burn?.rendered, JSON.stringify(exported.summary?.burn?.rendered)).toEqual([]);
  }, 120_000);

  it('a text file that merely mentions %PDF- late is not a PDF', async () => {
    const caseId = await createCase(harness.instance, 'Not a PDF');
    const bytes = Buffer.from(`${'x'.repeat(2000)}\n%PDF-1.4\n`, 'latin1');
    await expect(uploadDocuments(harness.instance, caseId, [{ name: 'late.pdf', bytes }])).rejects.toThrow(/upload failed: 415/);
  });
});
