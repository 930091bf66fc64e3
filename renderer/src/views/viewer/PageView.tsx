import { useEffect, useRef, useState, type ReactNode } from 'react';
import type { Matrix } from '../../domain/geometry.js';
import type { PDFDocumentProxy, PDFPageProxy, RenderTask } from './pdf.js';

export interface PageGeometry {
  width: number;
  height: number;
  /** PDF user space → CSS pixels of the rendered page. */
  transform: Matrix;
  /** The page's visible box in PDF user space [x1, y1, x2, y2] (what "full page" covers). */
  view: [number, number, number, number];
}

interface Props {
  pdf: PDFDocumentProxy;
  pageNumber: number;
  scale: number;
  overlay: (geometry: PageGeometry) => ReactNode;
  onError: (error: unknown) => void;
  /**
   * How the overlay measures the page: PDF user space, or (a TIFF page wrapped as a PDF, 1 unit = 1 pixel)
   * the image's pixels with the origin top-left and y down.
   */
  units?: 'pdf' | 'image';
  /** Told the page's geometry once it is laid out (the continuous view sizes its placeholders from it). */
  onGeometry?: (pageNumber: number, geometry: PageGeometry) => void;
}

/** One page rendered sharp at the device's pixel ratio, with the redaction overlay laid over it. */
export function PageView({ pdf, pageNumber, scale, overlay, onError, units = 'pdf', onGeometry }: Props) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const [page, setPage] = useState<PDFPageProxy | null>(null);
  const [geometry, setGeometry] = useState<PageGeometry | null>(null);
  const [rendering, setRendering] = useState(true);

  useEffect(() => {
    let cancelled = false;
    pdf.getPage(pageNumber).then(
      (loaded) => !cancelled && setPage(loaded),
      (error: unknown) => !cancelled && onError(error),
    );
    return () => {
      cancelled = true;
    };
  }, [pdf, pageNumber, onError]);

  useEffect(() => {
    const element = canvas.current;
    if (!page || !element) return;
    const viewport = page.getViewport({ scale });
    const ratio = window.devicePixelRatio || 1;
    element.width = Math.floor(viewport.width * ratio);
    element.height = Math.floor(viewport.height * ratio);
    element.style.width = `${Math.floor(viewport.width)}px`;
    element.style.height = `${Math.floor(viewport.height)}px`;
    const [x1, y1, x2, y2] = page.view as [number, number, number, number];
    const laidOut: PageGeometry =
      units === 'image'
        ? { width: viewport.width, height: viewport.height, transform: [scale, 0, 0, scale, 0, 0], view: [0, 0, x2 - x1, y2 - y1] }
        : { width: viewport.width, height: viewport.height, transform: viewport.transform as unknown as Matrix, view: [x1, y1, x2, y2] };
    setGeometry(laidOut);
    onGeometry?.(pageNumber, laidOut);
    setRendering(true);
    let task: RenderTask | null = page.render({ canvas: element, viewport, ...(ratio !== 1 && { transform: [ratio, 0, 0, ratio, 0, 0] }) });
    task.promise.then(
      () => setRendering(false),
      (error: unknown) => {
        if (error instanceof Error && error.name === 'RenderingCancelledException') return;
        onError(error);
      },
    );
    return () => {
      task?.cancel();
      task = null;
    };
  }, [page, scale, onError, units, onGeometry, pageNumber]);

  return (
    <div className="page-frame" style={geometry ? { width: geometry.width, height: geometry.height } : undefined} aria-busy={rendering} data-page={pageNumber}>
      <canvas ref={canvas} className="page-canvas" role="img" aria-label={`Page ${pageNumber}`} />
      {geometry && overlay(geometry)}
    </div>
  );
}
