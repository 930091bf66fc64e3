import type { Executor } from '../db/queries/executor.js';
import { findOrganization } from '../db/queries/organizations.js';
import type { Me } from '../common/schemas/me.js';
import { ALL_SCOPES } from '../common/scopes.js';
import type { ApiPrincipal } from './api-keys.js';

/** The calling key as it sees itself; the secret is never stored, so it can never be shown. */
export async function describeKey(db: Executor, principal: ApiPrincipal): Promise<Me> {
  const organization = await findOrganization(db, principal.organizationId);
  return {
    api_key: {
      id: String(principal.apiKeyId),
      name: principal.apiKeyName,
      prefix: `obs_${principal.lookupId}`,
      scopes: ALL_SCOPES.filter((scope) => principal.scopes.has(scope)),
      expires_at: principal.expiresAt,
      created_at: principal.createdAt,
    },
    service_account: { id: String(principal.serviceAccountId), name: principal.serviceAccountName },
    organization: { id: String(principal.organizationId), name: organization?.name ?? '' },
  };
}
