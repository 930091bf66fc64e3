import type { Rect } from '../geometry.js';
import { apply, type Matrix, type Point } from './geometry.js';
import { formatNumber, formatPrecise } from './serialize.js';

// A glyph a box only cuts keeps its outside part: its outline, flattened and cut by the boxes in the file itself
// (a clip would leave the whole outline in the content, recoverable), is filled where the glyph was. The black is
// then exactly the box. Only what lies outside every box is written.

/** Flatness of curves, in user-space points (1/100 pt: below a pixel at any sane resolution). */
const TOLERANCE = 0.01;
const MAX_DEPTH = 10;

const MOVE = 0;
const LINE = 1;
const CURVE = 2;
const QUADRATIC = 3;
const CLOSE = 4;

type Contour = Point[];

function cubic(out: Point[], p0: Point, p1: Point, p2: Point, p3: Point, depth: number): void {
  // Flat enough when the control points lie within the tolerance of the chord.
  const dx = p3.x - p0.x;
  const dy = p3.y - p0.y;
  const d1 = Math.abs((p1.x - p3.x) * dy - (p1.y - p3.y) * dx);
  const d2 = Math.abs((p2.x - p3.x) * dy - (p2.y - p3.y) * dx);
  if (depth >= MAX_DEPTH || (d1 + d2) * (d1 + d2) <= TOLERANCE * TOLERANCE * (dx * dx + dy * dy) || (dx === 0 && dy === 0 && Math.hypot(p1.x - p0.x, p1.y - p0.y) + Math.hypot(p2.x - p0.x, p2.y - p0.y) <= TOLERANCE)) {
    out.push(p3);
    return;
  }
  const mid = (a: Point, b: Point): Point => ({ x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 });
  const p01 = mid(p0, p1);
  const p12 = mid(p1, p2);
  const p23 = mid(p2, p3);
  const p012 = mid(p01, p12);
  const p123 = mid(p12, p23);
  const centre = mid(p012, p123);
  cubic(out, p0, p01, p012, centre, depth + 1);
  cubic(out, centre, p123, p23, p3, depth + 1);
}

/**
 * A pdf.js glyph outline (DrawOPS, glyph space) as closed polygons in user space through `matrix`. null when the
 * outline holds an operation it does not know.
 */
export function flattenOutline(path: ArrayLike<number>, matrix: Matrix): Contour[] | null {
  const contours: Contour[] = [];
  let current: Contour | null = null;
  const at = (index: number): Point => apply(matrix, path[index] as number, path[index + 1] as number);
  for (let index = 0; index < path.length; ) {
    const op = path[index++];
    if (op === MOVE) {
      current = [at(index)];
      contours.push(current);
      index += 2;
    } else if (op === LINE) {
      if (!current) return null;
      current.push(at(index));
      index += 2;
    } else if (op === CURVE || op === QUADRATIC) {
      if (!current) return null;
      const start = current[current.length - 1] as Point;
      if (op === CURVE) {
        cubic(current, start, at(index), at(index + 2), at(index + 4), 0);
        index += 6;
      } else {
        // A quadratic as the cubic with the same curve.
        const control = at(index);
        const end = at(index + 2);
        const c1 = { x: start.x + (2 / 3) * (control.x - start.x), y: start.y + (2 / 3) * (control.y - start.y) };
        const c2 = { x: end.x + (2 / 3) * (control.x - end.x), y: end.y + (2 / 3) * (control.y - end.y) };
        cubic(current, start, c1, c2, end, 0);
        index += 4;
      }
    } else if (op === CLOSE) {
      current = null;
    } else return null;
  }
  return contours.filter((contour) => contour.length >= 3);
}

type Edge = { inside: (point: Point) => boolean; cross: (a: Point, b: Point) => Point };

function edgeX(x: number, keepBelow: boolean): Edge {
  return {
    inside: (point) => (keepBelow ? point.x <= x : point.x >= x),
    cross: (a, b) => ({ x, y: a.y + ((x - a.x) * (b.y - a.y)) / (b.x - a.x) }),
  };
}

function edgeY(y: number, keepBelow: boolean): Edge {
  return {
    inside: (point) => (keepBelow ? point.y <= y : point.y >= y),
    cross: (a, b) => ({ x: a.x + ((y - a.y) * (b.x - a.x)) / (b.y - a.y), y }),
  };
}

/** Sutherland–Hodgman against a convex region (half-planes): the winding of every point inside it is kept. */
function clipContour(contour: Contour, edges: readonly Edge[]): Contour {
  let points = contour;
  for (const edge of edges) {
    if (points.length === 0) break;
    const out: Point[] = [];
    for (let index = 0; index < points.length; index += 1) {
      const current = points[index] as Point;
      const previous = points[(index + points.length - 1) % points.length] as Point;
      const currentIn = edge.inside(current);
      if (currentIn !== edge.inside(previous)) out.push(edge.cross(previous, current));
      if (currentIn) out.push(current);
    }
    points = out;
  }
  return points;
}

function area(contour: Contour): number {
  let sum = 0;
  for (let index = 0; index < contour.length; index += 1) {
    const a = contour[index] as Point;
    const b = contour[(index + 1) % contour.length] as Point;
    sum += a.x * b.y - b.x * a.y;
  }
  return sum / 2;
}

/**
 * The contours less the rectangle: cut into the four regions around it (left, right, below, above; disjoint but
 * for their borders), so the parts, filled together with the nonzero rule, cover what the glyph covers there.
 */
export function subtractRect(contours: readonly Contour[], rect: Rect): Contour[] {
  const regions: Edge[][] = [
    [edgeX(rect.x1, true)],
    [edgeX(rect.x2, false)],
    [edgeX(rect.x1, false), edgeX(rect.x2, true), edgeY(rect.y1, true)],
    [edgeX(rect.x1, false), edgeX(rect.x2, true), edgeY(rect.y2, false)],
  ];
  const out: Contour[] = [];
  for (const contour of contours) {
    for (const region of regions) {
      const clipped = clipContour(contour, region);
      if (clipped.length >= 3 && Math.abs(area(clipped)) > 1e-9) out.push(clipped);
    }
  }
  return out;
}

/** A fill of the parts (nonzero, as glyphs are filled), drawn in default user space from a state whose CTM is `ctm`. */
export function piecesContent(glyphs: readonly Contour[][], inverseCtm: Matrix): Uint8Array {
  const lines = ['q', `${inverseCtm.map(formatPrecise).join(' ')} cm`];
  for (const contours of glyphs) {
    for (const contour of contours) {
      contour.forEach((point, index) => lines.push(`${formatNumber(point.x)} ${formatNumber(point.y)} ${index === 0 ? 'm' : 'l'}`));
      lines.push('h');
    }
    lines.push('f');
  }
  lines.push('Q');
  return Buffer.from(`${lines.join('\n')}\n`, 'latin1');
}

/** The inverse of an affine matrix; null when it is singular. */
export function invert(matrix: Matrix): Matrix | null {
  const [a, b, c, d, e, f] = matrix;
  const det = a * d - b * c;
  if (!Number.isFinite(det) || Math.abs(det) < 1e-12) return null;
  return [d / det, -b / det, -c / det, a / det, (c * f - d * e) / det, (b * e - a * f) / det];
}
