import { createHash } from 'node:crypto';
import { OPS, type PDFPageProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { interpret, multiply, type Glyph, type Matrix } from '../../pdf-glyphs/interpret.js';
import type { Rect } from '../geometry.js';

// "Verify what changed" (issue 29): the structural half of the pixel check of a page redacted in its content.
// Both pages' pdf.js operator lists (what the renderer draws from) are walked together; they must be equal
// operator by operator, arguments and all, fonts and image data compared by content, except:
// - the output's own `q … Q` wrapper around the source content;
// - text-showing operators that lost glyphs, every kept glyph the same at the same pen position and the
//   operator's total advance the same (so nothing after it moves);
// - images drawn in the same place whose pixels differ (redacted copies);
// - balanced `q … Q` blocks after the content painting paths and text only (the boxes and labels).
// What differs is returned as areas (removed glyphs, changed images, everything the blocks paint); any other
// difference, or anything this walk does not model, is a reason and the caller compares whole pages.
// Each drawing operator marks only pixels inside its own extent, so outside these areas the pages are equal.

interface OperatorList {
  fnArray: number[];
  argsArray: unknown[];
}

export interface Side {
  page: PDFPageProxy;
  list: OperatorList;
  /** The glyphs of `list` read already (worker/pdf-glyphs readGlyphs over the same list): not read again. */
  glyphs?: () => Promise<Glyph[]>;
}

export type Changes = { ok: true; areas: Rect[] } | { ok: false; reason: string };

interface FontInfo {
  vertical?: boolean;
  fontMatrix?: number[];
  isType3Font?: boolean;
}

interface State {
  ctm: Matrix;
  font: string | null;
  size: number;
  charSpacing: number;
  wordSpacing: number;
}

const IDENTITY: Matrix = [1, 0, 0, 1, 0, 0];
/** Operators the boxes and labels may use after the content, inside their own `q … Q`. */
const OVERLAY = new Set<number>([
  OPS.save, OPS.restore, OPS.transform, OPS.setFillRGBColor, OPS.setStrokeRGBColor, OPS.setFillGray, OPS.setStrokeGray, OPS.setLineJoin, OPS.setLineCap,
  OPS.setLineWidth, OPS.constructPath, OPS.fill, OPS.eoFill, OPS.stroke, OPS.fillStroke, OPS.eoFillStroke, OPS.closeStroke, OPS.closeFillStroke, OPS.closeEOFillStroke,
  OPS.endPath, OPS.beginText, OPS.endText, OPS.setFont, OPS.dependency, OPS.setTextMatrix, OPS.showText,
]);

/** pdf.js's ids of objects sent beside the operator list. */
const OBJECT_ID = /^(?:g_d\d+_|img_|mask_|pattern_)|_type3_/u;

class Failed extends Error {}

const fingerprints = new WeakMap<object, Map<string, string>>();

/** A font as pdf.js compiled it, by content: the same program and metrics give the same print in any document. */
function fontPrint(page: PDFPageProxy, name: string): string | null {
  const store = page.commonObjs as unknown as object;
  let cache = fingerprints.get(store);
  if (!cache) fingerprints.set(store, (cache = new Map()));
  const known = cache.get(name);
  if (known !== undefined) return known;
  let font: unknown;
  try {
    font = page.commonObjs.has(name) ? page.commonObjs.get(name) : null;
  } catch {
    font = null;
  }
  if (!font || typeof font !== 'object') return null;
  // Its program and metrics are getters over private data: read by name, the program by its hash.
  const face = font as Record<string, unknown>;
  if (!face.isType3Font && !ArrayBuffer.isView(face.data)) return null;
  const read = ['data', 'fontMatrix', 'bbox', 'vertical', 'ascent', 'descent', 'defaultWidth', 'defaultVMetrics', 'isType3Font', 'missingFile', 'name', 'fallbackName', 'mimetype', 'black', 'bold', 'italic', 'remeasure', 'isInvalidPDFjsFont', 'cssFontInfo', 'systemFontInfo'];
  const skip = new Set(['loadedName', 'compiledGlyphs', '_inspectFont', 'attached']);
  const own = Object.fromEntries(Object.entries(face).filter(([key]) => !skip.has(key)));
  const print = JSON.stringify([Object.fromEntries(read.map((key) => [key, face[key]])), own], (_key, value: unknown) =>
    ArrayBuffer.isView(value) ? createHash('sha256').update(value as Uint8Array).digest('hex') : value,
  );
  cache.set(name, print);
  return print;
}

function fontInfo(page: PDFPageProxy, name: string | null): FontInfo | null {
  try {
    return name && page.commonObjs.has(name) ? (page.commonObjs.get(name) as FontInfo) : null;
  } catch {
    return null;
  }
}

/** An image's decoded pixels, by content (null when pdf.js did not give them in time). */
function imagePrint(page: PDFPageProxy, id: string): Promise<string | null> {
  const store = id.startsWith('g_') ? page.commonObjs : page.objs;
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(null), 2000);
    try {
      store.get(id, (data: unknown) => {
        clearTimeout(timer);
        const image = data as { width?: number; height?: number; kind?: number; data?: Uint8Array } | null;
        resolve(image?.data ? `${image.width}x${image.height}:${image.kind}:${createHash('sha256').update(image.data).digest('hex')}` : null);
      });
    } catch {
      clearTimeout(timer);
      resolve(null);
    }
  });
}

