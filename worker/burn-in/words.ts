import { PDFDocument, StandardFonts, type PDFFont } from 'pdf-lib';
import type { LayerWord } from '../../main/common/export-tasks.js';
import { plainAscii } from '../../main/common/fold-text.js';
import type { Rect } from './geometry.js';

// Words of a page: read from pdf.js text runs (when no stored words exist), cleaned for the invisible text
// layer, and the token arithmetic of the leak check.

export interface SourceWord extends Rect {
  text: string;
  /** How far the word's true edges may lie beyond its box along x and y (estimated boxes), in the same units. */
  slackX: number;
  slackY: number;
}

/** A text run as pdf.js getTextContent gives it, in PDF user space. */
export interface TextRun {
  str: string;
  transform: number[];
  width: number;
  height: number;
  fontName: string;
}

/** Advance widths of the run's own font, in thousandths of an em; null for a character it cannot place. */
export type FontWidths = (char: string) => number | null;

let helvetica: PDFFont | null = null;
let charset: Set<number> | null = null;

/** The font of the invisible text layer (Helvetica, WinAnsi): its metrics estimate glyph widths in runs too. */
export async function layerFont(): Promise<{ font: PDFFont; charset: Set<number> }> {
  if (!helvetica || !charset) {
    const scratch = await PDFDocument.create({ updateMetadata: false });
    helvetica = scratch.embedStandardFont(StandardFonts.Helvetica);
    charset = new Set(helvetica.getCharacterSet());
  }
  return { font: helvetica, charset };
}

const AVERAGE_WIDTH = 556;
const widthCache = new Map<string, number>();

function glyphWidth(font: PDFFont, known: Set<number>, char: string): number {
  let width = widthCache.get(char);
  if (width === undefined) {
    const codePoint = char.codePointAt(0) ?? 0;
    width = known.has(codePoint) ? font.widthOfTextAtSize(char, 1000) : AVERAGE_WIDTH;
    if (width <= 0) width = AVERAGE_WIDTH;
    widthCache.set(char, width);
  }
  return width;
}

interface Advances {
  widths: number[];
  /** How far the shared-out positions may drift: a share of the font size, and of the distance along the run. */
  base: number;
  perUnit: number;
}

/**
 * Each glyph's advance along a run. pdf.js gives a run's start, direction and total advance but not each glyph's.
 * With the run's font widths (pdf.js fontExtraProperties) the natural advances are known, and what the total adds
 * to them is word spacing (shared among the spaces) or character spacing; without them Helvetica's widths share
 * the total out, which is close for most proportional fonts but drifts, so the uncertainty is larger.
 */
function advancesOf(run: TextRun, chars: string[], blank: readonly boolean[], scale: number, fontWidths: FontWidths | null, fallback: (char: string) => number): Advances {
  // Spaces a reader inserted for gaps have no glyph: zero natural width, the gap comes from the total.
  const own = fontWidths ? chars.map((char, index) => fontWidths(char) ?? (blank[index] ? 0 : null)) : null;
  if (own && own.every((width) => width !== null)) {
    const natural = own.map((width) => ((width ?? 0) * scale) / 1000);
    const sum = natural.reduce((total, width) => total + width, 0);
    if (sum > 0 && Math.abs(run.width - sum) <= 0.3 * run.width) {
      const residual = run.width - sum;
      const spaces = blank.filter(Boolean).length;
      const widths = natural.map((width, index) => width + (spaces > 0 && residual > 0 ? (blank[index] ? residual / spaces : 0) : residual / chars.length));
      return { widths, base: 0.02, perUnit: 0.005 };
    }
  }
  const weights = chars.map((char, index) => own?.[index] ?? fallback(char));
  const total = weights.reduce((sum, width) => sum + width, 0);
  return { widths: weights.map((width) => (total > 0 ? (width * run.width) / total : 0)), base: 1 / 6, perUnit: 0.03 };
}

