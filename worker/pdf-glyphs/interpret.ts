import { OPS, type PDFPageProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { documentText, glyphText, type FontEncoding } from './unicode.js';

// Every glyph a page draws, each with its own extent in user space, read from pdf.js's operator list (the
// evaluator's output, not its text-content path) by following the text state as pdf.js's canvas does: font
// size, character and word spacing, horizontal scale, rise, the text and current transformation matrices, and
// vertical writing (each glyph's own vertical metrics). Also what hides a glyph from a viewer: optional content
// that is off, an invisible rendering mode, a place outside the crop box, or an opaque image or filled
// rectangle drawn over it later.

export type Matrix = [number, number, number, number, number, number];

export type HiddenBy = 'optional-content' | 'invisible' | 'outside-crop' | 'covered' | 'clipped';

export interface Glyph {
  /** The glyph's text (the document's, unicode.ts; a ligature may give several characters); '' when unknown. */
  text: string;
  /** A simple font's code as the content stream holds it (Symbol's "l" for λ), what an object search finds; else ''. */
  bytes: string;
  /**
   * Corners of the glyph's box (advance × ascent..descent, or the em square in vertical writing), user space: left
   * bottom, right bottom, right top, left top. Null for an upright glyph, whose corners are those of its bounds in
   * that order (`quadOf`): most glyphs, and a kept page's glyphs live from the burn to the check, so a glyph
   * carries no array it does not need.
   */
  quad: Quad | null;
  x1: number;
  y1: number;
  x2: number;
  y2: number;
  /**
   * Where the glyph's em box (advance × -0.25..0.95 em, as readers place text: where a text layer puts it) lies
   * along its quad's height, shared by the glyphs of a run; null when the em box is the glyph's box (vertical
   * writing). `emBox` gives the box: made only for the glyphs a text layer places, not for each glyph read.
   */
  emSpan: EmSpan | null;
  vertical: boolean;
  isSpace: boolean;
  /** Why a viewer does not show it; null when it shows. */
  hiddenBy: HiddenBy | null;
  /** Drawn in render mode 3 or 7 over an image of the page: an OCR layer of the page's own picture. */
  overImage: boolean;
  /** Drawn by an annotation's appearance rather than the page's content. */
  annotation: boolean;
  /** Index of its text-showing operator in the operator list. */
  op?: number;
}

export type Quad = [number, number, number, number, number, number, number, number];

/** A glyph's corners (see `Glyph.quad`). */
export function quadOf(glyph: Pick<Glyph, 'quad' | 'x1' | 'y1' | 'x2' | 'y2'>): Quad {
  return glyph.quad ?? [glyph.x1, glyph.y1, glyph.x2, glyph.y1, glyph.x2, glyph.y2, glyph.x1, glyph.y2];
}

/** Fractions of a quad's height, from its bottom edge (left-bottom to left-top corner), where the em box lies. */
export interface EmSpan {
  low: number;
  high: number;
}

/** The glyph's em box in user space (see `Glyph.emSpan`). */
export function emBox(glyph: Pick<Glyph, 'quad' | 'emSpan' | 'x1' | 'y1' | 'x2' | 'y2'>): { x1: number; y1: number; x2: number; y2: number } {
  const span = glyph.emSpan;
  if (!span) return { x1: glyph.x1, y1: glyph.y1, x2: glyph.x2, y2: glyph.y2 };
  // The quad's corners are the text-space box's under an affine map, so its edges map points along them in proportion.
  const [lbx, lby, rbx, rby, rtx, rty, ltx, lty] = quadOf(glyph);
  const { low, high } = span;
  const x0 = lbx + low * (ltx - lbx), y0 = lby + low * (lty - lby);
  const x1 = rbx + low * (rtx - rbx), y1 = rby + low * (rty - rby);
  const x2 = rbx + high * (rtx - rbx), y2 = rby + high * (rty - rby);
  const x3 = lbx + high * (ltx - lbx), y3 = lby + high * (lty - lby);
  return { x1: Math.min(x0, x1, x2, x3), y1: Math.min(y0, y1, y2, y3), x2: Math.max(x0, x1, x2, x3), y2: Math.max(y0, y1, y2, y3) };
}

interface FontInfo extends FontEncoding {
  vertical?: boolean;
  defaultVMetrics?: number[];
  fontMatrix?: number[];
  ascent?: number;
  descent?: number;
  isType3Font?: boolean;
}

interface GlyphOp {
  originalCharCode?: number;
  unicode?: string;
  width?: number;
  vmetric?: number[] | null;
  isSpace?: boolean;
}

interface TextState {
  ctm: Matrix;
  font: FontInfo | null;
  fontSize: number;
  fontDirection: number;
  charSpacing: number;
  wordSpacing: number;
  hScale: number;
  leading: number;
  rise: number;
  renderMode: number;
  textMatrix: Matrix;
  x: number;
  y: number;
  lineX: number;
  lineY: number;
  fillAlpha: number;
  blendNormal: boolean;
  softMask: boolean;
  /** Bounds (user space) of the clipping so far: a fill hides nothing outside it. */
  clip: { x1: number; y1: number; x2: number; y2: number };
}

const IDENTITY: Matrix = [1, 0, 0, 1, 0, 0];

export function multiply(m: readonly number[], n: readonly number[]): Matrix {
  const [a = 1, b = 0, c = 0, d = 1, e = 0, f = 0] = m;
  const [A = 1, B = 0, C = 0, D = 1, E = 0, F = 0] = n;
  return [a * A + b * C, a * B + b * D, c * A + d * C, c * B + d * D, e * A + f * C + E, e * B + f * D + F];
}

function apply(m: Matrix, x: number, y: number): [number, number] {
  return [m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5]];
}

