import type { AssembleDocument, ReleaseLayoutPage } from '../../main/common/export-tasks.js';

// Which source pages are withheld in full, and which of them carries the placeholder (each page, or the first
// page of each range).

export interface WithheldPage {
  exemption: string;
  from: number;
  to: number;
  /** Draw the placeholder here (per page: every page; per range: the range's first page). */
  placeholder: boolean;
}

export function withheldPlan(entry: AssembleDocument, pageCount: number): Map<number, WithheldPage> {
  const plan = new Map<number, WithheldPage>();
  if (!entry.withheld) return plan;
  for (const range of entry.withheld.ranges) {
    const to = Math.min(range.to ?? pageCount, pageCount);
    if (range.from > pageCount) throw new Error(`document ${entry.source.documentId} has ${pageCount} page(s) but a withholding names page ${range.from}`);
    for (let page = range.from; page <= to; page += 1) {
      const perRange = entry.withheld.perRange;
      plan.set(page, { exemption: range.exemption, from: perRange ? range.from : page, to: perRange ? to : page, placeholder: !perRange || page === range.from });
    }
  }
  return plan;
}

/** The layout entry of a released source page. */
export function releasedPage(documentId: number, page: number): ReleaseLayoutPage {
  return { documentId, from: page, to: page, withheld: null };
}
