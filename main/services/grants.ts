import { DomainError } from '../common/errors.js';
import { ALL_SCOPES, type Scope } from '../common/scopes.js';

/**
 * No caller can hand out, or take control of, more than it holds itself: scopes given to a role, a service
 * account or a key, and users or roles managed, must be within the caller's own scopes. Without this, any
 * holder of roles:write or credentials:write could mint itself every scope.
 */
export function assertCallerHolds(caller: ReadonlySet<Scope>, scopes: Iterable<Scope>, what: string): void {
  const wanted = new Set(scopes);
  const missing = ALL_SCOPES.filter((scope) => wanted.has(scope) && !caller.has(scope));
  if (missing.length > 0) {
    throw new DomainError('permission_denied', `${what} needs scopes you do not hold: ${missing.join(', ')}`, { required_scopes: missing });
  }
}

export function parseScopes(json: string): Scope[] {
  const stored = new Set(JSON.parse(json) as string[]);
  return ALL_SCOPES.filter((scope) => stored.has(scope));
}
