import { decodePDFRawStream, PDFDict, PDFName, PDFRawStream, PDFRef, PDFStream, type PDFContext } from 'pdf-lib';
import { APPEARANCE_PREFIX } from '../annotations.js';
import type { Rect } from '../geometry.js';
import { Bail } from './bail.js';
import { resolveFont, type FontMetrics } from './fonts.js';
import { freeXObjectName, type FormCopy } from './forms.js';
import { apply, boundsOf, IDENTITY, meetsAny, multiply, quadOf, rectPolygon, type Area, type Matrix } from './geometry.js';
import { planImage, type ImageCopy } from './images.js';
import { InkMismatch, type InkCursor, type InkShow } from './ink.js';
import { intersectRects, numbers, PathTracker } from './paths.js';
import { showElements, type RemovedGlyph } from './show.js';
import { arrayAt, dictAt, nameAt, numberAt, numbersOf, rectAt, resolved } from './pdf-values.js';
import { invert, piecesContent } from './pieces.js';
import { foldText } from '../../../main/common/fold-text.js';
import { formatName, formatNumber, formatPrecise, join, operationBytes } from './serialize.js';
import { ContentSyntaxError, parseContent, type Operand, type Operation } from './tokens.js';

// Runs a page's content like a viewer would, far enough to know where every glyph, image, form and path lands,
// and rewrites it: glyphs under an area are taken out of their strings (the following glyphs keep their places),
// marked-content property lists are dropped. Anything under an area it cannot take apart safely makes it bail.

export interface InterpretOptions {
  /** Redaction areas in user space (padding included). */
  areas: readonly Area[];
  /** The page's visible area: glyphs centred outside it are removed too (text hidden beyond the crop box). */
  visible: Rect;
  /** Each glyph's own ink, read by pdf.js in step with the content; without it, fonts' own metrics. */
  ink?: InkCursor;
  /** Inside a form XObject: its matrix and the CTM where it is drawn; forms in it are not copied again. */
  form?: { ctm: Matrix };
  /** Images drawn more than once with a draw under a box: every draw uses this copy (by XObject name). */
  sharedImages?: ReadonlyMap<string, ImageCopy>;
}

export type RewriteResult =
  | { ok: true; content: Uint8Array; removedGlyphs: number; removed: RemovedGlyph[]; removedText: string[]; forms: FormCopy[]; images: ImageCopy[] }
  | { ok: false; reason: string };

export { Bail };
export type { RemovedGlyph };

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

