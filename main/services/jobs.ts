import { z } from 'zod';
import type { Executor } from '../db/queries/executor.js';
import type { JobRow } from '../db/schema.js';
import { findDocument } from '../db/queries/documents.js';
import { claimOldestQueuedJob, findJob, findJobById, insertJob, listJobsWithStatus, pageDocumentJobs, updateJobIfStatus, updateLeasedJob } from '../db/queries/jobs.js';
import { DEFAULT_LEASE, leaseExpiry, leaseLapsed, type LeaseTerms } from '../cluster/identity.js';
import type { PageRequest } from '../db/queries/page.js';
import { DomainError, notFound } from '../common/errors.js';
import { JOB_OPTIONS, type Job, type StartableJobKind } from '../common/schemas/jobs.js';
import { recordChange } from './change-log.js';
import { isoNow, type Clock, type ServiceContext } from './context.js';
import { requireDocument } from './documents.js';
import { advanceAutoProcessing } from './auto-processing/index.js';
import { checkJobOptions } from './job-options.js';

const JsonObject = z.record(z.string(), z.unknown());

function parseObject(text: string | null): Record<string, unknown> | null {
  return text === null ? null : JsonObject.parse(JSON.parse(text));
}

export function toJob(row: JobRow): Job {
  return {
    id: String(row.id),
    document_id: String(row.document_id),
    kind: row.kind,
    status: row.status,
    options: parseObject(row.options) ?? {},
    progress: row.progress,
    attempts: row.attempts,
    result: parseObject(row.result),
    error_message: row.error_message,
    created_at: row.created_at,
    started_at: row.started_at,
    finished_at: row.finished_at,
    updated_at: row.updated_at,
  };
}

/** Validates the kind's options (defaults filled in) and queues the job; the scheduler is woken by the insert. */
export async function enqueueJob(db: Executor, ctx: ServiceContext, documentId: number, kind: StartableJobKind, options: unknown): Promise<Job> {
  await requireDocument(db, ctx, documentId);
  const parsed = JOB_OPTIONS[kind].safeParse(options ?? {});
  if (!parsed.success) {
    const details = parsed.error.issues.map((issue) => ({ field: issue.path.join('.') || 'body', location: 'body', message: issue.message }));
    throw new DomainError('validation_error', `invalid ${kind} options`, details);
  }
  await checkJobOptions(db, ctx, kind, parsed.data);
  const now = isoNow(ctx);
  const id = await insertJob(db, {
    organization_id: ctx.actor.organizationId,
    document_id: documentId,
    kind,
    status: 'queued',
    options: JSON.stringify(parsed.data),
    progress: 0,
    attempts: 0,
    created_at: now,
    updated_at: now,
  });
  await recordChange(db, ctx, { action: 'job.create', resourceType: 'job', resourceId: id, details: { kind, document_id: String(documentId) } });
  return getJob(db, ctx, id);
}

export async function getJob(db: Executor, ctx: ServiceContext, id: number): Promise<Job> {
  const row = await findJob(db, ctx.actor.organizationId, id);
  if (!row) throw notFound('job');
  await requireDocument(db, ctx, row.document_id);
  return toJob(row);
}

export async function listJobPage(db: Executor, ctx: ServiceContext, documentId: number, page: PageRequest) {
  await requireDocument(db, ctx, documentId);
  const result = await pageDocumentJobs(db, ctx.actor.organizationId, documentId, page);
  return { items: result.rows.map(toJob), nextAfterId: result.nextAfterId };
}

// The scheduler's side. It acts as the system within the job's organization, so audit records and events
// land where the job's owner sees them.

function systemContext(row: JobRow, clock: Clock): ServiceContext {
  return { actor: { type: 'system', id: 'scheduler', organizationId: row.organization_id }, requestId: null, clock };
}

export interface ClaimedJob {
  job: JobRow;
  /** Blob of the job's document; null when the document was deleted after the job was queued. */
  blob: { sha256: string; documentType: string } | null;
}

/**
 * Takes the oldest queued job and marks it running under `lease` (one more attempt). Call inside a
 * transaction. One conditional statement: a job another claimant took is never handed out twice.
 */
