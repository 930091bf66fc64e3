import type { Insertable, Updateable } from 'kysely';
import type { JobsTable } from '../schema.js';
import { noteJobsQueued } from '../change-signals.js';
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
  if (values.status === 'queued') noteJobsQueued();
  return result.numUpdatedRows > 0n;
}
