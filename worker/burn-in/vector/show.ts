import type { Rect } from '../geometry.js';
import { Bail } from './bail.js';
import type { FontMetrics } from './fonts.js';
import { boundsOf, encloses, meets, maxScale, multiply, quadOf, rectPolygon, type Area, type Matrix, type Point } from './geometry.js';
import { flattenOutline, subtractRect } from './pieces.js';
import { splitCodes, type Ink, type InkShow } from './ink.js';
import { formatNumber, hexString, join, literalString } from './serialize.js';
import type { Operand } from './tokens.js';

// The glyphs of one text-showing operator: where each lands, whether its ink meets an area (then it leaves its
// string and a displacement keeps the following glyphs in place), and the extent the black must cover.

export interface TextParameters {
  charSpacing: number;
  wordSpacing: number;
  /** Tz / 100. */
  scale: number;
  fontName: string | null;
  font: FontMetrics | null;
  fontProblem: string | null;
  fontSize: number;
  renderMode: number;
  rise: number;
}

/** A glyph taken out because its ink met areas: its extent in user space, which the black drawn must cover. */
export interface RemovedGlyph {
  bounds: Rect;
  /** Indices of the areas it met. */
  areas: number[];
  /** Its part outside the areas is drawn as a shape (pieces.ts): the black need not grow over it. */
  piece?: boolean;
}

/** A string of kept glyphs or a displacement, the items of a rewritten TJ. */
type ShowItem = { kind: 'string'; bytes: number[]; hex: boolean } | { kind: 'move'; value: number };

export interface ShowInput {
  text: TextParameters;
  ctm: Matrix;
  lineWidth: number;
  textMatrix: Matrix;
  areas: readonly Area[];
  visible: Rect;
  /** The operator's glyphs as pdf.js reads them, when known. */
  pdf: InkShow | null;
  /** Glyphs a box cuts may keep their outside part as a shape (the caller can draw shapes here). */
  pieces: boolean;
}

export interface ShowOutcome {
  /** The rewritten TJ array, or null when every glyph stays. */
  bytes: Uint8Array | null;
  removed: RemovedGlyph[];
  removedCount: number;
  textMatrix: Matrix;
  /** Per cut glyph, its outside part in default user space (filled with the glyph's own state). */
  pieces: Point[][][];
  /** The text of each run of removed glyphs (as pdf.js reads it; a space ends a run). */
  removedText: string[];
}

/** Where text without ink (spaces, invisible text) counts as lying: the middle of the line, in em. */
const TEXT_BAND = { y1: 0.1, y2: 0.6 };

function outside(visible: Rect, quad: readonly Point[]): boolean {
  let x = 0;
  let y = 0;
  for (const point of quad) {
    x += point.x / quad.length;
    y += point.y / quad.length;
  }
  return x < visible.x1 || x > visible.x2 || y < visible.y1 || y > visible.y2;
}

/** How much further (em) a glyph of a font that is not embedded may reach in another viewer's substitute. */
const SUBSTITUTE_MARGIN = 0.03;

function substituted(ink: Ink | undefined, notEmbedded: boolean): Ink | undefined {
  if (!notEmbedded || ink === undefined || ink === 'none') return ink;
  const m = SUBSTITUTE_MARGIN;
  return { x1: ink.x1 - m, y1: ink.y1 - m, x2: ink.x2 + m, y2: ink.y2 + m };
}

/** Byte length of each code by string: from the font's own reading, else from pdf.js's glyph codes. */
function codeLengths(strings: readonly Uint8Array[], input: ShowInput): number[][] {
  const { font, fontName, fontProblem } = input.text;
  if (font) {
    const step = font.twoByte ? 2 : 1;
    return strings.map((bytes) => {
      if (bytes.length % step !== 0) throw new Bail(`a string of font ${fontName ?? ''} has an odd number of bytes`);
      return Array.from({ length: bytes.length / step }, () => step);
    });
  }
  // Nothing shown needs no font (form field appearances set an empty one: "/ 12 Tf <> Tj").
  if (strings.every((bytes) => bytes.length === 0)) return strings.map(() => []);
  if (!input.pdf) throw new Bail(fontProblem ?? 'no font');
  if (input.pdf.vertical) throw new Bail(`${fontProblem ?? 'the font'}; it writes vertically`);
  const lengths = splitCodes(
    strings,
    input.pdf.glyphs.map((glyph) => glyph.code),
  );
  if (!lengths) throw new Bail(`${fontProblem ?? 'the font'}; pdf.js reads its codes in a way that does not split the strings`);
  return lengths;
}

