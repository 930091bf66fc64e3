import { findApiKeyForAuthentication, insertApiKey } from '../db/queries/api-keys.js';
import type { Executor } from '../db/queries/executor.js';
import { DomainError } from '../common/errors.js';
import { isScope, type Scope } from '../common/scopes.js';
import { constantTimeEqualHex, randomToken, sha256Hex } from './secrets.js';
import { randomBytes } from 'node:crypto';
import { currentCredentialsEpoch } from '../db/change-signals.js';

// Format: obs_<12 lowercase hex lookup id>_<43-char base64url secret>. The lookup id finds the row;
// only the SHA-256 of the secret is stored, so the database never holds a usable key.
const KEY_PATTERN = /^obs_([0-9a-f]{12})_([A-Za-z0-9_-]{43})$/;

export interface IssuedKey {
  id: number;
  plaintext: string;
}

export function parseApiKey(raw: string): { lookupId: string; secret: string } | null {
  const match = KEY_PATTERN.exec(raw);
  if (!match?.[1] || !match[2]) return null;
  return { lookupId: match[1], secret: match[2] };
}

export async function issueApiKey(
  db: Executor,
  values: { organizationId: number; serviceAccountId: number; name: string; scopes: readonly Scope[]; expiresAt: string | null; now: string },
): Promise<IssuedKey> {
  const lookupId = randomBytes(6).toString('hex');
  const secret = randomToken(32);
  const id = await insertApiKey(db, {
    organization_id: values.organizationId,
    service_account_id: values.serviceAccountId,
    name: values.name,
    lookup_id: lookupId,
    secret_hash: sha256Hex(secret),
    scopes: JSON.stringify(values.scopes),
    expires_at: values.expiresAt,
    revoked_at: null,
    created_at: values.now,
    last_used_at: null,
  });
  return { id, plaintext: `obs_${lookupId}_${secret}` };
}

export interface ApiPrincipal {
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

interface CachedPrincipal {
  principal: ApiPrincipal;
  epoch: number;
}

const CACHE_LIMIT = 10_000;
// Per database handle: keys resolved recently, valid until any key or service account changes.
const principalCache = new WeakMap<object, Map<string, CachedPrincipal>>();

function cacheFor(db: Executor): Map<string, CachedPrincipal> {
  let cache = principalCache.get(db);
  if (!cache) {
    cache = new Map();
    principalCache.set(db, cache);
  }
  return cache;
}

function checkExpiry(principal: ApiPrincipal, now: Date): ApiPrincipal {
  if (principal.expiresAt && Date.parse(principal.expiresAt) <= now.getTime()) throw new DomainError('authentication_failed', 'API key has expired');
  return principal;
}

/**
 * The synchronous half of authenticateApiKey: the principal of a key resolved since the last credentials
 * change, or undefined when the key must be looked up (unknown, never seen, or cache invalidated).
 * Throws authentication_failed when the cached key has expired since.
 */
export function cachedApiKey(db: Executor, raw: string, now: Date): ApiPrincipal | undefined {
  const cached = principalCache.get(db)?.get(raw);
  if (cached && cached.epoch === currentCredentialsEpoch()) return checkExpiry(cached.principal, now);
  return undefined;
}

/**
 * Resolves a raw x-api-key value. Missing, malformed, unknown, revoked or expired → 401;
 * a valid key whose service account is inactive → 403 (the key is genuine, its owner is not allowed).
 * Valid keys are cached until the next write to api_keys or service_accounts (see db/change-signals.ts),
 * so revocation and deactivation take effect on the very next request.
 */
export async function authenticateApiKey(db: Executor, raw: string | undefined, now: Date): Promise<ApiPrincipal> {
  if (!raw) throw new DomainError('authentication_failed', 'missing x-api-key header');
  const cached = cachedApiKey(db, raw, now);
  if (cached) return cached;
  const cache = cacheFor(db);
  const epoch = currentCredentialsEpoch();
  const parsed = parseApiKey(raw);
  if (!parsed) throw new DomainError('authentication_failed', 'malformed API key');
  const row = await findApiKeyForAuthentication(db, parsed.lookupId);
  if (!row || !constantTimeEqualHex(row.secret_hash, sha256Hex(parsed.secret))) {
    throw new DomainError('authentication_failed', 'unknown API key');
  }
  if (row.revoked_at) throw new DomainError('authentication_failed', 'API key has been revoked');
  if (row.expires_at && Date.parse(row.expires_at) <= now.getTime()) throw new DomainError('authentication_failed', 'API key has expired');
  if (row.service_account_active !== 1) throw new DomainError('permission_denied', 'the service account owning this key is deactivated');
  const scopes = (JSON.parse(row.scopes) as string[]).filter(isScope);
  const principal: ApiPrincipal = {
    apiKeyId: row.id,
    apiKeyName: row.name,
    lookupId: row.lookup_id,
    organizationId: row.organization_id,
    serviceAccountId: row.service_account_id,
    serviceAccountName: row.service_account_name,
    scopes: new Set(scopes),
    expiresAt: row.expires_at,
    createdAt: row.created_at,
  };
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(raw, { principal, epoch });
  return principal;
}
