import { inflateSync } from 'node:zlib';
import { assertImagePixels } from '../limits.js';
import { ImageKind, OPS, type PDFPageProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { decodePDFRawStream, PDFArray, PDFDict, PDFName, PDFNumber, PDFRawStream, PDFRef, type PDFContext, type PDFDocument, type PDFObject } from 'pdf-lib';
import { greyTiff } from './grey-tiff.js';

// A scanned page is usually one picture and nothing else. Its pixels are what tesseract should read: drawing
// them onto a 300 dpi canvas first costs a render and a resample (a fifth of a page's OCR time) and gains
// nothing when the picture already has about that resolution. Anything else on the page, or a picture that is
// not upright as displayed, goes through the normal render instead.

/** Operators that neither paint nor change where the picture lands. */
const NEUTRAL = new Set<number>([OPS.save, OPS.restore, OPS.transform, OPS.dependency, OPS.beginMarkedContent, OPS.beginMarkedContentProps, OPS.endMarkedContent]);

/** Share of the displayed page the picture must cover to count as the page. */
const MIN_COVERAGE = 0.9;
/** The picture is used as it is when its resolution is within this factor of the requested one. */
const DPI_TOLERANCE = 1.5;

type Matrix = [number, number, number, number, number, number];

const multiply = (m: Matrix, n: Matrix): Matrix => [
  m[0] * n[0] + m[1] * n[2],
  m[0] * n[1] + m[1] * n[3],
  m[2] * n[0] + m[3] * n[2],
  m[2] * n[1] + m[3] * n[3],
  m[4] * n[0] + m[5] * n[2] + n[4],
  m[4] * n[1] + m[5] * n[3] + n[5],
];

const apply = (m: Matrix, x: number, y: number): [number, number] => [m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5]];

function asMatrix(value: unknown): Matrix | null {
  if (!Array.isArray(value) && !ArrayBuffer.isView(value)) return null;
  const numbers = Array.from(value as ArrayLike<unknown>, Number);
  return numbers.length === 6 && numbers.every(Number.isFinite) ? (numbers as Matrix) : null;
}

interface DecodedImage {
  width: number;
  height: number;
  kind: number;
  data: Uint8Array | Uint8ClampedArray;
}

function isDecodedImage(value: unknown): value is DecodedImage {
  if (typeof value !== 'object' || value === null) return false;
  const image = value as Partial<DecodedImage>;
  return typeof image.width === 'number' && typeof image.height === 'number' && typeof image.kind === 'number' && (image.data instanceof Uint8Array || image.data instanceof Uint8ClampedArray);
}

export interface EmbeddedScan {
  /** The picture's own pixels: an uncompressed grey TIFF, or the stored JPEG. */
  image: Uint8Array;
  width: number;
  height: number;
  /** The picture's resolution on the displayed page. */
  dpi: number;
  /** Picture pixel (top-left origin) → PDF user space of the unrotated page. */
  toUser(x: number, y: number): [number, number];
}

/** The one picture painted on the page, with its matrix, when it is the only thing painted. */
async function onlyPicture(page: PDFPageProxy): Promise<{ objId: string; matrix: Matrix } | null> {
  const list = await page.getOperatorList();
  let matrix: Matrix = [1, 0, 0, 1, 0, 0];
  const stack: Matrix[] = [];
  let picture: { objId: string; matrix: Matrix } | null = null;
  for (const [index, fn] of list.fnArray.entries()) {
    const args: unknown = list.argsArray[index];
    if (fn === OPS.save) stack.push(matrix);
    else if (fn === OPS.restore) matrix = stack.pop() ?? matrix;
    else if (fn === OPS.transform) {
      const next = asMatrix(args);
      if (!next) return null;
      matrix = multiply(next, matrix);
    } else if (fn === OPS.paintImageXObject) {
      const objId: unknown = Array.isArray(args) ? args[0] : undefined;
      if (picture || typeof objId !== 'string') return null;
      picture = { objId, matrix };
    } else if (!NEUTRAL.has(fn)) return null;
  }
  return picture;
}

async function decodedImage(page: PDFPageProxy, objId: string): Promise<DecodedImage | null> {
  const objects = objId.startsWith('g_') ? page.commonObjs : page.objs;
  const value: unknown = await new Promise((resolve) => objects.get(objId, resolve));
  return isDecodedImage(value) ? value : null;
}

/** Grey TIFF of a picture pdf.js decoded; null for kinds with transparency or unknown layouts. */
function toGrey(image: DecodedImage, dpi: number): Uint8Array | null {
  const { width, height, data } = image;
  if (image.kind === ImageKind.RGB_24BPP) return data.length < width * height * 3 ? null : greyOf(data, width, height, 3, dpi);
  if (image.kind !== ImageKind.GRAYSCALE_1BPP) return null;
  // Rows padded to whole bytes; a set bit is white, as pdf.js unpacks it for drawing.
  const rowBytes = (width + 7) >> 3;
  if (data.length < rowBytes * height) return null;
  const { bytes, pixels: out } = greyTiff(width, height, dpi);
  let target = 0;
  for (let y = 0; y < height; y += 1) {
    const row = y * rowBytes;
    for (let x = 0; x < width; x += 1) out[target++] = ((data[row + (x >> 3)] ?? 0xff) >> (7 - (x & 7))) & 1 ? 255 : 0;
  }
  return bytes;
}

