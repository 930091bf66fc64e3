import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCase, uploadDocuments } from '../helpers/instance.js';
import { exportFile, startExportHarness, type Harness } from '../helpers/export-fixtures.js';
import { darkShare, renderGray } from '../helpers/pdf-tools.js';
import { createBoxes, rect } from '../helpers/v1-redactions-support.js';
import { canvasJpeg, colourImage, cutPieces, encodeJpeg, greyImage, inset, regions, splitJpeg, tiffDirectory, writeTiff, type Rect } from '../helpers/tiff-writers.js';

// A scanner's JPEG-in-TIFF exported end to end: uploaded, boxed through the API, burned by the worker pool,
// and the output drawn by poppler. Needs the compiled worker (npm run build:main).

const [width, height] = [240, 160];

/** Page 1: grey JPEG strips, tables in JPEGTables. Page 2: YCbCr JPEG tiles, edge tiles past the image. */
function jpegTiff(): { bytes: Buffer; grey: Uint8Array; colour: Uint8Array } {
  const grey = greyImage(width, height);
  const strips = cutPieces(grey, width, height, 1, { rowsPerStrip: 32 }).map((piece) => splitJpeg(encodeJpeg({ width: piece.width, height: piece.height, samples: piece.samples, components: 1 })));
  const colour = colourImage(width, height);
  const tileLayout = { tileWidth: 64, tileLength: 64 };
  const tiles = cutPieces(colour, width, height, 3, tileLayout).map((piece) => canvasJpeg(piece.samples, piece.width, piece.height));
  const bytes = writeTiff([
    tiffDirectory({ width, height, samples: 1, photometric: 1, compression: 7, layout: { rowsPerStrip: 32 }, blocks: strips.map((part) => part.abbreviated), jpegTables: strips[0]?.tables ?? Buffer.alloc(0) }),
    tiffDirectory({ width, height, samples: 3, photometric: 6, compression: 7, layout: tileLayout, blocks: tiles }),
  ]);
  return { bytes, grey, colour };
}

function meanOver(pixels: Uint8Array, rect: Rect, stride: number): number {
  let sum = 0;
  let count = 0;
  for (let y = rect.y1; y < rect.y2; y += 1) {
    for (let x = rect.x1; x < rect.x2; x += 1) {
      sum += pixels[y * stride + x] ?? 0;
      count += 1;
    }
  }
  return sum / count;
}

describe('exporting a JPEG-in-TIFF document', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startExportHarness();
  }, 60_000);
  afterAll(async () => {
    await h.close();
  });

  it('burns the boxes into both pages, strips and tiles, and keeps the rest of the pictures', async () => {
    const { bytes, grey, colour } = jpegTiff();
    const caseId = await createCase(h.instance, 'JPEG TIFF case');
    const [document] = await uploadDocuments(h.instance, caseId, [{ name: 'scan.tif', bytes }]);
    // Boxes over light areas of the pictures, so black there can only come from the burn.
    const box = { x1: 150, y1: 20, x2: 220, y2: 45 };
    await createBoxes(
      h.instance,
      document?.id ?? '',
      [1, 2].map((page) => rect({ coordinates: { page, units: 'image_pixels', box } })),
    );
    const { exported, bytes: pdf } = await exportFile(h.instance, { case_id: caseId, options: { dpi: 72, labels: false, image_mode: 'color', jpeg_quality: 95 } });
    expect(exported.summary).toMatchObject({ documents: 1, pages: 2, redactions: 2, skipped_documents: [] });
    const { dark, light } = regions(width, height);
    const luminance = Uint8Array.from({ length: width * height }, (_, index) =>
      Math.round(0.299 * (colour[index * 3] ?? 0) + 0.587 * (colour[index * 3 + 1] ?? 0) + 0.114 * (colour[index * 3 + 2] ?? 0)),
    );
    for (const [page, source] of [
      [1, grey],
      [2, luminance],
    ] as const) {
      // 72 dpi: one output point per image pixel, so the rendering is the picture's own grid.
      const drawn = renderGray(pdf, page, 72);
      expect([drawn.width, drawn.height], `page ${page}`).toEqual([width, height]);
      expect(darkShare(drawn, box), `page ${page}: under the box`).toBeGreaterThan(0.97);
      expect(meanOver(source, inset(box, 2), width), `page ${page}: the source is light under the box`).toBeGreaterThan(90);
      for (const region of [dark, light, { x1: 10, y1: 100, x2: 60, y2: 150 }]) {
        const area = inset(region, 4);
        expect(Math.abs(meanOver(drawn.pixels, area, width) - meanOver(source, area, width)), `page ${page}: ${JSON.stringify(region)} as in the TIFF`).toBeLessThan(10);
      }
    }
  }, 60_000);
});
