import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { tiffAsPdf } from '../../worker/burn-in/tiff.js';
import { tiffPageFile, tiffPageSizes } from '../../worker/ocr/tiff-pages.js';
import { renderGray } from '../helpers/export-fixtures.js';
import { greyTiffPages, type TiffPageImage } from '../helpers/ocr-fixtures.js';

// One page of a multi-page TIFF copied into a TIFF of its own. The copy is checked by other readers: the
// exports' TIFF wrapper and poppler draw it, and its pixels must be the source page's.

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ocr-tiff-pages-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

let files = 0;
function write(bytes: Buffer): string {
  const file = path.join(dir, `${(files += 1)}.tif`);
  fs.writeFileSync(file, bytes);
  return file;
}

/** A page of grey bands and a dark block at a page-specific place, so pages and positions differ. */
function page(width: number, height: number, seed: number, fax = false): TiffPageImage {
  const grey = Buffer.alloc(width * height);
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      const block = x >= seed * 10 && x < seed * 10 + 30 && y >= seed * 5 && y < seed * 5 + 20;
      grey[y * width + x] = block ? 0 : fax ? 255 : (x * 7 + y * 3 + seed * 40) % 256;
    }
  }
  return { grey, width, height, fax };
}

async function pixelsOf(tiff: Uint8Array, pageNumber = 1) {
  const wrapped = await tiffAsPdf(tiff);
  // A page measures the image in pixels as points: 72 dpi draws one pixel per pixel.
  return { sizes: wrapped.pages, ...renderGray(Buffer.from(wrapped.pdf), pageNumber, 72) };
}

describe('tiff pages for OCR', () => {
  const pages = [page(120, 90, 1), page(160, 70, 2, true), page(100, 110, 3)];

  for (const bigEndian of [false, true]) {
    it(`copies each page of a ${bigEndian ? 'big' : 'little'}-endian TIFF into one of its own, pixel for pixel`, async () => {
      const file = write(greyTiffPages(pages, { bigEndian, rowsPerStrip: 16 }));
      expect(await tiffPageSizes(file)).toEqual(pages.map(({ width, height }) => ({ width, height })));
      const whole = greyTiffPages(pages, { bigEndian, rowsPerStrip: 16 });
      for (const [index, source] of pages.entries()) {
        const single = await tiffPageFile(file, index + 1);
        // Only that page's bytes: far smaller than the file when the page is.
        expect(single.length).toBeLessThan(source.grey.length + 1024);
        expect(Buffer.from(single.subarray(0, 2)).toString('latin1')).toBe(bigEndian ? 'MM' : 'II');
        const drawn = await pixelsOf(single);
        expect(drawn.sizes).toEqual([{ width: source.width, height: source.height }]);
        // Drawn exactly as the same page of the whole file is.
        const original = await pixelsOf(whole, index + 1);
        expect([drawn.width, drawn.height]).toEqual([original.width, original.height]);
        expect(Buffer.compare(Buffer.from(drawn.pixels), Buffer.from(original.pixels)), `page ${index + 1}`).toBe(0);
        // And it is the source page: poppler's grey is a few levels darker than the samples and softens sharp edges.
        let close = 0;
        for (let pixel = 0; pixel < source.grey.length; pixel += 1) {
          const expected = source.fax ? ((source.grey[pixel] ?? 255) < 128 ? 0 : 255) : (source.grey[pixel] ?? 255);
          if (Math.abs((drawn.pixels[pixel] ?? 0) - expected) <= 12) close += 1;
        }
        expect(close / source.grey.length, `page ${index + 1}`).toBeGreaterThan(0.95);
      }
    });
  }

  it('names the page count when a page does not exist', async () => {
    const file = write(greyTiffPages(pages));
    await expect(tiffPageFile(file, 4)).rejects.toThrow('page 4 does not exist: the TIFF has 3 pages');
  });

  it('ends the document at a broken link after the first page, as libtiff does', async () => {
    const bytes = greyTiffPages(pages.slice(0, 2));
    // The second directory's link to a next one points past the end of the file.
    const second = bytes.readUInt32LE(8 + 2 + bytes.readUInt16LE(8) * 12);
    bytes.writeUInt32LE(bytes.length + 1000, second + 2 + bytes.readUInt16LE(second) * 12);
    const file = write(bytes);
    expect(await tiffPageSizes(file)).toEqual([
      { width: 120, height: 90 },
      { width: 160, height: 70 },
    ]);
    expect((await pixelsOf(await tiffPageFile(file, 2))).sizes).toEqual([{ width: 160, height: 70 }]);
  });

  it('an old-style JPEG page (tables anywhere in the file) keeps the whole file, started at that page', async () => {
    const bytes = greyTiffPages(pages);
    const second = bytes.readUInt32LE(8 + 2 + bytes.readUInt16LE(8) * 12);
    const entries = bytes.readUInt16LE(second);
    const compression = Array.from({ length: entries }, (_, index) => second + 2 + index * 12).find((at) => bytes.readUInt16LE(at) === 259);
    if (compression === undefined) throw new Error('no compression tag');
    bytes.writeUInt16LE(6, compression + 8);
    const single = Buffer.from(await tiffPageFile(write(bytes), 2));
    expect(single.length).toBe(bytes.length);
    expect(single.readUInt32LE(4)).toBe(second);
    expect(await tiffPageSizes(write(single))).toEqual([{ width: 160, height: 70 }]);
  });

  it('refuses a page whose image data runs past the end of the file, and leaves BigTIFF to the image reader', async () => {
    const bytes = greyTiffPages(pages);
    const truncated = write(bytes.subarray(0, bytes.length - 10));
    expect(await tiffPageSizes(truncated)).toHaveLength(3);
    await expect(tiffPageFile(truncated, 3)).rejects.toThrow('page 3 of the TIFF is truncated: its image data runs past the end of the file');

    const big = Buffer.alloc(16);
    big.write('II', 0, 'latin1');
    big.writeUInt16LE(43, 2);
    expect(await tiffPageSizes(write(big))).toBeNull();
  });
});
