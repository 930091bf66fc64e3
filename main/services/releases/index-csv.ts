import { csvField } from '../../common/csv.js';
import type { IndexRow } from '../../common/schemas/releases.js';

// The withholding index as CSV (withholding-index.ts builds its rows): apart from the rows' making, which reads
// the release's material, so the file's form can be used (and tested) without a database.

export const INDEX_COLUMNS = ['page_reference', 'document', 'exemptions', 'category', 'withheld', 'count', 'since_previous_release', 'justification'] as const;

/** RFC 4180 with CRLF and a header row; values a spreadsheet would run as formulas are neutralised. */
export function indexCsv(rows: readonly IndexRow[]): string {
  const lines = [INDEX_COLUMNS.join(',')];
  for (const row of rows) {
    lines.push([row.reference, row.document, row.exemptions, row.category, row.withheld, row.count, row.since_previous_release, row.justification].map(csvField).join(','));
  }
  return `${lines.join('\r\n')}\r\n`;
}
