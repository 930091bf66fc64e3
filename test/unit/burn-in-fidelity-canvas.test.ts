import { createCanvas } from '@napi-rs/canvas';
import type { PDFDocumentProxy, PDFPageProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { describe, expect, it } from 'vitest';
import type { Rect } from '../../worker/burn-in/geometry.js';
import { EDGE_MARGIN, renderAreas, type Grey } from '../../worker/burn-in/fidelity/pixels.js';
import { openPdf } from '../../worker/burn-in/pdfjs.js';
import { pagePdf, standardFont } from '../helpers/vector-pdfs.js';

// The fidelity check draws on canvases a thread keeps (fidelity/pixels.ts canvasFor): a kept canvas has been drawn
// on before, may be larger than the area and may have been grown. Its pixels must be those of a canvas made for
// the area alone, whatever was drawn on it before and whichever pages are drawn at once.

const DPI = 100;

async function textPage(blend: boolean): Promise<Buffer> {
  const content = [
    'BT /F1 14 Tf 72 700 Td (Keepword and Otherword) Tj ET',
    'BT /F1 9 Tf 80 520 Td (small print under a bar) Tj ET',
    ...(blend ? ['q /GS1 gs 0.2 0.6 0.9 rg 60 680 220 40 re f Q'] : ['0.2 0.6 0.9 rg 60 600 220 40 re f']),
  ].join('\n');
  return pagePdf({
    content,
    resources: (doc) => ({ Font: { F1: standardFont('Helvetica') }, ...(blend && { ExtGState: { GS1: doc.context.obj({ BM: 'Multiply', ca: 0.7 }) } }) }),
  });
}

/** A large page painted black all over: whatever it leaves on a kept canvas would show as black. */
const blackPage = () => pagePdf({ size: [1200, 1400], content: '0 g 0 0 1200 1400 re f', resources: () => ({}) });

/** The area drawn by pdf.js alone on a new canvas of its own (with the check's margin), as before canvases were kept. */
async function ownCanvas(page: PDFPageProxy, area: Rect): Promise<Grey> {
  const scale = DPI / 72;
  const width = Math.max(1, Math.ceil((area.x2 - area.x1) * scale));
  const height = Math.max(1, Math.ceil((area.y2 - area.y1) * scale));
  const canvas = createCanvas(width + 2 * EDGE_MARGIN, height + 2 * EDGE_MARGIN);
  const context = canvas.getContext('2d');
  const [x0 = 0, , , y1 = 0] = page.view;
  const transform = [1, 0, 0, 1, (x0 - area.x1) * scale + EDGE_MARGIN, (area.y2 - y1) * scale + EDGE_MARGIN];
  await page.render({ canvas: canvas as never, canvasContext: context as never, viewport: page.getViewport({ scale, rotation: 0 }), transform, annotationMode: 1, intent: 'display' }).promise;
  const rgba = context.getImageData(EDGE_MARGIN, EDGE_MARGIN, width, height).data;
  const pixels = new Uint8Array(width * height);
  for (let index = 0; index < pixels.length; index += 1) pixels[index] = ((rgba[index * 4] as number) * 77 + (rgba[index * 4 + 1] as number) * 150 + (rgba[index * 4 + 2] as number) * 29) >>> 8;
  return { width, height, pixels };
}

const inked = (grey: Grey) => grey.pixels.filter((value) => value < 200).length;

describe('fidelity: kept canvases', () => {
  for (const blend of [false, true]) {
    it(`draws an area on a kept, dirty, larger or grown canvas exactly as on a canvas of its own (${blend ? 'a transparency group' : 'no group'})`, async () => {
      const documents: PDFDocumentProxy[] = [];
      try {
        const text = await openPdf(await textPage(blend));
        const black = await openPdf(await blackPage());
        documents.push(text, black);
        const page = await text.getPage(1);
        const blackOne = await black.getPage(1);
        const small = { x1: 70, y1: 695, x2: 200, y2: 720 };
        const tiles = [small, { x1: 75, y1: 510, x2: 180, y2: 535 }, { x1: 50, y1: 590, x2: 300, y2: 700 }];
        const expected = await Promise.all(tiles.map((tile) => ownCanvas(page, tile)));
        // Every tile shows ink of its own: a white canvas would not pass for the page.
        for (const grey of expected) expect(inked(grey)).toBeGreaterThan(20);

        // A small area first, then a large black page (the kept canvas grows and is black all over), then the
        // tiles again, one at a time and all in one rendering.
        await renderAreas(text, page, [small], DPI);
        const [allBlack] = await renderAreas(black, blackOne, [{ x1: 0, y1: 0, x2: 1200, y2: 1400 }], DPI);
        expect(allBlack && inked(allBlack)).toBe((allBlack?.width ?? 0) * (allBlack?.height ?? 0));
        for (const [index, tile] of tiles.entries()) expect(await renderAreas(text, page, [tile], DPI)).toEqual([expected[index]]);
        // Two pages drawn at once take two canvases; neither shows the other's drawing.
        const [own, other] = await Promise.all([renderAreas(text, page, tiles, DPI), renderAreas(black, blackOne, [{ x1: 0, y1: 0, x2: 1200, y2: 1400 }], DPI)]);
        const bounds = { x1: 50, y1: 510, x2: 300, y2: 720 };
        const whole = await ownCanvas(page, bounds);
        const scale = DPI / 72;
        for (const [index, tile] of tiles.entries()) {
          // Each tile read from the shared rendering equals the same pixels of the area drawn whole on its own canvas.
          const left = Math.round((tile.x1 - bounds.x1) * scale);
          const top = Math.round((bounds.y2 - tile.y2) * scale);
          const width = Math.max(1, Math.ceil((tile.x2 - tile.x1) * scale));
          const height = Math.max(1, Math.ceil((tile.y2 - tile.y1) * scale));
          const cut = new Uint8Array(width * height);
          for (let y = 0; y < height; y += 1) cut.set(whole.pixels.subarray((top + y) * whole.width + left, (top + y) * whole.width + left + width), y * width);
          expect(own?.[index]).toEqual({ width, height, pixels: cut });
        }
        expect(other?.[0] && inked(other[0])).toBe((other?.[0]?.width ?? 0) * (other?.[0]?.height ?? 0));
      } finally {
        for (const document of documents) await document.destroy();
      }
    });
  }
});
