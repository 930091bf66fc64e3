import { OPS, type PDFPageProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { interpret, type Glyph } from '../../pdf-glyphs/interpret.js';
import type { Rect } from '../geometry.js';
import { inkArea } from './changed.js';

// The tiles pixels are compared in once a page's operators prove only known areas changed (changed.ts), and
// what their rendering may leave out: pdf.js draws every glyph and image of the page whatever the canvas shows, so
// text and images wholly away from the tiles are skipped (their work, not their pixels: they paint nothing there).

/** Points a changed area is grown by before its tile is rendered: the masks' margin and antialiasing stay inside. */
export const TILE_MARGIN = 4;

/** The tiles around `changed`, on the page's pixel grid at `scale` pixels per point, overlapping ones merged. */
export function tilesOf(view: Rect, changed: readonly Rect[], scale: number): Rect[] {
  const snap = (value: number, up: boolean) => (up ? Math.ceil : Math.floor)(value * scale) / scale;
  let tiles = changed
    .map((rect) => ({
      x1: Math.max(view.x1, view.x1 + snap(rect.x1 - TILE_MARGIN - view.x1, false)),
      y1: Math.max(view.y1, view.y2 - snap(view.y2 - rect.y1 + TILE_MARGIN, true)),
      x2: Math.min(view.x2, view.x1 + snap(rect.x2 + TILE_MARGIN - view.x1, true)),
      y2: Math.min(view.y2, view.y2 - snap(view.y2 - rect.y2 - TILE_MARGIN, false)),
    }))
    .filter((tile) => tile.x2 > tile.x1 && tile.y2 > tile.y1);
  // Merged until disjoint, so no pixel is counted twice.
  for (let merged = true; merged; ) {
    merged = false;
    const out: Rect[] = [];
    for (const tile of tiles) {
      const other = out.find((rect) => rect.x1 < tile.x2 && tile.x1 < rect.x2 && rect.y1 < tile.y2 && tile.y1 < rect.y2);
      if (!other) out.push({ ...tile });
      else {
        Object.assign(other, { x1: Math.min(other.x1, tile.x1), y1: Math.min(other.y1, tile.y1), x2: Math.max(other.x2, tile.x2), y2: Math.max(other.y2, tile.y2) });
        merged = true;
      }
    }
    tiles = out;
  }
  return tiles;
}

export interface OperatorList {
  fnArray: number[];
  argsArray: unknown[];
}

/** A page's glyph reading (worker/pdf-glyphs readGlyphs) and the operator list it was made from. */
export interface Reading {
  list: OperatorList;
  glyphs: readonly Glyph[];
}

/** Whether two operator lists of a page hold the same operators with the same arguments (compared in depth). */
function sameOperators(a: OperatorList, b: OperatorList): boolean {
  if (a === b) return true;
  if (a.fnArray.length !== b.fnArray.length) return false;
  for (let index = 0; index < a.fnArray.length; index += 1) {
    if (a.fnArray[index] !== b.fnArray[index] || !sameValue(a.argsArray[index], b.argsArray[index], 0)) return false;
  }
  return true;
}

function sameValue(p: unknown, q: unknown, depth: number): boolean {
  if (p === q) return true;
  if (typeof p !== 'object' || typeof q !== 'object' || p === null || q === null || depth > 6) return false;
  if (ArrayBuffer.isView(p) || ArrayBuffer.isView(q) || Array.isArray(p) || Array.isArray(q)) {
    const x = p as ArrayLike<unknown>;
    const y = q as ArrayLike<unknown>;
    if (Array.isArray(p) !== Array.isArray(q) || x.length !== y.length) return false;
    for (let at = 0; at < x.length; at += 1) if (!sameValue(x[at], y[at], depth + 1)) return false;
    return true;
  }
  const keys = Object.keys(p);
  if (keys.length !== Object.keys(q).length) return false;
  for (const key of keys) if (!sameValue((p as Record<string, unknown>)[key], (q as Record<string, unknown>)[key], depth + 1)) return false;
  return true;
}

/** Operators after which the pen no longer depends on the text drawn before. */
const PLACES = new Set<number>([OPS.moveText, OPS.setLeadingMoveText, OPS.nextLine, OPS.setTextMatrix, OPS.beginText, OPS.beginAnnotation]);
const IMAGES = new Set<number>([OPS.paintImageXObject, OPS.paintInlineImageXObject, OPS.paintImageMaskXObject, OPS.paintSolidColorImageMask]);
const SHOWS = new Set<number>([OPS.showText, OPS.showSpacedText, OPS.nextLineShowText, OPS.nextLineSetSpacingShowText]);

/** What a tile's rendering leaves out: whole operators, and glyphs of text operators otherwise drawn. */
export interface Skips {
  ops: Set<number>;
  /** Per text-showing operator, the indices into its glyph array (numbers included) of glyphs not to draw. */
  glyphs: Map<number, number[]>;
}

/**
 * Operators of a rendering's operator list that paint nothing in the tiles, skipped in both pages alike:
 * - images and image masks (one unit square each) whose bounds are clear of every tile: a mask filled with a
 *   pattern costs pdf.js a pattern drawing of its own, seconds on a page of such masks;
 * - text-showing operators: every glyph placed (worker/pdf-glyphs), its ink (its box grown by a quarter of its
 *   size) clear of every tile, no Type3 glyph, and the pen placed anew before the next text (a skipped operator's
 *   advance moves nothing drawn). No text is skipped when text may clip.
 */
export function paintsOutside(page: PDFPageProxy, list: OperatorList, tiles: readonly Rect[], read?: Reading): Set<number> {
  return skipsOutside(page, list, tiles, read).ops;
}

/**
 * paintsOutside, and in the text operators drawn, the glyphs whose ink is clear of every tile (pdf.js draws every
 * glyph of a line that meets a tile): not drawn, their advance kept (pixels.ts `skipping`). Glyphs with an
 * accent are drawn (the accent is placed apart).
 */
export function skipsOutside(page: PDFPageProxy, list: OperatorList, tiles: readonly Rect[], read?: Reading): Skips {
  const skip = new Set<number>();
  const hidden = new Map<number, number[]>();
  const { fnArray, argsArray } = list;
  const textClips = fnArray.some((fn, index) => fn === OPS.setTextRenderingMode && Number((argsArray[index] as unknown[])?.[0] ?? 0) >= 4);
  const fonts = (name: string) => {
    try {
      return page.commonObjs.has(name) ? (page.commonObjs.get(name) as never) : null;
    } catch {
      return null;
    }
  };
  const meets = (area: Rect) => tiles.some((tile) => area.x1 < tile.x2 && tile.x1 < area.x2 && area.y1 < tile.y2 && tile.y1 < area.y2);
  // An image's bounds are grown by a pixel's worth of margin for antialiasing at its edges.
  const onImage = (op: number, bounds: Rect) => {
    if (!meets({ x1: bounds.x1 - 1, y1: bounds.y1 - 1, x2: bounds.x2 + 1, y2: bounds.y2 + 1 })) skip.add(op);
  };
  const byOp = new Map<number, Glyph[]>();
  // The page's glyph reading serves when it was made from a list with the same operators (pdf.js's optimiser of
  // the display list merged nothing): the same glyphs at the same places, with the same operator indices. A list
  // with images is walked again, which places them.
  const reuse = read && !fnArray.some((fn) => IMAGES.has(fn)) && sameOperators(read.list, list);
  const glyphs = reuse ? read.glyphs : interpret(list, fonts, { isVisible: () => true, view: page.view, imageHasAlpha: () => true, onImage });
  for (const glyph of glyphs) {
    if (glyph.op === undefined) continue;
    const entry = byOp.get(glyph.op);
    if (entry) entry.push(glyph);
    else byOp.set(glyph.op, [glyph]);
  }
  if (textClips) return { ops: skip, glyphs: hidden };
  for (const [op, glyphs] of byOp) {
    if (fnArray[op] !== OPS.showText) continue;
    const items = ((argsArray[op] as unknown[])?.[0] ?? []) as unknown[];
    const shown = items.filter((item) => typeof item !== 'number');
    if (shown.length !== glyphs.length || shown.some((item) => (item as { operatorListId?: unknown }).operatorListId !== undefined)) continue;
    // Skipped in both pages alike (the walk proved them equal), text only hides identical ink: a quarter of its
    // size is margin enough, since ink it misses could only make a tile differ, never agree.
    const inks = glyphs.map((glyph) => meets(inkArea(glyph, 0.25)));
    let next = op + 1;
    while (next < fnArray.length && !PLACES.has(fnArray[next] ?? -1) && !SHOWS.has(fnArray[next] ?? -1)) next += 1;
    if (!inks.includes(true) && !(next < fnArray.length && SHOWS.has(fnArray[next] ?? -1))) {
      skip.add(op);
      continue;
    }
    // Drawn: its glyphs clear of the tiles are left out one by one (pdf.js type3 text is excluded above).
    const at: number[] = [];
    let glyph = 0;
    for (const [index, item] of items.entries()) {
      if (typeof item === 'number') continue;
      if (!inks[glyph] && (item as { accent?: unknown }).accent == null) at.push(index);
      glyph += 1;
    }
    if (at.length > 0) hidden.set(op, at);
  }
  return { ops: skip, glyphs: hidden };
}
