import { contains, center, expand, type Rect } from '../geometry.js';
import { token, type SourceWord } from '../words.js';

// (b) of the two-way check: every source word whose whole extent lies outside the drawn areas is in the output's
// text with the same characters at the same place.

/** How far an output word's corner may stand from the source word's, in points. */
export const WORD_TOLERANCE = 1;

function overlaps(a: Rect, b: Rect): boolean {
  return a.x1 < b.x2 && b.x1 < a.x2 && a.y1 < b.y2 && b.y1 < a.y2;
}

/** Whether a word may reach a drawn area: its estimated box grown by its own uncertainty and a quarter point. */
export function touchesDrawn(word: SourceWord, drawn: readonly Rect[]): boolean {
  const grown = expand(word, word.slackX + 0.25, word.slackY + 0.25);
  return drawn.some((area) => overlaps(area, grown));
}

/**
 * Same place within the tolerance plus both words' own estimate error: pdf.js gives runs, not glyphs, and a word's
 * box is shared out of its run (words.ts slack), so splitting a line's run at a removal moves the estimate of an
 * untouched word by up to its slack. A word really moved also moves its ink, which (c) pixels catches.
 */
function samePlace(a: SourceWord, b: SourceWord, tolerance: number): boolean {
  const tx = tolerance + a.slackX + b.slackX;
  const ty = tolerance + a.slackY + b.slackY;
  return Math.abs(a.x1 - b.x1) <= tx && Math.abs(a.y1 - b.y1) <= ty && Math.abs(a.x2 - b.x2) <= tx + 0.5 && Math.abs(a.y2 - b.y2) <= ty + 0.5;
}

/** A reader may glue a word to a neighbour: the output word (its token given) then holds it and spans its place. */
function holds(output: SourceWord, outputToken: string, source: SourceWord, sourceToken: string, tolerance: number): boolean {
  const tx = tolerance + output.slackX + source.slackX;
  const ty = tolerance + output.slackY + source.slackY;
  return outputToken.includes(sourceToken) && output.x1 <= source.x1 + tx && output.x2 >= source.x2 - tx && output.y1 <= source.y1 + ty && output.y2 >= source.y2 - ty;
}

export interface WordComparison {
  checked: number;
  missing: number;
  /** Where the first missing word stood (never its text: a reason message may travel far). */
  firstMissing: Rect | null;
}

/**
 * Source words wholly outside `drawn` and inside `visible`, each matched at most once to an output word with the
 * same characters at the same place (±tolerance and the two estimates' slack; glued neighbours accepted when they span the place).
 */
export function compareWords(source: readonly SourceWord[], output: readonly SourceWord[], drawn: readonly Rect[], visible: Rect, tolerance = WORD_TOLERANCE): WordComparison {
  const used = new Set<number>();
  let checked = 0;
  let missing = 0;
  let firstMissing: Rect | null = null;
  // Each output word's token once, and the output words by token in page order: the first unused one at the
  // same place is the one a scan of the whole list would find.
  const tokens = output.map((candidate) => token(candidate.text));
  const byToken = new Map<string, number[]>();
  tokens.forEach((text, index) => {
    const list = byToken.get(text);
    if (list) list.push(index);
    else byToken.set(text, [index]);
  });
  for (const word of source) {
    const text = token(word.text);
    if (text === '' || !contains(visible, center(word)) || touchesDrawn(word, drawn)) continue;
    checked += 1;
    let found = -1;
    for (const index of byToken.get(text) ?? []) {
      if (!used.has(index) && samePlace(output[index] as SourceWord, word, tolerance)) {
        found = index;
        break;
      }
    }
    if (found < 0) found = output.findIndex((candidate, index) => holds(candidate, tokens[index] as string, word, text, tolerance));
    if (found >= 0) {
      if (tokens[found] === text) used.add(found);
      continue;
    }
    missing += 1;
    firstMissing ??= { x1: word.x1, y1: word.y1, x2: word.x2, y2: word.y2 };
  }
  return { checked, missing, firstMissing };
}
