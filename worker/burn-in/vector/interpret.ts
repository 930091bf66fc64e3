import { PDFDict, PDFName, PDFRawStream, PDFStream, type PDFContext } from 'pdf-lib';
import type { Rect } from '../geometry.js';
import { resolveFont, type FontMetrics } from './fonts.js';
import { apply, boundsOf, IDENTITY, maxScale, meetsAny, multiply, quadOf, rectPolygon, type Area, type Matrix, type Point } from './geometry.js';
import { arrayAt, dictAt, nameAt, numberAt, numbersOf, rectAt, resolved } from './pdf-values.js';
import { formatName, formatNumber, hexString, join, literalString, operationBytes } from './serialize.js';
import { ContentSyntaxError, parseContent, type Operand, type Operation } from './tokens.js';

// Runs a page's content like a viewer would, far enough to know where every glyph, image, form and path lands,
// and rewrites it: glyphs under an area are taken out of their strings (the following glyphs keep their places),
// marked-content property lists are dropped. Anything under an area it cannot take apart safely makes it bail.

export interface InterpretOptions {
  /** Redaction areas in user space (padding included). */
  areas: readonly Area[];
  /** The page's visible area: glyphs centred outside it are removed too (text hidden beyond the crop box). */
  visible: Rect;
}

export type RewriteResult = { ok: true; content: Uint8Array; removedGlyphs: number } | { ok: false; reason: string };

/** Why the page cannot be redacted in place; it is then rendered instead. */
export class Bail extends Error {}

interface TextState {
  charSpacing: number;
  wordSpacing: number;
  /** Tz / 100. */
  scale: number;
  leading: number;
  fontName: string | null;
  font: FontMetrics | null;
  /** Why the current font cannot be measured (set instead of `font`). */
  fontProblem: string | null;
  fontSize: number;
  renderMode: number;
  rise: number;
}

interface GraphicsState {
  ctm: Matrix;
  text: TextState;
  lineWidth: number;
  /** Bounds of the clipping path in user space; null: the whole plane. */
  clip: Rect | null;
}

interface PathState {
  /** Each segment as its points in user space (curves: the control points). */
  pieces: Point[][];
  lines: number;
  curves: boolean;
  current: Point | null;
  start: Point | null;
  clip: boolean;
}

/** A string of kept glyphs or a displacement, the items of a rewritten TJ. */
type ShowItem = { kind: 'string'; bytes: number[]; hex: boolean } | { kind: 'move'; value: number };

const PATH_PAINTING = new Set(['S', 's', 'f', 'F', 'f*', 'B', 'B*', 'b', 'b*', 'n']);
const STROKING = new Set(['S', 's', 'B', 'B*', 'b', 'b*']);
const CLOSING = new Set(['s', 'b', 'b*']);
/** Paths with no curve and at most this many straight segments (rules, underlines, frames) may lie under a box. */
const MAX_PLAIN_SEGMENTS = 4;

function newPath(): PathState {
  return { pieces: [], lines: 0, curves: false, current: null, start: null, clip: false };
}

function numbers(operation: Operation, count: number): number[] {
  const values = operation.operands.slice(-count);
  if (values.length !== count || values.some((operand) => operand.type !== 'number')) throw new Bail(`the operator ${operation.operator} has malformed operands`);
  return values.map((operand) => (operand as { value: number }).value);
}

function nameOperand(operation: Operation, index = 0): string {
  const operand = operation.operands[index];
  if (operand?.type !== 'name') throw new Bail(`the operator ${operation.operator} has malformed operands`);
  return operand.value;
}

function intersectRects(a: Rect | null, b: Rect): Rect {
  if (!a) return b;
  return { x1: Math.max(a.x1, b.x1), y1: Math.max(a.y1, b.y1), x2: Math.min(a.x2, b.x2), y2: Math.min(a.y2, b.y2) };
}

function outside(visible: Rect, quad: readonly Point[]): boolean {
  let x = 0;
  let y = 0;
  for (const point of quad) {
    x += point.x / quad.length;
    y += point.y / quad.length;
  }
  return x < visible.x1 || x > visible.x2 || y < visible.y1 || y > visible.y2;
}

