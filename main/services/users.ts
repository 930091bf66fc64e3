import { DomainError, notFound } from '../common/errors.js';
import type { AcceptInvitationBody, CreateUserBody, Invitation, UpdateUserBody, User } from '../common/schemas/users.js';
import type { Scope } from '../common/scopes.js';
import type { Executor } from '../db/queries/executor.js';
import type { PageRequest } from '../db/queries/page.js';
import { findBuiltInRole } from '../db/queries/roles.js';
import { revokeSessionsOfUser } from '../db/queries/sessions.js';
import {
  findInvitationByTokenHash,
  insertInvitation,
  markInvitationAccepted,
  supersedeOpenInvitations,
} from '../db/queries/user-invitations.js';
import { countOtherActiveHolders, listRolesOfUser, listRolesOfUsers } from '../db/queries/user-roles.js';
import { findUser, findUserByUsername, insertUser, listUserPage, updateUser } from '../db/queries/users.js';
import type { UserRow } from '../db/schema.js';
import { recordChange } from './change-log.js';
import { isoNow, type Clock, type ServiceContext } from './context.js';
import { assertCallerHolds } from './grants.js';
import { hashPassword, randomToken, sha256Hex } from './secrets.js';
import { scopesOfUser } from './user-principal.js';
import { transact } from '../db/transaction.js';

function present(row: UserRow, roles: { id: number; name: string }[]): User {
  return {
    id: String(row.id),
    username: row.username,
    display_name: row.display_name,
    email: row.email,
    is_admin: row.is_admin === 1,
    active: row.active === 1,
    has_password: row.password_hash !== null,
    roles: roles.map((role) => ({ id: String(role.id), name: role.name })),
    created_at: row.created_at,
    updated_at: row.updated_at,
    deactivated_at: row.deactivated_at,
  };
}

export async function presentUser(db: Executor, row: UserRow): Promise<User> {
  return present(row, await listRolesOfUser(db, row.organization_id, row.id));
}

export async function requireUser(db: Executor, ctx: ServiceContext, id: number): Promise<UserRow> {
  const row = await findUser(db, ctx.actor.organizationId, id);
  if (!row) throw notFound('user');
  return row;
}

export async function listUsers(db: Executor, ctx: ServiceContext, page: PageRequest, filter: { active?: boolean | undefined }) {
  const result = await listUserPage(db, ctx.actor.organizationId, page, filter);
  const roles = await listRolesOfUsers(db, ctx.actor.organizationId, result.rows.map((row) => row.id));
  return { items: result.rows.map((row) => present(row, roles.filter((role) => role.user_id === row.id))), nextAfterId: result.nextAfterId };
}

export async function getUser(db: Executor, ctx: ServiceContext, id: number): Promise<User> {
  return presentUser(db, await requireUser(db, ctx, id));
}

/** Managing a user (renaming, deactivating, resetting their password) needs every scope the user holds. */
async function assertMayManage(db: Executor, row: UserRow, caller: ReadonlySet<Scope>): Promise<void> {
  assertCallerHolds(caller, await scopesOfUser(db, row.organization_id, row.id, row.is_admin === 1), `managing user ${row.username}`);
}

async function assertUsernameFree(db: Executor, username: string, exceptId?: number): Promise<void> {
  const existing = await findUserByUsername(db, username);
  // Usernames are global: sign-in does not name an organization.
  if (existing && existing.id !== exceptId) throw new DomainError('conflict', `the username ${username} is taken`, [{ field: 'username', message: 'taken' }]);
}

export interface NewUser extends Omit<CreateUserBody, 'password'> {
  passwordHash: string | null;
}

/** Hashes the password before the transaction: scrypt takes tens of milliseconds the database should not wait for. */
export async function prepareNewUser(body: CreateUserBody): Promise<NewUser> {
  const { password, ...rest } = body;
  return { ...rest, passwordHash: password === undefined ? null : await hashPassword(password) };
}

export async function createUser(db: Executor, ctx: ServiceContext, input: NewUser): Promise<User> {
  await assertUsernameFree(db, input.username);
  const now = isoNow(ctx);
  const id = await insertUser(db, {
    organization_id: ctx.actor.organizationId,
    username: input.username,
    display_name: input.display_name,
    email: input.email ?? null,
    password_hash: input.passwordHash,
    is_admin: 0,
    active: 1,
    created_at: now,
    updated_at: now,
  });
  const user = await getUser(db, ctx, id);
  await recordChange(db, ctx, { action: 'user.create', resourceType: 'user', resourceId: id, event: { type: 'user.created', payload: { user } } });
  return user;
}

export async function updateUserFields(db: Executor, ctx: ServiceContext, id: number, body: UpdateUserBody, caller: ReadonlySet<Scope>): Promise<User> {
  const row = await requireUser(db, ctx, id);
  await assertMayManage(db, row, caller);
  if (body.username !== undefined && body.username !== row.username) await assertUsernameFree(db, body.username, id);
  const changes = {
    ...(body.username !== undefined && { username: body.username }),
    ...(body.display_name !== undefined && { display_name: body.display_name }),
    ...(body.email !== undefined && { email: body.email }),
  };
  const changed = Object.keys(changes).filter((field) => changes[field as keyof typeof changes] !== row[field as keyof typeof changes]);
  if (changed.length === 0) return presentUser(db, row);
  await updateUser(db, ctx.actor.organizationId, id, { ...changes, updated_at: isoNow(ctx) });
  const user = await getUser(db, ctx, id);
  await recordChange(db, ctx, { action: 'user.update', resourceType: 'user', resourceId: id, details: { changed }, event: { type: 'user.updated', payload: { user, changed } } });
  return user;
}

