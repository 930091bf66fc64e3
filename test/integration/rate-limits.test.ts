import fs from 'node:fs';
import type { LightMyRequestResponse } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig, type ConfigInput } from '../../main/config.js';
import { startInstance, type TestInstance } from '../helpers/instance.js';
import { tempDir } from '../helpers/temp.js';
import { countRows, issueSiblingKey } from '../helpers/rows.js';

interface ErrorBody {
  error: { code: string; message: string };
  request_id: string;
}

type Limits = NonNullable<ConfigInput['rateLimits']>;
const roomy = { limit: 1000, windowSeconds: 60 };

let instance: TestInstance | undefined;
afterEach(async () => {
  await instance?.close();
  instance = undefined;
});

async function withLimits(rateLimits: Limits): Promise<TestInstance> {
  instance = await startInstance({ config: { rateLimits: { perRawKey: roomy, perApiKey: roomy, perOrganization: roomy, ...rateLimits } } });
  return instance;
}

const getMe = (target: TestInstance, key?: string | null) => target.request({ method: 'GET', url: '/api/v1/me', ...(key !== undefined && { key }) });

function expectThrottled(response: LightMyRequestResponse, tier: string, windowSeconds = 60): void {
  expect(response.statusCode, response.body).toBe(429);
  const body = response.json<ErrorBody>();
  expect(body.error.code).toBe('rate_limited');
  expect(body.error.message).toContain(tier);
  expect(body.request_id).toBe(response.headers['x-request-id']);
  const retryAfter = Number(response.headers['retry-after']);
  expect(Number.isInteger(retryAfter)).toBe(true);
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(windowSeconds);
  expect(response.headers['ratelimit']).toBe(`"${tier}";r=0;t=${retryAfter}`);
  expect(response.headers['ratelimit-policy']).toEqual(expect.any(String));
}

/** Parses `"tier";r=N;t=S` into its parts. */
function rateLimitHeader(response: LightMyRequestResponse): { tier: string; remaining: number; reset: number } {
  const match = /^"([a-z-]+)";r=(\d+);t=(\d+)$/.exec(String(response.headers['ratelimit']));
  if (!match) throw new Error(`unexpected RateLimit header: ${String(response.headers['ratelimit'])}`);
  return { tier: match[1] ?? '', remaining: Number(match[2]), reset: Number(match[3]) };
}

