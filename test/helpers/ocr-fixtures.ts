import { createRequire } from 'node:module';
import path from 'node:path';
import { deflateSync, crc32 } from 'node:zlib';
import { createCanvas, GlobalFonts } from '@napi-rs/canvas';
import { concatTransformationMatrix, degrees, drawObject, PDFDocument, popGraphicsState, pushGraphicsState, StandardFonts, type PDFFont } from 'pdf-lib';
import { encodeG4 } from '../../worker/burn-in/ccitt.js';

// Documents for the OCR tests and the bench, made on the spot with their ground truth: the exact text and
// where each word is. Scans are text drawn with @napi-rs/canvas into 8-bit grey images at 300 dpi (what a
// scanner produces for text pages), born-digital pages are pdf-lib text in the standard fonts.

const require = createRequire(import.meta.url);
const FONT_FAMILY = 'OcrFixtureSans';
// A font file that ships with pdfjs-dist, so the drawn pages do not depend on the machine's fonts.
GlobalFonts.registerFromPath(path.join(path.dirname(require.resolve('pdfjs-dist/package.json')), 'standard_fonts', 'LiberationSans-Regular.ttf'), FONT_FAMILY);

export type Point = readonly [number, number];

/** A word and a point inside its glyphs (the middle of its x-height band): any box of the word holds it. */
export interface TruthWord {
  text: string;
  at: Point;
}

export interface TruthPage {
  text: string;
  words: TruthWord[];
}

// ---- text ----

const GIVEN = ['Robert', 'Linda', 'Maria', 'James', 'Patricia', 'Michael', 'Jennifer', 'David', 'Susan', 'Thomas'];
const FAMILY = ['Martinez', 'Okafor', 'Johnson', 'Nguyen', 'Williams', 'Brown', 'Garcia', 'Miller', 'Davis', 'Wilson'];
const WORDS = (
  'the records request was received by the clerk and forwarded to the finance department for review of payroll ledgers ' +
  'contracts invoices and correspondence between the city council and outside vendors during the fiscal year ' +
  'responsive documents will be released after redaction of personal information under the applicable exemptions ' +
  'please contact the office if you have questions about the status of this request or the fees that apply'
).split(' ');

/** A deterministic pseudo-random generator (the same pages on every run). */
export function seeded(seed: number): () => number {
  let state = seed >>> 0 || 1;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 0x1_0000_0000;
  };
}

