import { PDFDocument } from 'pdf-lib';

// pdf-lib for every worker task (burn-in, OCR). pdf-lib reads objects in file order and never needs the
// cross-reference table, yet it stops at a damaged one (a table without its subsection header, a `startxref`
// without an offset), which readers rebuild silently. On such a failure the tables are dropped and the load tried
// once more. In burn-in the two-way verification against pdf.js's reading of the original still judges the result,
// so a bad repair renders the page instead; OCR falls back to pdf.js alone when pdf-lib fails.

const XREF_TABLE = /(^|[\r\n])xref[\r\n][\s\S]*?(?=trailer)/g;
const EMPTY_STARTXREF = /startxref\s*(?=%%EOF|$)/g;

/** The bytes with their cross-reference tables and empty `startxref` removed, or null when there are none. */
export function withoutCrossReferences(bytes: Uint8Array): Uint8Array | null {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
  const repaired = text.replace(XREF_TABLE, '$1').replace(EMPTY_STARTXREF, '');
  return repaired === text ? null : Buffer.from(repaired, 'latin1');
}

/** pdf-lib's document; a file whose cross-reference data is damaged is read again without it. */
export async function loadPdfLib(bytes: Uint8Array): Promise<PDFDocument> {
  try {
    return await PDFDocument.load(bytes, { updateMetadata: false });
  } catch (error) {
    const repaired = withoutCrossReferences(bytes);
    if (!repaired) throw error;
    try {
      return await PDFDocument.load(repaired, { updateMetadata: false });
    } catch {
      throw error;
    }
  }
}
