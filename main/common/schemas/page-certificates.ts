import { z } from 'zod';

// The per-page certificate of verification (main/common/page-certificate.ts) as the API shows it.

export const MAX_CERTIFICATES_LISTED = 1000;

export const PageCertificateSchema = z
  .object({
    output_page: z.number().int().describe('Page of the output file (1-based)'),
    document_id: z.string(),
    page: z.number().int().describe('Page of the source document (1-based)'),
    method: z.enum(['vector', 'raster', 'image']).describe('vector: redacted in its content; raster: rebuilt from a rendering; image: an image document'),
    words_under_boxes_found: z.number().int().describe('(a) words that lay under a box still extractable: always 0 in a completed export'),
    words_outside_checked: z.number().int().describe('(b) source words wholly outside the drawn areas looked for'),
    words_missing: z.number().int().describe('(b) of those, missing from the output text at their place (±1 pt)'),
    pixels_compared: z.number().int().nullable().describe('(c) pixels compared outside the drawn areas; null for image documents'),
    pixels_differing: z.number().int().nullable().describe('(c) pixels beyond the grey tolerance'),
    tolerance: z.object({ dpi: z.number(), grey: z.number().int(), max_differing_pixels: z.number().int(), mask_margin_pixels: z.number().int() }).nullable(),
    passed: z.boolean(),
    fallback_reason: z.string().nullable().describe('Why a PDF page was rendered though method auto tried it in its content'),
  })
  .meta({ id: 'PageCertificate' });
