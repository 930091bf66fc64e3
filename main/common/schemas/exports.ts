import { z } from 'zod';
import { LAYERS } from '../redaction-catalog.js';
import { CASE_STATUSES } from './cases.js';
import { PageCertificateSchema } from './page-certificates.js';
import { STAMP_POSITIONS } from './releases.js';
import { Timestamp } from './shared.js';

export const EXPORT_FORMATS = ['pdf', 'csv', 'json', 'zip'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** pending → processing → completed | failed; pending | processing → cancelled; failed → pending (retry). */
export const EXPORT_STATUSES = ['pending', 'processing', 'completed', 'failed', 'cancelled'] as const;
export type ExportStatus = (typeof EXPORT_STATUSES)[number];

/** A document is `active` until it is deleted; deleted documents are exported only when asked for. */
export const EXPORT_DOCUMENT_STATUSES = ['active', 'deleted'] as const;
export type ExportDocumentStatus = (typeof EXPORT_DOCUMENT_STATUSES)[number];

/** Case statuses an export accepts when the request does not say: every status but `deleted`. */
export const DEFAULT_EXPORT_CASE_STATUSES = CASE_STATUSES.filter((status) => status !== 'deleted');

const IdString = z.string().regex(/^[1-9][0-9]{0,15}$/, 'must be a positive integer id');

function unique<T>(values: readonly T[]): boolean {
  return new Set(values).size === values.length;
}

export const ExportFilters = z
  .strictObject({
    document_ids: z
      .array(IdString)
      .min(1)
      .max(1000)
      .refine(unique, 'list each document once')
      .optional()
      .describe('Only these documents of the case, in this order; default every document of the case in upload order'),
    layers: z.array(z.enum(LAYERS)).min(1).refine(unique, 'list each layer once').optional().describe('Only redactions of these layers; default all layers'),
    include_pending: z.boolean().default(false).describe('Apply pending suggestions as well as accepted redactions; rejected ones never apply'),
    document_statuses: z
      .array(z.enum(EXPORT_DOCUMENT_STATUSES))
      .min(1)
      .refine(unique, 'list each status once')
      .default(['active'])
      .describe('Documents in these states are included: active, deleted'),
    case_statuses: z
      .array(z.enum(CASE_STATUSES))
      .min(1)
      .refine(unique, 'list each status once')
      .optional()
      .describe('The export runs only while the case is in one of these statuses; default every status but deleted'),
  })
  .meta({ id: 'ExportFilters' });
export type ExportFiltersInput = z.input<typeof ExportFilters>;

/** Filters as stored and shown: every member present, defaults filled in. */
export const ResolvedExportFilters = z.object({
  document_ids: z.array(z.string()).nullable(),
  layers: z.array(z.enum(LAYERS)),
  include_pending: z.boolean(),
  document_statuses: z.array(z.enum(EXPORT_DOCUMENT_STATUSES)),
  case_statuses: z.array(z.enum(CASE_STATUSES)),
});
export type ResolvedExportFilters = z.infer<typeof ResolvedExportFilters>;

/** How pages are rebuilt after burn-in: `auto` keeps black-and-white pages 1-bit (CCITT G4) and the rest JPEG. */
export const IMAGE_MODES = ['auto', 'color', 'bilevel'] as const;
export type ImageMode = (typeof IMAGE_MODES)[number];

/** How redacted PDF pages are made: `auto` removes what lies under the boxes from the page content where that is safe, else renders; `raster` always renders. */
export const BURN_METHODS = ['auto', 'raster'] as const;
export type BurnMethod = (typeof BURN_METHODS)[number];

export const EXPORT_AUDIENCES = ['release', 'internal'] as const;
export type ExportAudience = (typeof EXPORT_AUDIENCES)[number];

/** Page stamps (Bates numbers): printed in a margin added below each page, so they never cover content. */
export const ReleaseStamps = z
  .strictObject({
    prefix: z.string().regex(/^[A-Za-z0-9 ._-]{0,20}$/, 'letters, digits, space, dot, dash or underscore; at most 20').default(''),
    start: z.number().int().min(1).max(999_999_999).optional().describe('First number; default: one after the last number of the previous release of the case, or 1'),
    digits: z.number().int().min(1).max(10).default(6),
    position: z.enum(STAMP_POSITIONS).default('bottom_right'),
    font_size: z.number().min(6).max(14).default(9),
  })
  .meta({ id: 'ReleaseStamps' });
export type ReleaseStamps = z.output<typeof ReleaseStamps>;

/** Burn-in options of pdf and zip exports. */
export const ExportOptions = z
  .strictObject({
    cover_sheet: z.boolean().default(false).describe('pdf only: a first page with the case name, the date and the count of redactions per exemption'),
    dpi: z.number().int().min(72).max(600).default(200).describe('Resolution redacted pages are rendered at'),
    padding: z.number().min(0).max(72).default(1).describe('Points added on every side of each box (at the export dpi for images)'),
    labels: z.boolean().default(true).describe('Print the exemption code, e.g. (b)(6), inside boxes it fits in'),
    image_mode: z.enum(IMAGE_MODES).default('auto').describe('auto: 1-bit for black-and-white pages, JPEG otherwise; color: always JPEG; bilevel: always 1-bit'),
    jpeg_quality: z.number().int().min(30).max(100).default(80).describe('Quality of JPEG page images'),
    method: z
      .enum(BURN_METHODS)
      .default('auto')
      .describe('auto: PDF pages lose the text under their boxes and keep everything else as it is, or are rendered when that is not safe; raster: every redacted page is rendered'),
    audience: z.enum(EXPORT_AUDIENCES).default('release').describe('zip only: release (for the requester) or internal (the case record)'),
    stamps: ReleaseStamps.nullable().default(null).describe('Page stamps (Bates numbers) on every released page; null: none'),
    combined: z.boolean().default(false).describe('zip release: one combined PDF instead of one per document'),
    cover_letter: z.boolean().default(false).describe('zip release: a cover letter for the requester'),
    placeholders: z.enum(['per_page', 'per_range']).default('per_page').describe('Pages withheld in full: one placeholder page per page, or per withheld range'),
    review_copies: z
      .boolean()
      .default(false)
      .describe(
        'zip internal only: add INTERNAL-review-copy-<name>.pdf per document, redacted like the release and marked on every page as an internal review copy; they keep text the source does not show only when the release setting hidden_content_in_review_copies is keep',
      ),
  })
  .meta({ id: 'ExportOptions' });
export type ExportOptions = z.output<typeof ExportOptions>;

export const CreateExportBody = z.strictObject({
  case_id: IdString.describe('The case to export'),
  format: z.enum(EXPORT_FORMATS).default('pdf'),
  filters: ExportFilters.optional(),
  options: ExportOptions.optional().describe('Burn-in options; pdf and zip only'),
  override: z
    .strictObject({ reason: z.string().trim().min(10).max(2000) })
    .optional()
    .describe('Release despite failed safeguards; needs the exports:override scope; recorded in the audit trail'),
});
export type CreateExportBody = z.infer<typeof CreateExportBody>;

export const ExportFile = z.object({ name: z.string(), media_type: z.string(), size: z.number().int(), sha256: z.string() });

export const ExportSummary = z
  .object({
    documents: z.number().int().describe('Documents in the export'),
    pages: z.number().int().describe('Pages of the produced PDFs (0 for csv and json)'),
    redactions: z.number().int().describe('Redactions applied'),
    by_exemption: z.record(z.string(), z.number().int()),
    skipped_documents: z.array(z.object({ document_id: z.string(), file_name: z.string(), reason: z.string() })),
    verification: z
      .object({
        files: z.number().int(),
        pages: z.number().int(),
        burned_pages: z.number().int(),
        withheld_words: z.number().int(),
        page_certificates: z.array(PageCertificateSchema).optional().describe('One per burned page (first 1000): the two-way check against its source page'),
      })
      .nullable()
      .describe('What the check before completion covered; null for csv and json'),
    burn: z
      .object({
        vector_pages: z.number().int().describe('PDF pages redacted in their content'),
        raster_pages: z.number().int().describe('Pages rebuilt from a rendering (image documents included)'),
        rendered: z
          .array(z.object({ document_id: z.string(), page: z.number().int(), reason: z.string() }))
          .describe('PDF pages with boxes that were rendered, and why (first 1000)'),
        grown: z
          .array(z.object({ document_id: z.string(), page: z.number().int(), redaction_id: z.string(), growth_pt: z.number() }))
          .optional()
          .describe('Redactions on pages redacted in their content whose black was grown to cover the whole of glyphs the box cut, and by how much in points (first 1000)'),
        links_dropped: z.number().int().optional().describe('Links of the sources left out because their URI repeats text withheld in their document'),
      })
      .nullable()
      .optional()
      .describe('How the redacted pages were made; null for csv and json'),
    hidden_content: z
      .object({
        kept: z.boolean().describe('true: the review copies keep text their sources do not show (the setting hidden_content_in_review_copies is keep); false: removed, as in every release'),
        pages: z.array(z.object({ document_id: z.string(), page: z.number().int() })).describe('keep: the source pages whose hidden text the review copies carry (first 1000)'),
      })
      .optional()
      .describe('Internal zips with review copies only: what became of text the sources do not show'),
    release: z
      .object({
        bates_first: z.string().nullable(),
        bates_last: z.string().nullable(),
        withheld_in_full_pages: z.number().int(),
        index_rows: z.number().int(),
        previous_release: z.number().int().nullable(),
        new_pages: z.number().int(),
        changed_pages: z.number().int(),
      })
      .nullable()
      .optional()
      .describe('Release exports: stamps used, pages withheld in full, index rows, and what is new since the previous release'),
  })
  .meta({ id: 'ExportSummary' });
export type ExportSummary = z.infer<typeof ExportSummary>;

export const Export = z
  .object({
    id: z.string(),
    case_id: z.string(),
    format: z.enum(EXPORT_FORMATS),
    audience: z.enum(EXPORT_AUDIENCES),
    release_number: z.number().int().nullable().describe('1, 2, … per case once a release completes; null otherwise'),
    filters: ResolvedExportFilters,
    options: z.record(z.string(), z.unknown()).describe('Burn-in options with defaults; {} for csv and json'),
    status: z.enum(EXPORT_STATUSES),
    progress: z.number().min(0).max(1),
    attempts: z.number().int().describe('Times the export was started since it was created or retried'),
    error_message: z.string().nullable().describe('Why it failed'),
    file: ExportFile.nullable().describe('The produced file, once completed'),
    summary: ExportSummary.nullable(),
    created_by: z.string(),
    created_at: Timestamp,
    updated_at: Timestamp,
    started_at: Timestamp.nullable(),
    finished_at: Timestamp.nullable(),
  })
  .meta({ id: 'Export' });
export type Export = z.infer<typeof Export>;
