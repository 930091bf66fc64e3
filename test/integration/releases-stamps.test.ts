import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { degrees, PDFDocument, StandardFonts } from 'pdf-lib';
import { downloadExport, exportFile, startExportHarness, type Harness } from '../helpers/export-fixtures.js';
import { pdftotext, qpdfCheck } from '../helpers/pdf-tools.js';
import { createCase, uploadDocuments } from '../helpers/instance.js';
import { tinyPng } from '../helpers/integration-support.js';
import { pagesPdf, unzipAll, withhold, wordBoxes } from '../helpers/release-support.js';

// Stamps on rotated pages sit in the margin below the page as displayed, upright; images and ranges withheld in
// full become placeholders (one per range when asked). Safeguards are off in this harness (burn-in only).

describe('stamps and placeholders', () => {
  let h: Harness;
  let caseId: string;

  beforeAll(async () => {
    h = await startExportHarness();
    caseId = await createCase(h.instance, 'Stamps');
    const rotated = await PDFDocument.create();
    const font = await rotated.embedFont(StandardFonts.Helvetica);
    const page = rotated.addPage([612, 792]);
    page.drawText('Sideways landscape text', { x: 100, y: 300, size: 14, font, rotate: degrees(90) });
    page.setRotation(degrees(90));
    const documents = await uploadDocuments(h.instance, caseId, [
      { name: 'rotated.pdf', bytes: Buffer.from(await rotated.save()) },
      { name: 'photo.png', bytes: tinyPng() },
      { name: 'bundle.pdf', bytes: await pagesPdf([['BUNDLEONE'], ['BUNDLETWO'], ['BUNDLETHREE'], ['BUNDLEKEEP']]) },
    ]);
    await withhold(h.instance, caseId, { document_id: documents[1]?.id ?? '', exemption: '(b)(4)' });
    await withhold(h.instance, caseId, { document_id: documents[2]?.id ?? '', pages: { from: 1, to: 3 }, exemption: '(b)(5)' });
  }, 60_000);
  afterAll(async () => {
    await h.close();
  });

  it('a rotated page grows its margin below the displayed page and its stamp reads upright there', async () => {
    const { exported } = await exportFile(h.instance, { case_id: caseId, format: 'zip', options: { stamps: { prefix: 'S', digits: 3, position: 'bottom_center' }, placeholders: 'per_range' } });
    const files = unzipAll((await downloadExport(h.instance, exported.id)).bytes);
    const rotated = files.get('documents/001-rotated.pdf') as Buffer;
    expect(qpdfCheck(rotated)).toMatch(/No syntax or stream encoding errors/);
    const words = wordBoxes(rotated, 1);
    const stamp = words.find((word) => word.word === 'S001');
    // Displayed 792 x 612 (rotated 90), now 612 + 22 tall (poppler reports the unrotated size 634 x 792; word boxes
    // are in the displayed frame): the stamp lies below the former bottom, centred, upright (wider than tall).
    const info = execFileSync('pdfinfo', ['-'], { input: rotated, encoding: 'utf8' });
    expect(info).toMatch(/Page size:\s+634 x 792 pts/);
    expect(info).toMatch(/Page rot:\s+90/);
    expect(stamp?.yMin ?? 0).toBeGreaterThan(612);
    expect(Math.abs(((stamp?.xMin ?? 0) + (stamp?.xMax ?? 0)) / 2 - 396)).toBeLessThan(3);
    expect((stamp?.xMax ?? 0) - (stamp?.xMin ?? 0)).toBeGreaterThan((stamp?.yMax ?? 0) - (stamp?.yMin ?? 0));
    expect(words.filter((word) => word.word !== 'S001').every((word) => word.yMax <= 612)).toBe(true);
    // The image withheld in full: a placeholder page, not its pixels.
    expect(pdftotext(files.get('documents/002-photo.pdf') as Buffer)).toMatch(/Withheld in full under \(b\)\(4\)[\s\S]*S002/);
    // Pages 1-3 of the bundle as one placeholder, then page 4.
    const bundle = files.get('documents/003-bundle.pdf') as Buffer;
    const pages = pdftotext(bundle).split('\f').filter((text) => text.trim());
    expect(pages.length).toBe(2);
    expect(pages[0]).toMatch(/Withheld in full under \(b\)\(5\)[\s\S]*Pages 1-3 of this document[\s\S]*S003/);
    expect(pages[1]).toMatch(/BUNDLEKEEP[\s\S]*S004/);
    expect(pdftotext(bundle)).not.toMatch(/BUNDLEONE|BUNDLETWO|BUNDLETHREE/);
    const csv = files.get('withholding-index.csv')?.toString('utf8') ?? '';
    expect(csv).toContain('S002,photo,(b)(4),entire page,in full,1');
    expect(csv).toContain('S003,bundle,(b)(5),entire page,in full,3');
  }, 120_000);
});