/** Lines of office prose with names, dates, numbers and an e-mail address, at most `maxChars` each. */
export function proseLines(seed: number, count: number, maxChars: number): string[] {
  const random = seeded(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
  const token = (): string => {
    const roll = random();
    if (roll < 0.06) return `${pick(GIVEN)} ${pick(FAMILY)}`;
    if (roll < 0.09) return `${1 + Math.floor(random() * 12)}/${1 + Math.floor(random() * 28)}/20${10 + Math.floor(random() * 15)}`;
    if (roll < 0.11) return `${pick(GIVEN).toLowerCase()}.${pick(FAMILY).toLowerCase()}@example.org`;
    if (roll < 0.14) return String(100 + Math.floor(random() * 9900));
    return pick(WORDS);
  };
  const lines: string[] = [];
  for (let index = 0; index < count; index += 1) {
    let line = token();
    line = line.charAt(0).toUpperCase() + line.slice(1);
    for (;;) {
      const next = token();
      if (line.length + 1 + next.length > maxChars) break;
      line += ` ${next}`;
    }
    lines.push(`${line}.`);
  }
  return lines;
}

// ---- scanned images ----

export interface ScanImage {
  /** 8-bit grey PNG. */
  png: Buffer;
  /** The same pixels, raw (row-major, one byte each). */
  grey: Buffer;
  width: number;
  height: number;
  /** Word positions in image pixels (origin top-left, y down). */
  truth: TruthPage;
}

export interface ScanOptions {
  widthPx: number;
  heightPx: number;
  lines: string[];
  /** Font size in pixels (50 px at 300 dpi is 12 pt). */
  fontPx?: number;
  lineSpacing?: number;
  marginPx?: number;
  /** Light speckle, as on a photocopy: a share of pixels set darker. */
  noise?: number;
  /** Two columns: the first half of the lines on the left, the rest on the right (read in that order). */
  columns?: 1 | 2;
}

/** Draws the lines as a scanner would see a printed page: black text on white, grey levels, optional speckle. */
export function scanImage(options: ScanOptions): ScanImage {
  const { widthPx, heightPx, lines } = options;
  const fontPx = options.fontPx ?? 50;
  const margin = options.marginPx ?? Math.round(widthPx * 0.08);
  const spacing = options.lineSpacing ?? 1.45;
  const canvas = createCanvas(widthPx, heightPx);
  const context = canvas.getContext('2d');
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, widthPx, heightPx);
  context.fillStyle = '#111111';
  context.font = `${fontPx}px ${FONT_FAMILY}`;
  const words: TruthWord[] = [];
  const perColumn = options.columns === 2 ? Math.ceil(lines.length / 2) : lines.length;
  const space = context.measureText(' ').width;
  lines.forEach((line, index) => {
    const column = Math.floor(index / perColumn);
    let x = margin + column * (widthPx / 2);
    const baseline = margin + fontPx + (index % perColumn) * fontPx * spacing;
    for (const word of line.split(' ')) {
      const width = context.measureText(word).width;
      context.fillText(word, x, baseline);
      words.push({ text: word, at: [x + width / 2, baseline - fontPx * 0.26] });
      x += width + space;
    }
  });
  const rgba = canvas.data();
  const grey = Buffer.alloc(widthPx * heightPx);
  const random = seeded(widthPx * 31 + heightPx);
  for (let index = 0; index < grey.length; index += 1) {
    const luma = ((rgba[index * 4] ?? 255) * 77 + (rgba[index * 4 + 1] ?? 255) * 150 + (rgba[index * 4 + 2] ?? 255) * 29) >> 8;
    grey[index] = options.noise && random() < options.noise ? Math.max(0, luma - 120) : luma;
  }
  return { png: greyPng(grey, widthPx, heightPx, 300), grey, width: widthPx, height: heightPx, truth: { text: lines.join('\n'), words } };
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typed = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typed) >>> 0);
  return Buffer.concat([length, typed, crc]);
}

