import { Font, type IFontNames } from '@pdf-lib/standard-fonts';

// The standard 14 fonts: a PDF may name them without /Widths; their metrics come from Adobe's AFM files
// (shipped with pdf-lib as @pdf-lib/standard-fonts).

const STANDARD_14 = new Set<string>([
  'Courier',
  'Courier-Bold',
  'Courier-Oblique',
  'Courier-BoldOblique',
  'Helvetica',
  'Helvetica-Bold',
  'Helvetica-Oblique',
  'Helvetica-BoldOblique',
  'Times-Roman',
  'Times-Bold',
  'Times-Italic',
  'Times-BoldItalic',
  'Symbol',
  'ZapfDingbats',
]);

/**
 * Other names writers give the same faces (metric-compatible Windows fonts), as pdf.js maps them after turning
 * "," and "_" into "-". Subset-tagged names (ABCDEF+…) are embedded fonts and never standard ones.
 */
const ALIASES: Record<string, string> = {};
const aliasGroups: [string, string[]][] = [
  ['Helvetica', ['Arial', 'ArialMT', 'ArialNarrow', 'ArialUnicodeMS']],
  ['Helvetica-Bold', ['Arial-Bold', 'Arial-BoldMT', 'Arial-BoldMT-Bold', 'ArialNarrow-Bold', 'ArialUnicodeMS-Bold', 'HelveticaLTStd-Bold']],
  ['Helvetica-Oblique', ['Arial-Italic', 'Arial-ItalicMT', 'Arial-ItalicMT-Italic', 'ArialNarrow-Italic', 'ArialUnicodeMS-Italic', 'Helvetica-Italic']],
  ['Helvetica-BoldOblique', ['Arial-BoldItalic', 'Arial-BoldItalicMT', 'Arial-BoldItalicMT-BoldItalic', 'ArialNarrow-BoldItalic', 'ArialUnicodeMS-BoldItalic', 'Helvetica-BoldItalic']],
  ['Times-Roman', ['TimesNewRoman', 'TimesNewRomanPS', 'TimesNewRomanPSMT']],
  ['Times-Bold', ['TimesNewRoman-Bold', 'TimesNewRomanPS-Bold', 'TimesNewRomanPS-BoldMT', 'TimesNewRomanPSMT-Bold']],
  ['Times-Italic', ['TimesNewRoman-Italic', 'TimesNewRomanPS-Italic', 'TimesNewRomanPS-ItalicMT', 'TimesNewRomanPSMT-Italic']],
  ['Times-BoldItalic', ['TimesNewRoman-BoldItalic', 'TimesNewRomanPS-BoldItalic', 'TimesNewRomanPS-BoldItalicMT', 'TimesNewRomanPSMT-BoldItalic']],
  ['Courier', ['CourierNew', 'CourierNewPSMT']],
  ['Courier-Bold', ['CourierNew-Bold', 'CourierNewPS-BoldMT']],
  ['Courier-Oblique', ['CourierNew-Italic', 'CourierNewPS-ItalicMT', 'Courier-Italic']],
  ['Courier-BoldOblique', ['CourierNew-BoldItalic', 'CourierNewPS-BoldItalicMT', 'Courier-BoldItalic']],
  ['Symbol', ['Symbol-Bold', 'Symbol-Italic', 'Symbol-BoldItalic']],
];
for (const [standard, names] of aliasGroups) for (const name of names) ALIASES[name] = standard;

/** The standard font a /BaseFont names, or null. */
export function standardFontName(baseFont: string): string | null {
  const name = baseFont.replace(/[,_]/g, '-');
  if (STANDARD_14.has(name)) return name;
  return ALIASES[name] ?? null;
}

export interface StandardMetrics {
  /** Advance width of a glyph by name (1/1000 em), or undefined when the font has no such glyph. */
  width(glyph: string): number | undefined;
  ascent: number;
  descent: number;
  bbox: [number, number, number, number];
  symbolic: boolean;
}

const loaded = new Map<string, StandardMetrics>();

export function standardMetrics(name: string): StandardMetrics {
  let metrics = loaded.get(name);
  if (!metrics) {
    const font = Font.load(name as IFontNames);
    const widths = new Map(font.CharMetrics.map((metric) => [metric.N, metric.WX]));
    metrics = {
      width: (glyph) => widths.get(glyph),
      ascent: typeof font.Ascender === 'number' ? font.Ascender : font.FontBBox[3],
      descent: typeof font.Descender === 'number' ? font.Descender : font.FontBBox[1],
      bbox: font.FontBBox,
      symbolic: name === 'Symbol' || name === 'ZapfDingbats',
    };
    loaded.set(name, metrics);
  }
  return metrics;
}