function nameOperand(operation: Operation, index = 0): string {
  const operand = operation.operands[index];
  if (operand?.type !== 'name') throw new Bail(`the operator ${operation.operator} has malformed operands`);
  return operand.value;
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
  /** Text in a clipping mode was shown in this text object: its clip applies at ET, so no ET may come early. */
  private textClipped = false;
  private readonly paths: PathTracker;
  removedGlyphs = 0;

  readonly removed: RemovedGlyph[] = [];
  readonly forms: FormCopy[] = [];
  readonly images: ImageCopy[] = [];
  /** Image XObjects drawn, by name, and those redacted (each must be drawn once: the original stays behind). */
  readonly imageDraws = new Map<string, number>();
  readonly redactedImages = new Map<string, ImageCopy>();
  /** Open marked-content sequences: an /ActualText one with the counts of what was removed before it, else null. */
  private readonly marked: ({ tagged: Uint8Array; kept: Uint8Array; actualText: string; glyphs: number; removed: number; images: number; forms: number } | null)[] = [];
  /** Tag-only replacements of BDC operators whose /ActualText stays, with the bytes that keep it. */
  readonly keptMarked = new Map<Uint8Array, { kept: Uint8Array; actualText: string }>();
  /** The text of the runs of glyphs removed (a kept /ActualText must not repeat any). */
  readonly removedText: string[] = [];

  constructor(
    private readonly context: PDFContext,
    private readonly resources: PDFDict | undefined,
    private readonly options: InterpretOptions,
  ) {
    this.paths = new PathTracker(options.areas);
    if (options.form) this.state.ctm = options.form.ctm;
  }

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
        this.textClipped = false;
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
        // Optional content (OC) too: a release carries no layer configuration, so every layer shows in it either
        // way; the two-way check renders the source with its own, and a hidden layer that would show sends the
        // page to rendering.
        const tag = nameOperand(operation);
        const tagged = join([Buffer.from(formatName(tag), 'latin1'), Buffer.from(operator === 'BDC' ? 'BMC' : 'MP')]);
        if (operator === 'BDC') this.openMarked(operation, tagged);
        return tagged;
      }
      case 'BMC':
        this.marked.push(null);
        return null;
      case 'EMC':
        this.closeMarked();
        return null;
      case 'Do':
        return this.drawXObject(nameOperand(operation));
      case 'BI':
        if (meetsAny(this.options.areas, quadOf(this.state.ctm, 0, 0, 1, 1))) throw new Bail('an inline image lies under a box');
        return null;
      case 'sh':
        this.paintShading(nameOperand(operation));
        return null;
      default:
        this.paths.run(operation, this.state);
        return null;
    }
  }

  /**
   * A BDC with an inline /ActualText (the text a sequence of glyphs stands for: a ligature, an emoji flag) is
   * kept, with nothing but that entry, when nothing in its sequence was taken out or redacted: it then
   * describes only what the release still shows. Decided at its EMC (keptMarked); otherwise only the tag stays.
   */
  private openMarked(operation: Operation, tagged: Uint8Array): void {
    const properties = operation.operands[1];
    const actualText = properties?.type === 'dict' ? properties.entries.get('ActualText') : undefined;
    if (actualText?.type !== 'string') {
      this.marked.push(null);
      return;
    }
    const kept = operationBytes([operation.operands[0] as Operand, { type: 'dict', entries: new Map([['ActualText', actualText]]) }], 'BDC');
    this.marked.push({ tagged, kept, actualText: pdfTextString(actualText.bytes), glyphs: this.removedGlyphs, removed: this.removed.length, images: this.images.length, forms: this.forms.length });
  }

  private closeMarked(): void {
    const open = this.marked.pop();
    if (!open) return;
    if (this.removedGlyphs === open.glyphs && this.removed.length === open.removed && this.images.length === open.images && this.forms.length === open.forms) this.keptMarked.set(open.tagged, { kept: open.kept, actualText: open.actualText });
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
    const pdf: InkShow | null = this.inkOf(() => (this.options.ink ? this.options.ink.show() : null));
    const input = { text, ctm: this.state.ctm, lineWidth: this.state.lineWidth, textMatrix: this.textMatrix, areas: this.options.areas, visible: this.options.visible, pdf };
    const inverseCtm = invert(this.state.ctm);
    let shownText = showElements(elements, { ...input, pieces: !this.textClipped && inverseCtm !== null });
    let pieces: Uint8Array | null = null;
    if (shownText.pieces.length > 0 && inverseCtm) {
      const restore = this.textPlaceAfter(shownText.textMatrix);
      if (restore) pieces = join([Buffer.from('ET'), piecesContent(shownText.pieces, inverseCtm), Buffer.from('BT'), restore]);
      else shownText = showElements(elements, { ...input, pieces: false });
    }
    if (text.renderMode >= 4) this.textClipped = true;
    this.textMatrix = shownText.textMatrix;
    if (shownText.bytes === null) return null;
    this.removedGlyphs += shownText.removedCount;
    this.removed.push(...shownText.removed);
    this.removedText.push(...shownText.removedText);
    return join([...prefix, shownText.bytes, Buffer.from('TJ'), ...(pieces ? [pieces] : [])]);
  }

  /**
   * Operators that, at the start of a new text object, set the line matrix and text matrix as they stand after
   * a show whose text matrix is `textMatrix` (a show moves only along the line: a displacement restores it).
   * null when the move cannot be written so.
   */
  private textPlaceAfter(textMatrix: Matrix): Uint8Array | null {
    const line = this.lineMatrix;
    const inverseLine = invert(line);
    if (!inverseLine || textMatrix.slice(0, 4).some((value, index) => Math.abs(value - (line[index] as number)) > 1e-9)) return null;
    const { x: along, y: across } = apply(inverseLine, textMatrix[4], textMatrix[5]);
    if (Math.abs(across) > 1e-6) return null;
    const setLine = Buffer.from(`${line.map(formatPrecise).join(' ')} Tm`, 'latin1');
    if (Math.abs(along) < 1e-9) return setLine;
    const step = this.state.text.fontSize * this.state.text.scale;
    if (!(Math.abs(step) > 1e-9) || this.state.text.font?.vertical) return null;
    return join([setLine, Buffer.from(`[${formatNumber((-along * 1000) / step)}] TJ`, 'latin1')]);
  }

  private drawXObject(name: string): Uint8Array | null {
    const reference = dictAt(this.context, this.resources, 'XObject')?.get(PDFName.of(name));
    const object = resolved(this.context, reference);
    if (!(object instanceof PDFStream)) return null;
    const subtype = nameAt(this.context, object.dict, 'Subtype');
    if (subtype === 'Image') {
      this.imageDraws.set(name, (this.imageDraws.get(name) ?? 0) + 1);
      // An image redacted under one draw is drawn from the same copy everywhere on the page (second pass).
      const shared = this.options.sharedImages?.get(name);
      if (shared && !this.images.includes(shared)) this.images.push(shared);
      if (!meetsAny(this.options.areas, quadOf(this.state.ctm, 0, 0, 1, 1))) return shared ? Buffer.from(`${formatName(shared.name)} Do`, 'latin1') : null;
      if (this.options.form) throw new Bail('an image inside a form XObject lies under a box');
      // Redacted in its own pixels, drawn from a copy for this page (images.ts); the black grows over cut pixels.
      const taken = new Set([...this.forms.map((form) => form.name), ...this.images.map((image) => image.name)]);
      const copyName = freeXObjectName(dictAt(this.context, this.resources, 'XObject'), taken, 'ObscuraImage');
      const planned = planImage(this.context, this.resources, name, copyName, this.state.ctm, this.options.areas);
      for (const entry of planned.grown) this.removed.push({ bounds: entry.bounds, areas: [entry.area] });
      if (shared) return Buffer.from(`${formatName(shared.name)} Do`, 'latin1');
      if (planned.copy.pixels.length === 0) return null;
      this.images.push(planned.copy);
      this.redactedImages.set(name, planned.copy);
      return Buffer.from(`${formatName(copyName)} Do`, 'latin1');
    }
    if (subtype !== 'Form') return null;
    // pdf.js draws the form's operators in between: they are the form's own (walked or skipped here). Flattened
    // annotation appearances are not in pdf.js's reading of the page: their glyphs go by the fonts' metrics.
    const inner = name.startsWith(APPEARANCE_PREFIX) ? undefined : this.inkOf(() => this.options.ink?.form());
    const bbox = rectAt(this.context, object.dict, 'BBox');
    if (!bbox) throw new Bail(`the form ${name} has no /BBox`);
    const numbersOfMatrix = numbersOf(this.context, arrayAt(this.context, object.dict, 'Matrix'));
    const matrix = numbersOfMatrix?.length === 6 ? (numbersOfMatrix as unknown as Matrix) : IDENTITY;
    const ctm = multiply(matrix, this.state.ctm);
    const quad = quadOf(ctm, bbox.x1, bbox.y1, bbox.x2, bbox.y2);
    const { visible } = this.options;
    const under = meetsAny(this.options.areas, quad);
    const beyond = quad.some((point) => point.x < visible.x1 - 1 || point.x > visible.x2 + 1 || point.y < visible.y1 - 1 || point.y > visible.y2 + 1);
    if (!under && !beyond) return null;
    if (this.options.form) throw new Bail(under ? 'a form inside a form XObject lies under a box' : 'a form inside a form XObject reaches beyond the visible area');
    if (!(reference instanceof PDFRef) || !(object instanceof PDFRawStream)) throw new Bail(`the form ${name} is not a stream object of its own`);
    // Its content is taken apart like the page's, in a copy of the form for this page only.
    let content: Uint8Array;
    try {
      content = decodePDFRawStream(object).decode();
    } catch (error) {
      throw new Bail(`the form ${name} cannot be decoded: ${error instanceof Error ? error.message : String(error)}`);
    }
    const resources = dictAt(this.context, object.dict, 'Resources') ?? this.resources;
    const result = rewriteContent(this.context, resources, content, { areas: this.options.areas, visible, ...(inner && { ink: inner }), form: { ctm } });
    if (!result.ok) throw new Bail(`in the form ${name}: ${result.reason}`);
    if (result.removedGlyphs === 0) return null;
    this.removedGlyphs += result.removedGlyphs;
    this.removed.push(...result.removed);
    this.removedText.push(...result.removedText);
    const copy = freeXObjectName(dictAt(this.context, this.resources, 'XObject'), new Set(this.forms.map((form) => form.name)));
    this.forms.push({ name: copy, ref: reference, content: result.content });
    return Buffer.from(`${formatName(copy)} Do`, 'latin1');
  }

  /** Runs a step of the ink cursor; its disagreement with the content makes the page bail. */
  private inkOf<T>(step: () => T): T {
    try {
      return step();
    } catch (error) {
      if (error instanceof InkMismatch) throw new Bail(error.message);
      throw error;
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
}

/**
 * Rewrites a content stream: the result is `q <content> Q` with removed glyphs replaced by displacements and
 * unclosed text objects and graphics states closed, so whatever is appended after it starts from the
 * page's default state.
 */
/** One character that says something alone (a Han character, kana, Hangul), unlike a single letter. */
const WITHHELD_ALONE = /^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]$/u;

