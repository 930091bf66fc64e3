import type { Insertable } from 'kysely';
import type { CommentsTable } from '../schema.js';
import type { Executor } from './executor.js';
import { fetchPage, type PageRequest } from './page.js';

export async function insertComment(db: Executor, values: Insertable<CommentsTable>): Promise<number> {
  const row = await db.insertInto('comments').values(values).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

export function findComment(db: Executor, organizationId: number, id: number) {
  return db.selectFrom('comments').selectAll().where('organization_id', '=', organizationId).where('id', '=', id).executeTakeFirst();
}

export function pageDocumentComments(db: Executor, organizationId: number, documentId: number, page: PageRequest) {
  const query = db.selectFrom('comments').selectAll().where('organization_id', '=', organizationId).where('document_id', '=', documentId);
  return fetchPage(query, 'comments.id', page);
}

/** Every comment of a document, oldest first: for exports. */
export function listDocumentComments(db: Executor, organizationId: number, documentId: number) {
  return db.selectFrom('comments').selectAll().where('organization_id', '=', organizationId).where('document_id', '=', documentId).orderBy('id').execute();
}
