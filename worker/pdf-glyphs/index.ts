import type { PDFDocumentProxy, PDFPageProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { pageGlyphs, type Glyph, type HiddenBy } from './interpret.js';
import type { PageReader } from './readings.js';
import { runText, type FontEncoding } from './unicode.js';

// One front door for reading a PDF page glyph by glyph (interpret.ts): the release check, the text layer of
// rendered pages and the scan's hidden-content report all read pages this way.

export { emBox, quadOf, type EmSpan, type Glyph, type HiddenBy, type Quad } from './interpret.js';
export { PageReadings, type PageReader } from './readings.js';

const configs = new WeakMap<PDFDocumentProxy, Promise<{ isVisible(group: unknown): boolean } | null>>();

function visibility(document: PDFDocumentProxy): Promise<{ isVisible(group: unknown): boolean } | null> {
  let config = configs.get(document);
  if (!config) {
    config = document.getOptionalContentConfig({ intent: 'display' }).catch(() => null) as Promise<{ isVisible(group: unknown): boolean } | null>;
    configs.set(document, config);
  }
  return config;
}

/** Every glyph of a page with its own extent and what, if anything, hides it from a viewer. */
export async function readGlyphs(document: PDFDocumentProxy, page: PDFPageProxy): Promise<Glyph[]> {
  const config = await visibility(document);
  return pageGlyphs(page, (properties) => {
    try {
      return config ? config.isVisible(properties) : true;
    } catch {
      return true;
    }
  });
}

/** Each reading made anew: for callers that read a page once anyway. */
export const readAnew: PageReader = { glyphs: readGlyphs, textContent: (page) => page.getTextContent() };

/**
 * The document's text of one item of pdf.js's text content, as the glyph reading gives it (unicode.ts): needs
 * the page's fonts loaded (its operator list built first), else pdf.js's own reading stays.
 */
export function itemText(page: PDFPageProxy, item: { str: string; fontName: string }): string {
  let font: FontEncoding | null = null;
  try {
    font = page.commonObjs.has(item.fontName) ? (page.commonObjs.get(item.fontName) as FontEncoding) : null;
  } catch {
    font = null;
  }
  return runText(font, item.str);
}

/** Text that a viewer of the source never shows, by kind, with where it lies: what a release leaves out. */
export interface HiddenContent {
  kind: HiddenBy;
  glyphs: number;
  /** Bounds of that kind's glyphs on the page (user space). */
  x1: number;
  y1: number;
  x2: number;
  y2: number;
  /** The hidden text itself, in drawing order (whitespace collapsed), at most HIDDEN_TEXT_LIMIT characters: for the clerk's eyes only. */
  text: string;
}

/** Characters of hidden text kept per kind and page (the scan's result is internal; the clerk reads it in the viewer). */
export const HIDDEN_TEXT_LIMIT = 500;

/** Hidden glyphs are those a viewer does not show, except an invisible OCR layer over the page's own picture. */
export function isHidden(glyph: Glyph): boolean {
  return glyph.hiddenBy !== null && !(glyph.hiddenBy === 'invisible' && glyph.overImage);
}

export function hiddenContent(glyphs: readonly Glyph[]): HiddenContent[] {
  const byKind = new Map<HiddenBy, HiddenContent>();
  const last = new Map<HiddenBy, Glyph>();
  for (const glyph of glyphs) {
    if (!isHidden(glyph) || glyph.hiddenBy === null) continue;
    const entry = byKind.get(glyph.hiddenBy);
    if (glyph.text.trim() === '') {
      // Whitespace counts for nothing but keeps the words of the hidden text apart.
      if (entry && entry.text.length < HIDDEN_TEXT_LIMIT) entry.text += ' ';
      continue;
    }
    const previous = last.get(glyph.hiddenBy);
    last.set(glyph.hiddenBy, glyph);
    if (!entry) byKind.set(glyph.hiddenBy, { kind: glyph.hiddenBy, glyphs: 1, x1: glyph.x1, y1: glyph.y1, x2: glyph.x2, y2: glyph.y2, text: glyph.text });
    else {
      // A glyph that does not follow the previous one on its line starts another run: a space between them.
      if (entry.text.length < HIDDEN_TEXT_LIMIT) entry.text += previous && !follows(previous, glyph) ? ` ${glyph.text}` : glyph.text;
      entry.glyphs += 1;
      entry.x1 = Math.min(entry.x1, glyph.x1);
      entry.y1 = Math.min(entry.y1, glyph.y1);
      entry.x2 = Math.max(entry.x2, glyph.x2);
      entry.y2 = Math.max(entry.y2, glyph.y2);
    }
  }
  return [...byKind.values()].map((entry) => ({ ...entry, text: Array.from(entry.text.replace(/\s+/gu, ' ').trim()).slice(0, HIDDEN_TEXT_LIMIT).join('') }));
}

/** Whether `next` continues `previous` on the same line (or column) with no gap wider than about a space. */
function follows(previous: Glyph, next: Glyph): boolean {
  const size = Math.max(previous.y2 - previous.y1, previous.x2 - previous.x1, 1);
  if (previous.vertical) return Math.abs(previous.x1 - next.x1) < size * 0.5 && Math.abs(next.y2 - previous.y1) < size * 0.3;
  return Math.abs(previous.y1 - next.y1) < size * 0.5 && Math.abs(next.x1 - previous.x2) < size * 0.3;
}
