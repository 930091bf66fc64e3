import { CompiledQuery } from 'kysely';
import { isPostgres } from '../dialect.js';
import type { NewRedaction, RedactionRow } from '../schema.js';
import type { Executor } from './executor.js';
import { fetchPage, type PageRequest } from './page.js';

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

const INSERT_COLUMNS = [
  'organization_id',
  'document_id',
  'redaction_id',
  'source',
  'layer',
  'kind',
  'page_number',
  'x1',
  'y1',
  'x2',
  'y2',
  'points',
  'reason',
  'classification_type',
  'state',
  'pending_reason',
  'version_id',
  'created_at',
  'created_by',
  'updated_at',
  'updated_by',
] as const satisfies readonly (keyof NewRedaction)[];

// Rows per statement, largest first. A few fixed sizes keep the statements in the connection's cache
// (Kysely's builder costs more than SQLite for 1,000 rows); 500 rows x 21 columns stays below SQLite's
// 32,766 parameters per statement.
const INSERT_CHUNKS = [500, 100, 20, 5, 1] as const;
const insertSql = new Map<string, string>();

/** SQLite: `?` placeholders, no RETURNING. PostgreSQL: `$n` placeholders and RETURNING id. */
function insertStatement(rows: number, postgres: boolean): string {
  const key = `${postgres ? 'pg' : 'sqlite'}:${rows}`;
  let sql = insertSql.get(key);
  if (sql === undefined) {
    const width = INSERT_COLUMNS.length;
    const tuple = (row: number) => `(${INSERT_COLUMNS.map((_, column) => (postgres ? `$${row * width + column + 1}` : '?')).join(',')})`;
    sql = `insert into "redactions" (${INSERT_COLUMNS.map((column) => `"${column}"`).join(', ')}) values ${Array.from({ length: rows }, (_, row) => tuple(row)).join(',')}`;
    if (postgres) sql += ' returning "id"';
    insertSql.set(key, sql);
  }
  return sql;
}

/** Inserts rows in chunks; returns their new ids in the order given. */
export async function insertRedactions(db: Executor, rows: readonly NewRedaction[]): Promise<number[]> {
  const postgres = isPostgres(db);
  const ids: number[] = [];
  let start = 0;
  for (const size of INSERT_CHUNKS) {
    while (rows.length - start >= size) {
      const parameters: unknown[] = [];
      for (let index = start; index < start + size; index += 1) {
        const row = rows[index] as NewRedaction;
        for (const column of INSERT_COLUMNS) parameters.push(row[column] ?? null);
      }
      const result = await db.executeQuery<{ id: number }>(CompiledQuery.raw(insertStatement(size, postgres), parameters));
      if (postgres) {
        // Other writers may take ids in between, but one INSERT's rows get increasing ids in VALUES order.
        if (result.rows.length !== size) throw new Error('bulk insert did not return its rows');
        ids.push(...result.rows.map((row) => row.id).sort((a, b) => a - b));
        start += size;
        continue;
      }
      // No RETURNING on SQLite (it halves the insert's speed): with AUTOINCREMENT and one writer, the rows of
      // one INSERT get consecutive ids ending at the last insert id.
      if (Number(result.numAffectedRows) !== size || result.insertId === undefined) throw new Error('bulk insert did not report its rows');
      const last = Number(result.insertId);
      for (let offset = size - 1; offset >= 0; offset -= 1) ids.push(last - offset);
      start += size;
    }
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

/** Pending boxes (suggestions) of a case's live documents, in (document, page, id) order, with the file name. */
export function listCasePendingRedactions(db: Executor, organizationId: number, caseId: number, limit: number) {
  return db
    .selectFrom('redactions as r')
    .innerJoin('documents as d', 'd.id', 'r.document_id')
    .selectAll('r')
    .select('d.file_name')
    .where('r.organization_id', '=', organizationId)
    .where('d.case_id', '=', caseId)
    .where('d.deleted_at', 'is', null)
    .where('r.state', '=', 'pending')
    .orderBy('r.document_id')
    .orderBy('r.page_number')
    .orderBy('r.id')
    .limit(limit)
    .execute();
}