function freshState(): TextState {
  return {
    ctm: [...IDENTITY],
    font: null,
    fontSize: 0,
    fontDirection: 1,
    charSpacing: 0,
    wordSpacing: 0,
    hScale: 1,
    leading: 0,
    rise: 0,
    renderMode: 0,
    textMatrix: [...IDENTITY],
    x: 0,
    y: 0,
    lineX: 0,
    lineY: 0,
    fillAlpha: 1,
    blendNormal: true,
    softMask: false,
    clip: { x1: -Infinity, y1: -Infinity, x2: Infinity, y2: Infinity },
  };
}

/** An opaque area drawn on the page (user space bounds) after `order` glyphs had been drawn. */
interface Cover {
  x1: number;
  y1: number;
  x2: number;
  y2: number;
  after: number;
  image: boolean;
}

export interface InterpretOptions {
  /** Whether an optional content group (as the operator list gives it) is visible by the document's default. */
  isVisible(properties: unknown): boolean;
  /** Crop box [x1, y1, x2, y2]. */
  view: readonly number[];
  /** Whether the image with this object id may let what is under it show (an alpha channel). */
  imageHasAlpha(objectId: string): boolean;
  /** Told of each image or image mask painted on the unit square, with its bounds in user space. */
  onImage?(op: number, bounds: { x1: number; y1: number; x2: number; y2: number }): void;
}

function boundsOf(points: readonly number[]): { x1: number; y1: number; x2: number; y2: number } {
  const [x0 = 0, y0 = 0, x1 = 0, y1 = 0, x2 = 0, y2 = 0, x3 = 0, y3 = 0] = points;
  return { x1: Math.min(x0, x1, x2, x3), y1: Math.min(y0, y1, y2, y3), x2: Math.max(x0, x1, x2, x3), y2: Math.max(y0, y1, y2, y3) };
}

const FILLS = new Set<number>([OPS.fill, OPS.eoFill, OPS.fillStroke, OPS.eoFillStroke, OPS.closeFillStroke, OPS.closeEOFillStroke]);

/** A path that is exactly one rectangle, as pdf.js stores `re` (moveTo, three lineTo, closePath). */
function singleRectangle(path: ArrayLike<number>): [number, number, number, number] | null {
  if (path.length !== 13 || path[0] !== 0 || path[3] !== 1 || path[6] !== 1 || path[9] !== 1 || path[12] !== 4) return null;
  const xs = [path[1], path[4], path[7], path[10]] as number[];
  const ys = [path[2], path[5], path[8], path[11]] as number[];
  const distinct = (values: number[]) => new Set(values.map((value) => Math.round(value * 1000))).size;
  if (distinct(xs) !== 2 || distinct(ys) !== 2) return null;
  return [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)];
}

function intersect(a: { x1: number; y1: number; x2: number; y2: number }, b: { x1: number; y1: number; x2: number; y2: number }) {
  return { x1: Math.max(a.x1, b.x1), y1: Math.max(a.y1, b.y1), x2: Math.min(a.x2, b.x2), y2: Math.min(a.y2, b.y2) };
}

