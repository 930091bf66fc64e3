import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { PDFDocument, PDFName } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pdftex } from '../../bench/lib/producers.js';
import type { PageCertificate } from '../../main/common/page-certificate.js';
import { exportFile, startExportHarness, type Harness } from '../helpers/export-fixtures.js';
import { pdftotext } from '../helpers/pdf-tools.js';
import { findWord, popplerWords, withoutSafeguards, type BoxedWord } from '../helpers/fidelity-support.js';
import { createCase, uploadDocuments } from '../helpers/instance.js';
import { tempDir } from '../helpers/temp.js';
import { createBoxes } from '../helpers/v1-redactions-support.js';

// Every burned page carries its certificate of the two-way check, in the export summary and in the release
// manifest; poppler confirms independently that words outside the boxes survived. Needs npm run build:main.

const PARAGRAPH = 'The committee reviewed the Harbourline contract and the Westmoor invoices on Tuesday morning, then adjourned until the auditors could confirm every figure in the attached schedule.';

function boxOver(word: BoxedWord) {
  return { kind: 'rectangle', layer: 'B6', coordinates: { page: word.page, units: 'pdf_points', box: { x1: word.x1 - 0.3, y1: word.y1 + 1, x2: word.x2 + 0.3, y2: word.y2 - 1 } } };
}