/** Splits text runs into words with estimated boxes spanning the descent and ascent of the run's font size. */
export async function wordsFromRuns(runs: readonly TextRun[], fontWidths: (fontName: string) => FontWidths | null = () => null): Promise<SourceWord[]> {
  const { font, charset: known } = await layerFont();
  const words: SourceWord[] = [];
  for (const run of runs) {
    if (!run.str || run.str.trim() === '') continue;
    const [a = 0, b = 0, c = 0, d = 0, e = 0, f = 0] = run.transform;
    const scale = Math.hypot(a, b) || 1;
    const ux = a / scale;
    const uy = b / scale;
    // Perpendicular pointing "up" for the run's glyphs.
    const height = Math.hypot(c, d) || run.height || scale;
    const vx = -uy;
    const vy = ux;
    const chars = Array.from(run.str);
    const blank = chars.map((char) => /\s/u.test(char));
    const advances = advancesOf(run, chars, blank, scale, fontWidths(run.fontName), (char) => glyphWidth(font, known, char));
    const below = -0.25 * height;
    const above = 0.95 * height;
    let offset = 0;
    let start = -1;
    let startOffset = 0;
    const flush = (endIndex: number, endOffset: number) => {
      if (start < 0) return;
      const text = chars.slice(start, endIndex).join('');
      // The word's box: the corners (start, below), (end, below), (end, above), (start, above) along the run.
      const x0 = e + ux * startOffset + vx * below;
      const x1 = e + ux * endOffset + vx * below;
      const x2 = e + ux * endOffset + vx * above;
      const x3 = e + ux * startOffset + vx * above;
      const y0 = f + uy * startOffset + vy * below;
      const y1 = f + uy * endOffset + vy * below;
      const y2 = f + uy * endOffset + vy * above;
      const y3 = f + uy * startOffset + vy * above;
      const slack = advances.base * height + advances.perUnit * endOffset;
      words.push({ text, x1: Math.min(x0, x1, x2, x3), y1: Math.min(y0, y1, y2, y3), x2: Math.max(x0, x1, x2, x3), y2: Math.max(y0, y1, y2, y3), slackX: slack * Math.abs(ux), slackY: slack * Math.abs(uy) });
      start = -1;
    };
    for (let index = 0; index < chars.length; index += 1) {
      if (blank[index]) flush(index, offset);
      else if (start < 0) {
        start = index;
        startOffset = offset;
      }
      offset += advances.widths[index] ?? 0;
    }
    flush(chars.length, offset);
  }
  return words;
}

/** NFKC, without whitespace: the form words are compared in. */
export function token(text: string): string {
  if (plainAscii(text)) return text;
  return text.normalize('NFKC').replace(/\s+/gu, '');
}

/** The text a word gets in the invisible layer (glyphless CID font: any character); empty when blank. */
export async function layerText(text: string): Promise<string> {
  return token(text);
}

function occurrences(haystack: string, needle: string): number {
  let count = 0;
  for (let at = haystack.indexOf(needle); at >= 0; at = haystack.indexOf(needle, at + needle.length)) count += 1;
  return count;
}

/**
 * The leak check of one page: a withheld word may occur in the produced text no more often than in the words
 * that were meant to stay (the same word may legitimately stand elsewhere on the page). Counting inside each
 * token also catches words a reader glued to their neighbours. Returns how many withheld words broke the rule.
 */
export function leakedWords(extracted: readonly string[], kept: readonly LayerWord[], withheld: readonly string[]): number {
  const produced = extracted.map(token).filter((text) => text.length > 0);
  const intended = kept.map((word) => token(word.text));
  let leaked = 0;
  for (const word of new Set(withheld.map(token))) {
    if (word.length === 0) continue;
    const found = produced.reduce((sum, text) => sum + occurrences(text, word), 0);
    const allowed = intended.reduce((sum, text) => sum + occurrences(text, word), 0);
    if (found > allowed) leaked += 1;
  }
  return leaked;
}