describe('rate limits', () => {
  describe('per raw x-api-key value', () => {
    it('throttles garbage keys before authentication: 401 until the limit, then 429', async () => {
      const target = await withLimits({ perRawKey: { limit: 3, windowSeconds: 60 } });
      for (let index = 0; index < 3; index += 1) {
        const response = await getMe(target, 'garbage');
        expect(response.statusCode).toBe(401);
        expect(rateLimitHeader(response)).toMatchObject({ tier: 'raw-key', remaining: 2 - index });
      }
      expectThrottled(await getMe(target, 'garbage'), 'raw-key');
      // Another value has its own window.
      expect((await getMe(target, 'other-garbage')).statusCode).toBe(401);
    });

    it('throttles well-formed unknown keys and a missing header the same way', async () => {
      const target = await withLimits({ perRawKey: { limit: 2, windowSeconds: 60 } });
      const unknown = `obs_000000000000_${'A'.repeat(43)}`;
      for (let index = 0; index < 2; index += 1) {
        expect((await getMe(target, unknown)).statusCode).toBe(401);
        expect((await getMe(target, null)).statusCode).toBe(401);
      }
      expectThrottled(await getMe(target, unknown), 'raw-key');
      expectThrottled(await getMe(target, null), 'raw-key');
    });

    it('throttles a valid key too, and a throttled write has no effect', async () => {
      const target = await withLimits({ perRawKey: { limit: 3, windowSeconds: 60 } });
      for (let index = 0; index < 3; index += 1) expect((await getMe(target)).statusCode).toBe(200);
      const before = await countRows(target.runtime.db, 'cases');
      expectThrottled(await target.request({ method: 'POST', url: '/api/v1/cases', body: { name: 'n' } }), 'raw-key');
      expect(await countRows(target.runtime.db, 'cases')).toBe(before);
      expect(await countRows(target.runtime.db, 'idempotency_keys')).toBe(0);
    });
  });

  it('per API key: throttles one key and not another key of the same organization', async () => {
    const target = await withLimits({ perApiKey: { limit: 3, windowSeconds: 60 } });
    const first = target.orgs[0]?.api_key ?? '';
    const sibling = await issueSiblingKey(target.runtime.db, first);
    for (let index = 0; index < 3; index += 1) {
      const response = await getMe(target, first);
      expect(response.statusCode).toBe(200);
      expect(rateLimitHeader(response)).toMatchObject({ tier: 'api-key', remaining: 2 - index });
    }
    expectThrottled(await getMe(target, first), 'api-key');
    expect((await getMe(target, sibling)).statusCode).toBe(200);
  });

  it('per organization: counts every key of the organization together, and no other organization', async () => {
    const target = await withLimits({ perOrganization: { limit: 4, windowSeconds: 60 } });
    const first = target.orgs[0]?.api_key ?? '';
    const sibling = await issueSiblingKey(target.runtime.db, first);
    for (const key of [first, sibling, first, sibling]) expect((await getMe(target, key)).statusCode).toBe(200);
    expectThrottled(await getMe(target, first), 'organization');
    expectThrottled(await getMe(target, sibling), 'organization');
    expect((await getMe(target, target.orgs[1]?.api_key)).statusCode).toBe(200);
  });

  it('lets requests through again once the window has passed', async () => {
    const target = await withLimits({ perRawKey: { limit: 1, windowSeconds: 1 } });
    expect((await getMe(target)).statusCode).toBe(200);
    expectThrottled(await getMe(target), 'raw-key', 1);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect((await getMe(target)).statusCode).toBe(200);
  });

  it('sends RateLimit-Policy and RateLimit on successful and error responses', async () => {
    const target = await withLimits({ perRawKey: { limit: 50, windowSeconds: 60 }, perApiKey: { limit: 40, windowSeconds: 30 }, perOrganization: { limit: 45, windowSeconds: 60 } });
    const caseResponse = await target.request({ method: 'POST', url: '/api/v1/cases', body: { name: 'n' } });
    const responses = {
      ok: await getMe(target),
      created: caseResponse,
      replayed: await target.request({ method: 'POST', url: '/api/v1/cases', body: { name: 'n' }, idempotencyKey: 'same' }),
      replayedAgain: await target.request({ method: 'POST', url: '/api/v1/cases', body: { name: 'n' }, idempotencyKey: 'same' }),
      unauthenticated: await getMe(target, 'nope'),
      validation: await target.request({ method: 'POST', url: '/api/v1/cases', body: { name: '' } }),
      notFound: await target.request({ method: 'GET', url: '/api/v1/cases/999999' }),
      missingIdempotencyKey: await target.request({ method: 'POST', url: '/api/v1/cases', body: { name: 'n' }, idempotencyKey: null }),
    };
    expect(responses.replayedAgain.headers['idempotent-replayed']).toBe('true');
    for (const [label, response] of Object.entries(responses)) {
      expect(response.headers['ratelimit-policy'], label).toBe('"raw-key";q=50;w=60, "api-key";q=40;w=30, "organization";q=45;w=60');
      expect(response.headers['ratelimit'], label).toMatch(/^"(raw-key|api-key|organization)";r=\d+;t=\d+$/);
    }
    // The header names the tier closest to running out: the API-key tier with its smaller limit.
    expect(rateLimitHeader(responses.ok)).toMatchObject({ tier: 'api-key' });
    expect(rateLimitHeader(responses.unauthenticated)).toMatchObject({ tier: 'raw-key', remaining: 49 });
  });

  it('counts unknown routes of /api/v1 against the raw tier, with the headers', async () => {
    const target = await withLimits({ perRawKey: { limit: 2, windowSeconds: 60 } });
    const probe = (method: 'GET' | 'POST' = 'GET') => target.request({ method, url: '/api/v1/no-such-route', key: 'prober' });
    for (const [index, method] of (['GET', 'POST'] as const).entries()) {
      const response = await probe(method);
      expect(response.statusCode).toBe(404);
      expect(response.headers['ratelimit-policy']).toEqual(expect.any(String));
      expect(rateLimitHeader(response)).toMatchObject({ tier: 'raw-key', remaining: 1 - index });
    }
    expectThrottled(await probe(), 'raw-key');
  });

  it('are lifted by rateLimits.enabled: false', async () => {
    instance = await startInstance({ config: { rateLimits: { enabled: false, perRawKey: { limit: 1, windowSeconds: 60 }, perApiKey: { limit: 1, windowSeconds: 60 }, perOrganization: { limit: 1, windowSeconds: 60 } } } });
    for (let index = 0; index < 5; index += 1) {
      const response = await getMe(instance);
      expect(response.statusCode).toBe(200);
      expect(response.headers['ratelimit']).toBeUndefined();
      expect(response.headers['ratelimit-policy']).toBeUndefined();
    }
    for (let index = 0; index < 5; index += 1) expect((await getMe(instance, 'garbage')).statusCode).toBe(401);
  });
});

describe('rate-limit configuration', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  });
  const dataDir = () => {
    const dir = tempDir('obscura-config-');
    dirs.push(dir);
    return dir;
  };

  it('defaults to the spec: 60, 1,000 and 5,000 per 60 seconds', () => {
    expect(loadConfig(dataDir()).rateLimits).toEqual({
      enabled: true,
      perRawKey: { limit: 60, windowSeconds: 60 },
      perApiKey: { limit: 1000, windowSeconds: 60 },
      perOrganization: { limit: 5000, windowSeconds: 60 },
    });
  });

  it('reads config.json, lets flags override it, and keeps defaults for what neither sets', () => {
    const dir = dataDir();
    fs.writeFileSync(`${dir}/config.json`, JSON.stringify({ rateLimits: { perApiKey: { limit: 7, windowSeconds: 10 } } }));
    const fromFile = loadConfig(dir).rateLimits;
    expect(fromFile.perApiKey).toEqual({ limit: 7, windowSeconds: 10 });
    expect(fromFile.perRawKey).toEqual({ limit: 60, windowSeconds: 60 });
    const overridden = loadConfig(dir, { rateLimits: { enabled: false } }).rateLimits;
    expect(overridden).toMatchObject({ enabled: false, perApiKey: { limit: 7, windowSeconds: 10 } });
  });

  it('refuses a limit below 1', () => {
    expect(() => loadConfig(dataDir(), { rateLimits: { perRawKey: { limit: 0, windowSeconds: 60 } } })).toThrow(/invalid configuration/);
  });

  it('an instance with the defaults announces the spec policy', async () => {
    instance = await startInstance();
    const response = await getMe(instance);
    expect(response.headers['ratelimit-policy']).toBe('"raw-key";q=60;w=60, "api-key";q=1000;w=60, "organization";q=5000;w=60');
    expect(rateLimitHeader(response)).toMatchObject({ tier: 'raw-key', remaining: 59 });
  });
});
