import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { PDFDocument, PDFName } from 'pdf-lib';
import type { BurnBox, BurnedPage, RewrittenPage } from '../../main/common/export-tasks.js';
import { popplerText, release } from '../helpers/burn-producers.js';
import { tempDir } from '../helpers/temp.js';
import { box, differingPixels, render, standardFont } from '../helpers/vector-pdfs.js';

// An image under a box, on a page redacted in its content: the image is redacted in its own pixels (a copy for
// the page, the box's pixels black), not left whole under the black, and the page is no longer rendered.
// Oracles: poppler's pdfimages (the stored pixels), pdftoppm (nothing changes outside the black), pdftotext.

const WIDTH = 300;
const HEIGHT = 150;
/** The image is drawn at 2 pixels per point: 150 × 75 pt from (100, 400). */
const PLACE = { x: 100, y: 400, width: 150, height: 75 };

/** A grey gradient with stripes: every pixel has a value of its own to compare. */
function greyPixels(): Buffer {
  const pixels = Buffer.alloc(WIDTH * HEIGHT);
  for (let y = 0; y < HEIGHT; y += 1) for (let x = 0; x < WIDTH; x += 1) pixels[y * WIDTH + x] = (x * 3 + y * 5 + (x % 7 === 0 ? 60 : 0)) % 230;
  return pixels;
}

/** 1-bit: a checkerboard of 6-pixel squares (bits packed, rows padded to bytes; 0 is black). */
function bilevelPixels(): Buffer {
  const rowBytes = Math.ceil(WIDTH / 8);
  const pixels = Buffer.alloc(rowBytes * HEIGHT);
  for (let y = 0; y < HEIGHT; y += 1) {
    for (let x = 0; x < WIDTH; x += 1) if ((Math.floor(x / 6) + Math.floor(y / 6)) % 2 === 0) pixels.writeUInt8((pixels[y * rowBytes + (x >> 3)] as number) | (0x80 >> (x & 7)), y * rowBytes + (x >> 3));
  }
  return pixels;
}

async function imagePdf(bits: 1 | 8, drawTwice = false): Promise<Buffer> {
  const doc = await PDFDocument.create({ updateMetadata: false });
  const page = doc.addPage([612, 792]);
  const image = doc.context.register(doc.context.flateStream(bits === 8 ? greyPixels() : bilevelPixels(), { Type: 'XObject', Subtype: 'Image', Width: WIDTH, Height: HEIGHT, ColorSpace: 'DeviceGray', BitsPerComponent: bits }));
  const draws = [`q ${PLACE.width} 0 0 ${PLACE.height} ${PLACE.x} ${PLACE.y} cm /Im1 Do Q`, ...(drawTwice ? ['q 150 0 0 75 300 100 cm /Im1 Do Q'] : [])];
  const content = ['BT /F1 14 Tf 72 700 Td (Keepword beside the picture) Tj ET', ...draws].join('\n');
  page.node.set(PDFName.of('Contents'), doc.context.register(doc.context.flateStream(content)));
  page.node.set(PDFName.of('Resources'), doc.context.obj({ Font: { F1: standardFont('Helvetica') }, XObject: { Im1: image } }));
  return Buffer.from(await doc.save({ useObjectStreams: false }));
}