function axisAligned(m: Matrix): boolean {
  return (Math.abs(m[1]) < 1e-9 && Math.abs(m[2]) < 1e-9) || (Math.abs(m[0]) < 1e-9 && Math.abs(m[3]) < 1e-9);
}

function transformedBounds(m: Matrix, x1: number, y1: number, x2: number, y2: number) {
  const corners = [apply(m, x1, y1), apply(m, x2, y1), apply(m, x2, y2), apply(m, x1, y2)].flat();
  return boundsOf(corners);
}

interface OperatorList {
  fnArray: number[];
  argsArray: unknown[];
}

/**
 * Reads the glyphs of one text-showing operator into `glyphs` and moves the pen past them. A function of its
 * own (not a closure of each reading), so V8 keeps one optimised copy for every page read.
 */
function emit(glyphs: Glyph[], state: TextState, visible: boolean, annotation: boolean, ops: readonly (GlyphOp | number)[], opIndex: number): void {
  const font = state.font;
  if (!font || state.fontSize === 0) return;
  const fontMatrix = font.fontMatrix ?? [0.001, 0, 0, 0.001, 0, 0];
  const size = state.fontSize;
  const scale = size * (fontMatrix[0] ?? 0.001);
  const hScale = state.hScale * state.fontDirection;
  const vertical = font.vertical === true;
  // The font's ascent and descent when they are plausible, else the usual 0.8 / -0.2 em.
  const ascent = font.ascent && font.ascent >= 0.5 && font.ascent <= 1.1 ? font.ascent : 0.8;
  const descent = font.descent && font.descent < 0 && font.descent >= -0.5 ? font.descent : -0.2;
  // The em box, -0.25..0.95 em, along the box's height descent..ascent (the same for every glyph of the run).
  const emSpan: EmSpan | null = vertical ? null : { low: (-0.25 - descent) / (ascent - descent), high: (0.95 - descent) / (ascent - descent) };
  // Text space → user space: [hScale, 0, 0, 1, x, y + rise] × Tm × CTM (sizes already in text units).
  const base = multiply(multiply([hScale, 0, 0, 1, state.x, state.y + state.rise], state.textMatrix), state.ctm);
  const invisibleMode = (state.renderMode & 3) === 3;
  // Constant over the run (no operator between its glyphs): decided once.
  const hidden: HiddenBy | null = !visible ? 'optional-content' : invisibleMode ? 'invisible' : null;
  const clip = state.clip;
  const table = documentText(font);
  let pen = 0;
  for (const op of ops) {
    if (typeof op === 'number') {
      pen += ((vertical ? 1 : -1) * op * size) / 1000;
      continue;
    }
    const spacing = (op.isSpace ? state.wordSpacing : 0) + state.charSpacing;
    let width = op.width ?? 0;
    // The glyph's box in text space, corners (left, bottom), (right, bottom), (right, top), (left, top).
    let left: number;
    let right: number;
    let bottom: number;
    let top: number;
    if (vertical) {
      const vmetric = op.vmetric ?? font.defaultVMetrics ?? [-1000, width / 2, 880];
      const vx = -(op.vmetric ? (vmetric[1] ?? 0) : width * 0.5) * scale;
      const horizontal = width * scale;
      width = op.vmetric ? -(vmetric[0] ?? -1000) : -(vmetric[0] ?? -1000);
      // The glyph's cell: its horizontal width across, from the pen down by its vertical advance.
      left = vx;
      right = vx + horizontal;
      top = -pen;
      bottom = top - Math.abs(width) * scale;
    } else {
      left = pen;
      right = pen + width * scale;
      bottom = descent * size;
      top = ascent * size;
    }
    // Its corners in user space and their bounds, taken straight from the corners: this runs for every glyph a
    // check reads, several times a page, so nothing more is made for each glyph than these.
    // The box (left, bottom)–(right, top) under `base`: its corners left bottom, right bottom, right top, left top.
    const a = base[0], b = base[1], c = base[2], d = base[3], e = base[4], f = base[5];
    const lbx = a * left + c * bottom + e, lby = b * left + d * bottom + f;
    const rbx = a * right + c * bottom + e, rby = b * right + d * bottom + f;
    const rtx = a * right + c * top + e, rty = b * right + d * top + f;
    const ltx = a * left + c * top + e, lty = b * left + d * top + f;
    const x1 = Math.min(lbx, rbx, rtx, ltx);
    const y1 = Math.min(lby, rby, rty, lty);
    const x2 = Math.max(lbx, rbx, rtx, ltx);
    const y2 = Math.max(lby, rby, rty, lty);
    const upright = lbx === x1 && lby === y1 && rbx === x2 && rby === y1 && rtx === x2 && rty === y2 && ltx === x1 && lty === y2;
    const quad: Quad | null = upright ? null : [lbx, lby, rbx, rby, rtx, rty, ltx, lty];
    const unicode = op.unicode ?? '';
    const code = op.originalCharCode;
    const text = glyphText(table, code, unicode);
    // Cut away whole by the clipping so far (a clipping path's bounds, a form's or an annotation's box).
    const cx = (x1 + x2) / 2;
    const cy = (y1 + y2) / 2;
    const clipped = cx < clip.x1 || cx > clip.x2 || cy < clip.y1 || cy > clip.y2;
    const byte = code ?? 0;
    glyphs.push({
      text,
      bytes: font.composite || byte > 0xff ? '' : String.fromCharCode(byte),
      quad,
      x1,
      y1,
      x2,
      y2,
      emSpan,
      vertical,
      // As /^\s+$/u: trim() takes away exactly \s (white space and line terminators).
      isSpace: op.isSpace === true || (text.length > 0 && text.trim() === ''),
      hiddenBy: hidden ?? (clipped ? 'clipped' : null),
      overImage: false,
      annotation,
      op: opIndex,
    });
    pen += vertical ? width * scale - spacing * state.fontDirection : width * scale + spacing * state.fontDirection;
  }
  if (vertical) state.y -= pen;
  else state.x += pen * hScale;
}

