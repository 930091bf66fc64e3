import type { Executor } from '../db/queries/executor.js';
import type { CommentRow } from '../db/schema.js';
import { findComment, insertComment, pageDocumentComments } from '../db/queries/comments.js';
import type { PageRequest } from '../db/queries/page.js';
import { notFound } from '../common/errors.js';
import type { Comment } from '../common/schemas/redactions.js';
import { recordChange } from './change-log.js';
import { isoNow, type ServiceContext } from './context.js';
import { requireDocument } from './documents.js';

function toComment(row: CommentRow): Comment {
  return { id: String(row.id), document_id: String(row.document_id), text: row.text, author: { type: row.author_type, id: row.author_id }, created_at: row.created_at };
}

export async function listCommentPage(db: Executor, ctx: ServiceContext, documentId: number, page: PageRequest) {
  await requireDocument(db, ctx, documentId);
  const result = await pageDocumentComments(db, ctx.actor.organizationId, documentId, page);
  return { items: result.rows.map(toComment), nextAfterId: result.nextAfterId };
}

export async function createComment(db: Executor, ctx: ServiceContext, documentId: number, text: string): Promise<Comment> {
  await requireDocument(db, ctx, documentId);
  const id = await insertComment(db, {
    organization_id: ctx.actor.organizationId,
    document_id: documentId,
    text,
    author_type: ctx.actor.type,
    author_id: ctx.actor.id,
    created_at: isoNow(ctx),
  });
  const comment = await getComment(db, ctx, id);
  await recordChange(db, ctx, { action: 'comment.create', resourceType: 'comment', resourceId: id, event: { type: 'comment.created', payload: { comment } } });
  return comment;
}

export async function getComment(db: Executor, ctx: ServiceContext, id: number): Promise<Comment> {
  const row = await findComment(db, ctx.actor.organizationId, id);
  if (!row) throw notFound('comment');
  await requireDocument(db, ctx, row.document_id);
  return toComment(row);
}
