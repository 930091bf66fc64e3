// Automatic processing in words (pure): a document's state and the case's progress line.
import type { CaseProcessing, ProcessingEntry } from '../api/processing.js';

const STEP_NAMES: Record<string, string> = { scan: 'scan', ocr: 'OCR', detection: 'detection' };

/** What a document's automatic processing is doing now, in a few words. */
export function entryLabel(entry: ProcessingEntry): string {
  switch (entry.state) {
    case 'not_started':
      return 'not processed automatically';
    case 'waiting':
      return 'waiting for conversion';
    case 'needs_password':
      return 'needs its password';
    case 'done':
      return 'processed';
    case 'failed':
      return `failed: ${entry.error ?? 'no reason recorded'}`;
    default: {
      const step = STEP_NAMES[entry.state] ?? entry.state;
      if (!entry.job || entry.job.status === 'queued') return `${step} queued`;
      return `${step} running${entry.job.progress > 0 ? ` (${Math.round(entry.job.progress * 100)}%)` : ''}`;
    }
  }
}

export function isRunning(entry: ProcessingEntry): boolean {
  return entry.state === 'scan' || entry.state === 'ocr' || entry.state === 'detection';
}

/** Whether anything is still moving, so the view keeps polling quickly. */
export function isActive(progress: CaseProcessing): boolean {
  return progress.in_progress > 0 || progress.documents.some((entry) => entry.state === 'waiting');
}

export function formatEta(seconds: number | null): string {
  if (seconds === null) return 'estimating time left';
  if (seconds < 90) return `about ${Math.max(1, Math.round(seconds))} s left`;
  return `about ${Math.round(seconds / 60)} min left`;
}

/** The documents automatic processing has handled or is handling (the rest never entered it). */
export function automaticEntries(progress: CaseProcessing): ProcessingEntry[] {
  return progress.documents.filter((entry) => entry.state !== 'not_started');
}

/** "3 of 5 documents processed · 2 running · about 40 s left", or the outcome once nothing runs. */
export function progressLine(progress: CaseProcessing): string {
  const tracked = automaticEntries(progress).length;
  const parts = [`${progress.done} of ${tracked} document${tracked === 1 ? '' : 's'} processed`];
  if (progress.in_progress > 0) parts.push(`${progress.in_progress} running`, formatEta(progress.eta_seconds));
  if (progress.failed > 0) parts.push(`${progress.failed} failed`);
  if (progress.waiting > 0) parts.push(`${progress.waiting} waiting`);
  return parts.join(' · ');
}

/** Share of the automatic steps done (each document: scan, OCR, detection), for the progress bar. */
export function progressFraction(progress: CaseProcessing): number {
  const entries = automaticEntries(progress).filter((entry) => entry.state !== 'needs_password' && entry.state !== 'waiting');
  if (entries.length === 0) return 0;
  const order = ['scan', 'ocr', 'detection'];
  let steps = 0;
  for (const entry of entries) {
    if (entry.state === 'done' || entry.state === 'failed') steps += 3;
    else if (isRunning(entry)) steps += order.indexOf(entry.state) + (entry.job?.status === 'running' ? entry.job.progress : 0);
  }
  return Math.min(1, steps / (entries.length * 3));
}
