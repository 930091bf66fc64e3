import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ApiKey, IssuedApiKey, ServiceAccount } from '../../main/common/schemas/credentials.js';
import { Exemption } from '../../main/common/schemas/exemptions.js';
import { Me, MeUser } from '../../main/common/schemas/me.js';
import { Role } from '../../main/common/schemas/roles.js';
import { RedactionTemplate } from '../../main/common/schemas/templates.js';
import { ALL_SCOPES, type Scope } from '../../main/common/scopes.js';
import type { Database } from '../../main/db/schema.js';
import { assign, createUser, PASSWORD } from '../helpers/access-support.js';
import { signIn, type AppClient } from '../helpers/app-session.js';
import { startInstance, type TestInstance } from '../helpers/instance.js';
import { dataOf, errorOf } from '../helpers/integration-support.js';
import { countRows } from '../helpers/rows.js';
import { keyWithScopes } from '../helpers/v1-redactions-support.js';

// Every endpoint of issue 6's access and reference area against the spec's scope table: the one scope
// listed for it is enough, every other scope together is not. Writes of exemptions and templates use
// roles:write (docs/api.md explains the choice; the spec lists only templates:read for them).

type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

interface Prepared {
  path: string;
  body?: unknown;
}

interface Fixtures {
  user(): Promise<string>;
  role(): Promise<string>;
  account(): Promise<string>;
  key(): Promise<string>;
  exemption(): Promise<string>;
  template(): Promise<string>;
}

interface Row {
  method: Method;
  path: string;
  scope: Scope;
  success: number;
  prepare: (fixtures: Fixtures) => Promise<Prepared>;
}

let counter = 0;
const unique = (prefix: string) => `${prefix}-${process.pid}-${(counter += 1)}`;