/** Deep equality of operator arguments (typed arrays by value). */
function same(a: unknown, b: unknown): boolean {
  // Ids of objects pdf.js sends apart (images, masks, patterns, fonts) say nothing of their content.
  // (Every id is four characters or more: shorter strings, most glyphs' text, need no test.)
  if (typeof a === 'string') return a === b && (a.length < 4 || !OBJECT_ID.test(a));
  if (a === b) return true;
  if (typeof a === 'number' && typeof b === 'number') return Number.isNaN(a) && Number.isNaN(b);
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  if (ArrayBuffer.isView(a) || Array.isArray(a)) {
    if (!(ArrayBuffer.isView(b) || Array.isArray(b))) return false;
    const x = a as ArrayLike<unknown>;
    const y = b as ArrayLike<unknown>;
    if (x.length !== y.length) return false;
    for (let index = 0; index < x.length; index += 1) if (!same(x[index], y[index])) return false;
    return true;
  }
  // pdf.js sends a font's glyph as one object however often a page shows it (a message keeps its objects'
  // identity): each pair of objects is compared once. Nothing changes them while the lists are walked.
  let known = compared.get(a);
  const answer = known?.get(b);
  if (answer !== undefined) return answer;
  // Own enumerable keys, as Object.keys gives them, counted without building the lists.
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  let count = 0;
  let equal = true;
  for (const key in x) {
    if (!Object.hasOwn(x, key)) continue;
    count += 1;
    if (!Object.hasOwn(y, key) || !same(x[key], y[key])) {
      equal = false;
      break;
    }
  }
  if (equal) for (const key in y) if (Object.hasOwn(y, key)) count -= 1;
  equal &&= count === 0;
  if (!known) compared.set(a, (known = new WeakMap()));
  known.set(b, equal);
  return equal;
}

/** Plain objects compared already in this walk, and the answer (made anew by each walk). */
let compared = new WeakMap<object, WeakMap<object, boolean>>();

function transformedBounds(m: Matrix, x1: number, y1: number, x2: number, y2: number): Rect {
  const points = [[x1, y1], [x2, y1], [x2, y2], [x1, y2]].map(([x = 0, y = 0]) => [m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5]] as const);
  const xs = points.map((point) => point[0]);
  const ys = points.map((point) => point[1]);
  return { x1: Math.min(...xs), y1: Math.min(...ys), x2: Math.max(...xs), y2: Math.max(...ys) };
}

/** The end of a list's page content: annotations' appearances follow it. */
function contentEnd(list: OperatorList): number {
  const at = list.fnArray.indexOf(OPS.beginAnnotation);
  return at < 0 ? list.fnArray.length : at;
}

const glyphCount = (items: readonly unknown[]) => items.filter((item) => typeof item !== 'number').length;

/**
 * The glyphs (indices among the operator's glyphs) a rewritten text-showing operator lost, or null when it is not
 * the source's with glyphs removed: every kept glyph identical at the same pen position, the same total advance.
 */
