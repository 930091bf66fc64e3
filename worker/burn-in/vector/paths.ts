import type { Rect } from '../geometry.js';
import { Bail } from './bail.js';
import { apply, boundsOf, maxScale, meetsAny, rectPolygon, type Area, type Matrix, type Point } from './geometry.js';
import type { Operation } from './tokens.js';

// Paths of a content stream: where they land, the clipping they set, and whether a painted one lies under a
// box (plain rules and frames may; anything drawn of curves or many segments makes the page bail).

/** What the graphics state says about paths; `clip` is updated by clipping paths. */
export interface PathGraphics {
  ctm: Matrix;
  lineWidth: number;
  /** Bounds of the clipping path in user space; null: the whole plane. */
  clip: Rect | null;
}

interface PathState {
  /** Each segment as its points in user space (curves: the control points). */
  pieces: Point[][];
  lines: number;
  curves: boolean;
  current: Point | null;
  start: Point | null;
  clip: boolean;
}

const PATH_PAINTING = new Set(['S', 's', 'f', 'F', 'f*', 'B', 'B*', 'b', 'b*', 'n']);
const STROKING = new Set(['S', 's', 'B', 'B*', 'b', 'b*']);
const CLOSING = new Set(['s', 'b', 'b*']);
/** Paths with no curve and at most this many straight segments (rules, underlines, frames) may lie under a box. */
const MAX_PLAIN_SEGMENTS = 4;

function newPath(): PathState {
  return { pieces: [], lines: 0, curves: false, current: null, start: null, clip: false };
}

export function numbers(operation: Operation, count: number): number[] {
  const values = operation.operands.slice(-count);
  if (values.length !== count || values.some((operand) => operand.type !== 'number')) throw new Bail(`the operator ${operation.operator} has malformed operands`);
  return values.map((operand) => (operand as { value: number }).value);
}

export function intersectRects(a: Rect | null, b: Rect): Rect {
  if (!a) return b;
  return { x1: Math.max(a.x1, b.x1), y1: Math.max(a.y1, b.y1), x2: Math.min(a.x2, b.x2), y2: Math.min(a.y2, b.y2) };
}

export class PathTracker {
  private path = newPath();

  constructor(private readonly areas: readonly Area[]) {}

  /** Runs a path construction or painting operator (anything else is ignored). */
  run(operation: Operation, state: PathGraphics): void {
    const { operator } = operation;
    const path = this.path;
    const point = (x: number, y: number) => apply(state.ctm, x, y);
    switch (operator) {
      case 'm': {
        const [x, y] = numbers(operation, 2) as [number, number];
        path.current = point(x, y);
        path.start = path.current;
        return;
      }
      case 'l': {
        const [x, y] = numbers(operation, 2) as [number, number];
        const next = point(x, y);
        path.pieces.push([path.current ?? next, next]);
        path.lines += 1;
        path.current = next;
        return;
      }
      case 'c': {
        const [x1, y1, x2, y2, x3, y3] = numbers(operation, 6) as [number, number, number, number, number, number];
        this.curve(point(x1, y1), point(x2, y2), point(x3, y3));
        return;
      }
      case 'v': {
        const [x2, y2, x3, y3] = numbers(operation, 4) as [number, number, number, number];
        this.curve(path.current ?? point(x2, y2), point(x2, y2), point(x3, y3));
        return;
      }
      case 'y': {
        const [x1, y1, x3, y3] = numbers(operation, 4) as [number, number, number, number];
        const end = point(x3, y3);
        this.curve(point(x1, y1), end, end);
        return;
      }
      case 'h':
        this.closeSubpath();
        return;
      case 're': {
        const [x, y, width, height] = numbers(operation, 4) as [number, number, number, number];
        const corners = [point(x, y), point(x + width, y), point(x + width, y + height), point(x, y + height)];
        for (let side = 0; side < 4; side += 1) path.pieces.push([corners[side] as Point, corners[(side + 1) % 4] as Point]);
        path.current = corners[0] as Point;
        path.start = path.current;
        return;
      }
      case 'W':
      case 'W*':
        path.clip = true;
        return;
      default:
        if (PATH_PAINTING.has(operator)) this.paint(operator, state);
    }
  }

  private curve(control1: Point, control2: Point, end: Point): void {
    const path = this.path;
    const start = path.current ?? control1;
    path.pieces.push(rectPolygon(boundsOf([start, control1, control2, end])));
    path.curves = true;
    path.current = end;
  }

  private closeSubpath(): void {
    const path = this.path;
    if (path.current && path.start && (path.current.x !== path.start.x || path.current.y !== path.start.y)) {
      path.pieces.push([path.current, path.start]);
      path.lines += 1;
    }
    path.current = path.start;
  }

  private paint(operator: string, state: PathGraphics): void {
    if (CLOSING.has(operator)) this.closeSubpath();
    const path = this.path;
    this.path = newPath();
    if (path.clip && path.pieces.length > 0) state.clip = intersectRects(state.clip, boundsOf(path.pieces.flat()));
    if (operator === 'n' || (!path.curves && path.lines <= MAX_PLAIN_SEGMENTS)) return;
    // Strokes reach half their width beyond the path, caps and joins somewhat more.
    const grow = STROKING.has(operator) ? Math.max(state.lineWidth * maxScale(state.ctm), 1) : 0;
    for (const piece of path.pieces) {
      if (meetsAny(this.areas, piece, grow)) throw new Bail(path.curves ? 'a curved path lies under a box' : 'a path of many segments lies under a box');
    }
  }
}
