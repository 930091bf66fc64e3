import { z } from 'zod';

/**
 * One word read from a page, in the coordinate system of redaction boxes, so a word's box can become a
 * redaction as is: for PDFs, PDF user space in points (origin bottom-left, y up, unrotated page, as pdf.js
 * `convertToPdfPoint` gives; x1 < x2, y1 < y2); for images, pixels (origin top-left, y down). For transcripts
 * the box is unused (zeros) and `start`/`end` give the time in seconds.
 */
export const PageWord = z
  .object({
    text: z.string(),
    x1: z.number(),
    y1: z.number(),
    x2: z.number(),
    y2: z.number(),
    /** 0..100 as tesseract reports it; 100 for text-layer words. */
    confidence: z.number().min(0).max(100),
    start: z.number().optional(),
    end: z.number().optional(),
  })
  .meta({ id: 'PageWord' });
export type PageWord = z.infer<typeof PageWord>;

export const PAGE_SOURCES = ['text_layer', 'ocr', 'transcript'] as const;
export type PageSource = (typeof PAGE_SOURCES)[number];
export const PAGE_UNITS = ['pdf_points', 'image_pixels', 'seconds'] as const;
export type PageUnit = (typeof PAGE_UNITS)[number];

/** What was read from one page; `text` is the words joined in reading order with line breaks. */
export interface DocumentPage {
  document_id: string;
  page_number: number;
  source: PageSource;
  job_id: string | null;
  unit: PageUnit;
  width: number;
  height: number;
  rotation: 0 | 90 | 180 | 270;
  text: string;
  words: PageWord[];
  mean_confidence: number | null;
  created_at: string;
}