/** Every glyph of the operator list in drawing order, with what hides it. */
export function interpret(list: OperatorList, fonts: (name: string) => FontInfo | null, options: InterpretOptions): Glyph[] {
  const glyphs: Glyph[] = [];
  const images: { x1: number; y1: number; x2: number; y2: number }[] = [];
  const covers: Cover[] = [];
  let state = freshState();
  const stack: TextState[] = [];
  const marked: boolean[] = [];
  let annotation = false;
  // Inside a transparency group what a fill hides depends on the group's own blending: never counted as covering.
  let groups = 0;
  let pendingClip = false;
  const visibleNow = () => marked.every(Boolean);

  const { fnArray, argsArray } = list;
  for (let index = 0; index < fnArray.length; index += 1) {
    const fn = fnArray[index];
    const args = (argsArray[index] ?? []) as unknown[];
    switch (fn) {
      case OPS.save:
        stack.push({ ...state, ctm: [...state.ctm], textMatrix: [...state.textMatrix], clip: { ...state.clip } });
        break;
      case OPS.restore:
        state = stack.pop() ?? state;
        break;
      case OPS.transform:
        state.ctm = multiply(args as number[], state.ctm);
        break;
      case OPS.paintFormXObjectBegin:
        stack.push({ ...state, ctm: [...state.ctm], textMatrix: [...state.textMatrix], clip: { ...state.clip } });
        if (Array.isArray(args[0]) || ArrayBuffer.isView(args[0])) state.ctm = multiply(Array.from(args[0] as number[]), state.ctm);
        if (Array.isArray(args[1]) || ArrayBuffer.isView(args[1])) {
          const [bx1 = 0, by1 = 0, bx2 = 0, by2 = 0] = Array.from(args[1] as number[]);
          state.clip = intersect(state.clip, transformedBounds(state.ctm, bx1, by1, bx2, by2));
        }
        break;
      case OPS.paintFormXObjectEnd:
        state = stack.pop() ?? state;
        break;
      case OPS.beginAnnotation: {
        stack.push(state);
        state = freshState();
        const transform = Array.from((args[2] as number[] | undefined) ?? IDENTITY);
        const matrix = Array.from((args[3] as number[] | undefined) ?? IDENTITY);
        state.ctm = multiply(matrix, transform);
        // Viewers draw an appearance inside the annotation's rectangle only.
        const rect = Array.from((args[1] as number[] | undefined) ?? []);
        if (rect.length === 4) state.clip = { x1: Math.min(rect[0] ?? 0, rect[2] ?? 0), y1: Math.min(rect[1] ?? 0, rect[3] ?? 0), x2: Math.max(rect[0] ?? 0, rect[2] ?? 0), y2: Math.max(rect[1] ?? 0, rect[3] ?? 0) };
        annotation = true;
        break;
      }
      case OPS.endAnnotation:
        state = stack.pop() ?? freshState();
        annotation = false;
        break;
      case OPS.beginText:
        state.textMatrix = [...IDENTITY];
        state.x = state.lineX = 0;
        state.y = state.lineY = 0;
        break;
      case OPS.setFont: {
        state.font = fonts(String(args[0]));
        const size = Number(args[1] ?? 0);
        state.fontDirection = size < 0 ? -1 : 1;
        state.fontSize = Math.abs(size);
        break;
      }
      case OPS.setCharSpacing:
        state.charSpacing = Number(args[0] ?? 0);
        break;
      case OPS.setWordSpacing:
        state.wordSpacing = Number(args[0] ?? 0);
        break;
      case OPS.setHScale:
        state.hScale = Number(args[0] ?? 100) / 100;
        break;
      case OPS.setLeading:
        state.leading = -Number(args[0] ?? 0);
        break;
      case OPS.setTextRise:
        state.rise = Number(args[0] ?? 0);
        break;
      case OPS.setTextRenderingMode:
        state.renderMode = Number(args[0] ?? 0);
        break;
      case OPS.moveText:
        state.x = state.lineX += Number(args[0] ?? 0);
        state.y = state.lineY += Number(args[1] ?? 0);
        break;
      case OPS.setLeadingMoveText:
        state.leading = Number(args[1] ?? 0);
        state.x = state.lineX += Number(args[0] ?? 0);
        state.y = state.lineY += Number(args[1] ?? 0);
        break;
      case OPS.setTextMatrix:
        state.textMatrix = Array.from((Array.isArray(args[0]) || ArrayBuffer.isView(args[0]) ? args[0] : args) as ArrayLike<number>).slice(0, 6) as Matrix;
        state.x = state.lineX = 0;
        state.y = state.lineY = 0;
        break;
      case OPS.nextLine:
        state.x = state.lineX += 0;
        state.y = state.lineY += state.leading;
        state.x = state.lineX;
        break;
      case OPS.showText:
        emit(glyphs, state, visibleNow(), annotation, (args[0] as (GlyphOp | number)[]) ?? [], index);
        break;
      case OPS.setGState:
        for (const entry of (args[0] as [string, unknown][]) ?? []) {
          const [key, value] = entry;
          if (key === 'Font' && Array.isArray(value)) {
            state.font = fonts(String(value[0]));
            const size = Number(value[1] ?? 0);
            state.fontDirection = size < 0 ? -1 : 1;
            state.fontSize = Math.abs(size);
          } else if (key === 'ca') state.fillAlpha = Number(value);
          else if (key === 'BM') state.blendNormal = value === 'source-over' || value === 'Normal' || value === undefined;
          else if (key === 'SMask') state.softMask = value !== false && value !== null && value !== undefined;
        }
        break;
      case OPS.beginGroup:
        groups += 1;
        break;
      case OPS.endGroup:
        groups = Math.max(0, groups - 1);
        break;
      case OPS.beginMarkedContent:
        marked.push(true);
        break;
      case OPS.beginMarkedContentProps:
        marked.push(args[0] === 'OC' ? options.isVisible(args[1]) : true);
        break;
      case OPS.endMarkedContent:
        marked.pop();
        break;
      case OPS.clip:
      case OPS.eoClip:
        pendingClip = true;
        break;
      case OPS.constructPath: {
        const paint = args[0] as number;
        const path = (args[1] as ArrayLike<number>[] | undefined)?.[0];
        const minMax = args[2] as ArrayLike<number> | undefined;
        if (pendingClip) {
          pendingClip = false;
          if (minMax && minMax.length >= 4) state.clip = intersect(state.clip, transformedBounds(state.ctm, minMax[0] ?? 0, minMax[1] ?? 0, minMax[2] ?? 0, minMax[3] ?? 0));
        }
        if (!FILLS.has(paint) || !path || !visibleNow() || groups > 0) break;
        const rect = singleRectangle(path);
        if (!rect || !axisAligned(state.ctm) || state.fillAlpha < 1 || !state.blendNormal || state.softMask) break;
        covers.push({ ...intersect(state.clip, transformedBounds(state.ctm, ...rect)), after: glyphs.length, image: false });
        break;
      }
      case OPS.paintImageMaskXObject:
      case OPS.paintSolidColorImageMask:
        options.onImage?.(index, transformedBounds(state.ctm, 0, 0, 1, 1));
        break;
      case OPS.paintImageXObject:
      case OPS.paintInlineImageXObject: {
        const bounds = transformedBounds(state.ctm, 0, 0, 1, 1);
        options.onImage?.(index, bounds);
        if (!visibleNow()) break;
        images.push(bounds);
        const id = fn === OPS.paintImageXObject ? String(args[0]) : null;
        const opaque = id !== null ? !options.imageHasAlpha(id) : ((args[0] as { kind?: number } | undefined)?.kind ?? 3) !== 3;
        if (opaque && groups === 0 && axisAligned(state.ctm) && state.fillAlpha >= 1 && state.blendNormal && !state.softMask) covers.push({ ...intersect(state.clip, bounds), after: glyphs.length, image: true });
        break;
      }
      default:
        break;
    }
  }
  return classify(glyphs, covers, images, options.view);
}

