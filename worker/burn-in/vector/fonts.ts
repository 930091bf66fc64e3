import { PDFArray, PDFDict, PDFName, type PDFContext } from 'pdf-lib';
import { MAC_ROMAN, STANDARD, SYMBOL, WIN_ANSI, ZAPF_DINGBATS } from './encodings.js';
import { arrayAt, dictAt, nameAt, nameOf, numberAt, numberOf, numbersOf, resolved } from './pdf-values.js';
import { standardFontName, standardMetrics } from './standard-fonts.js';

// Glyph metrics of the fonts a page shows text with: how a string splits into glyph codes, each glyph's advance,
// and how far glyphs reach below and above the baseline (a stand-in where pdf.js gives no glyph's own ink).
// Fonts whose glyphs it cannot place (CMaps other than Identity-H/V, simple fonts without widths) are reported
// as such; the rewriting then reads the glyphs as pdf.js does.

export interface FontMetrics {
  /** Identity-H: two bytes a code; simple fonts: one. */
  twoByte: boolean;
  /** Advance of a code in 1/1000 em; undefined when the font cannot say. */
  width(code: number): number | undefined;
  /** Extent of glyphs below (negative) and above the baseline, in em. */
  descent: number;
  ascent: number;
  /** The font program travels in the file (else each viewer substitutes its own, of slightly other shapes). */
  embedded: boolean;
  /** Vertical writing (Identity-V): each code's vertical advance w1y and position vector (vx, vy), 1/1000 em. */
  vertical?: { advance(code: number): number; origin(code: number): [number, number] };
  /** Viewers do not agree where its glyphs lie (or whether they show): its writing mode, for a bound of the run. */
  unplaced?: 'H' | 'V';
}

export type FontResolution = { ok: true; font: FontMetrics } | { ok: false; reason: string };

const DEFAULT_DESCENT = -0.25;
const DEFAULT_ASCENT = 1;

/**
 * Vertical extent from Ascent/Descent and the FontBBox, whichever reaches further, kept within sane bounds:
 * broken descriptors (0 or a CJK font's huge box) must neither shrink a glyph to nothing nor make it cover
 * the neighbouring lines.
 */
function verticalExtent(ascent: number | undefined, descent: number | undefined, bbox: readonly number[] | undefined): { ascent: number; descent: number } {
  const tops = [ascent, bbox?.[3]].filter((value): value is number => typeof value === 'number' && value > 0);
  const bottoms = [descent, bbox?.[1]].filter((value): value is number => typeof value === 'number' && value < 0);
  const top = tops.length > 0 ? Math.max(...tops) / 1000 : DEFAULT_ASCENT;
  const bottom = bottoms.length > 0 ? Math.min(...bottoms) / 1000 : DEFAULT_DESCENT;
  return { ascent: Math.min(1.1, Math.max(0.6, top)), descent: Math.max(-0.4, Math.min(-0.1, bottom)) };
}

function descriptorExtent(context: PDFContext, descriptor: PDFDict | undefined): { ascent: number; descent: number } {
  return verticalExtent(numberAt(context, descriptor, 'Ascent'), numberAt(context, descriptor, 'Descent'), numbersOf(context, arrayAt(context, descriptor, 'FontBBox')));
}

function isEmbedded(descriptor: PDFDict | undefined): boolean {
  return ['FontFile', 'FontFile2', 'FontFile3'].some((key) => descriptor?.has(PDFName.of(key)) === true);
}

const BASE_ENCODINGS: Record<string, readonly string[]> = { WinAnsiEncoding: WIN_ANSI, MacRomanEncoding: MAC_ROMAN, StandardEncoding: STANDARD };

