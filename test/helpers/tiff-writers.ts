import { deflateSync } from 'node:zlib';
import { createCanvas } from '@napi-rs/canvas';

// TIFF files written the way scanners and document systems write them: strips or tiles; uncompressed,
// PackBits, Deflate (with the horizontal predictor) or JPEG (compression 7), the JPEG either abbreviated with
// its tables in JPEGTables (as libtiff writes it) or whole per strip. The baseline JPEG encoder here writes
// 1- or 3-component frames with no APP markers, as libtiff does; canvas JPEGs (libjpeg-turbo) are the other source.

// ---- pictures: a smooth background, a dark block and a light block, crossing strip and tile edges ----

export interface Rect {
  x1: number;
  y1: number;
  x2: number;
  y2: number;
}

export function regions(width: number, height: number): { dark: Rect; light: Rect } {
  return {
    dark: { x1: Math.round(width * 0.12), y1: Math.round(height * 0.2), x2: Math.round(width * 0.45), y2: Math.round(height * 0.55) },
    light: { x1: Math.round(width * 0.55), y1: Math.round(height * 0.6), x2: Math.round(width * 0.97), y2: Math.round(height * 0.97) },
  };
}

export const inside = (rect: Rect, x: number, y: number) => x >= rect.x1 && x < rect.x2 && y >= rect.y1 && y < rect.y2;
/** The rectangle shrunk by `by` pixels on every side: JPEG rings at block edges. */
export const inset = (rect: Rect, by = 3): Rect => ({ x1: rect.x1 + by, y1: rect.y1 + by, x2: rect.x2 - by, y2: rect.y2 - by });

export function greyImage(width: number, height: number): Uint8Array {
  const { dark, light } = regions(width, height);
  const grey = new Uint8Array(width * height);
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      grey[y * width + x] = inside(dark, x, y) ? 15 : inside(light, x, y) ? 240 : Math.round(130 + 50 * Math.sin(x / 9) * Math.cos(y / 7));
    }
  }
  return grey;
}

export const RED = [220, 30, 30] as const;
export const BLUE = [30, 40, 210] as const;

/** RGB: a gradient, a red block where the grey image is dark, a blue one where it is light. */
export function colourImage(width: number, height: number): Uint8Array {
  const { dark, light } = regions(width, height);
  const rgb = new Uint8Array(width * height * 3);
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      const colour = inside(dark, x, y) ? RED : inside(light, x, y) ? BLUE : [90 + Math.round((x * 100) / width), 120 + Math.round((y * 80) / height), 160];
      rgb.set(colour, (y * width + x) * 3);
    }
  }
  return rgb;
}

// ---- JPEG ----

/** Natural (row-major) index of each zigzag position. */
const ZIGZAG: readonly number[] = (() => {
  const order: number[] = [];
  for (let sum = 0; sum < 15; sum += 1) {
    const rows: number[] = [];
    for (let row = Math.max(0, sum - 7); row <= Math.min(sum, 7); row += 1) rows.push(row);
    if (sum % 2 === 0) rows.reverse();
    for (const row of rows) order.push(row * 8 + (sum - row));
  }
  return order;
})();

// ITU T.81 Annex K.1 luminance table (natural order), scaled by quality as libjpeg does.
const LUMINANCE = [
  16, 11, 10, 16, 24, 40, 51, 61, 12, 12, 14, 19, 26, 58, 60, 55, 14, 13, 16, 24, 40, 57, 69, 56, 14, 17, 22, 29, 51, 87, 80, 62, 18, 22, 37, 56, 68, 109, 103, 77, 24, 35, 55, 64, 81, 104,
  113, 92, 49, 64, 78, 87, 103, 121, 120, 101, 72, 92, 95, 98, 112, 100, 103, 99,
];

// Fixed-length Huffman codes are valid JPEG (any code set a DHT describes is): 4-bit DC categories,
// 8-bit AC symbols (EOB, ZRL and every run/size pair of baseline).
const DC_SYMBOLS = Array.from({ length: 12 }, (_, size) => size);
const AC_SYMBOLS = [0x00, 0xf0, ...Array.from({ length: 16 * 10 }, (_, index) => ((index % 16) << 4) | (Math.floor(index / 16) + 1))];

