import { sql, type Insertable } from 'kysely';
import { jsonArrayLength } from '../dialect.js';
import type { DocumentPagesTable } from '../schema.js';
import type { Executor } from './executor.js';

/** Writes one page, replacing what an earlier run (or an interrupted attempt) stored for it. */
export async function upsertDocumentPage(db: Executor, values: Insertable<DocumentPagesTable>): Promise<void> {
  const { organization_id: _org, document_id: _doc, page_number: _page, ...changes } = values;
  await db
    .insertInto('document_pages')
    .values(values)
    .onConflict((conflict) => conflict.columns(['document_id', 'page_number']).doUpdateSet(changes))
    .execute();
}

export function listDocumentPages(db: Executor, organizationId: number, documentId: number) {
  return db
    .selectFrom('document_pages')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('document_id', '=', documentId)
    .orderBy('page_number')
    .execute();
}

/** Page numbers already stored by a given job: a resumed job skips them. */
export async function listPageNumbersOfJob(db: Executor, jobId: number): Promise<number[]> {
  const rows = await db.selectFrom('document_pages').select('page_number').where('job_id', '=', jobId).orderBy('page_number').execute();
  return rows.map((row) => row.page_number);
}

export async function deleteDocumentPagesFrom(db: Executor, documentId: number, firstPageNumber: number): Promise<void> {
  await db.deleteFrom('document_pages').where('document_id', '=', documentId).where('page_number', '>=', firstPageNumber).execute();
}

/** What a job stored per page, without the words themselves: for the job's result. */
export function listJobPageSummaries(db: Executor, jobId: number) {
  return db
    .selectFrom('document_pages')
    .select(['page_number', 'source', 'mean_confidence', jsonArrayLength(db, sql<string>`words`).as('word_count')])
    .where('job_id', '=', jobId)
    .orderBy('page_number')
    .execute();
}

/** One stored page with its document's case: what the search index copies. */
export function findPageWithCase(db: Executor, documentId: number, pageNumber: number) {
  return db
    .selectFrom('document_pages as p')
    .innerJoin('documents as d', 'd.id', 'p.document_id')
    .select(['p.organization_id', 'd.case_id', 'p.unit', 'p.text', 'p.words'])
    .where('p.document_id', '=', documentId)
    .where('p.page_number', '=', pageNumber)
    .executeTakeFirst();
}

/** The text and words of one page of an organization's document. */
export function findPageWords(db: Executor, organizationId: number, documentId: number, pageNumber: number) {
  return db
    .selectFrom('document_pages')
    .select(['text', 'words'])
    .where('organization_id', '=', organizationId)
    .where('document_id', '=', documentId)
    .where('page_number', '=', pageNumber)
    .executeTakeFirst();
}
