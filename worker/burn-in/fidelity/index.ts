import type { PDFDocumentProxy, PDFPageProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { isHidden, itemText, readAnew, type Glyph, type PageReader } from '../../pdf-glyphs/index.js';
import type { Rect } from '../geometry.js';
import { fontWidthsOf, textRuns } from '../pdfjs.js';
import { wordsFromRuns, type SourceWord, type TextRun } from '../words.js';
import { changedAreas } from './changed.js';
import { skipsOutside, tilesOf, type OperatorList, type Reading } from './tiles.js';
import { comparePixels, halve, renderAreas, type PixelComparison } from './pixels.js';
import { compareWords, type WordComparison } from './words.js';

// The two-way check of a produced page against its source (issue 15): besides "nothing under a box survives"
// (verify.ts), everything outside the drawn areas must survive. (b) every source word wholly outside the drawn
// areas is in the output's text, same characters, same place; (c) rendered by the same engine (pdf.js) at
// FIDELITY_DPI, the two pages' pixels outside the drawn areas (grown by MASK_MARGIN pixels) agree within the
// tolerance of the page's kind. One front door: comparePage.

export { compareWords, touchesDrawn, WORD_TOLERANCE, type WordComparison } from './words.js';
export { comparePixels, type Grey, type PixelComparison } from './pixels.js';

export const FIDELITY_DPI = 100;
/** Pixels the drawn areas are grown by before masking: box edges are antialiased over one pixel each side. */
export const MASK_MARGIN = 2;

/**
 * Tolerances by kind of page. A page redacted in its content is drawn by the same engine from the same operators
 * outside the boxes: pixels agree exactly but where a glyph's antialiased edge meets a clip, so any pixel off by
 * more than a quarter of the grey range counts and a handful may. A rendered page is the source drawn at the
 * export dpi, stored 1-bit (threshold 160) or JPEG, and drawn again: glyph edges move by up to one export pixel
 * and greys turn black or white, so both renderings are averaged over 2×2 pixels (50 dpi cells) first and a cell
 * counts when it is off by more than 96 grey levels: a thresholded edge moves a cell by at most about half of
 * the range, missing ink of a glyph stroke moves it by more. Both allow 24 cells or pixels: a missing word of
 * 8 pt text at 100 dpi leaves more than that (a single "i" about 20).
 */
export const TOLERANCES = {
  vector: { grey: 64, maxDiffering: 24, halve: false },
  raster: { grey: 96, maxDiffering: 24, halve: true },
} as const;

export type PageKind = keyof typeof TOLERANCES;

export interface PageComparison {
  words: WordComparison;
  pixels: PixelComparison;
  tolerance: { dpi: number; grey: number; max_differing_pixels: number; mask_margin_pixels: number };
  /** (c)'s extent: `tiles` compared around what changed (null: the whole page) and why not tiles. */
  scope: { tiles: number | null; reason: string | null };
  /** Empty when the page passes (b) and (c). */
  problems: string[];
}

export interface ComparedPages {
  source: { document: PDFDocumentProxy; page: PDFPageProxy };
  output: { document: PDFDocumentProxy; page: PDFPageProxy };
  /** The drawn areas (boxes with padding, grown over cut glyphs), in the source page's user space. */
  drawn: readonly Rect[];
  kind: PageKind;
  /** Source words to look for; default the source page's own text. */
  sourceWords?: readonly SourceWord[];
  /** The output page's words when the caller read them already (wordsOfPage, not by marked content). */
  outputWords?: readonly SourceWord[];
  /** Where the caller keeps the pages' readings (glyphs, text) for its other checks; default read anew. */
  reader?: PageReader;
  /**
   * The output drops what the source hides (a release, not a review copy that keeps it): the source's words a viewer
   * never shows (no glyph of theirs shows: covered, clipped, off, invisible but over the page's picture) are not
   * looked for in (b).
   */
  withoutHidden?: boolean;
}

/**
 * The words a viewer shows some of: each holds the centre of a glyph that shows (its box grown by its slack).
 * Pages without hidden glyphs keep every word.
 */
export function shownWords(words: readonly SourceWord[], glyphs: readonly Glyph[]): readonly SourceWord[] {
  if (!glyphs.some(isHidden)) return words;
  // Centres of the glyphs that show, by 4 pt row, so each word looks only at the rows it spans.
  const ROW = 4;
  const rows = new Map<number, { x: number; y: number }[]>();
  for (const glyph of glyphs) {
    if (isHidden(glyph) || glyph.text.trim() === '') continue;
    const x = (glyph.x1 + glyph.x2) / 2;
    const y = (glyph.y1 + glyph.y2) / 2;
    const row = Math.floor(y / ROW);
    const list = rows.get(row);
    if (list) list.push({ x, y });
    else rows.set(row, [{ x, y }]);
  }
  return words.filter((word) => {
    const x1 = word.x1 - word.slackX;
    const x2 = word.x2 + word.slackX;
    const y1 = word.y1 - word.slackY;
    const y2 = word.y2 + word.slackY;
    for (let row = Math.floor(y1 / ROW); row <= Math.floor(y2 / ROW); row += 1) {
      for (const centre of rows.get(row) ?? []) if (centre.x >= x1 && centre.x <= x2 && centre.y >= y1 && centre.y <= y2) return true;
    }
    return false;
  });
}

/** The words of a page as pdf.js reads them, placed with the page's own font widths. */
export async function wordsOfPage(page: PDFPageProxy, byMarkedContent = false, reader: PageReader = readAnew): Promise<SourceWord[]> {
  // As the burn-in renders (annotations enabled), so the same fonts are loaded and words placed alike.
  await page.getOperatorList({ intent: 'display', annotationMode: 1 });
  return wordsFromRuns(byMarkedContent ? await markedRuns(page) : await textRuns(page, reader), fontWidthsOf(page));
}

/**
 * Text runs split at marked content: pdf.js joins the invisible layer's words of one line into one run and
 * would spread them by the blank glyph's widths; each layer word is its own marked-content span.
 */
async function markedRuns(page: PDFPageProxy): Promise<TextRun[]> {
  const content = await page.getTextContent({ includeMarkedContent: true });
  return content.items.flatMap((item) => ('str' in item ? [{ str: itemText(page, item), transform: item.transform as number[], width: item.width, height: item.height, fontName: item.fontName }] : []));
}

function viewOf(page: PDFPageProxy): Rect {
  const [x1 = 0, y1 = 0, x2 = 0, y2 = 0] = page.view;
  return { x1, y1, x2, y2 };
}

/** (c) over some areas of the page: both pages rendered there only, the drawn areas masked. */
async function comparePixelsIn(input: ComparedPages, areas: readonly Rect[], rules: (typeof TOLERANCES)[PageKind], tiled: boolean, readings: readonly (Reading | undefined)[] = []) {
  const scale = FIDELITY_DPI / 72 / (rules.halve ? 2 : 1);
  const margin = rules.halve ? Math.ceil(MASK_MARGIN / 2) : MASK_MARGIN;
  let compared = 0;
  let differing = 0;
  let where: Rect | null = null;
  // One rendering of each page for all its areas.
  // A page redacted in its content is drawn, both sides alike, from the operator lists the check read.
  const fromReadList = input.kind === 'vector';
  const [befores, afters] = await Promise.all([
    renderAreas(input.source.document, input.source.page, areas, FIDELITY_DPI, tiled ? (list) => skipsOutside(input.source.page, list, areas, readings[0]) : undefined, fromReadList),
    renderAreas(input.output.document, input.output.page, areas, FIDELITY_DPI, tiled ? (list) => skipsOutside(input.output.page, list, areas, readings[1]) : undefined, fromReadList),
  ]);
  for (const [index, area] of areas.entries()) {
    let before = befores[index];
    let after = afters[index];
    if (!before || !after) continue;
    if (rules.halve) {
      before = halve(before);
      after = halve(after);
    }
    const masks = input.drawn.map((rect) => ({ x1: (rect.x1 - area.x1) * scale - margin, y1: (area.y2 - rect.y2) * scale - margin, x2: (rect.x2 - area.x1) * scale + margin, y2: (area.y2 - rect.y1) * scale + margin }));
    const pixels = comparePixels(before, after, masks, rules.grey);
    compared += pixels.compared;
    differing += pixels.differing;
    if (pixels.where) {
      const at = { x1: area.x1 + pixels.where.x1 / scale, y1: area.y2 - pixels.where.y2 / scale, x2: area.x1 + pixels.where.x2 / scale, y2: area.y2 - pixels.where.y1 / scale };
      where = where ? { x1: Math.min(where.x1, at.x1), y1: Math.min(where.y1, at.y1), x2: Math.max(where.x2, at.x2), y2: Math.max(where.y2, at.y2) } : at;
    }
  }
  return { compared, differing, where, margin };
}

/**
 * Compares a produced page with its source page: (b) words and (c) pixels outside the drawn areas. A page
 * redacted in its content whose operators prove that only known areas changed (changed.ts) has its pixels
 * compared in tiles around those areas; without that proof, over the whole page.
 */
export async function comparePage(input: ComparedPages): Promise<PageComparison> {
  const rules = TOLERANCES[input.kind];
  const view = viewOf(input.source.page);
  const reader = input.reader ?? readAnew;
  const read = input.sourceWords ?? (await wordsOfPage(input.source.page, false, reader));
  const sourceWords = input.withoutHidden ? shownWords(read, await reader.glyphs(input.source.document, input.source.page)) : read;
  const outputWords = (input.kind !== 'raster' && input.outputWords) || (await wordsOfPage(input.output.page, input.kind === 'raster', reader));
  const words = compareWords(sourceWords, outputWords, input.drawn, view);
  let areas = [view];
  let scope: PageComparison['scope'] = { tiles: null, reason: input.kind === 'vector' ? null : 'a rendered page is compared whole' };
  let readings: (Reading | undefined)[] = [];
  if (input.kind === 'vector') {
    const lists = await Promise.all([input.source.page, input.output.page].map((page) => page.getOperatorList({ intent: 'display', annotationMode: 1 })));
    // The walk places glyphs from these same lists: with a keeping reader, the leak check's reading serves.
    const side = (at: 0 | 1, { document, page }: ComparedPages['source']) => ({ page, list: lists[at] as never, ...(input.reader && { glyphs: () => reader.glyphs(document, page) }) });
    const changes = await changedAreas(side(0, input.source), side(1, input.output));
    if (changes.ok) {
      areas = tilesOf(view, [...changes.areas, ...input.drawn], FIDELITY_DPI / 72);
      scope = { tiles: areas.length, reason: null };
      // With a keeping reader the pages' glyph readings (of these lists) also decide what text the tiles skip.
      if (input.reader) readings = await Promise.all([input.source, input.output].map(async ({ document, page }, at) => ({ list: lists[at] as OperatorList, glyphs: await reader.glyphs(document, page) })));
    } else scope = { tiles: null, reason: changes.reason };
  }
  const pixels = await comparePixelsIn(input, areas, rules, scope.tiles !== null, readings);
  const problems: string[] = [];
  if (words.missing > 0) {
    const at = words.firstMissing;
    problems.push(`${words.missing} of ${words.checked} word(s) outside the drawn areas are missing from its text${at ? ` (first at x ${at.x1.toFixed(1)}, y ${at.y1.toFixed(1)})` : ''}`);
  }
  if (pixels.differing > rules.maxDiffering) {
    const where = pixels.where;
    problems.push(`${pixels.differing} pixel(s) outside the drawn areas differ from the source (at most ${rules.maxDiffering} may)${where ? ` between x ${where.x1.toFixed(1)}, y ${where.y1.toFixed(1)} and x ${where.x2.toFixed(1)}, y ${where.y2.toFixed(1)}` : ''}`);
  }
  return {
    words,
    pixels: { compared: pixels.compared, differing: pixels.differing, where: null },
    tolerance: { dpi: FIDELITY_DPI / (rules.halve ? 2 : 1), grey: rules.grey, max_differing_pixels: rules.maxDiffering, mask_margin_pixels: pixels.margin },
    scope,
    problems,
  };
}

interface BoxLike {
  x1: number;
  y1: number;
  x2: number;
  y2: number;
  points: readonly { x: number; y: number }[];
}

/** Every area drawn black on a page: each box (a polygon by its bounds) with the padding, and any growth. */
export function drawnAreas(boxes: readonly BoxLike[], padding: number, growth: readonly { rects: readonly (readonly [number, number, number, number])[] }[] = []): [number, number, number, number][] {
  const areas = boxes.map((box): [number, number, number, number] => {
    const xs = box.points.length >= 3 ? box.points.map((point) => point.x) : [box.x1, box.x2];
    const ys = box.points.length >= 3 ? box.points.map((point) => point.y) : [box.y1, box.y2];
    return [Math.min(...xs) - padding, Math.min(...ys) - padding, Math.max(...xs) + padding, Math.max(...ys) + padding];
  });
  for (const entry of growth) for (const rect of entry.rects) areas.push([rect[0], rect[1], rect[2], rect[3]]);
  return areas;
}

export function asRects(areas: readonly (readonly [number, number, number, number])[]): Rect[] {
  return areas.map(([x1, y1, x2, y2]) => ({ x1: Math.min(x1, x2), y1: Math.min(y1, y2), x2: Math.max(x1, x2), y2: Math.max(y1, y2) }));
}