class BitWriter {
  private readonly bytes: number[] = [];
  private current = 0;
  private filled = 0;
  write(value: number, length: number): void {
    for (let bit = length - 1; bit >= 0; bit -= 1) {
      this.current = (this.current << 1) | ((value >> bit) & 1);
      this.filled += 1;
      if (this.filled === 8) this.flushByte();
    }
  }
  private flushByte(): void {
    this.bytes.push(this.current);
    if (this.current === 0xff) this.bytes.push(0); // byte stuffing
    this.current = 0;
    this.filled = 0;
  }
  finish(): number[] {
    while (this.filled !== 0) this.write(1, 1);
    return this.bytes;
  }
}

function segment(marker: number, body: number[]): number[] {
  const length = body.length + 2;
  return [0xff, marker, length >> 8, length & 0xff, ...body];
}

const COS = Array.from({ length: 8 }, (_, x) => Array.from({ length: 8 }, (_, u) => Math.cos(((2 * x + 1) * u * Math.PI) / 16)));

function forwardDct(block: Float64Array): Float64Array {
  const out = new Float64Array(64);
  for (let v = 0; v < 8; v += 1) {
    for (let u = 0; u < 8; u += 1) {
      let sum = 0;
      for (let y = 0; y < 8; y += 1) for (let x = 0; x < 8; x += 1) sum += (block[y * 8 + x] ?? 0) * (COS[x]?.[u] ?? 0) * (COS[y]?.[v] ?? 0);
      out[v * 8 + u] = 0.25 * (u === 0 ? Math.SQRT1_2 : 1) * (v === 0 ? Math.SQRT1_2 : 1) * sum;
    }
  }
  return out;
}

function sizeOf(value: number): number {
  let size = 0;
  for (let magnitude = Math.abs(value); magnitude > 0; magnitude >>= 1) size += 1;
  return size;
}

function bitsOf(value: number, size: number): number {
  return value >= 0 ? value : value + (1 << size) - 1;
}

export interface JpegSource {
  width: number;
  height: number;
  /** Interleaved 8-bit samples, 1 or 3 per pixel. */
  samples: Uint8Array;
  components: 1 | 3;
  /** How 3 components are coded: converted to YCbCr (the JPEG default) or R, G, B as they are. */
  coding?: 'ycbcr' | 'rgb';
  quality?: number;
}

