import { useRef, useState, type DragEvent } from 'react';
import { completeUploadSession, createUploadSession, putFile } from '../../api/documents.js';
import { ApiError, plainMessage } from '../../api/errors.js';
import { newIdempotencyKey } from '../../api/http.js';
import type { Document } from '../../api/types.js';
import { ProgressBar } from '../../components/ProgressBar.js';
import { formatBytes } from '../../domain/format.js';
import { MAX_FILES_PER_UPLOAD, fileProblem, ACCEPT_ATTRIBUTE } from '../../domain/upload.js';

interface Props {
  caseId: string;
  disabled: boolean;
  onUploaded: (documents: Document[]) => void;
}

interface Item {
  file: File;
  progress: number;
  state: 'waiting' | 'sending' | 'sent' | 'failed' | 'refused';
  message: string | null;
}

interface Batch {
  items: Item[];
  sessionId: string | null;
  urls: string[];
  sessionKey: string;
  completeKey: string;
  phase: 'sending' | 'failed' | 'done';
  error: string | null;
}

/** A batch with a refused file cannot complete its session: start a new one with the other files. */
function retryable(batch: Batch): Batch {
  if (!batch.items.some((item) => item.state === 'refused')) return batch;
  return {
    ...batch,
    items: batch.items.filter((item) => item.state !== 'refused').map((item) => ({ ...item, state: 'waiting', progress: 0, message: null })),
    sessionId: null,
    urls: [],
    sessionKey: newIdempotencyKey(),
    completeKey: newIdempotencyKey(),
  };
}

/**
 * Drag-and-drop upload: one upload session per batch, each file PUT to its own URL with progress, then the
 * session completed. A failed file keeps its place; "Try again" resends only what did not arrive.
 */