class Interpreter {
  private state: GraphicsState = {
    ctm: IDENTITY,
    text: { charSpacing: 0, wordSpacing: 0, scale: 1, leading: 0, fontName: null, font: null, fontProblem: 'no font was selected (Tf)', fontSize: 0, renderMode: 0, rise: 0 },
    lineWidth: 1,
    clip: null,
  };
  private readonly saved: GraphicsState[] = [];
  private textMatrix: Matrix = IDENTITY;
  private lineMatrix: Matrix = IDENTITY;
  private inText = false;
  private path = newPath();
  removedGlyphs = 0;

  constructor(
    private readonly context: PDFContext,
    private readonly resources: PDFDict | undefined,
    private readonly options: InterpretOptions,
  ) {}

  get depth(): number {
    return this.saved.length;
  }

  get textOpen(): boolean {
    return this.inText;
  }

  /** Runs one operation; returns its replacement bytes, or null to keep the original bytes. */
  run(operation: Operation): Uint8Array | null {
    const { operator } = operation;
    const text = this.state.text;
    switch (operator) {
      case 'q':
        this.saved.push({ ...this.state, text: { ...this.state.text } });
        return null;
      case 'Q': {
        const restored = this.saved.pop();
        // A Q without its q is ignored by viewers; dropped, so it cannot pop the wrapper around the content.
        if (!restored) return new Uint8Array(0);
        this.state = restored;
        return null;
      }
      case 'cm': {
        const [a, b, c, d, e, f] = numbers(operation, 6) as [number, number, number, number, number, number];
        this.state.ctm = multiply([a, b, c, d, e, f], this.state.ctm);
        return null;
      }
      case 'w':
        this.state.lineWidth = numbers(operation, 1)[0] as number;
        return null;
      case 'gs':
        this.graphicsStateParameters(nameOperand(operation));
        return null;
      case 'BT':
        this.inText = true;
        this.textMatrix = IDENTITY;
        this.lineMatrix = IDENTITY;
        return null;
      case 'ET':
        this.inText = false;
        return null;
      case 'Tc':
        text.charSpacing = numbers(operation, 1)[0] as number;
        return null;
      case 'Tw':
        text.wordSpacing = numbers(operation, 1)[0] as number;
        return null;
      case 'Tz':
        text.scale = (numbers(operation, 1)[0] as number) / 100;
        return null;
      case 'TL':
        text.leading = numbers(operation, 1)[0] as number;
        return null;
      case 'Ts':
        text.rise = numbers(operation, 1)[0] as number;
        return null;
      case 'Tr':
        text.renderMode = numbers(operation, 1)[0] as number;
        return null;
      case 'Tf':
        this.selectFont(nameOperand(operation, operation.operands.length - 2), numbers(operation, 1)[0] as number);
        return null;
      case 'Td': {
        const [x, y] = numbers(operation, 2) as [number, number];
        this.moveLine(x, y);
        return null;
      }
      case 'TD': {
        const [x, y] = numbers(operation, 2) as [number, number];
        text.leading = -y;
        this.moveLine(x, y);
        return null;
      }
      case 'Tm': {
        const [a, b, c, d, e, f] = numbers(operation, 6) as [number, number, number, number, number, number];
        this.textMatrix = [a, b, c, d, e, f];
        this.lineMatrix = this.textMatrix;
        return null;
      }
      case 'T*':
        this.moveLine(0, -text.leading);
        return null;
      case 'Tj':
      case 'TJ':
      case "'":
      case '"':
        return this.showText(operation);
      case 'BDC':
      case 'DP': {
        // Property lists may carry /ActualText or /Alt of withheld text: only the tag stays.
        const tag = nameOperand(operation);
        if (tag === 'OC') throw new Bail('the page uses optional content');
        return join([Buffer.from(formatName(tag), 'latin1'), Buffer.from(operator === 'BDC' ? 'BMC' : 'MP')]);
      }
      case 'Do':
        this.drawXObject(nameOperand(operation));
        return null;
      case 'BI':
        if (meetsAny(this.options.areas, quadOf(this.state.ctm, 0, 0, 1, 1))) throw new Bail('an inline image lies under a box');
        return null;
      case 'sh':
        this.paintShading(nameOperand(operation));
        return null;
      default:
        this.pathOperation(operation);
        return null;
    }
  }