export async function claimNextJob(db: Executor, clock: Clock, lease: LeaseTerms = DEFAULT_LEASE): Promise<ClaimedJob | null> {
  const job = await claimOldestQueuedJob(db, { owner: lease.owner, expiresAt: leaseExpiry(lease.seconds), now: clock.now().toISOString() });
  if (!job) return null;
  const document = await findDocument(db, job.organization_id, job.document_id);
  return { job, blob: document ? { sha256: document.sha256, documentType: document.document_type } : null };
}

/** Progress of a running job; ignored once the job left `running`. */
export async function setJobProgress(db: Executor, clock: Clock, id: number, progress: number): Promise<void> {
  const clamped = Math.min(1, Math.max(0, progress));
  await updateJobIfStatus(db, id, 'running', { progress: clamped, updated_at: clock.now().toISOString() });
}

/** Stores the result and writes `job.completed`; a job no longer running (failed meanwhile) is left alone. */
export async function completeJob(db: Executor, clock: Clock, id: number, result: object, owner?: string): Promise<void> {
  const now = clock.now().toISOString();
  // lease_owner stays: which process finished the job.
  const values = { status: 'completed' as const, progress: 1, result: JSON.stringify(result), error_message: null, finished_at: now, updated_at: now, lease_expires_at: null };
  // With an owner: only while this process still holds the lease (it may have lapsed and gone to another).
  const changed = owner === undefined ? await updateJobIfStatus(db, id, 'running', values) : await updateLeasedJob(db, id, owner, values);
  if (changed) {
    await recordOutcome(db, clock, id, 'completed');
    await advanceAutoProcessing(db, clock, id, 'completed');
  }
}

/** Marks a job failed with a message for the client and writes `job.failed`. */
export async function failJob(db: Executor, clock: Clock, id: number, message: string, from: 'running' | 'queued' = 'running', owner?: string | null): Promise<void> {
  const now = clock.now().toISOString();
  const values = { status: 'failed' as const, error_message: message, finished_at: now, updated_at: now, lease_expires_at: null };
  const changed = owner === undefined || from !== 'running' ? await updateJobIfStatus(db, id, from, values) : await updateLeasedJob(db, id, owner, values);
  if (changed) {
    await recordOutcome(db, clock, id, 'failed');
    await advanceAutoProcessing(db, clock, id, 'failed');
  }
}

async function recordOutcome(db: Executor, clock: Clock, id: number, outcome: 'completed' | 'failed'): Promise<void> {
  const row = await findJobById(db, id);
  if (!row) return;
  const job = toJob(row);
  await recordChange(db, systemContext(row, clock), {
    action: `job.${outcome === 'completed' ? 'complete' : 'fail'}`,
    resourceType: 'job',
    resourceId: id,
    event: { type: `job.${outcome}`, payload: { job } },
  });
}

/** A job stopped by a shutdown goes back to the queue; the interrupted attempt is not counted. */
export async function requeueStoppedJob(db: Executor, clock: Clock, id: number, owner: string = DEFAULT_LEASE.owner): Promise<void> {
  const row = await findJobById(db, id);
  if (!row) return;
  const values = { status: 'queued' as const, progress: 0, attempts: Math.max(0, row.attempts - 1), started_at: null, updated_at: clock.now().toISOString(), lease_owner: null, lease_expires_at: null };
  await updateLeasedJob(db, id, owner, values);
}

/**
 * Jobs whose lease lapsed (expired, or held by a process of this machine that is gone) go back to the queue
 * with their attempts kept, so a job that kills its process every time stops after `maxAttempts` and fails
 * instead of looping. A live lease of another process is left alone. Runs at start and periodically.
 */
export async function recoverInterruptedJobs(db: Executor, clock: Clock, maxAttempts: number): Promise<{ requeued: number; failed: number }> {
  let requeued = 0;
  let failed = 0;
  const now = clock.now();
  for (const row of await listJobsWithStatus(db, 'running')) {
    if (!leaseLapsed(row.lease_owner, row.lease_expires_at, new Date())) continue;
    if (row.attempts >= maxAttempts) {
      await failJob(db, clock, row.id, `interrupted ${row.attempts} times (the process stopped while it ran); not retried again`, 'running', row.lease_owner);
      failed += 1;
    } else if (await updateLeasedJob(db, row.id, row.lease_owner, { status: 'queued', progress: 0, started_at: null, updated_at: now.toISOString(), lease_owner: null, lease_expires_at: null })) {
      requeued += 1;
    }
  }
  return { requeued, failed };
}
