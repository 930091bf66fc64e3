import type { PageSource, PageUnit, PageWord } from './schemas/pages.js';
import type { OcrModel } from './schemas/ocr.js';

// Worker tasks of the OCR kind; joined into the unions of worker-messages.ts. The handler plans a document
// once, then runs one page task per page so pages are read in parallel across the pool's threads.

/** The document types OCR reads: PDFs and TIFFs page by page, PNG and JPEG as one page. */
export type OcrDocumentType = 'pdf' | 'png' | 'jpeg' | 'tiff';

export interface OcrPlanTask {
  kind: 'ocr-plan';
  jobId: number;
  blobPath: string;
  documentType: OcrDocumentType;
}

/** One page as the plan sees it: PDF points for PDFs, pixels for TIFF pages (unknown until read for PNG and JPEG). */
export interface OcrPlanPage {
  page_number: number;
  /** Size of the visible area (crop box) before rotation; a TIFF page's stored size; null for PNG and JPEG (read with the page). */
  width: number | null;
  height: number | null;
  rotation: 0 | 90 | 180 | 270;
  /** The crop box [x1, y1, x2, y2] in user space; null for images. */
  view: [number, number, number, number] | null;
}

export interface OcrPlan {
  unit: Extract<PageUnit, 'pdf_points' | 'image_pixels'>;
  page_count: number;
  pages: OcrPlanPage[];
}

export interface OcrPlanTaskResult {
  kind: 'ocr-plan';
  plan: OcrPlan;
}

export interface OcrPageTask {
  kind: 'ocr-page';
  jobId: number;
  /** Content-addressed, so it also keys the thread's cache of the opened PDF (or a TIFF's page directory). */
  blobPath: string;
  documentType: OcrDocumentType;
  pageNumber: number;
  /** Recognise even when the page has a usable text layer. */
  forceOcr: boolean;
  dpi: number;
  minTextChars: number;
  language: 'eng';
  model: OcrModel;
}

/** What was read from one page, ready for document_pages. */
export interface OcrPageOutput {
  page_number: number;
  source: Extract<PageSource, 'text_layer' | 'ocr'>;
  unit: OcrPlan['unit'];
  width: number;
  height: number;
  rotation: 0 | 90 | 180 | 270;
  text: string;
  words: PageWord[];
  /** Mean word confidence (0..100) for OCR pages; null for text-layer pages. */
  mean_confidence: number | null;
  /** Non-blank characters of the page's text layer (0 for images). */
  text_layer_chars: number;
  /** Resolution the page was rendered at for OCR; null for text-layer pages and images. */
  dpi: number | null;
  /** Why the page was recognised or read from its text layer. */
  reason: OcrPageReason;
  /** What tesseract read: the page's own scanned picture, a render of the page, or the image file; null for text-layer pages. */
  image_source: OcrImageSource | null;
  timings_ms: { render: number; recognize: number; total: number };
}

export type OcrImageSource = 'page_picture' | 'rendered_page' | 'image_file';

export type OcrPageReason = 'text_layer' | 'forced' | 'no_text_layer' | 'scanned_with_sparse_text' | 'image';

export interface OcrPageTaskResult {
  kind: 'ocr-page';
  page: OcrPageOutput;
}
