import type { PageWord } from '../../main/common/schemas/pages.js';

// Shared by the text-layer and OCR paths: page text and word boxes in the stored form.

/** A word with the line it belongs to, before the line keys are dropped. */
export interface LinedWord {
  word: PageWord;
  line: string;
}

/**
 * The page text: words of a line joined by one space, lines by one line break. Splitting the text on white
 * space gives exactly the words, in order, which is what detection relies on to map matches back to boxes.
 */
export function pageText(words: readonly LinedWord[]): string {
  let text = '';
  let previousLine: string | null = null;
  for (const { word, line } of words) {
    if (previousLine !== null) text += line === previousLine ? ' ' : '\n';
    text += word.text;
    previousLine = line;
  }
  return text;
}

export function meanConfidence(words: readonly PageWord[]): number | null {
  if (words.length === 0) return null;
  return round(words.reduce((sum, word) => sum + word.confidence, 0) / words.length, 2);
}

export function round(value: number, digits = 3): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}

/** The axis-aligned box around points, rounded to 1/1000 of a unit. */
export function boxAround(text: string, points: readonly (readonly [number, number])[], confidence: number): PageWord {
  const xs = points.map((point) => point[0]);
  const ys = points.map((point) => point[1]);
  return { text, x1: round(Math.min(...xs)), y1: round(Math.min(...ys)), x2: round(Math.max(...xs)), y2: round(Math.max(...ys)), confidence };
}

/** Whether two boxes [x1, y1, x2, y2] overlap (touching does not count). */
export function overlaps(word: PageWord, area: readonly [number, number, number, number]): boolean {
  return word.x1 < area[2] && word.x2 > area[0] && word.y1 < area[3] && word.y2 > area[1];
}
