import type { Executor } from './executor.js';

// Pages the search index has not caught up with (queued by triggers on document_pages, migration 12).

export function listStalePages(db: Executor, limit: number) {
  return db.selectFrom('search_stale').selectAll().orderBy('document_id').orderBy('page_number').limit(limit).execute();
}

export async function hasStalePages(db: Executor): Promise<boolean> {
  return (await db.selectFrom('search_stale').select('document_id').limit(1).executeTakeFirst()) !== undefined;
}

export async function clearStalePage(db: Executor, documentId: number, pageNumber: number): Promise<void> {
  await db.deleteFrom('search_stale').where('document_id', '=', documentId).where('page_number', '=', pageNumber).execute();
}
