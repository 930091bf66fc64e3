import { AnnotationMode, OPS, type PDFPageProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import type { Rect } from '../geometry.js';

// Each glyph's own ink, as pdf.js draws it: outline bounds from the embedded (or substituted standard) font
// program, Type 3 glyphs from their d1 bounds or the paths of their CharProcs. The page's operator list is read
// in content order, so the rewriting walks it glyph by glyph beside its own reading of the content and checks
// that both read the same codes.

/** Ink of one glyph in text space units (em, font matrix applied, y up); 'none': draws nothing (a space). */
export type Ink = Rect | 'none';

export interface InkGlyph {
  code: number;
  /** undefined when pdf.js could not say (no outline, Type 3 procedure it cannot bound). */
  ink: Ink | undefined;
  /** Advance in em as pdf.js reads the font (Type 3: through its FontMatrix). */
  advance: number;
  /** Word spacing applies (a single-byte code 32). */
  isSpace: boolean;
  /** The text the glyph stands for, as pdf.js reads it (ToUnicode, encoding). */
  unicode?: string;
  /** The outline pdf.js fills (DrawOPS, em), when the glyph is that one outline (not Type 3, no accent). */
  outline?: ArrayLike<number>;
}

export interface InkShow {
  kind: 'show';
  /** The font writes vertically (pdf.js's reading of its CMap). */
  vertical: boolean;
  glyphs: InkGlyph[];
}

/** The glyphs of one text-showing operator, or a form drawn in between (its own operators nested). */
export type InkEvent = InkShow | { kind: 'form'; events: InkEvent[] };

interface PdfGlyph {
  originalCharCode: number;
  fontChar: string;
  unicode?: string;
  width?: number;
  isSpace?: boolean;
  /** false: the glyph is not in the font program; pdf.js draws nothing for it. */
  isInFont?: boolean;
  accent?: { fontChar: string; offset: { x: number; y: number } } | null;
  operatorListId?: number;
}

interface LoadedFont {
  loadedName: string;
  isType3Font?: boolean;
  vertical?: boolean;
  fontMatrix?: number[];
  charProcOperatorList?: Record<string, { fnArray: number[]; argsArray: unknown[][] }>;
}

const MOVE = 0;
const LINE = 1;
const CURVE = 2;
const QUADRATIC = 3;
const CLOSE = 4;

/** Bounds of a compiled glyph outline (pdf.js DrawOPS; control points included: never smaller than the curve). */
export function outlineBounds(path: ArrayLike<number>): Ink | undefined {
  let x1 = Infinity;
  let y1 = Infinity;
  let x2 = -Infinity;
  let y2 = -Infinity;
  const take = (count: number, from: number) => {
    for (let index = from; index < from + 2 * count; index += 2) {
      const x = path[index] as number;
      const y = path[index + 1] as number;
      if (x < x1) x1 = x;
      if (x > x2) x2 = x;
      if (y < y1) y1 = y;
      if (y > y2) y2 = y;
    }
  };
  for (let index = 0; index < path.length; ) {
    const op = path[index++];
    const points = op === MOVE || op === LINE ? 1 : op === CURVE ? 3 : op === QUADRATIC ? 2 : op === CLOSE ? 0 : -1;
    if (points < 0) return undefined;
    take(points, index);
    index += 2 * points;
  }
  if (!(x2 >= x1 && y2 >= y1)) return 'none';
  return { x1, y1, x2, y2 };
}

function transformRect(matrix: readonly number[], rect: Rect): Rect {
  const [a = 1, b = 0, c = 0, d = 1, e = 0, f = 0] = matrix;
  const xs: number[] = [];
  const ys: number[] = [];
  for (const [x, y] of [
    [rect.x1, rect.y1],
    [rect.x2, rect.y1],
    [rect.x1, rect.y2],
    [rect.x2, rect.y2],
  ] as const) {
    xs.push(a * x + c * y + e);
    ys.push(b * x + d * y + f);
  }
  return { x1: Math.min(...xs), y1: Math.min(...ys), x2: Math.max(...xs), y2: Math.max(...ys) };
}

const UNBOUNDED_TYPE3 = new Set<number>([OPS.transform, OPS.paintImageXObject, OPS.paintImageMaskXObject, OPS.paintInlineImageXObject, OPS.paintFormXObjectBegin, OPS.showText, OPS.shadingFill]);

/** A Type 3 glyph's ink in glyph space: its d1 box, or the bounds of the paths it paints (grown by strokes). */
function type3Bounds(list: { fnArray: number[]; argsArray: unknown[][] } | undefined): Ink | undefined {
  if (!list) return undefined;
  let bounds: Rect | null = null;
  let lineWidth = 1;
  for (const [index, fn] of list.fnArray.entries()) {
    const args = list.argsArray[index] ?? [];
    if (fn === OPS.setCharWidthAndBounds) {
      const [, , llx, lly, urx, ury] = args as number[];
      if ([llx, lly, urx, ury].every((value) => typeof value === 'number' && Number.isFinite(value)) && (urx as number) > (llx as number) && (ury as number) > (lly as number)) {
        return { x1: llx as number, y1: lly as number, x2: urx as number, y2: ury as number };
      }
    } else if (fn === OPS.setLineWidth) {
      lineWidth = Math.max(lineWidth, Math.abs(Number(args[0]) || 0));
    } else if (fn === OPS.constructPath) {
      const minMax = args[2] as ArrayLike<number> | undefined;
      if (!minMax || minMax.length < 4) return undefined;
      const [mx1, my1, mx2, my2] = Array.from(minMax) as [number, number, number, number];
      if (!(mx2 >= mx1 && my2 >= my1)) continue;
      bounds = bounds ? { x1: Math.min(bounds.x1, mx1), y1: Math.min(bounds.y1, my1), x2: Math.max(bounds.x2, mx2), y2: Math.max(bounds.y2, my2) } : { x1: mx1, y1: my1, x2: mx2, y2: my2 };
    } else if (UNBOUNDED_TYPE3.has(fn)) {
      return undefined;
    }
  }
  if (!bounds) return 'none';
  const grow = lineWidth / 2;
  return { x1: bounds.x1 - grow, y1: bounds.y1 - grow, x2: bounds.x2 + grow, y2: bounds.y2 + grow };
}

type Outline = { ink: Ink | undefined; path?: ArrayLike<number> };

class InkReader {
  /** By font object (pdf.js hands out one per loaded font), then by glyph: no key built per glyph. */
  private readonly cache = new Map<LoadedFont, Map<string, Outline>>();
  constructor(private readonly page: PDFPageProxy) {}

  private outline(font: LoadedFont, fontChar: string): Outline {
    let glyphs = this.cache.get(font);
    if (!glyphs) {
      glyphs = new Map();
      this.cache.set(font, glyphs);
    }
    const known = glyphs.get(fontChar);
    if (known) return known;
    const key = `${font.loadedName}_path_${fontChar}`;
    let found: Outline = { ink: undefined };
    try {
      const data = this.page.commonObjs.has(key) ? (this.page.commonObjs.get(key) as { path?: ArrayLike<number> } | null) : null;
      if (data?.path) found = { ink: outlineBounds(data.path), path: data.path };
    } catch {
      found = { ink: undefined };
    }
    glyphs.set(fontChar, found);
    return found;
  }

  glyph(font: LoadedFont | null, glyph: PdfGlyph): InkGlyph {
    const measured = this.measured(font, glyph);
    if (typeof glyph.unicode === 'string') measured.unicode = glyph.unicode;
    return measured;
  }

  private measured(font: LoadedFont | null, glyph: PdfGlyph): InkGlyph {
    const code = glyph.originalCharCode;
    const matrix = font?.fontMatrix ?? [0.001, 0, 0, 0.001, 0, 0];
    const advance = (Number(glyph.width) || 0) * (matrix[0] ?? 0.001);
    const isSpace = glyph.isSpace === true;
    if (!font) return { code, ink: undefined, advance, isSpace };
    if (font.isType3Font) {
      const bounds = type3Bounds(font.charProcOperatorList?.[String(glyph.operatorListId)]);
      return { code, ink: bounds === undefined || bounds === 'none' ? bounds : transformRect(matrix, bounds), advance, isSpace };
    }
    const own = this.outline(font, glyph.fontChar);
    let ink = own.ink;
    // A glyph the font does not hold is not drawn (pdf.js's canvas skips it; its path is the .notdef's).
    if (glyph.isInFont === false && !glyph.accent) return { code, ink, advance, isSpace, outline: [] };
    if (!glyph.accent) return { code, ink, advance, isSpace, ...(own.path && ink !== undefined && ink !== 'none' && { outline: own.path }) };
    if (ink !== undefined) {
      const accent = this.outline(font, glyph.accent.fontChar).ink;
      if (accent === undefined) return { code, ink: undefined, advance, isSpace };
      if (accent !== 'none') {
        const { x, y } = glyph.accent.offset;
        const moved = { x1: accent.x1 + x, y1: accent.y1 + y, x2: accent.x2 + x, y2: accent.y2 + y };
        ink = ink === 'none' ? moved : { x1: Math.min(ink.x1, moved.x1), y1: Math.min(ink.y1, moved.y1), x2: Math.max(ink.x2, moved.x2), y2: Math.max(ink.y2, moved.y2) };
      }
    }
    return { code, ink, advance, isSpace };
  }

  font(name: unknown): LoadedFont | null {
    try {
      return typeof name === 'string' && this.page.commonObjs.has(name) ? (this.page.commonObjs.get(name) as LoadedFont) : null;
    } catch {
      return null;
    }
  }
}

/**
 * Every text-showing operator of the page in content order, with the ink of each glyph (annotations left out:
 * annotated pages are never rewritten). Loads the page's fonts with their outlines (pdf.js disableFontFace).
 */
export async function pageInk(page: PDFPageProxy): Promise<InkEvent[]> {
  // The list with annotations drawn (what the glyph reading and the words read too: pdf.js builds it once a page)
  // is the content's alone when it draws no annotation (pdf.js appends annotations after the content); else the
  // content's own list.
  const drawn = await page.getOperatorList({ intent: 'display', annotationMode: AnnotationMode.ENABLE });
  const list = drawn.fnArray.includes(OPS.beginAnnotation) ? await page.getOperatorList({ intent: 'display', annotationMode: AnnotationMode.DISABLE }) : drawn;
  const reader = new InkReader(page);
  const root: InkEvent[] = [];
  const stack: { events: InkEvent[]; font: LoadedFont | null }[] = [{ events: root, font: null }];
  let font: LoadedFont | null = null;
  const fonts: (LoadedFont | null)[] = [];
  for (const [index, fn] of list.fnArray.entries()) {
    const args = (list.argsArray[index] ?? []) as unknown[];
    const top = stack[stack.length - 1] as { events: InkEvent[] };
    if (fn === OPS.setFont) font = reader.font(args[0]);
    else if (fn === OPS.save) fonts.push(font);
    else if (fn === OPS.restore) font = fonts.length > 0 ? (fonts.pop() as LoadedFont | null) : font;
    else if (fn === OPS.showText) {
      const glyphs = ((args[0] ?? []) as unknown[]).filter((item): item is PdfGlyph => typeof item === 'object' && item !== null);
      top.events.push({ kind: 'show', vertical: font?.vertical === true, glyphs: glyphs.map((glyph) => reader.glyph(font, glyph)) });
    } else if (fn === OPS.paintFormXObjectBegin) {
      const form: InkEvent = { kind: 'form', events: [] };
      top.events.push(form);
      stack.push({ events: form.events, font });
    } else if (fn === OPS.paintFormXObjectEnd && stack.length > 1) {
      font = (stack.pop() as { font: LoadedFont | null }).font;
    }
  }
  return root;
}

/** Thrown when the content and pdf.js disagree on the glyphs shown: the page is then rendered. */
export class InkMismatch extends Error {}

/** Walks the events of one content stream (the page's or a form's) in step with the rewriting. */
export class InkCursor {
  private position = 0;
  constructor(private readonly events: readonly InkEvent[]) {}

  private next(kind: InkEvent['kind']): InkEvent {
    const event = this.events[this.position];
    if (!event || event.kind !== kind) throw new InkMismatch(`pdf.js reads the page's content differently (operation ${this.position + 1})`);
    this.position += 1;
    return event;
  }

  /** A cursor at the same place, walked independently (a second pass over the same content). */
  fork(): InkCursor {
    const copy = new InkCursor(this.events);
    copy.position = this.position;
    return copy;
  }

  /** The glyphs of the next text-showing operator (the caller checks them against the codes it reads). */
  show(): InkShow {
    return this.next('show') as InkShow;
  }

  /** The cursor inside the next form drawn (pdf.js draws forms inline, in order). */
  form(): InkCursor {
    return new InkCursor((this.next('form') as Extract<InkEvent, { kind: 'form' }>).events);
  }
}

/**
 * Splits the strings of one text operator into codes of 1–4 bytes that read, in order, as pdf.js's glyph codes
 * (fonts with a CMap: the byte lengths come from its codespace, which pdf.js applied). Returns the byte length
 * of each code by string; null when no split fits or more than one does.
 */
export function splitCodes(strings: readonly Uint8Array[], codes: readonly number[]): number[][] | null {
  const memo = new Map<string, number>();
  // Number of complete splits from (string, offset, glyph), capped at 2.
  const count = (string: number, offset: number, glyph: number): number => {
    if (string === strings.length) return glyph === codes.length ? 1 : 0;
    const bytes = strings[string] as Uint8Array;
    if (offset === bytes.length) return count(string + 1, 0, glyph);
    if (glyph === codes.length) return 0;
    const key = `${string}:${offset}:${glyph}`;
    const known = memo.get(key);
    if (known !== undefined) return known;
    let total = 0;
    let value = 0;
    for (let length = 1; length <= 4 && offset + length <= bytes.length && total < 2; length += 1) {
      value = value * 256 + (bytes[offset + length - 1] as number);
      if (value === codes[glyph]) total += count(string, offset + length, glyph + 1);
    }
    memo.set(key, Math.min(total, 2));
    return Math.min(total, 2);
  };
  if (count(0, 0, 0) !== 1) return null;
  const lengths: number[][] = strings.map(() => []);
  let glyph = 0;
  for (const [index, bytes] of strings.entries()) {
    let offset = 0;
    while (offset < bytes.length) {
      let value = 0;
      let chosen = 0;
      for (let length = 1; length <= 4 && offset + length <= bytes.length; length += 1) {
        value = value * 256 + (bytes[offset + length - 1] as number);
        if (value === codes[glyph] && count(index, offset + length, glyph + 1) === 1) {
          chosen = length;
          break;
        }
      }
      (lengths[index] as number[]).push(chosen);
      offset += chosen;
      glyph += 1;
    }
  }
  return lengths;
}
