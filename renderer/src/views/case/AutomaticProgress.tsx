import type { CaseProcessing } from '../../api/processing.js';
import { ErrorBanner } from '../../components/ErrorBanner.js';
import { ProgressBar } from '../../components/ProgressBar.js';
import { automaticEntries, progressFraction, progressLine } from '../../domain/processing.js';

// The case's automatic processing (server-side chains of scan → OCR → detection): progress with an ETA and
// the failures by file name and reason. Per-document states are shown in the documents' rows.

export function AutomaticProgress({ progress, error }: { progress: CaseProcessing | null; error: unknown }) {
  if (!progress) return <ErrorBanner error={error} />;
  const entries = automaticEntries(progress);
  if (entries.length === 0) {
    return progress.auto_process ? null : (
      <p className="muted" data-testid="auto-off">
        Automatic processing is off for this organization: new documents wait for Process all or their own buttons.
      </p>
    );
  }
  const settled = progress.in_progress === 0 && !entries.some((entry) => entry.state === 'waiting');
  return (
    <div className="automatic-progress" data-testid="automatic-progress" data-active={!settled}>
      <ProgressBar value={progressFraction(progress)} label="Automatic processing" tone={settled ? (progress.failed > 0 ? 'error' : 'done') : 'normal'} />
      <p className="muted" role="status" aria-label="Automatic processing status">
        {progressLine(progress)}
      </p>
      {progress.failures.length > 0 && (
        <ul className="process-list failures" aria-label="Processing failures">
          {progress.failures.map((failure) => (
            <li key={failure.document_id} data-document-id={failure.document_id}>
              <strong>{failure.file_name}</strong>: {failure.reason}
            </li>
          ))}
        </ul>
      )}
      <ErrorBanner error={error} />
    </div>
  );
}
