import { sql } from 'kysely';
import type { Insertable } from 'kysely';
import type { SearchPagesTable } from '../schema.js';
import { escapeLike, isPostgres, totalOf } from '../dialect.js';
import type { Executor } from './executor.js';

// The search index's pages and their trigram index: on SQLite an FTS5 table (external content: kept in step
// here, by hand); on PostgreSQL a pg_trgm index on search_pages.folded itself, which needs no upkeep.

export async function deleteSearchPage(db: Executor, documentId: number, pageNumber: number): Promise<void> {
  const row = await db.selectFrom('search_pages').select(['id', 'folded']).where('document_id', '=', documentId).where('page_number', '=', pageNumber).executeTakeFirst();
  if (!row) return;
  if (!isPostgres(db)) await sql`INSERT INTO search_pages_fts (search_pages_fts, rowid, folded) VALUES ('delete', ${row.id}, ${row.folded})`.execute(db);
  await db.deleteFrom('search_pages').where('id', '=', row.id).execute();
}

export async function insertSearchPage(db: Executor, values: Insertable<SearchPagesTable>): Promise<void> {
  const { id } = await db.insertInto('search_pages').values(values).returning('id').executeTakeFirstOrThrow();
  if (!isPostgres(db)) await sql`INSERT INTO search_pages_fts (rowid, folded) VALUES (${id}, ${values.folded})`.execute(db);
}

/** The needles of an FTS5 expression made of quoted phrases joined by OR (the only form the matcher writes). */
export function ftsPhrases(ftsQuery: string): string[] {
  const phrases: string[] = [];
  const pattern = /"((?:[^"]|"")*)"(?: OR |$)/y;
  for (let match = pattern.exec(ftsQuery); match; match = pattern.exec(ftsQuery)) {
    phrases.push((match[1] ?? '').replaceAll('""', '"'));
    if (pattern.lastIndex >= ftsQuery.length) return phrases;
  }
  throw new Error(`not an OR of quoted phrases: ${ftsQuery}`);
}

export interface SearchScope {
  organizationId: number;
  caseId: number;
  documentIds?: readonly number[] | undefined;
  /** Keyset start: pages after this (document, page). */
  after?: { documentId: number; pageNumber: number } | undefined;
}

/**
 * Indexed pages of a case's live documents in (document, page) order, with the strings the search reads
 * (the other is ''): half the bytes for most searches. Narrowed by the FTS5 expression when there is one.
 */
export function listSearchPages(db: Executor, scope: SearchScope, ftsQuery: string | null, reads: 'text' | 'folded' | 'both') {
  let query = db
    .selectFrom('search_pages as p')
    .innerJoin('documents as d', 'd.id', 'p.document_id')
    .select(['p.document_id', 'p.page_number', 'p.unit', 'd.file_name'])
    .select(reads === 'folded' ? sql<string>`''`.as('text') : sql<string>`p.text`.as('text'))
    .select(reads === 'text' ? sql<string>`''`.as('folded') : sql<string>`p.folded`.as('folded'))
    .where('p.organization_id', '=', scope.organizationId)
    .where('p.case_id', '=', scope.caseId)
    .where('d.deleted_at', 'is', null);
  if (ftsQuery !== null && isPostgres(db)) {
    // The trigram index answers LIKE '%needle%' on the folded text exactly as FTS5 answers the phrase.
    const phrases = ftsPhrases(ftsQuery);
    query = query.where((eb) => eb.or(phrases.map((phrase) => eb(sql`p.folded`, 'like', `%${escapeLike(phrase)}%`))));
  } else if (ftsQuery !== null) {
    query = query.where(sql<boolean>`p.id IN (SELECT rowid FROM search_pages_fts WHERE search_pages_fts MATCH ${ftsQuery})`);
  }
  if (scope.documentIds) query = query.where('p.document_id', 'in', [...scope.documentIds]);
  const after = scope.after;
  if (after) {
    query = query.where((eb) =>
      eb.or([eb('p.document_id', '>', after.documentId), eb.and([eb('p.document_id', '=', after.documentId), eb('p.page_number', '>', after.pageNumber)])]),
    );
  }
  return query.orderBy('p.document_id').orderBy('p.page_number').execute();
}

/** Changes whenever a page of the case is indexed, replaced or removed (ids are never reused). */
export async function searchPagesFingerprint(db: Executor, organizationId: number, caseId: number): Promise<string> {
  const row = await db
    .selectFrom('search_pages')
    .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.max('id').as('m'), totalOf(sql<number>`id`).as('s')])
    .where('organization_id', '=', organizationId)
    .where('case_id', '=', caseId)
    .executeTakeFirstOrThrow();
  return `${row.n}:${row.m ?? 0}:${row.s}`;
}


/** Every indexed page of a case (deleted documents included), in (document, page) order: for the page cache. */
export function listAllSearchPages(db: Executor, organizationId: number, caseId: number) {
  return db
    .selectFrom('search_pages')
    .select(['document_id', 'page_number', 'unit', 'text', 'folded'])
    .where('organization_id', '=', organizationId)
    .where('case_id', '=', caseId)
    .orderBy('document_id')
    .orderBy('page_number')
    .execute();
}
