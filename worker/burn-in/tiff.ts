import {
  PDFDocument,
  PDFHexString,
  PDFName,
  PDFNumber,
  clip,
  concatTransformationMatrix,
  drawObject,
  endPath,
  popGraphicsState,
  pushGraphicsState,
  rectangle,
  type PDFContext,
} from 'pdf-lib';
import { checkEntryCount, directoryBodySize, directoryEntries, HEADER_BYTES, readTiffHeader, TiffView, valueSize, valuesInline, valuesOffset } from './tiff-layout.js';

type StreamDict = NonNullable<Parameters<PDFContext['stream']>[1]>;

// TIFF pages are read by wrapping their strips or tiles, still encoded, in a PDF page of the same size in points
// as the image in pixels, which pdf.js then renders: its decoders (CCITT G3/G4, LZW, Flate, DCT for JPEG) cover
// the TIFFs scanners write, and no TIFF library is needed. Classic TIFF and BigTIFF are read (tiff-layout.ts);
// planar data, alpha and old-style JPEG are refused.

const TAG = {
  width: 256,
  height: 257,
  bitsPerSample: 258,
  compression: 259,
  photometric: 262,
  fillOrder: 266,
  stripOffsets: 273,
  samplesPerPixel: 277,
  rowsPerStrip: 278,
  stripByteCounts: 279,
  t4Options: 292,
  planarConfig: 284,
  predictor: 317,
  colorMap: 320,
  tileWidth: 322,
  tileLength: 323,
  tileOffsets: 324,
  tileByteCounts: 325,
  extraSamples: 338,
  jpegTables: 347,
} as const;

type Entries = Map<number, number[]>;

/** More values than any tag a page needs holds (a million strips): the rest are not read. */
const MAX_VALUES = 1 << 20;

function readIfd(reader: TiffView, offset: number): { entries: Entries; next: number } {
  const { layout, bytes } = reader;
  if (offset + layout.countSize > bytes.length) throw new Error('the TIFF is truncated');
  const count = reader.count(offset);
  checkEntryCount(count, offset);
  if (offset + layout.countSize + directoryBodySize(count, layout) > bytes.length) throw new Error('the TIFF is truncated: a directory runs past the end of the file');
  const listed = directoryEntries(reader, offset + layout.countSize, count);
  const entries: Entries = new Map();
  for (const entry of listed.entries) {
    const size = valueSize(entry);
    const inline = valuesInline(entry, layout);
    const valueAt = inline ? 0 : valuesOffset(entry, layout);
    if (!inline && valueAt + size > bytes.length) throw new Error(`TIFF tag ${entry.tag} points past the end of the file`);
    const values = inline ? new TiffView(entry.field, layout) : reader;
    entries.set(entry.tag, values.numbers(entry.type, valueAt, Math.min(entry.count, MAX_VALUES)));
  }
  return { entries, next: listed.next };
}

function reverseBits(bytes: Uint8Array): Uint8Array {
  const out = new Uint8Array(bytes.length);
  for (let index = 0; index < bytes.length; index += 1) {
    let value = bytes[index] as number;
    value = ((value & 0xf0) >> 4) | ((value & 0x0f) << 4);
    value = ((value & 0xcc) >> 2) | ((value & 0x33) << 2);
    out[index] = ((value & 0xaa) >> 1) | ((value & 0x55) << 1);
  }
  return out;
}

/** PackBits differs from PDF's RunLengthDecode only in -128 (a no-op here, the end there): decode it. */
function unpackBits(bytes: Uint8Array, expected: number): Uint8Array {
  const out = new Uint8Array(expected);
  let read = 0;
  let written = 0;
  while (read < bytes.length && written < expected) {
    const header = bytes[read++] as number;
    if (header < 128) {
      const length = header + 1;
      out.set(bytes.subarray(read, read + length), written);
      read += length;
      written += length;
    } else if (header > 128) {
      const length = 257 - header;
      out.fill(bytes[read++] ?? 0, written, written + length);
      written += length;
    }
  }
  return out;
}

export interface TiffPage {
  width: number;
  height: number;
}

