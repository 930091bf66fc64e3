import os from 'node:os';
import { OPS, type PDFDocumentProxy, type PDFPageProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import type { PageWord } from '../../main/common/schemas/pages.js';
import { greyTiff } from './grey-tiff.js';
import type { PixelWord } from './tsv.js';
import { boxAround, round, type LinedWord } from './words.js';

// A PDF page drawn to grey pixels for tesseract, and tesseract's pixel boxes taken back to PDF user space
// through the same pdf.js viewport, so the page's rotation and crop box offset are undone exactly.

/** Beyond this many pixels a page is drawn at a lower resolution (a poster at 300 dpi would need gigabytes). */
export const MAX_RENDER_PIXELS = 50_000_000;

type Viewport = ReturnType<PDFPageProxy['getViewport']>;

interface RenderCanvas {
  width: number;
  height: number;
  /** @napi-rs/canvas: the raw RGBA pixels without a copy through ImageData. */
  data(): Uint8Array;
}

interface CanvasAndContext {
  canvas: RenderCanvas;
  context: object;
}

interface CanvasFactory {
  create(width: number, height: number): CanvasAndContext;
  destroy(canvasAndContext: CanvasAndContext): void;
}

const hasFunction = (value: object, name: string) => name in value && typeof (value as Record<string, unknown>)[name] === 'function';

function isCanvasFactory(value: unknown): value is CanvasFactory {
  return typeof value === 'object' && value !== null && hasFunction(value, 'create') && hasFunction(value, 'destroy');
}

function isCanvasAndContext(value: unknown): value is CanvasAndContext {
  if (typeof value !== 'object' || value === null || !('canvas' in value) || !('context' in value)) return false;
  const { canvas, context } = value;
  return typeof canvas === 'object' && canvas !== null && hasFunction(canvas, 'data') && typeof context === 'object' && context !== null;
}

/**
 * Canvases come from pdf.js's own factory: pdf.js draws images on scratch canvases of the @napi-rs/canvas
 * copy it resolves itself, and drawing one library's canvas onto another's crashes the process.
 */
function createCanvas(document: PDFDocumentProxy, width: number, height: number): { pair: CanvasAndContext; factory: CanvasFactory } {
  const factory: unknown = document.canvasFactory;
  if (!isCanvasFactory(factory)) throw new Error('pdf.js offers no canvas factory: is @napi-rs/canvas installed?');
  const pair: unknown = factory.create(width, height);
  if (!isCanvasAndContext(pair)) throw new Error('pdf.js created a canvas without raw pixel access (@napi-rs/canvas expected)');
  return { pair, factory };
}

export interface RenderedPage {
  /** Uncompressed 8-bit grey TIFF (see grey-tiff.ts). */
  image: Uint8Array;
  width: number;
  height: number;
  dpi: number;
  viewport: Viewport;
}

export async function renderPage(document: PDFDocumentProxy, page: PDFPageProxy, dpi: number): Promise<RenderedPage> {
  const unscaled = page.getViewport({ scale: 1 });
  const scale = Math.min(dpi / 72, Math.sqrt(MAX_RENDER_PIXELS / Math.max(1, unscaled.width * unscaled.height)));
  const viewport = page.getViewport({ scale });
  const width = Math.max(1, Math.round(viewport.width));
  const height = Math.max(1, Math.round(viewport.height));
  const { pair, factory } = createCanvas(document, width, height);
  try {
    await page.render({ canvasContext: pair.context, canvas: pair.canvas, viewport, background: 'rgb(255,255,255)' }).promise;
    const renderedDpi = round(scale * 72, 2);
    return { image: toGreyTiff(pair.canvas.data(), width, height, renderedDpi), width, height, dpi: renderedDpi, viewport };
  } finally {
    factory.destroy(pair);
  }
}

const LITTLE_ENDIAN = os.endianness() === 'LE';

/** RGBA (opaque: drawn on white) to 8-bit luma with Rec. 601 weights, as a grey TIFF. */
export function toGreyTiff(rgba: Uint8Array, width: number, height: number, dpi: number | null): Uint8Array {
  const { bytes, pixels: out } = greyTiff(width, height, dpi);
  const pixels = width * height;
  let target = 0;
  if (LITTLE_ENDIAN && rgba.byteOffset % 4 === 0) {
    // One 32-bit read per pixel (R in the low byte): a page is 8 million pixels.
    const words = new Uint32Array(rgba.buffer, rgba.byteOffset, pixels);
    for (let index = 0; index < pixels; index += 1) {
      const pixel = words[index] ?? 0xffffffff;
      out[target++] = ((pixel & 0xff) * 77 + ((pixel >>> 8) & 0xff) * 150 + ((pixel >>> 16) & 0xff) * 29) >> 8;
    }
    return bytes;
  }
  for (let source = 0; source < pixels * 4; source += 4) {
    out[target++] = ((rgba[source] ?? 255) * 77 + (rgba[source + 1] ?? 255) * 150 + (rgba[source + 2] ?? 255) * 29) >> 8;
  }
  return bytes;
}

/** Pixel boxes (top-left origin) of a rendered page to PDF user space, unrotated, crop box offset undone. */
export function wordsToPdfSpace(words: readonly PixelWord[], viewport: Viewport): LinedWord[] {
  const point = (x: number, y: number): [number, number] => {
    const [px = 0, py = 0] = viewport.convertToPdfPoint(x, y).map(Number);
    return [px, py];
  };
  return words.map((word) => ({ word: boxAround(word.text, [point(word.left, word.top), point(word.right, word.bottom)], round(word.confidence, 2)), line: word.line }));
}

/** Pixel boxes (top-left origin) of a page's own scanned picture to PDF user space, through its matrix. */
export function wordsToUserSpace(words: readonly PixelWord[], toUser: (x: number, y: number) => [number, number]): LinedWord[] {
  return words.map((word) => ({ word: boxAround(word.text, [toUser(word.left, word.top), toUser(word.right, word.bottom)], round(word.confidence, 2)), line: word.line }));
}

/** Pixel boxes of an image document as stored: pixels, origin top-left, y down. */
export function wordsInPixels(words: readonly PixelWord[]): LinedWord[] {
  return words.map((word): LinedWord => {
    const box: PageWord = { text: word.text, x1: word.left, y1: word.top, x2: word.right, y2: word.bottom, confidence: round(word.confidence, 2) };
    return { word: box, line: word.line };
  });
}

function determinant(value: unknown): number | null {
  if (!Array.isArray(value) && !ArrayBuffer.isView(value)) return null;
  const [a, b, c, d] = Array.from(value as ArrayLike<unknown>, Number);
  if (a === undefined || b === undefined || c === undefined || d === undefined || [a, b, c, d].some((n) => !Number.isFinite(n))) return null;
  return a * d - b * c;
}

const IMAGE_OPS = new Set<number>([OPS.paintImageXObject, OPS.paintInlineImageXObject, OPS.paintImageMaskXObject, OPS.paintImageXObjectRepeat]);

/**
 * The share of the page's visible area painted by images (0..1, overlaps counted twice): a scan carries a
 * page-sized image. An image is the unit square under the current matrix, so its area is the matrix's
 * determinant; only that needs tracking through save/restore, cm and form XObjects.
 */
export async function imageCoverage(page: PDFPageProxy, view: readonly [number, number, number, number]): Promise<number> {
  const pageArea = (view[2] - view[0]) * (view[3] - view[1]);
  if (pageArea <= 0) return 0;
  const list = await page.getOperatorList();
  let scale = 1;
  const stack: number[] = [];
  let area = 0;
  list.fnArray.forEach((fn, index) => {
    const args: unknown = list.argsArray[index];
    if (fn === OPS.save) stack.push(scale);
    else if (fn === OPS.restore || fn === OPS.paintFormXObjectEnd) scale = stack.pop() ?? scale;
    else if (fn === OPS.transform) scale *= determinant(args) ?? 1;
    else if (fn === OPS.paintFormXObjectBegin) {
      stack.push(scale);
      scale *= (Array.isArray(args) ? determinant(args[0]) : null) ?? 1;
    } else if (IMAGE_OPS.has(fn)) area += Math.abs(scale);
  });
  return Math.min(1, area / pageArea);
}
