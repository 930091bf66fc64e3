import fs from 'node:fs';
import { threadId } from 'node:worker_threads';
import type { Canvas, SKRSContext2D } from '@napi-rs/canvas';
import type { PDFDocumentProxy, PDFPageProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import type { BurnBox, BurnedPage, BurnPageRequest, BurnSettings, ExportBurnResult, ExportBurnTask, ExportSource, LayerWord, RasterizedPage } from '../../main/common/export-tasks.js';
import type { PageWord } from '../../main/common/schemas/pages.js';
import { mayBeCovered, type Rect } from './geometry.js';
import { asRects, drawnAreas } from './fidelity/index.js';
import { hiddenContent, readAnew, readGlyphs } from '../pdf-glyphs/index.js';
import { openKept, type KeptSource } from './kept-sources.js';
import { glyphLayer, type GlyphLayer } from './text-layer/from-glyphs.js';
import { fontWidthsOf, openPdf, textRuns } from './pdfjs.js';
import { boxPixelRects, encodePage, imageOnWhite, paintBoxes, type ToPixel } from './raster.js';
import { tiffAsPdf } from './tiff.js';
import { rewritePages, type VectorOutcome } from './vector-pages.js';
import { layerText, token, wordsFromRuns, type SourceWord } from './words.js';

// Burn-in of one document's pages: render, black out the boxes, keep the words outside them.

/** A page on a canvas, with the mappings between the document's units, the canvas and the output page. */
interface Raster {
  canvas: Canvas;
  context: SKRSContext2D;
  toPixel: ToPixel;
  pixelsPerUnit: number;
  /** Padding in the document's units. */
  padding: number;
  rotate: 0 | 90 | 180 | 270;
  /** The visible area in the document's units; words outside it were not visible and are dropped. */
  visible: Rect;
  /** Output page MediaBox, and where the image goes on it. */
  box: [number, number, number, number];
  place: [number, number, number, number];
  /** Document units → output page user space. */
  toOutput(x: number, y: number): [number, number];
}

interface CanvasFactory {
  create(width: number, height: number): { canvas: Canvas; context: SKRSContext2D };
}

// One canvas per document and page size, reused page after page: a 200 dpi page is a 15 MB surface, and
// allocating one per page costs time and garbage collection. The page is encoded before the next one draws.
const canvases = new WeakMap<PDFDocumentProxy, { canvas: Canvas; context: SKRSContext2D }>();

function canvasFor(document: PDFDocumentProxy, width: number, height: number): { canvas: Canvas; context: SKRSContext2D } {
  const reusable = canvases.get(document);
  if (reusable && reusable.canvas.width === width && reusable.canvas.height === height) {
    reusable.context.setTransform(1, 0, 0, 1, 0, 0);
    return reusable;
  }
  // pdf.js draws glyphs with Path2D objects of its own copy of @napi-rs/canvas, which only its canvases accept.
  const created = (document.canvasFactory as CanvasFactory).create(width, height);
  canvases.set(document, created);
  return created;
}

function normalizedRotation(degrees: number): 0 | 90 | 180 | 270 {
  const value = (((Math.round(degrees / 90) * 90) % 360) + 360) % 360;
  return value as 0 | 90 | 180 | 270;
}

/** Renders a PDF page unrotated at the export dpi; the output page keeps its visible box and /Rotate. */
async function rasterOfPdfPage(document: PDFDocumentProxy, page: PDFPageProxy, settings: BurnSettings): Promise<Raster> {
  const scale = settings.dpi / 72;
  const viewport = page.getViewport({ scale, rotation: 0 });
  if (viewport.width * viewport.height > MAX_PAGE_PIXELS) {
    throw new Error(`page ${page.pageNumber} is too large to render at ${settings.dpi} dpi (${Math.round(viewport.width)} × ${Math.round(viewport.height)} pixels); export with a lower options.dpi`);
  }
  const { canvas, context } = canvasFor(document, Math.max(1, Math.ceil(viewport.width)), Math.max(1, Math.ceil(viewport.height)));
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, canvas.width, canvas.height);
  // pdf.js's types name DOM canvases; in Node its own @napi-rs/canvas ones are what it draws on.
  await page.render({ canvas: canvas as never, canvasContext: context as never, viewport, annotationMode: 1, intent: 'display' }).promise;
  const [x0 = 0, y0 = 0, x1 = 0, y1 = 0] = page.view;
  return {
    canvas,
    context,
    toPixel: (x, y) => [(x - x0) * scale, (y1 - y) * scale],
    pixelsPerUnit: scale,
    padding: settings.padding,
    rotate: normalizedRotation(page.rotate),
    visible: { x1: x0, y1: y0, x2: x1, y2: y1 },
    box: [x0, y0, x1, y1],
    place: [x0, y1 - canvas.height / scale, canvas.width / scale, canvas.height / scale],
    toOutput: (x, y) => [x, y],
  };
}

