import type { FindingBox } from '../../main/common/schemas/detection.js';
import type { PageWord } from '../../main/common/schemas/pages.js';
import { wordsInRange, type PageText } from './text.js';

const round = (value: number) => Math.round(value * 100) / 100;

/**
 * The part of a word's box that holds characters [from, to) of it, when the match covers only part of a
 * word (e.g. "SSN:123-45-6789" read as one word, or an address in angle brackets). Characters are
 * taken as equally wide, so the cut keeps half a character of margin on the side of the match. Whole box
 * for rotated pages, where the text does not run along x.
 */
function partOfWord(word: PageWord, length: number, from: number, to: number, horizontal: boolean): FindingBox {
  const box = { x1: word.x1, y1: word.y1, x2: word.x2, y2: word.y2 };
  if (!horizontal || length <= 0) return box;
  const text = word.text.trim();
  const perChar = (word.x2 - word.x1) / length;
  // Letters or digits outside keep half a character of margin; quotes, brackets and punctuation outside
  // ("<jo@x.org>", "(Smith),") only a sliver, so the box holds the value and not its wrapping.
  const margin = (outside: string) => (/[\p{L}\p{N}]/u.test(outside) ? 0.5 : 0.15);
  if (from > 0 && /\S/u.test(text.slice(0, from))) box.x1 = Math.max(word.x1, word.x1 + perChar * (from - margin(text.slice(0, from))));
  if (to < length && /\S/u.test(text.slice(to))) box.x2 = Math.min(word.x2, word.x1 + perChar * (to + margin(text.slice(to))));
  return box;
}

/** One box per text line the match touches: the union of its (parts of) words on that line. */
export function boxesForRange(page: PageText, start: number, end: number): FindingBox[] {
  const byLine = new Map<number, FindingBox>();
  const horizontal = page.rotation === 0;
  for (const index of wordsInRange(page, start, end)) {
    const word = page.words[index] as PageWord;
    const span = page.spans[index] as PageText['spans'][number];
    if (!(word.x2 > word.x1 && word.y2 > word.y1)) continue;
    const part = partOfWord(word, span.end - span.start, Math.max(0, start - span.start), Math.min(span.end, end) - span.start, horizontal);
    const existing = byLine.get(span.line);
    byLine.set(
      span.line,
      existing ? { x1: Math.min(existing.x1, part.x1), y1: Math.min(existing.y1, part.y1), x2: Math.max(existing.x2, part.x2), y2: Math.max(existing.y2, part.y2) } : part,
    );
  }
  return [...byLine.values()].map((box) => ({ x1: round(box.x1), y1: round(box.y1), x2: round(box.x2), y2: round(box.y2) }));
}

/** Transcripts: the time span of the words a match covers, in seconds; null when the words carry no times. */
export function timeSpanForRange(page: PageText, start: number, end: number): { start: number; end: number } | null {
  const times = wordsInRange(page, start, end)
    .map((index) => page.words[index] as PageWord)
    .filter((word) => word.start !== undefined && word.end !== undefined);
  if (times.length === 0) return null;
  return { start: round(Math.min(...times.map((word) => word.start as number))), end: round(Math.max(...times.map((word) => word.end as number))) };
}
