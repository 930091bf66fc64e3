import type { Insertable } from 'kysely';
import type { UploadSessionsTable } from '../schema.js';
import type { Executor } from './executor.js';

export async function insertUploadSession(db: Executor, values: Insertable<UploadSessionsTable>): Promise<number> {
  const row = await db.insertInto('upload_sessions').values(values).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

export function findUploadSession(db: Executor, organizationId: number, id: number) {
  return db
    .selectFrom('upload_sessions')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('id', '=', id)
    .executeTakeFirst();
}

export async function markUploadSessionCompleted(db: Executor, id: number, now: string): Promise<void> {
  await db.updateTable('upload_sessions').set({ status: 'completed', completed_at: now }).where('id', '=', id).execute();
}