/** A PDF text string: UTF-16BE or UTF-8 with their byte order marks, else PDFDocEncoding (read as Latin-1). */
function pdfTextString(bytes: Uint8Array): string {
  const buffer = Buffer.from(bytes);
  if (buffer[0] === 0xfe && buffer[1] === 0xff) {
    const swapped = Buffer.from(buffer.subarray(2, 2 + ((buffer.length - 2) & ~1)));
    return swapped.swap16().toString('utf16le');
  }
  if (buffer[0] === 0xef && buffer[1] === 0xbb && buffer[2] === 0xbf) return buffer.subarray(3).toString('utf8');
  return buffer.toString('latin1');
}

export function rewriteContent(context: PDFContext, resources: PDFDict | undefined, bytes: Uint8Array, options: InterpretOptions): RewriteResult {
  const again = options.ink?.fork();
  const first = rewriteOnce(context, resources, bytes, options);
  if (!first.ok || first.drawnAgain.size === 0 || options.sharedImages) return first;
  // An image under a box drawn elsewhere too: all its draws take one copy, its pixels under every box black (a
  // stencil's cleared). Where another draw shows them, the two-way check sees the change and the page is rendered.
  const shared = new Map([...first.drawnAgain].map(([name, copy]) => [name, { ...copy, pixels: first.images.filter((image) => image.ref === copy.ref).flatMap((image) => image.pixels) }]));
  return rewriteOnce(context, resources, bytes, { ...options, ...(again && { ink: again }), sharedImages: shared });
}

