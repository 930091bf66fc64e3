import type { ReleaseLayoutPage, StampPlan, WithheldRange } from '../../common/export-tasks.js';
import type { ExportOptions, ExportSummary } from '../../common/schemas/exports.js';
import type { ExportMaterial } from '../../services/export-material.js';
import type { FinishedRelease } from '../../services/exports.js';
import { exemptionOf } from '../../services/releases/material.js';
import type { IndexRow } from '../../common/schemas/releases.js';
import { indexRows, releasedPages, type ReleaseDocument, type ReleasedPage } from '../../services/releases/withholding-index.js';
import type { Releasable } from './context.js';

// A release's plan (main thread, no CPU-heavy work): pages withheld in full, stamp numbers, and from the
// assembled layout the released pages and withholding index rows. Used by the PDF, the release zip and review copies.


/** Pages of a whole document withheld in full are skipped up to this page number when an image is burned. */
const WHOLE_DOCUMENT_PAGES = 20_000;

export interface ReleasePlan {
  number: number;
  stamps: StampPlan | null;
  /** The first stamp number when it continues the case's sequence by default (checked again at completion). */
  continuedFrom: number | null;
  ranges: Map<number, WithheldRange[]>;
  skipPages: Map<number, Set<number>>;
  wholeDocuments: Set<number>;
  perRange: boolean;
  documents: ReleaseDocument[];
  finish(layout: ReleaseLayoutPage[], summary: ExportSummary): { summary: ExportSummary; release: FinishedRelease; pages: ReleasedPage[]; rows: IndexRow[] };
}

export function releaseTitle(fileName: string): string {
  return fileName.replace(/\.[A-Za-z0-9]{1,5}$/, '');
}

export function releasePlan(material: ExportMaterial, documents: Releasable[], options: ExportOptions): ReleasePlan {
  const release = material.release;
  const chosen = new Set(documents.map((entry) => entry.material.row.id));
  const ranges = new Map<number, WithheldRange[]>();
  const skipPages = new Map<number, Set<number>>();
  const wholeDocuments = new Set<number>();
  for (const holding of release.withholdings.filter((entry) => chosen.has(entry.document_id))) {
    ranges.set(holding.document_id, [...(ranges.get(holding.document_id) ?? []), { from: holding.page_from ?? 1, to: holding.page_to, exemption: holding.exemption }]);
    const skip = skipPages.get(holding.document_id) ?? new Set<number>();
    const last = holding.page_to ?? WHOLE_DOCUMENT_PAGES;
    for (let page = holding.page_from ?? 1; page <= last; page += 1) skip.add(page);
    skipPages.set(holding.document_id, skip);
    if (holding.page_from === null) wholeDocuments.add(holding.document_id);
  }
  const start = options.stamps?.start ?? (release.lastBates ?? 0) + 1;
  const stamps: StampPlan | null = options.stamps
    ? { prefix: options.stamps.prefix, start, digits: options.stamps.digits, position: options.stamps.position, fontSize: options.stamps.font_size }
    : null;
  const releaseDocuments: ReleaseDocument[] = documents.map((entry) => ({
    documentId: entry.material.row.id,
    title: releaseTitle(entry.material.row.file_name),
    sha256: entry.material.row.sha256,
    // Boxes on withheld pages are not listed: the placeholder's row stands for the whole page.
    applied: entry.material.applied.filter((box) => !skipPages.get(entry.material.row.id)?.has(box.page)),
  }));
  const number = (release.previous?.number ?? 0) + 1;
  return {
    number,
    stamps,
    continuedFrom: stamps && options.stamps?.start === undefined ? start : null,
    ranges,
    skipPages,
    wholeDocuments,
    perRange: options.placeholders === 'per_range',
    documents: releaseDocuments,
    finish(layout, summary) {
      const pages = releasedPages(layout, releaseDocuments, stamps, release);
      const rows = indexRows(pages, releaseDocuments, release);
      const byExemption: Record<string, number> = {};
      for (const document of releaseDocuments) for (const box of document.applied) byExemption[exemptionOf(box, release.exemptions)] = (byExemption[exemptionOf(box, release.exemptions)] ?? 0) + 1;
      const withheldPages = pages.filter((page) => page.withheld !== null).reduce((sum, page) => sum + page.to - page.from + 1, 0);
      return {
        pages,
        rows,
        summary: {
          ...summary,
          redactions: releaseDocuments.reduce((sum, document) => sum + document.applied.length, 0),
          by_exemption: byExemption,
          release: {
            bates_first: pages[0]?.bates ?? null,
            bates_last: pages.at(-1)?.bates ?? null,
            withheld_in_full_pages: withheldPages,
            index_rows: rows.length,
            previous_release: release.previous?.number ?? null,
            new_pages: pages.filter((page) => page.sincePrevious === 'new').length,
            changed_pages: pages.filter((page) => page.sincePrevious === 'changed').length,
          },
        },
        release: {
          number,
          continuedFrom: stamps && options.stamps?.start === undefined ? start : null,
          pages: pages.map((page) => ({ position: page.position, document_id: page.documentId, page_from: page.from, page_to: page.to, bates_number: page.batesNumber, bates: page.bates, fingerprint: page.fingerprint })),
        },
      };
    },
  };
}
