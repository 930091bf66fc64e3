import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createCanvas } from '@napi-rs/canvas';
import { PDFDocument } from 'pdf-lib';
import { embeddedScan } from '../../worker/ocr/embedded-scan.js';
import { GREY_TIFF_PIXELS_OFFSET } from '../../worker/ocr/grey-tiff.js';
import { openPdf } from '../../worker/ocr/pdf.js';
import { proseLines, scanImage, scannedPdf, type ScanPageSpec } from '../helpers/ocr-fixtures.js';

// The OCR shortcut for scanned pages: the page's own picture goes to tesseract when the page is nothing but
// that picture, upright and at about the requested resolution, and its pixels map back to user space exactly.

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'obscura-embedded-scan-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

let fileNumber = 0;
async function pageOf(spec: ScanPageSpec) {
  const { bytes, truth } = await scannedPdf([spec]);
  const file = path.join(dir, `scan-${(fileNumber += 1)}.pdf`);
  fs.writeFileSync(file, bytes);
  const document = await openPdf(file);
  return { page: await document.getPage(1), truth: truth[0], structure: await PDFDocument.load(bytes) };
}

/** A 300 dpi half-Letter scan: small enough to be quick, large enough to be a page. */
const image300 = scanImage({ widthPx: 1275, heightPx: 1650, lines: proseLines(7, 8, 40), fontPx: 40, marginPx: 100 });

