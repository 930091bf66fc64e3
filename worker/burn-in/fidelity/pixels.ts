import type { Canvas, SKRSContext2D } from '@napi-rs/canvas';
import type { PDFDocumentProxy, PDFPageProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import type { Rect } from '../geometry.js';
import type { Skips } from './tiles.js';
import { drawReadList } from '../display-list.js';

// Renders a page's area in grey and compares two renderings outside masked rectangles.

export interface Grey {
  width: number;
  height: number;
  /** 0 black … 255 white, row by row from the top. */
  pixels: Uint8Array;
}

interface CanvasFactory {
  create(width: number, height: number): { canvas: Canvas; context: SKRSContext2D };
}

/**
 * The user-space rectangle `area` of a page rendered at `dpi`, unrotated, annotations drawn as the burn-in draws
 * them. Pages of different files are rendered on the same grid when given the same area.
 */
export async function renderArea(document: PDFDocumentProxy, page: PDFPageProxy, area: Rect, dpi: number): Promise<Grey> {
  return (await renderAreas(document, page, [area], dpi))[0] ?? { width: 1, height: 1, pixels: new Uint8Array([255]) };
}

/**
 * Several areas of a page in one rendering: the page is drawn once onto their bounding box (pdf.js's work per
 * operator is paid once) and each area's pixels are read from it. Areas on the pixel grid of the bounding box give
 * the pixels each would have rendered alone. The drawing is not clipped to the areas: Skia rasterizes every path
 * through a clip of several rectangles at about three times the cost of drawing the box whole (measured on text
 * pages: 85 ms against 36 ms a page), and what is drawn between the areas is never read.
 */
export async function renderAreas(document: PDFDocumentProxy, page: PDFPageProxy, areas: readonly Rect[], dpi: number, skip?: (list: RenderList) => Set<number> | Skips, fromReadList = false): Promise<Grey[]> {
  if (areas.length === 0) return [];
  // Drawn from the list read (display-list.ts), built first if no reading asked for it yet.
  if (fromReadList) {
    await page.getOperatorList({ intent: 'display', annotationMode: 1 });
    drawReadList(page);
  }
  const scale = dpi / 72;
  const box = { x1: Math.min(...areas.map((a) => a.x1)), y1: Math.min(...areas.map((a) => a.y1)), x2: Math.max(...areas.map((a) => a.x2)), y2: Math.max(...areas.map((a) => a.y2)) };
  const width = Math.max(1, Math.ceil((box.x2 - box.x1) * scale));
  const height = Math.max(1, Math.ceil((box.y2 - box.y1) * scale));
  // Drawn with a margin: no pixel read lies on the canvas's edge, so a kept canvas, larger than the box and not
  // cut to it, gives the very pixels a canvas of the box's own size would (pdf.js fills the whole canvas white first).
  const drawing = canvasFor(document, width + 2 * EDGE_MARGIN, height + 2 * EDGE_MARGIN);
  const { canvas, context } = drawing;
  const placed = areas.map((area) => ({
    left: EDGE_MARGIN + Math.round((area.x1 - box.x1) * scale),
    top: EDGE_MARGIN + Math.round((box.y2 - area.y2) * scale),
    width: Math.max(1, Math.ceil((area.x2 - area.x1) * scale)),
    height: Math.max(1, Math.ceil((area.y2 - area.y1) * scale)),
  }));
  const viewport = page.getViewport({ scale, rotation: 0 });
  const [x0 = 0, , , y1 = 0] = page.view;
  // The page's own view maps (x0, y1) to pixel (0, 0); shift it so (box.x1, box.y2) lands at the margin instead.
  const transform = [1, 0, 0, 1, (x0 - box.x1) * scale + EDGE_MARGIN, (box.y2 - y1) * scale + EDGE_MARGIN];
  const filter = skip && new Skipping(page, skip);
  // pdf.js draws relative to the context's transform and balances its own saves: a rendering that throws leaves
  // the context as it stopped, so that canvas is never used again.
  context.save();
  let finished = false;
  try {
    await page.render({ canvas: canvas as never, canvasContext: context as never, viewport, transform, annotationMode: 1, intent: 'display', ...(filter && { operationsFilter: filter.keep }) }).promise;
    finished = true;
  } finally {
    filter?.restore();
    context.restore();
    if (!finished) drawing.done(false);
  }
  const read = placed.map((at) => {
    const rgba = context.getImageData(at.left, at.top, at.width, at.height).data;
    const pixels = new Uint8Array(at.width * at.height);
    // getImageData gives exactly width × height × 4 bytes: every index read here exists.
    for (let index = 0, offset = 0; index < pixels.length; index += 1, offset += 4) {
      pixels[index] = ((rgba[offset] as number) * 77 + (rgba[offset + 1] as number) * 150 + (rgba[offset + 2] as number) * 29) >>> 8;
    }
    return { width: at.width, height: at.height, pixels };
  });
  drawing.done(true);
  return read;
}

/** Canvas pixels around the areas' bounding box, drawn but never read. */
export const EDGE_MARGIN = 2;
/** Pixels of the largest canvas a thread keeps (a 17 × 22 in page at 100 dpi, 16 MB); larger ones are made each time. */
const KEPT_CANVAS_PIXELS = 4_000_000;
/** Canvases a thread keeps: a check draws its two pages at once. */
const KEPT_CANVASES = 2;
const spare: { canvas: Canvas; context: SKRSContext2D }[] = [];

/**
 * A canvas of at least width × height: one the thread kept when one fits (else the largest kept one grown to fit,
 * up to KEPT_CANVAS_PIXELS), else a canvas of its own. A new canvas costs Skia a new surface whose first drawing
 * faults in and fills all of its memory (an 830 × 550 box: about 6 ms against 0.1 ms on a kept one), twice a
 * checked page. pdf.js fills the whole canvas white before drawing, so what an earlier rendering left never
 * counts. `done(true)` gives it back for the next rendering.
 */
function canvasFor(document: PDFDocumentProxy, width: number, height: number): { canvas: Canvas; context: SKRSContext2D; done: (reuse: boolean) => void } {
  // Smallest first: the one that fits best, else the largest one grown.
  spare.sort((a, b) => a.canvas.width * a.canvas.height - b.canvas.width * b.canvas.height);
  const fits = spare.findIndex(({ canvas }) => canvas.width >= width && canvas.height >= height);
  const largest = spare.at(-1)?.canvas;
  const grown = { width: Math.max(width, largest?.width ?? 0), height: Math.max(height, largest?.height ?? 0) };
  let entry: { canvas: Canvas; context: SKRSContext2D } | undefined;
  if (fits >= 0) entry = spare.splice(fits, 1)[0];
  else if (grown.width * grown.height <= KEPT_CANVAS_PIXELS) {
    spare.pop();
    entry = (document.canvasFactory as CanvasFactory).create(grown.width, grown.height);
  }
  if (!entry) return { ...(document.canvasFactory as CanvasFactory).create(width, height), done: () => undefined };
  const taken = entry;
  taken.context.setTransform(1, 0, 0, 1, 0, 0);
  return { ...taken, done: (reuse) => void (reuse && spare.length < KEPT_CANVASES && spare.push(taken)) };
}

export interface RenderList {
  fnArray: number[];
  argsArray: unknown[];
}

interface IntentStates {
  _intentStates?: Map<string, { operatorList?: RenderList & { lastChunk?: boolean } }>;
  _transport?: { getRenderingIntent(intent: string, annotationMode: number): { cacheKey: string } };
}

/** Keeps a glyph in its text operator's glyph array, advance and all, but undrawn (pdf.js draws glyphs isInFont). */
function undrawn(glyph: unknown): unknown {
  return { ...(glyph as object), isInFont: false };
}

/**
 * pdf.js's filter of a rendering's operators (its operator list for display, optimised, is not the one
 * getOperatorList gives): decided once the whole list has arrived, every operator drawn until then. pdf.js reads
 * an operator's arguments after asking the filter, so a text operator with glyphs to leave out is handed a copy of
 * its glyphs there, and the list's own arguments are put back once the rendering ends (`restore`). `keep` is a
 * method bound once, not a closure made per rendering: V8 keeps a function's optimised code only while a closure
 * using it lives, and pdf.js calls the filter once per operator.
 */
class Skipping {
  private skipped: Skips | null = null;
  private list: (RenderList & { lastChunk?: boolean }) | undefined;
  private readonly swapped = new Map<number, unknown>();
  readonly keep: (index: number) => boolean = this.keepOperator.bind(this);

  constructor(
    private readonly page: PDFPageProxy,
    private readonly skip: (list: RenderList) => Set<number> | Skips,
  ) {}

  private keepOperator(index: number): boolean {
    if (!this.skipped) {
      const internals = this.page as unknown as IntentStates;
      const key = internals._transport?.getRenderingIntent('display', 1).cacheKey;
      this.list = key === undefined ? undefined : internals._intentStates?.get(key)?.operatorList;
      if (!this.list?.lastChunk) return true;
      const decided = this.skip(this.list);
      this.skipped = decided instanceof Set ? { ops: decided, glyphs: new Map() } : decided;
    }
    if (this.skipped.ops.has(index)) return false;
    const hide = this.skipped.glyphs.get(index);
    const list = this.list;
    const args = list?.argsArray[index] as unknown[] | undefined;
    if (hide && list && Array.isArray(args?.[0]) && !this.swapped.has(index)) {
      const glyphs = [...(args[0] as unknown[])];
      for (const at of hide) glyphs[at] = undrawn(glyphs[at]);
      this.swapped.set(index, args);
      list.argsArray[index] = [glyphs, ...args.slice(1)];
    }
    return true;
  }

  /** The list's own arguments put back once the rendering ends. */
  restore(): void {
    for (const [index, args] of this.swapped) if (this.list) this.list.argsArray[index] = args;
  }
}

/** 2×2 box average: what a comparison of page images made at another resolution and bit depth looks at. */
export function halve(image: Grey): Grey {
  const width = Math.max(1, image.width >> 1);
  const height = Math.max(1, image.height >> 1);
  const pixels = new Uint8Array(width * height);
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      const at = 2 * y * image.width + 2 * x;
      const sum = (image.pixels[at] ?? 255) + (image.pixels[at + 1] ?? 255) + (image.pixels[at + image.width] ?? 255) + (image.pixels[at + image.width + 1] ?? 255);
      pixels[y * width + x] = sum >> 2;
    }
  }
  return { width, height, pixels };
}

