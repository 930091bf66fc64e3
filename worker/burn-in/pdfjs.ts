import { createRequire } from 'node:module';
import path from 'node:path';
import { getDocument, type PDFDocumentProxy, type PDFPageProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import type { FontWidths, TextRun } from './words.js';
import { restoreNativeBuiltins } from '../native-builtins.js';
import { assertPdfDecompression, pdfjsLimitOptions } from '../limits.js';
import { itemText, readAnew, type PageReader } from '../pdf-glyphs/index.js';
import { documentText, unicodeEntries, type FontEncoding } from '../pdf-glyphs/unicode.js';
import { recordTransparency } from './display-list.js';
import { CMapData, StandardFontData, WasmData } from './pdfjs-data.js';

// pdf.js for rendering and reading text in the worker: no eval, fonts drawn from their programs (no FontFace in
// Node), the standard fonts, CMaps, ICC profiles and wasm decoders read from the installed package.

const root = path.dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));
const dir = (name: string) => `${path.join(root, name)}${path.sep}`;

/** The worker's pdf.js document options: limits, fonts' widths kept, and the package's own data files. */
export function documentOptions() {
  return {
    ...pdfjsLimitOptions(),
    // Keeps each font's widths and ToUnicode map, so word boxes can follow the real glyph advances.
    fontExtraProperties: true,
    disableFontFace: true,
    useSystemFonts: false,
    standardFontDataUrl: dir('standard_fonts'),
    cMapUrl: dir('cmaps'),
    cMapPacked: true,
    iccUrl: dir('iccs'),
    wasmUrl: dir('wasm'),
    // Read once per thread, not for every document (pdfjs-data.ts).
    StandardFontDataFactory: StandardFontData,
    CMapReaderFactory: CMapData,
    WasmFactory: WasmData,
    verbosity: 0,
  };
}

let transparencyRecorded = false;

export async function openPdf(bytes: Uint8Array): Promise<PDFDocumentProxy> {
  await assertPdfDecompression(bytes);
  // pdf.js takes ownership of (and may detach) the array it is given: hand it a copy.
  const loading = getDocument({ ...documentOptions(), data: new Uint8Array(bytes) });
  try {
    const document = await loading.promise;
    // pdf.js loads its worker part with the first document, whose core-js replaces Array.prototype.push again.
    restoreNativeBuiltins();
    if (!transparencyRecorded && document.numPages > 0) {
      transparencyRecorded = true;
      recordTransparency(await document.getPage(1));
    }
    return document;
  } catch (error) {
    await loading.destroy();
    throw new Error(`the PDF cannot be read: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/**
 * The page's text runs in PDF user space (marked-content markers skipped), in the document's text (pdf-glyphs/
 * unicode.ts) where the page's fonts are loaded (its operator list was built).
 */
export async function textRuns(page: PDFPageProxy, reader: Pick<PageReader, 'textContent'> = readAnew): Promise<TextRun[]> {
  const content = await reader.textContent(page);
  const runs: TextRun[] = [];
  for (const item of content.items) {
    if ('str' in item) runs.push({ str: itemText(page, item), transform: item.transform as number[], width: item.width, height: item.height, fontName: item.fontName });
  }
  return runs;
}

interface LoadedFont extends FontEncoding {
  widths?: Record<number, number>;
  defaultWidth?: number;
  isType3Font?: boolean;
}

/**
 * Glyph widths of the page's fonts by character, once the page was rendered (fonts are loaded then). Null for a
 * font whose widths or character map pdf.js did not keep, or a Type 3 font (its own glyph space).
 */
export function fontWidthsOf(page: PDFPageProxy): (fontName: string) => FontWidths | null {
  const cache = new Map<string, FontWidths | null>();
  return (fontName) => {
    const cached = cache.get(fontName);
    if (cached !== undefined) return cached;
    let result: FontWidths | null = null;
    try {
      if (page.commonObjs.has(fontName)) {
        const font = page.commonObjs.get(fontName) as LoadedFont;
        const widths = font.widths;
        if (widths && !font.isType3Font) {
          const byChar = new Map<string, number>();
          const entries = [...unicodeEntries(font.toUnicode), ...documentText(font).byCode];
          for (const [code, unicode] of entries) {
            const width = widths[code] ?? font.defaultWidth;
            if (Array.from(unicode).length === 1 && typeof width === 'number' && width > 0 && !byChar.has(unicode)) byChar.set(unicode, width);
          }
          if (byChar.size > 0) result = (char) => byChar.get(char) ?? null;
        }
      }
    } catch {
      result = null;
    }
    cache.set(fontName, result);
    return result;
  };
}
