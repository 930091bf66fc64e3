import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode, type RefObject } from 'react';
import { PageView, type PageGeometry } from './PageView.js';
import type { PDFDocumentProxy } from './pdf.js';

/** Gap between pages, CSS pixels. */
const GAP = 16;
/** Pages rendered beyond the viewport on each side: enough for smooth scrolling, few enough for 1,000 pages. */
const OVERSCAN = 2;

interface Props {
  pdf: PDFDocumentProxy;
  scale: number;
  units: 'pdf' | 'image';
  /** The element that scrolls (the stage). */
  scroller: RefObject<HTMLDivElement | null>;
  page: number;
  /** The page at the top of the viewport, reported as the user scrolls. */
  onVisiblePage: (page: number) => void;
  overlayFor: (pageNumber: number) => (geometry: PageGeometry) => ReactNode;
  onError: (error: unknown) => void;
}

/** First index whose offset is greater than `value` (offsets ascending). */
function upperBound(offsets: readonly number[], value: number): number {
  let low = 0;
  let high = offsets.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (offsets[middle]! <= value) low = middle + 1;
    else high = middle;
  }
  return low;
}

/**
 * Every page of the document in one scrolling column. Placeholders take each page's size (page 1's until a
 * page has been opened), so the scroll height is right from the start; only pages near the viewport are
 * rendered, so a 1,000-page document costs a handful of canvases.
 */
export function ContinuousPages({ pdf, scale, units, scroller, page, onVisiblePage, overlayFor, onError }: Props) {
  const count = pdf.numPages;
  const [sizes, setSizes] = useState<Map<number, { width: number; height: number }>>(new Map());
  const [fallback, setFallback] = useState<{ width: number; height: number } | null>(null);
  const [window_, setWindow] = useState<{ first: number; last: number }>({ first: 1, last: Math.min(count, 3) });
  // The page last reported or scrolled to; -1 until the first scroll to `page`.
  const reported = useRef(-1);

  useEffect(() => {
    let cancelled = false;
    pdf.getPage(1).then((first) => {
      const { width, height } = first.getViewport({ scale: 1 });
      if (!cancelled) setFallback({ width, height });
    }, onError);
    return () => {
      cancelled = true;
    };
  }, [pdf, onError]);

  const layout = useMemo(() => {
    const base = fallback ?? { width: 612, height: 792 };
    const tops: number[] = [];
    let y = 0;
    let width = 0;
    for (let number = 1; number <= count; number += 1) {
      const size = sizes.get(number) ?? base;
      tops.push(y);
      y += Math.floor(size.height * scale) + GAP;
      width = Math.max(width, Math.floor(size.width * scale));
    }
    return { tops, height: Math.max(0, y - GAP), width };
  }, [count, sizes, fallback, scale]);

  // Sizes of the pages actually opened, so their placeholders match once they have been seen.
  const noteSize = useCallback(
    (number: number, geometry: PageGeometry) => {
      const size = { width: geometry.width / scale, height: geometry.height / scale };
      setSizes((previous) => {
        const known = previous.get(number);
        if (known && Math.abs(known.width - size.width) < 0.5 && Math.abs(known.height - size.height) < 0.5) return previous;
        return new Map(previous).set(number, size);
      });
    },
    [scale],
  );

  // A page chosen elsewhere (page field, keys, thumbnails, links) is scrolled to; one reached by scrolling is not.
  useEffect(() => {
    const element = scroller.current;
    if (!element || page === reported.current) return;
    reported.current = page;
    element.scrollTop = layout.tops[page - 1] ?? 0;
  }, [page, layout, scroller]);

  // Keep the page in view when the zoom changes the layout.
  const previousScale = useRef(scale);
  useEffect(() => {
    if (previousScale.current === scale) return;
    previousScale.current = scale;
    const element = scroller.current;
    if (element) element.scrollTop = layout.tops[reported.current - 1] ?? 0;
  }, [scale, layout, scroller]);

  // Declared after the two above: on mount and on zoom the position is set first, then read.
  useEffect(() => {
    const element = scroller.current;
    if (!element) return;
    const update = () => {
      const top = element.scrollTop;
      const bottom = top + element.clientHeight;
      const first = Math.max(1, upperBound(layout.tops, top));
      const last = Math.max(first, upperBound(layout.tops, bottom));
      setWindow((previous) => (previous.first === first && previous.last === last ? previous : { first, last }));
      // The current page: the one covering the upper third of the viewport.
      const current = Math.max(1, upperBound(layout.tops, top + element.clientHeight / 3));
      if (current !== reported.current) {
        reported.current = current;
        onVisiblePage(current);
      }
    };
    update();
    element.addEventListener('scroll', update, { passive: true });
    return () => element.removeEventListener('scroll', update);
  }, [scroller, layout, onVisiblePage]);

  const rendered: number[] = [];
  for (let number = Math.max(1, window_.first - OVERSCAN); number <= Math.min(count, window_.last + OVERSCAN); number += 1) rendered.push(number);

  return (
    <div className="continuous-pages" style={{ height: layout.height, width: layout.width }} data-testid="continuous-pages" data-page-count={count}>
      {rendered.map((number) => {
        const overlay = overlayFor(number);
        return (
          <div key={number} className="continuous-slot" style={{ top: layout.tops[number - 1] }}>
            <PageView
              pdf={pdf}
              pageNumber={number}
              scale={scale}
              units={units}
              onError={onError}
              overlay={overlay}
              onGeometry={noteSize}
            />
          </div>
        );
      })}
    </div>
  );
}
