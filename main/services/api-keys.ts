import { findApiKeyForAuthentication, insertApiKey } from '../db/queries/api-keys.js';
import type { Executor } from '../db/queries/executor.js';
import { DomainError } from '../common/errors.js';
import { isScope, type Scope } from '../common/scopes.js';
import { constantTimeEqualHex, randomToken, sha256Hex } from './secrets.js';
import { randomBytes } from 'node:crypto';
import { currentCredentialsEpoch } from '../db/change-signals.js';
import type { ApiKeyPrincipal } from './principal.js';

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

/** A fresh 256-bit secret and the hash stored for it. */
export function newKeySecret(): { secret: string; hash: string } {
  const secret = randomToken(32);
  return { secret, hash: sha256Hex(secret) };
}

export function formatApiKey(lookupId: string, secret: string): string {
  return `obs_${lookupId}_${secret}`;
}

export async function issueApiKey(
  db: Executor,
  values: { organizationId: number; serviceAccountId: number; name: string; scopes: readonly Scope[]; expiresAt: string | null; now: string },
): Promise<IssuedKey> {
  const lookupId = randomBytes(6).toString('hex');
  const secret = newKeySecret();
  const id = await insertApiKey(db, {
    organization_id: values.organizationId,
    service_account_id: values.serviceAccountId,
    name: values.name,
    lookup_id: lookupId,
    secret_hash: secret.hash,
    scopes: JSON.stringify(values.scopes),
    expires_at: values.expiresAt,
    revoked_at: null,
    created_at: values.now,
    last_used_at: null,
  });
  return { id, plaintext: formatApiKey(lookupId, secret.secret) };
}

interface CachedPrincipal {
  principal: ApiKeyPrincipal;
  epoch: number;
  /** When this secret stops working: the key's expiry, or the end of a rotation's grace for the old secret. */
  validUntil: number;
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

function checkExpiry(cached: CachedPrincipal, now: Date): ApiKeyPrincipal {
  if (cached.validUntil <= now.getTime()) throw new DomainError('authentication_failed', 'API key has expired');
  return cached.principal;
}

/**
 * The synchronous half of authenticateApiKey: the principal of a key resolved since the last credentials
 * change, or undefined when the key must be looked up (unknown, never seen, or cache invalidated).
 * Throws authentication_failed when the cached key has expired since.
 */
export function cachedApiKey(db: Executor, raw: string, now: Date): ApiKeyPrincipal | undefined {
  const cached = principalCache.get(db)?.get(raw);
  if (cached && cached.epoch === currentCredentialsEpoch()) return checkExpiry(cached, now);
  return undefined;
}

/**
 * Resolves a raw x-api-key value. Missing, malformed, unknown, revoked or expired (including a secret
 * replaced by a rotation whose grace period has ended) → 401;
 * a valid key whose service account is inactive → 403 (the key is genuine, its owner is not allowed).
 * Valid keys are cached until the next write to api_keys or service_accounts (see db/change-signals.ts),
 * so revocation and deactivation take effect on the very next request.
 */
export async function authenticateApiKey(db: Executor, raw: string | undefined, now: Date): Promise<ApiKeyPrincipal> {
  if (!raw) throw new DomainError('authentication_failed', 'missing x-api-key header');
  const cached = cachedApiKey(db, raw, now);
  if (cached) return cached;
  const cache = cacheFor(db);
  const epoch = currentCredentialsEpoch();
  const parsed = parseApiKey(raw);
  if (!parsed) throw new DomainError('authentication_failed', 'malformed API key');
  const row = await findApiKeyForAuthentication(db, parsed.lookupId);
  if (!row) throw new DomainError('authentication_failed', 'unknown API key');
  const presented = sha256Hex(parsed.secret);
  let validUntil = row.expires_at ? Date.parse(row.expires_at) : Number.POSITIVE_INFINITY;
  if (!constantTimeEqualHex(row.secret_hash, presented)) {
    // After a rotation the replaced secret keeps working until the end of its grace period.
    const previous = row.previous_secret_hash !== null && row.previous_secret_expires_at !== null && constantTimeEqualHex(row.previous_secret_hash, presented);
    if (!previous || row.previous_secret_expires_at === null) throw new DomainError('authentication_failed', 'unknown API key');
    if (Date.parse(row.previous_secret_expires_at) <= now.getTime()) throw new DomainError('authentication_failed', 'this secret was replaced by a rotation and its grace period has ended');
    validUntil = Math.min(validUntil, Date.parse(row.previous_secret_expires_at));
  }
  if (row.revoked_at) throw new DomainError('authentication_failed', 'API key has been revoked');
  if (row.expires_at && Date.parse(row.expires_at) <= now.getTime()) throw new DomainError('authentication_failed', 'API key has expired');
  if (row.service_account_active !== 1) throw new DomainError('permission_denied', 'the service account owning this key is deactivated');
  // Never more than the account allows now, even if its max_scopes were narrowed after the key was issued.
  const allowed = new Set(JSON.parse(row.service_account_max_scopes) as string[]);
  const scopes = (JSON.parse(row.scopes) as string[]).filter(isScope).filter((scope) => allowed.has(scope));
  const principal: ApiKeyPrincipal = {
    kind: 'api_key',
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
  cache.set(raw, { principal, epoch, validUntil });
  return principal;
}
