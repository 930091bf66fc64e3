import { useState } from 'react';
import { generateSummary, getLatestSummary } from '../../api/summary.js';
import { ErrorBanner } from '../../components/ErrorBanner.js';
import { ProgressBar } from '../../components/ProgressBar.js';
import { useLoad } from '../../hooks/useLoad.js';
import { useSessionUser } from '../../session.js';

/** The document's latest summary, and a button to write a new one. */
export function SummaryPanel({ documentId }: { documentId: string }) {
  const user = useSessionUser();
  const summary = useLoad((signal) => getLatestSummary(documentId, user.id, signal), [documentId, user.id]);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);

  const generate = async () => {
    setBusy(true);
    setError(null);
    try {
      const text = await generateSummary(documentId, user.id);
      summary.setData(text);
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="panel-section summary-panel">
      <div className="panel-toolbar">
        <button type="button" className="button small" onClick={() => void generate()} disabled={busy}>
          {summary.data ? 'Summarize again' : 'Summarize'}
        </button>
        {busy && <ProgressBar value={null} label="Writing the summary" />}
      </div>
      <ErrorBanner error={error ?? summary.error} onRetry={error ? () => void generate() : summary.reload} />
      {summary.data ? (
        <div className="summary-text" data-testid="summary-text">
          {summary.data.split(/\n{2,}/).map((paragraph, index) => (
            <p key={index}>{paragraph}</p>
          ))}
        </div>
      ) : (
        !summary.loading && !summary.error && <p className="muted">No summary yet.</p>
      )}
    </div>
  );
}
