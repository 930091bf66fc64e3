import { PDFDocument, StandardFonts } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { openPdf } from '../../worker/burn-in/pdfjs.js';
import { emBox, readGlyphs } from '../../worker/pdf-glyphs/index.js';
import { helvetica, pagePdf } from '../helpers/vector-pdfs.js';

// A glyph's em box (where a text layer places the glyph: its advance across, -0.25..0.95 em up) is made from its
// quad when asked for, not for every glyph read. Checked against the box worked out here from the font's widths
// and the text matrix, for flat and turned text.

const SIZE = 20;
const ANGLE = Math.PI / 6;

async function widths(text: string): Promise<number[]> {
  const font = await (await PDFDocument.create()).embedFont(StandardFonts.Helvetica);
  return [...text].map((character) => font.widthOfTextAtSize(character, SIZE));
}

/** Bounds of the box (left, -0.25 em)–(right, 0.95 em) of text space under [c s -s c x y]. */
function expectedEm(left: number, right: number, cos: number, sin: number, x: number, y: number) {
  const corners = [[left, -0.25 * SIZE], [right, -0.25 * SIZE], [right, 0.95 * SIZE], [left, 0.95 * SIZE]].map(([u = 0, v = 0]) => [x + cos * u - sin * v, y + sin * u + cos * v] as const);
  const xs = corners.map(([cx]) => cx);
  const ys = corners.map(([, cy]) => cy);
  return { x1: Math.min(...xs), y1: Math.min(...ys), x2: Math.max(...xs), y2: Math.max(...ys) };
}

describe('a glyph’s em box', () => {
  it('spans its advance and -0.25..0.95 em of its line, flat and turned', async () => {
    const cos = Math.cos(ANGLE);
    const sin = Math.sin(ANGLE);
    const content = [
      `BT /F1 ${SIZE} Tf 72 700 Td (Flat) Tj ET`,
      `BT /F1 ${SIZE} Tf ${cos.toFixed(6)} ${sin.toFixed(6)} ${(-sin).toFixed(6)} ${cos.toFixed(6)} 100 400 Tm (Hello) Tj ET`,
    ].join('\n');
    const document = await openPdf(await pagePdf({ content, resources: helvetica }));
    try {
      const glyphs = await readGlyphs(document, await document.getPage(1));
      expect(glyphs.map((glyph) => glyph.text).join('')).toBe('FlatHello');
      const cases = [
        { text: 'Flat', cos: 1, sin: 0, x: 72, y: 700 },
        { text: 'Hello', cos: Number(cos.toFixed(6)), sin: Number(sin.toFixed(6)), x: 100, y: 400 },
      ];
      let index = 0;
      for (const line of cases) {
        let pen = 0;
        for (const width of await widths(line.text)) {
          const glyph = glyphs[index++];
          if (!glyph) throw new Error('a glyph is missing');
          const expected = expectedEm(pen, pen + width, line.cos, line.sin, line.x, line.y);
          const actual = emBox(glyph);
          for (const key of ['x1', 'y1', 'x2', 'y2'] as const) expect(actual[key]).toBeCloseTo(expected[key], 4);
          // Taller than the glyph's own box (the font's descent..ascent), as readers place text.
          expect(actual.y2 - actual.y1).toBeGreaterThan(glyph.y2 - glyph.y1);
          pen += width;
        }
      }
    } finally {
      await document.destroy();
    }
  });
});
