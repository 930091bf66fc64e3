import type { Executor } from './executor.js';

export async function insertUserRole(db: Executor, values: { organization_id: number; user_id: number; role_id: number; assigned_at: string }): Promise<boolean> {
  const result = await db
    .insertInto('user_roles')
    .values(values)
    .onConflict((oc) => oc.columns(['user_id', 'role_id']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0n) === 1;
}

export async function deleteUserRole(db: Executor, organizationId: number, userId: number, roleId: number): Promise<boolean> {
  const result = await db
    .deleteFrom('user_roles')
    .where('organization_id', '=', organizationId)
    .where('user_id', '=', userId)
    .where('role_id', '=', roleId)
    .executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}

/** The roles held by one user, for scopes and for showing the user. */
export function listRolesOfUser(db: Executor, organizationId: number, userId: number) {
  return db
    .selectFrom('user_roles')
    .innerJoin('roles', 'roles.id', 'user_roles.role_id')
    .select(['roles.id', 'roles.name', 'roles.scopes', 'roles.built_in', 'user_roles.assigned_at'])
    .where('user_roles.organization_id', '=', organizationId)
    .where('user_roles.user_id', '=', userId)
    .orderBy('roles.id')
    .execute();
}

/** Role ids per user for a page of users, in one query. */
export function listRolesOfUsers(db: Executor, organizationId: number, userIds: readonly number[]) {
  if (userIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('user_roles')
    .innerJoin('roles', 'roles.id', 'user_roles.role_id')
    .select(['user_roles.user_id', 'roles.id', 'roles.name'])
    .where('user_roles.organization_id', '=', organizationId)
    .where('user_roles.user_id', 'in', userIds)
    .orderBy('roles.id')
    .execute();
}

export async function countUsersWithRole(db: Executor, organizationId: number, roleId: number): Promise<number> {
  const row = await db
    .selectFrom('user_roles')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('organization_id', '=', organizationId)
    .where('role_id', '=', roleId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Active users holding a role other than `exceptUserId`: the last administrator may not be removed. */
export async function countOtherActiveHolders(db: Executor, organizationId: number, roleId: number, exceptUserId: number): Promise<number> {
  const row = await db
    .selectFrom('user_roles')
    .innerJoin('users', 'users.id', 'user_roles.user_id')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_roles.organization_id', '=', organizationId)
    .where('user_roles.role_id', '=', roleId)
    .where('users.active', '=', 1)
    .where('users.id', '!=', exceptUserId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
