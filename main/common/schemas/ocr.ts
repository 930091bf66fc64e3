import { z } from 'zod';

export const OCR_DEFAULT_DPI = 300;

/** Shipped models: `fast` (tessdata_fast, the default, as native tesseract uses) and `best` (4.0.0_best_int). */
export const OCR_MODELS = ['fast', 'best'] as const;
export type OcrModel = (typeof OCR_MODELS)[number];

export const OcrOptions = z
  .strictObject({
    force_ocr: z.boolean().default(false).describe('Recognise every page, even pages with a usable text layer'),
    pages: z
      .array(z.number().int().min(1).max(100_000))
      .min(1)
      .max(10_000)
      .optional()
      .describe('1-based page numbers to read (any order, repeats ignored); all pages when absent. A page the document does not have fails the job'),
    dpi: z.number().int().min(72).max(600).default(OCR_DEFAULT_DPI).describe('Resolution PDF pages are rendered at for OCR; images are read at their own resolution'),
    min_text_chars: z
      .number()
      .int()
      .min(1)
      .max(100_000)
      .default(10)
      .describe('A PDF page whose text layer has fewer non-blank characters is recognised instead of read'),
    language: z.enum(['eng']).default('eng').describe('Language of the text (only English language data ships)'),
    model: z
      .enum(OCR_MODELS)
      .default('fast')
      .describe('Recognition model: `fast` (tessdata_fast, the network native tesseract ships) or `best` (larger, about 1.5 times slower)'),
  })
  .meta({ id: 'OcrOptions' });
export type OcrOptions = z.output<typeof OcrOptions>;

/** One page in an OCR job's result. */
export interface OcrResultPage {
  page_number: number;
  source: 'text_layer' | 'ocr';
  /** Why: `text_layer`, `forced`, `no_text_layer`, `scanned_with_sparse_text` or `image`; null for a page stored before a restart. */
  reason: string | null;
  word_count: number;
  /** Mean word confidence 0..100 of OCR pages; null for text-layer pages and pages without words. */
  mean_confidence: number | null;
  /** True when an earlier attempt of this job stored the page (the process stopped before the job ended). */
  resumed: boolean;
  /**
   * What tesseract read: `page_picture` (a scanned page's own picture, used as it is when the page is nothing
   * else and its resolution is near options.dpi), `rendered_page` or `image_file`; null for text-layer pages.
   */
  image_source: 'page_picture' | 'rendered_page' | 'image_file' | null;
  /** Resolution of what was read (the rendering's, or the page picture's own); null when not recognised. */
  dpi: number | null;
  /** Time spent in the worker: rendering, recognition, all of it; null for a page stored before a restart. */
  ms: { render: number; recognize: number; total: number } | null;
}

/** The result of an ocr job. */
export interface OcrResult {
  document_type: string;
  unit: 'pdf_points' | 'image_pixels';
  /** Pages in the document; `pages` lists those read by this job. */
  page_count: number;
  dpi: number;
  language: string;
  model: OcrModel;
  engine: string;
  pages: OcrResultPage[];
  totals: {
    pages: number;
    text_layer_pages: number;
    ocr_pages: number;
    words: number;
    /** Mean of all OCR words' confidences; null when no page was recognised. */
    mean_confidence: number | null;
  };
}
