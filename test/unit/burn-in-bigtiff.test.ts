import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { encodeG4 } from '../../worker/burn-in/ccitt.js';
import { tiffAsPdf } from '../../worker/burn-in/tiff.js';
import { tiffPageFile, tiffPageSizes } from '../../worker/ocr/tiff-pages.js';
import { renderGray } from '../helpers/pdf-tools.js';
import { canvasJpeg, colourImage, cutPieces, deflateWithPredictor, encodeJpeg, greyImage, packBits, splitJpeg, tiffDirectory, writeTiff, type Layout } from '../helpers/tiff-writers.js';

// BigTIFF through both TIFF readers, with every compression the PDF wrapper reads. Each file is written as a
// classic TIFF by the test writer and rewritten here as a BigTIFF holding the same tags and strips; both readers
// must then give exactly what they give for the classic file: the same PDF, the same copy of each page.

const TYPE_BYTES: Readonly<Record<number, number>> = { 1: 1, 2: 1, 3: 2, 4: 4, 5: 8, 7: 1 };
const DATA_TAGS = new Set([273, 279, 324, 325]);

/**
 * The classic TIFF rewritten as a BigTIFF: its bytes after the header kept in place (8 bytes further on), new
 * directories at the end with 20-byte entries, values of up to 8 bytes inside their entry, and strip or tile
 * offsets and byte counts as LONG8, as libtiff writes them.
 */
