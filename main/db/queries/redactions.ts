import type { NewRedaction, RedactionRow } from '../schema.js';
import type { Executor } from './executor.js';
import { fetchPage, type PageRequest } from './page.js';

// 21 bound columns per row: 1,000 rows stay below SQLite's limit of 32,766 parameters per statement.
const INSERT_CHUNK = 1000;

export function listLayerRedactions(db: Executor, documentId: number, layer: string): Promise<RedactionRow[]> {
  return db.selectFrom('redactions').selectAll().where('document_id', '=', documentId).where('layer', '=', layer).orderBy('id').execute();
}

export function listDocumentRedactions(db: Executor, documentId: number, layers?: readonly string[]): Promise<RedactionRow[]> {
  let query = db.selectFrom('redactions').selectAll().where('document_id', '=', documentId);
  if (layers) query = query.where('layer', 'in', layers.length > 0 ? [...layers] : ['']);
  return query.orderBy('id').execute();
}

export function pageDocumentRedactions(db: Executor, organizationId: number, documentId: number, page: PageRequest) {
  const query = db.selectFrom('redactions').selectAll().where('organization_id', '=', organizationId).where('document_id', '=', documentId);
  return fetchPage(query, 'redactions.id', page);
}

export function findRedaction(db: Executor, organizationId: number, id: number) {
  return db.selectFrom('redactions').selectAll().where('organization_id', '=', organizationId).where('id', '=', id).executeTakeFirst();
}

/** Boxes with this client id in the organization (normally one; ids are per document). */
export function findRedactionsByClientId(db: Executor, organizationId: number, redactionId: string, documentId?: number) {
  let query = db.selectFrom('redactions').selectAll().where('organization_id', '=', organizationId).where('redaction_id', '=', redactionId);
  if (documentId !== undefined) query = query.where('document_id', '=', documentId);
  return query.execute();
}

export function findRedactionsByIds(db: Executor, organizationId: number, documentId: number, ids: readonly number[]) {
  if (ids.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('redactions')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('document_id', '=', documentId)
    .where('id', 'in', [...ids])
    .execute();
}

/** Inserts rows in chunks; returns their new ids in the order given. */
export async function insertRedactions(db: Executor, rows: readonly NewRedaction[]): Promise<number[]> {
  const ids: number[] = [];
  for (let start = 0; start < rows.length; start += INSERT_CHUNK) {
    const inserted = await db.insertInto('redactions').values(rows.slice(start, start + INSERT_CHUNK)).returning('id').execute();
    for (const row of inserted) ids.push(row.id);
  }
  return ids;
}

export async function updateRedaction(db: Executor, id: number, values: Partial<Omit<NewRedaction, 'id'>>): Promise<void> {
  await db.updateTable('redactions').set(values).where('id', '=', id).execute();
}

export async function deleteRedactionsByRowIds(db: Executor, ids: readonly number[]): Promise<void> {
  for (let start = 0; start < ids.length; start += 500) {
    await db.deleteFrom('redactions').where('id', 'in', ids.slice(start, start + 500)).execute();
  }
}
