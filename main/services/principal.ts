import type { Scope } from '../common/scopes.js';
import type { IdempotencyOwner } from '../db/queries/idempotency-keys.js';
import type { Actor } from './context.js';

/** A caller of /api/v1 authenticated by its x-api-key. */
export interface ApiKeyPrincipal {
  kind: 'api_key';
  apiKeyId: number;
  apiKeyName: string;
  lookupId: string;
  organizationId: number;
  serviceAccountId: number;
  serviceAccountName: string;
  scopes: ReadonlySet<Scope>;
  expiresAt: string | null;
  createdAt: string;
}

/** A signed-in user calling /api/v1 with the application session (the renderer). */
export interface UserPrincipal {
  kind: 'user';
  userId: number;
  organizationId: number;
  username: string;
  displayName: string;
  isAdmin: boolean;
  sessionId: string;
  sessionExpiresAt: string;
  /** The union of the scopes of the user's roles; every scope for administrators. */
  scopes: ReadonlySet<Scope>;
}

export type Principal = ApiKeyPrincipal | UserPrincipal;

/** The audit and event actor of a principal. */
export function actorOf(principal: Principal): Actor {
  return principal.kind === 'api_key'
    ? { type: 'api_key', id: String(principal.apiKeyId), organizationId: principal.organizationId }
    : { type: 'user', id: String(principal.userId), organizationId: principal.organizationId };
}

/** Idempotency keys are scoped per API key, or per user for session callers. */
export function idempotencyOwnerOf(principal: Principal): IdempotencyOwner {
  return principal.kind === 'api_key' ? { type: 'api_key', id: principal.apiKeyId } : { type: 'user', id: principal.userId };
}
