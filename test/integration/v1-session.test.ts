import type { LightMyRequestResponse } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Case } from '../../main/common/schemas/cases.js';
import { Me, MeUser } from '../../main/common/schemas/me.js';
import { ALL_SCOPES } from '../../main/common/scopes.js';
import { findBuiltInRole } from '../../main/db/queries/roles.js';
import { insertUserRole } from '../../main/db/queries/user-roles.js';
import { setUserActive } from '../../main/db/queries/users.js';
import { createUserAndSignIn, signInAdmin, type AppClient } from '../helpers/app-session.js';
import { startInstance, type TestInstance } from '../helpers/instance.js';
import { auditOf, dataOf, errorOf, keyOf, orgId, pageOf } from '../helpers/integration-support.js';

type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

/** /api/v1 with the session only: a Bearer token or the cookie, never x-api-key. */
function sessionRequest(
  instance: TestInstance,
  credential: { bearer: string } | { cookie: string },
  method: Method,
  url: string,
  options: { body?: unknown; idempotencyKey?: string; headers?: Record<string, string> } = {},
): Promise<LightMyRequestResponse> {
  return instance.server.app.inject({
    method,
    url,
    headers: {
      host: instance.host,
      ...('bearer' in credential ? { authorization: `Bearer ${credential.bearer}` } : { cookie: `obscura_session=${credential.cookie}` }),
      ...(options.idempotencyKey !== undefined && { 'idempotency-key': options.idempotencyKey }),
      ...(options.body !== undefined && { 'content-type': 'application/json' }),
      ...options.headers,
    },
    ...(options.body !== undefined && { payload: JSON.stringify(options.body) }),
  });
}

let idem = 0;
const freshKey = () => `session-test-${process.pid}-${idem++}`;

async function grantRole(instance: TestInstance, client: AppClient, role: 'admin' | 'redactor' | 'reviewer' | 'viewer') {
  const found = await findBuiltInRole(instance.runtime.db, orgId(instance), role);
  if (!found) throw new Error(`no built-in role ${role}`);
  await insertUserRole(instance.runtime.db, { organization_id: orgId(instance), user_id: Number(client.userId), role_id: found.id, assigned_at: new Date().toISOString() });
}

