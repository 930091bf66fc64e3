import { useState } from 'react';
import { newIdempotencyKey } from '../../api/http.js';
import { isFinished, startJob } from '../../api/jobs.js';
import type { RedactionTemplate } from '../../api/templates.js';
import type { Document, Job, JobKind } from '../../api/types.js';
import { ErrorBanner } from '../../components/ErrorBanner.js';
import { ProgressBar } from '../../components/ProgressBar.js';
import type { JobTracker } from '../../hooks/useJobTracker.js';
import { jobOutcome } from '../../domain/jobs.js';

const BUTTONS: { kind: JobKind; label: string; title: string }[] = [
  { kind: 'scan', label: 'Scan', title: 'Check the file for active content and damage' },
  { kind: 'ocr', label: 'OCR', title: 'Recognise the text of scanned pages' },
  { kind: 'detection', label: 'Detect', title: 'Find personal information and suggest redactions' },
  { kind: 'summary', label: 'Summarize', title: 'Write a short summary of the document' },
];

interface Props {
  document: Document;
  tracker: JobTracker;
  templates: readonly RedactionTemplate[];
  /** The server lets this user start processing; otherwise only the jobs' states show. */
  canStart?: boolean;
}

/** Start buttons for a document's processing jobs, each with the live state of its latest run. */
export function JobControls({ document, tracker, templates, canStart = true }: Props) {
  const [error, setError] = useState<unknown>(null);
  const [starting, setStarting] = useState<JobKind | null>(null);
  const [templateId, setTemplateId] = useState('');
  const [keys, setKeys] = useState<Partial<Record<JobKind, string>>>({});

  const start = async (kind: JobKind) => {
    const key = keys[kind] ?? newIdempotencyKey();
    setKeys((previous) => ({ ...previous, [kind]: key }));
    setStarting(kind);
    setError(null);
    try {
      const options = kind === 'detection' && templateId ? { template_id: templateId } : undefined;
      tracker.track(await startJob(document.id, kind, options, key));
      setKeys((previous) => ({ ...previous, [kind]: undefined }));
    } catch (failure) {
      setError(failure);
    } finally {
      setStarting(null);
    }
  };

  return (
    <div className="job-controls">
      <div className="job-buttons" role="group" aria-label={`Processing of ${document.fileName}`}>
        {BUTTONS.map(({ kind, label, title }) => {
          const job = tracker.latest(document.id, kind);
          const running = job !== undefined && !isFinished(job);
          return (
            <span key={kind} className="job-slot">
              {kind === 'detection' && templates.length > 0 && (
                <select className="compact" aria-label="Detection template" value={templateId} onChange={(event) => setTemplateId(event.target.value)}>
                  <option value="">All kinds</option>
                  {templates.map((template) => (
                    <option key={template.id} value={template.id}>
                      {template.name}
                    </option>
                  ))}
                </select>
              )}
              {canStart ? (
                <button type="button" className="button small" title={title} disabled={running || starting !== null} onClick={() => void start(kind)} data-job={kind}>
                  {starting === kind ? 'Starting…' : label}
                </button>
              ) : (
                <span className="muted" data-job={kind}>
                  {label}
                </span>
              )}
              {job && <JobState job={job} />}
            </span>
          );
        })}
      </div>
      <ErrorBanner error={error} onDismiss={() => setError(null)} />
    </div>
  );
}

function JobState({ job }: { job: Job }) {
  if (!isFinished(job)) {
    return (
      <span className="job-state" data-job-status={job.status}>
        <ProgressBar value={job.status === 'queued' ? null : job.progress} label={`${job.kind} job progress`} />
      </span>
    );
  }
  const outcome = jobOutcome(job);
  return (
    <span className={`job-state ${job.status}`} data-job-status={job.status} title={outcome}>
      {job.status === 'completed' ? '✓' : '✗'} {outcome}
    </span>
  );
}