/** A baseline JPEG (SOI, DQT, SOF0, DHT, SOS, EOI), 1×1 sampling, no APP markers. */
export function encodeJpeg(source: JpegSource): Buffer {
  const { width, height, components } = source;
  const quality = source.quality ?? 90;
  const scale = quality < 50 ? 5000 / quality : 200 - quality * 2;
  const quant = LUMINANCE.map((value) => Math.min(255, Math.max(1, Math.floor((value * scale + 50) / 100))));
  const planes = Array.from({ length: components }, () => new Float64Array(width * height));
  for (let index = 0; index < width * height; index += 1) {
    if (components === 1) {
      (planes[0] as Float64Array)[index] = source.samples[index] ?? 0;
      continue;
    }
    const [r, g, b] = [0, 1, 2].map((channel) => source.samples[index * 3 + channel] ?? 0) as [number, number, number];
    const coded = source.coding === 'rgb' ? [r, g, b] : [0.299 * r + 0.587 * g + 0.114 * b, -0.168736 * r - 0.331264 * g + 0.5 * b + 128, 0.5 * r - 0.418688 * g - 0.081312 * b + 128];
    coded.forEach((value, channel) => ((planes[channel] as Float64Array)[index] = value));
  }
  const writer = new BitWriter();
  const predictors = new Array<number>(components).fill(0);
  const block = new Float64Array(64);
  for (let top = 0; top < height; top += 8) {
    for (let left = 0; left < width; left += 8) {
      planes.forEach((plane, component) => {
        // Edge blocks repeat the last column and row, as encoders pad.
        for (let y = 0; y < 8; y += 1) {
          for (let x = 0; x < 8; x += 1) block[y * 8 + x] = (plane[Math.min(height - 1, top + y) * width + Math.min(width - 1, left + x)] ?? 0) - 128;
        }
        const coefficients = forwardDct(block);
        const zigzag = ZIGZAG.map((natural) => Math.max(-1023, Math.min(1023, Math.round((coefficients[natural] ?? 0) / (quant[natural] ?? 1)))));
        const dc = zigzag[0] ?? 0;
        const diff = dc - (predictors[component] ?? 0);
        predictors[component] = dc;
        const dcSize = sizeOf(diff);
        writer.write(dcSize, 4);
        if (dcSize > 0) writer.write(bitsOf(diff, dcSize), dcSize);
        let run = 0;
        for (let position = 1; position < 64; position += 1) {
          const value = zigzag[position] ?? 0;
          if (value === 0) {
            run += 1;
            continue;
          }
          for (; run > 15; run -= 16) writer.write(AC_SYMBOLS.indexOf(0xf0), 8);
          const size = sizeOf(value);
          writer.write(AC_SYMBOLS.indexOf((run << 4) | size), 8);
          writer.write(bitsOf(value, size), size);
          run = 0;
        }
        if (run > 0) writer.write(AC_SYMBOLS.indexOf(0x00), 8);
      });
    }
  }
  const counts = (length: number, symbols: number[]) => Array.from({ length: 16 }, (_, index) => (index === length - 1 ? symbols.length : 0));
  const ids = Array.from({ length: components }, (_, index) => index + 1);
  return Buffer.from([
    0xff,
    0xd8,
    ...segment(0xdb, [0x00, ...ZIGZAG.map((natural) => quant[natural] ?? 1)]),
    ...segment(0xc0, [8, height >> 8, height & 0xff, width >> 8, width & 0xff, components, ...ids.flatMap((id) => [id, 0x11, 0])]),
    ...segment(0xc4, [0x00, ...counts(4, DC_SYMBOLS), ...DC_SYMBOLS]),
    ...segment(0xc4, [0x10, ...counts(8, AC_SYMBOLS), ...AC_SYMBOLS]),
    ...segment(0xda, [components, ...ids.flatMap((id) => [id, 0x00]), 0, 63, 0]),
    ...writer.finish(),
    0xff,
    0xd9,
  ]);
}

/** A canvas JPEG (libjpeg-turbo via Skia: JFIF, ICC profile, YCbCr 4:2:0, optimised Huffman tables) of RGB samples. */
export function canvasJpeg(rgb: Uint8Array, width: number, height: number, quality = 92): Buffer {
  const canvas = createCanvas(width, height);
  const context = canvas.getContext('2d');
  const image = context.createImageData(width, height);
  for (let index = 0; index < width * height; index += 1) {
    image.data.set([rgb[index * 3] ?? 0, rgb[index * 3 + 1] ?? 0, rgb[index * 3 + 2] ?? 0, 255], index * 4);
  }
  context.putImageData(image, 0, 0);
  return canvas.toBuffer('image/jpeg', quality);
}

/**
 * A whole JPEG split as a TIFF writer stores it: the tables (DQT, and DHT unless `keep: 'huffman'`) between
 * SOI and EOI for JPEGTables, and the abbreviated stream (SOI, what is left of the header, the scan, EOI).
 * APP markers are dropped, as libtiff writes none.
 */
export function splitJpeg(jpeg: Uint8Array, keep: 'none' | 'huffman' = 'none'): { tables: Buffer; abbreviated: Buffer } {
  const tables: number[] = [0xff, 0xd8];
  const rest: number[] = [0xff, 0xd8];
  let at = 2;
  for (;;) {
    const marker = jpeg[at + 1] ?? 0;
    if (jpeg[at] !== 0xff) throw new Error('not a marker');
    if (marker === 0xda) {
      rest.push(...jpeg.subarray(at));
      break;
    }
    const length = ((jpeg[at + 2] ?? 0) << 8) | (jpeg[at + 3] ?? 0);
    const bytes = Array.from(jpeg.subarray(at, at + 2 + length));
    if (marker === 0xdb || (marker === 0xc4 && keep === 'none')) tables.push(...bytes);
    else if (marker < 0xe0 || marker > 0xef) rest.push(...bytes);
    at += 2 + length;
  }
  tables.push(0xff, 0xd9);
  return { tables: Buffer.from(tables), abbreviated: Buffer.from(rest) };
}

