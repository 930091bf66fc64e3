import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { createCanvas } from '@napi-rs/canvas';
import { PDFDocument, PDFName, PDFRawStream } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { encodeG4 } from '../../worker/burn-in/ccitt.js';
import { openPdf } from '../../worker/burn-in/pdfjs.js';
import { tiffAsPdf } from '../../worker/burn-in/tiff.js';
import { tempDir } from '../helpers/temp.js';
import {
  canvasJpeg,
  colourImage,
  cutPieces,
  deflateWithPredictor,
  encodeJpeg,
  greyImage,
  inset,
  inside,
  packBits,
  regions,
  splitJpeg,
  tiffDirectory,
  writeTiff,
  type Layout,
  type Piece,
  type Rect,
} from '../helpers/tiff-writers.js';

// JPEG-in-TIFF and tiled TIFFs, written here as scanners write them, wrapped as PDF pages and drawn by both
// readers of the wrapper: poppler (pdftoppm, an independent decoder) and pdf.js (what exports and the viewer use).
// Each page measures the image in pixels as points, so 72 dpi draws one pixel per pixel.

interface Picture {
  width: number;
  height: number;
  channels: 1 | 3;
  pixels: Uint8Array;
}

function poppler(pdf: Uint8Array, channels: 1 | 3, page = 1): Picture {
  const dir = tempDir('obscura-tiff-');
  try {
    const file = path.join(dir, 'wrapped.pdf');
    fs.writeFileSync(file, pdf);
    execFileSync('pdftoppm', ['-r', '72', ...(channels === 1 ? ['-gray'] : []), '-f', String(page), '-l', String(page), file, path.join(dir, 'page')]);
    const name = fs.readdirSync(dir).find((entry) => /^page.*\.p[gp]m$/.test(entry));
    const data = fs.readFileSync(path.join(dir, name ?? ''));
    const header = /^P[56]\s+(\d+)\s+(\d+)\s+255\s/.exec(data.subarray(0, 64).toString('latin1'));
    if (!header) throw new Error('pdftoppm wrote no PNM');
    return { width: Number(header[1]), height: Number(header[2]), channels, pixels: data.subarray(header[0].length) };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function pdfjs(pdf: Uint8Array, channels: 1 | 3, pageNumber = 1): Promise<Picture> {
  const document = await openPdf(pdf);
  try {
    const page = await document.getPage(pageNumber);
    const viewport = page.getViewport({ scale: 1 });
    const canvas = createCanvas(Math.ceil(viewport.width), Math.ceil(viewport.height));
    const context = canvas.getContext('2d');
    context.fillStyle = '#ffffff';
    context.fillRect(0, 0, canvas.width, canvas.height);
    await page.render({ canvas: canvas as never, canvasContext: context as never, viewport }).promise;
    const rgba = context.getImageData(0, 0, canvas.width, canvas.height).data;
    const pixels = new Uint8Array(canvas.width * canvas.height * channels);
    for (let index = 0; index < canvas.width * canvas.height; index += 1) {
      if (channels === 3) pixels.set(rgba.subarray(index * 4, index * 4 + 3), index * 3);
      else pixels[index] = Math.round(((rgba[index * 4] ?? 0) + (rgba[index * 4 + 1] ?? 0) + (rgba[index * 4 + 2] ?? 0)) / 3);
    }
    return { width: canvas.width, height: canvas.height, channels, pixels };
  } finally {
    await document.destroy();
  }
}

/** The page drawn by both readers. */
async function renderings(pdf: Uint8Array, channels: 1 | 3, page = 1): Promise<[string, Picture][]> {
  return [
    ['poppler', poppler(pdf, channels, page)],
    ['pdf.js', await pdfjs(pdf, channels, page)],
  ];
}

function meanDifference(picture: Picture, source: Uint8Array): number {
  let sum = 0;
  for (let index = 0; index < source.length; index += 1) sum += Math.abs((picture.pixels[index] ?? 0) - (source[index] ?? 0));
  return sum / source.length;
}

function maxDifference(picture: Picture, source: Uint8Array): number {
  let most = 0;
  for (let index = 0; index < source.length; index += 1) most = Math.max(most, Math.abs((picture.pixels[index] ?? 0) - (source[index] ?? 0)));
  return most;
}

/** Sample indices of the pixels whose 3 × 3 neighbourhood in the source is flat: where softening cannot reach. */
function flatSamples(source: Uint8Array, width: number, height: number, channels: number): number[] {
  const flat: number[] = [];
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      for (let channel = 0; channel < channels; channel += 1) {
        let low = 255;
        let high = 0;
        for (let dy = -1; dy <= 1; dy += 1) {
          for (let dx = -1; dx <= 1; dx += 1) {
            const value = source[(Math.min(height - 1, Math.max(0, y + dy)) * width + Math.min(width - 1, Math.max(0, x + dx))) * channels + channel] ?? 0;
            low = Math.min(low, value);
            high = Math.max(high, value);
          }
        }
        if (high - low <= 24) flat.push((y * width + x) * channels + channel);
      }
    }
  }
  return flat;
}