export interface PixelComparison {
  compared: number;
  differing: number;
  /** Bounding box of the differing pixels (pixel grid), for a reason message; null when none differ. */
  where: { x1: number; y1: number; x2: number; y2: number } | null;
}

/** Counts pixels outside every mask rectangle (pixel grid, inclusive-exclusive) whose grey differs by more than `grey`. */
export function comparePixels(a: Grey, b: Grey, masks: readonly Rect[], grey: number): PixelComparison {
  const width = Math.min(a.width, b.width);
  const height = Math.min(a.height, b.height);
  const masked = new Uint8Array(width * height);
  for (const mask of masks) {
    const left = Math.max(0, Math.floor(mask.x1));
    const right = Math.min(width, Math.ceil(mask.x2));
    for (let y = Math.max(0, Math.floor(mask.y1)); y < Math.min(height, Math.ceil(mask.y2)); y += 1) masked.fill(1, y * width + left, y * width + Math.max(left, right));
  }
  let compared = 0;
  let differing = 0;
  let where: PixelComparison['where'] = null;
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      if (masked[y * width + x]) continue;
      compared += 1;
      if (Math.abs((a.pixels[y * a.width + x] ?? 255) - (b.pixels[y * b.width + x] ?? 255)) > grey) {
        differing += 1;
        where = where ? { x1: Math.min(where.x1, x), y1: Math.min(where.y1, y), x2: Math.max(where.x2, x + 1), y2: Math.max(where.y2, y + 1) } : { x1: x, y1: y, x2: x + 1, y2: y + 1 };
      }
    }
  }
  return { compared, differing, where };
}
