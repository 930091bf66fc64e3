import type { PageWord } from '../../common/schemas/pages.js';

// A page's words as search reads them: one string in reading order where every word sits at a known
// offset. Words of a line are joined by one space and so are lines, so a phrase broken across lines still
// reads as typed; a line ending in a hyphen that splits a word ("Ro-" / "bert") is joined without it.

export interface WordSpan {
  /** Index into the page's words. */
  word: number;
  /** [start, end) in the page string. */
  start: number;
  end: number;
  line: number;
}

export interface PageText {
  text: string;
  /** `text` folded by `foldSameLength`: the same offsets address the same characters. */
  folded: string;
  spans: WordSpan[];
}

const MARKS = /\p{M}+/gu;
const ASCII = /^[\x00-\x7f]*$/;

/**
 * Lower case without diacritics, one output code unit per input code unit, so offsets found in the folded
 * string address the original. A character whose folding would change the length keeps its own lower case
 * (or itself).
 */
export function foldSameLength(text: string): string {
  if (ASCII.test(text)) return text.toLowerCase();
  let out = '';
  for (const char of text) {
    const folded = char.normalize('NFD').replace(MARKS, '').toLowerCase();
    if (folded.length === char.length) out += folded;
    else {
      const lower = char.toLowerCase();
      out += lower.length === char.length ? lower : char;
    }
  }
  return out;
}

/** Diacritics removed, case kept, same length (for case-sensitive text search). */
export function stripMarksSameLength(text: string): string {
  if (ASCII.test(text)) return text;
  let out = '';
  for (const char of text) {
    const stripped = char.normalize('NFD').replace(MARKS, '');
    out += stripped.length === char.length ? stripped : char;
  }
  return out;
}

/** Folding for a query: its length may change, it is never mapped back. */
export function foldQuery(text: string): string {
  return text.normalize('NFD').replace(MARKS, '').toLowerCase();
}

/** Line number of each word: from the stored text's line breaks when its tokens are the words, else geometry. */
function lineNumbers(text: string, words: readonly PageWord[]): number[] {
  const lines = text.split('\n').map((line) => line.split(/\s+/).filter((token) => token.length > 0));
  const tokens = lines.flatMap((line, index) => line.map((token) => ({ token, line: index })));
  if (tokens.length === words.length && tokens.every((entry, index) => entry.token === words[index]?.text)) return tokens.map((entry) => entry.line);
  // Geometry: a word starts a new line when it does not overlap the previous word vertically.
  const result: number[] = [];
  let line = 0;
  words.forEach((word, index) => {
    const previous = words[index - 1];
    if (previous) {
      const overlap = Math.min(previous.y2, word.y2) - Math.max(previous.y1, word.y1);
      const height = Math.min(previous.y2 - previous.y1, word.y2 - word.y1);
      if (overlap < height * 0.3 || word.x1 < previous.x1) line += 1;
    }
    result.push(line);
  });
  return result;
}

const LETTER = /\p{L}/u;

/** "Ro-" at a line end followed by a word starting with a letter: a hyphenated word. */
function hyphenated(word: string, next: string | undefined): boolean {
  if (!next || word.length < 3 || !word.endsWith('-')) return false;
  return LETTER.test(word.charAt(word.length - 2)) && LETTER.test(next.charAt(0));
}

export function buildPageText(text: string, words: readonly PageWord[]): PageText {
  const lines = lineNumbers(text, words);
  const spans: WordSpan[] = [];
  let out = '';
  words.forEach((word, index) => {
    const line = lines[index] ?? 0;
    const next = words[index + 1];
    const lineEnds = next !== undefined && (lines[index + 1] ?? 0) !== line;
    const joined = lineEnds && hyphenated(word.text, next.text);
    const shown = joined ? word.text.slice(0, -1) : word.text;
    const start = out.length;
    out += shown;
    spans.push({ word: index, start, end: out.length, line });
    if (next !== undefined && !joined) out += ' ';
  });
  return { text: out, folded: foldSameLength(out), spans };
}

/** The spans overlapping [start, end), in order (binary search: spans are sorted by start). */
export function spansIn(spans: readonly WordSpan[], start: number, end: number): WordSpan[] {
  let low = 0;
  let high = spans.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if ((spans[middle]?.end ?? 0) <= start) low = middle + 1;
    else high = middle;
  }
  const result: WordSpan[] = [];
  for (let index = low; index < spans.length; index += 1) {
    const span = spans[index];
    if (!span || span.start >= end) break;
    result.push(span);
  }
  return result;
}
