import { useRef, useState, type ReactNode } from 'react';
import { plainMessage } from '../../api/errors.js';
import { newIdempotencyKey } from '../../api/http.js';
import { getJob, isFinished, listDocumentJobs, startJob } from '../../api/jobs.js';
import type { Document, Job, JobKind } from '../../api/types.js';
import { ProgressBar } from '../../components/ProgressBar.js';
import { formatEta } from '../../domain/processing.js';

// "Process all": every document of the case through scan → OCR → detection, two documents at a time, steps a
// document already completed skipped and steps already under way (automatic processing) waited for. Run from this window (closing it stops starting further steps; jobs
// already started finish on the server).

const STEPS: readonly JobKind[] = ['scan', 'ocr', 'detection'];
const PROCESSABLE = new Set(['pdf', 'png', 'jpeg', 'tiff']);
const POLL_MS = 1000;
const PARALLEL = 2;

type DocState = { step: JobKind | 'done' | 'failed' | 'waiting'; reason?: string };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function untilFinished(job: Job): Promise<Job> {
  let current = job;
  while (!isFinished(current)) {
    await sleep(POLL_MS);
    current = await getJob(current.id);
  }
  return current;
}

interface Props {
  documents: Document[];
  /** The server says this user may start processing; otherwise only automatic progress shows. */
  canProcess?: boolean;
  /** The case's automatic processing, shown while no run of this panel is on screen. */
  automatic?: ReactNode;
  /** After a run, so views that read its results (the suggestions queue) load again. */
  onFinished?: () => void;
}

export function ProcessAll({ documents, canProcess = true, automatic, onFinished }: Props) {
  const [states, setStates] = useState<Record<string, DocState>>({});
  const [running, setRunning] = useState(false);
  const [progress, setProgress] = useState({ done: 0, total: 0, started: 0 });
  const stop = useRef(false);
  const targets = documents.filter((document) => PROCESSABLE.has(document.document_type));

  const processOne = async (document: Document, tick: () => void) => {
    for (const kind of STEPS) {
      if (stop.current) return;
      // Listed before each step: automatic processing may have run it, or be running it (its chain queues the
      // next step in the transaction that finishes one, so a finished step's successor is already listed).
      const jobs = (await listDocumentJobs(document.id)).filter((job) => job.kind === kind);
      if (jobs.some((job) => job.status === 'completed')) {
        tick();
        continue;
      }
      setStates((previous) => ({ ...previous, [document.id]: { step: kind } }));
      const underWay = jobs.filter((job) => !isFinished(job)).at(-1);
      const job = await untilFinished(underWay ?? (await startJob(document.id, kind, undefined, newIdempotencyKey())));
      if (job.status === 'failed') throw new Error(`${kind === 'ocr' ? 'OCR' : kind} failed: ${job.error_message ?? 'no reason given'}`);
      tick();
    }
    setStates((previous) => ({ ...previous, [document.id]: { step: 'done' } }));
  };

  const run = async () => {
    stop.current = false;
    setRunning(true);
    const total = targets.length * STEPS.length;
    const started = Date.now();
    let done = 0;
    setProgress({ done, total, started });
    setStates(Object.fromEntries(targets.map((document) => [document.id, { step: 'waiting' } as DocState])));
    const tick = () => setProgress({ done: ++done, total, started });
    const queue = [...targets];
    const worker = async () => {
      for (let next = queue.shift(); next; next = queue.shift()) {
        const document = next;
        try {
          await processOne(document, tick);
        } catch (failure) {
          setStates((previous) => ({ ...previous, [document.id]: { step: 'failed', reason: plainMessage(failure) } }));
        }
      }
    };
    await Promise.all(Array.from({ length: PARALLEL }, worker));
    setRunning(false);
    onFinished?.();
  };

  const entries = targets.map((document) => ({ document, state: states[document.id] }));
  const failed = entries.filter((entry) => entry.state?.step === 'failed');
  const finished = entries.filter((entry) => entry.state?.step === 'done').length;
  const elapsed = Date.now() - progress.started;
  const eta = progress.done > 0 && progress.done < progress.total ? formatEta((elapsed / progress.done) * (progress.total - progress.done) / 1000) : null;
  const ran = Object.keys(states).length > 0;

  return (
    <section className="panel process-all" aria-labelledby="process-title">
      <div className="row">
        <h2 id="process-title" className="grow">
          Processing
        </h2>
        {canProcess && (
          <button type="button" className="button primary small" disabled={running || targets.length === 0} onClick={() => void run()}>
            {running ? 'Processing…' : 'Process all'}
          </button>
        )}
        {running && (
          <button type="button" className="button small ghost" onClick={() => (stop.current = true)}>
            Stop after current steps
          </button>
        )}
      </div>
      {!ran && canProcess && <p className="muted">Scan, OCR where needed and detection for every document ({targets.length}), in one go.</p>}
      {!ran && automatic}
      {ran && (
        <>
          <ProgressBar value={progress.total ? progress.done / progress.total : 0} label="Case processing" />
          <p className="muted" role="status">
            {running ? `${progress.done} of ${progress.total} steps${eta ? ` · ${eta}` : ''}` : `${finished} of ${targets.length} documents processed${failed.length ? `, ${failed.length} failed` : ''}.`}
          </p>
          <ul className="process-list" aria-label="Document processing">
            {entries.map(({ document, state }) => (
              <li key={document.id} data-document-id={document.id} data-step={state?.step ?? 'waiting'}>
                <span>{document.fileName}</span> <span className="muted">{state?.step === 'failed' ? `failed: ${state.reason}` : (state?.step ?? 'waiting')}</span>
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
