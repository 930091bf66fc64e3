import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { tiffAsPdf } from '../../worker/burn-in/tiff.js';
import { recognize } from '../../worker/ocr/engine.js';
import { GREY_TIFF_PIXELS_OFFSET, greyTiff } from '../../worker/ocr/grey-tiff.js';
import { toGreyTiff } from '../../worker/ocr/render.js';
import { tiffPageSizes } from '../../worker/ocr/tiff-pages.js';
import { renderGray } from '../helpers/pdf-tools.js';
import { greyTiffPages, proseLines, scanImage } from '../helpers/ocr-fixtures.js';

// The picture format OCR hands to tesseract. Other readers check it: the exports' TIFF wrapper with poppler
// drawing the result, the OCR's TIFF page directory, and tesseract itself.

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ocr-grey-tiff-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** tesseract.js's check for an EXIF orientation tag, run over an image's first 500 bytes. */
const EXIF_SNIFF = /1 18 0 3 0 0 0 1 0 (\d)/;

describe('greyTiff', () => {
  it('is an 8-bit grey TIFF that other readers draw pixel for pixel, at the given resolution', async () => {
    const width = 37;
    const height = 23;
    const { bytes, pixels } = greyTiff(width, height, 299.5);
    expect(pixels.length).toBe(width * height);
    for (let y = 0; y < height; y += 1) for (let x = 0; x < width; x += 1) pixels[y * width + x] = (x * 5 + y * 3) % 256;

    const file = path.join(dir, 'grey.tif');
    fs.writeFileSync(file, bytes);
    expect(await tiffPageSizes(file)).toEqual([{ width, height }]);
    // 72 dpi draws one image pixel per output pixel (the wrapper sizes pages in pixels as points).
    const draw = async (tiff: Uint8Array) => renderGray(Buffer.from((await tiffAsPdf(tiff)).pdf), 1, 72);
    const drawn = await draw(bytes);
    expect([drawn.width, drawn.height]).toEqual([width, height]);
    // Drawn exactly as the test fixtures' own TIFF of the same pixels is...
    const reference = await draw(greyTiffPages([{ grey: Buffer.from(pixels), width, height }]));
    expect(Buffer.compare(Buffer.from(drawn.pixels), Buffer.from(reference.pixels))).toBe(0);
    // ...and close to the samples (poppler's grey runs a few levels darker).
    const close = pixels.filter((value, index) => Math.abs(value - (drawn.pixels[index] ?? -99)) <= 12).length;
    expect(close / pixels.length).toBeGreaterThan(0.95);

    // XResolution and YResolution are RATIONALs (type 5) of dpi × 100 / 100.
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const entries = view.getUint16(8, true);
    const resolutions = [];
    for (let index = 0; index < entries; index += 1) {
      const at = 10 + index * 12;
      const tag = view.getUint16(at, true);
      if (tag !== 282 && tag !== 283) continue;
      expect(view.getUint16(at + 2, true)).toBe(5);
      const offset = view.getUint32(at + 8, true);
      resolutions.push(view.getUint32(offset, true) / view.getUint32(offset + 4, true));
    }
    expect(resolutions).toEqual([299.5, 299.5]);
  });

  it('keeps every pixel out of the bytes tesseract.js searches for an orientation tag', () => {
    // Pixels that spell the tag tesseract.js looks for, with orientation 6 (rotate 90°).
    const pattern = [1, 18, 0, 3, 0, 0, 0, 1, 0, 6];
    const { bytes, pixels } = greyTiff(100, 100, 300);
    for (let index = 0; index < pixels.length; index += 1) pixels[index] = pattern[index % pattern.length] ?? 0;
    expect(GREY_TIFF_PIXELS_OFFSET).toBeGreaterThanOrEqual(500);
    expect(EXIF_SNIFF.test(Array.from(bytes.subarray(0, 500)).join(' '))).toBe(false);
    // The same pixels in the first 500 bytes would have been taken for one.
    expect(EXIF_SNIFF.test(Array.from(pixels.subarray(0, 500)).join(' '))).toBe(true);
  });

  it('writes no resolution when none is known, so tesseract estimates it', () => {
    const { bytes } = greyTiff(8, 8, null);
    const entries = bytes.readUInt16LE(8);
    const tags = Array.from({ length: entries }, (_, index) => bytes.readUInt16LE(10 + index * 12));
    expect(tags).toEqual([256, 257, 258, 259, 262, 273, 277, 278, 279]);
    expect(bytes.readUInt32LE(10 + 5 * 12 + 8)).toBe(GREY_TIFF_PIXELS_OFFSET);
  });

  it('refuses sizes it cannot write', () => {
    expect(() => greyTiff(0, 10, 300)).toThrow(RangeError);
    expect(() => greyTiff(10.5, 10, 300)).toThrow(RangeError);
    expect(() => greyTiff(70_000, 70_000, 300)).toThrow(/too large/);
  });
});

describe('toGreyTiff', () => {
  it('converts RGBA to Rec. 601 luma, on the aligned and the byte path alike', () => {
    const rgba = new Uint8Array([255, 255, 255, 255, 0, 0, 0, 255, 255, 0, 0, 255, 0, 255, 0, 255]);
    const luma = (image: Uint8Array) => [...image.subarray(GREY_TIFF_PIXELS_OFFSET)];
    expect(luma(toGreyTiff(rgba, 2, 2, 300))).toEqual([255, 0, 76, 149]);
    const unaligned = new Uint8Array(rgba.length + 1).subarray(1);
    unaligned.set(rgba);
    expect(luma(toGreyTiff(unaligned, 2, 2, 300))).toEqual([255, 0, 76, 149]);
  });
});

describe('tesseract reading a grey TIFF', () => {
  it('finds the same words in the same places as in the PNG of the same scan', async () => {
    const scan = scanImage({ widthPx: 1275, heightPx: 700, lines: proseLines(41, 6, 40), fontPx: 40, marginPx: 100 });
    const tiff = greyTiff(scan.width, scan.height, 300);
    tiff.pixels.set(scan.grey);
    const options = { language: 'eng', model: 'fast', dpi: 300 } as const;
    const fromTiff = await recognize(tiff.bytes, options);
    const fromPng = await recognize(scan.png, options);
    expect([fromTiff.width, fromTiff.height]).toEqual([scan.width, scan.height]);
    expect(fromTiff.words.length).toBeGreaterThan(20);
    expect(fromTiff.words).toEqual(fromPng.words);
  }, 60_000);
});
