import type { PageWord } from '../../main/common/schemas/pages.js';

// Pages of text laid out in points for detection tests; no database (database-reach.ts).

export const CHAR = 6;
export const TOP = 700;
export const LEADING = 14;

/** The box a run of characters [from, to) of line `line` has in `layoutPage`'s layout. */
export function boxOf(line: number, from: number, to: number) {
  return { x1: 72 + from * CHAR, y1: TOP - line * LEADING, x2: 72 + to * CHAR, y2: TOP - line * LEADING + 10 };
}

/** Words of lines of text laid out as a PDF page in points (y up): 6 pt per character, 14 pt per line. */
export function layoutPage(lines: string[]): { text: string; words: PageWord[] } {
  const words: PageWord[] = [];
  lines.forEach((line, index) => {
    for (const match of line.matchAll(/\S+/g)) words.push({ text: match[0], ...boxOf(index, match.index, match.index + match[0].length), confidence: 95 });
  });
  return { text: lines.join('\n'), words };
}
