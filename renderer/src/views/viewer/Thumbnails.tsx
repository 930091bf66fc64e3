import { useEffect, useRef, useState } from 'react';
import type { PDFDocumentProxy } from './pdf.js';

const THUMB_WIDTH = 112;

interface Props {
  pdf: PDFDocumentProxy;
  current: number;
  /** Pages with redactions or suggestions, marked on their thumbnail. */
  marked: ReadonlySet<number>;
  /** The exemption a page is withheld under in full, or null: marked, since the requester gets a placeholder. */
  withheldAs?: (page: number) => string | null;
  onPick: (page: number) => void;
}

export function Thumbnails({ pdf, current, marked, withheldAs = () => null, onPick }: Props) {
  const pages = Array.from({ length: pdf.numPages }, (_, index) => index + 1);
  return (
    <nav className="thumbnails" aria-label="Pages">
      <ol>
        {pages.map((page) => {
          const withheld = withheldAs(page);
          return (
          <li key={page}>
            <button
              type="button"
              className={`${page === current ? 'thumb current' : 'thumb'}${withheld ? ' withheld' : ''}`}
              aria-current={page === current ? 'page' : undefined}
              aria-label={`Page ${page}${withheld ? `, withheld in full under ${withheld}` : ''}${marked.has(page) ? ', has redactions' : ''}`}
              onClick={() => onPick(page)}
            >
              <Thumbnail pdf={pdf} page={page} scrollIntoView={page === current} />
              {withheld && (
                <span className="thumb-withheld" aria-hidden="true">
                  Withheld {withheld}
                </span>
              )}
              <span className="thumb-number">
                {page}
                {marked.has(page) && <span className="thumb-mark" aria-hidden="true" />}
              </span>
            </button>
          </li>
          );
        })}
      </ol>
    </nav>
  );
}

/** Renders only once scrolled near view: a 500-page file must not render 500 pages up front. */
function Thumbnail({ pdf, page, scrollIntoView }: { pdf: PDFDocumentProxy; page: number; scrollIntoView: boolean }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const [visible, setVisible] = useState(false);

  useEffect(() => {
    const element = canvas.current;
    if (!element) return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting)) {
        setVisible(true);
        observer.disconnect();
      }
    }, { rootMargin: '400px' });
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  useEffect(() => {
    if (scrollIntoView) canvas.current?.scrollIntoView({ block: 'nearest' });
  }, [scrollIntoView]);

  useEffect(() => {
    const element = canvas.current;
    if (!visible || !element) return;
    let cancelled = false;
    let cancel: (() => void) | null = null;
    pdf.getPage(page).then((loaded) => {
      if (cancelled) return;
      const base = loaded.getViewport({ scale: 1 });
      const viewport = loaded.getViewport({ scale: THUMB_WIDTH / base.width });
      element.width = Math.floor(viewport.width);
      element.height = Math.floor(viewport.height);
      const task = loaded.render({ canvas: element, viewport });
      cancel = () => task.cancel();
      task.promise.catch(() => undefined);
    }, () => undefined);
    return () => {
      cancelled = true;
      cancel?.();
    };
  }, [pdf, page, visible]);

  return <canvas ref={canvas} className="thumb-canvas" width={THUMB_WIDTH} height={Math.round(THUMB_WIDTH * 1.3)} aria-hidden="true" />;
}
