import type { PDFContext } from 'pdf-lib';
import type { PDFDocumentProxy, PDFPageProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { itemText, readAnew, readGlyphs, type PageReader } from '../pdf-glyphs/index.js';
import { searchObjects, type ObjectPlace } from './objects.js';
import { countIn, fold, joinedText } from './strings.js';

// The readings the release check searches: pdf.js's text content of a page or file, and the objects of a file.

export type PlaceKind = 'page-text' | 'glyph-text' | 'text-layer' | ObjectPlace | 'zip-entry';

export interface Leak {
  /** Output page (1-based); null for a place that belongs to no page. */
  page: number | null;
  place: PlaceKind;
  /** The zip entry, for a leak found in a release package. */
  entry?: string;
}

/** Shortest withheld text searched in objects and packages: one character matches too much unrelated data. */
export const MIN_OBJECT_NEEDLE = 2;

/**
 * pdf.js's reading of a page: its text content in order, folded and joined (strings.ts joinedText), in the
 * document's text (pdf-glyphs/unicode.ts) where the page's fonts are loaded (its operator list built first).
 */
export async function textContentText(page: PDFPageProxy, reader: Pick<PageReader, 'textContent'> = readAnew): Promise<string> {
  const content = await reader.textContent(page);
  let text = '';
  for (const item of content.items) if ('str' in item) text += itemText(page, item);
  return fold(text);
}

/**
 * Every page's text of a file by pdf.js's reading: what the release shows, for object-level allowances. `known`:
 * pages whose text (textContentText) was read already from the same bytes, by the page checks.
 */
export async function fileText(output: PDFDocumentProxy, known: ReadonlyMap<number, string> = new Map()): Promise<string[]> {
  const pages: string[] = [];
  for (let number = 1; number <= output.numPages; number += 1) {
    const read = known.get(number);
    if (read !== undefined) {
      pages.push(read);
      continue;
    }
    const page = await output.getPage(number);
    try {
      pages.push(await textContentText(page));
    } finally {
      page.cleanup();
    }
  }
  return pages;
}

/**
 * The whole-file search: every object of the written file, each withheld text (folded) no more often in any one
 * place than the file's own page text shows it (after the page checks, that text is what may be released).
 */
export function checkObjects(context: PDFContext, bytes: Uint8Array | null, withheld: readonly string[], shownTokens: readonly string[], extraAllowance: ReadonlyMap<string, number> = new Map()): Leak[] {
  const needles = [...new Set(withheld.filter((text) => text.length >= MIN_OBJECT_NEEDLE))];
  const found = searchObjects(context, needles, bytes ?? undefined);
  const places = new Set<ObjectPlace>();
  for (const [needle, byPlace] of found) {
    const allowed = countIn(shownTokens, needle) + (extraAllowance.get(needle) ?? 0);
    for (const [place, count] of byPlace) if (count > allowed) places.add(place);
  }
  return [...places].map((place) => ({ page: null, place }));
}


/**
 * checkObjects over a PDF, where a text's shown codes count too: a content stream holds a Symbol or ZapfDingbats
 * string's codes ("lazy" for λαζψ), which its page text never reads. Only when the first count finds too many
 * (every page's glyphs then read once more): each text is allowed as often as the shown text or its codes hold it.
 */
export async function checkPdfObjects(output: PDFDocumentProxy, context: PDFContext, bytes: Uint8Array, withheld: readonly string[], shownTokens: readonly string[]): Promise<Leak[]> {
  const leaks = checkObjects(context, bytes, withheld, shownTokens);
  if (leaks.length === 0) return leaks;
  const codes: string[] = [];
  for (let number = 1; number <= output.numPages; number += 1) {
    const page = await output.getPage(number);
    try {
      codes.push(joinedText((await readGlyphs(output, page)).map((glyph) => ({ ...glyph, text: glyph.bytes }))));
    } finally {
      page.cleanup();
    }
  }
  const extra = new Map(withheld.map((text) => [text, Math.max(0, countIn(codes, text) - countIn(shownTokens, text))]));
  return checkObjects(context, bytes, withheld, shownTokens, extra);
}
