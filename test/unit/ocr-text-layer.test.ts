import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { describe, expect, it } from 'vitest';
import { countTextChars, readTextLayer } from '../../worker/ocr/text-layer.js';
import { pageText } from '../../worker/ocr/words.js';

// The text layer's words and boxes from hand-written content streams, whose glyph positions follow from
// the standard fonts' widths (Helvetica, Helvetica-Bold, Courier: every Courier glyph is 600/1000 em).

function pdfWith(content: string, extraPage = ''): Buffer {
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] ${extraPage} /Resources << /Font << /F1 5 0 R /F2 6 0 R /F3 7 0 R >> >> /Contents 4 0 R >>`,
    `<< /Length ${Buffer.byteLength(content, 'latin1')} >>\nstream\n${content}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Courier /Encoding /WinAnsiEncoding >>',
  ];
  let body = '%PDF-1.7\n';
  const offsets: number[] = [];
  objects.forEach((object, index) => {
    offsets.push(Buffer.byteLength(body, 'latin1'));
    body += `${index + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = Buffer.byteLength(body, 'latin1');
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) body += `${String(offset).padStart(10, '0')} 00000 n \n`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}

async function layerOf(content: string, extraPage = '') {
  const loading = getDocument({ data: new Uint8Array(pdfWith(content, extraPage)), isEvalSupported: false, verbosity: 0 });
  try {
    const document = await loading.promise;
    const page = await document.getPage(1);
    const [x1 = 0, y1 = 0, x2 = 0, y2 = 0] = page.view;
    return await readTextLayer(page, [x1, y1, x2, y2]);
  } finally {
    await loading.destroy();
  }
}

describe('text layer words', () => {
  it('places monospace words exactly and splits runs at spaces', async () => {
    const layer = await layerOf('BT /F3 10 Tf 72 600 Td (MONO SPACED text) Tj ET');
    const words = layer.words.map(({ word }) => word);
    expect(words.map((word) => word.text)).toEqual(['MONO', 'SPACED', 'text']);
    // 6 pt per glyph at 10 pt.
    expect(words.map((word) => [word.x1, word.x2])).toEqual([
      [72, 96],
      [102, 138],
      [144, 168],
    ]);
    for (const word of words) {
      expect(word.y1).toBeLessThan(600);
      expect(word.y2).toBeGreaterThan(605);
      expect(word.y2).toBeLessThan(612);
      expect(word.confidence).toBe(100);
    }
    expect(layer.chars).toBe('MONOSPACEDtext'.length);
  });

  it('estimates proportional glyph widths: a narrow word takes less room than a wide one of the same length', async () => {
    // Helvetica at 20 pt: "illi" is 4 × 222 = 888/1000 em, "MWMW" is 2 × (833 + 944).
    const layer = await layerOf('BT /F1 20 Tf 100 500 Td (illi MWMW) Tj ET');
    const [narrow, wide] = layer.words.map(({ word }) => word);
    expect(narrow?.x1).toBeCloseTo(100, 1);
    expect(narrow?.x2).toBeCloseTo(100 + 0.888 * 20, 0);
    expect(wide?.x1).toBeCloseTo(100 + (0.888 + 0.278) * 20, 0);
    expect(wide?.x2).toBeCloseTo(100 + (0.888 + 0.278 + 3.554) * 20, 0);
  });

  it('joins a word split over runs (a font change, kerning) and keeps words apart across a gap', async () => {
    const layer = await layerOf('BT /F1 12 Tf 72 700 Td (Bold) Tj /F2 12 Tf (face) Tj /F1 12 Tf [-400 (Ke) 80 (rning) -400 (works)] TJ ET');
    expect(layer.words.map(({ word }) => word.text)).toEqual(['Boldface', 'Kerning', 'works']);
    const boldface = layer.words[0]?.word;
    // "Bold" in Helvetica (667+556+222+556) and "face" in Helvetica-Bold (333+556+556+556), at 12 pt.
    expect(boldface?.x1).toBeCloseTo(72, 1);
    expect(boldface?.x2).toBeCloseTo(72 + (2.001 + 2.001) * 12, 0);
  });

  it('breaks lines on baseline changes and gives text whose white-space split is the words', async () => {
    const layer = await layerOf('BT /F1 12 Tf 72 700 Td (First line here) Tj 0 -20 Td (Second line) Tj ET BT /F1 12 Tf 300 700 Td (same baseline) Tj ET');
    const text = pageText(layer.words);
    expect(text.split(/\s+/)).toEqual(layer.words.map(({ word }) => word.text));
    expect(text.split('\n')).toHaveLength(3);
    expect(text).toContain('Second line');
  });

  it('follows rotated text: a run going up the page has a tall, narrow box', async () => {
    const layer = await layerOf('BT /F3 10 Tf 0 1 -1 0 200 100 Tm (UPWARD) Tj ET');
    const [word] = layer.words.map(({ word: w }) => w);
    expect(word?.text).toBe('UPWARD');
    // 6 glyphs × 6 pt upwards from y 100; the glyphs lie left of x 200 (their "up" is -x).
    expect(word?.y1).toBeCloseTo(100, 1);
    expect(word?.y2).toBeCloseTo(136, 1);
    expect(word?.x2).toBeGreaterThan(200);
    expect(word?.x1).toBeLessThan(195);
    expect(word?.x2).toBeLessThan(203);
  });

  it('leaves out words outside the crop box', async () => {
    const layer = await layerOf('BT /F1 12 Tf 72 700 Td (Visible words) Tj ET BT /F1 12 Tf 580 300 Td (Hidden) Tj ET', '/CropBox [36 36 576 756]');
    expect(layer.words.map(({ word }) => word.text)).toEqual(['Visible', 'words']);
    expect(layer.chars).toBe('Visiblewords'.length);
  });

  it('counts characters that carry text only', () => {
    expect(countTextChars(' a\tb\n\uFFFD\u0001 c ')).toBe(3);
  });
});