/**
 * A lossless page drawn as stored. pdf.js draws a page of 1 unit = 1 pixel at scale 1 exactly. poppler softens
 * sharp edges of images drawn 1:1 (see ocr-tiff-pages.test.ts), so it is held to the pixels away from them.
 */
function expectLossless(reader: string, picture: Picture, source: Uint8Array, label: string): void {
  if (reader === 'pdf.js') {
    expect(maxDifference(picture, source), `${reader}, ${label}`).toBe(0);
    return;
  }
  const flat = flatSamples(source, picture.width, picture.height, picture.channels);
  expect(flat.length / source.length, `${label}: most of the image is away from edges`).toBeGreaterThan(0.5);
  const differences = flat.map((index) => Math.abs((picture.pixels[index] ?? 0) - (source[index] ?? 0)));
  expect(Math.max(...differences), `${reader}, ${label}: away from edges`).toBeLessThanOrEqual(12);
  expect(differences.reduce((sum, value) => sum + value, 0) / differences.length, `${reader}, ${label}: away from edges`).toBeLessThan(3);
}

/** Mean of one channel over a rectangle of pixels. */
function regionMean(picture: Picture, rect: Rect, channel = 0): number {
  let sum = 0;
  let count = 0;
  for (let y = rect.y1; y < rect.y2; y += 1) {
    for (let x = rect.x1; x < rect.x2; x += 1) {
      sum += picture.pixels[(y * picture.width + x) * picture.channels + channel] ?? 0;
      count += 1;
    }
  }
  return sum / count;
}

function expectGreyRegions(label: string, picture: Picture, width: number, height: number): void {
  const { dark, light } = regions(width, height);
  expect(regionMean(picture, inset(dark)), `${label}: the dark block`).toBeLessThan(40);
  expect(regionMean(picture, inset(light)), `${label}: the light block`).toBeGreaterThan(215);
}

function expectColourRegions(label: string, picture: Picture, width: number, height: number): void {
  const { dark, light } = regions(width, height);
  const [red, blue] = [dark, light].map((rect) => [0, 1, 2].map((channel) => Math.round(regionMean(picture, inset(rect, 4), channel))));
  const [r = 0, g = 0, b = 0] = red ?? [];
  expect(r > 190 && g < 70 && b < 70, `${label}: the red block is red, not ${JSON.stringify(red)}`).toBe(true);
  const [r2 = 0, g2 = 0, b2 = 0] = blue ?? [];
  expect(r2 < 70 && g2 < 80 && b2 > 180, `${label}: the blue block is blue, not ${JSON.stringify(blue)}`).toBe(true);
}

/** The dictionaries of the wrapper's images, as written: how many, and their filters and parameters. */
async function imageStreams(pdf: Uint8Array): Promise<string[]> {
  const doc = await PDFDocument.load(pdf);
  return doc.context
    .enumerateIndirectObjects()
    .flatMap(([, object]) => (object instanceof PDFRawStream && object.dict.get(PDFName.of('Subtype')) === PDFName.of('Image') ? [object.dict.toString()] : []));
}