export function UploadPanel({ caseId, disabled, onUploaded }: Props) {
  const [over, setOver] = useState(false);
  const [batch, setBatch] = useState<Batch | null>(null);
  const [refused, setRefused] = useState<string[]>([]);
  const input = useRef<HTMLInputElement>(null);
  const batchRef = useRef<Batch | null>(null);

  const update = (next: Batch) => {
    batchRef.current = next;
    setBatch(next);
  };
  const patchItem = (index: number, changes: Partial<Item>) => {
    const current = batchRef.current;
    if (!current) return;
    update({ ...current, items: current.items.map((item, position) => (position === index ? { ...item, ...changes } : item)) });
  };

  const run = async (start: Batch) => {
    update({ ...start, phase: 'sending', error: null });
    try {
      let sessionId = start.sessionId;
      let urls = start.urls;
      if (!sessionId) {
        const session = await createUploadSession(caseId, start.items.map((item) => ({ name: item.file.name, size: item.file.size })), start.sessionKey);
        sessionId = session.id;
        urls = session.files.map((file) => file.upload_url ?? '');
        update({ ...batchRef.current!, sessionId, urls });
      }
      const items = batchRef.current!.items;
      for (const [index, item] of items.entries()) {
        if (item.state === 'sent') continue;
        patchItem(index, { state: 'sending', progress: 0, message: null });
        try {
          await putFile(urls[index] ?? '', item.file, (progress) => patchItem(index, { progress }));
          patchItem(index, { state: 'sent', progress: 1 });
        } catch (error) {
          // "Already used" means this file arrived on an earlier try whose answer was lost: nothing to resend.
          if (error instanceof ApiError && error.status === 409 && /already been used/i.test(error.message)) {
            patchItem(index, { state: 'sent', progress: 1 });
            continue;
          }
          patchItem(index, { state: error instanceof ApiError && error.status === 415 ? 'refused' : 'failed', message: plainMessage(error) });
          if (error instanceof ApiError && error.status === 409 && /expired|complete/i.test(error.message)) {
            // The session expired: the next attempt starts a new one and sends everything again.
            update({ ...batchRef.current!, sessionId: null, urls: [], sessionKey: newIdempotencyKey(), completeKey: newIdempotencyKey(), items: batchRef.current!.items.map((entry) => ({ ...entry, state: 'waiting', progress: 0 })) });
          }
          throw error;
        }
      }
      const session = await completeUploadSession(sessionId, start.completeKey);
      update({ ...batchRef.current!, phase: 'done' });
      onUploaded(session.documents);
    } catch (error) {
      update({ ...batchRef.current!, phase: 'failed', error: plainMessage(error) });
    }
  };

  const accept = (files: File[]) => {
    if (disabled || files.length === 0) return;
    if (batchRef.current?.phase === 'sending') return;
    const problems: string[] = [];
    const good = files.filter((file) => {
      const problem = fileProblem(file);
      if (problem) problems.push(`${file.name}: ${problem}`);
      return !problem;
    });
    if (good.length > MAX_FILES_PER_UPLOAD) problems.push(`Only ${MAX_FILES_PER_UPLOAD} files can be added at once; the first ${MAX_FILES_PER_UPLOAD} are being sent.`);
    setRefused(problems);
    const chosen = good.slice(0, MAX_FILES_PER_UPLOAD);
    if (chosen.length === 0) return;
    void run({
      items: chosen.map((file) => ({ file, progress: 0, state: 'waiting', message: null })),
      sessionId: null,
      urls: [],
      sessionKey: newIdempotencyKey(),
      completeKey: newIdempotencyKey(),
      phase: 'sending',
      error: null,
    });
  };

  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setOver(false);
    accept([...event.dataTransfer.files]);
  };

  const total = batch ? batch.items.reduce((sum, item) => sum + item.file.size, 0) : 0;
  const sent = batch ? batch.items.reduce((sum, item) => sum + item.file.size * item.progress, 0) : 0;

  return (
    <div className="upload">
      <div
        className={over ? 'dropzone over' : 'dropzone'}
        onDragOver={(event) => {
          event.preventDefault();
          event.dataTransfer.dropEffect = disabled ? 'none' : 'copy';
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={onDrop}
        aria-disabled={disabled}
      >
        <span>Drop PDFs, images, e-mail, Office files or recordings here, or</span>
        <button type="button" className="button small" disabled={disabled} onClick={() => input.current?.click()}>
          Choose files…
        </button>
        <input
          ref={input}
          type="file"
          multiple
          hidden
          accept={ACCEPT_ATTRIBUTE}
          aria-label="Files to upload"
          data-testid="upload-input"
          onChange={(event) => {
            accept([...(event.target.files ?? [])]);
            event.target.value = '';
          }}
        />
      </div>
      {refused.length > 0 && (
        <div className="banner banner-warning" role="alert">
          <span className="banner-text">Not added: {refused.join('; ')}</span>
          <button type="button" className="button small ghost" onClick={() => setRefused([])} aria-label="Dismiss message">
            ×
          </button>
        </div>
      )}
      {batch && batch.phase !== 'done' && (
        <div className="upload-batch" aria-live="polite">
          <div className="upload-summary">
            <span>
              {batch.phase === 'sending' ? 'Uploading' : 'Upload stopped'}: {batch.items.filter((item) => item.state === 'sent').length} of {batch.items.length} files ·{' '}
              {formatBytes(Math.round(sent))} of {formatBytes(total)}
            </span>
            {batch.phase === 'failed' && (
              <>
                <span className="error-text">{batch.error}</span>
                <button type="button" className="button small" onClick={() => void run(retryable(batch))}>
                  Try again
                </button>
                <button type="button" className="button small ghost" onClick={() => update({ ...batch, phase: 'done' })}>
                  Discard
                </button>
              </>
            )}
          </div>
          <ul className="upload-list">
            {batch.items.map((item, index) => (
              <li key={`${item.file.name}-${index}`}>
                <span className="upload-name">{item.file.name}</span>
                <span className="muted">{formatBytes(item.file.size)}</span>
                <ProgressBar value={item.progress} label={`Upload of ${item.file.name}`} tone={item.state === 'failed' || item.state === 'refused' ? 'error' : item.state === 'sent' ? 'done' : 'normal'} />
                {item.message && <span className="error-text">{item.message}</span>}
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}