/** An 8-bit greyscale PNG, with its resolution recorded (pHYs) as a scanner does. */
export function greyPng(grey: Buffer, width: number, height: number, dpi: number): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.writeUInt8(8, 8);
  header.writeUInt8(0, 9); // colour type 0: grey
  const rows = Buffer.alloc((width + 1) * height);
  for (let y = 0; y < height; y += 1) grey.copy(rows, y * (width + 1) + 1, y * width, (y + 1) * width);
  const perMetre = Math.round(dpi / 0.0254);
  const phys = Buffer.alloc(9);
  phys.writeUInt32BE(perMetre, 0);
  phys.writeUInt32BE(perMetre, 4);
  phys.writeUInt8(1, 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('pHYs', phys),
    pngChunk('IDAT', deflateSync(rows)),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** An uncompressed 8-bit greyscale TIFF (baseline, one strip). */
export function greyTiff(grey: Buffer, width: number, height: number): Buffer {
  const entries: [tag: number, type: 3 | 4, value: number][] = [
    [256, 3, width],
    [257, 3, height],
    [258, 3, 8],
    [259, 3, 1],
    [262, 3, 1],
    [273, 4, 0],
    [277, 3, 1],
    [278, 3, height],
    [279, 4, width * height],
  ];
  const dataOffset = 8 + 2 + entries.length * 12 + 4;
  const out = Buffer.alloc(dataOffset + grey.length);
  out.write('II', 0, 'latin1');
  out.writeUInt16LE(42, 2);
  out.writeUInt32LE(8, 4);
  out.writeUInt16LE(entries.length, 8);
  entries.forEach(([tag, type, value], index) => {
    const at = 10 + index * 12;
    out.writeUInt16LE(tag, at);
    out.writeUInt16LE(type, at + 2);
    out.writeUInt32LE(1, at + 4);
    const written = tag === 273 ? dataOffset : value;
    if (type === 3) out.writeUInt16LE(written, at + 8);
    else out.writeUInt32LE(written, at + 8);
  });
  grey.copy(out, dataOffset);
  return out;
}

export interface TiffPageImage {
  grey: Buffer;
  width: number;
  height: number;
  /** Stored as a fax machine does: black and white (grey below 128 is black), CCITT Group 4, one strip. */
  fax?: boolean;
}

/** The x positions where a thresholded row changes colour, the first a change to black (encodeG4's input). */
function rowChanges(page: TiffPageImage): (y: number, out: Int32Array) => number {
  return (y, out) => {
    let count = 0;
    let black = false;
    for (let x = 0; x < page.width; x += 1) {
      const isBlack = (page.grey[y * page.width + x] ?? 255) < 128;
      if (isBlack !== black) {
        out[count++] = x;
        black = isBlack;
      }
    }
    return count;
  };
}

/** A page's tags (without strip offsets, written by the caller) and its strips. */
function tiffPageParts(page: TiffPageImage, rowsPerStrip: number, dpi: number): { tags: [tag: number, type: 3 | 4 | 5, values: number[]][]; strips: Buffer[] } {
  const resolution: [number, 5, number[]][] = [
    [282, 5, [dpi, 1]],
    [283, 5, [dpi, 1]],
  ];
  if (page.fax) {
    const strip = Buffer.from(encodeG4(page.width, page.height, rowChanges(page)));
    return {
      tags: [[256, 3, [page.width]], [257, 3, [page.height]], [258, 3, [1]], [259, 3, [4]], [262, 3, [0]], [277, 3, [1]], [278, 4, [page.height]], [279, 4, [strip.length]], ...resolution],
      strips: [strip],
    };
  }
  const rows = Math.min(rowsPerStrip, page.height);
  const strips: Buffer[] = [];
  for (let top = 0; top < page.height; top += rows) strips.push(page.grey.subarray(top * page.width, Math.min(page.height, top + rows) * page.width));
  return {
    tags: [[256, 3, [page.width]], [257, 3, [page.height]], [258, 3, [8]], [259, 3, [1]], [262, 3, [1]], [277, 3, [1]], [278, 3, [rows]], [279, 4, strips.map((strip) => strip.length)], ...resolution],
    strips,
  };
}

/**
 * A multi-page TIFF as a scanner batch or a fax machine writes it: one directory per page, 8-bit grey pages in
 * strips of `rowsPerStrip` rows (so strip offsets and counts are arrays stored apart from their directory) or
 * fax pages in CCITT G4, the resolution as rationals, and the image data of all pages after all directories.
 * `bigTiff` writes a BigTIFF (version 43: 8-byte offsets, entry counts and links, 20-byte entries, values of up
 * to 8 bytes inside their entry) with strip offsets and byte counts as LONG8, as libtiff writes them.
 */
export function greyTiffPages(pages: readonly TiffPageImage[], options: { dpi?: number; rowsPerStrip?: number; bigEndian?: boolean; bigTiff?: boolean } = {}): Buffer {
  const little = !options.bigEndian;
  const big = options.bigTiff === true;
  const [headerSize, countSize, entrySize, fieldSize] = big ? [16, 8, 20, 8] : [8, 2, 12, 4];
  const long = big ? 16 : 4;
  const parts = pages.map((page) => tiffPageParts(page, options.rowsPerStrip ?? 64, options.dpi ?? 300));
  const tagsOf = (tags: [number, 3 | 4 | 5, number[]][]) => tags.map(([tag, type, values]): [number, 3 | 4 | 5 | 16, number[]] => [tag, tag === 279 ? long : type, values]);
  const sizeOf = (type: 3 | 4 | 5 | 16, values: number[]) => (type === 3 ? 2 : type === 16 ? 8 : 4) * values.length;
  // Per page: its directory (the tags plus StripOffsets), then its values that do not fit in an entry.
  let at = headerSize;
  const directoryAt = parts.map(({ tags, strips }) => {
    const offset = at;
    const entries = tags.length + 1;
    at += countSize + entries * entrySize + fieldSize;
    for (const [, type, values] of tagsOf(tags)) if (sizeOf(type, values) > fieldSize) at += sizeOf(type, values);
    if (strips.length * (big ? 8 : 4) > fieldSize) at += (big ? 8 : 4) * strips.length;
    return offset;
  });
  const stripsAt = parts.map(({ strips }) =>
    strips.map((strip) => {
      const offset = at;
      at += strip.length;
      return offset;
    }),
  );
  const out = Buffer.alloc(at);
  const u16 = (value: number, offset: number) => (little ? out.writeUInt16LE(value, offset) : out.writeUInt16BE(value, offset));
  const u32 = (value: number, offset: number) => (little ? out.writeUInt32LE(value, offset) : out.writeUInt32BE(value, offset));
  const u64 = (value: number, offset: number) => (little ? out.writeBigUInt64LE(BigInt(value), offset) : out.writeBigUInt64BE(BigInt(value), offset));
  const field = (value: number, offset: number) => (big ? u64(value, offset) : u32(value, offset));
  out.write(little ? 'II' : 'MM', 0, 'latin1');
  u16(big ? 43 : 42, 2);
  if (big) {
    u16(8, 4); // the size of an offset
    u16(0, 6);
  }
  field(directoryAt[0] ?? 0, big ? 8 : 4);
  parts.forEach(({ tags, strips }, index) => {
    const base = directoryAt[index] ?? 0;
    const offsets = stripsAt[index] ?? [];
    const entries = [...tagsOf(tags), [273, long, offsets] as [number, 4 | 16, number[]]].sort((a, b) => a[0] - b[0]);
    const linkAt = base + countSize + entries.length * entrySize;
    let valueAt = linkAt + fieldSize;
    if (big) u64(entries.length, base);
    else u16(entries.length, base);
    entries.forEach(([tag, type, values], entry) => {
      const position = base + countSize + entry * entrySize;
      u16(tag, position);
      u16(type, position + 2);
      field(type === 5 ? values.length / 2 : values.length, position + 4);
      let target = position + 4 + fieldSize;
      if (sizeOf(type, values) > fieldSize) {
        field(valueAt, target);
        target = valueAt;
        valueAt += sizeOf(type, values);
      }
      values.forEach((value, item) => (type === 3 ? u16(value, target + item * 2) : type === 16 ? u64(value, target + item * 8) : u32(value, target + item * 4)));
    });
    field(directoryAt[index + 1] ?? 0, linkAt);
    strips.forEach((strip, item) => strip.copy(out, offsets[item] ?? 0));
  });
  return out;
}

/** The same pixels as a JPEG (as a phone or a scanner's "photo" mode saves them). */
/**
 * A phone photo of an upright page, as cameras store it: the pixels turned a quarter left and an EXIF
 * Orientation 6 ("turn a quarter right to show") in an APP1 segment, in the given byte order.
 */
export function photoWithExifOrientation(grey: Buffer, width: number, height: number, byteOrder: 'II' | 'MM'): Buffer {
  const upright = greyCanvas(grey, width, height);
  // Stored: height × width, the page's top edge on the left.
  const stored = createCanvas(height, width);
  const context = stored.getContext('2d');
  context.translate(0, width);
  context.rotate(-Math.PI / 2);
  context.drawImage(upright, 0, 0);
  const jpeg = stored.toBuffer('image/jpeg', 92);
  const little = byteOrder === 'II';
  const tiff = Buffer.alloc(26);
  tiff.write(byteOrder, 0, 'latin1');
  const u16 = (value: number, at: number) => (little ? tiff.writeUInt16LE(value, at) : tiff.writeUInt16BE(value, at));
  const u32 = (value: number, at: number) => (little ? tiff.writeUInt32LE(value, at) : tiff.writeUInt32BE(value, at));
  u16(42, 2);
  u32(8, 4);
  u16(1, 8); // one entry
  u16(0x0112, 10); // Orientation
  u16(3, 12); // SHORT
  u32(1, 14);
  u16(6, 18);
  const payload = Buffer.concat([Buffer.from('Exif\0\0', 'latin1'), tiff]);
  const marker = Buffer.from([0xff, 0xe1, 0, 0]);
  marker.writeUInt16BE(payload.length + 2, 2);
  // Right after SOI, before the encoder's own segments.
  return Buffer.concat([jpeg.subarray(0, 2), marker, payload, jpeg.subarray(2)]);
}

export function greyJpeg(grey: Buffer, width: number, height: number): Buffer {
  return greyCanvas(grey, width, height).toBuffer('image/jpeg', 92);
}

/** Grey samples drawn on a canvas of their size. */
function greyCanvas(grey: Buffer, width: number, height: number) {
  const canvas = createCanvas(width, height);
  const context = canvas.getContext('2d');
  const image = context.createImageData(width, height);
  for (let index = 0; index < grey.length; index += 1) {
    const value = grey[index] ?? 255;
    image.data[index * 4] = value;
    image.data[index * 4 + 1] = value;
    image.data[index * 4 + 2] = value;
    image.data[index * 4 + 3] = 255;
  }
  context.putImageData(image, 0, 0);
  return canvas;
}

// ---- PDFs ----

export type Box = readonly [number, number, number, number];
export type Rotation = 0 | 90 | 180 | 270;

/**
 * Where a point of the displayed page lands in user space: (s, t) in 0..1, s to the right and t down, as
 * the page is shown after /Rotate (clockwise) within the crop box. Written from the PDF spec, not pdf.js.
 */
export function displayToUser(crop: Box, rotation: Rotation, s: number, t: number): Point {
  const [x0, y0, x1, y1] = crop;
  const w = x1 - x0;
  const h = y1 - y0;
  switch (rotation) {
    case 0:
      return [x0 + s * w, y1 - t * h];
    case 90:
      return [x0 + t * w, y0 + s * h];
    case 180:
      return [x1 - s * w, y0 + t * h];
    case 270:
      return [x1 - t * w, y1 - s * h];
  }
}

export interface ScanPageSpec {
  image: ScanImage;
  mediaBox?: Box;
  /** Defaults to the media box. */
  cropBox?: Box;
  rotation?: Rotation;
  /** Real text drawn over the scan (a Bates number): a sparse text layer. */
  stamp?: string;
}

/**
 * A PDF of scanned pages. Each image fills the crop box as the page is displayed (upright after
 * /Rotate), so OCR sees upright text; the ground truth is carried to user space through the same placement.
 */
export async function scannedPdf(pages: ScanPageSpec[]): Promise<{ bytes: Buffer; truth: TruthPage[] }> {
  const document = await PDFDocument.create();
  const font = await document.embedFont(StandardFonts.Helvetica);
  const truth: TruthPage[] = [];
  for (const spec of pages) {
    const rotation = spec.rotation ?? 0;
    const portrait = rotation === 0 || rotation === 180;
    // Displayed size matches the image's aspect at 300 dpi.
    const displayWidth = (spec.image.width / 300) * 72;
    const displayHeight = (spec.image.height / 300) * 72;
    const mediaBox = spec.mediaBox ?? [0, 0, portrait ? displayWidth : displayHeight, portrait ? displayHeight : displayWidth];
    const cropBox = spec.cropBox ?? mediaBox;
    const page = document.addPage([mediaBox[2] - mediaBox[0], mediaBox[3] - mediaBox[1]]);
    page.setMediaBox(mediaBox[0], mediaBox[1], mediaBox[2] - mediaBox[0], mediaBox[3] - mediaBox[1]);
    if (spec.cropBox) page.setCropBox(cropBox[0], cropBox[1], cropBox[2] - cropBox[0], cropBox[3] - cropBox[1]);
    page.setRotation(degrees(rotation));
    const image = await document.embedPng(spec.image.png);
    const name = page.node.newXObject('Image', image.ref);
    // The image's unit square: (u, v) with v up; its top-left (u 0, v 1) is the displayed top-left (s 0, t 0).
    const origin = displayToUser(cropBox, rotation, 0, 1);
    const uAxis = minus(displayToUser(cropBox, rotation, 1, 1), origin);
    const vAxis = minus(displayToUser(cropBox, rotation, 0, 0), origin);
    page.pushOperators(pushGraphicsState(), concatTransformationMatrix(uAxis[0], uAxis[1], vAxis[0], vAxis[1], origin[0], origin[1]), drawObject(name), popGraphicsState());
    if (spec.stamp) page.drawText(spec.stamp, { x: cropBox[0] + 12, y: cropBox[1] + 12, size: 9, font });
    const toUser = ([x, y]: Point) => displayToUser(cropBox, rotation, x / spec.image.width, y / spec.image.height);
    truth.push({ text: spec.image.truth.text, words: spec.image.truth.words.map((word) => ({ text: word.text, at: toUser(word.at) })) });
  }
  return { bytes: Buffer.from(await document.save()), truth };
}

const minus = (a: Point, b: Point): Point => [a[0] - b[0], a[1] - b[1]];

export interface TextLine {
  text: string;
  x: number;
  y: number;
  size: number;
  font?: StandardFonts;
  /** Degrees counter-clockwise around (x, y). */
  rotate?: number;
}

export interface TextPageSpec {
  size?: readonly [number, number];
  cropBox?: Box;
  rotation?: Rotation;
  lines: TextLine[];
}

/** A born-digital PDF; the truth of each page holds every word drawn, visible or not. */
export async function bornDigitalPdf(pages: TextPageSpec[]): Promise<{ bytes: Buffer; truth: TruthPage[] }> {
  const document = await PDFDocument.create();
  const fonts = new Map<StandardFonts, PDFFont>();
  const fontOf = async (name: StandardFonts) => {
    const known = fonts.get(name);
    if (known) return known;
    const embedded = await document.embedFont(name);
    fonts.set(name, embedded);
    return embedded;
  };
  const truth: TruthPage[] = [];
  for (const spec of pages) {
    const [width, height] = spec.size ?? [612, 792];
    const page = document.addPage([width, height]);
    if (spec.cropBox) page.setCropBox(spec.cropBox[0], spec.cropBox[1], spec.cropBox[2] - spec.cropBox[0], spec.cropBox[3] - spec.cropBox[1]);
    page.setRotation(degrees(spec.rotation ?? 0));
    const words: TruthWord[] = [];
    for (const line of spec.lines) {
      const font = await fontOf(line.font ?? StandardFonts.Helvetica);
      const angle = ((line.rotate ?? 0) * Math.PI) / 180;
      page.drawText(line.text, { x: line.x, y: line.y, size: line.size, font, rotate: degrees(line.rotate ?? 0) });
      let advance = 0;
      for (const [index, word] of line.text.split(' ').entries()) {
        if (index > 0) advance += font.widthOfTextAtSize(' ', line.size);
        const wordWidth = font.widthOfTextAtSize(word, line.size);
        const along = advance + wordWidth / 2;
        const up = line.size * 0.3;
        words.push({ text: word, at: [line.x + along * Math.cos(angle) - up * Math.sin(angle), line.y + along * Math.sin(angle) + up * Math.cos(angle)] });
        advance += wordWidth;
      }
    }
    truth.push({ text: spec.lines.map((line) => line.text).join('\n'), words });
  }
  return { bytes: Buffer.from(await document.save()), truth };
}

// ---- measures ----

const normalise = (text: string) => text.replace(/\s+/g, ' ').trim();

/** Character error rate: edit distance over the truth's length, white space collapsed to single spaces. */
export function characterErrorRate(truth: string, recognised: string): number {
  const a = Array.from(normalise(truth));
  const b = Array.from(normalise(recognised));
  if (a.length === 0) return b.length === 0 ? 0 : 1;
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= b.length; j += 1) {
      const substitution = (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, substitution));
    }
    previous = current;
  }
  return (previous[b.length] ?? 0) / a.length;
}

export interface BoxedWord {
  text: string;
  x1: number;
  y1: number;
  x2: number;
  y2: number;
}

export interface WordMatch {
  truth: TruthWord;
  word: BoxedWord | null;
}

/**
 * Pairs each truth word with the recognised word of the same text, in reading order (a recognised word is
 * used once; a truth word OCR got wrong stays unpaired).
 */
export function matchWords(truth: readonly TruthWord[], words: readonly BoxedWord[]): WordMatch[] {
  let from = 0;
  return truth.map((expected) => {
    for (let index = from; index < Math.min(words.length, from + 40); index += 1) {
      if (words[index]?.text === expected.text) {
        from = index + 1;
        return { truth: expected, word: words[index] ?? null };
      }
    }
    return { truth: expected, word: null };
  });
}

export function contains(word: BoxedWord, [x, y]: Point, slack = 0): boolean {
  return x >= word.x1 - slack && x <= word.x2 + slack && y >= word.y1 - slack && y <= word.y2 + slack;
}
