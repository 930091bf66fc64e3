import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Case } from '../../main/common/schemas/cases.js';
import { ApiKey, IssuedApiKey, ServiceAccount } from '../../main/common/schemas/credentials.js';
import { FreshKey } from '../helpers/access-support.js';
import { Me } from '../../main/common/schemas/me.js';
import { startInstance, type TestInstance } from '../helpers/instance.js';
import { auditOf, dataOf, errorOf, eventsOf, keyOf, manualClock, pageOf } from '../helpers/integration-support.js';
import { keyWithScopes } from '../helpers/v1-redactions-support.js';

const clock = manualClock('2031-06-01T12:00:00.000Z');
const GRACE = 600;
let instance: TestInstance;
let account: ServiceAccount;

beforeAll(async () => {
  instance = await startInstance({ clock, config: { rateLimits: { enabled: false }, access: { keyRotationGraceSeconds: GRACE } } });
  account = dataOf(
    await instance.request({ method: 'POST', url: '/api/v1/service-accounts', body: { name: 'ingest', max_scopes: ['cases:read', 'cases:write', 'documents:read'] } }),
    ServiceAccount,
    201,
  );
});
afterAll(() => instance.close());

const request = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, body?: unknown, key?: string, idempotencyKey?: string) =>
  instance.request({ method, url: `/api/v1${url}`, ...(body !== undefined && { body }), ...(key && { key }), ...(idempotencyKey && { idempotencyKey }) });

async function issue(body: Record<string, unknown> = {}): Promise<FreshKey> {
  return dataOf(await request('POST', '/api-keys', { service_account_id: account.id, name: 'worker', scopes: ['cases:read'], ...body }), FreshKey, 201);
}

const canRead = async (secret: string) => (await request('GET', '/cases', undefined, secret)).statusCode;