function unzipText(bytes: Buffer, entry: string): string {
  const dir = tempDir('obscura-unzip-');
  try {
    fs.writeFileSync(path.join(dir, 'export.zip'), bytes);
    return execFileSync('unzip', ['-p', path.join(dir, 'export.zip'), entry], { encoding: 'utf8' });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

describe('exports certify each burned page against its source', () => {
  let harness: Harness;
  let source: Buffer;
  let caseId: string;

  beforeAll(async () => {
    harness = await startExportHarness();
    await withoutSafeguards(harness.instance);
    // pdfTeX at 10 pt with tight leading: the lines above and below a box are close to it.
    source = pdftex(`\\documentclass[10pt]{article}\n\\linespread{0.9}\n\\begin{document}\n${PARAGRAPH}\n\n${PARAGRAPH}\n\\end{document}\n`);
    caseId = await createCase(harness.instance, 'Fidelity');
    const [document] = await uploadDocuments(harness.instance, caseId, [{ name: 'minutes.pdf', bytes: source }]);
    const words = popplerWords(source);
    await createBoxes(harness.instance, document?.id ?? '', [boxOver(findWord(words, 'Harbourline')), boxOver(findWord(words, 'Westmoor'))]);
  }, 120_000);
  afterAll(async () => {
    await harness?.close();
  });

  /**
   * Source words poppler finds clear of the black (each box as drawn, with the 1 pt padding and a point for
   * glyph growth) that do not come back from the export at the same place (±1 pt across, ±1.5 pt along).
   */
  function lostWords(bytes: Buffer): string[] {
    const all = popplerWords(source);
    const boxes = all.filter((word) => word.page === 1 && ['Harbourline', 'Westmoor'].includes(word.text)).slice(0, 2).map((word) => ({ x1: word.x1 - 2.3, y1: word.y1 - 1, x2: word.x2 + 2.3, y2: word.y2 + 1 }));
    const clear = all.filter((word) => word.page === 1 && !boxes.some((box) => word.x1 < box.x2 && box.x1 < word.x2 && word.y1 < box.y2 && box.y1 < word.y2));
    const output = popplerWords(bytes);
    const lost = clear.filter((word) => !output.some((candidate) => candidate.text === word.text && Math.abs(candidate.x1 - word.x1) <= 1 && Math.abs(candidate.y1 - word.y1) <= 1.5));
    return lost.map((word) => word.text);
  }

  it('method auto: the page is redacted in its content and certified: no leak, no word missing, pixels equal', async () => {
    const { exported, bytes } = await exportFile(harness.instance, { case_id: caseId, options: { labels: false } });
    expect(exported.summary?.burn?.vector_pages).toBe(1);
    const certificates = exported.summary?.verification?.page_certificates as PageCertificate[];
    expect(certificates).toHaveLength(1);
    const [certificate] = certificates;
    expect(certificate).toMatchObject({ output_page: 1, page: 1, method: 'vector', words_under_boxes_found: 0, words_missing: 0, passed: true, fallback_reason: null, tolerance: { dpi: 100, grey: 64, max_differing_pixels: 24, mask_margin_pixels: 2 } });
    expect(certificate?.words_outside_checked).toBeGreaterThan(40);
    // The content walk proved the rest of the page unchanged, so pixels were compared in tiles around the two
    // boxes and the removed glyphs, not over the whole page (935,000 at 100 dpi).
    expect(certificate?.pixels_compared).toBeGreaterThan(2_000);
    expect(certificate?.pixels_compared).toBeLessThan(100_000);
    expect(certificate?.pixels_differing).toBeLessThanOrEqual(24);
    // The paragraph is printed twice and only its first copy boxed.
    const text = pdftotext(bytes);
    expect(text.match(/Harbourline/g)).toHaveLength(1);
    expect(text.match(/Westmoor/g)).toHaveLength(1);
    expect(lostWords(bytes)).toEqual([]);
  }, 120_000);

  it('method raster: the rendered page is certified against the source rendering and its text layer', async () => {
    const { exported, bytes } = await exportFile(harness.instance, { case_id: caseId, options: { method: 'raster' } });
    const [certificate] = (exported.summary?.verification?.page_certificates ?? []) as PageCertificate[];
    expect(certificate).toMatchObject({ method: 'raster', words_under_boxes_found: 0, fallback_reason: null, tolerance: { dpi: 50, grey: 96, max_differing_pixels: 24, mask_margin_pixels: 1 } });
    expect(certificate?.pixels_differing).toBeLessThanOrEqual(24);
    expect(certificate?.words_outside_checked).toBeGreaterThan(40);
    expect(certificate).toMatchObject({ words_missing: 0, passed: true });
    expect(pdftotext(bytes).match(/Harbourline/g)).toHaveLength(1);
    // Known limit: the layer leaves out words whose *estimated* extent (pdf.js boxes, without these Type 1 fonts'
    // widths) may reach a box, and (b) skips them alike; poppler's exact boxes show 5 such words on the line below
    // the boxes here ("then adjourned until", "could confirm"). Guard that it does not grow.
    expect(lostWords(bytes).length).toBeLessThanOrEqual(5);
  }, 120_000);

  it('the release zip manifest carries each page\'s certificate', async () => {
    const { bytes } = await exportFile(harness.instance, { case_id: caseId, format: 'zip', options: { labels: false } });
    const manifest = JSON.parse(unzipText(bytes, 'manifest.json')) as { verification: { per_page: { certificate: PageCertificate | null }[] } };
    const certified = manifest.verification.per_page.map((entry) => entry.certificate).filter((entry) => entry !== null);
    expect(certified).toHaveLength(1);
    expect(certified[0]).toMatchObject({ method: 'vector', words_missing: 0, passed: true });
  }, 120_000);
});

describe('the two-way check runs once, on the written file (issue 29)', () => {
  let harness: Harness;
  beforeAll(async () => {
    harness = await startExportHarness();
    await withoutSafeguards(harness.instance);
  }, 120_000);
  afterAll(async () => {
    await harness?.close();
  });

  it('a rewritten page the written file\'s check refuses is rendered, the file made again and certified', async () => {
    // An image drawn twice, one draw under the box: the page passes the leak check of the burn, but the copy of
    // the image (black where the box is) also shows in the other draw, far from the box: (c) pixels refuse it.
    const doc = await PDFDocument.create({ updateMetadata: false });
    const page = doc.addPage([612, 792]);
    const pixels = Buffer.alloc(300 * 150);
    for (let y = 0; y < 150; y += 1) for (let x = 0; x < 300; x += 1) pixels[y * 300 + x] = (x * 3 + y * 5) % 230;
    const image = doc.context.register(doc.context.flateStream(pixels, { Type: 'XObject', Subtype: 'Image', Width: 300, Height: 150, ColorSpace: 'DeviceGray', BitsPerComponent: 8 }));
    const content = 'BT /F1 14 Tf 72 700 Td (Keepword beside the picture) Tj ET\nq 150 0 0 75 100 400 cm /Im1 Do Q\nq 150 0 0 75 300 100 cm /Im1 Do Q';
    page.node.set(PDFName.of('Contents'), doc.context.register(doc.context.flateStream(content)));
    page.node.set(PDFName.of('Resources'), doc.context.obj({ Font: { F1: doc.context.obj({ Type: 'Font', Subtype: 'Type1', BaseFont: 'Helvetica', Encoding: 'WinAnsiEncoding' }) }, XObject: { Im1: image } }));
    const caseId = await createCase(harness.instance, 'Refused page');
    const [document] = await uploadDocuments(harness.instance, caseId, [{ name: 'picture.pdf', bytes: Buffer.from(await doc.save({ useObjectStreams: false })) }]);
    await createBoxes(harness.instance, document?.id ?? '', [{ kind: 'rectangle', layer: 'B6', coordinates: { page: 1, units: 'pdf_points', box: { x1: 130, y1: 420, x2: 170, y2: 450 } } }]);
    const { exported, bytes } = await exportFile(harness.instance, { case_id: caseId, options: { labels: false } });
    expect(exported.summary?.burn).toMatchObject({ vector_pages: 0, raster_pages: 1 });
    expect(exported.summary?.burn?.rendered[0]?.reason).toMatch(/^the rewritten page failed its check: .*pixel\(s\) outside the drawn areas differ/u);
    const [certificate] = exported.summary?.verification?.page_certificates as PageCertificate[];
    expect(certificate).toMatchObject({ method: 'raster', words_under_boxes_found: 0, passed: true });
    expect(certificate?.fallback_reason).toMatch(/^the rewritten page failed its check/u);
    expect(pdftotext(bytes)).toContain('Keepword beside the picture');
  }, 180_000);
});