const TABLE: Row[] = [
  { method: 'GET', path: '/users', scope: 'users:read', success: 200, prepare: async () => ({ path: '/users' }) },
  { method: 'GET', path: '/users/{user_id}', scope: 'users:read', success: 200, prepare: async (f) => ({ path: `/users/${await f.user()}` }) },
  { method: 'POST', path: '/users', scope: 'users:write', success: 201, prepare: async () => ({ path: '/users', body: { username: unique('scoped'), display_name: 'Scoped' } }) },
  { method: 'PATCH', path: '/users/{user_id}', scope: 'users:write', success: 200, prepare: async (f) => ({ path: `/users/${await f.user()}`, body: { display_name: 'Changed' } }) },
  { method: 'POST', path: '/users/{user_id}/deactivate', scope: 'users:write', success: 200, prepare: async (f) => ({ path: `/users/${await f.user()}/deactivate` }) },
  { method: 'POST', path: '/users/{user_id}/reactivate', scope: 'users:write', success: 200, prepare: async (f) => ({ path: `/users/${await f.user()}/reactivate` }) },
  { method: 'POST', path: '/users/{user_id}/invitations', scope: 'users:write', success: 201, prepare: async (f) => ({ path: `/users/${await f.user()}/invitations` }) },

  { method: 'GET', path: '/roles', scope: 'roles:read', success: 200, prepare: async () => ({ path: '/roles' }) },
  { method: 'GET', path: '/roles/{role_id}', scope: 'roles:read', success: 200, prepare: async (f) => ({ path: `/roles/${await f.role()}` }) },
  { method: 'POST', path: '/roles', scope: 'roles:write', success: 201, prepare: async () => ({ path: '/roles', body: { name: unique('role'), scopes: [] } }) },
  { method: 'PATCH', path: '/roles/{role_id}', scope: 'roles:write', success: 200, prepare: async (f) => ({ path: `/roles/${await f.role()}`, body: { description: 'changed' } }) },
  { method: 'DELETE', path: '/roles/{role_id}', scope: 'roles:write', success: 204, prepare: async (f) => ({ path: `/roles/${await f.role()}` }) },
  {
    method: 'PUT',
    path: '/users/{user_id}/roles/{role_id}',
    scope: 'roles:write',
    success: 200,
    prepare: async (f) => ({ path: `/users/${await f.user()}/roles/${await f.role()}` }),
  },
  {
    method: 'DELETE',
    path: '/users/{user_id}/roles/{role_id}',
    scope: 'roles:write',
    success: 204,
    prepare: async (f) => ({ path: `/users/${await f.user()}/roles/${await f.role()}` }),
  },

  { method: 'GET', path: '/service-accounts', scope: 'credentials:read', success: 200, prepare: async () => ({ path: '/service-accounts' }) },
  { method: 'GET', path: '/service-accounts/{service_account_id}', scope: 'credentials:read', success: 200, prepare: async (f) => ({ path: `/service-accounts/${await f.account()}` }) },
  { method: 'POST', path: '/service-accounts', scope: 'credentials:write', success: 201, prepare: async () => ({ path: '/service-accounts', body: { name: 'scoped', max_scopes: [] } }) },
  {
    method: 'PATCH',
    path: '/service-accounts/{service_account_id}',
    scope: 'credentials:write',
    success: 200,
    prepare: async (f) => ({ path: `/service-accounts/${await f.account()}`, body: { description: 'changed' } }),
  },
  { method: 'DELETE', path: '/service-accounts/{service_account_id}', scope: 'credentials:write', success: 204, prepare: async (f) => ({ path: `/service-accounts/${await f.account()}` }) },
  { method: 'GET', path: '/api-keys', scope: 'credentials:read', success: 200, prepare: async () => ({ path: '/api-keys' }) },
  { method: 'GET', path: '/api-keys/{api_key_id}', scope: 'credentials:read', success: 200, prepare: async (f) => ({ path: `/api-keys/${await f.key()}` }) },
  {
    method: 'POST',
    path: '/api-keys',
    scope: 'credentials:write',
    success: 201,
    prepare: async (f) => ({ path: '/api-keys', body: { service_account_id: await f.account(), name: 'scoped', scopes: [] } }),
  },
  { method: 'PATCH', path: '/api-keys/{api_key_id}', scope: 'credentials:write', success: 200, prepare: async (f) => ({ path: `/api-keys/${await f.key()}`, body: { name: 'renamed' } }) },
  { method: 'POST', path: '/api-keys/{api_key_id}/rotate', scope: 'credentials:write', success: 200, prepare: async (f) => ({ path: `/api-keys/${await f.key()}/rotate` }) },
  { method: 'POST', path: '/api-keys/{api_key_id}/revoke', scope: 'credentials:write', success: 200, prepare: async (f) => ({ path: `/api-keys/${await f.key()}/revoke` }) },

  { method: 'GET', path: '/redaction-types', scope: 'templates:read', success: 200, prepare: async () => ({ path: '/redaction-types' }) },
  { method: 'GET', path: '/exemptions', scope: 'templates:read', success: 200, prepare: async () => ({ path: '/exemptions' }) },
  { method: 'GET', path: '/exemptions/{exemption_id}', scope: 'templates:read', success: 200, prepare: async (f) => ({ path: `/exemptions/${await f.exemption()}` }) },
  {
    method: 'POST',
    path: '/exemptions',
    scope: 'roles:write',
    success: 201,
    prepare: async () => ({ path: '/exemptions', body: { code: unique('state'), name: 'State', layer: 'B3', jurisdiction: 'Ohio' } }),
  },
  { method: 'PATCH', path: '/exemptions/{exemption_id}', scope: 'roles:write', success: 200, prepare: async (f) => ({ path: `/exemptions/${await f.exemption()}`, body: { name: 'Changed' } }) },
  { method: 'DELETE', path: '/exemptions/{exemption_id}', scope: 'roles:write', success: 204, prepare: async (f) => ({ path: `/exemptions/${await f.exemption()}` }) },
  { method: 'GET', path: '/templates', scope: 'templates:read', success: 200, prepare: async () => ({ path: '/templates' }) },
  { method: 'GET', path: '/templates/{template_id}', scope: 'templates:read', success: 200, prepare: async (f) => ({ path: `/templates/${await f.template()}` }) },
  {
    method: 'POST',
    path: '/templates',
    scope: 'roles:write',
    success: 201,
    prepare: async () => ({ path: '/templates', body: { name: unique('template'), custom_terms: ['x'], layer: 'B6' } }),
  },
  { method: 'PATCH', path: '/templates/{template_id}', scope: 'roles:write', success: 200, prepare: async (f) => ({ path: `/templates/${await f.template()}`, body: { description: 'changed' } }) },
  { method: 'DELETE', path: '/templates/{template_id}', scope: 'roles:write', success: 204, prepare: async (f) => ({ path: `/templates/${await f.template()}` }) },
];

const OpenApi = z.object({ paths: z.record(z.string(), z.record(z.string(), z.object({ tags: z.array(z.string()).optional() }).loose())) });
const Id = z.object({ id: z.string() });
const CHANGED_TABLES: (keyof Database)[] = ['users', 'roles', 'user_roles', 'user_invitations', 'service_accounts', 'api_keys', 'exemptions', 'redaction_templates', 'audit_log', 'outbox_events'];

let instance: TestInstance;

beforeAll(async () => {
  instance = await startInstance({ config: { rateLimits: { enabled: false } } });
});
afterAll(() => instance.close());

const post = async (url: string, body: unknown) => dataOf(await instance.request({ method: 'POST', url: `/api/v1${url}`, body }), Id, 201).id;

const fixtures: Fixtures = {
  user: () => post('/users', { username: unique('fixture'), display_name: 'Fixture' }),
  role: () => post('/roles', { name: unique('fixture'), scopes: [] }),
  account: () => post('/service-accounts', { name: 'fixture', max_scopes: [] }),
  key: async () => post('/api-keys', { service_account_id: await fixtures.account(), name: 'fixture', scopes: [] }),
  exemption: () => post('/exemptions', { code: unique('fixture'), name: 'Fixture', layer: 'B3', jurisdiction: 'Ohio' }),
  template: () => post('/templates', { name: unique('fixture'), custom_terms: ['x'], layer: 'B6' }),
};

