import type { Insertable, Updateable } from 'kysely';
import type { LeaseValues } from '../../cluster/identity.js';
import { skipsLockedRows } from '../dialect.js';
import type { JobsTable } from '../schema.js';
import { noteJobSettled, noteJobsQueued } from '../change-signals.js';
import type { Executor } from './executor.js';
import { fetchPage, type PageRequest } from './page.js';

export async function insertJob(db: Executor, values: Insertable<JobsTable>): Promise<number> {
  const row = await db.insertInto('jobs').values(values).returning('id').executeTakeFirstOrThrow();
  noteJobsQueued();
  return row.id;
}

export function findJob(db: Executor, organizationId: number, id: number) {
  return db.selectFrom('jobs').selectAll().where('organization_id', '=', organizationId).where('id', '=', id).executeTakeFirst();
}

/** Any organization's job: for the scheduler, which works for all of them. */
export function findJobById(db: Executor, id: number) {
  return db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirst();
}

export function pageDocumentJobs(db: Executor, organizationId: number, documentId: number, page: PageRequest) {
  const query = db.selectFrom('jobs').selectAll().where('organization_id', '=', organizationId).where('document_id', '=', documentId);
  return fetchPage(query, 'jobs.id', page);
}

/** The oldest queued job of any organization, or undefined. */
export function findOldestQueuedJob(db: Executor) {
  return db.selectFrom('jobs').selectAll().where('status', '=', 'queued').orderBy('id').limit(1).executeTakeFirst();
}

/** Whether any job waits: a read without locks, cheap enough to ask several times a second. */
export async function anyQueuedJob(db: Executor): Promise<boolean> {
  return (await db.selectFrom('jobs').select('id').where('status', '=', 'queued').limit(1).executeTakeFirst()) !== undefined;
}

/** Takes the oldest queued job for `owner` (queued → running, one more attempt) in one statement; or undefined. */
export async function claimOldestQueuedJob(db: Executor, lease: LeaseValues) {
  let oldest = db.selectFrom('jobs as queued').select('queued.id').where('queued.status', '=', 'queued').orderBy('queued.id').limit(1);
  if (skipsLockedRows(db)) oldest = oldest.forUpdate().skipLocked();
  return db
    .updateTable('jobs')
    .set((eb) => ({ status: 'running', attempts: eb('attempts', '+', 1), started_at: lease.now, updated_at: lease.now, progress: 0, lease_owner: lease.owner, lease_expires_at: lease.expiresAt }))
    .where('id', '=', oldest)
    .where('status', '=', 'queued')
    .returningAll()
    .executeTakeFirst();
}

/** Extends the leases of every job `owner` runs; returns the ids it still holds. */
export async function renewJobLeases(db: Executor, owner: string, expiresAt: string): Promise<number[]> {
  const rows = await db.updateTable('jobs').set({ lease_expires_at: expiresAt }).where('status', '=', 'running').where('lease_owner', '=', owner).returning('id').execute();
  return rows.map((row) => row.id);
}

/**
 * Gives a running job's lease back (to the queue, or failed) only while `owner` still holds it, so two
 * processes judging the same expired lease cannot both act on it.
 */
export async function updateLeasedJob(db: Executor, id: number, owner: string | null, values: Updateable<JobsTable>): Promise<boolean> {
  let query = db.updateTable('jobs').set(values).where('id', '=', id).where('status', '=', 'running');
  query = owner === null ? query.where('lease_owner', 'is', null) : query.where('lease_owner', '=', owner);
  const result = await query.executeTakeFirst();
  const changed = result.numUpdatedRows > 0n;
  if (changed && values.status === 'queued') noteJobsQueued();
  if (changed && values.status === 'failed') noteJobSettled(id);
  return changed;
}

export function listJobsWithStatus(db: Executor, status: JobsTable['status']) {
  return db.selectFrom('jobs').selectAll().where('status', '=', status).orderBy('id').execute();
}

/**
 * Changes a job only while it still has the expected status, so a late progress report or result of a job
 * that was already failed (time limit, shutdown) cannot overwrite it. Returns whether a row changed.
 */
export async function updateJobIfStatus(db: Executor, id: number, expected: JobsTable['status'], values: Updateable<JobsTable>): Promise<boolean> {
  const result = await db.updateTable('jobs').set(values).where('id', '=', id).where('status', '=', expected).executeTakeFirst();
  const changed = result.numUpdatedRows > 0n;
  if (values.status === 'queued') noteJobsQueued();
  if (changed && (values.status === 'completed' || values.status === 'failed')) noteJobSettled(id);
  return changed;
}

/** Jobs by id, any organization: for waiters that watch several jobs at once. */
export function listJobsByIds(db: Executor, ids: readonly number[]) {
  if (ids.length === 0) return Promise.resolve([]);
  return db.selectFrom('jobs').selectAll().where('id', 'in', ids).execute();
}

/** Every job of a document, oldest first: for exports. */
export function listDocumentJobs(db: Executor, organizationId: number, documentId: number) {
  return db.selectFrom('jobs').selectAll().where('organization_id', '=', organizationId).where('document_id', '=', documentId).orderBy('id').execute();
}

/** The newest job of a kind on a document (highest id), optionally only with the given status; or undefined. */
export function findNewestDocumentJob(db: Executor, organizationId: number, documentId: number, kind: JobsTable['kind'], status?: JobsTable['status']) {
  let query = db.selectFrom('jobs').selectAll().where('organization_id', '=', organizationId).where('document_id', '=', documentId).where('kind', '=', kind);
  if (status !== undefined) query = query.where('status', '=', status);
  return query.orderBy('id', 'desc').limit(1).executeTakeFirst();
}