function classify(glyphs: Glyph[], covers: readonly Cover[], images: readonly { x1: number; y1: number; x2: number; y2: number }[], view: readonly number[]): Glyph[] {
  const [vx1 = 0, vy1 = 0, vx2 = 0, vy2 = 0] = view;
  const inside = (outer: { x1: number; y1: number; x2: number; y2: number }, inner: { x1: number; y1: number; x2: number; y2: number }, slack: number) =>
    inner.x1 >= outer.x1 - slack && inner.y1 >= outer.y1 - slack && inner.x2 <= outer.x2 + slack && inner.y2 <= outer.y2 + slack;
  const left = Math.min(vx1, vx2);
  const right = Math.max(vx1, vx2);
  const bottom = Math.min(vy1, vy2);
  const top = Math.max(vy1, vy2);
  // The glyphs are this reading's own (made by interpret): settled in place, not copied.
  for (let order = 0; order < glyphs.length; order += 1) {
    const glyph = glyphs[order] as Glyph;
    const cx = (glyph.x1 + glyph.x2) / 2;
    const cy = (glyph.y1 + glyph.y2) / 2;
    let hiddenBy = glyph.hiddenBy;
    const overImage = hiddenBy === 'invisible' && images.some((image) => cx >= image.x1 && cx <= image.x2 && cy >= image.y1 && cy <= image.y2);
    if (hiddenBy === null && (cx < left || cx > right || cy < bottom || cy > top)) hiddenBy = 'outside-crop';
    if (hiddenBy === null && covers.length > 0) {
      for (const cover of covers) {
        if (cover.after > order && inside(cover, glyph, 0.01)) {
          hiddenBy = 'covered';
          break;
        }
      }
    }
    glyph.hiddenBy = hiddenBy;
    glyph.overImage = overImage;
  }
  return glyphs;
}