describe('embeddedScan', () => {
  it('hands over the picture of a plain scanned page as a grey TIFF, with its resolution and an exact mapping', async () => {
    const { page, truth } = await pageOf({ image: image300 });
    const scan = await embeddedScan(page, 300);
    expect(scan).not.toBeNull();
    expect(scan?.width).toBe(1275);
    expect(scan?.height).toBe(1650);
    expect(scan?.dpi).toBeCloseTo(300, 1);
    expect(Buffer.from(scan!.image.subarray(0, 4)).toString('latin1')).toBe('II*\0');
    expect(scan!.image.length).toBe(GREY_TIFF_PIXELS_OFFSET + 1275 * 1650);
    // The TIFF's pixels are the picture's grey levels.
    const pixels = scan!.image.subarray(GREY_TIFF_PIXELS_OFFSET);
    let differing = 0;
    for (let index = 0; index < pixels.length; index += 1) if (Math.abs((pixels[index] ?? 0) - (image300.grey[index] ?? 0)) > 2) differing += 1;
    expect(differing).toBe(0);
    // Every word's pixel position lands on the truth's user-space position.
    for (const [index, word] of image300.truth.words.entries()) {
      const [x, y] = scan!.toUser(word.at[0], word.at[1]);
      const expected = truth?.words[index]?.at ?? [NaN, NaN];
      expect(x).toBeCloseTo(expected[0], 3);
      expect(y).toBeCloseTo(expected[1], 3);
    }
  });

  it('maps through /Rotate 90 and an offset crop box when the picture is upright as displayed', async () => {
    for (const spec of [
      { image: image300, rotation: 90 as const },
      { image: image300, mediaBox: [0, 0, 400, 500] as [number, number, number, number], cropBox: [50, 60, 356, 456] as [number, number, number, number] },
    ]) {
      const { page, truth } = await pageOf(spec);
      const scan = await embeddedScan(page, 300);
      expect(scan).not.toBeNull();
      const word = image300.truth.words[5];
      const [x, y] = scan!.toUser(word?.at[0] ?? 0, word?.at[1] ?? 0);
      expect(x).toBeCloseTo(truth?.words[5]?.at[0] ?? NaN, 3);
      expect(y).toBeCloseTo(truth?.words[5]?.at[1] ?? NaN, 3);
    }
  });

  it('declines pages with anything else painted, pictures far from the requested resolution, and pages the picture does not cover', async () => {
    const stamped = await pageOf({ image: image300, stamp: 'BATES 000123' });
    expect(await embeddedScan(stamped.page, 300)).toBeNull();
    const plain = await pageOf({ image: image300 });
    // 300 dpi picture, 600 dpi asked: rendered (and resampled) instead.
    expect(await embeddedScan(plain.page, 600)).toBeNull();
    expect(await embeddedScan(plain.page, 150)).toBeNull();
    expect(await embeddedScan(plain.page, 250)).not.toBeNull();
    // The picture fills only the lower-left quarter of a larger page.
    const small = await pageOf({ image: image300, mediaBox: [0, 0, 612, 792], cropBox: [0, 0, 306, 396] });
    expect(await embeddedScan(small.page, 300)).not.toBeNull();
    const { bytes } = await scannedPdf([{ image: image300 }]);
    const { PDFDocument } = await import('pdf-lib');
    const larger = await PDFDocument.load(bytes);
    larger.getPage(0).setMediaBox(0, 0, 612, 792);
    const file = path.join(dir, 'quarter.pdf');
    fs.writeFileSync(file, await larger.save());
    const quarter = await (await openPdf(file)).getPage(1);
    expect(await embeddedScan(quarter, 300)).toBeNull();
  });

  it('unpacks a 1-bit picture (what bilevel scanners produce) with black as 0 and white as 255', async () => {
    const { PDFDocument, pushGraphicsState, popGraphicsState, concatTransformationMatrix, drawObject } = await import('pdf-lib');
    const width = 800;
    const height = 1000;
    const rowBytes = width / 8;
    // Black (bit 0 with /Decode [0 1]) in the top-left quarter, white elsewhere.
    const bits = Buffer.alloc(rowBytes * height, 0xff);
    for (let y = 0; y < height / 2; y += 1) bits.fill(0x00, y * rowBytes, y * rowBytes + rowBytes / 2);
    const document = await PDFDocument.create();
    const page = document.addPage([(width / 300) * 72, (height / 300) * 72]);
    const raw = document.context.flateStream(bits, { Type: 'XObject', Subtype: 'Image', Width: width, Height: height, ColorSpace: 'DeviceGray', BitsPerComponent: 1 });
    const name = page.node.newXObject('Scan', document.context.register(raw));
    page.pushOperators(pushGraphicsState(), concatTransformationMatrix(page.getWidth(), 0, 0, page.getHeight(), 0, 0), drawObject(name), popGraphicsState());
    const file = path.join(dir, 'bilevel.pdf');
    fs.writeFileSync(file, await document.save());
    const scan = await embeddedScan(await (await openPdf(file)).getPage(1), 300);
    expect(scan).not.toBeNull();
    const pixels = scan!.image.subarray(scan!.image.length - width * height);
    expect(pixels[10 * width + 10]).toBe(0);
    expect(pixels[(height / 2 - 1) * width + width / 2 - 1]).toBe(0);
    expect(pixels[(height / 2) * width + 10]).toBe(255);
    expect(pixels[10 * width + width / 2]).toBe(255);
    expect(pixels[height * width - 1]).toBe(255);
  });

  it('takes the stored picture without decoding it through pdf.js: the same grey TIFF from Flate, the JPEG bytes as they are', async () => {
    const { page, structure } = await pageOf({ image: image300 });
    const decoded = await embeddedScan(page, 300);
    const stored = await embeddedScan(page, 300, structure);
    expect(stored).not.toBeNull();
    expect(Buffer.from(stored!.image).equals(Buffer.from(decoded!.image))).toBe(true);
    expect(stored!.toUser(100, 200)).toEqual(decoded!.toUser(100, 200));
    expect(stored!.dpi).toBe(decoded!.dpi);

    // A JPEG scan (what most scanners write): tesseract gets the file's own JPEG.
    const canvas = createCanvas(image300.width, image300.height);
    const context = canvas.getContext('2d');
    const pixels = context.createImageData(image300.width, image300.height);
    image300.grey.forEach((value, index) => pixels.data.set([value, value, value, 255], index * 4));
    context.putImageData(pixels, 0, 0);
    const jpeg = await canvas.encode('jpeg', 90);
    const document = await PDFDocument.create();
    const jpegPage = document.addPage([(image300.width / 300) * 72, (image300.height / 300) * 72]);
    jpegPage.drawImage(await document.embedJpg(jpeg), { x: 0, y: 0, width: jpegPage.getWidth(), height: jpegPage.getHeight() });
    const file = path.join(dir, 'jpeg-scan.pdf');
    const bytes = await document.save();
    fs.writeFileSync(file, bytes);
    const viaStream = await embeddedScan(await (await openPdf(file)).getPage(1), 300, await PDFDocument.load(bytes));
    expect(viaStream).not.toBeNull();
    expect(Buffer.from(viaStream!.image).equals(jpeg)).toBe(true);
    expect(viaStream!.toUser(0, image300.height)).toEqual([0, 0]);
  });

  it('leaves pages with more than one picture, or a masked picture, to pdf.js', async () => {
    const { bytes } = await scannedPdf([{ image: image300 }]);
    const document = await PDFDocument.load(bytes);
    const page = document.getPage(0);
    page.drawRectangle({ x: 10, y: 10, width: 20, height: 20 });
    const file = path.join(dir, 'extra-drawing.pdf');
    const changed = await document.save();
    fs.writeFileSync(file, changed);
    const pdfjsPage = await (await openPdf(file)).getPage(1);
    expect(await embeddedScan(pdfjsPage, 300, await PDFDocument.load(changed))).toBeNull();
  });
});
