import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiKey, ServiceAccount } from '../../main/common/schemas/credentials.js';
import { FreshKey } from '../helpers/access-support.js';
import { Case } from '../../main/common/schemas/cases.js';
import { ALL_SCOPES } from '../../main/common/scopes.js';
import { startInstance, type TestInstance } from '../helpers/instance.js';
import { auditOf, dataOf, detailFields, errorOf, eventsOf, keyOf, pageOf } from '../helpers/integration-support.js';
import { keyWithScopes } from '../helpers/v1-redactions-support.js';

let instance: TestInstance;

beforeAll(async () => {
  instance = await startInstance({ config: { rateLimits: { enabled: false } } });
});
afterAll(() => instance.close());

const request = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, body?: unknown, key?: string) =>
  instance.request({ method, url: `/api/v1${url}`, ...(body !== undefined && { body }), ...(key && { key }) });

async function createAccount(body: Record<string, unknown>, key?: string): Promise<ServiceAccount> {
  return dataOf(await request('POST', '/service-accounts', body, key), ServiceAccount, 201);
}

async function issueKey(accountId: string, scopes: string[]): Promise<FreshKey> {
  return dataOf(await request('POST', '/api-keys', { service_account_id: accountId, name: 'k', scopes }), FreshKey, 201);
}

