import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BUILT_IN_ROLES, BUILT_IN_ROLE_DEFAULTS } from '../../main/common/built-in-roles.js';
import { FEDERAL_EXEMPTIONS } from '../../main/common/exemptions.js';
import { openSqlite } from '../../main/db/connection.js';
import { migrateToLatest } from '../../main/db/migrator.js';
import { tempDir } from '../helpers/temp.js';

// Migration 006 seeds, for organizations that existed before it, exactly what services/bootstrap.ts gives
// new ones: the same built-in roles (the admin users holding admin) and the same federal exemptions.

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});


const SCOPES_ADDED_AFTER_006: readonly string[] = ['exports:override'];

describe('migration 006-access on a database with data', () => {
  it('seeds built-in roles and federal exemptions per organization, gives admins the admin role, and keeps idempotency records', () => {
    const dir = tempDir('obscura-access-migration-');
    dirs.push(dir);
    const sqlite = openSqlite(path.join(dir, 'old.db'));
    try {
      migrateToLatest(sqlite, 5);
      const now = '2030-01-01T00:00:00.000Z';
      for (const org of [1, 2]) {
        sqlite.prepare('INSERT INTO organizations (id, name, created_at) VALUES (?, ?, ?)').run(org, `Org ${org}`, now);
        sqlite
          .prepare('INSERT INTO users (organization_id, username, display_name, is_admin, active, created_at, updated_at) VALUES (?, ?, ?, ?, 1, ?, ?)')
          .run(org, `admin${org}`, 'Admin', 1, now, now);
        sqlite
          .prepare('INSERT INTO users (organization_id, username, display_name, is_admin, active, created_at, updated_at) VALUES (?, ?, ?, ?, 1, ?, ?)')
          .run(org, `clerk${org}`, 'Clerk', 0, now, now);
      }
      sqlite.prepare("INSERT INTO service_accounts (organization_id, name, max_scopes, created_at, updated_at) VALUES (1, 'sa', '[]', ?, ?)").run(now, now);
      sqlite
        .prepare("INSERT INTO api_keys (organization_id, service_account_id, name, lookup_id, secret_hash, scopes, created_at) VALUES (1, 1, 'k', 'abcdefabcdef', 'h', '[]', ?)")
        .run(now);
      sqlite
        .prepare("INSERT INTO idempotency_keys (api_key_id, idempotency_key, fingerprint, state, status_code, response_body, created_at) VALUES (1, 'k1', 'f', 'done', 201, '{}', ?)")
        .run(now);

      expect(migrateToLatest(sqlite, 6)).toBe(6);

      for (const org of [1, 2]) {
        const roles = sqlite.prepare('SELECT name, description, scopes, built_in FROM roles WHERE organization_id = ? ORDER BY id').all(org) as {
          name: string;
          description: string;
          scopes: string;
          built_in: string;
        }[];
        expect(roles.map((role) => role.name)).toEqual([...BUILT_IN_ROLES]);
        for (const role of roles) {
          const defaults = BUILT_IN_ROLE_DEFAULTS[role.built_in as (typeof BUILT_IN_ROLES)[number]];
          // The admin role grants every scope whatever it stores; scopes added by later versions are not in 006's seed.
          const seeded = role.built_in === 'admin' ? defaults.scopes.filter((scope) => !SCOPES_ADDED_AFTER_006.includes(scope)) : defaults.scopes;
          expect(JSON.parse(role.scopes)).toEqual([...seeded]);
          expect(role.description).toBe(defaults.description);
        }
        const holders = sqlite
          .prepare('SELECT users.username, roles.name FROM user_roles JOIN users ON users.id = user_roles.user_id JOIN roles ON roles.id = user_roles.role_id WHERE user_roles.organization_id = ?')
          .all(org);
        expect(holders).toEqual([{ username: `admin${org}`, name: 'admin' }]);
        const exemptions = sqlite.prepare('SELECT code, name, description, layer, jurisdiction, built_in FROM exemptions WHERE organization_id = ? ORDER BY id').all(org);
        expect(exemptions).toEqual(FEDERAL_EXEMPTIONS.map((item) => ({ ...item, jurisdiction: 'federal', built_in: 1 })));
      }
      expect(sqlite.prepare('SELECT principal_type, principal_id, idempotency_key, status_code FROM idempotency_keys').all()).toEqual([
        { principal_type: 'api_key', principal_id: 1, idempotency_key: 'k1', status_code: 201 },
      ]);
      expect(sqlite.pragma('foreign_key_check')).toEqual([]);
    } finally {
      sqlite.close();
    }
  });
});
