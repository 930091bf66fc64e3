import type { PageWord } from '../../common/schemas/pages.js';
import type { SearchHit } from '../../common/schemas/search.js';
import { spansIn, type PageText } from './page-text.js';
import type { TextMatch } from './matcher.js';

// A match in a page string becomes boxes: the words it covers, cut to the characters it covers when it
// starts or ends inside a word, one box per line it spans.

type Box = SearchHit['box'];

const CONTEXT = 60;

function union(a: Box | undefined, b: Box): Box {
  if (!a) return { ...b };
  return { x1: Math.min(a.x1, b.x1), y1: Math.min(a.y1, b.y1), x2: Math.max(a.x2, b.x2), y2: Math.max(a.y2, b.y2) };
}

const round = (value: number) => Math.round(value * 100) / 100;

export function matchBoxes(page: PageText, words: readonly PageWord[], match: TextMatch): { box: Box; pieces: Box[] } | null {
  const byLine = new Map<number, Box>();
  for (const span of spansIn(page.spans, match.start, match.end)) {
    const word = words[span.word];
    if (!word) continue;
    const length = Math.max(1, word.text.length);
    const from = Math.max(0, match.start - span.start) / length;
    const to = Math.min(length, match.end - span.start) / length;
    const width = word.x2 - word.x1;
    const piece = { x1: round(word.x1 + width * from), y1: round(word.y1), x2: round(word.x1 + width * to), y2: round(word.y2) };
    byLine.set(span.line, union(byLine.get(span.line), piece));
  }
  const pieces = [...byLine.values()];
  if (pieces.length === 0) return null;
  return { box: pieces.reduce<Box | undefined>((all, piece) => union(all, piece), undefined) as Box, pieces };
}

export function contextOf(text: string, match: TextMatch): string {
  const from = Math.max(0, match.start - CONTEXT);
  const to = Math.min(text.length, match.end + CONTEXT);
  return `${from > 0 ? '…' : ''}${text.slice(from, to)}${to < text.length ? '…' : ''}`;
}

export function hitRef(documentId: number, page: number, match: TextMatch): string {
  return `${documentId}:${page}:${match.start}-${match.end}`;
}
