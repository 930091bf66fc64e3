import { DINGBATS } from './dingbats.js';

// The document's text for a glyph, as ISO 32000 9.10.2 defines it and poppler reads it: the font's ToUnicode
// map first, else the glyph name its encoding (Differences over the base or built-in encoding) gives, through the
// Adobe Glyph List, or for the ZapfDingbats font (a name ending so, as poppler and the glyph list's spec tell it)
// its own list. pdf.js maps names through the Adobe list only and, for a code with neither, reads the bare code:
// ZapfDingbats' "a1" (✁) at code 0x21 reads "!". Only such codes change here.
// One mapping for every reading of a page's text: the glyph reading (text layers, release check, hidden content)
// and pdf.js's text content (the burn-in's word lists and fidelity check).

/** What pdf.js keeps of a loaded font with fontExtraProperties (structured-cloned: its ToUnicode map's table). */
export interface FontEncoding {
  name?: string;
  composite?: boolean;
  defaultEncoding?: readonly (string | null | undefined)[];
  differences?: readonly (string | null | undefined)[] | Record<string, string>;
  toUnicode?: { _map?: unknown };
}

/** A font's ToUnicode entries as pdf.js built them (its IdentityToUnicodeMap keeps no table: none). */
export function unicodeEntries(toUnicode: FontEncoding['toUnicode']): [number, string][] {
  const map = toUnicode?._map;
  if (Array.isArray(map)) return map.flatMap((unicode: unknown, code) => (typeof unicode === 'string' ? [[code, unicode] as [number, string]] : []));
  if (map && typeof map === 'object') {
    return Object.entries(map as Record<string, unknown>).flatMap(([code, unicode]) => (typeof unicode === 'string' ? [[Number(code), unicode] as [number, string]] : []));
  }
  return [];
}

/** How pdf.js's reading of a font's codes becomes the document's text. */
export interface DocumentText {
  /** Code → the document's text, for codes pdf.js reads as the bare code. */
  byCode: ReadonlyMap<number, string>;
  /** pdf.js's character for such a code → the document's text, where no other code reads as that character. */
  byChar: ReadonlyMap<string, string>;
}

const EMPTY: DocumentText = { byCode: new Map(), byChar: new Map() };
const cache = new WeakMap<object, DocumentText>();

/** The codes of a simple ZapfDingbats font that pdf.js reads as the bare code though their glyph name says otherwise. */
export function documentText(font: FontEncoding | null | undefined): DocumentText {
  if (!font || typeof font !== 'object' || font.composite || !/ZapfDingbats$/iu.test(font.name ?? '')) return EMPTY;
  const cached = cache.get(font);
  if (cached) return cached;
  const encoding = font.defaultEncoding ?? [];
  const differences = (font.differences ?? {}) as Record<string, string | null | undefined>;
  const mapped = new Map(unicodeEntries(font.toUnicode));
  const byCode = new Map<number, string>();
  for (let code = 0; code < 256; code += 1) {
    if (mapped.has(code)) continue;
    const name = differences[code] || encoding[code];
    const point = name ? DINGBATS.get(name) : undefined;
    if (point !== undefined) byCode.set(code, String.fromCodePoint(point));
  }
  const taken = new Set(mapped.values());
  const byChar = new Map<string, string>();
  for (const [code, text] of byCode) {
    const bare = String.fromCharCode(code);
    if (!taken.has(bare)) byChar.set(bare, text);
  }
  // Text content gives the micro sign as μ (pdf.js's normalizeUnicode; of codes below 256 only it and U+00A0).
  const micro = byCode.get(0xb5);
  if (micro && !taken.has('\u03bc') && !byChar.has('\u03bc')) byChar.set('\u03bc', micro);
  const result = byCode.size > 0 ? { byCode, byChar } : EMPTY;
  cache.set(font, result);
  return result;
}

/** The document's text for one glyph pdf.js read as `unicode` from `code`, given its font's `documentText` (looked up once a run). */
export function glyphText(table: DocumentText, code: number | undefined, unicode: string): string {
  if (code === undefined || table.byCode.size === 0 || unicode !== String.fromCharCode(code)) return unicode;
  return table.byCode.get(code) ?? unicode;
}

/** The document's text for a run of pdf.js's text content in one font. */
export function runText(font: FontEncoding | null | undefined, text: string): string {
  const { byChar } = documentText(font);
  if (byChar.size === 0) return text;
  return Array.from(text, (char) => byChar.get(char) ?? char).join('');
}
