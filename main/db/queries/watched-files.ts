import { sql, type Insertable, type Updateable } from 'kysely';
import type { WatchedFilesTable } from '../schema.js';
import type { Executor } from './executor.js';
import { fetchPage, type PageRequest } from './page.js';

type State = WatchedFilesTable['state'];
const FINAL: readonly State[] = ['done', 'failed', 'vanished'];

/**
 * Records newly seen files; a path that already has a file in flight is skipped by the unique index
 * (at most one unfinished file per path). Returns the rows inserted.
 */
export function insertSeenFiles(db: Executor, rows: readonly Insertable<WatchedFilesTable>[]) {
  if (rows.length === 0) return Promise.resolve([]);
  return db.insertInto('watched_files').values(rows).onConflict((oc) => oc.doNothing()).returningAll().execute();
}

export function findWatchedFileById(db: Executor, id: number) {
  return db.selectFrom('watched_files').selectAll().where('id', '=', id).executeTakeFirst();
}

export function findFolderFile(db: Executor, organizationId: number, folderId: number, id: number) {
  return db
    .selectFrom('watched_files')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('folder_id', '=', folderId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** Changes a file only while it is in one of the expected states; returns whether it changed. */
export async function updateFileIfState(db: Executor, id: number, expected: readonly State[], values: Updateable<WatchedFilesTable>): Promise<boolean> {
  const result = await db.updateTable('watched_files').set(values).where('id', '=', id).where('state', 'in', expected).executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** The newest file of each path of the folder: what the runner compares new sightings against. */
export function listLatestFilePerPath(db: Executor, folderId: number) {
  return db
    .selectFrom('watched_files')
    .select(['id', 'relative_path', 'state', 'size', 'mtime_ms', 'source_kept'])
    .where('id', 'in', (sub) =>
      sub.selectFrom('watched_files').select((eb) => eb.fn.max('id').as('id')).where('folder_id', '=', folderId).groupBy('relative_path'),
    )
    .execute();
}

export function listUnfinishedFiles(db: Executor, folderId: number) {
  return db.selectFrom('watched_files').selectAll().where('folder_id', '=', folderId).where('state', 'not in', FINAL).orderBy('id').execute();
}

/** Other files of the folder with this content that got a document, oldest first. */
export function listFilesWithContent(db: Executor, folderId: number, sha256: string, exceptId: number) {
  return db
    .selectFrom('watched_files')
    .selectAll()
    .where('folder_id', '=', folderId)
    .where('sha256', '=', sha256)
    .where('id', '!=', exceptId)
    .where('document_id', 'is not', null)
    .orderBy('id')
    .limit(100)
    .execute();
}

export async function hasFileWithOutputPath(db: Executor, outputPath: string): Promise<boolean> {
  const row = await db.selectFrom('watched_files').select('id').where('output_path', '=', outputPath).limit(1).executeTakeFirst();
  return row !== undefined;
}

export async function countFilesByState(db: Executor, folderId: number) {
  const byState = await db
    .selectFrom('watched_files')
    .select(['state', (eb) => eb.fn.countAll<number>().as('count')])
    .where('folder_id', '=', folderId)
    .groupBy('state')
    .execute();
  const extra = await db
    .selectFrom('watched_files')
    .select([
      sql<number>`coalesce(sum(CASE WHEN duplicate_of IS NOT NULL AND state = 'done' THEN 1 ELSE 0 END), 0)`.as('duplicates'),
      sql<number>`coalesce(sum(CASE WHEN document_id IS NOT NULL THEN 1 ELSE 0 END), 0)`.as('stored'),
    ])
    .where('folder_id', '=', folderId)
    .executeTakeFirstOrThrow();
  return { byState, duplicates: Number(extra.duplicates), stored: Number(extra.stored) };
}

export function listLatestErrors(db: Executor, folderId: number, limit: number) {
  return db
    .selectFrom('watched_files')
    .select(['id', 'relative_path', 'error_step', 'error_message', 'updated_at'])
    .where('folder_id', '=', folderId)
    .where('state', 'in', ['failing', 'failed'])
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

export function pageFolderFiles(db: Executor, organizationId: number, folderId: number, states: readonly State[] | undefined, page: PageRequest) {
  let query = db.selectFrom('watched_files').selectAll().where('organization_id', '=', organizationId).where('folder_id', '=', folderId);
  if (states) query = query.where('state', 'in', states);
  return fetchPage(query, 'watched_files.id', page);
}