function centerOf(quad: readonly Point[]): Point {
  return { x: quad.reduce((sum, point) => sum + point.x, 0) / quad.length, y: quad.reduce((sum, point) => sum + point.y, 0) / quad.length };
}

function advanceBy(matrix: Matrix, distance: number, vertical = false): Matrix {
  // By index, not destructured: per glyph, and destructuring allocates an iterator here.
  const a = matrix[0], b = matrix[1], c = matrix[2], d = matrix[3], e = matrix[4], f = matrix[5];
  return vertical ? [a, b, c, d, e + distance * c, f + distance * d] : [a, b, c, d, e + distance * a, f + distance * b];
}

/** Places every glyph of the operator's strings and numbers (`elements`), removing those under an area. */
export function showElements(elements: readonly Operand[], input: ShowInput): ShowOutcome {
  const { text, areas, visible } = input;
  const { fontSize, scale, charSpacing, wordSpacing, rise, renderMode } = text;
  const strings = elements.flatMap((element) => (element.type === 'string' ? [element.bytes] : []));
  const lengths = codeLengths(strings, input);
  if (text.font?.unplaced) return unplacedShow(elements, lengths, input);
  const pdfGlyphs = input.pdf?.glyphs ?? null;
  if (pdfGlyphs && pdfGlyphs.length !== lengths.reduce((sum, list) => sum + list.length, 0)) throw new Bail('pdf.js reads another number of glyphs than the content shows');
  const visibleInk = renderMode !== 3 && renderMode !== 7;
  // Vertical writing (ISO 32000-2, 9.7.4.3): glyphs advance down by w1y, each drawn from the current point less
  // its position vector; TJ numbers move vertically, unscaled by Tz.
  const vertical = text.font?.vertical ?? null;
  if (input.pdf && text.font && input.pdf.vertical !== (vertical !== null)) throw new Bail(`pdf.js and the font ${text.fontName ?? ''} disagree on the writing mode`);
  // Strokes reach half the line width beyond the outline.
  const strokeGrow = [1, 2, 5, 6].includes(renderMode) ? (input.lineWidth * maxScale(input.ctm)) / 2 : 0;
  let textMatrix = input.textMatrix;
  const items: ShowItem[] = [];
  const removed: RemovedGlyph[] = [];
  const pieces: Point[][][] = [];
  const removedText: string[] = [];
  let run = '';
  const endRun = () => {
    if (run.trim() !== '') removedText.push(run.trim());
    run = '';
  };
  let removedCount = 0;
  let glyphIndex = 0;
  let stringIndex = 0;
  for (const element of elements) {
    if (element.type === 'number') {
      items.push({ kind: 'move', value: element.value });
      textMatrix = vertical ? advanceBy(textMatrix, (-element.value / 1000) * fontSize, true) : advanceBy(textMatrix, (-element.value / 1000) * fontSize * scale);
      continue;
    }
    if (element.type !== 'string') throw new Bail('TJ holds something other than strings and numbers');
    const bytes = element.bytes;
    let open: { kind: 'string'; bytes: number[]; hex: boolean } | null = null;
    let offset = 0;
    for (const length of lengths[stringIndex] as number[]) {
      let code = 0;
      for (let index = offset; index < offset + length; index += 1) code = code * 256 + (bytes[index] as number);
      const pdf = pdfGlyphs?.[glyphIndex];
      if (pdf && pdf.code !== code) throw new Bail(`pdf.js reads other glyph codes than the content shows (font ${text.fontName ?? ''})`);
      const font = text.font;
      // A code the font's own metrics do not know (a standard font's unnamed glyph) advances as pdf.js reads it.
      const width = (font ? font.width(code) : undefined) ?? (pdf ? pdf.advance * 1000 : undefined);
      if (width === undefined) throw new Bail(`font ${text.fontName ?? ''} has no width for code ${code}`);
      const advance = width / 1000;
      const isSpace = font ? !font.twoByte && code === 32 : pdf?.isSpace === true;
      const spacing = charSpacing + (isSpace ? wordSpacing : 0);
      // Most glyphs lie far from every area: kept on a bounds test, without the quads placed below.
      if (!vertical && clearOfAreas(textMatrix, input.ctm, fontSize * scale, fontSize, rise, advance, visibleInk, font && !font.embedded && font.twoByte ? undefined : pdf?.ink, font, areas, visible, strokeGrow)) {
        endRun();
        if (!open) {
          open = { kind: 'string', bytes: [], hex: element.hex };
          items.push(open);
        }
        for (let index = offset; index < offset + length; index += 1) open.bytes.push(bytes[index] as number);
        textMatrix = advanceBy(textMatrix, (advance * fontSize + spacing) * scale);
        offset += length;
        glyphIndex += 1;
        continue;
      }
      const glyphMatrix = multiply(multiply([fontSize * scale, 0, 0, fontSize, 0, rise], textMatrix), input.ctm);
      // Vertical: the glyph's own origin lies at the current point less its position vector (em); pdf.js's
      // outlines of vertical fonts are already placed so, its cells are not.
      const [originX, originY] = vertical ? (vertical.origin(code).map((value) => value / 1000) as [number, number]) : [0, 0];
      const cellMatrix = vertical ? multiply([1, 0, 0, 1, -originX, -originY], glyphMatrix) : glyphMatrix;
      const verticalAdvance = vertical ? vertical.advance(code) / 1000 : 0;
      // A CID font that is not embedded has no glyph shapes a viewer can agree on: its extent stands in.
      const ink = font && !font.embedded && font.twoByte ? undefined : pdf?.ink;
      let quad: Point[];
      // What the black must cover: the ink, with room for another viewer's substitute of a font not embedded.
      let cover: Point[] | null = null;
      if (vertical && (!visibleInk || ink === 'none' || ink === undefined)) {
        // The glyph's cell: its width across, its advance down from the current point (origin space: + vector).
        quad = quadOf(cellMatrix, 0, originY + Math.min(0, verticalAdvance), advance, originY + Math.max(0, verticalAdvance));
        if (visibleInk && ink === undefined) cover = quad;
      } else if (!visibleInk || ink === 'none') {
        quad = quadOf(glyphMatrix, Math.min(0, advance), TEXT_BAND.y1, Math.max(0, advance), TEXT_BAND.y2);
      } else if (ink === undefined) {
        // Nothing measured this glyph: the font's own extent stands in for its ink.
        quad = quadOf(glyphMatrix, Math.min(0, advance), font?.descent ?? -0.25, Math.max(0, advance), font?.ascent ?? 1);
        cover = quad;
      } else {
        quad = quadOf(glyphMatrix, ink.x1, ink.y1, ink.x2, ink.y2);
        const room = substituted(ink, font?.embedded === false) as Rect;
        cover = quadOf(glyphMatrix, room.x1, room.y1, room.x2, room.y2);
        if (vertical) {
          // Viewers disagree on where a vertical glyph lands (pdf.js draws it from the current point less its
          // position vector, poppler nearer the point): it goes, and the black covers it, wherever either draws it.
          quad = rectPolygon(boundsOf([...quad, ...quadOf(cellMatrix, ink.x1, ink.y1, ink.x2, ink.y2)]));
          cover = rectPolygon(boundsOf([...cover, ...quadOf(cellMatrix, room.x1, room.y1, room.x2, room.y2)]));
        }
      }
      // A space (no ink) goes only when its middle is under a box: the words beside the box keep theirs.
      const probe = visibleInk && ink === 'none' ? [centerOf(quad)] : quad;
      const hits = areas.flatMap((area, index) => (meets(area, probe, strokeGrow) ? [index] : []));
      if (hits.length > 0 || outside(visible, quad)) {
        if (renderMode >= 4) throw new Bail('text under a box is part of a clipping path');
        if (fontSize === 0) throw new Bail('text under a box has font size 0');
        removedCount += 1;
        const glyphText = pdf?.unicode ?? '';
        if (/^\s*$/u.test(glyphText)) endRun();
        else run += glyphText;
        if (cover && hits.length > 0) {
          const bounds = boundsOf(cover);
          // A filled glyph of an embedded font, cut by rectangles only: what lies outside them stays, as a shape.
          const cut =
            input.pieces && renderMode === 0 && !vertical && font?.embedded === true && pdf?.outline && !outside(visible, quad) && hits.every((index) => isRectangle(areas[index] as Area))
              ? outsidePart(pdf.outline, glyphMatrix, hits.map((index) => (areas[index] as Area).bounds))
              : null;
          if (cut) {
            if (cut.length > 0) pieces.push(cut);
            removed.push({ bounds, areas: hits, piece: true });
          } else removed.push({ bounds: { x1: bounds.x1 - strokeGrow, y1: bounds.y1 - strokeGrow, x2: bounds.x2 + strokeGrow, y2: bounds.y2 + strokeGrow }, areas: hits });
        }
        open = null;
        items.push({ kind: 'move', value: -((vertical ? verticalAdvance : advance) * 1000 + (spacing * 1000) / fontSize) });
      } else {
        endRun();
        if (!open) {
          open = { kind: 'string', bytes: [], hex: element.hex };
          items.push(open);
        }
        for (let index = offset; index < offset + length; index += 1) open.bytes.push(bytes[index] as number);
      }
      textMatrix = vertical ? advanceBy(textMatrix, verticalAdvance * fontSize + spacing, true) : advanceBy(textMatrix, (advance * fontSize + spacing) * scale);
      offset += length;
      glyphIndex += 1;
    }
    stringIndex += 1;
  }
  endRun();
  return { bytes: removedCount > 0 ? showBytes(items) : null, removed, removedCount, textMatrix, pieces, removedText };
}

