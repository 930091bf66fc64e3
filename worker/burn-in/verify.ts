import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { PDFDocument } from 'pdf-lib';
import type { PDFDocumentProxy, PDFPageProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import type { ExportSearchResult, ExportSearchTask, ExportVerifyResult, ExportVerifyTask, PageCheck, RefusedPage } from '../../main/common/export-tasks.js';
import type { PageCertificate } from '../../main/common/page-certificate.js';
import { asRects, comparePage, wordsOfPage, type PageComparison } from './fidelity/index.js';
import { rewrittenProblems } from './rewrite-check.js';
import type { SourceWord } from './words.js';
import { openPdf } from './pdfjs.js';
import { PageReadings, readAnew, type PageReader } from '../pdf-glyphs/index.js';
import { findKept, type KeptSource } from './kept-sources.js';
import { structureProblems } from './sanitize.js';
import { checkPages, checkPdfObjects, describeLeaks, fileText, fold, searchZip, textContentText, touches, withheldOfPage, type Withheld } from '../release-check/index.js';
import { READ_WHOLE } from '../pdf-lib-load.js';

// The check a produced PDF must pass before its export may complete. It reads the written bytes back, with
// both libraries, independently of how they were made; a file's pages may be checked by several tasks at once.
// Each burned page also gets its certificate: (a) no word under a box is extractable, (b) every source word
// wholly outside the drawn areas is in the output's text at its place, (c) rendered, the pixels outside the
// drawn areas match the source's (worker/burn-in/fidelity/). A page failing (a) fails the export. (b) and (c)
// are measured here only, once, on the written file: a page redacted in its content that fails them is refused
// (the runner renders it and makes the file again); a rendered page failing them is certified `passed: false`.
// Before all that, a page redacted in its content is read back against its own boxes and word lists
// (rewrite-check.ts), once, here: one that fails is refused the same way.

export class VerificationFailed extends Error {}

/**
 * What a burned page must not show, read from its source glyph by glyph (release-check), never from the builder's
 * word lists. A scan's reading is its stored (OCR) words: those that meet a drawn area are withheld, allowed as
 * often as the stored words clear of every drawn area repeat them, judged here from the words as stored.
 */
async function withheldOf(sources: Sources, check: PageCheck, keepHidden: boolean, sourcePage: PDFPageProxy | null, reader: PageReader): Promise<Withheld[]> {
  const plan = check.certify;
  const drawn = asRects(plan?.drawn ?? []);
  const stored = check.stored ?? [];
  const meets = (word: { x1: number; y1: number; x2: number; y2: number }) => touches({ x1: Math.min(word.x1, word.x2), y1: Math.min(word.y1, word.y2), x2: Math.max(word.x1, word.x2), y2: Math.max(word.y1, word.y2) }, drawn);
  const storedUnder = stored.filter(meets).map((word) => word.text);
  const storedClear = stored.filter((word) => !meets(word)).map((word) => word.text);
  if (!plan || plan.sourceType !== 'pdf') {
    // An image page without stored words has no reading of its own but the builder's word lists.
    const under = check.stored ? storedUnder : check.withheld;
    const outside = fold((check.stored ? storedClear : check.words.map((word) => word.text)).join(''));
    return [...new Set(under.map(fold).filter(Boolean))].map((text) => ({ text, allowance: outside.split(text).length - 1 }));
  }
  const source = await sources.get(plan.sourcePath);
  return withheldOfPage(source, sourcePage ?? plan.page, drawn, storedUnder, storedClear, { keepHidden, ...(sourcePage && { reader }) });
}

/**
 * The source documents of a task's checks, each opened once (PDFs only): the one the export's burn kept on this
 * thread (kept-sources.ts) when there is one, its pages read once for both; else opened anew.
 */
class Sources implements PageReader {
  private open = new Map<string, Promise<PDFDocumentProxy>>();
  private kept = new Map<string, KeptSource>();
  /** The kept source each page of a kept document came from. */
  private owners = new WeakMap<PDFPageProxy, KeptSource>();
  /** Readings of every other page (the output's, sources opened here), until dropped. */
  private readonly own = new PageReadings(readAnew);
  constructor(private readonly exportId: number) {}

  get(path: string): Promise<PDFDocumentProxy> {
    let document = this.open.get(path);
    if (!document) {
      const kept = findKept(this.exportId, path);
      if (kept) this.kept.set(path, kept);
      document = kept ? kept.document : Promise.resolve().then(() => openPdf(new Uint8Array(fs.readFileSync(path))));
      this.open.set(path, document);
    }
    return document;
  }

  async page(path: string, number: number): Promise<PDFPageProxy> {
    const page = await (await this.get(path)).getPage(number);
    const kept = this.kept.get(path);
    if (kept) this.owners.set(page, kept);
    return page;
  }

  glyphs(document: PDFDocumentProxy, page: PDFPageProxy) {
    return (this.owners.get(page)?.reader ?? this.own).glyphs(document, page);
  }

  textContent(page: PDFPageProxy) {
    return (this.owners.get(page)?.reader ?? this.own).textContent(page);
  }

  /** Done with a page: its readings dropped, pdf.js's caches of it cleaned up. */
  drop(page: PDFPageProxy): void {
    const kept = this.owners.get(page);
    if (kept) kept.drop(page);
    else {
      this.own.drop(page);
      page.cleanup();
    }
  }

  async close(): Promise<void> {
    for (const [path, document] of this.open) {
      const kept = this.kept.get(path);
      // Checked: what the burn kept of the source is not needed again (a page made again is burned anew).
      if (kept) kept.release(true);
      else await (await document.catch(() => null))?.destroy();
    }
  }
}

async function compared(output: { document: PDFDocumentProxy; page: PDFPageProxy }, sources: Sources, check: PageCheck, sourcePage: PDFPageProxy | null, reader: PageReader, keepHidden: boolean, outputWords?: SourceWord[]): Promise<PageComparison | null> {
  const plan = check.certify;
  if (!plan || plan.sourceType !== 'pdf' || !sourcePage) return null;
  const source = await sources.get(plan.sourcePath);
  return comparePage({ source: { document: source, page: sourcePage }, output, drawn: asRects(plan.drawn), kind: plan.method, reader, withoutHidden: !keepHidden, ...(outputWords && { outputWords }) });
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
  const bytes = new Uint8Array(fs.readFileSync(task.path));
  if (createHash('sha256').update(bytes).digest('hex') !== task.sha256) throw new VerificationFailed('verification failed: the written file is not the one assembled');
  // A task that searches the file checks its structure on the search's parse of it (searchPdfObjects).
  if (task.structure && !task.search) {
    const reparsed = await PDFDocument.load(bytes, { ...READ_WHOLE, updateMetadata: false });
    const problems = structureProblems(reparsed.context, bytes);
    if (problems.length > 0) throw new VerificationFailed(`verification failed: ${problems.join('; ')}`);
  }
  const document = await openPdf(bytes);
  // Each page's glyphs and text read once for the leak check, the withheld words, the walk and the words.
  const sources = new Sources(task.exportId);
  const readings = sources;
  try {
    if (document.numPages !== task.expectedPages) throw new VerificationFailed(`verification failed: the output has ${document.numPages} pages, ${task.expectedPages} expected`);
    let withheldWords = 0;
    const certificates: PageCertificate[] = [];
    const withheldTexts = new Set<string>();
    const refused: RefusedPage[] = [];
    const pageText: Record<number, string> = {};
    for (const check of task.checks) {
      const plan = check.certify;
      // Each page is opened once for all its checks: its operator list (fonts, glyphs) serves the glyph reading,
      // the words and the rendering alike; cleaned up after.
      const source = plan?.sourceType === 'pdf' ? await sources.get(plan.sourcePath) : null;
      const [outputPage, sourcePage] = await Promise.all([document.getPage(check.outputPage), source && plan ? sources.page(plan.sourcePath, plan.page) : null]);
      let comparison: PageComparison | null;
      let rejected: string[] = [];
      try {
        // A rewritten page is read back against its own lists first: one that fails is refused (rendered), as
        // the rewriting would have sent it to be rendered had it read the page back itself.
        const outputWords = plan?.method === 'vector' && check.rewriting ? await wordsOfPage(outputPage, false, readings) : undefined;
        // The page stamp lies in the margin assembly added, outside the source's visible area: not the rewriting's.
        const rewritten = outputWords?.filter((word) => word.text !== check.stamp);
        rejected = rewritten && check.rewriting ? rewrittenProblems(rewritten, { ...check.rewriting, kept: check.words, withheld: check.withheld, labels: check.added ?? [] }) : [];
        if (rejected.length > 0) continue;
        const withheld = await withheldOf(sources, check, task.keepHidden === true, sourcePage, readings);
        for (const entry of withheld) withheldTexts.add(entry.text);
        const leaks = await checkPages(document, [{ outputPage: check.outputPage, withheld, added: check.added ?? [], page: outputPage }], readings);
        if (leaks.length > 0) throw new VerificationFailed(describeLeaks(leaks, (page) => `${check.label} (output page ${page})`));
        withheldWords += withheld.length;
        comparison = await compared({ document, page: outputPage }, sources, check, sourcePage, readings, task.keepHidden === true, outputWords);
        // The page's text for the whole-file search, from the reading the checks above kept.
        pageText[check.outputPage] = await textContentText(outputPage, readings);
      } finally {
        // Dropped with the page: memory stays that of the pages open at once.
        readings.drop(outputPage);
        if (sourcePage) readings.drop(sourcePage);
        if (plan && rejected.length > 0) refused.push({ documentId: plan.documentId, page: plan.page, reason: `the rewritten page failed its check: ${rejected.join('; ')}` });
      }
      certificates.push(certificateOf(check, 0, comparison));
      // A page redacted in its content must pass (b) and (c) here, on the file to be released: this is its only
      // two-way check. One that fails is refused; the runner renders it and makes the file again.
      if (plan && plan.method === 'vector' && comparison && comparison.problems.length > 0) {
        refused.push({ documentId: plan.documentId, page: plan.page, reason: `the rewritten page failed its check: ${comparison.problems.join('; ')}` });
      }
    }
    // The file's only check task searches it too, on the reading it holds (a small file's fixed cost is its tasks).
    const shown = task.search && refused.length === 0 ? await searchPdfObjects(bytes, document, [...withheldTexts], pageText, task.structure) : undefined;
    return { kind: 'export-verify', verification: { pages: document.numPages, burnedPages: task.checks.length, withheldWords, certificates }, withheld: [...withheldTexts], pageText, ...(shown && { shown }), ...(refused.length > 0 && { refused }) };
  } finally {
    await sources.close();
    await document.destroy();
  }
}

/**
 * The whole-file search (release-check): every object of a written PDF for every withheld text of its pages, each
 * allowed as often as the file's page text shows it; or every entry of a release zip, allowed as often as the
 * released PDFs show it. Any excess fails the export, naming the place, never the text.
 */
export async function searchOutput(task: ExportSearchTask): Promise<ExportSearchResult> {
  const bytes = new Uint8Array(fs.readFileSync(task.path));
  const withheld = [...new Set(task.withheld)];
  if (task.format === 'zip') {
    const leaks = await searchZip(bytes, new Map(withheld.map((text) => [text, task.allowance?.[text] ?? 0])), task.released ?? []);
    if (leaks.length > 0) throw new VerificationFailed(describeLeaks(leaks));
    return { kind: 'export-search', shown: {} };
  }
  if (task.sha256 && createHash('sha256').update(bytes).digest('hex') !== task.sha256) throw new VerificationFailed('verification failed: the file searched is not the one its pages were checked in');
  const document = await openPdf(bytes);
  try {
    return { kind: 'export-search', shown: await searchPdfObjects(bytes, document, withheld, task.pageText ?? {}, task.structure === true) };
  } finally {
    await document.destroy();
  }
}

/** The whole-file search of a PDF already open: each withheld text's count in the page text, or a failure. */
async function searchPdfObjects(bytes: Uint8Array, document: PDFDocumentProxy, withheld: readonly string[], pageText: Record<number, string>, structure = false): Promise<Record<string, number>> {
  const pages = await fileText(document, new Map(Object.entries(pageText).map(([page, text]) => [Number(page), text])));
  const parsed = await PDFDocument.load(bytes, { ...READ_WHOLE, updateMetadata: false, ignoreEncryption: true });
  if (structure) {
    const problems = structureProblems(parsed.context, bytes);
    if (problems.length > 0) throw new VerificationFailed(`verification failed: ${problems.join('; ')}`);
  }
  const leaks = await checkPdfObjects(document, parsed.context, bytes, withheld, pages);
  if (leaks.length > 0) throw new VerificationFailed(describeLeaks(leaks));
  const shown: Record<string, number> = {};
  for (const text of withheld) shown[text] = pages.reduce((sum, page) => sum + (page.split(text).length - 1), 0);
  return shown;
}
