import type { Executor } from './executor.js';

export async function insertOrganization(db: Executor, name: string, now: string): Promise<number> {
  const row = await db.insertInto('organizations').values({ name, created_at: now }).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

export function findOrganization(db: Executor, id: number) {
  return db.selectFrom('organizations').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function countOrganizations(db: Executor): Promise<number> {
  const row = await db.selectFrom('organizations').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The oldest organization: where config-file resources go when they name none. */
export async function findFirstOrganizationId(db: Executor): Promise<number | undefined> {
  const row = await db.selectFrom('organizations').select('id').orderBy('id').limit(1).executeTakeFirst();
  return row?.id;
}
