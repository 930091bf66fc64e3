import type { TaskPage } from '../../main/common/analysis-tasks.js';
import type { PageWord } from '../../main/common/schemas/pages.js';

/** A page as the detectors see it: one string, and where each word sits in it. */
export interface PageText {
  page: number;
  unit: 'pdf_points' | 'image_pixels' | 'seconds';
  rotation: number;
  text: string;
  words: PageWord[];
  /** Per word (same index as `words`): its [start, end) in `text`, and its line number; -1 start when skipped. */
  spans: { start: number; end: number; line: number }[];
}

export type PageInput = TaskPage;

/**
 * Where each word occurs in the stored page text, in order; null for a word not found close after the
 * previous one (OCR text and words normally agree, but the store does not promise it).
 */
function alignWords(words: readonly PageWord[], stored: string): (number | null)[] {
  const offsets: (number | null)[] = [];
  let cursor = 0;
  for (const word of words) {
    const token = word.text.trim();
    if (!token) {
      offsets.push(null);
      continue;
    }
    const at = stored.indexOf(token, cursor);
    // Only whitespace may separate aligned words; anything more means the two disagree here.
    if (at >= 0 && /^\s*$/.test(stored.slice(cursor, at))) {
      offsets.push(at);
      cursor = at + token.length;
    } else {
      offsets.push(null);
    }
  }
  return offsets;
}

function hasBox(word: PageWord): boolean {
  return word.x2 > word.x1 && word.y2 > word.y1;
}

/** Same text line by geometry: the boxes overlap vertically by half the smaller height and do not go backwards. */
function sameLine(previous: PageWord, next: PageWord): boolean {
  const overlap = Math.min(previous.y2, next.y2) - Math.max(previous.y1, next.y1);
  const height = Math.min(previous.y2 - previous.y1, next.y2 - next.y1);
  return overlap >= height * 0.5 && next.x1 >= previous.x1 - height * 0.5;
}

/**
 * Joins a page's words into one string: a line break where the stored text or the geometry starts a new
 * line, a tab across a wide gap within a line (form columns), else one space. Patterns never cross a tab
 * or, unless they mean to, a line break.
 */
export function buildPageText(input: PageInput): PageText {
  const stored = input.text ?? '';
  const offsets = alignWords(input.words, stored);
  const geometric = input.unit !== 'seconds' && input.rotation === 0;
  const spans: PageText['spans'] = [];
  let text = '';
  let line = 0;
  let previousIndex = -1;
  input.words.forEach((word, index) => {
    const token = word.text.trim();
    if (!token) {
      spans.push({ start: -1, end: -1, line });
      return;
    }
    if (previousIndex >= 0) {
      const previous = input.words[previousIndex] as PageWord;
      const before = offsets[previousIndex];
      const here = offsets[index];
      let separator = ' ';
      if (before != null && here != null && stored.slice(before, here).includes('\n')) separator = '\n';
      if (geometric && hasBox(previous) && hasBox(word)) {
        if (!sameLine(previous, word)) separator = '\n';
        else if (separator === ' ' && word.x1 - previous.x2 > 2.5 * Math.min(previous.y2 - previous.y1, word.y2 - word.y1)) separator = '\t';
      }
      if (separator === '\n') line += 1;
      text += separator;
    }
    spans.push({ start: text.length, end: text.length + token.length, line });
    text += token;
    previousIndex = index;
  });
  return { page: input.page_number, unit: input.unit, rotation: input.rotation, text, words: input.words, spans };
}

/** Indexes of the words overlapping [start, end) of the page text. */
export function wordsInRange(page: PageText, start: number, end: number): number[] {
  const found: number[] = [];
  page.spans.forEach((span, index) => {
    if (span.start >= 0 && span.start < end && span.end > start) found.push(index);
  });
  return found;
}