/** Room for rounding between this test and the exact one (`meets`, `outside`) it stands in front of. */
const CLEAR_EPSILON = 1e-6;

/**
 * Whether a horizontal glyph certainly stays: its probe (the quad showElements places, or its middle for a space)
 * misses every area's bounds and its middle lies inside the visible area, each with room to spare. False sends
 * the glyph through the exact test; the same matrices and rectangle as there, in plain arithmetic.
 */
function clearOfAreas(text: Matrix, ctm: Matrix, horizontal: number, size: number, rise: number, advance: number, visibleInk: boolean, ink: Ink | undefined, font: FontMetrics | null, areas: readonly Area[], visible: Rect, strokeGrow: number): boolean {
  let x1: number;
  let y1: number;
  let x2: number;
  let y2: number;
  if (!visibleInk || ink === 'none') {
    x1 = Math.min(0, advance);
    y1 = TEXT_BAND.y1;
    x2 = Math.max(0, advance);
    y2 = TEXT_BAND.y2;
  } else if (ink === undefined) {
    x1 = Math.min(0, advance);
    y1 = font?.descent ?? -0.25;
    x2 = Math.max(0, advance);
    y2 = font?.ascent ?? 1;
  } else ({ x1, y1, x2, y2 } = ink);
  // [horizontal 0 0 size 0 rise] × text × ctm, as multiply() composes them (by index: this runs per glyph).
  const ta = text[0], tb = text[1], tc = text[2], td = text[3], te = text[4], tf = text[5];
  const ca = ctm[0], cb = ctm[1], cc = ctm[2], cd = ctm[3], ce = ctm[4], cf = ctm[5];
  const pa = horizontal * ta;
  const pb = horizontal * tb;
  const pc = size * tc;
  const pd = size * td;
  const pe = rise * tc + te;
  const pf = rise * td + tf;
  const a = pa * ca + pb * cc;
  const b = pa * cb + pb * cd;
  const c = pc * ca + pd * cc;
  const d = pc * cb + pd * cd;
  const e = pe * ca + pf * cc + ce;
  const f = pe * cb + pf * cd + cf;
  // The quad's corners (x1 y1, x2 y1, x2 y2, x1 y2): its bounds, and its middle.
  const xa = a * x1 + c * y1 + e;
  const xb = a * x2 + c * y1 + e;
  const xc = a * x2 + c * y2 + e;
  const xd = a * x1 + c * y2 + e;
  const ya = b * x1 + d * y1 + f;
  const yb = b * x2 + d * y1 + f;
  const yc = b * x2 + d * y2 + f;
  const yd = b * x1 + d * y2 + f;
  const mx = (xa + xb + xc + xd) / 4;
  const my = (ya + yb + yc + yd) / 4;
  if (!(mx > visible.x1 + CLEAR_EPSILON && mx < visible.x2 - CLEAR_EPSILON && my > visible.y1 + CLEAR_EPSILON && my < visible.y2 - CLEAR_EPSILON)) return false;
  const middleOnly = visibleInk && ink === 'none';
  const grow = strokeGrow + CLEAR_EPSILON;
  const left = (middleOnly ? mx : Math.min(xa, xb, xc, xd)) - grow;
  const right = (middleOnly ? mx : Math.max(xa, xb, xc, xd)) + grow;
  const bottom = (middleOnly ? my : Math.min(ya, yb, yc, yd)) - grow;
  const top = (middleOnly ? my : Math.max(ya, yb, yc, yd)) + grow;
  if (!(left <= right && bottom <= top)) return false;
  for (const area of areas) if (area.bounds.x1 <= right && left <= area.bounds.x2 && area.bounds.y1 <= top && bottom <= area.bounds.y2) return false;
  return true;
}

