import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import { PDFDocument } from 'pdf-lib';
import type { PDFDocumentProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import type { ExportVerifyResult, ExportVerifyTask, PageCheck } from '../../main/common/export-tasks.js';
import type { PageCertificate } from '../../main/common/page-certificate.js';
import { asRects, comparePage, type PageComparison } from './fidelity/index.js';
import { openPdf } from './pdfjs.js';
import { structureProblems } from './sanitize.js';
import { leakedWords } from './words.js';

// The check a produced PDF must pass before its export may complete. It reads the written bytes back, with
// both libraries, independently of how they were made; a file's pages may be checked by several tasks at once.
// Each burned page also gets its certificate: (a) no word under a box is extractable, (b) every source word
// wholly outside the drawn areas is in the output's text at its place, (c) rendered, the pixels outside the
// drawn areas match the source's (worker/burn-in/fidelity/). A page failing (a) fails the export. (b) and (c)
// decide before assembly (a rewritten page failing them is rendered); here they are measured on the written
// file and recorded: a page failing them is certified `passed: false`, not withheld from the release.

export class VerificationFailed extends Error {}

async function leakCount(document: PDFDocumentProxy, check: PageCheck): Promise<number> {
  // A page with nothing withheld cannot leak by this test; its text need not be read.
  if (check.withheld.length === 0) return 0;
  const page = await document.getPage(check.outputPage);
  const content = await page.getTextContent();
  page.cleanup();
  const extracted = content.items.flatMap((item) => ('str' in item ? item.str.split(/\s+/u) : []));
  return leakedWords(extracted, check.words, check.withheld);
}

/** The source documents of a task's checks, each opened once (PDFs only). */
class Sources {
  private open = new Map<string, Promise<PDFDocumentProxy>>();
  get(path: string): Promise<PDFDocumentProxy> {
    let document = this.open.get(path);
    if (!document) {
      document = fs.readFile(path).then((bytes) => openPdf(new Uint8Array(bytes)));
      this.open.set(path, document);
    }
    return document;
  }
  async close(): Promise<void> {
    for (const document of this.open.values()) await (await document.catch(() => null))?.destroy();
  }
}

async function compared(output: PDFDocumentProxy, sources: Sources, check: PageCheck): Promise<PageComparison | null> {
  const plan = check.certify;
  if (!plan || plan.sourceType !== 'pdf') return null;
  const source = await sources.get(plan.sourcePath);
  const [sourcePage, outputPage] = await Promise.all([source.getPage(plan.page), output.getPage(check.outputPage)]);
  try {
    return await comparePage({ source: { document: source, page: sourcePage }, output: { document: output, page: outputPage }, drawn: asRects(plan.drawn), kind: plan.method });
  } finally {
    sourcePage.cleanup();
    outputPage.cleanup();
  }
}

function certificateOf(check: PageCheck, leaked: number, comparison: PageComparison | null): PageCertificate {
  const plan = check.certify;
  const method = plan?.sourceType === 'pdf' ? plan.method : 'image';
  const failedPixels = comparison !== null && comparison.pixels.differing > comparison.tolerance.max_differing_pixels;
  const missing = comparison?.words.missing ?? 0;
  return {
    output_page: check.outputPage,
    document_id: String(plan?.documentId ?? ''),
    page: plan?.page ?? 0,
    method,
    words_under_boxes_found: leaked,
    words_outside_checked: comparison?.words.checked ?? 0,
    words_missing: missing,
    pixels_compared: comparison?.pixels.compared ?? null,
    pixels_differing: comparison?.pixels.differing ?? null,
    tolerance: comparison?.tolerance ?? null,
    passed: leaked === 0 && missing === 0 && !failedPixels,
    fallback_reason: plan?.fallback ?? null,
  };
}

export async function verify(task: ExportVerifyTask): Promise<ExportVerifyResult> {
  const bytes = new Uint8Array(await fs.readFile(task.path));
  if (createHash('sha256').update(bytes).digest('hex') !== task.sha256) throw new VerificationFailed('verification failed: the written file is not the one assembled');
  if (task.structure) {
    const reparsed = await PDFDocument.load(bytes, { updateMetadata: false });
    const problems = structureProblems(reparsed.context, bytes);
    if (problems.length > 0) throw new VerificationFailed(`verification failed: ${problems.join('; ')}`);
  }
  const document = await openPdf(bytes);
  const sources = new Sources();
  try {
    if (document.numPages !== task.expectedPages) throw new VerificationFailed(`verification failed: the output has ${document.numPages} pages, ${task.expectedPages} expected`);
    let withheldWords = 0;
    const certificates: PageCertificate[] = [];
    for (const check of task.checks) {
      const leaked = await leakCount(document, check);
      if (leaked > 0) {
        throw new VerificationFailed(`verification failed: ${check.label} (output page ${check.outputPage}) still contains ${leaked} word(s) that lay under a redaction`);
      }
      withheldWords += check.withheld.length;
      const comparison = await compared(document, sources, check);
      certificates.push(certificateOf(check, leaked, comparison));
    }
    return { kind: 'export-verify', verification: { pages: document.numPages, burnedPages: task.checks.length, withheldWords, certificates } };
  } finally {
    await sources.close();
    await document.destroy();
  }
}
