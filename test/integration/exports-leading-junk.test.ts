import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pdflatex, stextWords } from '../helpers/burn-producers.js';
import { exportFile, pdftotext, qpdfExpanded, encodings, startExportHarness, type Harness } from '../helpers/export-fixtures.js';
import { createCase, minimalPdf, uploadDocuments } from '../helpers/instance.js';
import { createBoxes, rect } from '../helpers/v1-redactions-support.js';

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
    const word = stextWords(clean).find((entry) => entry.text === SECRET);
    expect(word).toBeDefined();
    const bytes = Buffer.concat([Buffer.from('Some junk before the header\r\n\r\n', 'latin1'), clean]);
    const caseId = await createCase(harness.instance, 'Leading junk');
    const [document] = await uploadDocuments(harness.instance, caseId, [{ name: 'gateway.pdf', bytes }]);
    expect(document).toBeDefined();
    const read = await harness.instance.request({ method: 'GET', url: `/api/v1/documents/${document?.id}` });
    expect(read.json().data).toMatchObject({ document_type: 'pdf' });
    const box = { x1: (word?.x1 ?? 0) - 0.5, y1: (word?.baseline ?? 0) - 2.5, x2: (word?.x2 ?? 0) + 0.5, y2: (word?.baseline ?? 0) + 7.5 };
    await createBoxes(harness.instance, document?.id ?? '', [rect({ coordinates: { page: 1, units: 'pdf_points', box } })]);
    const { bytes: released } = await exportFile(harness.instance, { case_id: caseId, options: { method: 'auto', labels: false } });
    const text = pdftotext(released);
    expect(text).not.toContain(SECRET);
    for (const form of encodings(SECRET)) expect(qpdfExpanded(released).includes(form)).toBe(false);
    expect(text).toContain('Requester');
    expect(text).toContain('The next line stays.');
  }, 120_000);

  it('with a damaged cross-reference table too: read without it and still redacted in its content', async () => {
    const clean = minimalPdf(`Keep ${SECRET} here`);
    const word = stextWords(clean).find((entry) => entry.text === SECRET);
    expect(word).toBeDefined();
    // As a broken producer writes it: junk first, the table's subsection header lost, startxref without offset.
    const damaged = Buffer.from(`Junk\n${clean.toString('latin1').replace(/xref\n0 \d+\n/, 'xref\n').replace(/startxref\n\d+\n/, 'startxref\n')}`, 'latin1');
    expect(damaged.toString('latin1')).not.toMatch(/xref\n0 \d+|startxref\n\d/);
    const caseId = await createCase(harness.instance, 'Damaged xref');
    const [document] = await uploadDocuments(harness.instance, caseId, [{ name: 'damaged.pdf', bytes: damaged }]);
    const box = { x1: (word?.x1 ?? 0) - 0.5, y1: (word?.baseline ?? 0) - 6, x2: (word?.x2 ?? 0) + 0.5, y2: (word?.baseline ?? 0) + 18 };
    await createBoxes(harness.instance, document?.id ?? '', [rect({ coordinates: { page: 1, units: 'pdf_points', box } })]);
    const { exported, bytes: released } = await exportFile(harness.instance, { case_id: caseId, options: { method: 'auto', labels: false } });
    expect(exported.summary?.burn?.rendered, JSON.stringify(exported.summary?.burn?.rendered)).toEqual([]);
    const text = pdftotext(released);
    expect(text).not.toContain(SECRET);
    for (const form of encodings(SECRET)) expect(qpdfExpanded(released).includes(form)).toBe(false);
    expect(text).toContain('Keep');
    expect(text).toContain('here');
  }, 120_000);

  it('a text file that merely mentions %PDF- late is not a PDF', async () => {
    const caseId = await createCase(harness.instance, 'Not a PDF');
    const bytes = Buffer.from(`${'x'.repeat(2000)}\n%PDF-1.4\n`, 'latin1');
    await expect(uploadDocuments(harness.instance, caseId, [{ name: 'late.pdf', bytes }])).rejects.toThrow(/upload failed: 415/);
  });
});