function isRectangle(area: Area): boolean {
  return area.reach === 0 && area.polygon.length === 4;
}

/** The glyph's outline less the rectangles, in user space; null when the outline cannot be read. */
function outsidePart(outline: ArrayLike<number>, glyphMatrix: Matrix, rects: readonly Rect[]): Point[][] | null {
  let contours = flattenOutline(outline, glyphMatrix);
  if (!contours) return null;
  for (const rect of rects) contours = subtractRect(contours, rect);
  return contours;
}

/**
 * A show in a font whose glyphs no two viewers place alike (pdf.js draws none and does not advance; poppler and
 * MuPDF substitute fonts of their own widths): bounded as a whole from its start point, with every glyph up to
 * 1 em + Tc + |Tw| wide and each TJ number taken both ways. Far from every box it stays as it is; wholly under
 * one box it goes (pdf.js places what follows as before); a box over part of it sends the page to be rendered,
 * since removing it would take glyphs other viewers show outside the black.
 */
function unplacedShow(elements: readonly Operand[], lengths: readonly number[][], input: ShowInput): ShowOutcome {
  const { text, areas, visible } = input;
  const { fontSize, scale, charSpacing, wordSpacing, rise, renderMode } = text;
  const em = Math.abs(fontSize);
  const glyphs = lengths.reduce((sum, list) => sum + list.length, 0);
  // Each step may go either way from 0: a substitute's advance, or a TJ number one viewer applies, another not.
  let low = glyphs * (Math.min(0, charSpacing) - Math.abs(wordSpacing));
  let high = glyphs * (em + Math.max(0, charSpacing) + Math.abs(wordSpacing));
  for (const element of elements) {
    if (element.type === 'number') {
      const move = (-element.value / 1000) * fontSize;
      low += Math.min(0, move);
      high += Math.max(0, move);
    } else if (element.type !== 'string') throw new Bail('TJ holds something other than strings and numbers');
  }
  const margin = 0.5 * em;
  let rect: Rect;
  if (text.font?.unplaced === 'V') {
    const reach = Math.max(-low, high) + 1.2 * em;
    rect = { x1: -em, y1: rise - reach, x2: em, y2: rise + reach };
  } else {
    const [x1, x2] = [(low - margin) * scale, (high + margin) * scale].sort((a, b) => a - b) as [number, number];
    const [y1, y2] = [rise - 0.5 * fontSize, rise + 1.2 * fontSize].sort((a, b) => a - b) as [number, number];
    rect = { x1, y1, x2, y2 };
  }
  const quad = quadOf(multiply(input.textMatrix, input.ctm), rect.x1, rect.y1, rect.x2, rect.y2);
  const strokeGrow = [1, 2, 5, 6].includes(renderMode) ? (input.lineWidth * maxScale(input.ctm)) / 2 : 0;
  const hits = areas.flatMap((area, index) => (meets(area, quad, strokeGrow) ? [index] : []));
  const bounds = boundsOf(quad);
  const grown = { x1: bounds.x1 - strokeGrow, y1: bounds.y1 - strokeGrow, x2: bounds.x2 + strokeGrow, y2: bounds.y2 + strokeGrow };
  const offPage = grown.x2 < visible.x1 || grown.x1 > visible.x2 || grown.y2 < visible.y1 || grown.y1 > visible.y2;
  // pdf.js does not advance over the show: the text matrix stays for what follows, kept or not.
  if (hits.length === 0 && !offPage) return { bytes: null, removed: [], removedCount: 0, textMatrix: input.textMatrix, pieces: [], removedText: [] };
  if (glyphs === 0) return { bytes: null, removed: [], removedCount: 0, textMatrix: input.textMatrix, pieces: [], removedText: [] };
  const under = hits.find((index) => {
    const area = areas[index] as Area;
    return area.reach === 0 && area.polygon.length === 4 && encloses(area.bounds, grown);
  });
  if (under === undefined && !offPage) throw new Bail('a box covers part of the places viewers may draw text in a font without a descendant font');
  if (renderMode >= 4) throw new Bail('text in a font without glyph places is part of a clipping path');
  // Nothing is shown in its place (pdf.js moved over none of it): an empty TJ keeps the operator count.
  return { bytes: Buffer.from('[]'), removed: under === undefined ? [] : [{ bounds: grown, areas: [under] }], removedCount: glyphs, textMatrix: input.textMatrix, pieces: [], removedText: (input.pdf?.glyphs.map((glyph) => glyph.unicode ?? '').join('') ?? '').split(/\s+/u).filter((word) => word !== '') };
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
