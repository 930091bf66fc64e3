import { ParseSpeeds, PDFDocument } from 'pdf-lib';

// pdf-lib for every worker task (burn-in, OCR). pdf-lib reads objects in file order and never needs the
// cross-reference table, yet it stops at a damaged one (a table without its subsection header, a `startxref`
// without an offset), which readers rebuild silently. On such a failure the tables are dropped and the load tried
// once more. In burn-in the two-way verification against pdf.js's reading of the original still judges the result,
// so a bad repair renders the page instead; OCR falls back to pdf.js alone when pdf-lib fails.

const XREF_TABLE = /(^|[\r\n])xref[\r\n][\s\S]*?(?=trailer)/g;
const EMPTY_STARTXREF = /startxref\s*(?=%%EOF|$)/g;

/**
 * pdf-lib's reading and writing without its pauses: by default it waits for a timer (at least a millisecond in
 * Node) every 100 objects read and every 50 written, to let a browser page paint. A worker thread runs one task at
 * a time and is stopped by terminating it, so each pause is only time the thread stands idle: about a tenth of
 * assembling the export bench's 50-page file, with the other threads waiting on it.
 */
export const READ_WHOLE = { parseSpeed: ParseSpeeds.Fastest } as const;
export const WRITE_WHOLE = { objectsPerTick: Number.POSITIVE_INFINITY } as const;

/** The bytes with their cross-reference tables and empty `startxref` removed, or null when there are none. */
export function withoutCrossReferences(bytes: Uint8Array): Uint8Array | null {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
  const repaired = text.replace(XREF_TABLE, '$1').replace(EMPTY_STARTXREF, '');
  return repaired === text ? null : Buffer.from(repaired, 'latin1');
}

/** pdf-lib's document; a file whose cross-reference data is damaged is read again without it. */
export async function loadPdfLib(bytes: Uint8Array): Promise<PDFDocument> {
  try {
    return await PDFDocument.load(bytes, { ...READ_WHOLE, updateMetadata: false });
  } catch (error) {
    const repaired = withoutCrossReferences(bytes);
    if (!repaired) throw error;
    try {
      return await PDFDocument.load(repaired, { ...READ_WHOLE, updateMetadata: false });
    } catch {
      throw error;
    }
  }
}