function removedGlyphs(source: readonly unknown[], output: readonly unknown[], state: State, font: FontInfo | null): number[] | null {
  if (same(source, output)) return [];
  if (!font || font.vertical || !(state.size > 0)) return null;
  const size = state.size;
  const unit = (font.fontMatrix?.[0] ?? 0.001) * size;
  const advance = (item: unknown) => {
    if (typeof item === 'number') return (-item * size) / 1000;
    const glyph = item as { width?: number; isSpace?: boolean };
    return (glyph.width ?? 0) * unit + state.charSpacing + (glyph.isSpace ? state.wordSpacing : 0);
  };
  // A builder's displacement is written with finite precision: a ten-thousandth of an em is no visible move.
  const near = (a: number, b: number) => Math.abs(a - b) <= 1e-4 * size;
  const removed: number[] = [];
  let k = 0;
  let glyphIndex = 0;
  let sourcePen = 0;
  let outputPen = 0;
  for (const item of output) {
    if (typeof item === 'number') {
      outputPen += advance(item);
      continue;
    }
    let matched = false;
    while (k < source.length && !matched) {
      const candidate = source[k];
      k += 1;
      if (typeof candidate === 'number') {
        sourcePen += advance(candidate);
        continue;
      }
      matched = same(candidate, item) && near(sourcePen, outputPen);
      if (!matched) removed.push(glyphIndex);
      glyphIndex += 1;
      sourcePen += advance(candidate);
    }
    if (!matched) return null;
    outputPen += advance(item);
  }
  for (; k < source.length; k += 1) {
    const candidate = source[k];
    if (typeof candidate !== 'number') removed.push(glyphIndex++);
    sourcePen += advance(candidate);
  }
  return near(sourcePen, outputPen) ? removed : null;
}

function fontsOf(page: PDFPageProxy) {
  return (name: string) => fontInfo(page, name) as Parameters<typeof interpret>[1] extends (name: string) => infer R ? R : never;
}

async function glyphsOf(side: Side, end: number): Promise<Glyph[]> {
  // Glyphs are placed operator by operator, whatever follows or hides them: the reading's up to `end` is this one.
  const read = side.glyphs ? await side.glyphs() : null;
  if (read && read.every((glyph) => glyph.op !== undefined)) return read.filter((glyph) => (glyph.op ?? end) < end);
  const list = { fnArray: side.list.fnArray.slice(0, end), argsArray: side.list.argsArray.slice(0, end) };
  return interpret(list, fontsOf(side.page), { isVisible: () => true, view: side.page.view, imageHasAlpha: () => true });
}

/**
 * A glyph's box (advance × ascent..descent) grown by `share` of its size each way: ink may reach past it
 * (accents, descenders, overhangs); half its size covers what fonts draw.
 */
export function inkArea(glyph: Glyph, share = 0.5): Rect {
  const grow = share * Math.max(glyph.x2 - glyph.x1, glyph.y2 - glyph.y1);
  return { x1: glyph.x1 - grow, y1: glyph.y1 - grow, x2: glyph.x2 + grow, y2: glyph.y2 + grow };
}

/** Walks both pages' operator lists; see the file's head. */
export async function changedAreas(source: Side, output: Side): Promise<Changes> {
  try {
    return { ok: true, areas: await walk(source, output) };
  } catch (error) {
    if (error instanceof Failed) return { ok: false, reason: error.message };
    throw error;
  }
}

/**
 * The state of one walk. Its steps are methods, not closures made per walk: V8 holds a function's optimised code
 * only as long as a closure using it lives, so closures made per page lose it at every full collection and are
 * compiled again (session 22, docs/architecture.md).
 */
class Walk {
  state: State = { ctm: [...IDENTITY], font: null, size: 0, charSpacing: 0, wordSpacing: 0 };
  readonly stack: State[] = [];
  readonly areas: Rect[] = [];
  readonly edits: { glyphsBefore: number; removed: number[] }[] = [];
  /** Source glyphs shown so far (the walk's count; the reading must agree). */
  emitted = 0;

  constructor(
    readonly source: Side,
    readonly output: Side,
  ) {}