describe('issuing keys', () => {
  it('shows the secret once: the key works, reads never show it, the database holds only its hash', async () => {
    const key = await issue({ name: 'reporting', scopes: ['documents:read', 'cases:read'] });
    expect(key).toMatchObject({ name: 'reporting', service_account_id: account.id, scopes: ['cases:read', 'documents:read'], status: 'active', expires_at: null, revoked_at: null });
    expect(key.secret).toMatch(/^obs_[0-9a-f]{12}_[A-Za-z0-9_-]{43}$/);
    expect(key.secret.startsWith(`${key.prefix}_`)).toBe(true);
    const secretPart = key.secret.slice(key.prefix.length + 1);

    const me = dataOf(await request('GET', '/me', undefined, key.secret), Me);
    expect(me).toMatchObject({ api_key: { id: key.id, name: 'reporting', prefix: key.prefix, scopes: ['cases:read', 'documents:read'] }, service_account: { id: account.id, name: 'ingest' } });

    const read = await request('GET', `/api-keys/${key.id}`);
    const listed = await request('GET', `/api-keys?service_account_id=${account.id}&limit=100`);
    for (const response of [read, listed]) expect(response.body).not.toContain(secretPart);
    expect(pageOf(listed, ApiKey).data.map((item) => item.id)).toContain(key.id);
    const { secret: _secret, ...shown } = key;
    expect(dataOf(read, ApiKey)).toEqual(shown);

    const row = await instance.runtime.db.selectFrom('api_keys').selectAll().where('id', '=', Number(key.id)).executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(secretPart);
    const events = await eventsOf(instance, 'api_key', key.id);
    expect(events.map((event) => event.type)).toEqual(['api_key.created']);
    expect(JSON.stringify(events)).not.toContain(secretPart);
    expect(JSON.stringify(await auditOf(instance, 'api_key', key.id))).not.toContain(secretPart);
  });

  it('a replay of the issuing request answers the same key without its secret, which is stored nowhere', async () => {
    const body = { service_account_id: account.id, name: 'retried', scopes: ['cases:read'] };
    const first = dataOf(await request('POST', '/api-keys', body, undefined, 'issue-once'), FreshKey, 201);
    const replay = await request('POST', '/api-keys', body, undefined, 'issue-once');
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.statusCode).toBe(201);
    // A replay carries the original request_id in its body (docs/api.md, Idempotency).
    const replayed = IssuedApiKey.parse(JSON.parse(replay.body).data);
    expect(replayed).toEqual({ ...first, secret: null });
    const secretPart = first.secret.slice(first.prefix.length + 1);
    const stored = await instance.runtime.db.selectFrom('idempotency_keys').selectAll().execute();
    expect(JSON.stringify(stored)).not.toContain(secretPart);
    expect(await canRead(first.secret)).toBe(200);

    const rotated = dataOf(await request('POST', `/api-keys/${first.id}/rotate`, undefined, undefined, 'rotate-once'), FreshKey);
    const rotateReplay = IssuedApiKey.parse(JSON.parse((await request('POST', `/api-keys/${first.id}/rotate`, undefined, undefined, 'rotate-once')).body).data);
    expect(rotateReplay.secret).toBeNull();
    expect(JSON.stringify(await instance.runtime.db.selectFrom('idempotency_keys').selectAll().execute())).not.toContain(rotated.secret.slice(first.prefix.length + 1));
  });

  it('scopes beyond the account max_scopes → 400 validation_error naming them; nothing is issued', async () => {
    const before = pageOf(await request('GET', `/api-keys?service_account_id=${account.id}&limit=100`), ApiKey).data.length;
    const response = await request('POST', '/api-keys', { service_account_id: account.id, name: 'wide', scopes: ['cases:read', 'users:write', 'webhooks:write'] });
    const error = errorOf(response, 400, 'validation_error');
    expect(error.message).toContain('users:write, webhooks:write');
    expect(error.details).toEqual([expect.objectContaining({ field: 'scopes', scopes: ['users:write', 'webhooks:write'] })]);
    expect(pageOf(await request('GET', `/api-keys?service_account_id=${account.id}&limit=100`), ApiKey).data.length).toBe(before);
  });

  it('a caller can only hand out scopes it holds (403), even within max_scopes', async () => {
    const limited = await keyWithScopes(instance, ['credentials:write', 'cases:read']);
    const error = errorOf(await request('POST', '/api-keys', { service_account_id: account.id, name: 'x', scopes: ['cases:write'] }, limited), 403, 'permission_denied');
    expect(error.details).toEqual({ required_scopes: ['cases:write'] });
    dataOf(await request('POST', '/api-keys', { service_account_id: account.id, name: 'x', scopes: ['cases:read'] }, limited), FreshKey, 201);
  });

  it('an unknown or foreign service account → 404', async () => {
    errorOf(await request('POST', '/api-keys', { service_account_id: '99999999', name: 'x', scopes: [] }), 404, 'resource_not_found');
    const foreign = pageOf(await request('GET', '/service-accounts', undefined, keyOf(instance, 1)), ServiceAccount).data[0];
    errorOf(await request('POST', '/api-keys', { service_account_id: foreign?.id, name: 'x', scopes: [] }), 404, 'resource_not_found');
  });

  it('an optional expiry: the key works until then, then answers 401 and shows status expired', async () => {
    errorOf(await issueRaw({ expires_at: new Date(clock.now().getTime() - 1000).toISOString() }), 400, 'validation_error');
    const expiresAt = new Date(clock.now().getTime() + 60_000).toISOString();
    const key = await issue({ expires_at: expiresAt });
    expect(key.expires_at).toBe(expiresAt);
    expect(await canRead(key.secret)).toBe(200);
    clock.advance(60_000);
    errorOf(await request('GET', '/cases', undefined, key.secret), 401, 'authentication_failed');
    expect(dataOf(await request('GET', `/api-keys/${key.id}`), ApiKey).status).toBe('expired');
    errorOf(await request('POST', `/api-keys/${key.id}/rotate`), 409, 'conflict');
  });

  it('renames with PATCH', async () => {
    const key = await issue();
    expect(dataOf(await request('PATCH', `/api-keys/${key.id}`, { name: 'renamed' }), ApiKey).name).toBe('renamed');
    errorOf(await request('PATCH', `/api-keys/${key.id}`, { scopes: ['cases:write'] }), 400, 'validation_error');
  });
});

function issueRaw(body: Record<string, unknown>) {
  return request('POST', '/api-keys', { service_account_id: account.id, name: 'raw', scopes: ['cases:read'], ...body });
}

