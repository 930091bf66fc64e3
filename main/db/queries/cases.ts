import type { CaseRow, CaseUpdate, NewCase } from '../schema.js';
import type { Executor } from './executor.js';
import { fetchPage, type PageRequest } from './page.js';
import { precompiled } from './precompiled.js';

export async function insertCase(db: Executor, values: NewCase): Promise<number> {
  const row = await db.insertInto('cases').values(values).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

const selectCase = precompiled(
  (db, organizationId: number, id: number) => db.selectFrom('cases').selectAll().where('organization_id', '=', organizationId).where('id', '=', id),
  [0, 0],
);

/** A case of the organization, including soft-deleted ones (their status says so). */
export async function findCase(db: Executor, organizationId: number, id: number): Promise<CaseRow | undefined> {
  return (await selectCase(db, organizationId, id))[0];
}

export function listCases(db: Executor, organizationId: number, page: PageRequest) {
  const query = db.selectFrom('cases').selectAll().where('organization_id', '=', organizationId).where('deleted_at', 'is', null);
  return fetchPage(query, 'cases.id', page);
}

export async function updateCase(db: Executor, organizationId: number, id: number, values: CaseUpdate): Promise<void> {
  await db.updateTable('cases').set(values).where('organization_id', '=', organizationId).where('id', '=', id).execute();
}