  private graphicsStateParameters(name: string): void {
    const parameters = dictAt(this.context, dictAt(this.context, this.resources, 'ExtGState'), name);
    if (!parameters) return;
    if (parameters.has(PDFName.of('Font'))) throw new Bail('a graphics state sets the font');
    const width = numberAt(this.context, parameters, 'LW');
    if (width !== undefined) this.state.lineWidth = width;
  }

  private selectFont(name: string, size: number): void {
    const text = this.state.text;
    text.fontName = name;
    text.fontSize = size;
    const dict = dictAt(this.context, dictAt(this.context, this.resources, 'Font'), name);
    if (!dict) {
      text.font = null;
      text.fontProblem = `the font ${name} is missing from the page resources`;
      return;
    }
    const resolution = resolveFont(this.context, dict, name);
    text.font = resolution.ok ? resolution.font : null;
    text.fontProblem = resolution.ok ? null : resolution.reason;
  }

  private moveLine(x: number, y: number): void {
    this.lineMatrix = multiply([1, 0, 0, 1, x, y], this.lineMatrix);
    this.textMatrix = this.lineMatrix;
  }

  /** Shows the strings of Tj, TJ, ' or "; rewritten as TJ when any glyph goes. */
  private showText(operation: Operation): Uint8Array | null {
    const { operator, operands } = operation;
    const text = this.state.text;
    if (!this.inText) throw new Bail('text is shown outside BT … ET');
    let prefix: Uint8Array[] = [];
    if (operator === '"') {
      const [wordSpacing, charSpacing] = numbers({ ...operation, operands: operands.slice(0, 2) }, 2) as [number, number];
      text.wordSpacing = wordSpacing;
      text.charSpacing = charSpacing;
      prefix = [operationBytes(operands.slice(0, 1), 'Tw'), operationBytes(operands.slice(1, 2), 'Tc')];
    }
    if (operator === "'" || operator === '"') {
      this.moveLine(0, -text.leading);
      prefix.push(Buffer.from('T*'));
    }
    const shown = operands.at(-1);
    let elements: Operand[];
    if (operator === 'TJ') {
      if (shown?.type !== 'array') throw new Bail('TJ without an array');
      elements = shown.items;
    } else {
      if (shown?.type !== 'string') throw new Bail(`${operator} without a string`);
      elements = [shown];
    }
    const font = text.font;
    if (!font) throw new Bail(text.fontProblem ?? 'no font');
    const items: ShowItem[] = [];
    let removed = 0;
    for (const element of elements) {
      if (element.type === 'number') {
        items.push({ kind: 'move', value: element.value });
        this.advance((-element.value / 1000) * text.fontSize * text.scale);
      } else if (element.type === 'string') {
        removed += this.showString(font, element.bytes, element.hex, items);
      } else throw new Bail('TJ holds something other than strings and numbers');
    }
    if (removed === 0) return null;
    this.removedGlyphs += removed;
    return join([...prefix, showBytes(items), Buffer.from('TJ')]);
  }

  private advance(distance: number): void {
    const [a, b, c, d, e, f] = this.textMatrix;
    this.textMatrix = [a, b, c, d, e + distance * a, f + distance * b];
  }

  /** Places every glyph of one string, appending kept bytes and displacements to `items`; returns glyphs removed. */
  private showString(font: FontMetrics, bytes: Uint8Array, hex: boolean, items: ShowItem[]): number {
    const text = this.state.text;
    const { fontSize, scale, charSpacing, wordSpacing, rise } = text;
    if (font.twoByte && bytes.length % 2 !== 0) throw new Bail(`a string of font ${text.fontName ?? ''} has an odd number of bytes`);
    const step = font.twoByte ? 2 : 1;
    let removed = 0;
    let open: { kind: 'string'; bytes: number[]; hex: boolean } | null = null;
    for (let index = 0; index < bytes.length; index += step) {
      const code = font.twoByte ? ((bytes[index] as number) << 8) | (bytes[index + 1] as number) : (bytes[index] as number);
      const width = font.width(code);
      if (width === undefined) throw new Bail(`font ${text.fontName ?? ''} has no width for code ${code}`);
      const advance = width / 1000;
      const spacing = charSpacing + (!font.twoByte && code === 32 ? wordSpacing : 0);
      const glyphMatrix = multiply(multiply([fontSize * scale, 0, 0, fontSize, 0, rise], this.textMatrix), this.state.ctm);
      const quad = quadOf(glyphMatrix, Math.min(0, advance), font.descent, Math.max(0, advance), font.ascent);
      if (meetsAny(this.options.areas, quad) || outside(this.options.visible, quad)) {
        if (text.renderMode >= 4) throw new Bail('text under a box is part of a clipping path');
        if (fontSize === 0) throw new Bail('text under a box has font size 0');
        removed += 1;
        open = null;
        items.push({ kind: 'move', value: -(advance * 1000 + (spacing * 1000) / fontSize) });
      } else {
        if (!open) {
          open = { kind: 'string', bytes: [], hex };
          items.push(open);
        }
        for (let offset = 0; offset < step; offset += 1) open.bytes.push(bytes[index + offset] as number);
      }
      this.advance((advance * fontSize + spacing) * scale);
    }
    return removed;
  }

