import type { Insertable } from 'kysely';
import type { DocumentsTable, DocumentUpdate } from '../schema.js';
import type { Executor } from './executor.js';
import { fetchPage, type PageRequest } from './page.js';

export async function insertDocument(db: Executor, values: Insertable<DocumentsTable>): Promise<number> {
  const row = await db.insertInto('documents').values(values).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

/** A live (not deleted) document of the organization. */
export function findDocument(db: Executor, organizationId: number, id: number) {
  return db
    .selectFrom('documents')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
}

export function listCaseDocuments(db: Executor, organizationId: number, caseId: number, page: PageRequest) {
  const query = db
    .selectFrom('documents')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('case_id', '=', caseId)
    .where('deleted_at', 'is', null);
  return fetchPage(query, 'documents.id', page);
}

export function findDocumentsByIds(db: Executor, organizationId: number, ids: number[]) {
  if (ids.length === 0) return Promise.resolve([]);
  return db.selectFrom('documents').selectAll().where('organization_id', '=', organizationId).where('id', 'in', ids).orderBy('id').execute();
}

export async function updateDocument(db: Executor, organizationId: number, id: number, values: DocumentUpdate): Promise<void> {
  await db.updateTable('documents').set(values).where('organization_id', '=', organizationId).where('id', '=', id).execute();
}
