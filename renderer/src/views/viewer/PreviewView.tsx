import { useEffect, useState } from 'react';
import { ApiError } from '../../api/errors.js';
import { ErrorBanner } from '../../components/ErrorBanner.js';
import { PageView } from './PageView.js';
import { openPdf, type PDFDocumentProxy } from './pdf.js';

/** The page as the server's burn-in would release it now (a one-page PDF, GET …/pages/{n}/preview). */
async function fetchPreview(documentId: string, page: number, signal: AbortSignal): Promise<Uint8Array> {
  const response = await fetch(`/api/documents/${encodeURIComponent(documentId)}/pages/${page}/preview`, { credentials: 'same-origin', signal });
  if (!response.ok) {
    const body = (await response.json().catch(() => null)) as Record<string, unknown> | null;
    const message = typeof body?.message === 'string' ? body.message : `the preview could not be made (${response.status})`;
    throw new ApiError(response.status, typeof body?.code === 'string' ? body.code : 'preview_failed', message, body);
  }
  return new Uint8Array(await response.arrayBuffer());
}

interface Props {
  documentId: string;
  page: number;
  /** The exemption the page is withheld under in full: the server previews the placeholder page. */
  withheld?: string | null;
  /** Width the page is fitted to, or null for `scale`. */
  fitWidth: number | null;
  scale: number;
  /** Changes that are not saved yet are not in the preview: say so. */
  unsaved: number;
}

const noOverlay = () => null;

export function PreviewView({ documentId, page, withheld = null, fitWidth, scale, unsaved }: Props) {
  const [pdf, setPdf] = useState<PDFDocumentProxy | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [width, setWidth] = useState<number | null>(null);
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    const controller = new AbortController();
    let destroy: (() => void) | null = null;
    setPdf(null);
    setError(null);
    fetchPreview(documentId, page, controller.signal)
      .then((bytes) => {
        if (controller.signal.aborted) return null;
        const opened = openPdf(bytes);
        destroy = opened.destroy;
        return opened.promise;
      })
      .then(async (loaded) => {
        if (!loaded || controller.signal.aborted) return;
        setWidth((await loaded.getPage(1)).getViewport({ scale: 1 }).width);
        setPdf(loaded);
      })
      .catch((failure: unknown) => !controller.signal.aborted && setError(failure));
    return () => {
      controller.abort();
      destroy?.();
    };
  }, [documentId, page, attempt, withheld]);

  const shown = fitWidth && width ? Math.max(0.25, Math.min(4, fitWidth / width)) : scale;
  return (
    <div className="preview-pane" data-testid="release-preview">
      <p className="preview-note" role="status">
        {withheld ? `Page ${page} is withheld in full under ${withheld}: the requester gets this placeholder page instead.` : `Page ${page} as it will be released: accepted redactions burned in by the export.`}
        {unsaved > 0 && <strong> {unsaved} unsaved change{unsaved === 1 ? ' is' : 's are'} not shown; save to include them.</strong>}
      </p>
      <ErrorBanner error={error} onRetry={() => setAttempt((value) => value + 1)} />
      {!pdf && !error && <p className="muted stage-note">Burning page {page}…</p>}
      {pdf && <PageView key={`${page}-${attempt}`} pdf={pdf} pageNumber={1} scale={shown} overlay={noOverlay} onError={setError} />}
    </div>
  );
}
