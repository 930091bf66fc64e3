import type { ReleaseLayoutPage, StampPlan } from '../../common/export-tasks.js';
import type { Box } from '../redactions/model.js';
import type { IndexRow } from '../../common/schemas/releases.js';
import { categoryOf, exemptionOf, pageFingerprint, pageKey, type ReleaseMaterial } from './material.js';

// The withholding (Vaughn) index a requester reads: one row per withheld passage kind on a page, or per range
// withheld in full; cited by the page stamps. Built from the layout the assembly reported.

export interface ReleaseDocument {
  documentId: number;
  /** The document's title as released (its file name without extension). */
  title: string;
  sha256: string;
  applied: Box[];
}

export interface ReleasedPage {
  position: number;
  documentId: number;
  from: number;
  to: number;
  batesNumber: number | null;
  bates: string | null;
  withheld: string | null;
  fingerprint: string;
  sincePrevious: 'new' | 'changed' | 'unchanged' | null;
}

export function stampOf(plan: Pick<StampPlan, 'prefix' | 'digits'>, number: number): string {
  return `${plan.prefix}${String(number).padStart(plan.digits, '0')}`;
}

/** Every released page with its stamp, fingerprint and what changed since the previous release. */
export function releasedPages(layout: readonly ReleaseLayoutPage[], documents: readonly ReleaseDocument[], stamps: StampPlan | null, release: ReleaseMaterial): ReleasedPage[] {
  const byId = new Map(documents.map((document) => [document.documentId, document]));
  return layout.map((page, index) => {
    const document = byId.get(page.documentId);
    const fingerprint = pageFingerprint(document?.sha256 ?? '', page.from, page.to, page.withheld, document?.applied ?? [], release.exemptions);
    const before = release.previous?.fingerprints.get(pageKey(page.documentId, page.from, page.to));
    const batesNumber = stamps ? stamps.start + index : null;
    return {
      position: index + 1,
      documentId: page.documentId,
      from: page.from,
      to: page.to,
      batesNumber,
      bates: stamps && batesNumber !== null ? stampOf(stamps, batesNumber) : null,
      withheld: page.withheld,
      fingerprint,
      sincePrevious: release.previous === null ? null : before === undefined ? 'new' : before === fingerprint ? 'unchanged' : 'changed',
    };
  });
}

function referenceOf(pages: ReleasedPage[], title: string): string {
  const first = pages[0];
  const last = pages.at(-1);
  if (!first || !last) return '';
  if (first.bates && last.bates) return first.bates === last.bates ? first.bates : `${first.bates}-${last.bates}`;
  return first.from === last.to ? `${title} p. ${first.from}` : `${title} pp. ${first.from}-${last.to}`;
}

/** Index rows in release order: per page, one row per (exemption, category) withheld in part; per range in full. */
export function indexRows(pages: readonly ReleasedPage[], documents: readonly ReleaseDocument[], release: ReleaseMaterial): IndexRow[] {
  const byId = new Map(documents.map((document) => [document.documentId, document]));
  const rows: IndexRow[] = [];
  const justification = (codes: string[]) => codes.map((code) => release.settings.justifications[code]).filter(Boolean).join(' ');
  for (let index = 0; index < pages.length; index += 1) {
    const page = pages[index] as ReleasedPage;
    const document = byId.get(page.documentId);
    if (!document) continue;
    const since = page.sincePrevious ?? '';
    if (page.withheld !== null) {
      // Consecutive placeholders of one range (per-page placeholders) are one row.
      const range = [page];
      while (index + 1 < pages.length) {
        const next = pages[index + 1] as ReleasedPage;
        const withholding = release.withholdings.find((entry) => entry.document_id === page.documentId && (entry.page_from ?? 1) <= next.from && (entry.page_to ?? Infinity) >= next.to);
        const same = release.withholdings.find((entry) => entry.document_id === page.documentId && (entry.page_from ?? 1) <= page.from && (entry.page_to ?? Infinity) >= page.to);
        if (next.documentId !== page.documentId || next.withheld === null || withholding !== same) break;
        range.push(next);
        index += 1;
      }
      const holding = release.withholdings.find((entry) => entry.document_id === page.documentId && (entry.page_from ?? 1) <= page.from && (entry.page_to ?? Infinity) >= page.to);
      const count = (range.at(-1)?.to ?? page.to) - page.from + 1;
      const status = range.some((entry) => entry.sincePrevious === 'changed' || entry.sincePrevious === 'new') ? (range.every((entry) => entry.sincePrevious === 'new') ? 'new' : 'changed') : since;
      rows.push({ reference: referenceOf(range, document.title), document: document.title, exemptions: page.withheld, category: holding?.category ?? release.settings.categories.in_full, withheld: 'in full', count, since_previous_release: status, justification: justification([page.withheld]) });
      continue;
    }
    const groups = new Map<string, { code: string; category: string; count: number }>();
    for (const box of document.applied.filter((entry) => entry.page === page.from)) {
      const code = exemptionOf(box, release.exemptions);
      const category = categoryOf(box, release.settings);
      const key = `${code}\u0000${category}`;
      const group = groups.get(key) ?? { code, category, count: 0 };
      group.count += 1;
      groups.set(key, group);
    }
    for (const group of groups.values()) {
      rows.push({ reference: referenceOf([page], document.title), document: document.title, exemptions: group.code, category: group.category, withheld: 'in part', count: group.count, since_previous_release: since, justification: justification([group.code]) });
    }
  }
  return rows;
}