async function counts(): Promise<Record<string, number>> {
  const entries = await Promise.all(CHANGED_TABLES.map(async (table) => [table, await countRows(instance.runtime.db, table)] as const));
  return Object.fromEntries(entries);
}

function send(row: Row, prepared: Prepared, auth: { key: string } | { bearer: string }) {
  const mutating = row.method === 'POST' || row.method === 'PATCH' || row.method === 'PUT';
  return instance.server.app.inject({
    method: row.method,
    url: `/api/v1${prepared.path}`,
    headers: {
      host: instance.host,
      ...('key' in auth ? { 'x-api-key': auth.key } : { authorization: `Bearer ${auth.bearer}` }),
      ...(mutating && { 'idempotency-key': unique('idem') }),
      ...(prepared.body !== undefined && { 'content-type': 'application/json' }),
    },
    ...(prepared.body !== undefined && { payload: JSON.stringify(prepared.body) }),
  });
}

describe('access and reference endpoints against the scope table', () => {
  it('the table covers every access and reference operation the server publishes (besides GET /me)', async () => {
    const response = await instance.request({ method: 'GET', url: '/api/v1/openapi.json' });
    const doc = OpenApi.parse(JSON.parse(response.body));
    const published = Object.entries(doc.paths).flatMap(([path, operations]) =>
      Object.entries(operations)
        .filter(([, operation]) => operation.tags?.some((tag) => tag === 'access' || tag === 'reference'))
        .map(([method]) => `${method.toUpperCase()} ${path}`),
    );
    expect(published.filter((operation) => operation !== 'GET /me').sort()).toEqual(TABLE.map((row) => `${row.method} ${row.path}`).sort());
  });

  it.each(TABLE)('$method $path: a key with only $scope is allowed', async (row) => {
    const key = await keyWithScopes(instance, [row.scope]);
    const response = await send(row, await row.prepare(fixtures), { key });
    expect(response.statusCode, response.body).toBe(row.success);
  });

  it.each(TABLE)('$method $path: a key with every scope but $scope → 403 with required_scopes, and nothing changes', async (row) => {
    const key = await keyWithScopes(instance, ALL_SCOPES.filter((scope) => scope !== row.scope));
    const prepared = await row.prepare(fixtures);
    const before = await counts();
    const error = errorOf(await send(row, prepared, { key }), 403, 'permission_denied');
    expect(error.details).toEqual({ required_scopes: [row.scope] });
    expect(await counts()).toEqual(before);
  });

  describe('a signed-in user, whose scopes come from roles', () => {
    const sessions = new Map<string, AppClient>();

    /** A user whose only role grants exactly `scopes` (one user per set, made once). */
    async function userWith(scopes: Scope[]): Promise<AppClient> {
      const existing = sessions.get(scopes.join());
      if (existing) return existing;
      const user = await createUser(instance, { password: PASSWORD });
      const role = dataOf(await instance.request({ method: 'POST', url: '/api/v1/roles', body: { name: unique('role'), scopes } }), Role, 201);
      await assign(instance, user.id, role.id);
      const session = await signIn(instance, user.username, PASSWORD);
      sessions.set(scopes.join(), session);
      return session;
    }

    it.each(TABLE)('$method $path: a role granting only $scope is enough, one granting every other scope is not', async (row) => {
      const allowed = await userWith([row.scope]);
      const response = await send(row, await row.prepare(fixtures), { bearer: allowed.token });
      expect(response.statusCode, response.body).toBe(row.success);
      const denied = await userWith(ALL_SCOPES.filter((scope) => scope !== row.scope));
      const error = errorOf(await send(row, await row.prepare(fixtures), { bearer: denied.token }), 403, 'permission_denied');
      expect(error.details).toEqual({ required_scopes: [row.scope] });
    });
  });

  it('GET /me needs no scope, for a key and for a user', async () => {
    const key = await keyWithScopes(instance, []);
    expect(dataOf(await instance.request({ method: 'GET', url: '/api/v1/me', key }), Me).api_key.scopes).toEqual([]);
    const user = await createUser(instance, { password: PASSWORD });
    const session = await signIn(instance, user.username, PASSWORD);
    const me = await instance.server.app.inject({ method: 'GET', url: '/api/v1/me', headers: { host: instance.host, authorization: `Bearer ${session.token}` } });
    expect(dataOf(me, MeUser).user).toMatchObject({ id: user.id, scopes: [], roles: [] });
  });

  it('responses parse with their published schemas', async () => {
    dataOf(await instance.request({ method: 'GET', url: `/api/v1/service-accounts/${await fixtures.account()}` }), ServiceAccount);
    dataOf(await instance.request({ method: 'GET', url: `/api/v1/api-keys/${await fixtures.key()}` }), ApiKey);
    dataOf(await instance.request({ method: 'POST', url: `/api/v1/api-keys/${await fixtures.key()}/rotate` }), IssuedApiKey);
    dataOf(await instance.request({ method: 'GET', url: `/api/v1/exemptions/${await fixtures.exemption()}` }), Exemption);
    dataOf(await instance.request({ method: 'GET', url: `/api/v1/templates/${await fixtures.template()}` }), RedactionTemplate);
  });
});