/** An image page at its own pixels; the output page measures the pixels at the export dpi. */
function rasterOfImage(canvas: Canvas, context: SKRSContext2D, settings: BurnSettings): Raster {
  const unit = 72 / settings.dpi;
  const width = canvas.width * unit;
  const height = canvas.height * unit;
  return {
    canvas,
    context,
    toPixel: (x, y) => [x, y],
    pixelsPerUnit: 1,
    padding: settings.padding / unit,
    rotate: 0,
    visible: { x1: 0, y1: 0, x2: canvas.width, y2: canvas.height },
    box: [0, 0, width, height],
    place: [0, 0, width, height],
    toOutput: (x, y) => [x * unit, height - y * unit],
  };
}

function storedWords(words: readonly PageWord[] | null): SourceWord[] | null {
  if (!words) return null;
  return words
    .filter((word) => word.text.trim() !== '')
    .map((word) => ({ text: word.text, x1: Math.min(word.x1, word.x2), y1: Math.min(word.y1, word.y2), x2: Math.max(word.x1, word.x2), y2: Math.max(word.y1, word.y2), slackX: 0, slackY: 0 }));
}

function asLayer(words: readonly SourceWord[]): LayerWord[] {
  return words.map(({ text, x1, y1, x2, y2 }) => ({ text, x1, y1, x2, y2 }));
}

/**
 * Sorts the words of a page: a word is withheld when any part of it may lie under a box (grown by the padding,
 * a quarter unit, and along the line by the word's own uncertainty) or when it lay outside the visible area.
 * Everything else forms the invisible text layer.
 */
async function sortWords(raster: Raster, boxes: readonly BurnBox[], layerSource: readonly SourceWord[], alsoCheck: readonly SourceWord[]) {
  const margin = raster.padding + 0.25;
  const withheld = new Set<string>();
  const kept: SourceWord[] = [];
  for (const word of layerSource) {
    if (mayBeCovered(word, boxes, margin, raster.visible)) withheld.add(token(word.text));
    else kept.push(word);
  }
  // The page's own text layer outranks stored words where they disagree: a word it puts under a box may stand
  // in the layer only as often as it also stands outside every box there.
  const allowance = new Map<string, number>();
  for (const word of alsoCheck) {
    const text = token(word.text);
    if (mayBeCovered(word, boxes, margin, raster.visible)) withheld.add(text);
    else allowance.set(text, (allowance.get(text) ?? 0) + 1);
  }
  const words: LayerWord[] = [];
  for (const word of kept) {
    const key = token(word.text);
    if (alsoCheck.length > 0 && withheld.has(key)) {
      const left = allowance.get(key) ?? 0;
      if (left <= 0) continue;
      allowance.set(key, left - 1);
    }
    const text = await layerText(word.text);
    if (text === '') continue;
    const [ax, ay] = raster.toOutput(word.x1, word.y1);
    const [bx, by] = raster.toOutput(word.x2, word.y2);
    words.push({ text, x1: Math.min(ax, bx), y1: Math.min(ay, by), x2: Math.max(ax, bx), y2: Math.max(ay, by) });
  }
  return { words, withheld: [...withheld] };
}

/** Paints the boxes on the rendered page, writes its picture and describes it with its text layer. */
async function paintedPage(raster: Raster, request: BurnPageRequest, layer: { words: LayerWord[]; withheld: string[] }, settings: BurnSettings, file: string, fallback: string | null): Promise<RasterizedPage> {
  const paint = { toPixel: raster.toPixel, padding: raster.padding, pixelsPerUnit: raster.pixelsPerUnit, labels: settings.labels, rotate: raster.rotate };
  paintBoxes(raster.context, request.boxes, paint);
  const image = await encodePage(raster.canvas, settings, boxPixelRects(request.boxes, paint));
  fs.writeFileSync(file, image.bytes);
  return {
    method: 'raster',
    page: request.page,
    box: raster.box,
    rotate: raster.rotate,
    image: { path: file, encoding: image.encoding, width: image.width, height: image.height, place: raster.place },
    words: layer.words,
    withheld: layer.withheld,
    fallback,
    drawnAreas: drawnAreas(request.boxes, raster.padding),
  };
}

