import { foldText } from '../../main/common/fold-text.js';
import type { Glyph } from '../pdf-glyphs/index.js';
import { isHidden } from '../pdf-glyphs/index.js';

// Withheld strings and their allowances, read from the source glyph by glyph: never from the builder's word
// estimates. Matching is on folded text (NFKC, lower case, no whitespace or invisible formatting characters).

export interface Rect {
  x1: number;
  y1: number;
  x2: number;
  y2: number;
}

export interface Withheld {
  /** Folded text (fold()). */
  text: string;
  /** How often the source page draws it outside every drawn area (visible glyphs only). */
  allowance: number;
}

/** The form every text is compared in: NFKC, case-folded, without whitespace and zero-width characters. */
export const fold = foldText;

/** Occurrences of `needle` in `haystack`, non-overlapping. */
export function occurrences(haystack: string, needle: string): number {
  if (needle.length === 0) return 0;
  let count = 0;
  for (let at = haystack.indexOf(needle); at >= 0; at = haystack.indexOf(needle, at + needle.length)) count += 1;
  return count;
}

/** Occurrences of `needle` within any of `tokens`. */
export function countIn(tokens: readonly string[], needle: string): number {
  let count = 0;
  for (const token of tokens) count += occurrences(token, needle);
  return count;
}

/**
 * A glyph counts as under a drawn area when the area covers its centre: then the area hides most of it. A box
 * edge that only grazes a glyph (a neighbour's em box, the descent of the line above) leaves it readable; such a
 * glyph counts as outside, so keeping it is allowed and dropping it is too.
 */
export function isUnder(glyph: Rect, drawn: readonly Rect[]): boolean {
  const x = (glyph.x1 + glyph.x2) / 2;
  const y = (glyph.y1 + glyph.y2) / 2;
  return drawn.some((area) => x >= area.x1 && x <= area.x2 && y >= area.y1 && y <= area.y2);
}

/** Whether any part of a glyph's extent meets a drawn area. */
export function touches(glyph: Rect, drawn: readonly Rect[]): boolean {
  return drawn.some((area) => glyph.x1 < area.x2 && area.x1 < glyph.x2 && glyph.y1 < area.y2 && area.y1 < glyph.y2);
}

/**
 * Splits glyphs (in drawing order) into tokens: runs of glyphs without whitespace between them, broken where
 * the next glyph does not follow on (a gap of more than a third of the glyph's size along the line, or a move
 * off the line). Only the glyphs marked in `taking` take part; the others break tokens.
 *
 * The per-glyph steps of this file are module functions and masks rather than closures made per page: V8 keeps a
 * function's optimised code only while a closure using it lives, so closures made per call are compiled again
 * after every full collection (docs/architecture.md, session 22).
 */
export function tokensOf(glyphs: readonly Glyph[], taking: readonly boolean[]): string[] {
  const tokens: string[] = [];
  let current = '';
  let previous: Glyph | null = null;
  for (let index = 0; index < glyphs.length; index += 1) {
    const glyph = glyphs[index] as Glyph;
    if (taking[index] !== true || glyph.isSpace || glyph.text === '') {
      current = endToken(tokens, current);
      previous = null;
      continue;
    }
    if (previous && !followsOn(previous, glyph)) current = endToken(tokens, current);
    current += glyph.text;
    previous = glyph;
  }
  endToken(tokens, current);
  return tokens;
}

/** Adds a token's folded text (when any is left) and starts the next. */
function endToken(tokens: string[], current: string): '' {
  const text = fold(current);
  if (text) tokens.push(text);
  return '';
}

function followsOn(a: Glyph, b: Glyph): boolean {
  const size = Math.max(a.x2 - a.x1, a.y2 - a.y1, 1);
  if (a.vertical || b.vertical) {
    const across = Math.abs((a.x1 + a.x2) / 2 - (b.x1 + b.x2) / 2);
    const gap = a.y1 - b.y2;
    return across < size * 0.5 && gap < size * 0.34 && gap > -size;
  }
  const gap = b.x1 - a.x2;
  const across = Math.abs((a.y1 + a.y2) / 2 - (b.y1 + b.y2) / 2);
  const height = Math.max(a.y2 - a.y1, 1);
  return across < height * 0.5 && gap < height * 0.34 && gap > -height;
}

/** The kept glyphs' text in drawing order, folded and joined: readers differ in where they break words, so
 * matching never depends on a break (a reader that joins what another splits must not hide a leak). `taking`
 * marks the glyphs kept; without it, all. */
export function joinedText(glyphs: readonly Glyph[], taking?: readonly boolean[]): string {
  let text = '';
  for (let index = 0; index < glyphs.length; index += 1) if (!taking || taking[index] === true) text += (glyphs[index] as Glyph).text;
  return fold(text);
}

/**
 * Glyphs sorted by `middle` (descending) put in groups: each joins the first group whose first glyph's middle is
 * within 0.4 of the larger of their sizes, else starts one. Groups whose first glyph lies further above than any
 * size allows are passed over for good (the middles only fall), which keeps a page's lines linear to group.
 */
