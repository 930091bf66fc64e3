// Geometry of the viewer: PDF user space (points, y up) ↔ the rendered page (CSS pixels, y down), through
// pdf.js's viewport transform. Pure functions, tested under Node.

export interface Point {
  x: number;
  y: number;
}

export interface Box {
  x1: number;
  y1: number;
  x2: number;
  y2: number;
}

/** An affine transform [a, b, c, d, e, f] as pdf.js uses: x' = a·x + c·y + e, y' = b·x + d·y + f. */
export type Matrix = readonly [number, number, number, number, number, number];

export function apply(matrix: Matrix, point: Point): Point {
  const [a, b, c, d, e, f] = matrix;
  return { x: a * point.x + c * point.y + e, y: b * point.x + d * point.y + f };
}

export function invert(matrix: Matrix): Matrix {
  const [a, b, c, d, e, f] = matrix;
  const determinant = a * d - b * c;
  if (determinant === 0) throw new Error('the page transform cannot be inverted');
  return [d / determinant, -b / determinant, -c / determinant, a / determinant, (c * f - d * e) / determinant, (b * e - a * f) / determinant];
}

export function boundsOf(points: readonly Point[]): Box {
  let x1 = Infinity;
  let y1 = Infinity;
  let x2 = -Infinity;
  let y2 = -Infinity;
  for (const point of points) {
    x1 = Math.min(x1, point.x);
    y1 = Math.min(y1, point.y);
    x2 = Math.max(x2, point.x);
    y2 = Math.max(y2, point.y);
  }
  return { x1, y1, x2, y2 };
}

/** The document-space box spanned by two corners given in view space (any drag direction, any rotation). */
export function boxFromViewCorners(toDocument: Matrix, start: Point, end: Point): Box {
  return boundsOf([apply(toDocument, start), apply(toDocument, end), apply(toDocument, { x: start.x, y: end.y }), apply(toDocument, { x: end.x, y: start.y })]);
}

/** The view-space rectangle (x, y, width, height) of a document box. */
export function viewRect(toView: Matrix, box: Box): { x: number; y: number; width: number; height: number } {
  const bounds = boundsOf([
    apply(toView, { x: box.x1, y: box.y1 }),
    apply(toView, { x: box.x2, y: box.y2 }),
    apply(toView, { x: box.x1, y: box.y2 }),
    apply(toView, { x: box.x2, y: box.y1 }),
  ]);
  return { x: bounds.x1, y: bounds.y1, width: bounds.x2 - bounds.x1, height: bounds.y2 - bounds.y1 };
}

export function hasArea(box: Box): boolean {
  return Number.isFinite(box.x1) && Number.isFinite(box.y2) && box.x2 > box.x1 && box.y2 > box.y1;
}

function distanceToSegment(point: Point, start: Point, end: Point): number {
  const dx = end.x - start.x;
  const dy = end.y - start.y;
  const lengthSquared = dx * dx + dy * dy;
  if (lengthSquared === 0) return Math.hypot(point.x - start.x, point.y - start.y);
  const t = Math.max(0, Math.min(1, ((point.x - start.x) * dx + (point.y - start.y) * dy) / lengthSquared));
  return Math.hypot(point.x - (start.x + t * dx), point.y - (start.y + t * dy));
}

/** Ramer–Douglas–Peucker: drops points closer than `tolerance` to the simplified line (freehand strokes). */
export function simplifyPath(points: readonly Point[], tolerance: number): Point[] {
  if (points.length <= 2) return [...points];
  const keep = new Uint8Array(points.length);
  keep[0] = 1;
  keep[points.length - 1] = 1;
  const stack: [number, number][] = [[0, points.length - 1]];
  while (stack.length > 0) {
    const [first, last] = stack.pop()!;
    let farthest = -1;
    let farthestDistance = tolerance;
    for (let index = first + 1; index < last; index += 1) {
      const distance = distanceToSegment(points[index]!, points[first]!, points[last]!);
      if (distance > farthestDistance) {
        farthest = index;
        farthestDistance = distance;
      }
    }
    if (farthest >= 0) {
      keep[farthest] = 1;
      stack.push([first, farthest], [farthest, last]);
    }
  }
  return points.filter((_, index) => keep[index] === 1);
}

/** Rounds to 1/100 point: finer than any printer, and keeps stored numbers short. */
export function roundPoint(point: Point): Point {
  return { x: Math.round(point.x * 100) / 100, y: Math.round(point.y * 100) / 100 };
}

export function roundBox(box: Box): Box {
  return { x1: Math.floor(box.x1 * 100) / 100, y1: Math.floor(box.y1 * 100) / 100, x2: Math.ceil(box.x2 * 100) / 100, y2: Math.ceil(box.y2 * 100) / 100 };
}

/** SVG `points` attribute of an outline given in document space. */
export function svgPoints(toView: Matrix, points: readonly Point[]): string {
  return points.map((point) => apply(toView, point)).map((point) => `${point.x.toFixed(1)},${point.y.toFixed(1)}`).join(' ');
}
