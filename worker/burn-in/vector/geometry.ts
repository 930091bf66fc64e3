import type { BurnBox } from '../../../main/common/export-tasks.js';
import { pointInPolygon, type Rect } from '../geometry.js';

// Matrices and shapes in PDF user space: where a glyph, an image or a path lands, and whether it meets an area.

export type Matrix = readonly [number, number, number, number, number, number];

export interface Point {
  x: number;
  y: number;
}

export const IDENTITY: Matrix = [1, 0, 0, 1, 0, 0];

/** `first` then `second` (PDF row-vector convention: a point is transformed by first, then by second). */
export function multiply(first: Matrix, second: Matrix): Matrix {
  const [a, b, c, d, e, f] = first;
  const [A, B, C, D, E, F] = second;
  return [a * A + b * C, a * B + b * D, c * A + d * C, c * B + d * D, e * A + f * C + E, e * B + f * D + F];
}

export function apply(matrix: Matrix, x: number, y: number): Point {
  const [a, b, c, d, e, f] = matrix;
  return { x: a * x + c * y + e, y: b * x + d * y + f };
}

/** The rectangle [x1, y1]–[x2, y2] of a space mapped by `matrix`: a parallelogram. */
export function quadOf(matrix: Matrix, x1: number, y1: number, x2: number, y2: number): Point[] {
  return [apply(matrix, x1, y1), apply(matrix, x2, y1), apply(matrix, x2, y2), apply(matrix, x1, y2)];
}

/** How far the matrix stretches lengths at most (for line widths). */
export function maxScale(matrix: Matrix): number {
  const [a, b, c, d] = matrix;
  return Math.max(Math.hypot(a, b), Math.hypot(c, d));
}

export function boundsOf(points: readonly Point[]): Rect {
  let x1 = Infinity;
  let y1 = Infinity;
  let x2 = -Infinity;
  let y2 = -Infinity;
  for (const point of points) {
    if (point.x < x1) x1 = point.x;
    if (point.y < y1) y1 = point.y;
    if (point.x > x2) x2 = point.x;
    if (point.y > y2) y2 = point.y;
  }
  return { x1, y1, x2, y2 };
}

export function rectPolygon(rect: Rect): Point[] {
  return [
    { x: rect.x1, y: rect.y1 },
    { x: rect.x2, y: rect.y1 },
    { x: rect.x2, y: rect.y2 },
    { x: rect.x1, y: rect.y2 },
  ];
}

/** Whether `inner` lies wholly within `outer` (edges may touch). */
export function encloses(outer: Rect, inner: Rect): boolean {
  return inner.x1 >= outer.x1 && inner.y1 >= outer.y1 && inner.x2 <= outer.x2 && inner.y2 <= outer.y2;
}

/** Whether two rectangles share a point (touching counts). */
export function overlaps(a: Rect, b: Rect): boolean {
  return a.x1 <= b.x2 && b.x1 <= a.x2 && a.y1 <= b.y2 && b.y1 <= a.y2;
}

function cross(o: Point, a: Point, b: Point): number {
  return (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x);
}

function onSegment(p: Point, a: Point, b: Point): boolean {
  return Math.min(a.x, b.x) <= p.x && p.x <= Math.max(a.x, b.x) && Math.min(a.y, b.y) <= p.y && p.y <= Math.max(a.y, b.y);
}

/** Whether two closed segments share a point (touching counts). */
export function segmentsMeet(p1: Point, p2: Point, q1: Point, q2: Point): boolean {
  const d1 = cross(q1, q2, p1);
  const d2 = cross(q1, q2, p2);
  const d3 = cross(p1, p2, q1);
  const d4 = cross(p1, p2, q2);
  if (((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0))) return true;
  return (d1 === 0 && onSegment(p1, q1, q2)) || (d2 === 0 && onSegment(p2, q1, q2)) || (d3 === 0 && onSegment(q1, p1, p2)) || (d4 === 0 && onSegment(q2, p1, p2));
}

function pointSegmentDistance(p: Point, a: Point, b: Point): number {
  const dx = b.x - a.x;
  const dy = b.y - a.y;
  const length = dx * dx + dy * dy;
  const t = length === 0 ? 0 : Math.max(0, Math.min(1, ((p.x - a.x) * dx + (p.y - a.y) * dy) / length));
  return Math.hypot(p.x - (a.x + t * dx), p.y - (a.y + t * dy));
}

/** Whether two simple polygons (either may be concave; a polygon of one or two points is a point or a segment) meet. */
export function polygonsMeet(a: readonly Point[], b: readonly Point[]): boolean {
  for (let i = 0; i < a.length; i += 1) {
    const a1 = a[i] as Point;
    const a2 = a[(i + 1) % a.length] as Point;
    for (let j = 0; j < b.length; j += 1) {
      if (segmentsMeet(a1, a2, b[j] as Point, b[(j + 1) % b.length] as Point)) return true;
    }
  }
  // No edges cross: one lies wholly inside the other, or they are apart.
  return (b.length >= 3 && pointInPolygon(a[0] as Point, b)) || (a.length >= 3 && pointInPolygon(b[0] as Point, a));
}

/** The distance between two polygons' outlines (0 when they meet). */
export function polygonDistance(a: readonly Point[], b: readonly Point[]): number {
  if (polygonsMeet(a, b)) return 0;
  let best = Infinity;
  const edges = (from: readonly Point[], to: readonly Point[]) => {
    for (const point of from) {
      for (let j = 0; j < to.length; j += 1) best = Math.min(best, pointSegmentDistance(point, to[j] as Point, to[(j + 1) % to.length] as Point));
    }
  };
  edges(a, b);
  edges(b, a);
  return best;
}

/**
 * A redaction area in user space: a rectangle grown by the padding, or a polygon whose every point within the
 * padding counts (what a stroke of twice the padding with round joins paints).
 */
export interface Area {
  polygon: Point[];
  /** Reach beyond the polygon's outline (polygons); 0 for rectangles (already grown). */
  reach: number;
  /** Bounds including the reach: a quick rejection test. */
  bounds: Rect;
}

export function areaOf(box: BurnBox, padding: number): Area {
  if (box.points.length >= 3) {
    const polygon = box.points.map((point) => ({ x: point.x, y: point.y }));
    const bounds = boundsOf(polygon);
    return { polygon, reach: padding, bounds: { x1: bounds.x1 - padding, y1: bounds.y1 - padding, x2: bounds.x2 + padding, y2: bounds.y2 + padding } };
  }
  const rect = { x1: Math.min(box.x1, box.x2) - padding, y1: Math.min(box.y1, box.y2) - padding, x2: Math.max(box.x1, box.x2) + padding, y2: Math.max(box.y1, box.y2) + padding };
  return { polygon: rectPolygon(rect), reach: 0, bounds: rect };
}

/** Whether a shape (points in user space, e.g. a glyph's quad) meets the area; `grow` widens the shape (strokes). */
export function meets(area: Area, shape: readonly Point[], grow = 0): boolean {
  const bounds = boundsOf(shape);
  if (!overlaps(area.bounds, { x1: bounds.x1 - grow, y1: bounds.y1 - grow, x2: bounds.x2 + grow, y2: bounds.y2 + grow })) return false;
  const reach = area.reach + grow;
  if (reach <= 0) return polygonsMeet(shape, area.polygon);
  return polygonDistance(shape, area.polygon) <= reach;
}

export function meetsAny(areas: readonly Area[], shape: readonly Point[], grow = 0): boolean {
  return areas.some((area) => meets(area, shape, grow));
}
