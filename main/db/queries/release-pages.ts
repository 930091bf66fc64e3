import type { Insertable } from 'kysely';
import type { ReleasePagesTable } from '../schema.js';
import type { Executor } from './executor.js';

export async function insertReleasePages(db: Executor, rows: Insertable<ReleasePagesTable>[]): Promise<void> {
  // SQLite caps bound parameters; 9 columns × 100 rows stays well under it.
  for (let start = 0; start < rows.length; start += 100) await db.insertInto('release_pages').values(rows.slice(start, start + 100)).execute();
}

export function listReleasePages(db: Executor, exportId: number) {
  return db.selectFrom('release_pages').selectAll().where('export_id', '=', exportId).orderBy('position').execute();
}

/** The newest completed release of a case (highest release number), or undefined. */
export function findLatestRelease(db: Executor, caseId: number) {
  return db
    .selectFrom('exports')
    .selectAll()
    .where('case_id', '=', caseId)
    .where('status', '=', 'completed')
    .where('release_number', 'is not', null)
    .orderBy('release_number', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/** The highest stamp number any completed release of the case used, or null. */
export async function findLastBatesNumber(db: Executor, caseId: number): Promise<number | null> {
  const row = await db.selectFrom('release_pages').select((eb) => eb.fn.max('bates_number').as('last')).where('case_id', '=', caseId).executeTakeFirst();
  return row?.last ?? null;
}