  private drawXObject(name: string): void {
    const object = resolved(this.context, dictAt(this.context, this.resources, 'XObject')?.get(PDFName.of(name)));
    if (!(object instanceof PDFStream)) return;
    const subtype = nameAt(this.context, object.dict, 'Subtype');
    if (subtype === 'Image') {
      if (meetsAny(this.options.areas, quadOf(this.state.ctm, 0, 0, 1, 1))) throw new Bail('an image lies under a box');
    } else if (subtype === 'Form') {
      const bbox = rectAt(this.context, object.dict, 'BBox');
      if (!bbox) throw new Bail(`the form ${name} has no /BBox`);
      const numbersOfMatrix = numbersOf(this.context, arrayAt(this.context, object.dict, 'Matrix'));
      const matrix = numbersOfMatrix?.length === 6 ? (numbersOfMatrix as unknown as Matrix) : IDENTITY;
      const quad = quadOf(multiply(matrix, this.state.ctm), bbox.x1, bbox.y1, bbox.x2, bbox.y2);
      if (meetsAny(this.options.areas, quad)) throw new Bail('a form XObject lies under a box');
      // Its own text is not taken apart: text hidden beyond the visible area could travel inside it.
      const { visible } = this.options;
      if (quad.some((point) => point.x < visible.x1 - 1 || point.x > visible.x2 + 1 || point.y < visible.y1 - 1 || point.y > visible.y2 + 1)) {
        throw new Bail('a form XObject reaches beyond the visible area');
      }
    }
  }

  private paintShading(name: string): void {
    const shading = resolved(this.context, dictAt(this.context, this.resources, 'Shading')?.get(PDFName.of(name)));
    const dict = shading instanceof PDFRawStream ? shading.dict : shading instanceof PDFDict ? shading : undefined;
    const bbox = rectAt(this.context, dict, 'BBox');
    let extent = this.state.clip;
    if (bbox) extent = intersectRects(extent, boundsOf(quadOf(this.state.ctm, bbox.x1, bbox.y1, bbox.x2, bbox.y2)));
    if (!extent) throw new Bail('a shading fills an unclipped area');
    if (extent.x1 <= extent.x2 && extent.y1 <= extent.y2 && meetsAny(this.options.areas, rectPolygon(extent))) throw new Bail('a shading lies under a box');
  }

  private pathOperation(operation: Operation): void {
    const { operator } = operation;
    const path = this.path;
    const point = (x: number, y: number) => apply(this.state.ctm, x, y);
    switch (operator) {
      case 'm': {
        const [x, y] = numbers(operation, 2) as [number, number];
        path.current = point(x, y);
        path.start = path.current;
        return;
      }
      case 'l': {
        const [x, y] = numbers(operation, 2) as [number, number];
        const next = point(x, y);
        path.pieces.push([path.current ?? next, next]);
        path.lines += 1;
        path.current = next;
        return;
      }
      case 'c': {
        const [x1, y1, x2, y2, x3, y3] = numbers(operation, 6) as [number, number, number, number, number, number];
        this.curve(point(x1, y1), point(x2, y2), point(x3, y3));
        return;
      }
      case 'v': {
        const [x2, y2, x3, y3] = numbers(operation, 4) as [number, number, number, number];
        this.curve(path.current ?? point(x2, y2), point(x2, y2), point(x3, y3));
        return;
      }
      case 'y': {
        const [x1, y1, x3, y3] = numbers(operation, 4) as [number, number, number, number];
        const end = point(x3, y3);
        this.curve(point(x1, y1), end, end);
        return;
      }
      case 'h':
        this.closeSubpath();
        return;
      case 're': {
        const [x, y, width, height] = numbers(operation, 4) as [number, number, number, number];
        const corners = [point(x, y), point(x + width, y), point(x + width, y + height), point(x, y + height)];
        for (let side = 0; side < 4; side += 1) path.pieces.push([corners[side] as Point, corners[(side + 1) % 4] as Point]);
        path.current = corners[0] as Point;
        path.start = path.current;
        return;
      }
      case 'W':
      case 'W*':
        path.clip = true;
        return;
      default:
        if (PATH_PAINTING.has(operator)) this.paintPath(operator);
    }
  }