type Pass = (Extract<RewriteResult, { ok: true }> & { drawnAgain: Map<string, ImageCopy> }) | Extract<RewriteResult, { ok: false }>;

function rewriteOnce(context: PDFContext, resources: PDFDict | undefined, bytes: Uint8Array, options: InterpretOptions): Pass {
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
  // An /ActualText is kept only when it repeats none of the text removed from the content (a span may stand
  // for words drawn elsewhere, under a box).
  const withheld = interpreter.removedText.map(foldText).filter((text) => text.length >= 2 || WITHHELD_ALONE.test(text));
  for (const [index, chunk] of chunks.entries()) {
    const kept = interpreter.keptMarked.get(chunk);
    if (kept && !withheld.some((text) => foldText(kept.actualText).includes(text))) chunks[index] = kept.kept;
  }
  const drawnAgain = new Map([...interpreter.redactedImages].filter(([name]) => (interpreter.imageDraws.get(name) ?? 0) > 1));
  const closing = `\n${interpreter.textOpen ? 'ET\n' : ''}${'Q\n'.repeat(interpreter.depth)}Q\n`;
  chunks.push(Buffer.from(closing));
  return { ok: true, content: Buffer.concat(chunks), removedGlyphs: interpreter.removedGlyphs, removed: interpreter.removed, removedText: interpreter.removedText, forms: interpreter.forms, images: interpreter.images, drawnAgain };
}
