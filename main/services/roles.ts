import { DomainError, notFound } from '../common/errors.js';
import type { CreateRoleBody, Role, UpdateRoleBody } from '../common/schemas/roles.js';
import type { User } from '../common/schemas/users.js';
import { ALL_SCOPES, type Scope } from '../common/scopes.js';
import type { Executor } from '../db/queries/executor.js';
import type { PageRequest } from '../db/queries/page.js';
import { deleteRoleWithAssignments, findRole, findRoleByName, insertRole, listRolePage, updateRole } from '../db/queries/roles.js';
import { deleteUserRole, insertUserRole } from '../db/queries/user-roles.js';
import { updateUser } from '../db/queries/users.js';
import type { RoleRow } from '../db/schema.js';
import { recordChange } from './change-log.js';
import { isoNow, type ServiceContext } from './context.js';
import { assertCallerHolds, parseScopes } from './grants.js';
import { assertNotLastAdmin, getUser, requireUser } from './users.js';

/** The admin role always grants every scope, including scopes added after it was stored. */
function scopesOf(row: RoleRow): Scope[] {
  return row.built_in === 'admin' ? [...ALL_SCOPES] : parseScopes(row.scopes);
}

function present(row: RoleRow): Role {
  return {
    id: String(row.id),
    name: row.name,
    description: row.description,
    scopes: scopesOf(row),
    built_in: row.built_in !== null,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

async function requireRole(db: Executor, ctx: ServiceContext, id: number): Promise<RoleRow> {
  const row = await findRole(db, ctx.actor.organizationId, id);
  if (!row) throw notFound('role');
  return row;
}

async function assertNameFree(db: Executor, ctx: ServiceContext, name: string, exceptId?: number): Promise<void> {
  const existing = await findRoleByName(db, ctx.actor.organizationId, name);
  if (existing && existing.id !== exceptId) throw new DomainError('conflict', `a role named ${name} already exists`, [{ field: 'name', message: 'taken' }]);
}

export async function listRoles(db: Executor, ctx: ServiceContext, page: PageRequest) {
  const result = await listRolePage(db, ctx.actor.organizationId, page);
  return { items: result.rows.map(present), nextAfterId: result.nextAfterId };
}

export async function getRole(db: Executor, ctx: ServiceContext, id: number): Promise<Role> {
  return present(await requireRole(db, ctx, id));
}

export async function createRole(db: Executor, ctx: ServiceContext, body: CreateRoleBody, caller: ReadonlySet<Scope>): Promise<Role> {
  assertCallerHolds(caller, body.scopes, 'this role');
  await assertNameFree(db, ctx, body.name);
  const now = isoNow(ctx);
  const id = await insertRole(db, {
    organization_id: ctx.actor.organizationId,
    name: body.name,
    description: body.description ?? '',
    scopes: JSON.stringify(body.scopes),
    built_in: null,
    created_at: now,
    updated_at: now,
  });
  const role = await getRole(db, ctx, id);
  await recordChange(db, ctx, { action: 'role.create', resourceType: 'role', resourceId: id, event: { type: 'role.created', payload: { role } } });
  return role;
}

/** Built-in roles keep their names; the admin role keeps every scope. Others' scopes may be adjusted. */
export async function updateRoleFields(db: Executor, ctx: ServiceContext, id: number, body: UpdateRoleBody, caller: ReadonlySet<Scope>): Promise<Role> {
  const row = await requireRole(db, ctx, id);
  const before = present(row);
  assertCallerHolds(caller, [...before.scopes, ...(body.scopes ?? [])], `changing role ${row.name}`);
  const changed: string[] = [];
  if (body.name !== undefined && body.name !== row.name) {
    if (row.built_in) throw new DomainError('conflict', `built-in role ${row.name} cannot be renamed`);
    await assertNameFree(db, ctx, body.name, id);
    changed.push('name');
  }
  if (body.scopes !== undefined && body.scopes.join() !== before.scopes.join()) {
    if (row.built_in === 'admin') throw new DomainError('conflict', 'the admin role always has every scope');
    changed.push('scopes');
  }
  if (body.description !== undefined && body.description !== row.description) changed.push('description');
  if (changed.length === 0) return before;
  await updateRole(db, ctx.actor.organizationId, id, {
    ...(changed.includes('name') && { name: body.name }),
    ...(changed.includes('scopes') && { scopes: JSON.stringify(body.scopes) }),
    ...(changed.includes('description') && { description: body.description }),
    updated_at: isoNow(ctx),
  });
  const role = await getRole(db, ctx, id);
  await recordChange(db, ctx, { action: 'role.update', resourceType: 'role', resourceId: id, details: { changed }, event: { type: 'role.updated', payload: { role, changed } } });
  return role;
}

/** Deleting a role removes it from its holders; built-in roles cannot be deleted. */
export async function deleteRole(db: Executor, ctx: ServiceContext, id: number, caller: ReadonlySet<Scope>): Promise<void> {
  const row = await requireRole(db, ctx, id);
  if (row.built_in) throw new DomainError('conflict', `built-in role ${row.name} cannot be deleted`);
  const role = present(row);
  assertCallerHolds(caller, role.scopes, `deleting role ${row.name}`);
  const userIds = await deleteRoleWithAssignments(db, ctx.actor.organizationId, id);
  await recordChange(db, ctx, {
    action: 'role.delete',
    resourceType: 'role',
    resourceId: id,
    details: { unassigned_user_ids: userIds },
    event: { type: 'role.deleted', payload: { role, unassigned_user_ids: userIds.map(String) } },
  });
}

/** Gives a user a role (assigning it again changes nothing). The admin role also makes the user an administrator. */
export async function assignRole(db: Executor, ctx: ServiceContext, userId: number, roleId: number, caller: ReadonlySet<Scope>): Promise<User> {
  const userRow = await requireUser(db, ctx, userId);
  const row = await requireRole(db, ctx, roleId);
  const role = present(row);
  assertCallerHolds(caller, role.scopes, `assigning role ${row.name}`);
  const now = isoNow(ctx);
  const added = await insertUserRole(db, { organization_id: ctx.actor.organizationId, user_id: userId, role_id: roleId, assigned_at: now });
  if (!added) return getUser(db, ctx, userId);
  if (row.built_in === 'admin' && userRow.is_admin !== 1) await updateUser(db, ctx.actor.organizationId, userId, { is_admin: 1, updated_at: now });
  const user = await getUser(db, ctx, userId);
  await recordChange(db, ctx, {
    action: 'role.assign',
    resourceType: 'role',
    resourceId: roleId,
    details: { user_id: userId },
    event: { type: 'role.assigned', payload: { role, user } },
  });
  return user;
}

/** Takes a role from a user; removing a role the user does not hold changes nothing. */
export async function unassignRole(db: Executor, ctx: ServiceContext, userId: number, roleId: number, caller: ReadonlySet<Scope>): Promise<void> {
  await requireUser(db, ctx, userId);
  const row = await requireRole(db, ctx, roleId);
  const role = present(row);
  assertCallerHolds(caller, role.scopes, `removing role ${row.name}`);
  if (row.built_in === 'admin') await assertNotLastAdmin(db, ctx.actor.organizationId, userId, 'cannot remove the admin role');
  if (!(await deleteUserRole(db, ctx.actor.organizationId, userId, roleId))) return;
  if (row.built_in === 'admin') await updateUser(db, ctx.actor.organizationId, userId, { is_admin: 0, updated_at: isoNow(ctx) });
  const user = await getUser(db, ctx, userId);
  await recordChange(db, ctx, {
    action: 'role.unassign',
    resourceType: 'role',
    resourceId: roleId,
    details: { user_id: userId },
    event: { type: 'role.unassigned', payload: { role, user } },
  });
}
