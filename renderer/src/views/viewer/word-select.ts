import { useEffect, useState } from 'react';
import { request } from '../../api/http.js';
import type { Box } from '../../domain/geometry.js';

// Drag-select words like text: from the word under the drag's start to the word under its end, in reading
// order (words from GET /ocr/text?words=true: text layer or OCR); one box per line, snapped to the words.

export interface Word {
  text: string;
  x1: number;
  y1: number;
  x2: number;
  y2: number;
}

interface WordsAnswer {
  pages?: { page_number: number; unit: string; words?: Word[] }[];
}

function normalized(box: Box): Box {
  return { x1: Math.min(box.x1, box.x2), y1: Math.min(box.y1, box.y2), x2: Math.max(box.x1, box.x2), y2: Math.max(box.y1, box.y2) };
}

interface Point {
  x: number;
  y: number;
}

function distance(box: Box, point: Point): number {
  const dx = Math.max(box.x1 - point.x, 0, point.x - box.x2);
  const dy = Math.max(box.y1 - point.y, 0, point.y - box.y2);
  return Math.hypot(dx, dy);
}

/** Words grouped into lines (words of a line share most of their height), lines and words in reading order. */
function linesOf(words: readonly Word[], yUp: boolean): Box[][] {
  const lines: { span: Box; words: Box[] }[] = [];
  for (const word of words.map(normalized)) {
    const height = word.y2 - word.y1;
    const line = lines.find(({ span }) => Math.min(span.y2, word.y2) - Math.max(span.y1, word.y1) > 0.5 * Math.min(height, span.y2 - span.y1));
    if (line) {
      line.words.push(word);
      line.span = { x1: Math.min(line.span.x1, word.x1), y1: Math.min(line.span.y1, word.y1), x2: Math.max(line.span.x2, word.x2), y2: Math.max(line.span.y2, word.y2) };
    } else lines.push({ span: { ...word }, words: [word] });
  }
  lines.sort((a, b) => (yUp ? b.span.y1 - a.span.y1 : a.span.y1 - b.span.y1));
  return lines.map((line) => line.words.sort((a, b) => a.x1 - b.x1));
}

/**
 * A drag from `start` to `end` selects like text: every word in reading order from the word nearest the start
 * to the word nearest the end; one box per line, snapped to its selected words. Nothing when the dragged
 * rectangle touches no word. `yUp`: PDF user space (lines read top down, y decreasing).
 */
export function snapToWords(words: readonly Word[], start: Point, end: Point, yUp: boolean): Box[] {
  const area = normalized({ x1: start.x, y1: start.y, x2: end.x, y2: end.y });
  const touched = words.map(normalized).some((word) => word.x1 <= area.x2 && area.x1 <= word.x2 && word.y1 <= area.y2 && area.y1 <= word.y2);
  if (!touched) return [];
  const lines = linesOf(words, yUp);
  const sequence = lines.flatMap((line, lineIndex) => line.map((word) => ({ word, lineIndex })));
  const nearest = (point: Point) => sequence.reduce((best, entry, index) => (distance(entry.word, point) < distance(sequence[best]!.word, point) ? index : best), 0);
  const [from, to] = [nearest(start), nearest(end)].sort((a, b) => a - b) as [number, number];
  const boxes = new Map<number, Box>();
  for (const { word, lineIndex } of sequence.slice(from, to + 1)) {
    const line = boxes.get(lineIndex);
    boxes.set(lineIndex, line ? { x1: Math.min(line.x1, word.x1), y1: Math.min(line.y1, word.y1), x2: Math.max(line.x2, word.x2), y2: Math.max(line.y2, word.y2) } : { ...word });
  }
  return [...boxes.values()].map((line) => ({ x1: Math.floor(line.x1 * 100) / 100, y1: Math.floor(line.y1 * 100) / 100, x2: Math.ceil(line.x2 * 100) / 100, y2: Math.ceil(line.y2 * 100) / 100 }));
}

/** The stored words of every page, read once the words tool is first used; null until then or when none. */
export function usePageWords(documentId: string, wanted: boolean, unit: 'pdf_points' | 'image_pixels'): { words: Map<number, Word[]> | null; missing: boolean } {
  const [words, setWords] = useState<Map<number, Word[]> | null>(null);
  const [missing, setMissing] = useState(false);
  useEffect(() => {
    if (!wanted || words) return;
    const controller = new AbortController();
    request<WordsAnswer>('/ocr/text', { query: { doc_id: documentId, words: 'true' }, signal: controller.signal }).then(
      (answer) => setWords(new Map((answer.pages ?? []).filter((page) => page.unit === unit).map((page) => [page.page_number, page.words ?? []]))),
      () => !controller.signal.aborted && setMissing(true),
    );
    return () => controller.abort();
  }, [documentId, wanted, words, unit]);
  return { words, missing };
}
