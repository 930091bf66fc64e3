import { useEffect, useRef, useState } from 'react';
import { getOcrStatus, getOcrText, startOcr, type OcrText } from '../../api/ocr.js';
import { ErrorBanner } from '../../components/ErrorBanner.js';
import { ProgressBar } from '../../components/ProgressBar.js';
import { useLoad } from '../../hooks/useLoad.js';
import { useSessionUser } from '../../session.js';

/** The application API's client polls OCR status at this interval, at most this many times (about 20 min). */
const POLL_MS = 2000;
const MAX_POLLS = 600;

function pageText(text: OcrText, page: number): string | null {
  const found = text.pages.find((entry, index) => (entry.page ?? entry.page_number ?? index + 1) === page);
  return found ? found.text : null;
}

/** Recognised text of the current page, and a button to run OCR with live status. */
export function OcrPanel({ documentId, page }: { documentId: string; page: number }) {
  const user = useSessionUser();
  const text = useLoad((signal) => getOcrText(documentId, user.id, signal), [documentId, user.id]);
  const [running, setRunning] = useState<{ progress: number | null; status: string } | null>(null);
  const [error, setError] = useState<unknown>(null);
  const stopped = useRef(false);
  useEffect(
    () => () => {
      stopped.current = true;
    },
    [],
  );

  const run = async () => {
    setError(null);
    setRunning({ progress: null, status: 'starting' });
    try {
      await startOcr(documentId, user.id);
      for (let attempt = 0; attempt < MAX_POLLS && !stopped.current; attempt += 1) {
        await new Promise((resolve) => window.setTimeout(resolve, POLL_MS));
        const status = await getOcrStatus(documentId, user.id);
        if (status.phase === 'failed') throw new Error(status.message ?? `OCR ${status.status}`);
        if (status.phase === 'completed') {
          setRunning(null);
          text.reload();
          return;
        }
        setRunning({ progress: status.progress, status: status.status || 'running' });
      }
      if (!stopped.current) throw new Error('OCR is taking longer than 20 minutes; check again later');
    } catch (failure) {
      setRunning(null);
      setError(failure);
    }
  };

  const current = text.data ? pageText(text.data, page) : null;
  return (
    <div className="panel-section ocr-panel">
      <div className="panel-toolbar">
        <button type="button" className="button small" onClick={() => void run()} disabled={running !== null}>
          {text.data ? 'Run OCR again' : 'Run OCR'}
        </button>
        {running && <ProgressBar value={running.progress} label="OCR progress" />}
        {running && <span className="muted">{running.status}</span>}
      </div>
      <ErrorBanner error={error ?? text.error} onRetry={error ? () => void run() : text.reload} />
      {text.loading && !text.data && <p className="muted">Loading text…</p>}
      {!text.loading && !text.data && !text.error && <p className="muted">This document has not been through OCR yet.</p>}
      {text.data && (
        <>
          <h3>Page {page}</h3>
          {current ? <pre className="ocr-text" data-testid="ocr-text">{current}</pre> : <p className="muted">No text was recognised on this page.</p>}
        </>
      )}
    </div>
  );
}