function grouped(sorted: readonly Glyph[], middle: (glyph: Glyph) => number, size: (glyph: Glyph) => number): Glyph[][] {
  const groups: Glyph[][] = [];
  let reach = 0;
  for (const glyph of sorted) reach = Math.max(reach, size(glyph) * 0.4);
  let start = 0;
  for (const glyph of sorted) {
    const at = middle(glyph);
    while (start < groups.length && middle((groups[start] as Glyph[])[0] as Glyph) - at >= reach) start += 1;
    let group: Glyph[] | undefined;
    for (let index = start; index < groups.length && !group; index += 1) {
      const first = (groups[index] as Glyph[])[0] as Glyph;
      if (Math.abs(middle(first) - at) < Math.max(size(first), size(glyph)) * 0.4) group = groups[index];
    }
    if (group) group.push(glyph);
    else groups.push([glyph]);
  }
  return groups;
}

/**
 * The kept glyphs' text in reading order rather than drawing order (lines top to bottom, left to right; vertical
 * columns right to left, top to bottom), folded and joined: a producer may draw a word's letters in any order,
 * and a reader such as poppler puts them back in place.
 */
export function visualText(glyphs: readonly Glyph[], taking?: readonly boolean[]): string {
  const horizontal: Glyph[] = [];
  const vertical: Glyph[] = [];
  for (let index = 0; index < glyphs.length; index += 1) {
    const glyph = glyphs[index] as Glyph;
    if ((taking && taking[index] !== true) || glyph.text === '') continue;
    (glyph.vertical ? vertical : horizontal).push(glyph);
  }
  const lines = grouped(horizontal.sort(byMiddleYDown), middleY, height);
  const columns = grouped(vertical.sort(byMiddleXLeftward), middleX, width);
  const text = [...lines.map((line) => line.sort(byLeft)), ...columns.map((column) => column.sort(byTop))].map(groupText).join(' ');
  return fold(text);
}

const middleY = (glyph: Glyph) => (glyph.y1 + glyph.y2) / 2;
const middleX = (glyph: Glyph) => (glyph.x1 + glyph.x2) / 2;
const height = (glyph: Glyph) => glyph.y2 - glyph.y1;
const width = (glyph: Glyph) => glyph.x2 - glyph.x1;
const byMiddleYDown = (a: Glyph, b: Glyph) => b.y1 + b.y2 - (a.y1 + a.y2);
const byMiddleXLeftward = (a: Glyph, b: Glyph) => b.x1 + b.x2 - (a.x1 + a.x2);
const byLeft = (a: Glyph, b: Glyph) => a.x1 - b.x1;
const byTop = (a: Glyph, b: Glyph) => b.y2 - a.y2;
const groupText = (group: readonly Glyph[]) => group.map(glyphText).join('');
const glyphText = (glyph: Glyph) => glyph.text;

/**
 * What a source page withholds under `drawn`: each run of consecutive glyphs under a drawn area (split at
 * whitespace), and each run of hidden glyphs (what a viewer never showed), with the allowance of each: its
 * occurrences among the visible glyphs outside every drawn area. `extra` adds texts withheld by other means
 * (stored OCR words under a box on a scan).
 */
export function withheldOfGlyphs(
  glyphs: readonly Glyph[],
  drawn: readonly Rect[],
  extra: readonly string[] = [],
  extraAllowed: readonly string[] = [],
  options: { keepHidden?: boolean } = {},
): Withheld[] {
  // An internal review copy that keeps hidden content: what the source hides is neither withheld nor
  // disallowed; what lay under a box still is.
  const under: boolean[] = [];
  const hidden: boolean[] = [];
  const shownOutside: boolean[] = [];
  for (const glyph of glyphs) {
    const isUnderBox = isUnder(glyph, drawn);
    const isHiddenGlyph = options.keepHidden !== true && isHidden(glyph);
    under.push(isUnderBox);
    hidden.push(isHiddenGlyph);
    shownOutside.push(!isUnderBox && !isHiddenGlyph);
  }
  const texts = new Set<string>();
  for (const token of tokensOf(glyphs, under)) texts.add(token);
  for (const token of tokensOf(glyphs, hidden)) texts.add(token);
  for (const text of extra) texts.add(fold(text));
  // Punctuation alone says nothing of what was withheld, and stands everywhere else on the page; nor does one
  // letter or digit of an alphabet (a narrow glyph beside a box, whose advance the black covers but not its ink),
  // unlike one Han, kana or Hangul character, which can be a name.
  for (const text of texts) {
    if (!/[\p{L}\p{N}]/u.test(text)) texts.delete(text);
    else if (Array.from(text).length === 1 && !/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u.test(text)) texts.delete(text);
  }
  const outside = [joinedText(glyphs, shownOutside), visualText(glyphs, shownOutside)];
  const storedOutside = fold(extraAllowed.join(''));
  return [...texts].map((text) => ({ text, allowance: Math.max(...outside.map((reading) => occurrences(reading, text)), occurrences(storedOutside, text)) }));
}
