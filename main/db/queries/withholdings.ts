import type { Insertable } from 'kysely';
import type { WithholdingsTable } from '../schema.js';
import type { Executor } from './executor.js';

export async function insertWithholding(db: Executor, values: Insertable<WithholdingsTable>): Promise<number> {
  const row = await db.insertInto('withholdings').values(values).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

export function findWithholding(db: Executor, organizationId: number, id: number) {
  return db.selectFrom('withholdings').selectAll().where('organization_id', '=', organizationId).where('id', '=', id).executeTakeFirst();
}

/** A case's withholdings, oldest first. */
export function listCaseWithholdings(db: Executor, organizationId: number, caseId: number) {
  return db.selectFrom('withholdings').selectAll().where('organization_id', '=', organizationId).where('case_id', '=', caseId).orderBy('id').execute();
}

export async function deleteWithholding(db: Executor, organizationId: number, id: number): Promise<void> {
  await db.deleteFrom('withholdings').where('organization_id', '=', organizationId).where('id', '=', id).execute();
}