  /** Operator `i` of the source against `at` of the output; an image's comparison (by content) comes back to await. */
  compare(i: number, at: number, annotation: boolean): Promise<void> | null {
    const s = this.source.list;
    const o = this.output.list;
    const fn = s.fnArray[i] ?? -1;
    const a = (s.argsArray[i] ?? null) as unknown[] | null;
    const b = (o.argsArray[at] ?? null) as unknown[] | null;
    if (fn !== o.fnArray[at]) throw new Failed(`operator ${i} of the source differs in kind from the output's`);
    if (fn === OPS.dependency) {
      // Only waits for an object; what uses it is compared where it is used.
    } else if (fn === OPS.setFont) {
      const prints = [fontPrint(this.source.page, String(a?.[0])), fontPrint(this.output.page, String(b?.[0]))];
      if (prints[0] === null || prints[0] !== prints[1] || !same(a?.slice(1), b?.slice(1))) throw new Failed(`operator ${i} of the source uses another font than the output's`);
    } else if (fn === OPS.showText && !annotation) {
      const font = fontInfo(this.source.page, this.state.font);
      const removed = removedGlyphs((a?.[0] ?? []) as unknown[], (b?.[0] ?? []) as unknown[], this.state, font);
      if (removed === null) throw new Failed(`text operator ${i} is not the source's with glyphs removed`);
      if (removed.length > 0) this.edits.push({ glyphsBefore: this.emitted, removed });
      if (font && this.state.size !== 0) this.emitted += glyphCount((a?.[0] ?? []) as unknown[]);
    } else if (fn === OPS.paintImageXObject) {
      return this.compareImages(i, a, b, annotation);
    } else if (fn === OPS.beginAnnotation) {
      if (!same(a?.slice(1), b?.slice(1))) throw new Failed(`annotation at operator ${i} differs`);
    } else if (fn === OPS.setGState && JSON.stringify(a ?? null).includes('"Font"')) {
      throw new Failed(`operator ${i} sets a font through a graphics state`);
    } else if (!same(a, b)) {
      throw new Failed(`operator ${i} of the source differs from the output's`);
    }
    return null;
  }

  private async compareImages(i: number, a: unknown[] | null, b: unknown[] | null, annotation: boolean): Promise<void> {
    const prints = await Promise.all([imagePrint(this.source.page, String(a?.[0])), imagePrint(this.output.page, String(b?.[0]))]);
    if (prints[0] === null || prints[1] === null || !same(a?.slice(1), b?.slice(1))) throw new Failed(`image ${i} of the source could not be compared`);
    if (prints[0] !== prints[1]) {
      if (annotation) throw new Failed(`an annotation's image ${i} differs`);
      this.areas.push(transformedBounds(this.state.ctm, 0, 0, 1, 1));
    }
  }

  /** The graphics and text state after a source operator. */
  follow(fn: number, args: unknown[] | null): void {
    switch (fn) {
      case OPS.save:
      case OPS.paintFormXObjectBegin:
        this.stack.push({ ...this.state });
        if (fn === OPS.paintFormXObjectBegin && args && (Array.isArray(args[0]) || ArrayBuffer.isView(args[0]))) this.state.ctm = multiply(Array.from(args[0] as number[]), this.state.ctm);
        break;
      case OPS.restore:
      case OPS.paintFormXObjectEnd:
        this.state = this.stack.pop() ?? this.state;
        break;
      case OPS.transform:
        this.state.ctm = multiply(args as number[], this.state.ctm);
        break;
      case OPS.setFont:
        this.state.font = String(args?.[0]);
        this.state.size = Number(args?.[1] ?? 0);
        break;
      case OPS.setCharSpacing:
        this.state.charSpacing = Number(args?.[0] ?? 0);
        break;
      case OPS.setWordSpacing:
        this.state.wordSpacing = Number(args?.[0] ?? 0);
        break;
    }
  }
}