/** The last active holder of the admin role can neither be deactivated nor lose the role: someone must administer. */
export async function assertNotLastAdmin(db: Executor, organizationId: number, userId: number, what: string): Promise<void> {
  const adminRole = await findBuiltInRole(db, organizationId, 'admin');
  if (!adminRole) return;
  const holds = (await listRolesOfUser(db, organizationId, userId)).some((role) => role.id === adminRole.id);
  if (holds && (await countOtherActiveHolders(db, organizationId, adminRole.id, userId)) === 0) {
    throw new DomainError('conflict', `${what}: this is the organization's last active administrator`);
  }
}

/** Deactivation: sign-in refused, every session ended, open invitations void. Deactivating twice changes nothing. */
export async function deactivateUser(db: Executor, ctx: ServiceContext, id: number, caller: ReadonlySet<Scope>): Promise<User> {
  const row = await requireUser(db, ctx, id);
  await assertMayManage(db, row, caller);
  if (row.active !== 1) return presentUser(db, row);
  await assertNotLastAdmin(db, ctx.actor.organizationId, id, 'cannot deactivate');
  const now = isoNow(ctx);
  await updateUser(db, ctx.actor.organizationId, id, { active: 0, deactivated_at: now, updated_at: now });
  const sessionsEnded = await revokeSessionsOfUser(db, ctx.actor.organizationId, id, now);
  await supersedeOpenInvitations(db, ctx.actor.organizationId, id, now);
  const user = await getUser(db, ctx, id);
  await recordChange(db, ctx, {
    action: 'user.deactivate',
    resourceType: 'user',
    resourceId: id,
    details: { sessions_ended: sessionsEnded },
    event: { type: 'user.deactivated', payload: { user } },
  });
  return user;
}

export async function reactivateUser(db: Executor, ctx: ServiceContext, id: number, caller: ReadonlySet<Scope>): Promise<User> {
  const row = await requireUser(db, ctx, id);
  await assertMayManage(db, row, caller);
  if (row.active === 1) return presentUser(db, row);
  await updateUser(db, ctx.actor.organizationId, id, { active: 1, deactivated_at: null, updated_at: isoNow(ctx) });
  const user = await getUser(db, ctx, id);
  await recordChange(db, ctx, { action: 'user.reactivate', resourceType: 'user', resourceId: id, event: { type: 'user.updated', payload: { user, changed: ['active'] } } });
  return user;
}

/**
 * Issues a one-time invitation token with which the user sets a password (first sign-in, or a reset).
 * Only the token's hash is stored; a newer invitation makes older ones unusable.
 */
export async function inviteUser(db: Executor, ctx: ServiceContext, id: number, caller: ReadonlySet<Scope>, ttlSeconds: number): Promise<Invitation> {
  const row = await requireUser(db, ctx, id);
  await assertMayManage(db, row, caller);
  if (row.active !== 1) throw new DomainError('conflict', 'the user is deactivated; reactivate them before inviting');
  const now = ctx.clock.now();
  const expiresAt = new Date(now.getTime() + ttlSeconds * 1000).toISOString();
  await supersedeOpenInvitations(db, ctx.actor.organizationId, id, now.toISOString());
  const token = `inv_${randomToken(32)}`;
  await insertInvitation(db, {
    organization_id: ctx.actor.organizationId,
    user_id: id,
    token_hash: sha256Hex(token),
    created_at: now.toISOString(),
    expires_at: expiresAt,
    accepted_at: null,
    superseded_at: null,
  });
  const user = await presentUser(db, row);
  await recordChange(db, ctx, {
    action: 'user.invite',
    resourceType: 'user',
    resourceId: id,
    details: { expires_at: expiresAt },
    event: { type: 'user.invited', payload: { user, expires_at: expiresAt } },
  });
  return { user_id: String(id), token, accept_path: '/api/auth/accept-invitation', expires_at: expiresAt, created_at: now.toISOString() };
}

const INVALID_INVITATION = 'this invitation is unknown, already used, replaced by a newer one, or expired; ask for a new one';

/**
 * Sets the password of an invited user, once. Runs its own transaction after hashing the password. Every
 * session of the user ends (the invitation may have been a password reset).
 */
export async function acceptInvitation(db: Executor, clock: Clock, body: AcceptInvitationBody): Promise<{ user_id: string; username: string }> {
  const passwordHash = await hashPassword(body.password);
  return transact(db, async (trx) => {
    const invitation = await findInvitationByTokenHash(trx, sha256Hex(body.token));
    const now = clock.now();
    if (!invitation || invitation.accepted_at || invitation.superseded_at || Date.parse(invitation.expires_at) <= now.getTime()) {
      throw new DomainError('authentication_failed', INVALID_INVITATION);
    }
    const ctx: ServiceContext = { actor: { type: 'user', id: String(invitation.user_id), organizationId: invitation.organization_id }, requestId: null, clock };
    const row = await findUser(trx, invitation.organization_id, invitation.user_id);
    if (!row || row.active !== 1) throw new DomainError('authentication_failed', INVALID_INVITATION);
    if (!(await markInvitationAccepted(trx, invitation.id, now.toISOString()))) throw new DomainError('authentication_failed', INVALID_INVITATION);
    await updateUser(trx, invitation.organization_id, row.id, { password_hash: passwordHash, updated_at: now.toISOString() });
    await revokeSessionsOfUser(trx, invitation.organization_id, row.id, now.toISOString());
    const user = await getUser(trx, ctx, row.id);
    await recordChange(trx, ctx, {
      action: 'user.accept_invitation',
      resourceType: 'user',
      resourceId: row.id,
      event: { type: 'user.updated', payload: { user, changed: ['password'] } },
    });
    return { user_id: String(row.id), username: row.username };
  });
}
