import { BUILT_IN_ROLES, BUILT_IN_ROLE_DEFAULTS } from '../common/built-in-roles.js';
import { FEDERAL_EXEMPTIONS } from '../common/exemptions.js';
import { insertExemption } from '../db/queries/exemptions.js';
import type { Executor } from '../db/queries/executor.js';
import { insertRole } from '../db/queries/roles.js';

/** Gives a new organization its built-in roles and the federal exemptions; returns the admin role's id. */
export async function seedBuiltIns(db: Executor, organizationId: number, now: string): Promise<number> {
  let adminRoleId = 0;
  for (const name of BUILT_IN_ROLES) {
    const defaults = BUILT_IN_ROLE_DEFAULTS[name];
    const id = await insertRole(db, {
      organization_id: organizationId,
      name,
      description: defaults.description,
      scopes: JSON.stringify(defaults.scopes),
      built_in: name,
      created_at: now,
      updated_at: now,
    });
    if (name === 'admin') adminRoleId = id;
  }
  for (const exemption of FEDERAL_EXEMPTIONS) {
    await insertExemption(db, { organization_id: organizationId, ...exemption, jurisdiction: 'federal', built_in: 1, created_at: now, updated_at: now });
  }
  return adminRoleId;
}