/** The first image of page 1 as pdfimages writes it (PPM, PGM or PBM), as one grey byte per pixel (0 black). */
function extracted(bytes: Buffer): { width: number; height: number; pixels: Uint8Array } {
  const dir = tempDir('obscura-pdfimages-');
  try {
    fs.writeFileSync(path.join(dir, 'in.pdf'), bytes);
    execFileSync('pdfimages', ['-f', '1', '-l', '1', path.join(dir, 'in.pdf'), path.join(dir, 'img')]);
    const name = fs.readdirSync(dir).filter((entry) => /^img-\d+\.p[bgp]m$/.test(entry)).sort()[0];
    if (!name) throw new Error('pdfimages wrote no image');
    const data = fs.readFileSync(path.join(dir, name));
    const header = /^(P[456])\s+(\d+)\s+(\d+)\s+(?:255\s)?/.exec(data.subarray(0, 64).toString('latin1'));
    if (!header) throw new Error('not a PPM, PGM or PBM');
    const width = Number(header[2]);
    const height = Number(header[3]);
    const body = data.subarray(header[0].length);
    if (header[1] === 'P5') return { width, height, pixels: body };
    // PPM of a grey image: the red channel.
    if (header[1] === 'P6') return { width, height, pixels: Uint8Array.from({ length: width * height }, (_, index) => body[index * 3] as number) };
    const rowBytes = Math.ceil(width / 8);
    const pixels = new Uint8Array(width * height);
    // PBM: 1 is black.
    for (let y = 0; y < height; y += 1) for (let x = 0; x < width; x += 1) pixels[y * width + x] = ((body[y * rowBytes + (x >> 3)] as number) & (0x80 >> (x & 7))) !== 0 ? 0 : 255;
    return { width, height, pixels };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** The box: 40 × 30 pt inside the picture, i.e. image pixels x 60–140, y 50–110 (top-left origin). */
const BOX: BurnBox = box(PLACE.x + 30, PLACE.y + 20, PLACE.x + 70, PLACE.y + 50);

async function redacted(bits: 1 | 8): Promise<{ source: Buffer; bytes: Buffer; page: BurnedPage }> {
  const source = await imagePdf(bits);
  const { bytes, pages } = await release(source, new Map([[1, [BOX]]]), { dpi: 100, padding: 1, labels: false, imageMode: 'auto', jpegQuality: 80, method: 'auto' });
  return { source, bytes, page: pages[0] as BurnedPage };
}

function checkPixels(source: Buffer, bytes: Buffer): void {
  const before = extracted(source);
  const after = extracted(bytes);
  expect([after.width, after.height]).toEqual([WIDTH, HEIGHT]);
  // The box with its padding of 1 pt: image pixels x 58–142, y 48–112.
  let black = 0;
  let changedOutside = 0;
  for (let y = 0; y < HEIGHT; y += 1) {
    for (let x = 0; x < WIDTH; x += 1) {
      const index = y * WIDTH + x;
      const underBox = x >= 58 && x < 142 && y >= 48 && y < 112;
      if (underBox && after.pixels[index] === 0) black += 1;
      if (!underBox && after.pixels[index] !== before.pixels[index]) changedOutside += 1;
    }
  }
  expect(black).toBe(84 * 64);
  expect(changedOutside).toBe(0);
}

describe('images under a box, in content redaction', () => {
  it('an 8-bit grey image: the box is black in the stored pixels, the rest of the image and the page unchanged', async () => {
    const { source, bytes, page } = await redacted(8);
    expect(page.method, JSON.stringify(page)).toBe('vector');
    expect((page as RewrittenPage).images).toHaveLength(1);
    checkPixels(source, bytes);
    expect(popplerText(bytes)).toContain('Keepword beside the picture');
    const drawn = (page.drawnAreas ?? []).map(([x1, y1, x2, y2]) => box(x1, y1, x2, y2));
    expect(differingPixels(render(source), render(bytes), 792, drawn, 1)).toBe(0);
    // The original image does not travel: the only image stored is the copy.
    expect(execFileSync('pdfimages', ['-list', '-'], { input: bytes, encoding: 'utf8' }).trim().split('\n')).toHaveLength(3);
  }, 60_000);

  it('a 1-bit image: stored again in G4 with the box black, every other pixel as it was', async () => {
    const { source, bytes, page } = await redacted(1);
    expect(page.method, JSON.stringify(page)).toBe('vector');
    expect((page as RewrittenPage).images?.[0]?.data).toMatchObject({ bitsPerComponent: 1, filter: 'CCITTFaxDecode' });
    checkPixels(source, bytes);
    const drawn = (page.drawnAreas ?? []).map(([x1, y1, x2, y2]) => box(x1, y1, x2, y2));
    expect(differingPixels(render(source), render(bytes), 792, drawn, 1)).toBe(0);
  }, 60_000);

  it('an image under a box drawn again elsewhere on the page: both draws take the copy, and the black showing in the other one sends the page to rendering', async () => {
    const source = await imagePdf(8, true);
    const { pages } = await release(source, new Map([[1, [BOX]]]));
    const page = pages[0] as BurnedPage;
    expect(page.method).toBe('raster');
    expect(page.method === 'raster' && page.fallback).toMatch(/pixel\(s\) outside the drawn areas differ/);
  }, 60_000);

  it('a stencil mask drawn in strips, one under a box where it paints nothing: cleared there, every strip drawn from the copy, the page redacted in its content', async () => {
    const doc = await PDFDocument.create({ updateMetadata: false });
    const page = doc.addPage([612, 792]);
    // 160 × 20 pixels (about 1 × 0.5 pt each as drawn) painting their left half only (0 paints; 1 bits on the right).
    const rowBytes = 20;
    const bits = Buffer.alloc(rowBytes * 20);
    for (let y = 0; y < 20; y += 1) bits.fill(0xff, y * rowBytes + rowBytes / 2, (y + 1) * rowBytes);
    const mask = doc.context.register(doc.context.flateStream(bits, { Type: 'XObject', Subtype: 'Image', Width: rowBytes * 8, Height: 20, ImageMask: true, BitsPerComponent: 1 }));
    const strips = [0, 1, 2].map((index) => `q 0 0 1 rg 150 0 0 10 100 ${400 + 20 * index} cm /Mk Do Q`).join('\n');
    page.node.set(PDFName.of('Contents'), doc.context.register(doc.context.flateStream(`BT /F1 14 Tf 72 700 Td (Keepword) Tj ET\n${strips}`)));
    page.node.set(PDFName.of('Resources'), doc.context.obj({ Font: { F1: standardFont('Helvetica') }, XObject: { Mk: mask } }));
    const source = Buffer.from(await doc.save({ useObjectStreams: false }));
    const { bytes, pages } = await release(source, new Map([[1, [box(200, 421, 240, 429)]]]));
    const released = pages[0] as BurnedPage;
    expect(released.method, JSON.stringify(released)).toBe('vector');
    const drawn = (released.drawnAreas ?? []).map(([x1, y1, x2, y2]) => box(x1, y1, x2, y2));
    expect(differingPixels(render(source), render(bytes), 792, drawn, 1)).toBe(0);
    // Three draws, one object: the copy (the original stayed behind).
    const listed = execFileSync('pdfimages', ['-list', '-'], { input: bytes, encoding: 'utf8' }).trim().split('\n').slice(2);
    expect(listed).toHaveLength(3);
    expect(new Set(listed.map((line) => line.trim().split(/\s+/)[10]))).toHaveProperty('size', 1);
    expect(listed[0]).toMatch(/stencil/);
  }, 60_000);
});
