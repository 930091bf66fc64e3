import type { Insertable, Updateable } from 'kysely';
import type { WatchedFoldersTable } from '../schema.js';
import { noteWatchedFoldersChanged } from '../change-signals.js';
import type { Executor } from './executor.js';
import { fetchPage, type PageRequest } from './page.js';

export async function insertWatchedFolder(db: Executor, values: Insertable<WatchedFoldersTable>): Promise<number> {
  const row = await db.insertInto('watched_folders').values(values).returning('id').executeTakeFirstOrThrow();
  noteWatchedFoldersChanged();
  return row.id;
}

/** A live (not deleted) folder of the organization. */
export function findWatchedFolder(db: Executor, organizationId: number, id: number) {
  return db
    .selectFrom('watched_folders')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
}

export function pageWatchedFolders(db: Executor, organizationId: number, page: PageRequest) {
  const query = db.selectFrom('watched_folders').selectAll().where('organization_id', '=', organizationId).where('deleted_at', 'is', null);
  return fetchPage(query, 'watched_folders.id', page);
}

/** Every live folder of every organization: for the runners and for the overlap check. */
export function listLiveWatchedFolders(db: Executor) {
  return db.selectFrom('watched_folders').selectAll().where('deleted_at', 'is', null).orderBy('id').execute();
}

export async function updateWatchedFolder(db: Executor, organizationId: number, id: number, values: Updateable<WatchedFoldersTable>): Promise<void> {
  await db.updateTable('watched_folders').set(values).where('organization_id', '=', organizationId).where('id', '=', id).execute();
  noteWatchedFoldersChanged();
}

/** The runner's live state; not a change of the folder's settings, so runners are not restarted by it. */
export async function setWatchState(
  db: Executor,
  id: number,
  values: Pick<Updateable<WatchedFoldersTable>, 'watch_state' | 'watch_error' | 'last_scan_at'>,
): Promise<void> {
  await db.updateTable('watched_folders').set(values).where('id', '=', id).execute();
}

/** At start-up nothing watches yet: states a killed process left behind are reset. */
export async function resetWatchStates(db: Executor): Promise<void> {
  await db.updateTable('watched_folders').set({ watch_state: 'stopped' }).where('watch_state', '!=', 'stopped').execute();
}
