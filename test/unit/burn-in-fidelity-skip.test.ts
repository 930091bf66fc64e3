import { OPS } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { describe, expect, it } from 'vitest';
import { renderAreas, type RenderList } from '../../worker/burn-in/fidelity/pixels.js';
import { paintsOutside, skipsOutside, tilesOf, type Skips } from '../../worker/burn-in/fidelity/tiles.js';
import { openPdf } from '../../worker/burn-in/pdfjs.js';
import { helveticaWidth, pagePdf, standardFont } from '../helpers/vector-pdfs.js';

// What the tiles' rendering leaves out (fidelity/tiles.ts paintsOutside): images and image masks clear of every tile
// are skipped, which saves pdf.js a pattern drawing per mask; nothing that paints in a tile is, so the tiles' pixels
// are those of the whole drawing.

const DPI = 100;
// An 8 × 8 checkerboard, one bit a pixel: a mask with holes, filled with an axial shading pattern.
const CHECKER = new Uint8Array([0xaa, 0x55, 0xaa, 0x55, 0xaa, 0x55, 0xaa, 0x55]);

async function maskedPage(secretX: number): Promise<Buffer> {
  const mask = (at: [number, number]) => `q 24 0 0 24 ${at[0]} ${at[1]} cm /M1 Do Q`;
  const content = [
    'BT /F1 12 Tf 72 700 Td (Keepword Secretword) Tj ET',
    '/Pattern cs /P1 scn',
    mask([400, 100]),
    mask([secretX, 690]),
    mask([90, 400]),
    'q 24 0 0 24 300 300 cm /I1 Do Q',
    'q 24 0 0 24 ' + `${secretX + 30} 695` + ' cm /I1 Do Q',
  ].join('\n');
  return pagePdf({
    content,
    resources: (doc) => ({
      Font: { F1: standardFont('Helvetica') },
      XObject: {
        M1: doc.context.register(doc.context.stream(CHECKER, { Type: 'XObject', Subtype: 'Image', Width: 8, Height: 8, ImageMask: true, BitsPerComponent: 1 })),
        I1: doc.context.register(doc.context.stream(new Uint8Array(8 * 8 * 3).map((_, index) => (index * 37) % 256), { Type: 'XObject', Subtype: 'Image', Width: 8, Height: 8, ColorSpace: 'DeviceRGB', BitsPerComponent: 8 })),
      },
      Pattern: {
        P1: doc.context.obj({
          PatternType: 2,
          Shading: { ShadingType: 2, ColorSpace: 'DeviceRGB', Coords: [0, 0, 612, 0], Function: { FunctionType: 2, Domain: [0, 1], C0: [1, 0, 0], C1: [0, 0, 1], N: 1 } },
        }),
      },
    }),
  });
}

describe('fidelity tiles: what their rendering skips', () => {
  it('skips images and pattern-filled masks clear of the tiles, never one in a tile, and the tiles come out the same', async () => {
    const secretX = 72 + (await helveticaWidth('Keepword ', 12));
    const bytes = await maskedPage(secretX);
    const document = await openPdf(bytes);
    try {
      const page = await document.getPage(1);
      const [x1 = 0, y1 = 0, x2 = 0, y2 = 0] = page.view;
      const tiles = tilesOf({ x1, y1, x2, y2 }, [{ x1: secretX, y1: 698, x2: secretX + (await helveticaWidth('Secretword', 12)), y2: 709 }], DPI / 72);

      const list = (await page.getOperatorList({ intent: 'display', annotationMode: 1 })) as unknown as RenderList;
      const paints = list.fnArray.flatMap((fn, index) => (fn === OPS.paintImageMaskXObject || fn === OPS.paintImageXObject ? [index] : []));
      expect(paints).toHaveLength(5);
      const skipped = paintsOutside(page, list, tiles);
      // Drawing order: masks at (400, 100), in the tile, at (90, 400); images at (300, 300), in the tile.
      expect(paints.map((op) => skipped.has(op))).toEqual([true, false, true, true, false]);

      let skippedInRendering = 0;
      const [withSkips] = [await renderAreas(document, page, tiles, DPI, (rendered) => {
        const set = paintsOutside(page, rendered, tiles);
        skippedInRendering = set.size;
        return set;
      })];
      const whole = await renderAreas(document, page, tiles, DPI);
      expect(skippedInRendering).toBeGreaterThanOrEqual(3);
      expect(withSkips?.map((grey) => Buffer.from(grey.pixels).toString('hex'))).toEqual(whole.map((grey) => Buffer.from(grey.pixels).toString('hex')));
      // The tile holds the pattern's ink (not white): the mask in it was drawn.
      expect(whole[0]?.pixels.some((value) => value < 200)).toBe(true);
    } finally {
      await document.destroy();
    }
  });

  it('leaves out the glyphs of a drawn line that are clear of the tiles, kerning kept, and the tiles come out the same', async () => {
    const content = [
      'BT /F1 12 Tf 72 700 Td (Alpha bravo charlie delta echo foxtrot golf hotel) Tj',
      '0 -14 Td [(India) -250 (juliet) 120 (Secretword) -300 (kilo lima) 80 (mike november)] TJ',
      '0 -14 Td (Oscar papa quebec romeo sierra tango uniform) Tj ET',
    ].join('\n');
    const bytes = await pagePdf({ content, resources: () => ({ Font: { F1: standardFont('Helvetica') } }) });
    const document = await openPdf(bytes);
    try {
      const page = await document.getPage(1);
      const [x1 = 0, y1 = 0, x2 = 0, y2 = 0] = page.view;
      const left = 72 + (await helveticaWidth('India juliet', 12)) + 3 - 1.44;
      const tiles = tilesOf({ x1, y1, x2, y2 }, [{ x1: left, y1: 684, x2: left + (await helveticaWidth('Secretword', 12)), y2: 695 }], DPI / 72);

      let hidden: number[] = [];
      let restored = () => false;
      const skipped = await renderAreas(document, page, tiles, DPI, (rendered) => {
        const skips: Skips = skipsOutside(page, rendered, tiles);
        hidden = [...skips.glyphs.values()].flat();
        // The list's own arguments are put back after the rendering.
        const before = [...skips.glyphs.keys()].map((op) => [op, rendered.argsArray[op]] as const);
        restored = () => before.length > 0 && before.every(([op, args]) => rendered.argsArray[op] === args);
        return skips;
      });
      const whole = await renderAreas(document, page, tiles, DPI);
      // Most glyphs of the three lines meeting the tile are left out, never those in it.
      expect(hidden.length).toBeGreaterThan(40);
      expect(restored()).toBe(true);
      expect(skipped.map((grey) => Buffer.from(grey.pixels).toString('hex'))).toEqual(whole.map((grey) => Buffer.from(grey.pixels).toString('hex')));
      expect(whole[0]?.pixels.some((value) => value < 128)).toBe(true);

      // pdf.js leaves a glyph so marked undrawn (else the tiles would cost as before): all of them, a white tile.
      const blank = await renderAreas(document, page, tiles, DPI, (rendered) => ({
        ops: new Set<number>(),
        glyphs: new Map(rendered.fnArray.flatMap((fn, op) => (fn === OPS.showText ? [[op, ((rendered.argsArray[op] as unknown[])[0] as unknown[]).map((_, at) => at)] as [number, number[]]] : []))),
      }));
      expect(blank[0]?.pixels.every((value) => value === 255)).toBe(true);
    } finally {
      await document.destroy();
    }
  });
});
