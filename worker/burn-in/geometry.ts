import type { BurnBox, BurnPoint } from '../../main/common/export-tasks.js';

// Plane geometry in a document's own units (PDF points or image pixels): which words a box covers.

export interface Rect {
  x1: number;
  y1: number;
  x2: number;
  y2: number;
}

export function expand(rect: Rect, byX: number, byY = byX): Rect {
  return { x1: rect.x1 - byX, y1: rect.y1 - byY, x2: rect.x2 + byX, y2: rect.y2 + byY };
}

function rectsOverlap(a: Rect, b: Rect): boolean {
  return a.x1 < b.x2 && b.x1 < a.x2 && a.y1 < b.y2 && b.y1 < a.y2;
}

function pointInRect(point: BurnPoint, rect: Rect): boolean {
  return point.x >= rect.x1 && point.x <= rect.x2 && point.y >= rect.y1 && point.y <= rect.y2;
}

/** Even-odd ray casting; points on the outline may go either way, callers pad for that. */
export function pointInPolygon(point: BurnPoint, polygon: readonly BurnPoint[]): boolean {
  let inside = false;
  for (let index = 0, previous = polygon.length - 1; index < polygon.length; previous = index, index += 1) {
    const a = polygon[index] as BurnPoint;
    const b = polygon[previous] as BurnPoint;
    if (a.y > point.y !== b.y > point.y && point.x < ((b.x - a.x) * (point.y - a.y)) / (b.y - a.y) + a.x) inside = !inside;
  }
  return inside;
}

function segmentsCross(p1: BurnPoint, p2: BurnPoint, q1: BurnPoint, q2: BurnPoint): boolean {
  const cross = (o: BurnPoint, a: BurnPoint, b: BurnPoint) => (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x);
  const d1 = cross(q1, q2, p1);
  const d2 = cross(q1, q2, p2);
  const d3 = cross(p1, p2, q1);
  const d4 = cross(p1, p2, q2);
  return ((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0));
}

function polygonTouchesRect(polygon: readonly BurnPoint[], rect: Rect): boolean {
  if (polygon.some((point) => pointInRect(point, rect))) return true;
  const corners = [
    { x: rect.x1, y: rect.y1 },
    { x: rect.x2, y: rect.y1 },
    { x: rect.x2, y: rect.y2 },
    { x: rect.x1, y: rect.y2 },
  ];
  if (corners.some((corner) => pointInPolygon(corner, polygon))) return true;
  for (let index = 0; index < polygon.length; index += 1) {
    const a = polygon[index] as BurnPoint;
    const b = polygon[(index + 1) % polygon.length] as BurnPoint;
    for (let side = 0; side < 4; side += 1) {
      if (segmentsCross(a, b, corners[side] as BurnPoint, corners[(side + 1) % 4] as BurnPoint)) return true;
    }
  }
  return false;
}

/**
 * Whether any part of `word` lies under `box` grown by a margin (padding plus the uncertainty of the word's
 * box, which may differ across and along the line). A polygon is grown by growing the word instead: a square
 * margin covers the round one.
 */
export function boxCovers(box: BurnBox, word: Rect, marginX: number, marginY: number): boolean {
  const grown = expand(word, marginX, marginY);
  if (box.points.length >= 3) return rectsOverlap(box, grown) && polygonTouchesRect(box.points, grown);
  return rectsOverlap(box, grown);
}

/**
 * Whether any part of a word may lie under one of `boxes` grown by `margin` and the word's own uncertainty
 * (`slackX`, `slackY`), or its centre lies outside the visible area.
 */
export function mayBeCovered(word: Rect & { slackX: number; slackY: number }, boxes: readonly BurnBox[], margin: number, visible: Rect): boolean {
  if (!contains(visible, center(word))) return true;
  for (const box of boxes) if (boxCovers(box, word, margin + word.slackX, margin + word.slackY)) return true;
  return false;
}

export function center(rect: Rect): BurnPoint {
  return { x: (rect.x1 + rect.x2) / 2, y: (rect.y1 + rect.y2) / 2 };
}

export function contains(rect: Rect, point: BurnPoint): boolean {
  return pointInRect(point, rect);
}
