import type { PDFDocumentProxy, PDFPageProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import type { Glyph } from './interpret.js';

// What several checks of one page read from it, read once: a verify task's leak check, withheld words, structural
// walk and word comparison each need a page's glyphs or pdf.js's text content, and each reading costs a pass over
// the operator list (or a text extraction in pdf.js). The readings are plain data, not tied to the page's caches.

type TextContent = Awaited<ReturnType<PDFPageProxy['getTextContent']>>;

export interface PageReader {
  /** The page's glyphs as readGlyphs gives them (display intent, annotations drawn). */
  glyphs(document: PDFDocumentProxy, page: PDFPageProxy): Promise<Glyph[]>;
  /** pdf.js's text content with its default options. */
  textContent(page: PDFPageProxy): Promise<TextContent>;
}

/**
 * A reader that keeps each page's readings until `drop`: keyed by the page proxy (pdf.js gives one per document
 * and page number) and the kind of reading (its intent). Callers drop a page when done with it, so memory stays
 * bounded by the pages open at once.
 */
export class PageReadings implements PageReader {
  private readonly kept = new Map<PDFPageProxy, Map<string, Promise<unknown>>>();
  constructor(private readonly read: PageReader) {}

  private once<T>(page: PDFPageProxy, key: string, make: () => Promise<T>): Promise<T> {
    let byKey = this.kept.get(page);
    if (!byKey) this.kept.set(page, (byKey = new Map()));
    let reading = byKey.get(key) as Promise<T> | undefined;
    if (!reading) {
      reading = make();
      byKey.set(key, reading);
    }
    return reading;
  }

  glyphs(document: PDFDocumentProxy, page: PDFPageProxy): Promise<Glyph[]> {
    return this.once(page, 'glyphs:display:annotations', () => this.read.glyphs(document, page));
  }

  textContent(page: PDFPageProxy): Promise<TextContent> {
    return this.once(page, 'text:default', () => this.read.textContent(page));
  }

  /** Whether a reading of the page is kept. */
  holds(page: PDFPageProxy): boolean {
    return this.kept.has(page);
  }

  drop(page: PDFPageProxy): void {
    this.kept.delete(page);
  }
}
