import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setUserActive } from '../../main/db/queries/users.js';
import {
  bodyOf,
  cookieRequest,
  createUserAndSignIn,
  loginRaw,
  ManualClock,
  pdfItem,
  signIn,
  signInAdmin,
  uploadOne,
  type AppClient,
  type AppError,
} from '../helpers/app-session.js';
import { startInstance, type TestInstance } from '../helpers/instance.js';
import { minimalPdf } from '../helpers/temp.js';

const CLERK_PASSWORD = 'correct horse battery staple';

interface LoginBody {
  success: boolean;
  token: string;
  expires_at: string;
  user: { id: string; username: string; is_admin: boolean; organization_id: string };
}

interface SessionBody {
  success: boolean;
  authenticated: boolean;
  user: { id: string; username: string; is_admin: boolean };
}

function expectAppError(response: { statusCode: number; json<T>(): T }, status: number): AppError {
  expect(response.statusCode).toBe(status);
  const body = response.json<AppError>();
  expect(typeof body.error).toBe('string');
  expect(typeof body.message).toBe('string');
  expect(body.message.length).toBeGreaterThan(0);
  return body;
}

async function usernameOf(client: AppClient): Promise<string> {
  const response = await client.request('GET', '/api/auth/session');
  return bodyOf<SessionBody>(response).user.username;
}

