import { ALL_SCOPES, isScope, type Scope } from '../common/scopes.js';
import type { Executor } from '../db/queries/executor.js';
import { listRolesOfUser } from '../db/queries/user-roles.js';
import type { Clock } from './context.js';
import type { UserPrincipal } from './principal.js';
import { authenticateSession } from './sessions.js';

/** A user's scopes: the union of their roles' scopes; an administrator (or holder of the admin role) has every scope. */
export async function scopesOfUser(db: Executor, organizationId: number, userId: number, isAdmin: boolean): Promise<Set<Scope>> {
  if (isAdmin) return new Set(ALL_SCOPES);
  const roles = await listRolesOfUser(db, organizationId, userId);
  if (roles.some((role) => role.built_in === 'admin')) return new Set(ALL_SCOPES);
  const scopes = new Set<Scope>();
  for (const role of roles) for (const scope of JSON.parse(role.scopes) as string[]) if (isScope(scope)) scopes.add(scope);
  return scopes;
}

/** The application session as an /api/v1 principal: a live session of an active user, with the user's scopes. */
export async function authenticateUserPrincipal(db: Executor, clock: Clock, token: string): Promise<UserPrincipal> {
  const user = await authenticateSession(db, clock, token);
  return {
    kind: 'user',
    userId: user.userId,
    organizationId: user.organizationId,
    username: user.username,
    displayName: user.displayName,
    isAdmin: user.isAdmin,
    sessionId: user.sessionId,
    sessionExpiresAt: user.expiresAt,
    scopes: await scopesOfUser(db, user.organizationId, user.userId, user.isAdmin),
  };
}