async function walk(source: Side, output: Side): Promise<Rect[]> {
  compared = new WeakMap();
  const s = source.list;
  const o = output.list;
  const sEnd = contentEnd(s);
  const oEnd = contentEnd(o);
  const step = new Walk(source, output);
  const { areas, edits } = step;
  let depth = 0;
  let textOpen = false;
  // The operators say nothing of the page's boxes or turn: those must be the source's.
  if (!same(source.page.view, output.page.view) || source.page.rotate !== output.page.rotate || source.page.userUnit !== output.page.userUnit) throw new Failed('the page boxes or rotation differ');
  if (o.fnArray[0] !== OPS.save) throw new Failed('the rewritten content does not open with its own save');
  let j = 1;

  for (let i = 0; i < sEnd; i += 1, j += 1) {
    if (j >= oEnd) throw new Failed('the output content ends before the source content');
    const images = step.compare(i, j, false);
    if (images) await images;
    const fn = s.fnArray[i] ?? -1;
    if (fn === OPS.save) depth += 1;
    if (fn === OPS.restore) depth = Math.max(0, depth - 1);
    if (fn === OPS.beginText) textOpen = true;
    if (fn === OPS.endText) textOpen = false;
    step.follow(fn, (s.argsArray[i] ?? null) as unknown[] | null);
  }
  // The wrapper closes what the source left open, then its own save.
  if (textOpen && o.fnArray[j++] !== OPS.endText) throw new Failed('the output does not close the text the source left open');
  for (let count = 0; count <= depth; count += 1) if (o.fnArray[j++] !== OPS.restore) throw new Failed('the output does not close its wrapper after the source content');
  const overlayStart = j;
  areas.push(...overlayAreas(o, overlayStart, oEnd));
  if (s.fnArray.length - sEnd !== o.fnArray.length - oEnd) throw new Failed('the annotations differ in their operators');
  for (let i = sEnd, at = oEnd; i < s.fnArray.length; i += 1, at += 1) {
    const images = step.compare(i, at, true);
    if (images) await images;
    step.follow(s.fnArray[i] ?? -1, (s.argsArray[i] ?? null) as unknown[] | null);
  }

  // Where the removed glyphs and the labels were drawn, read glyph by glyph (worker/pdf-glyphs) from each list.
  const emitted = step.emitted;
  const sourceGlyphs = await glyphsOf(source, sEnd);
  if (sourceGlyphs.length !== emitted) throw new Failed('the source glyphs could not be placed');
  for (const edit of edits) for (const index of edit.removed) {
    const glyph = sourceGlyphs[edit.glyphsBefore + index];
    if (!glyph) throw new Failed('a removed glyph could not be placed');
    areas.push(inkArea(glyph));
  }
  const overlayGlyphs = o.fnArray.slice(overlayStart, oEnd).reduce((sum, fn, index) => sum + (fn === OPS.showText ? glyphCount(((o.argsArray[overlayStart + index] as unknown[])[0] ?? []) as unknown[]) : 0), 0);
  if (overlayGlyphs > 0) {
    const outputGlyphs = await glyphsOf(output, oEnd);
    const removed = edits.reduce((sum, edit) => sum + edit.removed.length, 0);
    if (outputGlyphs.length !== emitted - removed + overlayGlyphs) throw new Failed('the labels could not be placed');
    areas.push(...outputGlyphs.slice(outputGlyphs.length - overlayGlyphs).map((glyph) => inkArea(glyph)));
  }
  return areas;
}

/** Everything the blocks after the content paint, which must be balanced `q … Q` of OVERLAY operators only. */
function overlayAreas(o: OperatorList, start: number, end: number): Rect[] {
  const areas: Rect[] = [];
  let ctm: Matrix = [...IDENTITY];
  let lineWidth = 1;
  const stack: { ctm: Matrix; lineWidth: number }[] = [];
  for (let at = start; at < end; at += 1) {
    const fn = o.fnArray[at] ?? -1;
    const args = (o.argsArray[at] ?? null) as unknown[] | null;
    if (!OVERLAY.has(fn)) throw new Failed(`operator ${at} after the content is not a box's or a label's`);
    if (stack.length === 0 && fn !== OPS.save) throw new Failed(`operator ${at} after the content is outside a save`);
    if (fn === OPS.save) stack.push({ ctm, lineWidth });
    else if (fn === OPS.restore) ({ ctm, lineWidth } = stack.pop() ?? { ctm, lineWidth });
    else if (fn === OPS.transform) ctm = multiply(args as number[], ctm);
    else if (fn === OPS.setLineWidth) lineWidth = Number(args?.[0] ?? 1);
    else if (fn === OPS.constructPath) {
      const box = Array.from((args?.[2] ?? []) as ArrayLike<number>);
      if (box.length !== 4 || !box.every(Number.isFinite)) throw new Failed(`path ${at} after the content has no extent`);
      // A stroke reaches half its width out, a miter join up to five widths (limit 10); half a point of slack.
      const stroked = ![OPS.fill, OPS.eoFill, OPS.endPath].includes(Number(args?.[0]));
      const half = (stroked ? 5 * Math.abs(lineWidth) : 0) + 0.5;
      const [x1 = 0, y1 = 0, x2 = 0, y2 = 0] = box;
      areas.push(transformedBounds(ctm, x1 - half, y1 - half, x2 + half, y2 + half));
    }
  }
  if (stack.length > 0) throw new Failed('the blocks after the content are not closed');
  return areas;
}