function asBigTiff(classic: Buffer): Buffer {
  const little = classic.toString('latin1', 0, 2) === 'II';
  const read16 = (at: number) => (little ? classic.readUInt16LE(at) : classic.readUInt16BE(at));
  const read32 = (at: number) => (little ? classic.readUInt32LE(at) : classic.readUInt32BE(at));
  const write16 = (buffer: Buffer, value: number, at: number) => (little ? buffer.writeUInt16LE(value, at) : buffer.writeUInt16BE(value, at));
  const write64 = (buffer: Buffer, value: number, at: number) => (little ? buffer.writeBigUInt64LE(BigInt(value), at) : buffer.writeBigUInt64BE(BigInt(value), at));
  const shift = 8;
  const header = Buffer.alloc(16);
  header.write(little ? 'II' : 'MM', 0, 'latin1');
  write16(header, 43, 2);
  write16(header, 8, 4);
  const chunks: Buffer[] = [header, classic.subarray(8)];
  let length = 16 + classic.length - 8;
  const append = (bytes: Buffer) => {
    const at = length;
    chunks.push(bytes);
    length += bytes.length;
    return at;
  };
  let link: [Buffer, number] = [header, 8];
  for (let directory = read32(4); directory !== 0; directory = read32(directory + 2 + read16(directory) * 12)) {
    const count = read16(directory);
    const ifd = Buffer.alloc(8 + count * 20 + 8);
    write64(ifd, count, 0);
    for (let index = 0; index < count; index += 1) {
      const at = directory + 2 + index * 12;
      const [tag, type, items] = [read16(at), read16(at + 2), read32(at + 4)];
      const size = (TYPE_BYTES[type] ?? 0) * items;
      let values = size <= 4 ? classic.subarray(at + 8, at + 8 + size) : classic.subarray(read32(at + 8), read32(at + 8) + size);
      let written = type;
      if (DATA_TAGS.has(tag)) {
        const numbers = Array.from({ length: items }, (_, item) => (type === 3 ? read16(values.byteOffset - classic.byteOffset + item * 2) : read32(values.byteOffset - classic.byteOffset + item * 4)));
        values = Buffer.alloc(items * 8);
        numbers.forEach((value, item) => write64(values, tag === 273 || tag === 324 ? value + shift : value, item * 8));
        written = 16;
      }
      const entry = 8 + index * 20;
      write16(ifd, tag, entry);
      write16(ifd, written, entry + 2);
      write64(ifd, items, entry + 4);
      if (values.length <= 8) values.copy(ifd, entry + 12);
      else write64(ifd, append(Buffer.from(values)), entry + 12);
    }
    write64(link[0], append(ifd), link[1]);
    link = [ifd, 8 + count * 20];
  }
  return Buffer.concat(chunks);
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bigtiff-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
let files = 0;
function write(bytes: Buffer): string {
  const file = path.join(dir, `${(files += 1)}.tif`);
  fs.writeFileSync(file, bytes);
  return file;
}

/** The test's BigTIFFs are real ones: version 43, offsets of 8 bytes, directories at the end. */
function expectBigTiff(bytes: Buffer): void {
  const little = bytes.toString('latin1', 0, 2) === 'II';
  expect([little ? bytes.readUInt16LE(2) : bytes.readUInt16BE(2), little ? bytes.readUInt16LE(4) : bytes.readUInt16BE(4)]).toEqual([43, 8]);
}

/** Both readers give for the BigTIFF exactly what they give for the classic TIFF; poppler draws the same pixels. */
async function expectSameAsClassic(classic: Buffer, label: string): Promise<void> {
  const big = asBigTiff(classic);
  expectBigTiff(big);
  const fromClassic = await tiffAsPdf(classic);
  const fromBig = await tiffAsPdf(big);
  expect(fromBig.pages, label).toEqual(fromClassic.pages);
  expect(Buffer.compare(Buffer.from(fromBig.pdf), Buffer.from(fromClassic.pdf)), `${label}: the wrapping PDF`).toBe(0);
  const [classicFile, bigFile] = [write(classic), write(big)];
  expect(await tiffPageSizes(bigFile), label).toEqual(fromClassic.pages);
  for (let page = 1; page <= fromClassic.pages.length; page += 1) {
    const copy = Buffer.from(await tiffPageFile(bigFile, page));
    expect(Buffer.compare(copy, Buffer.from(await tiffPageFile(classicFile, page))), `${label}: the copy of page ${page}`).toBe(0);
    // The copy is a TIFF the wrapper reads as that page: poppler draws both alike.
    const drawn = renderGray(Buffer.from((await tiffAsPdf(copy)).pdf), 1, 72);
    const original = renderGray(Buffer.from(fromClassic.pdf), page, 72);
    expect([drawn.width, drawn.height]).toEqual([original.width, original.height]);
    expect(Buffer.compare(Buffer.from(drawn.pixels), Buffer.from(original.pixels)), `${label}: page ${page} drawn`).toBe(0);
  }
}

describe('BigTIFF in the PDF wrapper and the page copier', () => {
  const [width, height] = [100, 70];
  const tiles: Layout = { tileWidth: 32, tileLength: 32 };
  const strips: Layout = { rowsPerStrip: 16 };

  it('uncompressed and PackBits strips, Deflate tiles with the predictor, in either byte order', async () => {
    const grey = greyImage(width, height);
    const rgb = colourImage(width, height);
    for (const bigEndian of [false, true]) {
      const classic = writeTiff(
        [
          tiffDirectory({ width, height, samples: 1, photometric: 1, compression: 1, layout: strips, blocks: cutPieces(grey, width, height, 1, strips).map((piece) => piece.samples) }),
          tiffDirectory({ width, height, samples: 1, photometric: 1, compression: 32773, layout: strips, blocks: cutPieces(grey, width, height, 1, strips).map((piece) => packBits(piece, 1)) }),
          tiffDirectory({ width, height, samples: 3, photometric: 2, compression: 8, predictor: 2, layout: tiles, blocks: cutPieces(rgb, width, height, 3, tiles).map((piece) => deflateWithPredictor(piece, 3)) }),
        ],
        { bigEndian },
      );
      await expectSameAsClassic(classic, bigEndian ? 'big-endian' : 'little-endian');
    }
  });

  it('JPEG strips with their tables in JPEGTables, YCbCr JPEG tiles and CCITT G4 tiles', async () => {
    const grey = greyImage(width, height);
    const split = cutPieces(grey, width, height, 1, strips).map((piece) => splitJpeg(encodeJpeg({ width: piece.width, height: piece.height, samples: piece.samples, components: 1 })));
    const rgb = colourImage(width, height);
    const bilevel = grey.map((value) => (value < 128 ? 0 : 255));
    const g4 = cutPieces(bilevel, width, height, 1, tiles, 255).map((piece) =>
      encodeG4(piece.width, piece.height, (y, out) => {
        let count = 0;
        let black = false;
        for (let x = 0; x < piece.width; x += 1) {
          if (((piece.samples[y * piece.width + x] ?? 255) < 128) !== black) {
            out[count++] = x;
            black = !black;
          }
        }
        return count;
      }),
    );
    const classic = writeTiff([
      tiffDirectory({ width, height, samples: 1, photometric: 1, compression: 7, layout: strips, blocks: split.map((part) => part.abbreviated), jpegTables: split[0]?.tables ?? Buffer.alloc(0) }),
      tiffDirectory({ width, height, samples: 3, photometric: 6, compression: 7, layout: tiles, blocks: cutPieces(rgb, width, height, 3, tiles, 0).map((piece) => canvasJpeg(piece.samples, piece.width, piece.height)) }),
      tiffDirectory({ width, height, samples: 1, bitsPerSample: 1, photometric: 0, compression: 4, layout: tiles, blocks: g4 }),
    ]);
    await expectSameAsClassic(classic, 'JPEG and G4');
  });
});