/** How long to wait for an image's data to learn whether it covers what lies under it. */
const IMAGE_WAIT_MS = 2000;

/** The glyphs of a page, once its operator list (display intent, annotations drawn) is built. */
export async function pageGlyphs(page: PDFPageProxy, isVisible: (properties: unknown) => boolean): Promise<Glyph[]> {
  const list = await page.getOperatorList({ intent: 'display', annotationMode: 1 });
  const fonts = new Map<string, FontInfo | null>();
  const fontOf = (name: string) => {
    if (!fonts.has(name)) {
      let info: FontInfo | null = null;
      try {
        info = page.commonObjs.has(name) ? (page.commonObjs.get(name) as FontInfo) : null;
      } catch {
        info = null;
      }
      fonts.set(name, info);
    }
    return fonts.get(name) ?? null;
  };
  // Image data reaches the page's object store after the operator list: wait for each (briefly) to learn
  // whether it has an alpha channel; an image not known in time counts as letting what is under it show.
  const alpha = new Map<string, boolean>();
  const ids = new Set<string>();
  list.fnArray.forEach((fn, index) => {
    if (fn === OPS.paintImageXObject) ids.add(String((list.argsArray[index] as unknown[])[0]));
  });
  await Promise.all(
    [...ids].map(async (id) => {
      const store = id.startsWith('g_') ? page.commonObjs : page.objs;
      const image = await new Promise<unknown>((resolve) => {
        const timer = setTimeout(() => resolve(null), IMAGE_WAIT_MS);
        try {
          store.get(id, (data: unknown) => {
            clearTimeout(timer);
            resolve(data);
          });
        } catch {
          clearTimeout(timer);
          resolve(null);
        }
      });
      const data = image as { kind?: number; bitmap?: unknown } | null;
      alpha.set(id, !data || data.bitmap !== undefined || data.kind === 3);
    }),
  );
  const imageHasAlpha = (id: string) => alpha.get(id) ?? true;
  return interpret(list as unknown as OperatorList, fontOf, { isVisible, view: page.view, imageHasAlpha });
}