  private curve(control1: Point, control2: Point, end: Point): void {
    const path = this.path;
    const start = path.current ?? control1;
    path.pieces.push(rectPolygon(boundsOf([start, control1, control2, end])));
    path.curves = true;
    path.current = end;
  }

  private closeSubpath(): void {
    const path = this.path;
    if (path.current && path.start && (path.current.x !== path.start.x || path.current.y !== path.start.y)) {
      path.pieces.push([path.current, path.start]);
      path.lines += 1;
    }
    path.current = path.start;
  }

  private paintPath(operator: string): void {
    if (CLOSING.has(operator)) this.closeSubpath();
    const path = this.path;
    this.path = newPath();
    if (path.clip && path.pieces.length > 0) this.state.clip = intersectRects(this.state.clip, boundsOf(path.pieces.flat()));
    if (operator === 'n' || (!path.curves && path.lines <= MAX_PLAIN_SEGMENTS)) return;
    // Strokes reach half their width beyond the path, caps and joins somewhat more.
    const grow = STROKING.has(operator) ? Math.max(this.state.lineWidth * maxScale(this.state.ctm), 1) : 0;
    for (const piece of path.pieces) {
      if (meetsAny(this.options.areas, piece, grow)) throw new Bail(path.curves ? 'a curved path lies under a box' : 'a path of many segments lies under a box');
    }
  }
}

function showBytes(items: readonly ShowItem[]): Uint8Array {
  // Neighbouring displacements add up; a zero one is left out.
  const merged: ShowItem[] = [];
  for (const item of items) {
    const last = merged.at(-1);
    if (item.kind === 'move' && last?.kind === 'move') last.value += item.value;
    else merged.push(item.kind === 'move' ? { ...item } : item);
  }
  const parts = merged
    .filter((item) => item.kind === 'string' || Math.abs(item.value) > 1e-9)
    .map((item) => (item.kind === 'move' ? Buffer.from(formatNumber(item.value), 'latin1') : item.hex ? hexString(Uint8Array.from(item.bytes)) : literalString(Uint8Array.from(item.bytes))));
  return Buffer.concat([Buffer.from('['), join(parts), Buffer.from(']')]);
}

/**
 * Rewrites a content stream: the result is `q <content> Q` with removed glyphs replaced by displacements and
 * unclosed text objects and graphics states closed, so whatever is appended after it starts from the
 * page's default state.
 */
export function rewriteContent(context: PDFContext, resources: PDFDict | undefined, bytes: Uint8Array, options: InterpretOptions): RewriteResult {
  let operations: Operation[];
  try {
    operations = parseContent(bytes);
  } catch (error) {
    if (error instanceof ContentSyntaxError) return { ok: false, reason: `the content cannot be parsed: ${error.message}` };
    throw error;
  }
  const interpreter = new Interpreter(context, resources, options);
  const chunks: Uint8Array[] = [Buffer.from('q\n')];
  let position = 0;
  try {
    for (const operation of operations) {
      const replacement = interpreter.run(operation);
      if (replacement === null) continue;
      chunks.push(bytes.subarray(position, operation.start), replacement);
      position = operation.end;
    }
  } catch (error) {
    if (error instanceof Bail) return { ok: false, reason: error.message };
    throw error;
  }
  chunks.push(bytes.subarray(position));
  const closing = `\n${interpreter.textOpen ? 'ET\n' : ''}${'Q\n'.repeat(interpreter.depth)}Q\n`;
  chunks.push(Buffer.from(closing));
  return { ok: true, content: Buffer.concat(chunks), removedGlyphs: interpreter.removedGlyphs };
}
