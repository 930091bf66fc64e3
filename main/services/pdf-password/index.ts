// Password-protected PDFs (issue 18), the one front door: detection when a document arrives, and the
// password that decrypts it into a working copy. The password only travels to a worker thread and back as
// nothing: it is never stored, logged or put in the change log.
import { Readable } from 'node:stream';
import { DomainError } from '../../common/errors.js';
import type { PdfPasswordOutcome } from '../../common/pdf-password-tasks.js';
import { insertBlobIfAbsent } from '../../db/queries/blobs.js';
import type { Executor } from '../../db/queries/executor.js';
import { listUploadFiles } from '../../db/queries/upload-files.js';
import { findUploadSession } from '../../db/queries/upload-sessions.js';
import type { Document } from '../../common/schemas/documents.js';
import { servicePool } from '../../jobs/service-pool.js';
import type { Runtime } from '../../runtime.js';
import { recordChange } from '../change-log.js';
import { isoNow, type ServiceContext } from '../context.js';
import { requireDocument, toDocument } from '../documents.js';
import { resumeAutoProcessing } from '../auto-processing/index.js';


async function open(runtime: Runtime, sha256: string, password: string, probe: boolean): Promise<PdfPasswordOutcome> {
  const result = await servicePool().run(
    { kind: 'pdf-password', blobPath: await runtime.blobs.localPath(sha256), password, probe },
    { signal: AbortSignal.timeout(10 * 60_000), onProgress: () => undefined },
  );
  return result.outcome;
}

/** Whether a stored PDF opens only with a password (an empty user password opens without one). */
export async function needsPassword(runtime: Runtime, sha256: string): Promise<boolean> {
  try {
    return (await open(runtime, sha256, '', true)).status === 'needs_password';
  } catch {
    // A probe that could not finish (a file over a parser limit, a stopped thread) never refuses the upload:
    // the document is stored, and its jobs report what is wrong with the file by name.
    return false;
  }
}

/**
 * The SHA-256 of every received PDF of an upload session that needs a password; probed on the pool before
 * the session's completion transaction so no write lock is held while a thread works.
 */
export async function lockedUploads(runtime: Runtime, organizationId: number, sessionId: number): Promise<Set<string>> {
  const locked = new Set<string>();
  const session = await findUploadSession(runtime.db, organizationId, sessionId);
  if (!session || session.status === 'completed') return locked;
  for (const file of await listUploadFiles(runtime.db, session.id)) {
    if (file.document_type !== 'pdf' || !file.sha256 || locked.has(file.sha256)) continue;
    if (await needsPassword(runtime, file.sha256)) locked.add(file.sha256);
  }
  return locked;
}

/** Marks a just-stored document whose PDF needs a password (watched-folder ingest). */
export async function markIfLocked(runtime: Runtime, documentId: number): Promise<boolean> {
  const row = await runtime.db.selectFrom('documents').select(['sha256', 'document_type', 'password_state']).where('id', '=', documentId).executeTakeFirst();
  if (!row || row.document_type !== 'pdf' || row.password_state !== null) return false;
  if (!(await needsPassword(runtime, row.sha256))) return false;
  await runtime.db.updateTable('documents').set({ password_state: 'needs_password' }).where('id', '=', documentId).where('password_state', 'is', null).execute();
  return true;
}

/**
 * What a job on a document waiting for its password fails with; null when it may run. A scan (the safety
 * preflight, which reports the encryption) reads the structure only and runs.
 */
export async function passwordBlock(db: Executor, documentId: number, kind: string): Promise<string | null> {
  if (kind === 'scan') return null;
  const row = await db.selectFrom('documents').select(['file_name', 'password_state']).where('id', '=', documentId).executeTakeFirst();
  if (row?.password_state !== 'needs_password') return null;
  return `${row.file_name} is password-protected: supply its password (POST /api/v1/documents/${documentId}/password, or the document's password prompt), then process it again`;
}

/**
 * Decrypts a document's PDF with the password given into a working copy (a new blob, stored before the
 * transaction that points the document at it). A wrong password changes nothing.
 */
export async function decryptWithPassword(runtime: Runtime, ctx: ServiceContext, documentId: number, password: string): Promise<Decrypted> {
  const row = await requireDocument(runtime.db, ctx, documentId);
  if (row.password_state !== 'needs_password') {
    throw new DomainError('conflict', row.password_state === 'decrypted' ? `${row.file_name} has already been decrypted` : `${row.file_name} does not need a password`);
  }
  const outcome = await open(runtime, row.sha256, password, false);
  if (outcome.status === 'wrong_password' || outcome.status === 'needs_password') {
    throw new DomainError('unprocessable_entity', `the password does not open ${row.file_name}; check it (passwords are case-sensitive) and try again`, [{ field: 'password', message: 'does not open the file' }]);
  }
  if (outcome.status === 'unsupported') throw new DomainError('unprocessable_entity', `${row.file_name} cannot be decrypted: ${outcome.reason}`);
  if (outcome.status !== 'opened' || !outcome.bytes) throw new DomainError('conflict', `${row.file_name} is not encrypted`);
  const bytes = Buffer.from(outcome.bytes.buffer, outcome.bytes.byteOffset, outcome.bytes.byteLength);
  const staged = await runtime.blobs.stage(Readable.from([bytes]), bytes.byteLength);
  await runtime.blobs.commit(staged);
  return { documentId, fileName: row.file_name, originalSha256: row.sha256, sha256: staged.sha256, size: staged.size };
}

export interface Decrypted {
  documentId: number;
  fileName: string;
  originalSha256: string;
  sha256: string;
  size: number;
}

/** Points the document at its working copy; the encrypted upload stays as original_sha256. */
export async function recordDecrypted(trx: Executor, ctx: ServiceContext, decrypted: Decrypted): Promise<Document> {
  const now = isoNow(ctx);
  await insertBlobIfAbsent(trx, decrypted.sha256, decrypted.size, now);
  const updated = await trx
    .updateTable('documents')
    .set({ sha256: decrypted.sha256, size: decrypted.size, original_sha256: decrypted.originalSha256, password_state: 'decrypted', updated_at: now })
    .where('id', '=', decrypted.documentId)
    .where('organization_id', '=', ctx.actor.organizationId)
    .where('password_state', '=', 'needs_password')
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) !== 1) throw new DomainError('conflict', `${decrypted.fileName} was decrypted by another request`);
  await recordChange(trx, ctx, {
    action: 'document.decrypt',
    resourceType: 'document',
    resourceId: decrypted.documentId,
    details: { original_sha256: decrypted.originalSha256, sha256: decrypted.sha256 },
  });
  // A document that waited for its password starts its automatic processing now.
  await resumeAutoProcessing(trx, ctx.clock, decrypted.documentId);
  return toDocument(await requireDocument(trx, ctx, decrypted.documentId));
}
