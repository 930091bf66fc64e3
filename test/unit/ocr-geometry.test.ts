import { getDocument, type PDFDocumentProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { degrees, PDFDocument } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { imageCoverage, wordsToPdfSpace } from '../../worker/ocr/render.js';
import { parseTsv } from '../../worker/ocr/tsv.js';
import { pageText } from '../../worker/ocr/words.js';
import { bornDigitalPdf, displayToUser, greyPng, scanImage, scannedPdf, type Box, type Rotation } from '../helpers/ocr-fixtures.js';

// Coordinates between tesseract's pixels and PDF user space, checked against the placement rules of the
// PDF specification (displayToUser), and the parsing of tesseract's TSV.

async function withPdf<T>(bytes: Uint8Array, work: (document: PDFDocumentProxy) => Promise<T>): Promise<T> {
  const loading = getDocument({ data: new Uint8Array(bytes), isEvalSupported: false, verbosity: 0 });
  try {
    return await work(await loading.promise);
  } finally {
    await loading.destroy();
  }
}

describe('pixel boxes to PDF user space', () => {
  const crop: Box = [40, 60, 652, 852];
  for (const rotation of [0, 90, 180, 270] as Rotation[]) {
    it(`undoes /Rotate ${rotation} and a crop box offset`, async () => {
      const source = await PDFDocument.create();
      const page = source.addPage([700, 900]);
      page.setCropBox(crop[0], crop[1], crop[2] - crop[0], crop[3] - crop[1]);
      page.setRotation(degrees(rotation));
      await withPdf(await source.save(), async (document) => {
        const viewport = (await document.getPage(1)).getViewport({ scale: 300 / 72 });
        const [s1, t1, s2, t2] = [0.1, 0.2, 0.35, 0.25];
        const [word] = wordsToPdfSpace(
          [{ text: 'w', left: s1 * viewport.width, top: t1 * viewport.height, right: s2 * viewport.width, bottom: t2 * viewport.height, confidence: 91.234, line: '1' }],
          viewport,
        ).map(({ word: w }) => w);
        const corners = [displayToUser(crop, rotation, s1, t1), displayToUser(crop, rotation, s2, t2)];
        expect(word?.x1).toBeCloseTo(Math.min(corners[0]![0], corners[1]![0]), 2);
        expect(word?.x2).toBeCloseTo(Math.max(corners[0]![0], corners[1]![0]), 2);
        expect(word?.y1).toBeCloseTo(Math.min(corners[0]![1], corners[1]![1]), 2);
        expect(word?.y2).toBeCloseTo(Math.max(corners[0]![1], corners[1]![1]), 2);
        expect(word?.confidence).toBe(91.23);
      });
    });
  }
});

describe('image coverage', () => {
  it('is about 1 for a scan, 0 for text, small for a logo', async () => {
    const image = scanImage({ widthPx: 300, heightPx: 200, lines: ['Logo'], fontPx: 40 });
    const scan = await scannedPdf([{ image }]);
    const text = await bornDigitalPdf([{ lines: [{ text: 'Only text here', x: 72, y: 700, size: 12 }] }]);
    const withLogo = await PDFDocument.load(text.bytes);
    const logo = await withLogo.embedPng(greyPng(image.grey, image.width, image.height, 300));
    withLogo.getPage(0).drawImage(logo, { x: 400, y: 700, width: 72, height: 48 });
    const coverage = (bytes: Uint8Array) =>
      withPdf(bytes, async (document) => {
        const page = await document.getPage(1);
        const [x1 = 0, y1 = 0, x2 = 0, y2 = 0] = page.view;
        return imageCoverage(page, [x1, y1, x2, y2]);
      });
    expect(await coverage(scan.bytes)).toBeCloseTo(1, 3);
    expect(await coverage(text.bytes)).toBe(0);
    expect(await coverage(await withLogo.save())).toBeCloseTo((72 * 48) / (612 * 792), 4);
  });
});

describe('tesseract TSV', () => {
  it('reads the page size and words with their lines, skipping empty words and other levels', () => {
    const tsv = [
      'level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext',
      '1\t1\t0\t0\t0\t0\t0\t0\t1200\t800\t-1\t',
      '2\t1\t1\t0\t0\t0\t10\t10\t500\t100\t-1\t',
      '4\t1\t1\t1\t1\t0\t10\t10\t500\t40\t-1\t',
      '5\t1\t1\t1\t1\t1\t10\t12\t120\t38\t96.5\tRecords',
      '5\t1\t1\t1\t1\t2\t140\t12\t80\t38\t91\trequest',
      '5\t1\t1\t1\t1\t3\t230\t12\t5\t38\t95\t ',
      '5\t1\t1\t1\t2\t1\t10\t60\t90\t38\t-1\t2026',
    ].join('\n');
    const page = parseTsv(tsv);
    expect([page.width, page.height]).toEqual([1200, 800]);
    expect(page.words).toEqual([
      { text: 'Records', left: 10, top: 12, right: 130, bottom: 50, confidence: 96.5, line: '1.1.1.1' },
      { text: 'request', left: 140, top: 12, right: 220, bottom: 50, confidence: 91, line: '1.1.1.1' },
      { text: '2026', left: 10, top: 60, right: 100, bottom: 98, confidence: 0, line: '1.1.1.2' },
    ]);
    const lined = page.words.map((word) => ({ word: { text: word.text, x1: 0, y1: 0, x2: 0, y2: 0, confidence: word.confidence }, line: word.line }));
    expect(pageText(lined)).toBe('Records request\n2026');
  });
});

