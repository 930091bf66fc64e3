import type { PDFDocumentProxy, PDFPageProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { pageGlyphs, type Glyph, type HiddenBy } from './interpret.js';

// One front door for reading a PDF page glyph by glyph (interpret.ts): the release check, the text layer of
// rendered pages and the scan's hidden-content report all read pages this way.

export type { Glyph, HiddenBy } from './interpret.js';

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

/** Text that a viewer of the source never shows, by kind, with where it lies: what a release leaves out. */
export interface HiddenContent {
  kind: HiddenBy;
  glyphs: number;
  /** Bounds of that kind's glyphs on the page (user space). */
  x1: number;
  y1: number;
  x2: number;
  y2: number;
}

/** Hidden glyphs are those a viewer does not show, except an invisible OCR layer over the page's own picture. */
export function isHidden(glyph: Glyph): boolean {
  return glyph.hiddenBy !== null && !(glyph.hiddenBy === 'invisible' && glyph.overImage);
}

export function hiddenContent(glyphs: readonly Glyph[]): HiddenContent[] {
  const byKind = new Map<HiddenBy, HiddenContent>();
  for (const glyph of glyphs) {
    if (!isHidden(glyph) || glyph.hiddenBy === null || glyph.text.trim() === '') continue;
    const entry = byKind.get(glyph.hiddenBy);
    if (!entry) byKind.set(glyph.hiddenBy, { kind: glyph.hiddenBy, glyphs: 1, x1: glyph.x1, y1: glyph.y1, x2: glyph.x2, y2: glyph.y2 });
    else {
      entry.glyphs += 1;
      entry.x1 = Math.min(entry.x1, glyph.x1);
      entry.y1 = Math.min(entry.y1, glyph.y1);
      entry.x2 = Math.max(entry.x2, glyph.x2);
      entry.y2 = Math.max(entry.y2, glyph.y2);
    }
  }
  return [...byKind.values()];
}
