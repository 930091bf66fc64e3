import { sql } from 'kysely';
import { ALL_SCOPES } from '../../main/common/scopes.js';
import type { Db } from '../../main/db/connection.js';
import type { Database } from '../../main/db/schema.js';
import { issueApiKey, parseApiKey } from '../../main/services/api-keys.js';

// Direct looks at the database behind a test instance, for checking effects the API does not show.

export async function countRows(db: Db, table: keyof Database): Promise<number> {
  const result = await sql<{ n: number }>`SELECT count(*) AS n FROM ${sql.table(table)}`.execute(db);
  return Number(result.rows[0]?.n ?? 0);
}

/** The api_keys row id of a plaintext key. */
export async function apiKeyIdOf(db: Db, plaintext: string): Promise<number> {
  const parsed = parseApiKey(plaintext);
  if (!parsed) throw new Error('not an API key');
  const row = await db.selectFrom('api_keys').select('id').where('lookup_id', '=', parsed.lookupId).executeTakeFirstOrThrow();
  return row.id;
}

/** Issues another key with every scope for the service account that owns `existing` (same organization). */
export async function issueSiblingKey(db: Db, existing: string): Promise<string> {
  const id = await apiKeyIdOf(db, existing);
  const row = await db.selectFrom('api_keys').select(['organization_id', 'service_account_id']).where('id', '=', id).executeTakeFirstOrThrow();
  const issued = await issueApiKey(db, {
    organizationId: row.organization_id,
    serviceAccountId: row.service_account_id,
    name: 'sibling key',
    scopes: ALL_SCOPES,
    expiresAt: null,
    now: new Date().toISOString(),
  });
  return issued.plaintext;
}