/** Code → glyph name of a standard font: its built-in encoding or the named one, then /Differences. */
function glyphNames(context: PDFContext, font: PDFDict, symbolic: string | null): string[] | string {
  const encoding = resolved(context, font.get(PDFName.of('Encoding')));
  let base: readonly string[] = symbolic === 'Symbol' ? SYMBOL : symbolic === 'ZapfDingbats' ? ZAPF_DINGBATS : STANDARD;
  const named = (name: string | undefined) => {
    if (name === undefined || symbolic) return true;
    const table = BASE_ENCODINGS[name];
    if (!table) return false;
    base = table;
    return true;
  };
  let differences: PDFArray | undefined;
  if (encoding instanceof PDFName) {
    if (!named(encoding.decodeText())) return `its encoding ${encoding.decodeText()} is not supported`;
  } else if (encoding instanceof PDFDict) {
    if (!named(nameAt(context, encoding, 'BaseEncoding'))) return `its base encoding ${nameAt(context, encoding, 'BaseEncoding') ?? ''} is not supported`;
    differences = arrayAt(context, encoding, 'Differences');
  } else if (encoding !== undefined) {
    return 'its encoding is neither a name nor a dictionary';
  }
  const names = [...base];
  let code = -1;
  for (const item of differences?.asArray() ?? []) {
    const number = numberOf(context, item);
    if (number !== undefined) {
      code = number;
      continue;
    }
    const name = nameOf(context, item);
    if (name === undefined || code < 0 || code > 255) return 'its /Differences cannot be read';
    names[code] = name;
    code += 1;
  }
  return names;
}

function simpleFont(context: PDFContext, font: PDFDict, label: string): FontResolution {
  const descriptor = dictAt(context, font, 'FontDescriptor');
  const widthsArray = arrayAt(context, font, 'Widths');
  if (widthsArray) {
    const widths = numbersOf(context, widthsArray);
    if (!widths) return { ok: false, reason: `font ${label}: /Widths cannot be read` };
    const first = numberAt(context, font, 'FirstChar') ?? 0;
    const missing = numberAt(context, descriptor, 'MissingWidth') ?? 0;
    return {
      ok: true,
      font: { twoByte: false, width: (code) => (code >= first && code - first < widths.length ? widths[code - first] : missing), ...descriptorExtent(context, descriptor), embedded: isEmbedded(descriptor) },
    };
  }
  const standard = standardFontName(nameAt(context, font, 'BaseFont') ?? '');
  if (!standard) return { ok: false, reason: `font ${label} has no /Widths and is not a standard font` };
  // An embedded program brings its own widths, which readers use instead of the standard ones.
  if (isEmbedded(descriptor)) return { ok: false, reason: `font ${label} is embedded without /Widths` };
  const metrics = standardMetrics(standard);
  const names = glyphNames(context, font, metrics.symbolic ? standard : null);
  if (typeof names === 'string') return { ok: false, reason: `font ${label}: ${names}` };
  const extent = descriptor ? descriptorExtent(context, descriptor) : verticalExtent(metrics.ascent, metrics.descent, metrics.bbox);
  return { ok: true, font: { twoByte: false, width: (code) => metrics.width(names[code] ?? ''), ...extent, embedded: false } };
}

/**
 * /W and /W2 of a CIDFont, whose entries hold `size` numbers per CID: `c [v1 v2 …]` gives CIDs c, c+1, … their
 * numbers in turn, `c_first c_last v1 … v_size` gives every CID of the range the same (ISO 32000-2, 9.7.4.3).
 */
function cidEntries<T>(context: PDFContext, array: PDFArray | undefined, size: number, entry: (values: number[]) => T): Map<number, T> | null {
  const entries = new Map<number, T>();
  const items = array?.asArray() ?? [];
  for (let index = 0; index < items.length; ) {
    const first = numberOf(context, items[index]);
    if (first === undefined) return null;
    const next = resolved(context, items[index + 1]);
    if (next instanceof PDFArray) {
      const list = numbersOf(context, next);
      if (!list || list.length % size !== 0) return null;
      for (let offset = 0; offset < list.length; offset += size) entries.set(first + offset / size, entry(list.slice(offset, offset + size)));
      index += 2;
    } else {
      const last = numberOf(context, next);
      const values = Array.from({ length: size }, (_, step) => numberOf(context, items[index + 2 + step]));
      if (last === undefined || values.some((value) => value === undefined) || last - first > 65_535) return null;
      const value = entry(values as number[]);
      for (let cid = first; cid <= last; cid += 1) entries.set(cid, value);
      index += 2 + size;
    }
  }
  return entries;
}

/** /W of a CIDFont: a width per CID. */
function cidWidths(context: PDFContext, array: PDFArray | undefined): Map<number, number> | null {
  return cidEntries(context, array, 1, ([width]) => width as number);
}

/** /W2 of a CIDFont: w1y, vx, vy per CID. */
function cidVerticalMetrics(context: PDFContext, array: PDFArray | undefined): Map<number, [number, number, number]> | null {
  return cidEntries(context, array, 3, (values) => values as [number, number, number]);
}

