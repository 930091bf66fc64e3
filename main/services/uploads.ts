import type { Readable } from 'node:stream';
import type { Db } from '../db/connection.js';
import type { Executor } from '../db/queries/executor.js';
import type { UploadFileRow, UploadSessionRow } from '../db/schema.js';
import { insertBlobIfAbsent } from '../db/queries/blobs.js';
import { findDocumentsByIds, findFirstCaseDocumentWithSha256, insertDocument } from '../db/queries/documents.js';
import {
  findUploadFileByToken,
  insertUploadFiles,
  linkUploadFileDocument,
  listUploadFiles,
  markUploadFileReceived,
  recordUploadAttempt,
} from '../db/queries/upload-files.js';
import { findUploadSession, insertUploadSession, markUploadSessionCompleted } from '../db/queries/upload-sessions.js';
import { DomainError, notFound } from '../common/errors.js';
import type { CreateUploadSessionBody, UploadSession } from '../common/schemas/documents.js';
import { BlobTooLargeError, type BlobStore } from './blob-store.js';
import { recordChange } from './change-log.js';
import { isoNow, type ServiceContext } from './context.js';
import { requireCase } from './cases.js';
import { toDocument } from './documents.js';
import { ACCEPTED_TYPES_TEXT, detectDocumentType, sourceTypeOf } from './file-types.js';
import { startAutoProcessing } from './auto-processing/index.js';
import { randomToken, sha256Hex } from './secrets.js';
import { transact } from '../db/transaction.js';

export interface UploadSettings {
  baseUrl: string;
  sessionTtlSeconds: number;
  maxFileBytes: number;
}

function sessionStatus(session: UploadSessionRow, now: Date): UploadSession['status'] {
  if (session.status === 'completed') return 'completed';
  return Date.parse(session.expires_at) <= now.getTime() ? 'expired' : 'open';
}

async function presentSession(db: Executor, ctx: ServiceContext, session: UploadSessionRow, uploadUrls?: Map<number, string>): Promise<UploadSession> {
  const files = await listUploadFiles(db, session.id);
  const documentIds = files.flatMap((file) => (file.document_id === null ? [] : [file.document_id]));
  const documents = await findDocumentsByIds(db, ctx.actor.organizationId, documentIds);
  return {
    id: String(session.id),
    case_id: String(session.case_id),
    status: sessionStatus(session, ctx.clock.now()),
    expires_at: session.expires_at,
    created_at: session.created_at,
    completed_at: session.completed_at,
    files: files.map((file) => ({
      id: String(file.id),
      name: file.name,
      size: file.size,
      status: file.uploaded_at ? 'uploaded' : 'pending',
      ...(uploadUrls?.has(file.id) && { upload_url: uploadUrls.get(file.id) }),
      media_type: file.media_type,
      document_id: file.document_id === null ? null : String(file.document_id),
    })),
    documents: documents.map(toDocument),
  };
}

export async function createUploadSession(
  db: Executor,
  ctx: ServiceContext,
  caseId: number,
  body: CreateUploadSessionBody,
  settings: UploadSettings,
): Promise<UploadSession> {
  const caseRow = await requireCase(db, ctx, caseId);
  if (caseRow.deleted_at) throw new DomainError('conflict', 'the case is deleted; documents cannot be added');
  const files = body.files ?? [];
  const tooLarge = files.flatMap((file, index) =>
    file.size > settings.maxFileBytes ? [{ field: `files.${index}.size`, message: `at most ${settings.maxFileBytes} bytes per file` }] : [],
  );
  if (tooLarge.length > 0) throw new DomainError('validation_error', 'a file is larger than the upload limit', tooLarge);
  const now = ctx.clock.now();
  const sessionId = await insertUploadSession(db, {
    organization_id: ctx.actor.organizationId,
    case_id: caseId,
    status: 'open',
    created_at: now.toISOString(),
    expires_at: new Date(now.getTime() + settings.sessionTtlSeconds * 1000).toISOString(),
    completed_at: null,
  });
  const tokens = files.map(() => randomToken(32));
  await insertUploadFiles(
    db,
    files.map((file, position) => ({
      upload_session_id: sessionId,
      position,
      name: file.name,
      size: file.size,
      token_hash: sha256Hex(tokens[position] ?? ''),
      last_attempt_bytes: 0,
    })),
  );
  const rows = await listUploadFiles(db, sessionId);
  const urls = new Map(rows.map((row) => [row.id, `${settings.baseUrl}/files/uploads/${tokens[row.position]}`]));
  await recordChange(db, ctx, { action: 'upload_session.create', resourceType: 'upload_session', resourceId: sessionId, details: { files: files.length } });
  const session = await findUploadSession(db, ctx.actor.organizationId, sessionId);
  if (!session) throw new Error('upload session vanished inside its own transaction');
  return presentSession(db, ctx, session, urls);
}

/** The part of an upload that needs no transaction: find the file its URL names and check it may still be sent. */
async function requireUploadableFile(db: Executor, token: string, now: Date) {
  const file = await findUploadFileByToken(db, sha256Hex(token));
  if (!file) throw new DomainError('resource_not_found', 'unknown upload URL');
  if (file.uploaded_at) throw new DomainError('conflict', 'this upload URL has already been used');
  if (file.session_status === 'completed') throw new DomainError('conflict', 'the upload session is already complete');
  if (Date.parse(file.session_expires_at) <= now.getTime()) throw new DomainError('conflict', 'this upload URL has expired');
  return file;
}

/**
 * Receives the raw bytes of one file at its upload URL. The size must match what the session declared,
 * and the type must be one Obscura handles; otherwise nothing is kept and the URL can be used again.
 */
