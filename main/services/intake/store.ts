import path from 'node:path';
import type { Executor } from '../../db/queries/executor.js';
import type { DocumentRow } from '../../db/schema.js';
import type { IntakeFormat, IntakeOutcome } from '../../common/intake-tasks.js';
import { insertBlobIfAbsent } from '../../db/queries/blobs.js';
import { insertDocument } from '../../db/queries/documents.js';
import type { BlobStore } from '../blob-store.js';
import { recordChange } from '../change-log.js';
import { isoNow, type ServiceContext } from '../context.js';
import { toDocument } from '../documents.js';
import { detectDocumentType, sourceTypeOf, type DetectedType } from '../file-types.js';
import { resumeAutoProcessing, startAutoProcessing } from '../auto-processing/index.js';
import { findExactDuplicate, findNearDuplicate, indexIntakeFacts, rethread } from './relations.js';

/** A child file, already committed to the blob store, with the type its bytes (and name) showed. */
export interface StoredChild {
  name: string;
  sha256: string;
  size: number;
  detected: DetectedType | null;
}

/** Commits the worker's files to the blob store (content-addressed, before any row names them). */
export async function commitOutcomeFiles(blobs: BlobStore, outcome: IntakeOutcome): Promise<StoredChild[]> {
  await blobs.commit({ tempPath: outcome.rendered.tempPath, sha256: outcome.rendered.sha256, size: outcome.rendered.size });
  const children: StoredChild[] = [];
  for (const file of outcome.children) {
    const detected = await detectDocumentType(file.tempPath, file.name);
    await blobs.commit({ tempPath: file.tempPath, sha256: file.sha256, size: file.size });
    children.push({ name: file.name, sha256: file.sha256, size: file.size, detected });
  }
  return children;
}

/**
 * One transaction: the document now points at its rendered PDF (the original stays a blob named by its
 * intake row), its e-mail fields, exact and near duplicates, its attachments as child documents (not for an
 * exact duplicate: the first copy's family stands), and the case's threads.
 */
export async function storeOutcome(
  db: Executor,
  ctx: ServiceContext,
  document: DocumentRow,
  intake: { originalSha256: string; depth: number; format: IntakeFormat },
  outcome: IntakeOutcome,
  children: StoredChild[],
): Promise<void> {
  const now = isoNow(ctx);
  const warnings = [...outcome.warnings];
  await insertBlobIfAbsent(db, outcome.rendered.sha256, outcome.rendered.size, now);
  const duplicateOf =
    document.duplicate_of ??
    (await findExactDuplicate(db, document.case_id, document.id, { originalSha256: intake.originalSha256, messageId: outcome.email?.message_id ?? null, bodyHash: outcome.bodyHash }));
  const near = duplicateOf === null && outcome.minhash ? await findNearDuplicate(db, document.case_id, document.id, outcome.minhash) : null;
  await db
    .updateTable('documents')
    .set({
      sha256: outcome.rendered.sha256,
      size: outcome.rendered.size,
      media_type: 'application/pdf',
      document_type: 'pdf',
      email: outcome.email ? JSON.stringify(outcome.email) : null,
      duplicate_of: duplicateOf,
      updated_at: now,
    })
    .where('id', '=', document.id)
    .execute();
  if (duplicateOf !== null && children.length > 0) warnings.push(`exact duplicate of document ${duplicateOf}: its ${children.length} attachments are not taken again`);
  const created: number[] = [];
  if (duplicateOf === null) {
    for (const [index, child] of children.entries()) {
      if (!child.detected) {
        warnings.push(`attachment ${index + 1} (${child.name}) is not a type Obscura takes; it stays only in the original`);
        continue;
      }
      const childName = intake.format === 'mbox' || intake.format === 'pst' ? `${path.parse(document.file_name).name} ${child.name}` : child.name;
      await insertBlobIfAbsent(db, child.sha256, child.size, now);
      const id = await insertDocument(db, {
        organization_id: document.organization_id,
        case_id: document.case_id,
        file_name: childName.slice(0, 255),
        description: '',
        sha256: child.sha256,
        size: child.size,
        media_type: child.detected.mediaType,
        document_type: child.detected.documentType,
        source_type: sourceTypeOf(child.detected.documentType),
        parent_document_id: document.id,
        attachment_index: index,
        created_at: now,
        updated_at: now,
        deleted_at: null,
      });
      created.push(id);
    }
  }
  await db
    .updateTable('document_intake')
    .set({
      status: 'converted',
      error: null,
      warnings: JSON.stringify(warnings),
      pages: outcome.rendered.pages,
      message_id: outcome.email?.message_id ?? null,
      body_hash: outcome.bodyHash,
      subject_key: outcome.subjectKey,
      minhash: outcome.minhash ? JSON.stringify(outcome.minhash) : null,
      near_duplicate_of: near?.id ?? null,
      near_duplicate_score: near ? Math.round(near.score * 1000) / 1000 : null,
      updated_at: now,
    })
    .where('document_id', '=', document.id)
    .execute();
  for (const id of created) {
    const row = await db.selectFrom('documents').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    await recordChange(db, ctx, {
      action: 'document.create',
      resourceType: 'document',
      resourceId: id,
      details: { parent_document_id: String(document.id), attachment_index: row.attachment_index },
      event: { type: 'document.created', payload: { document: toDocument(row) } },
    });
  }
  await recordChange(db, ctx, {
    action: 'document.convert',
    resourceType: 'document',
    resourceId: document.id,
    details: { original_sha256: intake.originalSha256, pdf_sha256: outcome.rendered.sha256, pages: outcome.rendered.pages, children: created.length, duplicate_of: duplicateOf === null ? null : String(duplicateOf) },
  });
  await indexIntakeFacts(db, document.case_id, document.id, { minhash: outcome.minhash, duplicateOf, email: outcome.email });
  if (outcome.email) await rethread(db, document.case_id, document.id);
  // Automatic processing (issue 18): the converted document, and its attachments, run their chain now.
  await resumeAutoProcessing(db, ctx.clock, document.id);
  await startAutoProcessing(db, ctx, created);
}