/** 8-bit grey or RGB samples to a grey TIFF (Rec. 601 luma). */
function greyOf(samples: Uint8Array | Uint8ClampedArray, width: number, height: number, channels: 1 | 3, dpi: number): Uint8Array {
  const { bytes, pixels: out } = greyTiff(width, height, dpi);
  const pixels = width * height;
  if (channels === 1) {
    out.set(samples.subarray(0, pixels));
    return bytes;
  }
  let target = 0;
  for (let index = 0; index < pixels * 3; index += 3) {
    out[target++] = ((samples[index] ?? 255) * 77 + (samples[index + 1] ?? 255) * 150 + (samples[index + 2] ?? 255) * 29) >> 8;
  }
  return bytes;
}

interface Placement {
  dpi: number;
  toUser(x: number, y: number): [number, number];
}

/**
 * Where a picture of width × height pixels, drawn under `matrix`, lands on the displayed page: accepted when
 * it is upright (pixel x runs right and pixel y runs down as displayed, no shear), covers the page, has square
 * pixels and about the requested resolution.
 */
function placement(page: PDFPageProxy, matrix: Matrix, width: number, height: number, dpi: number): Placement | null {
  if (width < 1 || height < 1) return null;
  // Picture pixel → unit square (v up) → user space → displayed page (points, y down, /Rotate applied).
  const pixelToUnit: Matrix = [1 / width, 0, 0, -1 / height, 0, 1];
  const toUserMatrix = multiply(pixelToUnit, matrix);
  const viewport = page.getViewport({ scale: 1 });
  const toDisplay = multiply(toUserMatrix, viewport.transform as Matrix);
  const [a, b, c, d] = toDisplay;
  if (!(a > 0 && d > 0) || Math.abs(b) > 1e-6 * a || Math.abs(c) > 1e-6 * d) return null;
  const [left, top] = apply(toDisplay, 0, 0);
  const [right, bottom] = apply(toDisplay, width, height);
  const visible = Math.max(0, Math.min(right, viewport.width) - Math.max(left, 0)) * Math.max(0, Math.min(bottom, viewport.height) - Math.max(top, 0));
  if (visible < MIN_COVERAGE * viewport.width * viewport.height) return null;
  const pictureDpi = (width / (right - left)) * 72;
  if (Math.abs((height / (bottom - top)) * 72 - pictureDpi) > 0.02 * pictureDpi) return null; // not square pixels
  if (pictureDpi > dpi * DPI_TOLERANCE || pictureDpi < dpi / DPI_TOLERANCE) return null;
  return { dpi: Math.round(pictureDpi * 100) / 100, toUser: (x, y) => apply(toUserMatrix, x, y) };
}

/**
 * The page's picture, ready for tesseract, when the page is nothing but one upright picture covering it at
 * about the requested resolution; null otherwise (then the page is rendered). The picture's stored bytes are
 * used when tesseract reads them as they are (JPEG) or zlib unpacks them (plain Flate); pdf.js decodes the rest.
 */
export async function embeddedScan(page: PDFPageProxy, dpi: number, source?: PDFDocument): Promise<EmbeddedScan | null> {
  const stored = source ? storedPicture(source, page.pageNumber - 1) : null;
  if (stored) {
    assertImagePixels(stored.width, stored.height, `the picture on page ${page.pageNumber}`);
    const placed = placement(page, stored.matrix, stored.width, stored.height, dpi);
    if (!placed) return null;
    const image = stored.filter === 'jpeg' ? stored.stored : readSamples(stored, placed.dpi);
    return image ? { image, width: stored.width, height: stored.height, ...placed } : null;
  }
  const picture = await onlyPicture(page);
  if (!picture) return null;
  const image = await decodedImage(page, picture.objId);
  if (!image) return null;
  const placed = placement(page, picture.matrix, image.width, image.height, dpi);
  if (!placed) return null;
  const grey = toGrey(image, placed.dpi);
  return grey ? { image: grey, width: image.width, height: image.height, ...placed } : null;
}

// ---- the stored picture, read with pdf-lib without decoding the page through pdf.js ----

/**
 * The picture and its matrix when the whole content is `q`, `Q`, `cm` and one `Do` (a typical scanner page,
 * or pdf-lib's drawImage); null for anything else.
 */