export async function receiveUpload(
  db: Db,
  blobs: BlobStore,
  ctx: Omit<ServiceContext, 'actor'>,
  token: string,
  body: Readable,
  declaredLength: number | undefined,
): Promise<{ file: UploadFileRow; received: number }> {
  const file = await requireUploadableFile(db, token, ctx.clock.now());
  if (declaredLength !== undefined && declaredLength !== file.size) {
    body.resume();
    throw new DomainError('validation_error', `expected ${file.size} bytes for ${file.name}, the request declares ${declaredLength}`, [
      { field: 'Content-Length', message: `must be ${file.size}` },
    ]);
  }
  let staged;
  try {
    staged = await blobs.stage(body, file.size);
  } catch (error) {
    if (error instanceof BlobTooLargeError) {
      throw new DomainError('payload_too_large', `more than the declared ${file.size} bytes were sent for ${file.name}`);
    }
    throw error;
  }
  if (staged.size < file.size) {
    await blobs.discard(staged);
    await recordUploadAttempt(db, file.id, staged.size);
    throw new DomainError('validation_error', `short upload: received ${staged.size} of ${file.size} bytes for ${file.name}`, [
      { field: 'body', message: `must be ${file.size} bytes` },
    ]);
  }
  const detected = await detectDocumentType(staged.tempPath, file.name);
  if (!detected) {
    await blobs.discard(staged);
    throw new DomainError('unsupported_media_type', `${file.name} is not ${ACCEPTED_TYPES_TEXT} (judged from its content and name)`);
  }
  await blobs.commit(staged);
  const now = isoNow(ctx);
  const actor = { type: 'upload_url' as const, id: String(file.id), organizationId: file.organization_id };
  const accepted = await transact(db, async (trx) => {
    await insertBlobIfAbsent(trx, staged.sha256, staged.size, now);
    const first = await markUploadFileReceived(trx, file.id, {
      sha256: staged.sha256,
      media_type: detected.mediaType,
      document_type: detected.documentType,
      bytes: staged.size,
      now,
    });
    if (first) {
      await recordChange(trx, { ...ctx, actor }, {
        action: 'upload_file.receive',
        resourceType: 'upload_file',
        resourceId: file.id,
        details: { sha256: staged.sha256, size: staged.size, media_type: detected.mediaType },
      });
    }
    return first;
  });
  if (!accepted) throw new DomainError('conflict', 'this upload URL has already been used');
  return { file, received: staged.size };
}

/** Turns every received file into a document. Completing a completed session returns it unchanged. */
export async function completeUploadSession(db: Executor, ctx: ServiceContext, sessionId: number, locked: ReadonlySet<string> = new Set()): Promise<UploadSession> {
  const session = await findUploadSession(db, ctx.actor.organizationId, sessionId);
  if (!session) throw notFound('upload session');
  if (session.status === 'completed') return presentSession(db, ctx, session);
  if (sessionStatus(session, ctx.clock.now()) === 'expired') {
    throw new DomainError('conflict', 'the upload session has expired; start a new one');
  }
  const caseRow = await requireCase(db, ctx, session.case_id);
  if (caseRow.deleted_at) throw new DomainError('conflict', 'the case is deleted; documents cannot be added');
  const files = await listUploadFiles(db, session.id);
  const problems = files.flatMap((file) =>
    file.uploaded_at
      ? []
      : [
          {
            file_id: String(file.id),
            name: file.name,
            problem: file.last_attempt_bytes > 0 ? 'short' : 'missing',
            expected_bytes: file.size,
            received_bytes: file.last_attempt_bytes,
          },
        ],
  );
  if (problems.length > 0) {
    const names = problems.map((problem) => `${problem.name} (${problem.problem})`).join(', ');
    throw new DomainError('conflict', `not every file has been uploaded: ${names}`, problems);
  }
  const now = isoNow(ctx);
  for (const file of files) {
    if (!file.sha256 || !file.media_type || !file.document_type) throw new Error(`upload file ${file.id} lacks its content record`);
    // Same bytes already in the case (or earlier in this session): recorded, for the client to offer skipping it.
    const first = await findFirstCaseDocumentWithSha256(db, ctx.actor.organizationId, session.case_id, file.sha256);
    const documentId = await insertDocument(db, {
      organization_id: ctx.actor.organizationId,
      case_id: session.case_id,
      file_name: file.name,
      description: '',
      sha256: file.sha256,
      size: file.size,
      media_type: file.media_type,
      document_type: file.document_type,
      source_type: sourceTypeOf(file.document_type),
      duplicate_of: first ? (first.duplicate_of ?? first.id) : null,
      // Probed on the pool before this transaction (services/pdf-password).
      ...(locked.has(file.sha256) && { password_state: 'needs_password' as const }),
      created_at: now,
      updated_at: now,
      deleted_at: null,
    });
    await linkUploadFileDocument(db, file.id, documentId);
  }
  await markUploadSessionCompleted(db, session.id, now);
  const completed = await presentSession(db, ctx, { ...session, status: 'completed', completed_at: now });
  for (const document of completed.documents) {
    await recordChange(db, ctx, {
      action: 'document.create',
      resourceType: 'document',
      resourceId: document.id,
      details: { upload_session_id: completed.id },
      event: { type: 'document.created', payload: { document } },
    });
  }
  await recordChange(db, ctx, { action: 'upload_session.complete', resourceType: 'upload_session', resourceId: session.id });
  // Scan → OCR → detection start by themselves when the organization says so (issue 18).
  await startAutoProcessing(db, ctx, completed.documents.map((document) => Number(document.id)));
  return completed;
}
