import { useEffect, useRef, useState, type MouseEvent as ReactMouseEvent, type PointerEvent as ReactPointerEvent } from 'react';
import type { RedactionKind } from '../../api/types.js';
import { apply, boundsOf, boxFromViewCorners, hasArea, invert, roundBox, roundPoint, simplifyPath, svgPoints, viewRect, type Box, type Point } from '../../domain/geometry.js';
import type { EditorBox } from '../../domain/redaction-editor.js';
import { suggestionKind } from '../../domain/redaction-editor.js';
import { LAYER_COLORS, LAYER_INFO } from './layers.js';
import type { PageGeometry } from './PageView.js';

/** `words`: drag over text; the box snaps to the words touched (DocumentViewer does the snapping). */
export type Tool = 'select' | 'rectangle' | 'words' | 'polygon' | 'freehand' | 'full_page';

export interface Drawn {
  kind: RedactionKind;
  box: Box;
  points: Point[];
}

interface Props {
  geometry: PageGeometry;
  tool: Tool;
  boxes: readonly (EditorBox & { unsaved: boolean })[];
  suggestions: readonly EditorBox[];
  selectedId: string | null;
  onSelect: (redactionId: string | null) => void;
  onDraw: (drawn: Drawn) => void;
}

/** Smallest drag, in screen pixels, that counts as a box rather than a stray click. */
const MIN_DRAG = 3;
/** Freehand strokes are simplified to this tolerance (screen pixels) before they are stored. */
const FREEHAND_TOLERANCE = 1.5;

function local(event: ReactPointerEvent<SVGSVGElement> | ReactMouseEvent<SVGSVGElement>): Point {
  const rect = event.currentTarget.getBoundingClientRect();
  return { x: event.clientX - rect.left, y: event.clientY - rect.top };
}

/**
 * The SVG layer over a rendered page: shows redactions (solid, by layer colour) and suggestions (dashed), and
 * turns pointer input into new boxes in PDF user space.
 */