const greyJpegBlocks = (pieces: Piece[]) => pieces.map((piece) => encodeJpeg({ width: piece.width, height: piece.height, samples: piece.samples, components: 1 }));

describe('JPEG-in-TIFF (compression 7)', () => {
  for (const lastStrip of ['shorter', 'coded full height'] as const) {
    it(`grey strips stored abbreviated, their tables in JPEGTables (as libtiff writes them), the last strip ${lastStrip}`, async () => {
      const [width, height] = [150, 100];
      const grey = greyImage(width, height);
      const layout: Layout = { rowsPerStrip: 16 };
      // Some writers code the last strip at RowsPerStrip rows, padded: its JPEG frame says 16 rows, the image has 4.
      const pieces = lastStrip === 'shorter' ? cutPieces(grey, width, height, 1, layout) : cutPieces(grey, width, height, 1, { tileWidth: width, tileLength: 16 }, 0);
      const split = greyJpegBlocks(pieces).map((jpeg) => splitJpeg(jpeg));
      const tables = split[0]?.tables ?? Buffer.alloc(0);
      // Every strip was coded with the same tables, so one JPEGTables serves them all.
      expect(split.every((part) => part.tables.equals(tables))).toBe(true);
      const tiff = writeTiff([tiffDirectory({ width, height, samples: 1, photometric: 1, compression: 7, layout, blocks: split.map((part) => part.abbreviated), jpegTables: tables })]);
      const { pdf, pages } = await tiffAsPdf(tiff);
      expect(pages).toEqual([{ width, height }]);
      const streams = await imageStreams(pdf);
      expect(streams).toHaveLength(7);
      expect(streams.every((stream) => stream.includes('/DCTDecode') && stream.includes('/DeviceGray'))).toBe(true);
      for (const [reader, picture] of await renderings(pdf, 1)) {
        expect([picture.width, picture.height], reader).toEqual([width, height]);
        expect(meanDifference(picture, grey), `${reader}: mean difference from the source`).toBeLessThan(4);
        const lastRows = { x1: 0, y1: 96, x2: width, y2: height };
        expect(Math.abs(regionMean(picture, lastRows) - regionMean({ width, height, channels: 1, pixels: grey }, lastRows)), `${reader}: the last strip's rows`).toBeLessThan(4);
        expectGreyRegions(reader, picture, width, height);
      }
    });
  }

  const colourCases: { name: string; bigEndian: boolean; build: (pieces: Piece[]) => { blocks: Uint8Array[]; jpegTables?: Uint8Array; subsampling: [number, number] } }[] = [
    {
      name: 'canvas JPEGs (4:2:0), their quantisation tables in JPEGTables and their Huffman tables in each strip',
      bigEndian: true,
      build: (pieces) => {
        const split = pieces.map((piece) => splitJpeg(canvasJpeg(piece.samples, piece.width, piece.height), 'huffman'));
        const tables = split[0]?.tables ?? Buffer.alloc(0);
        if (!split.every((part) => part.tables.equals(tables))) throw new Error('the strips were coded with different quantisation tables');
        return { blocks: split.map((part) => part.abbreviated), jpegTables: tables, subsampling: [2, 2] };
      },
    },
    {
      name: 'whole canvas JPEGs per strip (JFIF and ICC markers kept), no JPEGTables',
      bigEndian: false,
      build: (pieces) => ({ blocks: pieces.map((piece) => canvasJpeg(piece.samples, piece.width, piece.height)), subsampling: [2, 2] }),
    },
    {
      name: 'baseline JPEGs without subsampling, every table in JPEGTables',
      bigEndian: false,
      build: (pieces) => {
        const split = pieces.map((piece) => splitJpeg(encodeJpeg({ width: piece.width, height: piece.height, samples: piece.samples, components: 3 })));
        return { blocks: split.map((part) => part.abbreviated), jpegTables: split[0]?.tables, subsampling: [1, 1] };
      },
    },
  ];

  for (const { name, bigEndian, build } of colourCases) {
    it(`YCbCr colour strips: ${name}`, async () => {
      const [width, height] = [160, 96];
      const rgb = colourImage(width, height);
      const layout: Layout = { rowsPerStrip: 32 };
      const { blocks, jpegTables, subsampling } = build(cutPieces(rgb, width, height, 3, layout));
      const tiff = writeTiff([tiffDirectory({ width, height, samples: 3, photometric: 6, compression: 7, layout, blocks, ...(jpegTables && { jpegTables }), subsampling })], { bigEndian });
      const { pdf, pages } = await tiffAsPdf(tiff);
      expect(pages).toEqual([{ width, height }]);
      const streams = await imageStreams(pdf);
      expect(streams).toHaveLength(3);
      expect(streams.every((stream) => stream.includes('/DeviceRGB') && !stream.includes('/ColorTransform'))).toBe(true);
      for (const [reader, picture] of await renderings(pdf, 3)) {
        expect([picture.width, picture.height], reader).toEqual([width, height]);
        expect(meanDifference(picture, rgb), `${reader}: mean difference from the source`).toBeLessThan(4);
        expectColourRegions(reader, picture, width, height);
      }
    });
  }

  it('RGB photometric: the components are R, G and B as coded, so no YCbCr conversion is applied', async () => {
    const [width, height] = [120, 80];
    const rgb = colourImage(width, height);
    const layout: Layout = { rowsPerStrip: 40 };
    const split = cutPieces(rgb, width, height, 3, layout).map((piece) => splitJpeg(encodeJpeg({ width: piece.width, height: piece.height, samples: piece.samples, components: 3, coding: 'rgb' })));
    const tiff = writeTiff([tiffDirectory({ width, height, samples: 3, photometric: 2, compression: 7, layout, blocks: split.map((part) => part.abbreviated), jpegTables: split[0]?.tables ?? Buffer.alloc(0) })]);
    const { pdf } = await tiffAsPdf(tiff);
    expect((await imageStreams(pdf)).every((stream) => /\/ColorTransform 0\b/.test(stream))).toBe(true);
    // Red coded as YCbCr would be read as Y 220, Cb 30, Cr 30: a green; the checks tell the two apart.
    for (const [reader, picture] of await renderings(pdf, 3)) {
      expect(meanDifference(picture, rgb), `${reader}: mean difference from the source`).toBeLessThan(4);
      expectColourRegions(reader, picture, width, height);
    }
  });

  it('refuses old-style JPEG (compression 6) and JPEG data that contradicts the TIFF, with the reason', async () => {
    const [width, height] = [32, 16];
    const grey = greyImage(width, height);
    const old = writeTiff([tiffDirectory({ width, height, samples: 1, photometric: 1, compression: 6, layout: { rowsPerStrip: height }, blocks: greyJpegBlocks([{ width, height, samples: grey }]) })]);
    await expect(tiffAsPdf(old)).rejects.toThrow(/TIFF compression 6 is not supported \(old-style JPEG/);
    const colourData = encodeJpeg({ width, height, samples: colourImage(width, height), components: 3 });
    const mismatched = writeTiff([tiffDirectory({ width, height, samples: 1, photometric: 1, compression: 7, layout: { rowsPerStrip: height }, blocks: [colourData] })]);
    await expect(tiffAsPdf(mismatched)).rejects.toThrow("the TIFF's JPEG data has 3 colour components where the TIFF says 1");
    const cmyk = writeTiff([tiffDirectory({ width, height, samples: 3, photometric: 5, compression: 7, layout: { rowsPerStrip: height }, blocks: [colourData] })]);
    await expect(tiffAsPdf(cmyk)).rejects.toThrow('TIFF JPEG data with photometric interpretation 5 and 3 samples is not supported');
  });
});

describe('tiled TIFFs', () => {
  // 100 × 70 in 32 × 32 tiles: 4 × 3 tiles, the last column and row reaching 28 and 26 pixels past the image.
  const [width, height] = [100, 70];
  const layout: Layout = { tileWidth: 32, tileLength: 32 };

  it('uncompressed and PackBits grey tiles land pixel for pixel; the page is exactly the image', async () => {
    const grey = greyImage(width, height);
    const pieces = cutPieces(grey, width, height, 1, layout, 0);
    expect(pieces).toHaveLength(12);
    for (const [compression, blocks] of [
      [1, pieces.map((piece) => piece.samples)],
      [32773, pieces.map((piece) => packBits(piece, 1))],
    ] as const) {
      const { pdf, pages } = await tiffAsPdf(writeTiff([tiffDirectory({ width, height, samples: 1, photometric: 1, compression, layout, blocks: [...blocks] })]));
      expect(pages).toEqual([{ width, height }]);
      expect(await imageStreams(pdf)).toHaveLength(12);
      for (const [reader, picture] of await renderings(pdf, 1)) {
        expect([picture.width, picture.height], `${reader}, compression ${compression}`).toEqual([width, height]);
        expectLossless(reader, picture, grey, `compression ${compression}`);
      }
    }
  });

  it('Deflate RGB tiles with the horizontal predictor', async () => {
    const rgb = colourImage(width, height);
    const blocks = cutPieces(rgb, width, height, 3, layout, 0).map((piece) => deflateWithPredictor(piece, 3));
    const { pdf } = await tiffAsPdf(writeTiff([tiffDirectory({ width, height, samples: 3, photometric: 2, compression: 8, predictor: 2, layout, blocks })], { bigEndian: true }));
    for (const [reader, picture] of await renderings(pdf, 3)) {
      expect([picture.width, picture.height], reader).toEqual([width, height]);
      expectLossless(reader, picture, rgb, 'Deflate');
    }
  });

  /** Black blocks and dashes; rows 30 and 31, the last of the first row of tiles, end in black in every tile. */
  function bilevel(): Uint8Array {
    const { dark } = regions(width, height);
    const black = (x: number, y: number) => inside(dark, x, y) || (y % 10 < 2 && x % 13 < 8) || (y === 69 && x > 90);
    return new Uint8Array(width * height).map((_, index) => (black(index % width, Math.floor(index / width)) ? 0 : 255));
  }

  // pdf.js in Node leaves out the last pixels of a 1-bit DeviceGray image's last row; every tile has one.
  it('CCITT G4 bilevel tiles, to the last pixel of each tile', async () => {
    const { dark } = regions(width, height);
    const grey = bilevel();
    const blocks = cutPieces(grey, width, height, 1, layout, 255).map((piece) =>
      encodeG4(piece.width, piece.height, (y, out) => {
        let count = 0;
        let isBlack = false;
        for (let x = 0; x < piece.width; x += 1) {
          if (((piece.samples[y * piece.width + x] ?? 255) < 128) !== isBlack) {
            out[count++] = x;
            isBlack = !isBlack;
          }
        }
        return count;
      }),
    );
    const { pdf } = await tiffAsPdf(writeTiff([tiffDirectory({ width, height, samples: 1, bitsPerSample: 1, photometric: 0, compression: 4, layout, blocks })]));
    for (const [reader, picture] of await renderings(pdf, 1)) {
      expect([picture.width, picture.height], reader).toEqual([width, height]);
      expectLossless(reader, picture, grey, 'G4');
      expect(regionMean(picture, inset(dark, 2)), `${reader}: the black block`).toBeLessThan(10);
    }
  });

  it('uncompressed 1-bit strips, either photometric, to the last pixel of each strip', async () => {
    const grey = bilevel();
    for (const photometric of [0, 1]) {
      const rowBytes = Math.ceil(width / 8);
      const packed = new Uint8Array(rowBytes * height);
      grey.forEach((value, index) => {
        const [x, y] = [index % width, Math.floor(index / width)];
        // A set bit is white for BlackIsZero (1), black for WhiteIsZero (0).
        if ((value === 255) === (photometric === 1)) packed[y * rowBytes + (x >> 3)] = (packed[y * rowBytes + (x >> 3)] ?? 0) | (0x80 >> (x & 7));
      });
      const blocks = Array.from({ length: Math.ceil(height / 16) }, (_, strip) => packed.subarray(strip * 16 * rowBytes, Math.min(height, (strip + 1) * 16) * rowBytes));
      const { pdf } = await tiffAsPdf(writeTiff([tiffDirectory({ width, height, samples: 1, bitsPerSample: 1, photometric, compression: 1, layout: { rowsPerStrip: 16 }, blocks })]));
      for (const [reader, picture] of await renderings(pdf, 1)) expectLossless(reader, picture, grey, `photometric ${photometric}`);
    }
  });

  it('JPEG tiles in a two-page file: grey with JPEGTables after a page of strips, and YCbCr colour tiles', async () => {
    const grey = greyImage(width, height);
    const split = greyJpegBlocks(cutPieces(grey, width, height, 1, layout, 0)).map((jpeg) => splitJpeg(jpeg));
    const rgb = colourImage(width, height);
    const colourBlocks = cutPieces(rgb, width, height, 3, layout, 0).map((piece) => canvasJpeg(piece.samples, piece.width, piece.height));
    const stripsPage = greyImage(60, 40);
    const tiff = writeTiff([
      tiffDirectory({ width: 60, height: 40, samples: 1, photometric: 1, compression: 1, layout: { rowsPerStrip: 16 }, blocks: cutPieces(stripsPage, 60, 40, 1, { rowsPerStrip: 16 }).map((piece) => piece.samples) }),
      tiffDirectory({ width, height, samples: 1, photometric: 1, compression: 7, layout, blocks: split.map((part) => part.abbreviated), jpegTables: split[0]?.tables ?? Buffer.alloc(0) }),
      tiffDirectory({ width, height, samples: 3, photometric: 6, compression: 7, layout, blocks: colourBlocks }),
    ]);
    const { pdf, pages } = await tiffAsPdf(tiff);
    expect(pages).toEqual([
      { width: 60, height: 40 },
      { width, height },
      { width, height },
    ]);
    for (const [reader, picture] of await renderings(pdf, 1, 1)) expectLossless(reader, picture, stripsPage, 'page 1');
    for (const [reader, picture] of await renderings(pdf, 1, 2)) {
      expect([picture.width, picture.height], reader).toEqual([width, height]);
      expect(meanDifference(picture, grey), `${reader}: page 2`).toBeLessThan(4);
      expectGreyRegions(`${reader}: page 2`, picture, width, height);
    }
    for (const [reader, picture] of await renderings(pdf, 3, 3)) {
      expect([picture.width, picture.height], reader).toEqual([width, height]);
      expect(meanDifference(picture, rgb), `${reader}: page 3`).toBeLessThan(4);
      expectColourRegions(`${reader}: page 3`, picture, width, height);
    }
  });

  it('leaves a tile never written (byte count 0, a sparse file) white', async () => {
    const grey = greyImage(width, height);
    const blocks = cutPieces(grey, width, height, 1, layout, 0).map((piece, index) => (index === 5 ? new Uint8Array(0) : piece.samples));
    const expected = grey.map((value, index) => (inside({ x1: 32, y1: 32, x2: 64, y2: 64 }, index % width, Math.floor(index / width)) ? 255 : value));
    const { pdf } = await tiffAsPdf(writeTiff([tiffDirectory({ width, height, samples: 1, photometric: 1, compression: 1, layout, blocks })]));
    expect(await imageStreams(pdf)).toHaveLength(11);
    expect(maxDifference(await pdfjs(pdf, 1), expected)).toBe(0);
  });

  it('refuses tiles whose offsets do not cover the image', async () => {
    const pieces = cutPieces(greyImage(width, height), width, height, 1, layout, 0).slice(0, 11);
    await expect(tiffAsPdf(writeTiff([tiffDirectory({ width, height, samples: 1, photometric: 1, compression: 1, layout, blocks: pieces.map((piece) => piece.samples) })]))).rejects.toThrow(
      'the TIFF has no readable tiles',
    );
  });
});
