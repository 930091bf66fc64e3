import type { Insertable } from 'kysely';
import type { ApiKeysTable } from '../schema.js';
import { noteCredentialsChanged } from '../change-signals.js';
import type { Executor } from './executor.js';

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
      'service_accounts.active as service_account_active',
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
}

