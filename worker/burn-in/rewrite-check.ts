import type { BurnBox, LayerWord } from '../../main/common/export-tasks.js';
import { boxCovers, center, contains, type Rect } from './geometry.js';
import { leakedWords, type SourceWord } from './words.js';

// The read-back of a page redacted in its content (method auto): its text, as pdf.js reads it from the written
// file, against the rewriting's own word lists. A page that fails is not released as rewritten: verification
// refuses it and the runner renders it (main/jobs/export/verify.ts). It runs once, on the written file, beside
// the independent checks of verify.ts; a page it passes may still fail those.

/**
 * The middle of a word's estimated box: along the line its box shrunk by its uncertainty, across the line the
 * band from just above the baseline to about the x-height (pdf.js boxes span -0.25 to 0.95 em). Every glyph
 * drawn there lies inside the glyph boxes the rewriting tests, so a core under a box means a glyph was removed.
 */
export function core(word: SourceWord): Rect {
  const width = word.x2 - word.x1;
  const height = word.y2 - word.y1;
  const horizontal = word.slackX >= word.slackY;
  const alongX = horizontal ? Math.min(word.slackX + 0.05, 0.3 * width) : 0.25 * width;
  const alongY = horizontal ? 0.25 * height : Math.min(word.slackY + 0.05, 0.3 * height);
  return { x1: word.x1 + alongX, y1: word.y1 + alongY, x2: word.x2 - alongX, y2: word.y2 - alongY };
}

export function under(boxes: readonly BurnBox[], rect: Rect, margin: number): boolean {
  return boxes.some((box) => boxCovers(box, rect, margin, margin));
}

export interface RewrittenLists {
  /** The page's boxes as requested, and its visible area (crop box within media box), user space. */
  boxes: readonly BurnBox[];
  visible: Rect;
  /** Words that stay (the allowance) and the tokens that lay under a box, as the rewriting read the source. */
  kept: readonly LayerWord[];
  withheld: readonly string[];
  /** Texts the export drew on the page itself (exemption labels): they lie in the boxes. */
  labels?: readonly string[];
}

/** Problems of a rewritten page whose text reads as `words`; empty when it passes. */
export function rewrittenProblems(words: readonly SourceWord[], page: RewrittenLists): string[] {
  const problems: string[] = [];
  const leaked = leakedWords(
    words.map((word) => word.text),
    page.kept,
    [...page.withheld],
  );
  if (leaked > 0) problems.push(`${leaked} word(s) that lay under a box are still in its text`);
  const labels = new Set(page.labels ?? []);
  if (words.some((word) => !labels.has(word.text) && under(page.boxes, core(word), 0))) problems.push('text still lies under a box');
  if (words.some((word) => !contains(page.visible, center(word)))) problems.push('text still lies outside the visible area');
  return problems;
}
