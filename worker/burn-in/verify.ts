import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import { PDFDocument } from 'pdf-lib';
import type { ExportVerifyResult, ExportVerifyTask } from '../../main/common/export-tasks.js';
import { openPdf } from './pdfjs.js';
import { structureProblems } from './sanitize.js';
import { leakedWords } from './words.js';

// The check a produced PDF must pass before its export may complete. It reads the written bytes back, with
// both libraries, independently of how they were made; a file's pages may be checked by several tasks at once.

export class VerificationFailed extends Error {}

export async function verify(task: ExportVerifyTask): Promise<ExportVerifyResult> {
  const bytes = new Uint8Array(await fs.readFile(task.path));
  if (createHash('sha256').update(bytes).digest('hex') !== task.sha256) throw new VerificationFailed('verification failed: the written file is not the one assembled');
  if (task.structure) {
    const reparsed = await PDFDocument.load(bytes, { updateMetadata: false });
    const problems = structureProblems(reparsed.context, bytes);
    if (problems.length > 0) throw new VerificationFailed(`verification failed: ${problems.join('; ')}`);
  }
  const document = await openPdf(bytes);
  try {
    if (document.numPages !== task.expectedPages) throw new VerificationFailed(`verification failed: the output has ${document.numPages} pages, ${task.expectedPages} expected`);
    let withheldWords = 0;
    for (const check of task.checks) {
      // A page with nothing withheld cannot leak by this test; its text need not be read.
      if (check.withheld.length === 0) continue;
      const page = await document.getPage(check.outputPage);
      const content = await page.getTextContent();
      page.cleanup();
      const extracted = content.items.flatMap((item) => ('str' in item ? item.str.split(/\s+/u) : []));
      const leaked = leakedWords(extracted, check.words, check.withheld);
      if (leaked > 0) {
        throw new VerificationFailed(`verification failed: ${check.label} (output page ${check.outputPage}) still contains ${leaked} word(s) that lay under a redaction`);
      }
      withheldWords += check.withheld.length;
    }
    return { kind: 'export-verify', verification: { pages: document.numPages, burnedPages: task.checks.length, withheldWords } };
  } finally {
    await document.destroy();
  }
}
