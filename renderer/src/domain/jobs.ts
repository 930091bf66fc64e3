// A finished job's outcome in a few words (pure).
import type { Job } from '../api/types.js';

function numberField(result: Record<string, unknown> | null, name: string): number | null {
  const value = result?.[name];
  return typeof value === 'number' ? value : null;
}

export function jobOutcome(job: Pick<Job, 'kind' | 'status' | 'result' | 'error_message'>): string {
  if (job.status === 'failed') return job.error_message ?? 'failed';
  if (job.status !== 'completed') return job.status;
  const result = job.result;
  switch (job.kind) {
    case 'scan': {
      const verdict = result?.verdict;
      return typeof verdict === 'string' ? (verdict === 'clean' ? 'clean' : `${verdict}: ${findingCount(result)} finding(s)`) : 'done';
    }
    case 'detection': {
      const suggested = numberField(result, 'suggested');
      return suggested === null ? 'done' : `${suggested} suggestion${suggested === 1 ? '' : 's'}`;
    }
    case 'ocr': {
      const pages = numberField(result, 'pages_processed') ?? numberField(result, 'pages') ?? (Array.isArray(result?.pages) ? result.pages.length : null);
      return pages === null ? 'text ready' : `${pages} page${pages === 1 ? '' : 's'} read`;
    }
    case 'summary':
      return 'summary ready';
    case 'transcription':
      return 'transcript ready';
  }
}

function findingCount(result: Record<string, unknown> | null): number {
  return Array.isArray(result?.findings) ? result.findings.length : 0;
}
