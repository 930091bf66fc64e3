import type { PDFPageProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { boxAround, overlaps, type LinedWord } from './words.js';

// Words of a page's text layer with boxes in PDF user space. pdf.js gives text runs ("items"), each with a
// transform in user space (origin on the baseline, x axis along the text, y axis up the glyphs, scaled by
// the font size) and its advance width; it does not give glyph positions. A run is split into words here,
// each character's share of the run estimated from typical glyph widths, and pieces of one word split over
// several runs (a font change, kerning) are joined again.

type TextContent = Awaited<ReturnType<PDFPageProxy['getTextContent']>>;
type TextStyle = TextContent['styles'][string];

/** Helvetica's advance widths (1/1000 em) for ASCII 32..126: a fair guide to proportional fonts. */
const HELVETICA_WIDTHS = [
  278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278, 278, 556, 556, 556, 556, 556, 556, 556, 556, 556, 556, 278, 278, 584, 584,
  584, 556, 1015, 667, 667, 722, 722, 667, 611, 778, 722, 278, 500, 667, 556, 833, 722, 778, 667, 778, 722, 667, 611, 722, 667, 944, 667, 667, 611,
  278, 278, 278, 469, 556, 333, 556, 556, 500, 556, 556, 278, 556, 556, 222, 222, 500, 222, 833, 556, 556, 556, 556, 333, 500, 278, 556, 500, 722,
  500, 500, 500, 334, 260, 334, 584,
];
const DEFAULT_WIDTH = 556;

function charWeight(char: string, monospace: boolean): number {
  if (monospace) return 1;
  const base = char.normalize('NFD').codePointAt(0) ?? 0;
  return HELVETICA_WIDTHS[base - 32] ?? DEFAULT_WIDTH;
}

const isBlank = (char: string) => /\s/.test(char);
/** Characters that carry text: not blank, not the replacement character of unmapped glyphs, not controls. */
const COUNTED = /[^\s\uFFFD\p{Cc}]/gu;

export function countTextChars(text: string): number {
  return text.match(COUNTED)?.length ?? 0;
}

type Point = readonly [number, number];

interface Frame {
  origin: Point;
  /** Unit vector along the text and unit vector up the glyphs. */
  along: Point;
  up: Point;
  fontSize: number;
  length: number;
  ascent: number;
  descent: number;
}

function frameOf(transform: unknown[], width: number, height: number, style: TextStyle | undefined, charCount: number): Frame | null {
  const values = transform.map(Number);
  if (values.length < 6 || values.some((value) => !Number.isFinite(value))) return null;
  const [a = 0, b = 0, c = 0, d = 0, e = 0, f = 0] = values;
  const xScale = Math.hypot(a, b);
  const yScale = Math.hypot(c, d);
  const fontSize = yScale || xScale;
  if (fontSize === 0) return null;
  const ascent = style && style.ascent > 0 && style.ascent <= 1.5 ? style.ascent : 0.8;
  const descent = style && style.descent < 0 && style.descent >= -1 ? style.descent : -0.2;
  const along: Point = xScale > 0 ? [a / xScale, b / xScale] : [1, 0];
  const up: Point = yScale > 0 ? [c / yScale, d / yScale] : [-along[1], along[0]];
  if (style?.vertical) {
    // Vertical writing advances down the glyph axis; glyphs are centred on the origin across it.
    const length = height > 0 ? height : charCount * fontSize;
    return { origin: [e + (along[0] * fontSize) / 2, f + (along[1] * fontSize) / 2], along: [-up[0], -up[1]], up: along, fontSize, length, ascent: 0, descent: -1 };
  }
  return { origin: [e, f], along, up, fontSize, length: width > 0 ? width : charCount * fontSize * 0.5, ascent, descent };
}

interface OpenWord {
  text: string;
  points: Point[];
  line: number;
  /** Where the word's last character ends on the baseline, and the frame it was read in. */
  end: Point;
  frame: Frame;
}

class WordCollector {
  readonly words: LinedWord[] = [];
  chars = 0;
  private line = 0;
  private lineFrame: Frame | null = null;
  private open: OpenWord | null = null;
  private breakBefore = false;

  add(text: string, frame: Frame, monospace: boolean, hasEOL: boolean): void {
    this.chars += countTextChars(text);
    const chars = Array.from(text);
    if (this.breakBefore || !this.sameLine(frame)) {
      this.close();
      this.line += 1;
    }
    this.breakBefore = hasEOL;
    this.lineFrame = frame;
    if (chars.length === 0) {
      if (hasEOL) this.close();
      return;
    }
    if (!this.continues(frame) || isBlank(chars[0] ?? ' ')) this.close();

    const weights = chars.map((char) => charWeight(char, monospace));
    const total = weights.reduce((sum, weight) => sum + weight, 0) || 1;
    let offset = 0;
    chars.forEach((char, index) => {
      const start = (offset / total) * frame.length;
      offset += weights[index] ?? 0;
      const end = (offset / total) * frame.length;
      if (isBlank(char)) {
        this.close();
        return;
      }
      const corners = [start, end].flatMap((position) => [at(frame, position, frame.descent), at(frame, position, frame.ascent)]);
      if (this.open) {
        this.open.text += char;
        this.open.points.push(...corners);
      } else {
        this.open = { text: char, points: corners, line: this.line, end: at(frame, end, 0), frame };
      }
      this.open.end = at(frame, end, 0);
      this.open.frame = frame;
    });
    if (hasEOL) this.close();
  }

  /** A line break marked on a run that carries nothing to place. */
  lineBreak(): void {
    this.close();
    this.breakBefore = true;
  }

  /** Ends the word being built, if any. */
  close(): void {
    if (this.open) this.words.push({ word: boxAround(this.open.text, this.open.points, 100), line: String(this.open.line) });
    this.open = null;
  }

  /** A run on the same baseline and in the same direction as the current line. */
  private sameLine(frame: Frame): boolean {
    const previous = this.lineFrame;
    if (!previous) return false;
    if (dot(previous.along, frame.along) < 0.99) return false;
    const offset = dot(minus(frame.origin, previous.origin), previous.up);
    return Math.abs(offset) <= 0.5 * previous.fontSize;
  }

  /** A run that starts where the open word ends: the same word continues (pdf.js adds a space for gaps). */
  private continues(frame: Frame): boolean {
    const word = this.open;
    if (!word) return false;
    if (dot(word.frame.along, frame.along) < 0.99) return false;
    const step = minus(frame.origin, word.end);
    const gap = dot(step, word.frame.along);
    const drift = dot(step, word.frame.up);
    return Math.abs(drift) <= 0.3 * word.frame.fontSize && gap >= -0.3 * word.frame.fontSize && gap <= 0.25 * word.frame.fontSize;
  }
}

function at(frame: Frame, position: number, height: number): Point {
  return [
    frame.origin[0] + frame.along[0] * position + frame.up[0] * height * frame.fontSize,
    frame.origin[1] + frame.along[1] * position + frame.up[1] * height * frame.fontSize,
  ];
}

const dot = (a: Point, b: Point) => a[0] * b[0] + a[1] * b[1];
const minus = (a: Point, b: Point): Point => [a[0] - b[0], a[1] - b[1]];

export interface TextLayer {
  /** Words in reading order (the content's order) with boxes in user space; words outside `view` are left out. */
  words: LinedWord[];
  /** Non-blank characters of the layer (pdf.js already leaves out runs outside the crop box). */
  chars: number;
}

export async function readTextLayer(page: PDFPageProxy, view: readonly [number, number, number, number]): Promise<TextLayer> {
  const content = await page.getTextContent();
  const collector = new WordCollector();
  for (const item of content.items) {
    if (!('str' in item)) continue;
    const style = content.styles[item.fontName];
    const frame = frameOf(item.transform, item.width, item.height, style, Array.from(item.str).length);
    if (!frame) {
      if (item.hasEOL) collector.lineBreak();
      continue;
    }
    collector.add(item.str, frame, style?.fontFamily === 'monospace', item.hasEOL);
  }
  collector.close();
  // Text outside the crop box is not shown: neither a reader nor OCR sees it.
  return { words: collector.words.filter(({ word }) => overlaps(word, view)), chars: collector.chars };
}
