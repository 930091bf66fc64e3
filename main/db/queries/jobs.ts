import type { Insertable, Updateable } from 'kysely';
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
