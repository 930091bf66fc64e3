import { assertImageFile, assertImagePixels, assertPageCount } from '../limits.js';
import fs from 'node:fs/promises';
import type { PDFDocument } from 'pdf-lib';
import type { PDFDocumentProxy, PDFPageProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import type { OcrPageOutput, OcrPageReason, OcrPageTask, OcrPlan, OcrPlanPage, OcrPlanTask } from '../../main/common/ocr-tasks.js';
import { recognize } from './engine.js';
import { openPdf, openPdfStructure, planPdf, rotationOf, viewOf } from './pdf.js';
import { imageOnWhite } from '../burn-in/raster.js';
import { embeddedScan } from './embedded-scan.js';
import { imageCoverage, renderPage, toGreyTiff, wordsInPixels, wordsToPdfSpace, wordsToUserSpace } from './render.js';
import { readTextLayer } from './text-layer.js';
import { tiffPageFile, tiffPageSizes } from './tiff-pages.js';
import type { PixelWord } from './tsv.js';
import { meanConfidence, pageText, round, type LinedWord } from './words.js';

// The OCR kind's worker side: a plan of the document, then one page at a time (text layer or OCR).

/**
 * A scan with a few words of real text on top (a Bates number, a stamp) has a text layer, but the page's
 * content is in the image: below this many characters, a page mostly covered by images is recognised.
 */
export const SPARSE_TEXT_CHARS = 200;
export const SCANNED_IMAGE_COVERAGE = 0.5;

export async function ocrPlan(task: OcrPlanTask): Promise<OcrPlan> {
  if (task.documentType === 'pdf') return planPdf(await openPdf(task.blobPath));
  const sizes = task.documentType === 'tiff' ? await tiffPageSizes(task.blobPath) : null;
  const pages: OcrPlanPage[] = (sizes ?? [{ width: null, height: null }]).map((size, index) => ({ page_number: index + 1, ...size, rotation: 0, view: null }));
  return { unit: 'image_pixels', page_count: pages.length, pages };
}

export async function ocrPage(task: OcrPageTask): Promise<OcrPageOutput> {
  const started = performance.now();
  if (task.documentType !== 'pdf') return recognizeImage(task, started);
  const document = await openPdf(task.blobPath);
  const page = await document.getPage(task.pageNumber);
  try {
    const view = viewOf(page);
    const layer = await readTextLayer(page, view);
    const reason = await chooseReason(task, page, view, layer.chars);
    const base = { page_number: task.pageNumber, unit: 'pdf_points' as const, width: round(view[2] - view[0]), height: round(view[3] - view[1]), rotation: rotationOf(page), text_layer_chars: layer.chars };
    if (reason === 'text_layer') {
      const total = performance.now() - started;
      return { ...base, ...content(layer.words), source: 'text_layer', mean_confidence: null, dpi: null, reason, image_source: null, timings_ms: { render: 0, recognize: 0, total: round(total, 1) } };
    }
    const renderStarted = performance.now();
    const prepared = await prepareForOcr(document, page, task.dpi, await openPdfStructure(task.blobPath));
    const recognizeStarted = performance.now();
    const recognized = await recognize(prepared.image, { language: task.language, model: task.model, dpi: prepared.dpi });
    const words = prepared.toPdfSpace(recognized.words);
    const done = performance.now();
    return {
      ...base,
      ...content(words),
      source: 'ocr',
      mean_confidence: meanConfidence(words.map(({ word }) => word)),
      dpi: prepared.dpi,
      reason,
      image_source: prepared.source,
      timings_ms: { render: round(recognizeStarted - renderStarted, 1), recognize: round(done - recognizeStarted, 1), total: round(done - started, 1) },
    };
  } finally {
    page.cleanup();
  }
}

/** A page that is one scanned picture is read from the picture's own pixels; anything else is rendered. */
async function prepareForOcr(document: PDFDocumentProxy, page: PDFPageProxy, dpi: number, structure: PDFDocument | null) {
  const scan = await embeddedScan(page, dpi, structure ?? undefined);
  if (scan) return { source: 'page_picture' as const, image: scan.image, dpi: scan.dpi, toPdfSpace: (words: readonly PixelWord[]) => wordsToUserSpace(words, scan.toUser) };
  const rendered = await renderPage(document, page, dpi);
  return { source: 'rendered_page' as const, image: rendered.image, dpi: rendered.dpi, toPdfSpace: (words: readonly PixelWord[]) => wordsToPdfSpace(words, rendered.viewport) };
}

async function chooseReason(task: OcrPageTask, page: PDFPageProxy, view: readonly [number, number, number, number], chars: number): Promise<OcrPageReason> {
  if (task.forceOcr) return 'forced';
  if (chars < task.minTextChars) return 'no_text_layer';
  if (chars < SPARSE_TEXT_CHARS && (await imageCoverage(page, view)) >= SCANNED_IMAGE_COVERAGE) return 'scanned_with_sparse_text';
  return 'text_layer';
}

function content(words: LinedWord[]) {
  return { text: pageText(words), words: words.map(({ word }) => word) };
}

/**
 * PNG and JPEG are decoded here with their EXIF orientation applied, as the viewer and the exports draw them, and
 * go to tesseract as grey pixels (tesseract.js applies only big-endian EXIF orientation, so boxes of other photos
 * would land rotated). One-page TIFFs go as they are; a page of a multi-page TIFF goes as a TIFF of that page
 * alone (tesseract reads only a TIFF's first page). Boxes are in the pixels as displayed.
 */
async function recognizeImage(task: OcrPageTask, started: number): Promise<OcrPageOutput> {
  const prepareStarted = performance.now();
  const bytes = await imageOfPage(task);
  const recognizeStarted = performance.now();
  const recognized = await recognize(bytes, { language: task.language, model: task.model, dpi: null });
  const words = wordsInPixels(recognized.words);
  const done = performance.now();
  return {
    page_number: task.pageNumber,
    source: 'ocr',
    unit: 'image_pixels',
    width: recognized.width,
    height: recognized.height,
    rotation: 0,
    ...content(words),
    mean_confidence: meanConfidence(words.map(({ word }) => word)),
    text_layer_chars: 0,
    dpi: null,
    reason: 'image',
    image_source: 'image_file',
    timings_ms: { render: round(recognizeStarted - prepareStarted, 1), recognize: round(done - recognizeStarted, 1), total: round(done - started, 1) },
  };
}

async function imageOfPage(task: OcrPageTask): Promise<Uint8Array> {
  if (task.documentType === 'png' || task.documentType === 'jpeg') {
    if (task.pageNumber > 1) throw new Error(`page ${task.pageNumber} does not exist: the image has 1 page`);
    const bytes = await fs.readFile(task.blobPath);
    assertImageFile(bytes);
    return orientedGrey(bytes);
  }
  const sizes = task.documentType === 'tiff' ? await tiffPageSizes(task.blobPath) : null;
  if (sizes) assertPageCount(sizes.length, 'the TIFF');
  const size = sizes?.[task.pageNumber - 1];
  if (size) assertImagePixels(size.width, size.height, `page ${task.pageNumber} of the TIFF`);
  const pageCount = sizes?.length ?? 1;
  if (task.pageNumber > pageCount) throw new Error(`page ${task.pageNumber} does not exist: the image has ${pageCount} page${pageCount === 1 ? '' : 's'}`);
  if (pageCount === 1) return fs.readFile(task.blobPath);
  return tiffPageFile(task.blobPath, task.pageNumber);
}

/** A photo or picture as displayed (EXIF orientation applied), in grey. */
async function orientedGrey(bytes: Buffer): Promise<Uint8Array> {
  const { canvas } = await imageOnWhite(bytes);
  return toGreyTiff(canvas.data(), canvas.width, canvas.height, null);
}
