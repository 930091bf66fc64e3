import type { Executor } from '../db/queries/executor.js';
import type { DocumentRow } from '../db/schema.js';
import { findDocument, listCaseDocuments, updateDocument } from '../db/queries/documents.js';
import { insertDownloadToken } from '../db/queries/download-tokens.js';
import type { PageRequest } from '../db/queries/page.js';
import { notFound } from '../common/errors.js';
import type { Document, DownloadUrl, EmailHeaders, UpdateDocumentBody } from '../common/schemas/documents.js';
import type { DocumentType } from './file-types.js';
import { recordChange } from './change-log.js';
import { isoNow, type ServiceContext } from './context.js';
import { requireCase } from './cases.js';
import { randomToken, sha256Hex } from './secrets.js';

export function toDocument(row: DocumentRow): Document {
  return {
    id: String(row.id),
    case_id: String(row.case_id),
    fileName: row.file_name,
    description: row.description,
    document_type: row.document_type as DocumentType,
    source_type: row.source_type,
    parent_document_id: row.parent_document_id === null ? null : String(row.parent_document_id),
    attachment_index: row.attachment_index,
    thread_id: row.thread_id,
    email: row.email === null ? null : (JSON.parse(row.email) as EmailHeaders),
    duplicate_of: row.duplicate_of === null ? null : String(row.duplicate_of),
    password_state: row.password_state ?? null,
    original_sha256: row.original_sha256 ?? null,
    media_type: row.media_type,
    size: row.size,
    sha256: row.sha256,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

export async function requireDocument(db: Executor, ctx: ServiceContext, documentId: number): Promise<DocumentRow> {
  const row = await findDocument(db, ctx.actor.organizationId, documentId);
  if (!row) throw notFound('document');
  return row;
}

export async function getDocument(db: Executor, ctx: ServiceContext, documentId: number): Promise<Document> {
  return toDocument(await requireDocument(db, ctx, documentId));
}

export async function listDocumentPage(db: Executor, ctx: ServiceContext, caseId: number, page: PageRequest) {
  await requireCase(db, ctx, caseId);
  const result = await listCaseDocuments(db, ctx.actor.organizationId, caseId, page);
  return { items: result.rows.map(toDocument), nextAfterId: result.nextAfterId };
}

export async function updateDocumentFields(db: Executor, ctx: ServiceContext, documentId: number, body: UpdateDocumentBody): Promise<Document> {
  await requireDocument(db, ctx, documentId);
  await updateDocument(db, ctx.actor.organizationId, documentId, {
    ...(body.fileName !== undefined && { file_name: body.fileName }),
    ...(body.description !== undefined && { description: body.description }),
    updated_at: isoNow(ctx),
  });
  const updated = toDocument(await requireDocument(db, ctx, documentId));
  await recordChange(db, ctx, {
    action: 'document.update',
    resourceType: 'document',
    resourceId: documentId,
    details: { fields: Object.keys(body) },
    event: { type: 'document.updated', payload: { document: updated, changed: Object.keys(body) } },
  });
  return updated;
}

/** Soft delete: later reads answer 404; the stored bytes stay for the audit trail. */
export async function deleteDocument(db: Executor, ctx: ServiceContext, documentId: number): Promise<void> {
  const row = await requireDocument(db, ctx, documentId);
  const now = isoNow(ctx);
  await updateDocument(db, ctx.actor.organizationId, documentId, { deleted_at: now, updated_at: now });
  await recordChange(db, ctx, {
    action: 'document.delete',
    resourceType: 'document',
    resourceId: documentId,
    event: { type: 'document.deleted', payload: { document: toDocument(row) } },
  });
}

export interface DownloadSettings {
  baseUrl: string;
  ttlSeconds: number;
}

/** A fresh single-use capability URL for one download of the original bytes. */
export async function createDocumentDownloadUrl(
  db: Executor,
  ctx: ServiceContext,
  documentId: number,
  settings: DownloadSettings,
): Promise<DownloadUrl> {
  await requireDocument(db, ctx, documentId);
  return issueDownloadUrl(db, ctx, 'document', documentId, settings);
}

export async function issueDownloadUrl(
  db: Executor,
  ctx: ServiceContext,
  resourceType: string,
  resourceId: number,
  settings: DownloadSettings,
): Promise<DownloadUrl> {
  const token = randomToken(32);
  const now = ctx.clock.now();
  const expiresAt = new Date(now.getTime() + settings.ttlSeconds * 1000).toISOString();
  await insertDownloadToken(db, {
    token_hash: sha256Hex(token),
    organization_id: ctx.actor.organizationId,
    resource_type: resourceType,
    resource_id: resourceId,
    expires_at: expiresAt,
    used_at: null,
    created_at: now.toISOString(),
  });
  return { url: `${settings.baseUrl}/files/downloads/${token}`, expires_at: expiresAt };
}
