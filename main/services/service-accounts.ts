import { DomainError, notFound } from '../common/errors.js';
import type { CreateServiceAccountBody, ServiceAccount, UpdateServiceAccountBody } from '../common/schemas/credentials.js';
import type { Scope } from '../common/scopes.js';
import { listKeysOfServiceAccount, revokeKeysOfServiceAccount, updateApiKey } from '../db/queries/api-keys.js';
import type { Executor } from '../db/queries/executor.js';
import type { PageRequest } from '../db/queries/page.js';
import { findServiceAccount, insertServiceAccount, listServiceAccountPage, updateServiceAccount } from '../db/queries/service-accounts.js';
import type { ServiceAccountRow } from '../db/schema.js';
import { recordChange } from './change-log.js';
import { isoNow, type ServiceContext } from './context.js';
import { assertCallerHolds, parseScopes } from './grants.js';

function present(row: ServiceAccountRow): ServiceAccount {
  return {
    id: String(row.id),
    name: row.name,
    description: row.description,
    max_scopes: parseScopes(row.max_scopes),
    active: row.active === 1,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

export async function requireServiceAccount(db: Executor, ctx: ServiceContext, id: number): Promise<ServiceAccountRow> {
  const row = await findServiceAccount(db, ctx.actor.organizationId, id);
  if (!row) throw notFound('service account');
  return row;
}

export async function listServiceAccounts(db: Executor, ctx: ServiceContext, page: PageRequest) {
  const result = await listServiceAccountPage(db, ctx.actor.organizationId, page);
  return { items: result.rows.map(present), nextAfterId: result.nextAfterId };
}

export async function getServiceAccount(db: Executor, ctx: ServiceContext, id: number): Promise<ServiceAccount> {
  return present(await requireServiceAccount(db, ctx, id));
}

export async function createServiceAccount(db: Executor, ctx: ServiceContext, body: CreateServiceAccountBody, caller: ReadonlySet<Scope>): Promise<ServiceAccount> {
  assertCallerHolds(caller, body.max_scopes, 'max_scopes');
  const now = isoNow(ctx);
  const id = await insertServiceAccount(db, {
    organization_id: ctx.actor.organizationId,
    name: body.name,
    description: body.description ?? '',
    max_scopes: JSON.stringify(body.max_scopes),
    active: 1,
    created_at: now,
    updated_at: now,
  });
  const account = await getServiceAccount(db, ctx, id);
  await recordChange(db, ctx, {
    action: 'service_account.create',
    resourceType: 'service_account',
    resourceId: id,
    event: { type: 'service_account.created', payload: { service_account: account } },
  });
  return account;
}

/**
 * Narrowing max_scopes narrows the stored scopes of the account's keys in the same transaction, so no key
 * ever holds more than its account allows (authentication intersects them as well).
 */
export async function updateServiceAccountFields(
  db: Executor,
  ctx: ServiceContext,
  id: number,
  body: UpdateServiceAccountBody,
  caller: ReadonlySet<Scope>,
): Promise<ServiceAccount> {
  const row = await requireServiceAccount(db, ctx, id);
  const before = present(row);
  assertCallerHolds(caller, [...before.max_scopes, ...(body.max_scopes ?? [])], `changing service account ${row.name}`);
  const changed: string[] = [];
  if (body.name !== undefined && body.name !== row.name) changed.push('name');
  if (body.description !== undefined && body.description !== row.description) changed.push('description');
  if (body.max_scopes !== undefined && body.max_scopes.join() !== before.max_scopes.join()) changed.push('max_scopes');
  if (body.active !== undefined && body.active !== before.active) changed.push('active');
  if (changed.length === 0) return before;
  const now = isoNow(ctx);
  await updateServiceAccount(db, ctx.actor.organizationId, id, {
    ...(changed.includes('name') && { name: body.name }),
    ...(changed.includes('description') && { description: body.description }),
    ...(changed.includes('max_scopes') && { max_scopes: JSON.stringify(body.max_scopes) }),
    ...(changed.includes('active') && { active: body.active ? 1 : 0 }),
    updated_at: now,
  });
  const narrowedKeys: number[] = [];
  if (body.max_scopes !== undefined) {
    const allowed = new Set(body.max_scopes);
    for (const key of await listKeysOfServiceAccount(db, ctx.actor.organizationId, id)) {
      const scopes = parseScopes(key.scopes);
      const kept = scopes.filter((scope) => allowed.has(scope));
      if (kept.length === scopes.length) continue;
      await updateApiKey(db, ctx.actor.organizationId, key.id, { scopes: JSON.stringify(kept) });
      narrowedKeys.push(key.id);
    }
  }
  const account = await getServiceAccount(db, ctx, id);
  await recordChange(db, ctx, {
    action: 'service_account.update',
    resourceType: 'service_account',
    resourceId: id,
    details: { changed, narrowed_key_ids: narrowedKeys },
    event: { type: 'service_account.updated', payload: { service_account: account, changed } },
  });
  return account;
}

/** Deletion revokes every key of the account at once; the account then answers 404. */
export async function deleteServiceAccount(db: Executor, ctx: ServiceContext, id: number, caller: ReadonlySet<Scope>): Promise<void> {
  const row = await requireServiceAccount(db, ctx, id);
  const account = present(row);
  assertCallerHolds(caller, account.max_scopes, `deleting service account ${row.name}`);
  const now = isoNow(ctx);
  await revokeKeysOfServiceAccount(db, ctx.actor.organizationId, id, now);
  await updateServiceAccount(db, ctx.actor.organizationId, id, { active: 0, deleted_at: now, updated_at: now });
  await recordChange(db, ctx, {
    action: 'service_account.delete',
    resourceType: 'service_account',
    resourceId: id,
    event: { type: 'service_account.deleted', payload: { service_account: { ...account, active: false } } },
  });
}

export function assertAccountUsable(row: ServiceAccountRow): void {
  if (row.active !== 1) throw new DomainError('conflict', `service account ${row.name} is deactivated; activate it before issuing keys`);
}