async function finishPage(
  raster: Raster,
  request: BurnPageRequest,
  layerSource: SourceWord[],
  alsoCheck: SourceWord[],
  settings: BurnSettings,
  file: string,
  fallback: string | null = null,
): Promise<RasterizedPage> {
  return paintedPage(raster, request, await sortWords(raster, request.boxes, layerSource, alsoCheck), settings, file, fallback);
}

/**
 * Burns one page of an open PDF (pdf.js): stored words make the text layer when given, else the page's own.
 * `fallback` says why the page is rendered though method auto tried it in its content.
 */
export async function burnPdfPage(document: PDFDocumentProxy, request: BurnPageRequest, settings: BurnSettings, file: string, fallback: string | null = null, keepHidden = false, kept?: KeptSource): Promise<RasterizedPage> {
  const page = await document.getPage(request.page);
  const reader = kept?.reader ?? readAnew;
  try {
    const raster = await rasterOfPdfPage(document, page, settings);
    const stored = storedWords(request.words);
    if (stored) {
      // Stored (OCR) words make the layer; the page's own text outranks them where they disagree.
      const fromRuns = await wordsFromRuns(await textRuns(page, reader), fontWidthsOf(page));
      return { ...(await finishPage(raster, request, stored, fromRuns, settings, file, fallback)), stored: asLayer(stored) };
    }
    // Without stored words the layer is the source's own glyphs, each judged by its own extent (text-layer/from-glyphs.ts).
    const layer = glyphLayer(await reader.glyphs(document, page), asRects(drawnAreas(request.boxes, raster.padding)), raster.visible, keepHidden);
    return await finishGlyphPage(raster, request, layer, settings, file, fallback);
  } finally {
    // A rendered page's operator list is let go (its pictures decoded); its readings serve the check.
    if (kept) await kept.keep(page, false);
    else page.cleanup();
  }
}

async function finishGlyphPage(raster: Raster, request: BurnPageRequest, layer: GlyphLayer, settings: BurnSettings, file: string, fallback: string | null): Promise<RasterizedPage> {
  const words = layer.words.map((word) => {
    const [ax, ay] = raster.toOutput(word.x1, word.y1);
    const [bx, by] = raster.toOutput(word.x2, word.y2);
    return { text: word.text.replace(/\s+/gu, ''), x1: Math.min(ax, bx), y1: Math.min(ay, by), x2: Math.max(ax, bx), y2: Math.max(ay, by), ...(word.vertical && { vertical: true }), ...(word.drawnLeftToRight && { drawnLeftToRight: true }), ...(word.turn && { turn: word.turn }) };
  });
  return paintedPage(raster, request, { words, withheld: [...new Set(layer.withheld)] }, settings, file, fallback);
}

/** The document's stored bytes; the error names the document, not the data directory's path. */
export async function readSource(source: ExportSource): Promise<Uint8Array> {
  // Synchronous file work throughout the export's worker code: a task has its thread to itself, so nothing
  // waits longer, and no step queues behind the process's shared libuv pool (an awaited 57 KB read took up to
  // 0.5 s there while both cores were busy).
  try {
    return new Uint8Array(fs.readFileSync(source.path));
  } catch {
    throw new Error(`the stored file of document ${source.documentId} cannot be read`);
  }
}

/** Beyond this many pixels a page would need hundreds of megabytes: refused with a way out. */
const MAX_PAGE_PIXELS = 60_000_000;

function pageFile(prefix: string, source: ExportSource, page: number): string {
  return `${prefix}-d${source.documentId}-p${page}.img`;
}

function requestsFor(task: ExportBurnTask, pageCount: number): BurnPageRequest[] {
  for (const request of task.pages) {
    if (request.page > pageCount) throw new Error(`document ${task.source.documentId} has ${pageCount} page(s) but a redaction or stored text names page ${request.page}`);
  }
  // Pages withheld in full are never rendered (their placeholder is drawn at assembly).
  const skip = new Set(task.skipPages ?? []);
  if (!task.allPages) return task.pages.filter((request) => !skip.has(request.page));
  const byPage = new Map(task.pages.map((request) => [request.page, request]));
  return Array.from({ length: pageCount }, (_, index) => byPage.get(index + 1) ?? { page: index + 1, boxes: [], words: null }).filter((request) => !skip.has(request.page));
}

