import type { Rect } from '../geometry.js';
import { encloses, type Area } from './geometry.js';
import type { RemovedGlyph } from './show.js';

// The drawn black of each redaction: its box (with the padding), grown only to cover the whole ink of the
// glyphs the box cuts that cannot keep their outside part as a shape (pieces.ts: a stroked, vertical, Type 3 or
// not embedded glyph, or one under a polygon). Such a glyph leaves the page only with black over all of its ink.

export interface DrawnRedaction {
  /** Index of the box among the page's boxes. */
  box: number;
  /** Black drawn beyond the box, in user space (empty when the box covers every glyph it removes). */
  rects: Rect[];
  /** How far, in points, the black reaches beyond the box at most (0: not grown). */
  growth: number;
}

/** Glyph boxes side by side on one line become one rectangle (they overlap or touch along it). */
function merged(rects: Rect[]): Rect[] {
  const sorted = [...rects].sort((a, b) => a.y1 - b.y1 || a.x1 - b.x1);
  const out: Rect[] = [];
  for (const rect of sorted) {
    const line = out.find((other) => {
      const overlapY = Math.min(other.y2, rect.y2) - Math.max(other.y1, rect.y1);
      const smaller = Math.min(other.y2 - other.y1, rect.y2 - rect.y1);
      return overlapY >= 0.5 * smaller && rect.x1 <= other.x2 + 0.5 && other.x1 <= rect.x2 + 0.5;
    });
    if (line) {
      line.x1 = Math.min(line.x1, rect.x1);
      line.y1 = Math.min(line.y1, rect.y1);
      line.x2 = Math.max(line.x2, rect.x2);
      line.y2 = Math.max(line.y2, rect.y2);
    } else out.push({ ...rect });
  }
  return out;
}

export function drawnAreas(areas: readonly Area[], removed: readonly RemovedGlyph[]): DrawnRedaction[] {
  return areas.map((area, index) => {
    const polygon = area.reach > 0 || area.polygon.length !== 4;
    const beyond = removed.filter((glyph) => glyph.areas[0] === index && !glyph.piece && (polygon || !encloses(area.bounds, glyph.bounds))).map((glyph) => glyph.bounds);
    const rects = merged(beyond);
    const { bounds } = area;
    const growth = rects.reduce((most, rect) => Math.max(most, bounds.x1 - rect.x1, rect.x2 - bounds.x2, bounds.y1 - rect.y1, rect.y2 - bounds.y2), 0);
    return { box: index, rects, growth: Math.round(growth * 100) / 100 };
  });
}