describe('rotation', () => {
  it('a new secret for the same key; the old one works for the grace period, then stops', async () => {
    const key = await issue({ scopes: ['cases:read', 'cases:write'] });
    expect(await canRead(key.secret)).toBe(200);
    const rotated = dataOf(await request('POST', `/api-keys/${key.id}/rotate`), FreshKey);
    expect(rotated).toMatchObject({ id: key.id, prefix: key.prefix, scopes: key.scopes, rotated_at: clock.now().toISOString() });
    expect(rotated.previous_secret_expires_at).toBe(new Date(clock.now().getTime() + GRACE * 1000).toISOString());
    expect(rotated.secret).not.toBe(key.secret);

    expect(await canRead(rotated.secret)).toBe(200);
    expect(await canRead(key.secret)).toBe(200);
    clock.advance((GRACE - 1) * 1000);
    expect(await canRead(key.secret)).toBe(200);
    clock.advance(1000);
    errorOf(await request('GET', '/cases', undefined, key.secret), 401, 'authentication_failed');
    expect(await canRead(rotated.secret)).toBe(200);
    expect(dataOf(await request('GET', `/api-keys/${key.id}`), ApiKey).previous_secret_expires_at).toBeNull();

    const events = await eventsOf(instance, 'api_key', key.id);
    expect(events.map((event) => event.type)).toEqual(['api_key.created', 'api_key.rotated']);
    expect(JSON.stringify(events)).not.toContain(rotated.secret.slice(key.prefix.length + 1));
  });

  it('the same key id keeps its idempotency records across a rotation', async () => {
    const key = await issue({ scopes: ['cases:read', 'cases:write'] });
    const first = await request('POST', '/cases', { name: 'once' }, key.secret, 'rotation-idem');
    const rotated = dataOf(await request('POST', `/api-keys/${key.id}/rotate`), FreshKey);
    const replay = await request('POST', '/cases', { name: 'once' }, rotated.secret, 'rotation-idem');
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body).toBe(first.body);
  });

  it('grace_period_seconds: 0 ends the old secret at once; a second rotation ends the first old secret at once', async () => {
    const key = await issue();
    const immediate = dataOf(await request('POST', `/api-keys/${key.id}/rotate`, { grace_period_seconds: 0 }), FreshKey);
    expect(immediate.previous_secret_expires_at).toBeNull();
    errorOf(await request('GET', '/cases', undefined, key.secret), 401, 'authentication_failed');

    const second = dataOf(await request('POST', `/api-keys/${key.id}/rotate`), FreshKey);
    const third = dataOf(await request('POST', `/api-keys/${key.id}/rotate`), FreshKey);
    errorOf(await request('GET', '/cases', undefined, immediate.secret), 401, 'authentication_failed');
    expect(await canRead(second.secret)).toBe(200);
    expect(await canRead(third.secret)).toBe(200);
    errorOf(await request('POST', `/api-keys/${key.id}/rotate`, { grace_period_seconds: -1 }), 400, 'validation_error');
  });

  it('only a caller holding the key scopes may rotate it (a rotation hands out a working secret)', async () => {
    const strong = await issue({ scopes: ['cases:write'] });
    const limited = await keyWithScopes(instance, ['credentials:write', 'cases:read']);
    errorOf(await request('POST', `/api-keys/${strong.id}/rotate`, undefined, limited), 403, 'permission_denied');
  });
});

describe('revocation', () => {
  it('takes effect on the very next request, even for a key just served from the cache, and ends a rotation grace too', async () => {
    const key = await issue();
    expect(await canRead(key.secret)).toBe(200);
    expect(await canRead(key.secret)).toBe(200);
    const rotated = dataOf(await request('POST', `/api-keys/${key.id}/rotate`), FreshKey);
    expect(await canRead(key.secret)).toBe(200);
    const revoked = dataOf(await request('POST', `/api-keys/${key.id}/revoke`), ApiKey);
    expect(revoked).toMatchObject({ status: 'revoked', revoked_at: clock.now().toISOString(), previous_secret_expires_at: null });
    errorOf(await request('GET', '/cases', undefined, rotated.secret), 401, 'authentication_failed');
    errorOf(await request('GET', '/cases', undefined, key.secret), 401, 'authentication_failed');
    // Revoking again changes nothing; a revoked key cannot be rotated back to life.
    expect(dataOf(await request('POST', `/api-keys/${key.id}/revoke`), ApiKey).revoked_at).toBe(revoked.revoked_at);
    errorOf(await request('POST', `/api-keys/${key.id}/rotate`), 409, 'conflict');
    expect((await eventsOf(instance, 'api_key', key.id)).map((event) => event.type)).toEqual(['api_key.created', 'api_key.rotated', 'api_key.revoked']);
  });

  it('a revoked key is listed as revoked and refused on its next request', async () => {
    const self = dataOf(
      await request('POST', '/api-keys', { service_account_id: account.id, name: 'self', scopes: [] }),
      FreshKey,
      201,
    );
    const manager = await keyWithScopes(instance, ['credentials:write', 'credentials:read']);
    dataOf(await request('POST', `/api-keys/${self.id}/revoke`, undefined, manager), ApiKey);
    errorOf(await request('GET', '/me', undefined, self.secret), 401, 'authentication_failed');
    expect(pageOf(await request('GET', '/api-keys?limit=100'), ApiKey).data.find((item) => item.id === self.id)?.status).toBe('revoked');
    pageOf(await request('GET', '/cases'), Case);
  });
});
