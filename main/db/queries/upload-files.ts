import type { Insertable } from 'kysely';
import type { UploadFilesTable } from '../schema.js';
import type { Executor } from './executor.js';

export async function insertUploadFiles(db: Executor, values: Insertable<UploadFilesTable>[]): Promise<void> {
  if (values.length === 0) return;
  await db.insertInto('upload_files').values(values).execute();
}

export function listUploadFiles(db: Executor, uploadSessionId: number) {
  return db.selectFrom('upload_files').selectAll().where('upload_session_id', '=', uploadSessionId).orderBy('position').execute();
}

/** The file a capability URL points at, with its session's state. */
export function findUploadFileByToken(db: Executor, tokenHash: string) {
  return db
    .selectFrom('upload_files')
    .innerJoin('upload_sessions', 'upload_sessions.id', 'upload_files.upload_session_id')
    .selectAll('upload_files')
    .select([
      'upload_sessions.status as session_status',
      'upload_sessions.expires_at as session_expires_at',
      'upload_sessions.organization_id',
    ])
    .where('upload_files.token_hash', '=', tokenHash)
    .executeTakeFirst();
}

export async function recordUploadAttempt(db: Executor, id: number, bytes: number): Promise<void> {
  await db.updateTable('upload_files').set({ last_attempt_bytes: bytes }).where('id', '=', id).execute();
}

/** Marks the file received; only the first successful upload wins (single-use URL). */
export async function markUploadFileReceived(
  db: Executor,
  id: number,
  values: { sha256: string; media_type: string; document_type: string; bytes: number; now: string },
): Promise<boolean> {
  const result = await db
    .updateTable('upload_files')
    .set({
      sha256: values.sha256,
      media_type: values.media_type,
      document_type: values.document_type,
      last_attempt_bytes: values.bytes,
      uploaded_at: values.now,
    })
    .where('id', '=', id)
    .where('uploaded_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function linkUploadFileDocument(db: Executor, id: number, documentId: number): Promise<void> {
  await db.updateTable('upload_files').set({ document_id: documentId }).where('id', '=', id).execute();
}

