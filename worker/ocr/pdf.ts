import fs from 'node:fs/promises';
import type { PDFDocument } from 'pdf-lib';
import { getDocument, type PDFDocumentLoadingTask, type PDFDocumentProxy, type PDFPageProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import type { OcrPlan, OcrPlanPage } from '../../main/common/ocr-tasks.js';
import { pdfjsAssetDirs } from '../../main/services/ocr-assets.js';
import { assertPageCount, assertPageSide, assertPdfDecompression, pdfjsLimitOptions } from '../limits.js';
import { round } from './words.js';
import { loadPdfLib } from '../pdf-lib-load.js';

// pdf.js documents opened by this thread. The pages of one document usually arrive one after another on the
// same thread, so the last document stays open instead of being parsed again for every page.

let open: { blobPath: string; loading: PDFDocumentLoadingTask } | null = null;

/** Blobs are content-addressed: a path always names the same bytes, so it keys the cache. */
export async function openPdf(blobPath: string): Promise<PDFDocumentProxy> {
  if (open?.blobPath !== blobPath) {
    const previous = open;
    open = null;
    if (previous) await previous.loading.destroy().catch(() => undefined);
    const bytes = await fs.readFile(blobPath);
    await assertPdfDecompression(bytes);
    // pdf.js takes ownership of the array it is given. Eval and font loading stay off (untrusted input);
    // fonts are drawn as paths, standard fonts from pdfjs-dist's own files.
    const loading = getDocument({
      data: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength),
      disableFontFace: true,
      useSystemFonts: false,
      verbosity: 0,
      ...pdfjsAssetDirs(),
      ...pdfjsLimitOptions(),
    });
    open = { blobPath, loading };
    loading.promise.catch(() => {
      if (open?.loading === loading) open = null;
    });
  }
  const document = await open.loading.promise;
  assertPageCount(document.numPages);
  return document;
}

/** Beyond this size a second parse of the file (pdf-lib, for stored scan pictures) is not worth its memory. */
const MAX_STRUCTURE_BYTES = 256 * 1024 * 1024;

let structure: { blobPath: string; document: Promise<PDFDocument | null> } | null = null;

/**
 * The same file parsed by pdf-lib, which reaches a page's stored picture bytes without decoding them; null
 * when it cannot (encrypted, too large, unreadable), and then pdf.js does all the work.
 */
export function openPdfStructure(blobPath: string): Promise<PDFDocument | null> {
  if (structure?.blobPath !== blobPath) {
    const load = async () => {
      const stat = await fs.stat(blobPath);
      if (stat.size > MAX_STRUCTURE_BYTES) return null;
      return loadPdfLib(await fs.readFile(blobPath));
    };
    structure = { blobPath, document: load().catch(() => null) };
  }
  return structure.document;
}

export function rotationOf(page: PDFPageProxy): 0 | 90 | 180 | 270 {
  const rotation = ((page.rotate % 360) + 360) % 360;
  return rotation === 90 || rotation === 180 || rotation === 270 ? rotation : 0;
}

/** The visible area [x1, y1, x2, y2] in user space: the crop box clipped to the media box. */
export function viewOf(page: PDFPageProxy): [number, number, number, number] {
  const [x1 = 0, y1 = 0, x2 = 0, y2 = 0] = page.view.map(Number);
  return [Math.min(x1, x2), Math.min(y1, y2), Math.max(x1, x2), Math.max(y1, y2)];
}

/** Page count, sizes and rotation: cheap (no content is parsed), so planning never delays the pages. */
export async function planPdf(document: PDFDocumentProxy): Promise<OcrPlan> {
  const pages: OcrPlanPage[] = [];
  for (let number = 1; number <= document.numPages; number += 1) {
    const page = await document.getPage(number);
    const view = viewOf(page);
    assertPageSide(view, number);
    pages.push({ page_number: number, width: round(view[2] - view[0]), height: round(view[3] - view[1]), rotation: rotationOf(page), view: [round(view[0]), round(view[1]), round(view[2]), round(view[3])] });
    page.cleanup();
  }
  return { unit: 'pdf_points', page_count: document.numPages, pages };
}
