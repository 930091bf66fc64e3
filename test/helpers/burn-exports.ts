import type { Export } from '../../main/common/schemas/exports.js';
import { stextWords } from './burn-producers.js';
import { exportFile } from './export-fixtures.js';
import type { TestInstance } from './instance.js';
import { encodings, pdftotext, qpdfExpanded } from './pdf-tools.js';
import { createBoxes, rect } from './v1-redactions-support.js';

/**
 * Boxes `secret` on page 1 of an uploaded document, where mutool finds it in `source` (the same page unencrypted
 * and without damage), grown by `below`/`above` points around its baseline; exports the case with method auto and
 * checks the release: the secret neither in pdftotext's text nor in qpdf's expanded streams, every `kept` text
 * still extracted.
 */
export async function exportWithWordBoxed(
  instance: TestInstance,
  target: { caseId: string; documentId: string; source: Buffer },
  secret: string,
  kept: string[],
  margins: { below: number; above: number } = { below: 2.5, above: 7.5 },
): Promise<{ exported: Export; bytes: Buffer }> {
  const word = stextWords(target.source).find((entry) => entry.text === secret);
  if (!word) throw new Error(`mutool does not find ${secret} in the source`);
  const box = { x1: word.x1 - 0.5, y1: word.baseline - margins.below, x2: word.x2 + 0.5, y2: word.baseline + margins.above };
  await createBoxes(instance, target.documentId, [rect({ coordinates: { page: 1, units: 'pdf_points', box } })]);
  const released = await exportFile(instance, { case_id: target.caseId, options: { method: 'auto', labels: false } });
  const text = pdftotext(released.bytes);
  if (text.includes(secret)) throw new Error(`the release's text still holds ${secret}`);
  const expanded = qpdfExpanded(released.bytes);
  for (const form of encodings(secret)) if (expanded.includes(form)) throw new Error(`the release's streams hold ${JSON.stringify(form)}`);
  for (const line of kept) if (!text.includes(line)) throw new Error(`the release lost the unmarked text ${JSON.stringify(line)}:\n${text}`);
  return released;
}
