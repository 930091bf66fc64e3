import { DomainError, notFound } from '../common/errors.js';
import type { ApiKey, CreateApiKeyBody, IssuedApiKey } from '../common/schemas/credentials.js';
import type { Scope } from '../common/scopes.js';
import { findApiKey, findApiKeySecretHash, listApiKeyPage, updateApiKey } from '../db/queries/api-keys.js';
import type { Executor } from '../db/queries/executor.js';
import type { PageRequest } from '../db/queries/page.js';
import { recordChange } from './change-log.js';
import { isoNow, type ServiceContext } from './context.js';
import { formatApiKey, issueApiKey, newKeySecret } from './api-keys.js';
import { assertCallerHolds, parseScopes } from './grants.js';
import { assertAccountUsable, requireServiceAccount } from './service-accounts.js';

type KeyRow = NonNullable<Awaited<ReturnType<typeof findApiKey>>>;

function present(row: KeyRow, now: Date): ApiKey {
  const expired = row.expires_at !== null && Date.parse(row.expires_at) <= now.getTime();
  const graceOpen = row.previous_secret_expires_at !== null && Date.parse(row.previous_secret_expires_at) > now.getTime();
  return {
    id: String(row.id),
    name: row.name,
    prefix: `obs_${row.lookup_id}`,
    service_account_id: String(row.service_account_id),
    scopes: parseScopes(row.scopes),
    status: row.revoked_at ? 'revoked' : expired ? 'expired' : 'active',
    expires_at: row.expires_at,
    revoked_at: row.revoked_at,
    rotated_at: row.rotated_at,
    previous_secret_expires_at: row.revoked_at || !graceOpen ? null : row.previous_secret_expires_at,
    created_at: row.created_at,
  };
}

async function requireKey(db: Executor, ctx: ServiceContext, id: number): Promise<KeyRow> {
  const row = await findApiKey(db, ctx.actor.organizationId, id);
  if (!row) throw notFound('API key');
  return row;
}

export async function listApiKeys(db: Executor, ctx: ServiceContext, page: PageRequest, filter: { serviceAccountId?: number | undefined }) {
  if (filter.serviceAccountId !== undefined) await requireServiceAccount(db, ctx, filter.serviceAccountId);
  const result = await listApiKeyPage(db, ctx.actor.organizationId, page, filter);
  const now = ctx.clock.now();
  return { items: result.rows.map((row) => present(row, now)), nextAfterId: result.nextAfterId };
}

export async function getApiKey(db: Executor, ctx: ServiceContext, id: number): Promise<ApiKey> {
  return present(await requireKey(db, ctx, id), ctx.clock.now());
}

/** Issues a key; the secret is in this answer only. Scopes beyond the account's max_scopes → 400 naming them. */
export async function createApiKey(db: Executor, ctx: ServiceContext, body: CreateApiKeyBody, caller: ReadonlySet<Scope>): Promise<IssuedApiKey> {
  const account = await requireServiceAccount(db, ctx, Number(body.service_account_id));
  const allowed = new Set(parseScopes(account.max_scopes));
  const beyond = body.scopes.filter((scope) => !allowed.has(scope));
  if (beyond.length > 0) {
    throw new DomainError('validation_error', `scopes beyond the service account's max_scopes: ${beyond.join(', ')}`, [
      { field: 'scopes', location: 'body', message: `not within max_scopes of service account ${account.id}: ${beyond.join(', ')}`, scopes: beyond },
    ]);
  }
  const now = ctx.clock.now();
  if (body.expires_at && Date.parse(body.expires_at) <= now.getTime()) {
    throw new DomainError('validation_error', 'expires_at must be in the future', [{ field: 'expires_at', location: 'body', message: 'must be in the future' }]);
  }
  assertCallerHolds(caller, body.scopes, 'this key');
  assertAccountUsable(account);
  const issued = await issueApiKey(db, {
    organizationId: ctx.actor.organizationId,
    serviceAccountId: account.id,
    name: body.name,
    scopes: body.scopes,
    expiresAt: body.expires_at ? new Date(body.expires_at).toISOString() : null,
    now: now.toISOString(),
  });
  const key = await getApiKey(db, ctx, issued.id);
  await recordChange(db, ctx, { action: 'api_key.issue', resourceType: 'api_key', resourceId: issued.id, event: { type: 'api_key.created', payload: { api_key: key } } });
  return { ...key, secret: issued.plaintext };
}

export async function renameApiKey(db: Executor, ctx: ServiceContext, id: number, name: string): Promise<ApiKey> {
  const row = await requireKey(db, ctx, id);
  if (name === row.name) return present(row, ctx.clock.now());
  await updateApiKey(db, ctx.actor.organizationId, id, { name });
  const key = await getApiKey(db, ctx, id);
  await recordChange(db, ctx, { action: 'api_key.update', resourceType: 'api_key', resourceId: id, event: { type: 'api_key.updated', payload: { api_key: key, changed: ['name'] } } });
  return key;
}

/**
 * Replaces the secret, keeping the key's id, prefix, scopes and expiry. The replaced secret keeps working for
 * the grace period (0 ends it at once); a secret replaced by an earlier rotation stops at once.
 */
export async function rotateApiKey(db: Executor, ctx: ServiceContext, id: number, graceSeconds: number, caller: ReadonlySet<Scope>): Promise<IssuedApiKey> {
  const row = await requireKey(db, ctx, id);
  const now = ctx.clock.now();
  if (row.revoked_at) throw new DomainError('conflict', 'the key is revoked; issue a new one');
  if (row.expires_at && Date.parse(row.expires_at) <= now.getTime()) throw new DomainError('conflict', 'the key has expired; issue a new one');
  // Rotation hands out a working secret: only a caller holding the key's scopes may do it.
  assertCallerHolds(caller, parseScopes(row.scopes), `rotating key ${row.name}`);
  const current = await findApiKeySecretHash(db, ctx.actor.organizationId, id);
  if (current === undefined) throw notFound('API key');
  const secret = newKeySecret();
  const graceEnds = graceSeconds > 0 ? new Date(now.getTime() + graceSeconds * 1000).toISOString() : null;
  await updateApiKey(db, ctx.actor.organizationId, id, {
    secret_hash: secret.hash,
    previous_secret_hash: graceEnds ? current : null,
    previous_secret_expires_at: graceEnds,
    rotated_at: now.toISOString(),
  });
  const key = await getApiKey(db, ctx, id);
  await recordChange(db, ctx, {
    action: 'api_key.rotate',
    resourceType: 'api_key',
    resourceId: id,
    details: { grace_period_seconds: graceSeconds },
    event: { type: 'api_key.rotated', payload: { api_key: key } },
  });
  return { ...key, secret: formatApiKey(row.lookup_id, secret.secret) };
}

/** Revocation takes effect on the very next request (the key cache is invalidated by the write). */
export async function revokeApiKey(db: Executor, ctx: ServiceContext, id: number): Promise<ApiKey> {
  const row = await requireKey(db, ctx, id);
  if (row.revoked_at) return present(row, ctx.clock.now());
  await updateApiKey(db, ctx.actor.organizationId, id, { revoked_at: isoNow(ctx), previous_secret_hash: null, previous_secret_expires_at: null });
  const key = await getApiKey(db, ctx, id);
  await recordChange(db, ctx, { action: 'api_key.revoke', resourceType: 'api_key', resourceId: id, event: { type: 'api_key.revoked', payload: { api_key: key } } });
  return key;
}
