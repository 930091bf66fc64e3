import type { CaseUpdate, NewCase } from '../schema.js';
import type { Executor } from './executor.js';
import { fetchPage, type PageRequest } from './page.js';

export async function insertCase(db: Executor, values: NewCase): Promise<number> {
  const row = await db.insertInto('cases').values(values).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

/** A case of the organization, including soft-deleted ones (their status says so). */
export function findCase(db: Executor, organizationId: number, id: number) {
  return db.selectFrom('cases').selectAll().where('organization_id', '=', organizationId).where('id', '=', id).executeTakeFirst();
}

export function listCases(db: Executor, organizationId: number, page: PageRequest) {
  const query = db.selectFrom('cases').selectAll().where('organization_id', '=', organizationId).where('deleted_at', 'is', null);
  return fetchPage(query, 'cases.id', page);
}

export async function updateCase(db: Executor, organizationId: number, id: number, values: CaseUpdate): Promise<void> {
  await db.updateTable('cases').set(values).where('organization_id', '=', organizationId).where('id', '=', id).execute();
}
