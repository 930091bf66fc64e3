import { listAll, request, type Single } from './http.js';
import type { Job, JobKind } from './types.js';

export async function startJob(documentId: string, kind: JobKind, options: Record<string, unknown> | undefined, idempotencyKey: string): Promise<Job> {
  return (
    await request<Single<Job>>(`/api/v1/documents/${encodeURIComponent(documentId)}/${kind}-jobs`, {
      method: 'POST',
      ...(options !== undefined && { body: options }),
      idempotencyKey,
    })
  ).data;
}

export async function getJob(jobId: string, signal?: AbortSignal): Promise<Job> {
  return (await request<Single<Job>>(`/api/v1/jobs/${encodeURIComponent(jobId)}`, signal ? { signal } : {})).data;
}

export function listDocumentJobs(documentId: string, signal?: AbortSignal): Promise<Job[]> {
  return listAll<Job>(`/api/v1/documents/${encodeURIComponent(documentId)}/jobs`, {}, signal);
}

export function isFinished(job: Job): boolean {
  return job.status === 'completed' || job.status === 'failed';
}
