import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock, loginRaw } from '../helpers/app-session.js';
import { startInstance, type TestInstance } from '../helpers/instance.js';
import { keyWithScopes } from '../helpers/v1-redactions-support.js';

// Finding (issue 26, 6): after ~50 unknown keys from 127.0.0.1 a key in daily use and a freshly issued key
// both answered 429, and after 30 failed sign-ins for names that do not exist the administrator's correct
// password answered 429. Every local process shares 127.0.0.1, so any of them could keep everyone out.

describe('security: no local lock-out', () => {
  let instance: TestInstance;
  const clock = new ManualClock();

  beforeAll(async () => {
    instance = await startInstance({ organizations: 1, clock, config: { rateLimits: { enabled: false } } });
  });
  afterAll(() => instance.close());

  const guess = (n: number) => `obs_${n.toString(16).padStart(12, '0')}_${'A'.repeat(43)}`;

  it('200 unknown keys over real HTTP from loopback, then a key in use and a freshly issued key both answer 200', async () => {
    const org = instance.orgs[0];
    if (!org) throw new Error('no organization');
    const get = (key: string) => fetch(`${instance.baseUrl}/api/v1/cases`, { headers: { 'x-api-key': key } }).then((response) => response.status);
    expect(await get(org.api_key)).toBe(200);
    const statuses: number[] = [];
    for (let n = 0; n < 200; n += 1) statuses.push(await get(guess(n)));
    expect(new Set(statuses)).toEqual(new Set([401]));
    expect(await get(org.api_key)).toBe(200);
    const fresh = await keyWithScopes(instance, ['cases:read']);
    expect(await get(fresh)).toBe(200);
  });

  it('unknown secrets for one key id are slowed per key id, and that key itself still answers 200', async () => {
    const org = instance.orgs[0];
    if (!org) throw new Error('no organization');
    const lookup = /^obs_([0-9a-f]{12})_/.exec(org.api_key)?.[1] ?? '';
    const statuses: number[] = [];
    for (let n = 0; n < 22; n += 1) statuses.push((await instance.request({ method: 'GET', url: '/api/v1/cases', key: `obs_${lookup}_${String(n).padStart(43, 'B')}` })).statusCode);
    expect(statuses.slice(0, 20).every((status) => status === 401)).toBe(true);
    expect(statuses[21]).toBe(429);
    expect((await instance.request({ method: 'GET', url: '/api/v1/cases' })).statusCode).toBe(200);
  });

  it('a LAN client guessing keys is slowed per address; the valid key from that address is not', async () => {
    const org = instance.orgs[0];
    if (!org) throw new Error('no organization');
    const lan = (key: string) => instance.server.app.inject({ method: 'GET', url: '/api/v1/cases', remoteAddress: '192.168.10.20', headers: { host: instance.host, 'x-api-key': key } });
    const statuses: number[] = [];
    for (let n = 1000; n < 1052; n += 1) statuses.push((await lan(guess(n))).statusCode);
    expect(statuses.slice(0, 50).every((status) => status === 401)).toBe(true);
    expect(statuses[51]).toBe(429);
    expect((await lan(org.api_key)).statusCode).toBe(200);
  });

  it('50 failed sign-ins for other names, then the administrator signs in at once (200)', async () => {
    const org = instance.orgs[0];
    if (!org) throw new Error('no organization');
    for (let n = 0; n < 50; n += 1) expect((await loginRaw(instance, `nobody-${n}`, 'wrong')).statusCode).toBe(401);
    expect((await loginRaw(instance, org.admin_username, org.admin_password)).statusCode).toBe(200);
  }, 60_000);

  it('off loopback, failed sign-ins from one address are still slowed per address', async () => {
    const lan = (username: string) =>
      instance.server.app.inject({ method: 'POST', url: '/api/auth/login', remoteAddress: '10.1.2.3', headers: { host: instance.host, 'content-type': 'application/json' }, payload: JSON.stringify({ username, password: 'wrong' }) });
    const statuses: number[] = [];
    for (let n = 0; n < 21; n += 1) statuses.push((await lan(`lan-${n}`)).statusCode);
    expect(statuses.slice(0, 20).every((status) => status === 401)).toBe(true);
    expect((await lan('lan-last')).statusCode).toBe(429);
  }, 60_000);
});