export function RedactionOverlay({ geometry, tool, boxes, suggestions, selectedId, onSelect, onDraw }: Props) {
  const toDocument = invert(geometry.transform);
  const [drag, setDrag] = useState<{ start: Point; current: Point } | null>(null);
  const [stroke, setStroke] = useState<Point[] | null>(null);
  const [polygon, setPolygon] = useState<Point[]>([]);
  const [hover, setHover] = useState<Point | null>(null);
  const polygonRef = useRef(polygon);
  polygonRef.current = polygon;

  // Leaving the polygon tool (or the page) drops a half-drawn outline.
  useEffect(() => setPolygon([]), [tool, geometry]);

  const finishPolygon = (clicked: readonly Point[]) => {
    setPolygon([]);
    // A double-click also lands as two clicks on the same spot: drop repeated corners.
    const points = clicked.filter((point, index) => index === 0 || Math.hypot(point.x - clicked[index - 1]!.x, point.y - clicked[index - 1]!.y) >= 2);
    if (points.length < 3) return;
    const documentPoints = points.map((point) => roundPoint(apply(toDocument, point)));
    const box = roundBox(boundsOf(documentPoints));
    if (hasArea(box)) onDraw({ kind: 'polygon', box, points: documentPoints });
  };

  useEffect(() => {
    if (tool !== 'polygon') return;
    const onKey = (event: KeyboardEvent) => {
      if (polygonRef.current.length === 0) return;
      if (event.key === 'Enter') {
        event.preventDefault();
        finishPolygon(polygonRef.current);
      } else if (event.key === 'Escape') {
        event.preventDefault();
        event.stopPropagation();
        setPolygon([]);
      } else if (event.key === 'Backspace') {
        event.preventDefault();
        setPolygon((points) => points.slice(0, -1));
      }
    };
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  });

  const onPointerDown = (event: ReactPointerEvent<SVGSVGElement>) => {
    if (event.button !== 0) return;
    const point = local(event);
    if (tool === 'rectangle' || tool === 'words') {
      event.currentTarget.setPointerCapture(event.pointerId);
      setDrag({ start: point, current: point });
    } else if (tool === 'freehand') {
      event.currentTarget.setPointerCapture(event.pointerId);
      setStroke([point]);
    } else if (tool === 'select' && event.target === event.currentTarget) {
      onSelect(null);
    }
  };

  const onPointerMove = (event: ReactPointerEvent<SVGSVGElement>) => {
    const point = local(event);
    if (drag) setDrag({ ...drag, current: point });
    else if (stroke) setStroke([...stroke, point]);
    else if (tool === 'polygon') setHover(point);
  };

  const onPointerUp = (event: ReactPointerEvent<SVGSVGElement>) => {
    const point = local(event);
    if (drag) {
      setDrag(null);
      const [dx, dy] = [Math.abs(point.x - drag.start.x), Math.abs(point.y - drag.start.y)];
      // The words tool takes a flat drag along a line too: it selects by the words touched, not by area.
      const words = tool === 'words';
      if (words ? Math.max(dx, dy) >= MIN_DRAG : dx >= MIN_DRAG && dy >= MIN_DRAG) {
        const box = roundBox(boxFromViewCorners(toDocument, drag.start, point));
        // The words tool needs where the drag began and ended (reading order), not only the rectangle.
        const ends = words ? [drag.start, point].map((entry) => roundPoint(apply(toDocument, entry))) : [];
        if (words || hasArea(box)) onDraw({ kind: 'rectangle', box, points: ends });
      }
    } else if (stroke) {
      setStroke(null);
      const simplified = simplifyPath([...stroke, point], FREEHAND_TOLERANCE);
      const documentPoints = simplified.map((entry) => roundPoint(apply(toDocument, entry)));
      const box = roundBox(boundsOf(documentPoints));
      if (documentPoints.length >= 3 && hasArea(box)) onDraw({ kind: 'freehand', box, points: documentPoints });
    }
  };

  const onClick = (event: ReactMouseEvent<SVGSVGElement>) => {
    if (tool === 'full_page') {
      const [x1, y1, x2, y2] = geometry.view;
      onDraw({ kind: 'rectangle', box: { x1, y1, x2, y2 }, points: [] });
    } else if (tool === 'polygon') {
      const point = local(event);
      const first = polygon[0];
      // Clicking the first corner again closes the shape.
      if (first && polygon.length >= 3 && Math.hypot(point.x - first.x, point.y - first.y) < 8) finishPolygon(polygon);
      else setPolygon([...polygon, point]);
    }
  };

  const onDoubleClick = () => {
    if (tool === 'polygon') finishPolygon(polygon);
  };

  const outline = (box: EditorBox) => (box.kind === 'rectangle' || box.points.length < 3 ? null : svgPoints(geometry.transform, box.points));

  return (
    <svg
      className={`overlay tool-${tool}`}
      width={geometry.width}
      height={geometry.height}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerUp}
      onPointerLeave={() => setHover(null)}
      onClick={onClick}
      onDoubleClick={onDoubleClick}
      data-testid="redaction-overlay"
      aria-label="Redaction drawing area"
      role="application"
    >
      {suggestions.map((box) => {
        const rect = viewRect(geometry.transform, box.box);
        return (
          <g key={box.redactionId} className={`suggestion${box.redactionId === selectedId ? ' selected' : ''}`} data-redaction-id={box.redactionId}>
            <rect x={rect.x} y={rect.y} width={rect.width} height={rect.height} />
            <title>{`Suggestion: ${suggestionKind(box)} (${LAYER_INFO[box.layer].exemption})`}</title>
          </g>
        );
      })}
      {boxes.map((box) => {
        const rect = viewRect(geometry.transform, box.box);
        const points = outline(box);
        const color = LAYER_COLORS[box.layer];
        const selected = box.redactionId === selectedId;
        return (
          <g
            key={box.redactionId}
            className={`redaction${selected ? ' selected' : ''}${box.unsaved ? ' unsaved' : ''}`}
            style={{ color }}
            data-redaction-id={box.redactionId}
            data-layer={box.layer}
            onPointerDown={(event) => {
              if (tool !== 'select') return;
              event.stopPropagation();
              onSelect(box.redactionId);
            }}
          >
            {points ? <polygon points={points} /> : <rect x={rect.x} y={rect.y} width={rect.width} height={rect.height} />}
            {/* Outside the box (above it, or below at the page's top edge): the label never hides the text under review. */}
            {rect.width > 20 && (
              <text x={rect.x} y={rect.y > 12 ? rect.y - 3 : rect.y + rect.height + 11} className="redaction-label">
                {LAYER_INFO[box.layer].exemption}
              </text>
            )}
            <title>{`${box.layer} ${LAYER_INFO[box.layer].exemption}${box.reason ? ` — ${box.reason}` : ''}${box.unsaved ? ' (not saved yet)' : ''}`}</title>
          </g>
        );
      })}
      {drag && (() => {
        const box = boundsOf([drag.start, drag.current]);
        return <rect className="draft" x={box.x1} y={box.y1} width={box.x2 - box.x1} height={box.y2 - box.y1} />;
      })()}
      {stroke && stroke.length > 1 && <polyline className="draft" points={stroke.map((point) => `${point.x},${point.y}`).join(' ')} />}
      {polygon.length > 0 && (
        <polyline className="draft" points={[...polygon, ...(hover ? [hover] : [])].map((point) => `${point.x},${point.y}`).join(' ')} />
      )}
      {polygon.map((point, index) => (
        <circle key={index} className="vertex" cx={point.x} cy={point.y} r={index === 0 ? 5 : 3} />
      ))}
    </svg>
  );
}
