import type { Insertable, Updateable } from 'kysely';
import type { ApiKeysTable } from '../schema.js';
import { noteCredentialsChanged } from '../change-signals.js';
import type { Executor } from './executor.js';
import { fetchPage, type PageRequest } from './page.js';

export async function insertApiKey(db: Executor, values: Insertable<ApiKeysTable>): Promise<number> {
  const row = await db.insertInto('api_keys').values(values).returning('id').executeTakeFirstOrThrow();
  noteCredentialsChanged();
  return row.id;
}

/** The key with its owning account and organization, found by the public lookup part of the key. */
export function findApiKeyForAuthentication(db: Executor, lookupId: string) {
  return db
    .selectFrom('api_keys')
    .innerJoin('service_accounts', 'service_accounts.id', 'api_keys.service_account_id')
    .select([
      'api_keys.id',
      'api_keys.organization_id',
      'api_keys.service_account_id',
      'api_keys.name',
      'api_keys.lookup_id',
      'api_keys.secret_hash',
      'api_keys.scopes',
      'api_keys.expires_at',
      'api_keys.revoked_at',
      'api_keys.created_at',
      'api_keys.previous_secret_hash',
      'api_keys.previous_secret_expires_at',
      'service_accounts.active as service_account_active',
      'service_accounts.max_scopes as service_account_max_scopes',
      'service_accounts.name as service_account_name',
    ])
    .where('api_keys.lookup_id', '=', lookupId)
    .executeTakeFirst();
}

export async function revokeApiKey(db: Executor, organizationId: number, id: number, now: string) {
  noteCredentialsChanged();
  await db
    .updateTable('api_keys')
    .set({ revoked_at: now })
    .where('organization_id', '=', organizationId)
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .execute();
  // Again after the write: a lookup that read the epoch in between must not cache what it read before.
  noteCredentialsChanged();
}


const KEY_COLUMNS = [
  'api_keys.id',
  'api_keys.organization_id',
  'api_keys.service_account_id',
  'api_keys.name',
  'api_keys.lookup_id',
  'api_keys.scopes',
  'api_keys.expires_at',
  'api_keys.revoked_at',
  'api_keys.rotated_at',
  'api_keys.previous_secret_expires_at',
  'api_keys.created_at',
] as const;

/** Keys of live service accounts only: a deleted account's keys are gone from the API. */
function liveKeys(db: Executor, organizationId: number) {
  return db
    .selectFrom('api_keys')
    .innerJoin('service_accounts', 'service_accounts.id', 'api_keys.service_account_id')
    .select(KEY_COLUMNS)
    .where('api_keys.organization_id', '=', organizationId)
    .where('service_accounts.deleted_at', 'is', null);
}

export function findApiKey(db: Executor, organizationId: number, id: number) {
  return liveKeys(db, organizationId).where('api_keys.id', '=', id).executeTakeFirst();
}

export function listApiKeyPage(db: Executor, organizationId: number, page: PageRequest, filter: { serviceAccountId?: number | undefined } = {}) {
  let query = liveKeys(db, organizationId);
  if (filter.serviceAccountId !== undefined) query = query.where('api_keys.service_account_id', '=', filter.serviceAccountId);
  return fetchPage(query, 'api_keys.id', page);
}

export function listKeysOfServiceAccount(db: Executor, organizationId: number, serviceAccountId: number) {
  return liveKeys(db, organizationId).where('api_keys.service_account_id', '=', serviceAccountId).orderBy('api_keys.id').execute();
}

export async function updateApiKey(db: Executor, organizationId: number, id: number, changes: Updateable<ApiKeysTable>): Promise<void> {
  noteCredentialsChanged();
  await db.updateTable('api_keys').set(changes).where('organization_id', '=', organizationId).where('id', '=', id).execute();
  // Again after the write: a lookup that read the epoch in between must not cache what it read before.
  noteCredentialsChanged();
}

export async function revokeKeysOfServiceAccount(db: Executor, organizationId: number, serviceAccountId: number, now: string): Promise<void> {
  noteCredentialsChanged();
  await db
    .updateTable('api_keys')
    .set({ revoked_at: now })
    .where('organization_id', '=', organizationId)
    .where('service_account_id', '=', serviceAccountId)
    .where('revoked_at', 'is', null)
    .execute();
  // Again after the write: a lookup that read the epoch in between must not cache what it read before.
  noteCredentialsChanged();
}

/** The stored hash of the key's current secret (kept out of findApiKey, whose rows reach presenters). */
export async function findApiKeySecretHash(db: Executor, organizationId: number, id: number): Promise<string | undefined> {
  const row = await db.selectFrom('api_keys').select('secret_hash').where('organization_id', '=', organizationId).where('id', '=', id).executeTakeFirst();
  return row?.secret_hash;
}
