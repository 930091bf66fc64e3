import { z } from 'zod';
import { DomainError } from '../common/errors.js';
import type { Job } from '../common/schemas/jobs.js';
import type { Executor } from '../db/queries/executor.js';
import { findNewestDocumentJob } from '../db/queries/jobs.js';
import type { ServiceContext } from './context.js';
import { requireDocument } from './documents.js';
import { enqueueJob, getJob, toJob } from './jobs.js';
import { transact } from '../db/transaction.js';

/** The application API's summary body: the text at the top level and under `data`, as its client reads either. */
export interface SummaryView {
  success: true;
  summary: string;
  data: {
    summary: string;
    doc_id: string;
    job_id: string | null;
    engine: string | null;
    model: string | null;
    fallback_reason: string | null;
    generated_at: string | null;
  };
}

const StoredResult = z.looseObject({
  summary: z.string(),
  engine: z.string().optional(),
  model: z.string().nullable().optional(),
  fallback_reason: z.string().nullable().optional(),
});

function viewOf(documentId: number, job: Job | null): SummaryView {
  const result = job ? StoredResult.safeParse(job.result) : null;
  const stored = result?.success ? result.data : null;
  const summary = stored?.summary ?? '';
  return {
    success: true,
    summary,
    data: {
      summary,
      doc_id: String(documentId),
      job_id: job?.id ?? null,
      engine: stored?.engine ?? null,
      model: stored?.model ?? null,
      fallback_reason: stored?.fallback_reason ?? null,
      generated_at: job?.finished_at ?? null,
    },
  };
}

/** The newest completed summary of the document; an empty summary when there is none yet. */
export async function latestSummary(db: Executor, ctx: ServiceContext, documentId: number): Promise<SummaryView> {
  await requireDocument(db, ctx, documentId);
  const row = await findNewestDocumentJob(db, ctx.actor.organizationId, documentId, 'summary', 'completed');
  return viewOf(documentId, row ? toJob(row) : null);
}

export interface WaitSettings {
  /** How long to wait for the job (queue time included) before answering 503. */
  timeoutMs: number;
  pollMs?: number;
  /** Aborted when the client goes away: stop waiting (the job itself carries on). */
  signal?: AbortSignal;
}

/**
 * Queues a summary job with default options and waits for it: its summary, or the job's failure as an
 * error (409 with the job's message). The job keeps running if the wait ends first (503).
 */
export async function generateSummary(db: Executor, ctx: ServiceContext, documentId: number, wait: WaitSettings): Promise<SummaryView> {
  const queued = await transact(db, (trx) => enqueueJob(trx, ctx, documentId, 'summary', {}));
  const deadline = Date.now() + wait.timeoutMs;
  for (;;) {
    const job = await getJob(db, ctx, Number(queued.id));
    if (job.status === 'completed') return viewOf(documentId, job);
    if (job.status === 'failed') throw new DomainError('conflict', job.error_message ?? 'the summary job failed', undefined, { job_id: job.id });
    if (wait.signal?.aborted) throw new DomainError('service_unavailable', 'the client went away before the summary was ready', undefined, { job_id: job.id });
    if (Date.now() > deadline) {
      throw new DomainError('service_unavailable', `the summary job ${job.id} is still ${job.status} after ${Math.round(wait.timeoutMs / 1000)} s; it carries on, read it later with GET /ai-summary/latest`, undefined, {
        job_id: job.id,
      });
    }
    await new Promise((resolve) => setTimeout(resolve, wait.pollMs ?? 100));
  }
}