// ---- pieces of an image ----

export type Layout = { rowsPerStrip: number } | { tileWidth: number; tileLength: number };

export interface Piece {
  width: number;
  height: number;
  /** Interleaved samples of the piece; tiles past the image's edge hold `pad`. */
  samples: Uint8Array;
}

/** The image cut into strips (the last one shorter) or tiles (all full size, padded past the edges). */
export function cutPieces(samples: Uint8Array, width: number, height: number, channels: number, layout: Layout, pad = 0): Piece[] {
  const pieces: Piece[] = [];
  const [pieceWidth, pieceHeight] = 'rowsPerStrip' in layout ? [width, layout.rowsPerStrip] : [layout.tileWidth, layout.tileLength];
  for (let top = 0; top < height; top += pieceHeight) {
    for (let left = 0; left < width; left += pieceWidth) {
      const rows = 'rowsPerStrip' in layout ? Math.min(pieceHeight, height - top) : pieceHeight;
      const piece = new Uint8Array(pieceWidth * rows * channels).fill(pad);
      for (let y = 0; y < rows && top + y < height; y += 1) {
        const columns = Math.min(pieceWidth, width - left);
        piece.set(samples.subarray(((top + y) * width + left) * channels, ((top + y) * width + left + columns) * channels), y * pieceWidth * channels);
      }
      pieces.push({ width: pieceWidth, height: rows, samples: piece });
    }
  }
  return pieces;
}

/** Deflate with TIFF's horizontal predictor (each sample minus the same sample of the pixel to its left). */
export function deflateWithPredictor(piece: Piece, channels: number): Buffer {
  const out = new Uint8Array(piece.samples.length);
  const stride = piece.width * channels;
  for (let index = 0; index < out.length; index += 1) {
    const left = index % stride >= channels ? (piece.samples[index - channels] ?? 0) : 0;
    out[index] = ((piece.samples[index] ?? 0) - left) & 0xff;
  }
  return deflateSync(out);
}

/** PackBits, row by row: repeats of 3 or more as runs, the rest as literals. */
export function packBits(piece: Piece, channels: number): Buffer {
  const out: number[] = [];
  const stride = piece.width * channels;
  for (let start = 0; start < piece.samples.length; start += stride) {
    const row = piece.samples.subarray(start, start + stride);
    let index = 0;
    while (index < row.length) {
      let run = 1;
      while (index + run < row.length && run < 128 && row[index + run] === row[index]) run += 1;
      if (run >= 3) {
        out.push(257 - run, row[index] ?? 0);
        index += run;
        continue;
      }
      let end = index;
      while (end < row.length && end - index < 128 && !(row[end] === row[end + 1] && row[end] === row[end + 2])) end += 1;
      if (end === index) end = index + 1;
      out.push(end - index - 1, ...row.subarray(index, end));
      index = end;
    }
  }
  return Buffer.from(out);
}

// ---- TIFF ----

export interface TiffTag {
  tag: number;
  /** SHORT, LONG, RATIONAL (values in numerator/denominator pairs) or UNDEFINED (bytes). */
  type: 3 | 4 | 5 | 7;
  values: readonly number[];
}

export interface TiffDirectory {
  /** Every tag but the offsets and byte counts of the blocks, which the writer adds. */
  tags: TiffTag[];
  /** Strips or tiles, in order. */
  blocks: Uint8Array[];
  tiled: boolean;
}

const TYPE_BYTES = { 3: 2, 4: 4, 5: 4, 7: 1 } as const;