describe('application sessions', () => {
  const clock = new ManualClock();
  let instance: TestInstance;
  let docId: string;

  beforeAll(async () => {
    instance = await startInstance({ clock, config: { sessions: { ttlSeconds: 600 } } });
    docId = await uploadOne(instance, { name: 'a.pdf', bytes: minimalPdf() });
  });
  afterAll(() => instance.close());

  it('refuses a wrong password with 401 and a JSON body carrying string error and message', async () => {
    const org = instance.orgs[0]!;
    const response = await loginRaw(instance, org.admin_username, `${org.admin_password}x`);
    const body = expectAppError(response, 401);
    expect(body.code).toBe('authentication_failed');
    expect(response.headers['set-cookie']).toBeUndefined();
  });

  it('refuses an unknown user with the same 401', async () => {
    const response = await loginRaw(instance, 'nobody-here', 'whatever-password');
    const body = expectAppError(response, 401);
    expect(body.code).toBe('authentication_failed');
  });

  it('signs in: a token and an HttpOnly, SameSite=Strict obscura_session cookie', async () => {
    const org = instance.orgs[0]!;
    const response = await loginRaw(instance, org.admin_username, org.admin_password);
    expect(response.statusCode).toBe(200);
    const body = bodyOf<LoginBody>(response);
    expect(body.success).toBe(true);
    expect(body.token.split('.')).toHaveLength(3);
    expect(body.user.username).toBe(org.admin_username);
    expect(body.user.is_admin).toBe(true);
    const setCookie = String(response.headers['set-cookie']);
    expect(setCookie).toContain(`obscura_session=${body.token}`);
    expect(setCookie).toMatch(/;\s*HttpOnly/i);
    expect(setCookie).toMatch(/;\s*SameSite=Strict/i);
    expect(setCookie).toMatch(/;\s*Path=\//i);
  });

  it('stores passwords as scrypt hashes, never in the clear', async () => {
    const org = instance.orgs[0]!;
    const row = await instance.runtime.db.selectFrom('users').select('password_hash').where('username', '=', org.admin_username).executeTakeFirstOrThrow();
    expect(row.password_hash).toMatch(/^scrypt\$\d+\$\d+\$\d+\$[A-Za-z0-9_-]+\$[A-Za-z0-9_-]+$/);
    expect(row.password_hash).not.toContain(org.admin_password);
    const [, n] = (row.password_hash ?? '').split('$');
    expect(Number(n)).toBeGreaterThanOrEqual(2 ** 14);
  });

  it('GET /api/auth/session accepts the Bearer token and the cookie', async () => {
    const admin = await signInAdmin(instance);
    const bearer = await admin.request('GET', '/api/auth/session');
    expect(bearer.statusCode).toBe(200);
    expect(bodyOf<SessionBody>(bearer)).toMatchObject({ success: true, authenticated: true, user: { id: admin.userId, is_admin: true } });
    const cookie = await cookieRequest(instance, admin.token, 'GET', '/api/auth/session');
    expect(cookie.statusCode).toBe(200);
    expect(bodyOf<SessionBody>(cookie).user.id).toBe(admin.userId);
  });

  it('without a session GET /api/auth/session answers 401', async () => {
    const response = await instance.server.app.inject({ method: 'GET', url: '/api/auth/session', headers: { host: instance.host } });
    expectAppError(response, 401);
  });

  it('logout ends the session: the same token then answers 401', async () => {
    const admin = await signInAdmin(instance);
    const out = await admin.request('POST', '/api/auth/logout');
    expect(out.statusCode).toBe(200);
    expect(String(out.headers['set-cookie'])).toMatch(/obscura_session=;/);
    expectAppError(await admin.request('GET', '/api/auth/session'), 401);
    expectAppError(await admin.request('GET', `/api/redactions/${docId}`), 401);
    expectAppError(await cookieRequest(instance, admin.token, 'GET', '/api/auth/session'), 401);
  });

  it('every /api/redactions route answers 401 without a session', async () => {
    const routes: { method: 'GET' | 'POST' | 'PUT' | 'DELETE'; url: string; body?: unknown }[] = [
      { method: 'GET', url: '/api/redactions/types' },
      { method: 'POST', url: `/api/redactions/${docId}`, body: { redactions: [pdfItem()] } },
      { method: 'GET', url: `/api/redactions/${docId}` },
      { method: 'GET', url: `/api/redactions/${docId}?layers=B6` },
      { method: 'DELETE', url: `/api/redactions/${docId}` },
      { method: 'GET', url: `/api/redactions/${docId}/layer/B6` },
      { method: 'GET', url: `/api/redactions/${docId}/layer/B6/versions` },
      { method: 'GET', url: `/api/redactions/${docId}/layer/B6/versions/00000000-0000-4000-8000-000000000000` },
      { method: 'POST', url: `/api/redactions/${docId}/layer/B6/lock` },
      { method: 'PUT', url: `/api/redactions/${docId}/layer/B6/lock` },
      { method: 'DELETE', url: `/api/redactions/${docId}/layer/B6/lock` },
      { method: 'PUT', url: '/api/redactions/box/pdf-redaction-abc', body: { redaction_reason: 'x' } },
      { method: 'DELETE', url: '/api/redactions/box/pdf-redaction-abc' },
    ];
    for (const route of routes) {
      const response = await instance.server.app.inject({
        method: route.method,
        url: route.url,
        headers: { host: instance.host, origin: instance.baseUrl, ...(route.body !== undefined && { 'content-type': 'application/json' }) },
        ...(route.body !== undefined && { payload: JSON.stringify(route.body) }),
      });
      expect(response.statusCode, `${route.method} ${route.url}`).toBe(401);
      expect(typeof response.json<AppError>().error, `${route.method} ${route.url}`).toBe('string');
    }
  });

  it('an API key is not a session for the application API', async () => {
    const response = await instance.request({ method: 'GET', url: `/api/redactions/${docId}` });
    expectAppError(response, 401);
  });

  it('a tampered token answers 401', async () => {
    const admin = await signInAdmin(instance);
    const [header, payload, signature] = admin.token.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
    const forgedPayload = Buffer.from(JSON.stringify({ ...claims, sub: '999', adm: true })).toString('base64url');
    const forged = `${header}.${forgedPayload}.${signature}`;
    const flipped = `${header}.${payload}.${signature.slice(0, -2)}${signature.endsWith('AA') ? 'BB' : 'AA'}`;
    const unsigned = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${payload}.`;
    for (const token of [forged, flipped, unsigned, 'not-a-jwt']) {
      const response = await instance.server.app.inject({ method: 'GET', url: `/api/redactions/${docId}`, headers: { host: instance.host, authorization: `Bearer ${token}` } });
      expectAppError(response, 401);
    }
    // The genuine token still works.
    expect((await admin.request('GET', `/api/redactions/${docId}`)).statusCode).toBe(200);
  });

  it('an expired token answers 401 once sessions.ttlSeconds has passed', async () => {
    const admin = await signInAdmin(instance);
    clock.advanceSeconds(590);
    expect((await admin.request('GET', `/api/redactions/${docId}`)).statusCode).toBe(200);
    clock.advanceSeconds(11);
    const expired = expectAppError(await admin.request('GET', `/api/redactions/${docId}`), 401);
    expect(expired.message).toMatch(/expired/);
    expectAppError(await cookieRequest(instance, admin.token, 'GET', '/api/auth/session'), 401);
  });

  describe('cookie-authenticated writes', () => {
    let token: string;
    beforeAll(async () => {
      token = (await signInAdmin(instance)).token;
    });

    it('without Origin or Sec-Fetch-Site: same-origin → 403', async () => {
      const response = await cookieRequest(instance, token, 'POST', `/api/redactions/${docId}`, { body: { redactions: [pdfItem('B2')] } });
      const body = expectAppError(response, 403);
      expect(body.code).toBe('permission_denied');
      const sameSite = await cookieRequest(instance, token, 'POST', `/api/redactions/${docId}`, {
        body: { redactions: [pdfItem('B2')] },
        headers: { 'sec-fetch-site': 'same-site' },
      });
      expect(sameSite.statusCode).toBe(403);
      const logout = await cookieRequest(instance, token, 'POST', '/api/auth/logout');
      expect(logout.statusCode).toBe(403);
      // Nothing was written and the session is still live.
      const list = await cookieRequest(instance, token, 'GET', `/api/redactions/${docId}?layers=B2`);
      expect(list.statusCode).toBe(200);
      expect(list.json<{ count: number }>().count).toBe(0);
    });

    it("with the server's own Origin → the write works", async () => {
      const response = await cookieRequest(instance, token, 'POST', `/api/redactions/${docId}`, {
        body: { redactions: [pdfItem('B2')] },
        headers: { origin: instance.baseUrl },
      });
      expect(response.statusCode).toBe(201);
    });

    it('with Sec-Fetch-Site: same-origin → the write works', async () => {
      const layer = await cookieRequest(instance, token, 'GET', `/api/redactions/${docId}/layer/B3`);
      expect(layer.statusCode).toBe(200);
      const response = await cookieRequest(instance, token, 'POST', `/api/redactions/${docId}`, {
        body: { redactions: [pdfItem('B3')] },
        headers: { 'sec-fetch-site': 'same-origin' },
      });
      expect(response.statusCode).toBe(201);
    });

    it('with a cross-origin Origin → 403, even for a Bearer request', async () => {
      const cookie = await cookieRequest(instance, token, 'POST', `/api/redactions/${docId}`, {
        body: { redactions: [pdfItem('B4')] },
        headers: { origin: 'http://evil.example' },
      });
      expect(cookie.statusCode).toBe(403);
      const bearer = await instance.server.app.inject({
        method: 'POST',
        url: `/api/redactions/${docId}`,
        headers: { host: instance.host, authorization: `Bearer ${token}`, origin: 'http://evil.example', 'content-type': 'application/json' },
        payload: JSON.stringify({ redactions: [pdfItem('B4')] }),
      });
      expect(bearer.statusCode).toBe(403);
      const list = await cookieRequest(instance, token, 'GET', `/api/redactions/${docId}?layers=B4`);
      expect(list.json<{ count: number }>().count).toBe(0);
    });
  });

  it('a deactivated user is refused on the next request and cannot sign in again', async () => {
    const clerk = await createUserAndSignIn(instance);
    const username = await usernameOf(clerk);
    expect((await clerk.request('GET', `/api/redactions/${docId}`)).statusCode).toBe(200);
    await setUserActive(instance.runtime.db, Number(instance.orgs[0]!.organization_id), Number(clerk.userId), false, clock.now().toISOString());
    expectAppError(await clerk.request('GET', `/api/redactions/${docId}`), 401);
    expectAppError(await clerk.request('POST', `/api/redactions/${docId}`, { redactions: [pdfItem('B5')] }), 401);
    expectAppError(await loginRaw(instance, username, CLERK_PASSWORD), 401);
    // Reactivated, the same password works again.
    await setUserActive(instance.runtime.db, Number(instance.orgs[0]!.organization_id), Number(clerk.userId), true, clock.now().toISOString());
    const again = await signIn(instance, username, CLERK_PASSWORD);
    expect(again.userId).toBe(clerk.userId);
  });
});