describe('/api/v1 with the application session', () => {
  let instance: TestInstance;
  let admin: AppClient;

  beforeAll(async () => {
    instance = await startInstance({ config: { rateLimits: { enabled: false } } });
    admin = await signInAdmin(instance);
  });
  afterAll(() => instance.close());

  it('a Bearer session token reads and writes as the user; GET /me describes the user and every scope of an administrator', async () => {
    const created = dataOf(
      await sessionRequest(instance, { bearer: admin.token }, 'POST', '/api/v1/cases', { body: { name: 'From the UI' }, idempotencyKey: freshKey() }),
      Case,
      201,
    );
    const listed = pageOf(await sessionRequest(instance, { bearer: admin.token }, 'GET', '/api/v1/cases?limit=100'), Case);
    expect(listed.data.map((item) => item.id)).toContain(created.id);

    const me = dataOf(await sessionRequest(instance, { bearer: admin.token }, 'GET', '/api/v1/me'), MeUser);
    expect(me.user).toMatchObject({ id: admin.userId, username: instance.orgs[0]?.admin_username, is_admin: true, scopes: [...ALL_SCOPES] });
    expect(me.user.roles.map((role) => role.name)).toEqual(['admin']);
    expect(me.organization).toEqual({ id: instance.orgs[0]?.organization_id, name: 'Org 1' });

    // The change is the user's in the audit trail, not a key's.
    const audit = await auditOf(instance, 'case', created.id);
    expect(audit.map((row) => [row.action, row.actor_type, row.actor_id])).toEqual([['case.create', 'user', admin.userId]]);
  });

  it("a user's scopes are the union of the scopes of their roles", async () => {
    const clerk = await createUserAndSignIn(instance);
    const bearer = { bearer: clerk.token };
    // No role yet: authenticated, but no scope.
    expect(dataOf(await sessionRequest(instance, bearer, 'GET', '/api/v1/me'), MeUser).user.scopes).toEqual([]);
    const denied = errorOf(await sessionRequest(instance, bearer, 'GET', '/api/v1/cases'), 403, 'permission_denied');
    expect(denied.details).toEqual({ required_scopes: ['cases:read'] });

    await grantRole(instance, clerk, 'viewer');
    pageOf(await sessionRequest(instance, bearer, 'GET', '/api/v1/cases'), Case);
    const write = errorOf(await sessionRequest(instance, bearer, 'POST', '/api/v1/cases', { body: { name: 'no' }, idempotencyKey: freshKey() }), 403, 'permission_denied');
    expect(write.details).toEqual({ required_scopes: ['cases:write'] });

    await grantRole(instance, clerk, 'reviewer');
    const scopes = dataOf(await sessionRequest(instance, bearer, 'GET', '/api/v1/me'), MeUser).user.scopes;
    expect(scopes).toContain('cases:write');
    expect(scopes).toContain('redactions:write');
    expect(scopes).not.toContain('documents:write');
    expect(scopes).not.toContain('users:read');
    dataOf(await sessionRequest(instance, bearer, 'POST', '/api/v1/cases', { body: { name: 'reviewed' }, idempotencyKey: freshKey() }), Case, 201);
  });

  describe('the session cookie', () => {
    it('authenticates reads on its own', async () => {
      pageOf(await sessionRequest(instance, { cookie: admin.token }, 'GET', '/api/v1/cases'), Case);
    });

    it('a write without Origin or Sec-Fetch-Site: same-origin → 403 and nothing is created', async () => {
      const before = await instance.runtime.db.selectFrom('cases').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
      const response = await sessionRequest(instance, { cookie: admin.token }, 'POST', '/api/v1/cases', { body: { name: 'csrf' }, idempotencyKey: freshKey() });
      expect(errorOf(response, 403, 'permission_denied').message).toMatch(/Obscura page/);
      const after = await instance.runtime.db.selectFrom('cases').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
      expect(Number(after.n)).toBe(Number(before.n));
      errorOf(await sessionRequest(instance, { cookie: admin.token }, 'DELETE', '/api/v1/cases/1'), 403, 'permission_denied');
    });

    it("a write with the server's own Origin, or Sec-Fetch-Site: same-origin, works", async () => {
      dataOf(
        await sessionRequest(instance, { cookie: admin.token }, 'POST', '/api/v1/cases', {
          body: { name: 'origin' },
          idempotencyKey: freshKey(),
          headers: { origin: instance.baseUrl },
        }),
        Case,
        201,
      );
      dataOf(
        await sessionRequest(instance, { cookie: admin.token }, 'POST', '/api/v1/cases', {
          body: { name: 'fetch metadata' },
          idempotencyKey: freshKey(),
          headers: { 'sec-fetch-site': 'same-origin' },
        }),
        Case,
        201,
      );
    });

    it('a foreign Origin is refused even with a Bearer token', async () => {
      errorOf(
        await sessionRequest(instance, { bearer: admin.token }, 'POST', '/api/v1/cases', {
          body: { name: 'x' },
          idempotencyKey: freshKey(),
          headers: { origin: 'http://evil.example' },
        }),
        403,
        'permission_denied',
      );
    });
  });

  describe('idempotency keys are scoped per user', () => {
    it('the same user replaying a key gets the stored answer; another user and a key with the same value act anew', async () => {
      const other = await createUserAndSignIn(instance);
      await grantRole(instance, other, 'redactor');
      const key = freshKey();
      const first = await sessionRequest(instance, { bearer: admin.token }, 'POST', '/api/v1/cases', { body: { name: 'once' }, idempotencyKey: key });
      const replay = await sessionRequest(instance, { bearer: admin.token }, 'POST', '/api/v1/cases', { body: { name: 'once' }, idempotencyKey: key });
      expect(replay.statusCode).toBe(201);
      expect(replay.headers['idempotent-replayed']).toBe('true');
      expect(replay.body).toBe(first.body);

      errorOf(
        await sessionRequest(instance, { bearer: admin.token }, 'POST', '/api/v1/cases', { body: { name: 'different' }, idempotencyKey: key }),
        409,
        'idempotency_key_reused',
      );

      const byOther = await sessionRequest(instance, { bearer: other.token }, 'POST', '/api/v1/cases', { body: { name: 'once' }, idempotencyKey: key });
      expect(byOther.statusCode).toBe(201);
      expect(byOther.headers['idempotent-replayed']).toBeUndefined();
      expect(dataOf(byOther, Case, 201).id).not.toBe(dataOf(first, Case, 201).id);

      const byKey = await instance.request({ method: 'POST', url: '/api/v1/cases', body: { name: 'once' }, idempotencyKey: key });
      expect(byKey.headers['idempotent-replayed']).toBeUndefined();
      expect(dataOf(byKey, Case, 201).id).not.toBe(dataOf(first, Case, 201).id);

      const rows = await instance.runtime.db.selectFrom('idempotency_keys').select(['principal_type', 'principal_id']).where('idempotency_key', '=', key).execute();
      expect(rows.map((row) => `${row.principal_type}:${row.principal_id}`).sort()).toEqual(
        [`user:${admin.userId}`, `user:${other.userId}`, expect.stringMatching(/^api_key:\d+$/)].sort(),
      );
    });

    it('a missing Idempotency-Key is refused for users too', async () => {
      const response = await sessionRequest(instance, { bearer: admin.token }, 'POST', '/api/v1/cases', { body: { name: 'no key' } });
      expect(errorOf(response, 400, 'validation_error').details).toEqual([expect.objectContaining({ field: 'Idempotency-Key' })]);
    });
  });

  describe('authentication', () => {
    it('x-api-key wins over a session sent alongside it: the caller is the key', async () => {
      const response = await instance.server.app.inject({
        method: 'GET',
        url: '/api/v1/me',
        headers: { host: instance.host, 'x-api-key': keyOf(instance, 1), authorization: `Bearer ${admin.token}` },
      });
      expect(dataOf(response, Me).organization.id).toBe(instance.orgs[1]?.organization_id);
    });

    it('a forged or garbage token → 401; no credential at all → 401', async () => {
      const forged = `${admin.token.slice(0, -4)}AAAA`;
      errorOf(await sessionRequest(instance, { bearer: forged }, 'GET', '/api/v1/cases'), 401, 'authentication_failed');
      errorOf(await sessionRequest(instance, { bearer: 'garbage' }, 'GET', '/api/v1/me'), 401, 'authentication_failed');
      errorOf(await sessionRequest(instance, { cookie: 'garbage' }, 'GET', '/api/v1/me'), 401, 'authentication_failed');
      errorOf(await instance.request({ method: 'GET', url: '/api/v1/me', key: null }), 401, 'authentication_failed');
    });

    it('a signed-out session and a deactivated user → 401', async () => {
      const clerk = await createUserAndSignIn(instance);
      await grantRole(instance, clerk, 'viewer');
      pageOf(await sessionRequest(instance, { bearer: clerk.token }, 'GET', '/api/v1/cases'), Case);
      await setUserActive(instance.runtime.db, orgId(instance), Number(clerk.userId), false, new Date().toISOString());
      errorOf(await sessionRequest(instance, { bearer: clerk.token }, 'GET', '/api/v1/cases'), 401, 'authentication_failed');

      const other = await createUserAndSignIn(instance);
      await grantRole(instance, other, 'viewer');
      expect((await other.request('POST', '/api/auth/logout')).statusCode).toBe(200);
      errorOf(await sessionRequest(instance, { bearer: other.token }, 'GET', '/api/v1/cases'), 401, 'authentication_failed');
    });

    it("resources of another organization stay invisible to a user (404)", async () => {
      const foreign = dataOf(await instance.request({ method: 'POST', url: '/api/v1/cases', key: keyOf(instance, 1), body: { name: 'org 2' } }), Case, 201);
      errorOf(await sessionRequest(instance, { bearer: admin.token }, 'GET', `/api/v1/cases/${foreign.id}`), 404, 'resource_not_found');
    });
  });
});