function onlyDrawnName(content: string): { name: string; matrix: Matrix } | null {
  const tokens = content.trim().split(/\s+/);
  let matrix: Matrix = [1, 0, 0, 1, 0, 0];
  const stack: Matrix[] = [];
  const operands: string[] = [];
  let drawn: { name: string; matrix: Matrix } | null = null;
  for (const token of tokens) {
    if (/^[-+]?(?:\d+\.?\d*|\.\d+)$/.test(token) || /^\/[^/[\]<>(){}%]+$/.test(token)) {
      operands.push(token);
      continue;
    }
    if (token === 'q' && operands.length === 0) stack.push(matrix);
    else if (token === 'Q' && operands.length === 0) matrix = stack.pop() ?? matrix;
    else if (token === 'cm' && operands.length === 6 && operands.every((operand) => !operand.startsWith('/'))) matrix = multiply(operands.map(Number) as Matrix, matrix);
    else if (token === 'Do' && operands.length === 1 && operands[0]?.startsWith('/') && !drawn) drawn = { name: operands[0].slice(1), matrix };
    else return null;
    operands.length = 0;
  }
  return operands.length === 0 ? drawn : null;
}

function lookup(context: PDFContext, value: PDFObject | undefined): PDFObject | undefined {
  return value instanceof PDFRef ? context.lookup(value) : value;
}

function pageContent(context: PDFContext, contents: PDFObject | undefined): string | null {
  const value = lookup(context, contents);
  const streams = value instanceof PDFArray ? value.asArray().map((item) => lookup(context, item)) : [value];
  const parts: string[] = [];
  for (const stream of streams) {
    if (!(stream instanceof PDFRawStream)) return null;
    // A scanner page's content is a few dozen bytes; anything long is not one.
    if (stream.contents.length > 4096) return null;
    parts.push(Buffer.from(decodePDFRawStream(stream).decode()).toString('latin1'));
  }
  return parts.join('\n');
}

/** Grey or RGB, as a name or an ICC profile with that many components. */
function components(context: PDFContext, space: PDFObject | undefined): 1 | 3 | null {
  const value = lookup(context, space);
  if (value instanceof PDFName) return value === PDFName.of('DeviceGray') ? 1 : value === PDFName.of('DeviceRGB') ? 3 : null;
  if (value instanceof PDFArray && value.get(0) === PDFName.of('ICCBased')) {
    const profile = lookup(context, value.get(1));
    const n = profile instanceof PDFRawStream ? lookup(context, profile.dict.get(PDFName.of('N'))) : undefined;
    return n instanceof PDFNumber && (n.asNumber() === 1 || n.asNumber() === 3) ? (n.asNumber() as 1 | 3) : null;
  }
  return null;
}

interface StoredPicture {
  width: number;
  height: number;
  matrix: Matrix;
  /** A JPEG tesseract reads as it is, or Flate-compressed 8-bit samples. */
  filter: 'jpeg' | 'flate';
  stored: Uint8Array;
  channels: 1 | 3;
}

/** A stored Flate picture's samples as a grey TIFF; null when they are fewer than its size says. */
function readSamples(stored: StoredPicture, dpi: number): Uint8Array | null {
  try {
    const size = stored.width * stored.height * stored.channels;
    // One output chunk of the expected size: zlib's default 16 KiB chunks would be joined by another copy.
    const samples = inflateSync(stored.stored, { chunkSize: Math.max(64 * 1024, size + 1) });
    return samples.length < size ? null : greyOf(samples, stored.width, stored.height, stored.channels, dpi);
  } catch {
    return null;
  }
}

function storedPicture(source: PDFDocument, pageIndex: number): StoredPicture | null {
  try {
    if (pageIndex < 0 || pageIndex >= source.getPageCount()) return null;
    const { context } = source;
    const node = source.getPage(pageIndex).node;
    const content = pageContent(context, node.Contents());
    const drawn = content === null ? null : onlyDrawnName(content);
    if (!drawn || drawn.name.includes('#')) return null;
    const { matrix } = drawn;
    const name = PDFName.of(drawn.name);
    const xobjects = lookup(context, node.Resources()?.get(PDFName.of('XObject')));
    const stream = xobjects instanceof PDFDict ? lookup(context, xobjects.get(name)) : undefined;
    if (!(stream instanceof PDFRawStream)) return null;
    const get = (key: string) => lookup(context, stream.dict.get(PDFName.of(key)));
    const number = (key: string) => {
      const value = get(key);
      return value instanceof PDFNumber ? value.asNumber() : null;
    };
    const width = number('Width');
    const height = number('Height');
    const channels = components(context, stream.dict.get(PDFName.of('ColorSpace')));
    // Anything that changes what the stored samples mean is left to pdf.js.
    if (get('Subtype') !== PDFName.of('Image') || !width || !height || number('BitsPerComponent') !== 8 || !channels) return null;
    if (['Decode', 'SMask', 'Mask', 'ImageMask', 'DecodeParms'].some((key) => get(key) !== undefined)) return null;
    const filters = get('Filter');
    const filter = filters instanceof PDFArray && filters.size() === 1 ? lookup(context, filters.get(0)) : filters;
    if (filter === PDFName.of('DCTDecode')) return { width, height, matrix, filter: 'jpeg', stored: stream.contents, channels };
    if (filter !== PDFName.of('FlateDecode')) return null;
    return { width, height, matrix, filter: 'flate', stored: stream.contents, channels };
  } catch {
    return null; // anything unexpected: pdf.js decodes the page instead
  }
}
