import { PDFDocument, StandardFonts } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { openPdf } from '../../worker/burn-in/pdfjs.js';
import { emBox, quadOf, readGlyphs } from '../../worker/pdf-glyphs/index.js';
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

  it('is kept as corners only for a glyph that is not upright; an upright one’s corners are its bounds’', async () => {
    const content = [
      `BT /F1 ${SIZE} Tf 72 700 Td (Up) Tj ET`,
      // Turned a quarter, mirrored, upside down: each glyph's corners differ from its bounds' in order or place.
      `BT /F1 ${SIZE} Tf 0 1 -1 0 300 300 Tm (Q) Tj ET`,
      `BT /F1 ${SIZE} Tf -1 0 0 1 400 500 Tm (M) Tj ET`,
      `BT /F1 ${SIZE} Tf -1 0 0 -1 400 200 Tm (D) Tj ET`,
    ].join('\n');
    const document = await openPdf(await pagePdf({ content, resources: helvetica }));
    try {
      const glyphs = await readGlyphs(document, await document.getPage(1));
      expect(glyphs.map((glyph) => glyph.text).join('')).toBe('UpQMD');
      expect(glyphs.map((glyph) => glyph.quad === null)).toEqual([true, true, false, false, false]);
      for (const glyph of glyphs) {
        const [lbx, lby, rbx, rby, rtx, rty, ltx, lty] = quadOf(glyph);
        // The corners' bounds are the glyph's, and the baseline runs from left bottom to right bottom.
        expect([Math.min(lbx, rbx, rtx, ltx), Math.min(lby, rby, rty, lty), Math.max(lbx, rbx, rtx, ltx), Math.max(lby, rby, rty, lty)]).toEqual([glyph.x1, glyph.y1, glyph.x2, glyph.y2]);
        expect(rbx - lbx + (rby - lby)).not.toBe(0);
      }
      const [, , q, m, d] = glyphs.map(quadOf);
      expect(Math.sign((q?.[3] ?? 0) - (q?.[1] ?? 0))).toBe(1); // a quarter turn: the baseline runs up
      expect(Math.sign((m?.[2] ?? 0) - (m?.[0] ?? 0))).toBe(-1); // mirrored: it runs left
      expect(Math.sign((d?.[7] ?? 0) - (d?.[1] ?? 0))).toBe(-1); // upside down: the top lies below the bottom
    } finally {
      await document.destroy();
    }
  });
});
