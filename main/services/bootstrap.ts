import { insertOrganization } from '../db/queries/organizations.js';
import { insertServiceAccount } from '../db/queries/service-accounts.js';
import { insertUser } from '../db/queries/users.js';
import type { Executor } from '../db/queries/executor.js';
import { ALL_SCOPES } from '../common/scopes.js';
import { issueApiKey } from './api-keys.js';
import { recordChange } from './change-log.js';
import { generatePassword, hashPassword } from './secrets.js';
import { seedBuiltIns } from './organization-seed.js';
import { insertUserRole } from '../db/queries/user-roles.js';
import type { Clock } from './context.js';
import { transact } from '../db/transaction.js';

export interface InitialCredentials {
  organization_id: string;
  admin_username: string;
  admin_password: string;
  api_key: string;
}

/**
 * Creates an organization with its built-in roles and federal exemptions, an admin user (generated
 * password) holding the admin role, and a service account holding every scope with one API key. Used by `obscura init`, first start, and tests that need several organizations.
 */
export async function createOrganization(
  db: Executor,
  clock: Clock,
  options: {
    name: string;
    adminUsername: string;
    /** The administrator's password with its hash, when the caller made them (the tests: one scrypt a process); else generated here. */
    adminPassword?: { password: string; hash: string };
  },
): Promise<InitialCredentials> {
  const now = clock.now().toISOString();
  const password = options.adminPassword?.password ?? generatePassword();
  const passwordHash = options.adminPassword?.hash ?? (await hashPassword(password));
  return transact(db, async (trx) => {
    const organizationId = await insertOrganization(trx, options.name, now);
    const userId = await insertUser(trx, {
      organization_id: organizationId,
      username: options.adminUsername,
      display_name: 'Administrator',
      email: null,
      password_hash: passwordHash,
      is_admin: 1,
      active: 1,
      created_at: now,
      updated_at: now,
    });
    const adminRoleId = await seedBuiltIns(trx, organizationId, now);
    await insertUserRole(trx, { organization_id: organizationId, user_id: userId, role_id: adminRoleId, assigned_at: now });
    const serviceAccountId = await insertServiceAccount(trx, {
      organization_id: organizationId,
      name: 'default-integration',
      description: 'Created at initialisation with every scope',
      max_scopes: JSON.stringify(ALL_SCOPES),
      active: 1,
      created_at: now,
      updated_at: now,
    });
    const key = await issueApiKey(trx, { organizationId, serviceAccountId, name: 'initial key', scopes: ALL_SCOPES, expiresAt: null, now });
    const ctx = { actor: { type: 'system' as const, id: 'init', organizationId }, requestId: null, clock };
    await recordChange(trx, ctx, { action: 'organization.create', resourceType: 'organization', resourceId: organizationId });
    await recordChange(trx, ctx, { action: 'user.create', resourceType: 'user', resourceId: userId, details: { admin: true } });
    await recordChange(trx, ctx, { action: 'api_key.issue', resourceType: 'api_key', resourceId: key.id });
    return {
      organization_id: String(organizationId),
      admin_username: options.adminUsername,
      admin_password: password,
      api_key: key.plaintext,
    };
  });
}
