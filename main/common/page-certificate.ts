// The per-page certificate of an export's verification (worker/burn-in/fidelity/ and verify.ts): what was
// compared between the source page and the released page, and the outcome. Plain data, stored in the export's
// summary and in the zip manifest.

export type CertifiedMethod = 'vector' | 'raster' | 'image';

export interface PageCertificate {
  /** 1-based page of the output file. */
  output_page: number;
  document_id: string;
  /** 1-based page of the source document. */
  page: number;
  /** vector: redacted in its content; raster: rebuilt from a rendering of a PDF page; image: from an image document. */
  method: CertifiedMethod;
  /** (a) Words that lay under a box and are still extractable from the output page: must be 0. */
  words_under_boxes_found: number;
  /** (b) Source words whose whole extent lies outside every drawn area, looked for in the output's text. */
  words_outside_checked: number;
  /** (b) Of those, how many the output lacks at the same place (±1 pt) with the same characters. */
  words_missing: number;
  /** (c) Pixels compared outside the drawn areas (grown by the mask margin); null when no source rendering exists (images). */
  pixels_compared: number | null;
  /** (c) Pixels whose grey differs by more than the tolerance. */
  pixels_differing: number | null;
  /** (c) The comparison's rules: resolution, grey levels a pixel may differ by, pixels allowed to differ, mask margin in pixels. */
  tolerance: { dpi: number; grey: number; max_differing_pixels: number; mask_margin_pixels: number } | null;
  passed: boolean;
  /** Why a PDF page was rendered though method auto tried it in its content (null otherwise). */
  fallback_reason: string | null;
}
