import { PDFDocument, PDFHexString, PDFName, PDFNumber, popGraphicsState, pushGraphicsState, concatTransformationMatrix, drawObject, type PDFContext } from 'pdf-lib';

type StreamDict = NonNullable<Parameters<PDFContext['stream']>[1]>;

// TIFF pages are read by wrapping their strips, still encoded, in a PDF page of the same size in points as
// the image in pixels, which pdf.js then renders: its decoders (CCITT G3/G4, LZW, Flate) cover the TIFFs
// scanners write, and no TIFF library is needed. Tiles, planar data, alpha and JPEG-in-TIFF are refused.

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
  extraSamples: 338,
} as const;

type Entries = Map<number, number[]>;

class Reader {
  private readonly view: DataView;
  constructor(
    readonly bytes: Uint8Array,
    readonly little: boolean,
  ) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }
  u16(at: number): number {
    return this.view.getUint16(at, this.little);
  }
  u32(at: number): number {
    return this.view.getUint32(at, this.little);
  }
}

const TYPE_SIZE: Record<number, number> = { 1: 1, 2: 1, 3: 2, 4: 4, 5: 8, 6: 1, 7: 1, 8: 2, 9: 4, 10: 8, 11: 4, 12: 8 };

function readIfd(reader: Reader, offset: number): { entries: Entries; next: number } {
  if (offset + 2 > reader.bytes.length) throw new Error('the TIFF is truncated');
  const count = reader.u16(offset);
  const entries: Entries = new Map();
  for (let index = 0; index < count; index += 1) {
    const at = offset + 2 + index * 12;
    const tag = reader.u16(at);
    const type = reader.u16(at + 2);
    const n = reader.u32(at + 4);
    const size = (TYPE_SIZE[type] ?? 1) * n;
    const valueAt = size <= 4 ? at + 8 : reader.u32(at + 8);
    if (valueAt + size > reader.bytes.length) throw new Error(`TIFF tag ${tag} points past the end of the file`);
    const values: number[] = [];
    for (let item = 0; item < n && item < 1 << 20; item += 1) {
      if (type === 3 || type === 8) values.push(reader.u16(valueAt + item * 2));
      else if (type === 4 || type === 9) values.push(reader.u32(valueAt + item * 4));
      else if (type === 1 || type === 6 || type === 7 || type === 2) values.push(reader.bytes[valueAt + item] ?? 0);
      else if (type === 5) values.push(reader.u32(valueAt + item * 8) / (reader.u32(valueAt + item * 8 + 4) || 1));
    }
    entries.set(tag, values);
  }
  return { entries, next: reader.u32(offset + 2 + count * 12) };
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

/** A PDF with one page per TIFF page; page size in points equals the image size in pixels. */
export async function tiffAsPdf(bytes: Uint8Array): Promise<{ pdf: Uint8Array; pages: TiffPage[] }> {
  if (bytes.length < 8) throw new Error('the TIFF is truncated');
  const order = String.fromCharCode(bytes[0] ?? 0, bytes[1] ?? 0);
  if (order !== 'II' && order !== 'MM') throw new Error('not a TIFF file');
  const reader = new Reader(bytes, order === 'II');
  if (reader.u16(2) !== 42) throw new Error('BigTIFF and other TIFF variants are not supported');
  const doc = await PDFDocument.create({ updateMetadata: false });
  const pages: TiffPage[] = [];
  const seen = new Set<number>();
  for (let offset = reader.u32(4); offset !== 0 && !seen.has(offset); ) {
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
    if (entries.has(TAG.tileWidth)) throw new Error('tiled TIFFs are not supported');
    if (one(TAG.planarConfig, 1) !== 1) throw new Error('planar TIFFs are not supported');
    const compression = one(TAG.compression, 1);
    const photometric = one(TAG.photometric, compression >= 2 && compression <= 4 ? 0 : 1);
    const samples = one(TAG.samplesPerPixel, 1);
    const bits = one(TAG.bitsPerSample, 1);
    if ((entries.get(TAG.extraSamples)?.length ?? 0) > 0) throw new Error('TIFFs with an alpha channel are not supported');
    const colorSpace = colorSpaceOf(doc, photometric, samples, bits, entries.get(TAG.colorMap));
    const rowsPerStrip = Math.min(one(TAG.rowsPerStrip, height), height);
    const offsets = entries.get(TAG.stripOffsets) ?? [];
    const counts = entries.get(TAG.stripByteCounts) ?? [];
    if (offsets.length === 0 || offsets.length !== counts.length) throw new Error('the TIFF has no readable strips');
    const page = doc.addPage([width, height]);
    offsets.forEach((stripOffset, index) => {
      const top = index * rowsPerStrip;
      const rows = Math.min(rowsPerStrip, height - top);
      if (rows <= 0) return;
      let data = bytes.subarray(stripOffset, stripOffset + (counts[index] ?? 0));
      const dict: StreamDict = { Type: 'XObject', Subtype: 'Image', Width: width, Height: rows, BitsPerComponent: bits, ColorSpace: colorSpace };
      if (compression === 2 || compression === 3 || compression === 4) {
        if (one(TAG.fillOrder, 1) === 2) data = reverseBits(data);
        const k = compression === 4 ? -1 : compression === 3 && (one(TAG.t4Options, 0) & 1) === 1 ? 1 : 0;
        dict.Filter = 'CCITTFaxDecode';
        dict.DecodeParms = { K: k, Columns: width, Rows: rows, BlackIs1: photometric === 1, EncodedByteAlign: compression === 2 };
      } else {
        if (compression === 32773) data = unpackBits(data, Math.ceil((width * samples * bits) / 8) * rows);
        else if (compression === 5) dict.Filter = 'LZWDecode';
        else if (compression === 8 || compression === 32946) dict.Filter = 'FlateDecode';
        else if (compression !== 1) throw new Error(`TIFF compression ${compression} is not supported`);
        if (one(TAG.predictor, 1) === 2 && dict.Filter) dict.DecodeParms = { Predictor: 2, Colors: samples, BitsPerComponent: bits, Columns: width };
        if (photometric === 0) dict.Decode = Array.from({ length: samples }, () => [1, 0]).flat();
      }
      const ref = doc.context.register(doc.context.stream(data, dict));
      const name = page.node.newXObject('Strip', ref);
      page.pushOperators(pushGraphicsState(), concatTransformationMatrix(width, 0, 0, rows, 0, height - top - rows), drawObject(name), popGraphicsState());
    });
    pages.push({ width, height });
  }
  if (pages.length === 0) throw new Error('the TIFF has no pages');
  return { pdf: await doc.save({ useObjectStreams: false }), pages };
}

function colorSpaceOf(doc: PDFDocument, photometric: number, samples: number, bits: number, colorMap: number[] | undefined) {
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
