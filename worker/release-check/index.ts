import { PDFDocument } from 'pdf-lib';
import type { PDFDocumentProxy, PDFPageProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { openPdf } from '../burn-in/pdfjs.js';
import { readAnew, type Glyph, type PageReader } from '../pdf-glyphs/index.js';
import { checkPdfObjects, fileText, textContentText, type Leak, type PlaceKind } from './search.js';
import { countIn, fold, joinedText, occurrences, visualText, withheldOfGlyphs, type Rect, type Withheld } from './strings.js';
import { READ_WHOLE } from '../pdf-lib-load.js';

// Release assurance (issue 25): a check that reads a written release as an adversary would, knowing nothing of
// how it was built. From each source page it takes, glyph by glyph, the strings drawn under the boxes (and
// what the source never showed), each with its allowance: how often the source draws it outside every box.
// Then it searches the written file for them: each checked page's text by two readings (pdf.js's text content
// and the glyph reading of the operator list), and every object of the file (strings, names, decompressed
// streams, metadata, URIs…). More occurrences than allowed is a leak, reported by page and place, never text.

export { fold, touches, type Rect, type Withheld } from './strings.js';
export { MIN_NAME_NEEDLE, STANDARD_FONT_NAMES, type ObjectPlace } from './objects.js';
export { checkObjects, checkPdfObjects, fileText, MIN_OBJECT_NEEDLE, textContentText, type Leak, type PlaceKind } from './search.js';
export { searchZip } from './zip.js';

export interface PageToCheck {
  outputPage: number;
  withheld: readonly Withheld[];
  /** Texts the export itself draws on the page (exemption labels, page stamps): allowed on top. */
  added?: readonly string[];
  /** The output page, when the caller opened it (and cleans it up) to read it for more than this check. */
  page?: PDFPageProxy;
}

/** The withheld strings of one source page under `drawn` (user space), read from its glyphs. */
export async function withheldOfPage(
  document: PDFDocumentProxy,
  /** A page number, or a page the caller opened (and cleans up): its operator list then serves the caller too. */
  pageNumber: number | PDFPageProxy,
  drawn: readonly Rect[],
  extra: readonly string[] = [],
  extraAllowed: readonly string[] = [],
  /** `reader`: where a caller reading the page for more than this keeps its glyphs. */
  options: { keepHidden?: boolean; reader?: PageReader } = {},
): Promise<Withheld[]> {
  const page = typeof pageNumber === 'number' ? await document.getPage(pageNumber) : pageNumber;
  try {
    return withheldOfGlyphs(await (options.reader ?? readAnew).glyphs(document, page), drawn, extra, extraAllowed, options);
  } finally {
    if (typeof pageNumber === 'number') page.cleanup();
  }
}

/** A glyph of a layer a viewer does not show (invisible text, optional content, covered, clipped). */
function inLayer(glyph: Glyph): boolean {
  return glyph.hiddenBy !== null;
}

/** Both readings of an output page: pdf.js's text content, and glyph by glyph (visible text and the rest). */
async function readingsOf(document: PDFDocumentProxy, page: PDFPageProxy, reader: PageReader) {
  // Glyphs first: their operator list loads the fonts the text content's reading maps through.
  const glyphs = await reader.glyphs(document, page);
  const textContent = await textContentText(page, reader);
  return {
    textContent,
    all: joinedText(glyphs),
    visual: visualText(glyphs),
    layer: joinedText(glyphs, glyphs.map(inLayer)),
  };
}

/** Checks the given output pages by both readings; returns the leaks found. */
export async function checkPages(output: PDFDocumentProxy, pages: readonly PageToCheck[], reader: PageReader = readAnew): Promise<Leak[]> {
  const leaks: Leak[] = [];
  for (const check of pages) {
    if (check.withheld.length === 0) continue;
    const page = check.page ?? (await output.getPage(check.outputPage));
    try {
      const read = await readingsOf(output, page, reader);
      const added = fold((check.added ?? []).join(' '));
      const places = new Set<PlaceKind>();
      for (const withheld of check.withheld) {
        const allowed = withheld.allowance + occurrences(added, withheld.text);
        if (occurrences(read.textContent, withheld.text) > allowed) places.add('page-text');
        if (occurrences(read.all, withheld.text) > allowed) places.add(occurrences(read.layer, withheld.text) > 0 ? 'text-layer' : 'glyph-text');
        else if (occurrences(read.visual, withheld.text) > allowed) places.add('page-text');
      }
      for (const place of places) leaks.push({ page: check.outputPage, place });
    } finally {
      if (!check.page) page.cleanup();
    }
  }
  return leaks;
}

/**
 * The whole check of a written PDF: the given pages by both readings, then every object of the file for every
 * withheld text of those pages. Returns the leaks found, and each withheld text's count in the file's text.
 */
export async function searchPdf(bytes: Uint8Array, pages: readonly PageToCheck[]): Promise<{ leaks: Leak[]; shown: Map<string, number> }> {
  const output = await openPdf(bytes);
  try {
    const leaks = await checkPages(output, pages);
    const withheld = [...new Set(pages.flatMap((page) => page.withheld.map((entry) => entry.text)))];
    const tokens = await fileText(output);
    const parsed = await PDFDocument.load(bytes, { ...READ_WHOLE, updateMetadata: false, ignoreEncryption: true });
    leaks.push(...(await checkPdfObjects(output, parsed.context, bytes, withheld, tokens)));
    return { leaks, shown: new Map(withheld.map((text) => [text, countIn(tokens, text)])) };
  } finally {
    await output.destroy();
  }
}

/** A failure message for leaks: where, never what. */
export function describeLeaks(leaks: readonly Leak[], label: (page: number) => string = (page) => `output page ${page}`): string {
  const parts = leaks.slice(0, 6).map((leak) => `${leak.entry ? `${leak.entry}: ` : ''}${leak.page === null ? 'the file' : label(leak.page)} (${leak.place})`);
  return `verification failed: text that lay under a redaction or was hidden in the source is still in ${parts.join(', ')}${leaks.length > 6 ? ` and ${leaks.length - 6} more place(s)` : ''}`;
}
