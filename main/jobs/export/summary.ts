import type { BurnSettings, ExportVerification } from '../../common/export-tasks.js';
import type { ExportSummary } from '../../common/schemas/exports.js';
import { MAX_CERTIFICATES_LISTED } from '../../common/schemas/page-certificates.js';
import type { MaterialDocument, SkippedDocument } from '../../services/export-material.js';
import { countByExemption } from '../../services/export-records.js';
import type { Burned, Releasable } from './context.js';

// The export's summary (stored with the export row): counts of the burned pages and of what verification checked.

/** Rendered PDF pages listed in a summary at most. */
const MAX_RENDERED_LISTED = 1000;

/** How the burned pages were made: counts, and each rendered PDF page with the reason. */
export function burnSummary(documents: Releasable[], burned: Burned, settings: BurnSettings, linksDropped = 0): NonNullable<ExportSummary['burn']> {
  const summary: NonNullable<ExportSummary['burn']> = { vector_pages: 0, raster_pages: 0, rendered: [], grown: [], links_dropped: linksDropped };
  const grown = summary.grown as NonNullable<typeof summary.grown>;
  for (const { material: document, type } of documents) {
    const pages = [...(burned.get(document.row.id)?.pages ?? [])].sort((a, b) => a.page - b.page);
    for (const page of pages) {
      if (page.method === 'vector') {
        summary.vector_pages += 1;
        // Black drawn beyond a box covers whole glyphs it cut: reported so the reviewer sees the difference.
        for (const drawn of page.drawn) {
          if (drawn.growth > 0 && drawn.redactionId && grown.length < MAX_RENDERED_LISTED) grown.push({ document_id: String(document.row.id), page: page.page, redaction_id: drawn.redactionId, growth_pt: drawn.growth });
        }
        continue;
      }
      summary.raster_pages += 1;
      if (type === 'pdf' && summary.rendered.length < MAX_RENDERED_LISTED) {
        summary.rendered.push({ document_id: String(document.row.id), page: page.page, reason: page.fallback ?? (settings.method === 'raster' ? 'options.method is raster' : 'not tried') });
      }
    }
  }
  return summary;
}

export function summaryOf(
  documents: MaterialDocument[],
  skipped: SkippedDocument[],
  pages: number,
  verification: ExportVerification | null,
  files: number,
  burn: ExportSummary['burn'] = null,
): ExportSummary {
  return {
    documents: documents.length,
    pages,
    redactions: documents.reduce((sum, document) => sum + document.applied.length, 0),
    by_exemption: countByExemption(documents),
    skipped_documents: skipped,
    verification: verification
      ? { files, pages: verification.pages, burned_pages: verification.burnedPages, withheld_words: verification.withheldWords, page_certificates: (verification.certificates ?? []).slice(0, MAX_CERTIFICATES_LISTED) }
      : null,
    burn,
  };
}

export function sumVerification(results: ExportVerification[]): ExportVerification {
  return results.reduce(
    (sum, result) => ({ pages: sum.pages + result.pages, burnedPages: sum.burnedPages + result.burnedPages, withheldWords: sum.withheldWords + result.withheldWords, certificates: [...(sum.certificates ?? []), ...(result.certificates ?? [])] }),
    { pages: 0, burnedPages: 0, withheldWords: 0, certificates: [] },
  );
}