/** One strip or tile: where its bytes are, where it goes on the page, and the pixel size it was encoded at. */
interface Piece {
  offset: number;
  count: number;
  left: number;
  top: number;
  width: number;
  height: number;
}

/** A PDF with one page per TIFF page; page size in points equals the image size in pixels. */
export async function tiffAsPdf(bytes: Uint8Array): Promise<{ pdf: Uint8Array; pages: TiffPage[] }> {
  if (bytes.length < 8) throw new Error('the TIFF is truncated');
  const order = String.fromCharCode(bytes[0] ?? 0, bytes[1] ?? 0);
  if (order !== 'II' && order !== 'MM') throw new Error('not a TIFF file');
  const header = readTiffHeader(bytes.subarray(0, HEADER_BYTES));
  if (!header) throw new Error('TIFF variants other than classic TIFF and BigTIFF are not supported');
  const reader = new TiffView(bytes, header.layout);
  const doc = await PDFDocument.create({ updateMetadata: false });
  const pages: TiffPage[] = [];
  const seen = new Set<number>();
  for (let offset = header.firstDirectory; offset !== 0 && !seen.has(offset); ) {
    seen.add(offset);
    const { entries, next } = readIfd(reader, offset);
    offset = next;
    const one = (tag: number, fallback?: number): number => {
      const value = entries.get(tag)?.[0] ?? fallback;
      if (value === undefined) throw new Error(`the TIFF lacks tag ${tag}`);
      return value;
    };
    const width = one(TAG.width);
    const height = one(TAG.height);
    if (one(TAG.planarConfig, 1) !== 1) throw new Error('planar TIFFs are not supported');
    const compression = one(TAG.compression, 1);
    if (compression === 6) throw new Error('TIFF compression 6 is not supported (old-style JPEG-in-TIFF; new-style JPEG, compression 7, is)');
    const jpeg = compression === 7;
    const samples = one(TAG.samplesPerPixel, 1);
    const photometric = one(TAG.photometric, compression >= 2 && compression <= 4 ? 0 : jpeg && samples === 3 ? 6 : 1);
    const bits = one(TAG.bitsPerSample, 1);
    if ((entries.get(TAG.extraSamples)?.length ?? 0) > 0) throw new Error('TIFFs with an alpha channel are not supported');
    const ccitt = compression === 2 || compression === 3 || compression === 4;
    const colorSpace = jpeg ? jpegColorSpace(photometric, samples, bits) : colorSpaceOf(doc, photometric, samples, bits, entries.get(TAG.colorMap), ccitt);
    const tiled = entries.has(TAG.tileWidth);
    const pieces = tiled ? tilesOf(entries, one, width, height) : stripsOf(entries, one, width, height);
    const tables = jpeg && entries.has(TAG.jpegTables) ? Uint8Array.from(entries.get(TAG.jpegTables) ?? []) : null;
    const page = doc.addPage([width, height]);
    // Tiles at the right and bottom edges, and JPEG strips coded past the last row, reach beyond the image.
    if (tiled || jpeg) page.pushOperators(rectangle(0, 0, width, height), clip(), endPath());
    for (const piece of pieces) {
      // A strip or tile never written (a sparse file) stays white.
      if (piece.count === 0) continue;
      let data = bytes.subarray(piece.offset, piece.offset + piece.count);
      let { width: columns, height: rows } = piece;
      const dict: StreamDict = { Type: 'XObject', Subtype: 'Image', Width: columns, Height: rows, BitsPerComponent: bits, ColorSpace: colorSpace };
      if (jpeg) {
        data = completeJpeg(tables, data);
        const frame = jpegFrame(data);
        if (frame.components !== samples) throw new Error(`the TIFF's JPEG data has ${frame.components} colour components where the TIFF says ${samples}`);
        // The JPEG's own size decides how its pixels are laid out; the placement below crops any excess.
        columns = frame.width || columns;
        rows = frame.height || rows;
        Object.assign(dict, { Width: columns, Height: rows, Filter: 'DCTDecode' });
        // Photometric RGB: the components are R, G, B as coded, not YCbCr to convert.
        if (photometric === 2) dict.DecodeParms = { ColorTransform: 0 };
        if (photometric === 0) dict.Decode = [1, 0];
      } else if (ccitt) {
        if (one(TAG.fillOrder, 1) === 2) data = reverseBits(data);
        const k = compression === 4 ? -1 : compression === 3 && (one(TAG.t4Options, 0) & 1) === 1 ? 1 : 0;
        dict.Filter = 'CCITTFaxDecode';
        dict.DecodeParms = { K: k, Columns: columns, Rows: rows, BlackIs1: photometric === 1, EncodedByteAlign: compression === 2 };
      } else {
        if (compression === 32773) data = unpackBits(data, Math.ceil((columns * samples * bits) / 8) * rows);
        else if (compression === 5) dict.Filter = 'LZWDecode';
        else if (compression === 8 || compression === 32946) dict.Filter = 'FlateDecode';
        else if (compression !== 1) throw new Error(`TIFF compression ${compression} is not supported`);
        if (one(TAG.predictor, 1) === 2 && dict.Filter) dict.DecodeParms = { Predictor: 2, Colors: samples, BitsPerComponent: bits, Columns: columns };
        if (photometric === 0 && bits > 1) dict.Decode = Array.from({ length: samples }, () => [1, 0]).flat();
      }
      const ref = doc.context.register(doc.context.stream(data, dict));
      const name = page.node.newXObject(tiled ? 'Tile' : 'Strip', ref);
      page.pushOperators(pushGraphicsState(), concatTransformationMatrix(columns, 0, 0, rows, piece.left, height - piece.top - rows), drawObject(name), popGraphicsState());
    }
    pages.push({ width, height });
  }
  if (pages.length === 0) throw new Error('the TIFF has no pages');
  return { pdf: await doc.save({ useObjectStreams: false }), pages };
}

