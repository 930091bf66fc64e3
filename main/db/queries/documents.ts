import type { Insertable } from 'kysely';
import type { DocumentRow, DocumentsTable, DocumentUpdate } from '../schema.js';
import type { Executor } from './executor.js';
import { fetchPage, type PageRequest } from './page.js';
import { precompiled } from './precompiled.js';

export async function insertDocument(db: Executor, values: Insertable<DocumentsTable>): Promise<number> {
  const row = await db.insertInto('documents').values(values).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

const selectDocument = precompiled(
  (db, organizationId: number, id: number) =>
    db.selectFrom('documents').selectAll().where('organization_id', '=', organizationId).where('id', '=', id).where('deleted_at', 'is', null),
  [0, 0],
);

/** A live (not deleted) document of the organization. */
export async function findDocument(db: Executor, organizationId: number, id: number): Promise<DocumentRow | undefined> {
  return (await selectDocument(db, organizationId, id))[0];
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

/** Every document of a case, deleted ones included (their deleted_at says so), oldest first: for exports. */
export function listAllCaseDocuments(db: Executor, organizationId: number, caseId: number) {
  return db.selectFrom('documents').selectAll().where('organization_id', '=', organizationId).where('case_id', '=', caseId).orderBy('id').execute();
}

/** Ids and names of a case's live documents (search reads pages of these only). */
export function listLiveCaseDocumentNames(db: Executor, organizationId: number, caseId: number) {
  return db.selectFrom('documents').select(['id', 'file_name']).where('organization_id', '=', organizationId).where('case_id', '=', caseId).where('deleted_at', 'is', null).execute();
}

/** The first live document of a case with this content: what a repeated upload is a duplicate of. */
export async function findFirstCaseDocumentWithSha256(db: Executor, organizationId: number, caseId: number, sha256: string): Promise<{ id: number; duplicate_of: number | null } | undefined> {
  return db
    .selectFrom('documents')
    .select(['id', 'duplicate_of'])
    .where('organization_id', '=', organizationId)
    .where('case_id', '=', caseId)
    .where('sha256', '=', sha256)
    .where('deleted_at', 'is', null)
    .orderBy('id')
    .limit(1)
    .executeTakeFirst();
}