/**
 * Pages of the sweep (task.sweepExcept: every page but those) that hold text a viewer of the source does not show:
 * they are burned too, with no box, so what is hidden never travels (rendered, their layer only what shows).
 */
async function hiddenPages(document: PDFDocumentProxy, task: ExportBurnTask): Promise<BurnPageRequest[]> {
  if (!task.sweepExcept) return [];
  // A review copy that keeps hidden content: every page is looked at (to report it), none is burned for it.
  const except = new Set([...(task.keepHidden ? [] : task.sweepExcept), ...(task.skipPages ?? [])]);
  const found: BurnPageRequest[] = [];
  for (let number = 1; number <= document.numPages; number += 1) {
    if (except.has(number)) continue;
    const page = await document.getPage(number);
    try {
      if (hiddenContent(await readGlyphs(document, page)).length > 0) found.push({ page: number, boxes: [], words: null });
    } finally {
      page.cleanup();
    }
  }
  return found;
}

/** The export-burn task: every requested page of one document, written as page images beside the export. */
export async function burnPages(task: ExportBurnTask, report: (fraction: number) => void): Promise<ExportBurnResult> {
  const bytes = await readSource(task.source);
  const pages: BurnedPage[] = [];
  if (task.source.documentType === 'png' || task.source.documentType === 'jpeg') {
    const requests = requestsFor(task, 1);
    for (const request of requests) {
      const { canvas, context } = await imageOnWhite(bytes);
      const stored = storedWords(request.words) ?? [];
      pages.push({ ...(await finishPage(rasterOfImage(canvas, context, task.settings), request, stored, [], task.settings, pageFile(task.workPrefix, task.source, request.page))), stored: asLayer(stored) });
    }
    report(1);
    return { kind: 'export-burn', pageCount: 1, pages };
  }
  const isTiff = task.source.documentType === 'tiff';
  // A PDF source stays open on this thread with what the burn read of its pages, for the export's check
  // (kept-sources.ts); a TIFF's wrapper is made anew each time.
  const kept = isTiff ? null : openKept(task.exportId, task.source.path, () => openPdf(bytes));
  let document: PDFDocumentProxy;
  try {
    document = kept ? await kept.document : await openPdf((await tiffAsPdf(bytes)).pdf);
  } catch (error) {
    kept?.release();
    throw error;
  }
  try {
    const found = isTiff ? [] : await hiddenPages(document, task);
    const swept = task.keepHidden ? [] : found;
    const requests = [...requestsFor(task, document.numPages), ...swept];
    const sweptPages = new Set(swept.map((request) => request.page));
    const flattenedText = new Map<number, SourceWord[]>();
    // Pages the written file's check refused in their content are rendered with that reason, never tried again.
    const forced = new Map((task.render ?? []).map((entry) => [entry.page, entry.reason]));
    const rewritable = requests.filter((request) => !forced.has(request.page));
    const rewritten: Map<number, VectorOutcome> = !isTiff && task.settings.method === 'auto' ? await rewritePages(document, bytes, rewritable, task, flattenedText, kept ?? undefined) : new Map();
    for (const [page, reason] of forced) rewritten.set(page, reason);
    for (const [index, request] of requests.entries()) {
      const file = pageFile(task.workPrefix, task.source, request.page);
      const outcome = rewritten.get(request.page);
      if (outcome !== undefined && typeof outcome !== 'string') {
        pages.push(outcome);
      } else if (isTiff) {
        // The wrapper's page measures the image in pixels: render it 1:1 and treat it like any image.
        const page = await document.getPage(request.page);
        const raster = await rasterOfPdfPage(document, page, { ...task.settings, dpi: 72 });
        page.cleanup();
        const stored = storedWords(request.words) ?? [];
        pages.push({ ...(await finishPage(rasterOfImage(raster.canvas, raster.context, task.settings), request, stored, [], task.settings, file)), stored: asLayer(stored) });
      } else {
        const reason = sweptPages.has(request.page) ? 'the page holds text its viewer does not show' : null;
        pages.push(await burnPdfPage(document, request, task.settings, file, outcome ?? reason, task.keepHidden === true, kept ?? undefined));
      }
      report((index + 1) / requests.length);
    }
    // Kept: on copied and rewritten pages as in the source, on rendered ones in the text layer (burnPdfPage).
    return { kind: 'export-burn', pageCount: document.numPages, pages, thread: threadId, ...(task.keepHidden && { hiddenKept: found.map((request) => request.page) }) };
  } finally {
    if (kept) kept.release();
    else await document.destroy();
  }
}