function type0Font(context: PDFContext, font: PDFDict, label: string): FontResolution {
  const encoding = nameAt(context, font, 'Encoding');
  if (encoding !== 'Identity-H' && encoding !== 'Identity-V') return { ok: false, reason: `font ${label} uses the CMap ${encoding ?? '(embedded)'}, only Identity-H and Identity-V are supported` };
  const descendant = resolved(context, arrayAt(context, font, 'DescendantFonts')?.get(0));
  // No descendant (null, missing): pdf.js neither draws, extracts nor advances over its glyphs; poppler and MuPDF
  // substitute fonts of their own widths. No one place is right: a show of it is bounded as a whole (show.ts).
  if (!(descendant instanceof PDFDict)) return { ok: true, font: { twoByte: true, width: () => 0, descent: DEFAULT_DESCENT, ascent: DEFAULT_ASCENT, embedded: false, unplaced: encoding === 'Identity-H' ? 'H' : 'V' } };
  const widths = cidWidths(context, arrayAt(context, descendant, 'W'));
  if (!widths) return { ok: false, reason: `font ${label}: /W cannot be read` };
  const fallback = numberAt(context, descendant, 'DW') ?? 1000;
  const descriptor = dictAt(context, descendant, 'FontDescriptor');
  const width = (code: number) => widths.get(code) ?? fallback;
  let vertical: FontMetrics['vertical'];
  if (encoding === 'Identity-V') {
    const metrics = cidVerticalMetrics(context, arrayAt(context, descendant, 'W2'));
    if (!metrics) return { ok: false, reason: `font ${label}: /W2 cannot be read` };
    const [defaultY = 880, defaultAdvance = -1000] = numbersOf(context, arrayAt(context, descendant, 'DW2')) ?? [];
    vertical = {
      advance: (code) => metrics.get(code)?.[0] ?? defaultAdvance,
      origin: (code) => {
        const own = metrics.get(code);
        return own ? [own[1], own[2]] : [width(code) / 2, defaultY];
      },
    };
  }
  return { ok: true, font: { twoByte: true, width, ...descriptorExtent(context, descriptor), embedded: isEmbedded(descriptor), ...(vertical && { vertical }) } };
}

/** Type 3: /Widths in glyph space, turned into text space by the FontMatrix (which may not shear or turn). */
function type3Font(context: PDFContext, font: PDFDict, label: string): FontResolution {
  const matrix = numbersOf(context, arrayAt(context, font, 'FontMatrix'));
  if (!matrix || matrix.length !== 6) return { ok: false, reason: `font ${label} (Type 3) has no readable /FontMatrix` };
  const [a, b, c, d] = matrix as [number, number, number, number];
  if (b !== 0 || c !== 0 || !(a !== 0) || !(d !== 0)) return { ok: false, reason: `font ${label} (Type 3) has a turned or sheared /FontMatrix` };
  const widths = numbersOf(context, arrayAt(context, font, 'Widths'));
  if (!widths) return { ok: false, reason: `font ${label} (Type 3) has no readable /Widths` };
  const first = numberAt(context, font, 'FirstChar') ?? 0;
  const bbox = numbersOf(context, arrayAt(context, font, 'FontBBox'));
  const [, lly = -250, , ury = 1000] = bbox ?? [];
  const extent = verticalExtent(Math.max(lly * d, ury * d) * 1000, Math.min(lly * d, ury * d) * 1000, undefined);
  return {
    ok: true,
    // The glyph procedures are in the file: pdf.js measures them.
    font: { twoByte: false, width: (code) => (code >= first && code - first < widths.length ? (widths[code - first] as number) * a * 1000 : 0), ...extent, embedded: true },
  };
}

const cache = new WeakMap<PDFDict, FontResolution>();

/** The metrics of a font dictionary (cached per dictionary); `label` names it in reasons (its resource name). */
export function resolveFont(context: PDFContext, font: PDFDict, label: string): FontResolution {
  const cached = cache.get(font);
  if (cached) return cached;
  const subtype = nameAt(context, font, 'Subtype');
  let resolution: FontResolution;
  if (subtype === 'Type1' || subtype === 'MMType1' || subtype === 'TrueType') resolution = simpleFont(context, font, label);
  else if (subtype === 'Type0') resolution = type0Font(context, font, label);
  else if (subtype === 'Type3') resolution = type3Font(context, font, label);
  else resolution = { ok: false, reason: `font ${label} is ${subtype ?? 'of no known type'}, whose glyphs cannot be measured` };
  cache.set(font, resolution);
  return resolution;
}