describe('service accounts', () => {
  it('the initial account holds every scope and is listed; another organization sees only its own', async () => {
    const accounts = pageOf(await request('GET', '/service-accounts'), ServiceAccount).data;
    expect(accounts).toEqual([expect.objectContaining({ name: 'default-integration', max_scopes: [...ALL_SCOPES], active: true })]);
    const other = pageOf(await request('GET', '/service-accounts', undefined, keyOf(instance, 1)), ServiceAccount).data;
    expect(other).toHaveLength(1);
    expect(other[0]?.id).not.toBe(accounts[0]?.id);
    errorOf(await request('GET', `/service-accounts/${accounts[0]?.id}`, undefined, keyOf(instance, 1)), 404, 'resource_not_found');
  });

  it('create, read, update; events and audit records carry the account', async () => {
    const account = await createAccount({ name: 'records-sync', description: 'Nightly sync', max_scopes: ['cases:write', 'cases:read'] });
    expect(account).toMatchObject({ name: 'records-sync', description: 'Nightly sync', max_scopes: ['cases:read', 'cases:write'], active: true });
    expect(dataOf(await request('GET', `/service-accounts/${account.id}`), ServiceAccount)).toEqual(account);
    const updated = dataOf(await request('PATCH', `/service-accounts/${account.id}`, { name: 'records-sync-2', max_scopes: ['cases:read'] }), ServiceAccount);
    expect(updated).toMatchObject({ name: 'records-sync-2', max_scopes: ['cases:read'] });
    const events = await eventsOf(instance, 'service_account', account.id);
    expect(events.map((event) => event.type)).toEqual(['service_account.created', 'service_account.updated']);
    expect(events[1]?.payload).toEqual({ service_account: updated, changed: ['name', 'max_scopes'] });
    expect((await auditOf(instance, 'service_account', account.id)).map((row) => row.action)).toEqual(['service_account.create', 'service_account.update']);
  });

  it.each([
    ['an unknown scope', { name: 'x', max_scopes: ['everything'] }, 'max_scopes.0'],
    ['no max_scopes', { name: 'x' }, 'max_scopes'],
    ['no name', { max_scopes: [] }, 'name'],
  ])('refuses %s with 400', async (_label, body, field) => {
    expect(detailFields(errorOf(await request('POST', '/service-accounts', body), 400, 'validation_error'))).toContain(field);
  });

  it('deactivation makes its keys answer 403 permission_denied; activation restores them', async () => {
    const account = await createAccount({ name: 'pausable', max_scopes: ['cases:read'] });
    const key = await issueKey(account.id, ['cases:read']);
    pageOf(await request('GET', '/cases', undefined, key.secret), Case);
    dataOf(await request('PATCH', `/service-accounts/${account.id}`, { active: false }), ServiceAccount);
    errorOf(await request('GET', '/cases', undefined, key.secret), 403, 'permission_denied');
    errorOf(await request('GET', '/me', undefined, key.secret), 403, 'permission_denied');
    errorOf(await request('POST', '/api-keys', { service_account_id: account.id, name: 'new', scopes: [] }), 409, 'conflict');
    dataOf(await request('PATCH', `/service-accounts/${account.id}`, { active: true }), ServiceAccount);
    pageOf(await request('GET', '/cases', undefined, key.secret), Case);
  });

  it('deletion revokes every key at once (401) and the account and its keys answer 404', async () => {
    const account = await createAccount({ name: 'doomed', max_scopes: ['cases:read'] });
    const key = await issueKey(account.id, ['cases:read']);
    pageOf(await request('GET', '/cases', undefined, key.secret), Case);
    expect((await request('DELETE', `/service-accounts/${account.id}`)).statusCode).toBe(204);
    errorOf(await request('GET', '/cases', undefined, key.secret), 401, 'authentication_failed');
    errorOf(await request('GET', `/service-accounts/${account.id}`), 404, 'resource_not_found');
    errorOf(await request('GET', `/api-keys/${key.id}`), 404, 'resource_not_found');
    expect(pageOf(await request('GET', '/service-accounts'), ServiceAccount).data.map((item) => item.id)).not.toContain(account.id);
    errorOf(await request('DELETE', `/service-accounts/${account.id}`), 404, 'resource_not_found');
  });

  it('narrowing max_scopes narrows existing keys at once, and widening again does not widen them back', async () => {
    const account = await createAccount({ name: 'narrowed', max_scopes: ['cases:read', 'cases:write'] });
    const key = await issueKey(account.id, ['cases:read', 'cases:write']);
    dataOf(await request('POST', '/cases', { name: 'before' }, key.secret), Case, 201);
    dataOf(await request('PATCH', `/service-accounts/${account.id}`, { max_scopes: ['cases:read'] }), ServiceAccount);
    errorOf(await request('POST', '/cases', { name: 'after' }, key.secret), 403, 'permission_denied');
    expect(dataOf(await request('GET', `/api-keys/${key.id}`), ApiKey).scopes).toEqual(['cases:read']);
    dataOf(await request('PATCH', `/service-accounts/${account.id}`, { max_scopes: ['cases:read', 'cases:write'] }), ServiceAccount);
    errorOf(await request('POST', '/cases', { name: 'again' }, key.secret), 403, 'permission_denied');
  });

  it('a caller cannot give an account scopes it does not hold, nor manage a stronger account (403)', async () => {
    const limited = await keyWithScopes(instance, ['credentials:read', 'credentials:write', 'cases:read']);
    const denied = errorOf(await request('POST', '/service-accounts', { name: 'grab', max_scopes: ['cases:read', 'users:write'] }, limited), 403, 'permission_denied');
    expect(denied.details).toEqual({ required_scopes: ['users:write'] });
    const mine = await createAccount({ name: 'mine', max_scopes: ['cases:read'] }, limited);
    errorOf(await request('PATCH', `/service-accounts/${mine.id}`, { max_scopes: ALL_SCOPES }, limited), 403, 'permission_denied');
    const initial = pageOf(await request('GET', '/service-accounts', undefined, limited), ServiceAccount).data.find((item) => item.name === 'default-integration');
    errorOf(await request('PATCH', `/service-accounts/${initial?.id}`, { active: false }, limited), 403, 'permission_denied');
    errorOf(await request('DELETE', `/service-accounts/${initial?.id}`, undefined, limited), 403, 'permission_denied');
    pageOf(await request('GET', '/cases'), Case);
  });
});