describe('rate limits for users', () => {
  let instance: TestInstance | undefined;
  afterEach(async () => {
    await instance?.close();
    instance = undefined;
  });

  it('a user is throttled by the per-key limit, under their own count', async () => {
    instance = await startInstance({ config: { rateLimits: { perApiKey: { limit: 3, windowSeconds: 60 }, perRawKey: { limit: 100, windowSeconds: 60 } } } });
    const admin = await signInAdmin(instance);
    const other = await createUserAndSignIn(instance);
    await grantRole(instance, other, 'viewer');
    for (let index = 0; index < 3; index += 1) {
      const response = await sessionRequest(instance, { bearer: admin.token }, 'GET', '/api/v1/cases');
      expect(response.statusCode).toBe(200);
      expect(response.headers['ratelimit']).toBe(`"api-key";r=${2 - index};t=60`);
    }
    const throttled = await sessionRequest(instance, { bearer: admin.token }, 'GET', '/api/v1/cases');
    expect(errorOf(throttled, 429, 'rate_limited').message).toContain('api-key');
    expect(Number(throttled.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    // Another user, and the organization's key, have counts of their own.
    expect((await sessionRequest(instance, { bearer: other.token }, 'GET', '/api/v1/cases')).statusCode).toBe(200);
    expect((await instance.request({ method: 'GET', url: '/api/v1/cases' })).statusCode).toBe(200);
  });
});
