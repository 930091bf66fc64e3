import type { Executor } from '../db/queries/executor.js';
import { findOrganization } from '../db/queries/organizations.js';
import { listRolesOfUser } from '../db/queries/user-roles.js';
import type { MeResponse } from '../common/schemas/me.js';
import { ALL_SCOPES } from '../common/scopes.js';
import type { Principal } from './principal.js';

/** The caller as it sees itself: a key (never its secret, which is not stored) or a signed-in user. */
export async function describePrincipal(db: Executor, principal: Principal): Promise<MeResponse> {
  const found = await findOrganization(db, principal.organizationId);
  const organization = { id: String(principal.organizationId), name: found?.name ?? '' };
  const scopes = ALL_SCOPES.filter((scope) => principal.scopes.has(scope));
  if (principal.kind === 'user') {
    const roles = await listRolesOfUser(db, principal.organizationId, principal.userId);
    return {
      user: {
        id: String(principal.userId),
        username: principal.username,
        display_name: principal.displayName,
        is_admin: principal.isAdmin,
        roles: roles.map((role) => ({ id: String(role.id), name: role.name })),
        scopes,
      },
      session: { expires_at: principal.sessionExpiresAt },
      organization,
    };
  }
  return {
    api_key: {
      id: String(principal.apiKeyId),
      name: principal.apiKeyName,
      prefix: `obs_${principal.lookupId}`,
      scopes,
      expires_at: principal.expiresAt,
      created_at: principal.createdAt,
    },
    service_account: { id: String(principal.serviceAccountId), name: principal.serviceAccountName },
    organization,
  };
}
