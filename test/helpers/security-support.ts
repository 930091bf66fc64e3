import { insertServiceAccount } from '../../main/db/queries/service-accounts.js';
import type { Scope } from '../../main/common/scopes.js';
import { issueApiKey } from '../../main/services/api-keys.js';
import type { TestInstance } from './instance.js';
import { orgId } from './integration-support.js';

let counter = 0;

/** A service account with exactly these scopes and one key of it, written straight to the database. */
export async function createApiKeyForTest(instance: TestInstance, scopes: Scope[], organization = 0) {
  const db = instance.runtime.db;
  const now = new Date().toISOString();
  const organizationId = orgId(instance, organization);
  const accountId = await insertServiceAccount(db, { organization_id: organizationId, name: `sec-${process.pid}-${counter++}`, description: '', max_scopes: JSON.stringify(scopes), active: 1, created_at: now, updated_at: now });
  return issueApiKey(db, { organizationId, serviceAccountId: accountId, name: 'sec', scopes, expiresAt: null, now });
}
