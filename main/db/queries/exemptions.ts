import { sql, type Insertable, type Updateable } from 'kysely';
import type { ExemptionsTable } from '../schema.js';
import type { Executor } from './executor.js';
import { fetchPage, type PageRequest } from './page.js';
import { foldCase } from '../dialect.js';

export async function insertExemption(db: Executor, values: Insertable<ExemptionsTable>): Promise<number> {
  const row = await db.insertInto('exemptions').values(values).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

export function findExemption(db: Executor, organizationId: number, id: number) {
  return db.selectFrom('exemptions').selectAll().where('organization_id', '=', organizationId).where('id', '=', id).executeTakeFirst();
}

export function findExemptionByCode(db: Executor, organizationId: number, code: string) {
  return db.selectFrom('exemptions').selectAll().where('organization_id', '=', organizationId).where(foldCase(db, sql<string>`code`), '=', foldCase(db, sql<string>`${code}`)).executeTakeFirst();
}

export function listExemptionPage(db: Executor, organizationId: number, page: PageRequest, filter: { layer?: string | undefined } = {}) {
  let query = db.selectFrom('exemptions').selectAll().where('organization_id', '=', organizationId);
  if (filter.layer !== undefined) query = query.where('layer', '=', filter.layer);
  return fetchPage(query, 'exemptions.id', page);
}

export async function updateExemption(db: Executor, organizationId: number, id: number, changes: Updateable<ExemptionsTable>): Promise<void> {
  await db.updateTable('exemptions').set(changes).where('organization_id', '=', organizationId).where('id', '=', id).execute();
}

export async function deleteExemption(db: Executor, organizationId: number, id: number): Promise<void> {
  await db.deleteFrom('exemptions').where('organization_id', '=', organizationId).where('id', '=', id).execute();
}