type One = (tag: number, fallback?: number) => number;

/** Strips run the image's width; the last one may hold fewer rows than RowsPerStrip. */
function stripsOf(entries: Entries, one: One, width: number, height: number): Piece[] {
  const rowsPerStrip = Math.min(one(TAG.rowsPerStrip, height), height);
  const offsets = entries.get(TAG.stripOffsets) ?? [];
  const counts = entries.get(TAG.stripByteCounts) ?? [];
  if (offsets.length === 0 || offsets.length !== counts.length) throw new Error('the TIFF has no readable strips');
  return offsets.flatMap((offset, index) => {
    const top = index * rowsPerStrip;
    const rows = Math.min(rowsPerStrip, height - top);
    return rows > 0 ? [{ offset, count: counts[index] ?? 0, left: 0, top, width, height: rows }] : [];
  });
}

/** Tiles in rows, left to right, each coded at its full size even where it reaches past the image. */
function tilesOf(entries: Entries, one: One, width: number, height: number): Piece[] {
  const tileWidth = one(TAG.tileWidth);
  const tileLength = one(TAG.tileLength);
  if (tileWidth <= 0 || tileLength <= 0) throw new Error('the TIFF has tiles of no size');
  const across = Math.ceil(width / tileWidth);
  const down = Math.ceil(height / tileLength);
  const offsets = entries.get(TAG.tileOffsets) ?? [];
  const counts = entries.get(TAG.tileByteCounts) ?? [];
  if (offsets.length < across * down || offsets.length !== counts.length) throw new Error('the TIFF has no readable tiles');
  const pieces: Piece[] = [];
  for (let index = 0; index < across * down; index += 1) {
    const left = (index % across) * tileWidth;
    const top = Math.floor(index / across) * tileLength;
    pieces.push({ offset: offsets[index] ?? 0, count: counts[index] ?? 0, left, top, width: tileWidth, height: tileLength });
  }
  return pieces;
}

function isMarker(bytes: Uint8Array, at: number, marker: number): boolean {
  return bytes[at] === 0xff && bytes[at + 1] === marker;
}

/**
 * A strip's JPEG stream made whole: with JPEGTables, the strip is an abbreviated stream whose quantisation and
 * Huffman tables live in the tag, so the tables (without their EOI) go before the strip (without its SOI).
 */