/** A classic TIFF: each directory's blocks, then its long values, then the directory; directories chained. */
export function writeTiff(directories: readonly TiffDirectory[], options: { bigEndian?: boolean } = {}): Buffer {
  const little = !options.bigEndian;
  const parts: Buffer[] = [];
  let length = 0;
  const append = (bytes: Uint8Array): number => {
    if (length % 2 === 1) {
      parts.push(Buffer.alloc(1));
      length += 1;
    }
    const at = length;
    parts.push(Buffer.from(bytes));
    length += bytes.length;
    return at;
  };
  const header = Buffer.alloc(8);
  const patches: [at: number, value: number][] = [];
  const u16 = (buffer: Buffer, value: number, at: number) => (little ? buffer.writeUInt16LE(value, at) : buffer.writeUInt16BE(value, at));
  const u32 = (buffer: Buffer, value: number, at: number) => (little ? buffer.writeUInt32LE(value, at) : buffer.writeUInt32BE(value, at));
  header.write(little ? 'II' : 'MM', 0, 'latin1');
  u16(header, 42, 2);
  append(header);
  let nextPointerAt = 4;
  for (const directory of directories) {
    const offsets = directory.blocks.map((block) => append(block));
    const tags: TiffTag[] = [
      ...directory.tags,
      { tag: directory.tiled ? 324 : 273, type: 4 as const, values: offsets },
      { tag: directory.tiled ? 325 : 279, type: 4 as const, values: directory.blocks.map((block) => block.length) },
    ].sort((a, b) => a.tag - b.tag);
    const encoded = tags.map(({ type, values }) => {
      const bytes = Buffer.alloc(TYPE_BYTES[type] * values.length);
      values.forEach((value, index) => {
        if (type === 3) u16(bytes, value, index * 2);
        else if (type === 7) bytes.writeUInt8(value, index);
        else u32(bytes, value, index * 4);
      });
      return bytes;
    });
    const valueAt = encoded.map((bytes) => (bytes.length > 4 ? append(bytes) : -1));
    const ifd = Buffer.alloc(2 + tags.length * 12 + 4);
    u16(ifd, tags.length, 0);
    tags.forEach(({ tag, type, values }, index) => {
      const at = 2 + index * 12;
      u16(ifd, tag, at);
      u16(ifd, type, at + 2);
      u32(ifd, type === 5 ? values.length / 2 : values.length, at + 4);
      const bytes = encoded[index] as Buffer;
      if (bytes.length > 4) u32(ifd, valueAt[index] ?? 0, at + 8);
      else bytes.copy(ifd, at + 8);
    });
    const ifdAt = append(ifd);
    patches.push([nextPointerAt, ifdAt]);
    nextPointerAt = ifdAt + 2 + tags.length * 12;
  }
  const file = Buffer.concat(parts);
  for (const [at, value] of patches) u32(file, value, at);
  return file;
}

export interface TiffImageSpec {
  width: number;
  height: number;
  /** 1 (grey or bilevel) or 3 (RGB / YCbCr). */
  samples: 1 | 3;
  bitsPerSample?: number;
  photometric: number;
  compression: number;
  layout: Layout;
  blocks: Uint8Array[];
  jpegTables?: Uint8Array;
  predictor?: number;
  /** YCbCr only: the chroma subsampling the JPEG data uses (TIFF's default is 2×2). */
  subsampling?: [number, number];
}

/** The directory of one page. */
export function tiffDirectory(spec: TiffImageSpec): TiffDirectory {
  const bits = spec.bitsPerSample ?? 8;
  const tags: TiffTag[] = [
    { tag: 256, type: 4, values: [spec.width] },
    { tag: 257, type: 4, values: [spec.height] },
    { tag: 258, type: 3, values: new Array<number>(spec.samples).fill(bits) },
    { tag: 259, type: 3, values: [spec.compression] },
    { tag: 262, type: 3, values: [spec.photometric] },
    { tag: 277, type: 3, values: [spec.samples] },
    { tag: 282, type: 5, values: [300, 1] },
    { tag: 283, type: 5, values: [300, 1] },
    { tag: 284, type: 3, values: [1] },
  ];
  if ('rowsPerStrip' in spec.layout) tags.push({ tag: 278, type: 4, values: [spec.layout.rowsPerStrip] });
  else tags.push({ tag: 322, type: 4, values: [spec.layout.tileWidth] }, { tag: 323, type: 4, values: [spec.layout.tileLength] });
  if (spec.predictor) tags.push({ tag: 317, type: 3, values: [spec.predictor] });
  if (spec.jpegTables) tags.push({ tag: 347, type: 7, values: Array.from(spec.jpegTables) });
  if (spec.photometric === 6) tags.push({ tag: 530, type: 3, values: spec.subsampling ?? [2, 2] });
  return { tags, blocks: spec.blocks, tiled: !('rowsPerStrip' in spec.layout) };
}
