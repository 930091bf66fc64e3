import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { tiffAsPdf } from '../../worker/burn-in/tiff.js';
import { tiffPageFile, tiffPageSizes } from '../../worker/ocr/tiff-pages.js';
import { renderGray } from '../helpers/pdf-tools.js';
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

  for (const bigTiff of [false, true]) {
    for (const bigEndian of [false, true]) {
      const kind = `${bigEndian ? 'big' : 'little'}-endian ${bigTiff ? 'BigTIFF' : 'TIFF'}`;
      it(`copies each page of a ${kind} into a classic TIFF of its own, pixel for pixel`, async () => {
        const whole = greyTiffPages(pages, { bigEndian, bigTiff, rowsPerStrip: 16 });
        expect(whole.readUInt16LE(2) === 43 || whole.readUInt16BE(2) === 43).toBe(bigTiff);
        const file = write(whole);
        expect(await tiffPageSizes(file)).toEqual(pages.map(({ width, height }) => ({ width, height })));
        // The same pages as a classic TIFF: what each page must look like, the whole file wrapped and each copy.
        const classic = greyTiffPages(pages, { bigEndian, rowsPerStrip: 16 });
        for (const [index, source] of pages.entries()) {
          const single = Buffer.from(await tiffPageFile(file, index + 1));
          // Only that page's bytes: far smaller than the file when the page is.
          expect(single.length).toBeLessThan(source.grey.length + 1024);
          expect(single.toString('latin1', 0, 2)).toBe(bigEndian ? 'MM' : 'II');
          expect(bigEndian ? single.readUInt16BE(2) : single.readUInt16LE(2)).toBe(42);
          const drawn = await pixelsOf(single);
          expect(drawn.sizes).toEqual([{ width: source.width, height: source.height }]);
          // Drawn exactly as the same page of the classic file is, and as the same page of the whole file.
          const original = await pixelsOf(classic, index + 1);
          expect([drawn.width, drawn.height]).toEqual([original.width, original.height]);
          expect(Buffer.compare(Buffer.from(drawn.pixels), Buffer.from(original.pixels)), `page ${index + 1}`).toBe(0);
          const inWhole = await pixelsOf(whole, index + 1);
          expect(inWhole.sizes).toEqual(original.sizes);
          expect(Buffer.compare(Buffer.from(inWhole.pixels), Buffer.from(original.pixels)), `page ${index + 1} of the whole file`).toBe(0);
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

  it('refuses a page whose image data runs past the end of the file, and leaves other TIFF variants to the image reader', async () => {
    const bytes = greyTiffPages(pages);
    const truncated = write(bytes.subarray(0, bytes.length - 10));
    expect(await tiffPageSizes(truncated)).toHaveLength(3);
    await expect(tiffPageFile(truncated, 3)).rejects.toThrow('page 3 of the TIFF is truncated: its image data runs past the end of the file');

    // Version 85: a camera's raw file built on TIFF (Panasonic), not a layout this reader walks.
    const variant = Buffer.from(bytes);
    variant.writeUInt16LE(85, 2);
    expect(await tiffPageSizes(write(variant))).toBeNull();
    await expect(tiffAsPdf(variant)).rejects.toThrow('TIFF variants other than classic TIFF and BigTIFF are not supported');
  });
});

/** A BigTIFF to damage: little-endian, strips of 16 rows, the pages above. */
function bigTiff(pages: readonly TiffPageImage[]): { bytes: Buffer; directories: number[]; entry: (directory: number, tag: number) => number } {
  const bytes = greyTiffPages(pages, { bigTiff: true, rowsPerStrip: 16 });
  const directories: number[] = [];
  for (let at = Number(bytes.readBigUInt64LE(8)); at !== 0; at = Number(bytes.readBigUInt64LE(at + 8 + Number(bytes.readBigUInt64LE(at)) * 20))) directories.push(at);
  const entry = (directory: number, tag: number) => {
    const count = Number(bytes.readBigUInt64LE(directory));
    for (let index = 0; index < count; index += 1) if (bytes.readUInt16LE(directory + 8 + index * 20) === tag) return directory + 8 + index * 20;
    throw new Error(`no tag ${tag}`);
  };
  return { bytes, directories, entry };
}

describe('damaged BigTIFFs', () => {
  const pages = [page(120, 90, 1), page(160, 70, 2, true), page(100, 110, 3)];
  const sizes = pages.map(({ width, height }) => ({ width, height }));

  /** Both readers refuse the file with the same reason: OCR's page list and the viewer's and exports' wrapper. */
  async function expectRefused(bytes: Buffer, reason: string | RegExp, wrapperReason: string | RegExp = reason): Promise<void> {
    await expect(tiffPageSizes(write(bytes))).rejects.toThrow(reason);
    await expect(tiffAsPdf(bytes)).rejects.toThrow(wrapperReason);
  }

  it('a header cut short, or one that gives other than 8-byte offsets', async () => {
    const { bytes } = bigTiff(pages);
    await expectRefused(bytes.subarray(0, 12), 'the BigTIFF is truncated: its header is shorter than 16 bytes');
    const four = Buffer.from(bytes);
    four.writeUInt16LE(4, 4);
    await expectRefused(four, 'not a valid BigTIFF: its header gives offsets of 4 bytes (8 expected)');
  });

  it('a first directory past the end of the file, even past 2^53, or claiming an absurd number of entries', async () => {
    for (const offset of [0x1_0000_0000n, 0xffff_ffff_ffff_fff0n]) {
      const { bytes } = bigTiff(pages);
      bytes.writeBigUInt64LE(offset, 8);
      await expectRefused(bytes, 'the TIFF is truncated');
    }
    const { bytes, directories } = bigTiff(pages);
    bytes.writeBigUInt64LE(1n << 40n, directories[0] ?? 0);
    await expectRefused(bytes, `the TIFF directory at byte ${directories[0]} claims 1099511627776 entries (at most 65535): the file is damaged`);
  });

  it('a chain that loops back ends at the repeated directory; a link past the end after a page ends the document', async () => {
    const looped = bigTiff(pages);
    const [first = 0, , third = 0] = looped.directories;
    looped.bytes.writeBigUInt64LE(BigInt(first), third + 8 + Number(looped.bytes.readBigUInt64LE(third)) * 20);
    expect(await tiffPageSizes(write(looped.bytes))).toEqual(sizes);
    expect((await tiffAsPdf(looped.bytes)).pages).toEqual(sizes);

    const broken = bigTiff(pages);
    const second = broken.directories[1] ?? 0;
    broken.bytes.writeBigUInt64LE(BigInt(broken.bytes.length + 1000), second + 8 + Number(broken.bytes.readBigUInt64LE(second)) * 20);
    const file = write(broken.bytes);
    expect(await tiffPageSizes(file)).toEqual(sizes.slice(0, 2));
    expect((await pixelsOf(await tiffPageFile(file, 2))).sizes).toEqual([sizes[1]]);
  });

  it('values or image data past the end of the file, or overlapping many times over, are refused before they are read', async () => {
    // StripByteCounts claims 2^50 values.
    const counted = bigTiff(pages);
    counted.bytes.writeBigUInt64LE(1n << 50n, counted.entry(counted.directories[0] ?? 0, 279) + 4);
    const countedFile = write(counted.bytes);
    expect(await tiffPageSizes(countedFile)).toEqual(sizes);
    await expect(tiffPageFile(countedFile, 1)).rejects.toThrow('the TIFF is truncated: a directory or its values run past the end of the file');
    await expect(tiffAsPdf(counted.bytes)).rejects.toThrow('TIFF tag 279 points past the end of the file');

    // A strip 2^62 bytes into the file.
    const far = bigTiff(pages);
    const offsetsAt = Number(far.bytes.readBigUInt64LE(far.entry(far.directories[2] ?? 0, 273) + 12));
    far.bytes.writeBigUInt64LE(1n << 62n, offsetsAt + 8);
    await expect(tiffPageFile(write(far.bytes), 3)).rejects.toThrow('page 3 of the TIFF is truncated: its image data runs past the end of the file');

    // Page 1's six strips all start at the header, each nearly the whole file long: six copies of the file.
    const overlapping = bigTiff(pages);
    const first = overlapping.directories[0] ?? 0;
    const stripOffsets = Number(overlapping.bytes.readBigUInt64LE(overlapping.entry(first, 273) + 12));
    const stripCounts = Number(overlapping.bytes.readBigUInt64LE(overlapping.entry(first, 279) + 12));
    for (let strip = 0; strip < 6; strip += 1) {
      overlapping.bytes.writeBigUInt64LE(0n, stripOffsets + strip * 8);
      overlapping.bytes.writeBigUInt64LE(BigInt(overlapping.bytes.length - strip), stripCounts + strip * 8);
    }
    await expect(tiffPageFile(write(overlapping.bytes), 1)).rejects.toThrow('page 1 of the TIFF is damaged: its values and image data overlap, adding up to more than twice the file');
  });

  it('an old-style JPEG page keeps the whole file, its header pointing at that page and the chain cut after it', async () => {
    const { bytes, directories, entry } = bigTiff(pages);
    const second = directories[1] ?? 0;
    bytes.writeUInt16LE(6, entry(second, 259) + 12);
    const single = Buffer.from(await tiffPageFile(write(bytes), 2));
    expect(single.length).toBe(bytes.length);
    expect(single.readUInt16LE(2)).toBe(43);
    expect(Number(single.readBigUInt64LE(8))).toBe(second);
    expect(await tiffPageSizes(write(single))).toEqual([sizes[1]]);
  });
});