function completeJpeg(tables: Uint8Array | null, strip: Uint8Array): Uint8Array {
  if (!tables || tables.length < 4) return strip;
  const head = tables.subarray(isMarker(tables, 0, 0xd8) ? 2 : 0, isMarker(tables, tables.length - 2, 0xd9) ? tables.length - 2 : tables.length);
  const body = isMarker(strip, 0, 0xd8) ? strip.subarray(2) : strip;
  const whole = new Uint8Array(2 + head.length + body.length);
  whole.set([0xff, 0xd8]);
  whole.set(head, 2);
  whole.set(body, 2 + head.length);
  return whole;
}

/** The frame header of a JPEG stream: its size and components. Only the DCT processes pdf.js decodes pass. */
function jpegFrame(data: Uint8Array): { width: number; height: number; components: number } {
  let at = 2;
  while (at + 4 <= data.length) {
    if (data[at] !== 0xff) break;
    const marker = data[at + 1] ?? 0;
    if (marker === 0xff) {
      at += 1;
      continue;
    }
    if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      at += 2;
      continue;
    }
    if (marker === 0xda || marker === 0xd9) break;
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      if (marker > 0xc2) throw new Error(`the TIFF's JPEG data uses a JPEG process that is not supported (SOF${marker - 0xc0}: lossless or arithmetic coding)`);
      if (data[at + 4] !== 8) throw new Error(`the TIFF's JPEG data has ${data[at + 4] ?? 0}-bit samples; only 8-bit JPEG is supported`);
      return { height: ((data[at + 5] ?? 0) << 8) | (data[at + 6] ?? 0), width: ((data[at + 7] ?? 0) << 8) | (data[at + 8] ?? 0), components: data[at + 9] ?? 0 };
    }
    at += 2 + (((data[at + 2] ?? 0) << 8) | (data[at + 3] ?? 0));
  }
  throw new Error("the TIFF's JPEG data has no frame header");
}

function jpegColorSpace(photometric: number, samples: number, bits: number): PDFName {
  if (bits !== 8) throw new Error(`TIFF JPEG data with ${bits}-bit samples is not supported`);
  if ((photometric === 0 || photometric === 1) && samples === 1) return PDFName.of('DeviceGray');
  // YCbCr is converted by the JPEG decoder (the default for three components); RGB is marked ColorTransform 0.
  if ((photometric === 6 || photometric === 2) && samples === 3) return PDFName.of('DeviceRGB');
  throw new Error(`TIFF JPEG data with photometric interpretation ${photometric} and ${samples} samples is not supported`);
}

function colorSpaceOf(doc: PDFDocument, photometric: number, samples: number, bits: number, colorMap: number[] | undefined, ccitt: boolean) {
  if ((photometric === 0 || photometric === 1) && samples === 1 && bits === 1) {
    // pdf.js in Node draws a 1-bit DeviceGray image without the last pixels of its last row (up to 7, at every
    // strip's or tile's edge); an Indexed space takes its general path. Index 0 is black, unless the bits are
    // stored WhiteIsZero (CCITT data is turned black-is-0 by BlackIs1 instead).
    return doc.context.obj([PDFName.of('Indexed'), PDFName.of('DeviceGray'), PDFNumber.of(1), PDFHexString.of(photometric === 0 && !ccitt ? 'ff00' : '00ff')]);
  }
  if ((photometric === 0 || photometric === 1) && samples === 1) return PDFName.of('DeviceGray');
  if (photometric === 2 && samples === 3 && bits === 8) return PDFName.of('DeviceRGB');
  if (photometric === 5 && samples === 4 && bits === 8) return PDFName.of('DeviceCMYK');
  if (photometric === 3 && samples === 1 && colorMap) {
    const entries = 1 << bits;
    const lookup = new Uint8Array(entries * 3);
    for (let index = 0; index < entries; index += 1) {
      for (let channel = 0; channel < 3; channel += 1) lookup[index * 3 + channel] = ((colorMap[channel * entries + index] ?? 0) >> 8) & 0xff;
    }
    const hex = Array.from(lookup, (byte) => byte.toString(16).padStart(2, '0')).join('');
    return doc.context.obj([PDFName.of('Indexed'), PDFName.of('DeviceRGB'), PDFNumber.of(entries - 1), PDFHexString.of(hex)]);
  }
  throw new Error(`TIFF photometric interpretation ${photometric} with ${samples} samples of ${bits} bits is not supported`);
}
