import fc from 'fast-check';
import type { LightMyRequestResponse } from 'fastify';
import { z } from 'zod';
import type { RegisteredRoute } from '../../main/http/types.js';
import type { TestInstance } from './instance.js';
import { createApiKeyForTest } from './security-support.js';
import { ALL_SCOPES } from '../../main/common/scopes.js';

// Fuzzing every route of a real instance through Fastify inject: requests are generated from each route's
// own schemas (right-shaped bodies with wrong values, wrong shapes, hostile strings and ids), and every
// answer must be below 500 and in its surface's envelope. Used by test/security/fuzz.test.ts (short, in CI)
// and bench/fuzz.ts (the long run).

type Json = unknown;

const HOSTILE_STRINGS = ['', ' ', '0', '-1', '1e309', 'NaN', '../../etc/passwd', '%00', '\u0000', '<script>', "' OR 1=1 --", '=cmd|x', 'does-not-exist-123', 'x'.repeat(300), '\ud800', '🙂'];

/** A value shaped by a JSON Schema (from zod), with a share of wrong types and hostile values mixed in. */
function arbitraryFor(schema: unknown, depth: number): fc.Arbitrary<Json> {
  const wild = fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.constantFrom<Json>(...HOSTILE_STRINGS, -1, 0, 2 ** 53, 1e308, null, true, [], {}));
  if (depth > 4 || typeof schema !== 'object' || schema === null) return wild;
  const node = schema as Record<string, unknown>;
  const options: fc.Arbitrary<Json>[] = [];
  if (Array.isArray(node.enum)) options.push(fc.constantFrom(...(node.enum as Json[])));
  if ('const' in node) options.push(fc.constant(node.const));
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
    const list = node[key];
    if (Array.isArray(list) && list.length > 0) options.push(fc.oneof(...list.map((item) => arbitraryFor(item, depth + 1))));
  }
  const types = Array.isArray(node.type) ? (node.type as string[]) : typeof node.type === 'string' ? [node.type] : [];
  for (const type of types) {
    if (type === 'string') options.push(fc.oneof(fc.string({ maxLength: 40 }), fc.constantFrom(...HOSTILE_STRINGS), fc.constantFrom('1', '2', '999999', '2031-01-01T00:00:00Z', 'pdf', 'B6', 'case.created', 'https://example.org/hook')));
    if (type === 'integer' || type === 'number') options.push(fc.oneof(fc.integer({ min: -5, max: 10_000 }), fc.double(), fc.constantFrom(0, 1, 2, 2 ** 31, -(2 ** 53))));
    if (type === 'boolean') options.push(fc.boolean());
    if (type === 'null') options.push(fc.constant(null));
    if (type === 'array') options.push(fc.array(arbitraryFor(node.items, depth + 1), { maxLength: 4 }));
    if (type === 'object') {
      const properties = (node.properties ?? {}) as Record<string, unknown>;
      const keys = Object.keys(properties);
      const record: Record<string, fc.Arbitrary<Json>> = {};
      for (const key of keys) record[key] = arbitraryFor(properties[key], depth + 1);
      options.push(
        keys.length > 0
          ? fc.record(record, { requiredKeys: [] }).chain((value) => fc.oneof(fc.constant(value as Json), fc.constant({ ...(value as object), unexpected: 'x' })))
          : fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 }),
      );
    }
  }
  if (options.length === 0) return wild;
  return fc.oneof({ arbitrary: fc.oneof(...options), weight: 4 }, { arbitrary: wild, weight: 1 });
}

function jsonSchemaOf(schema: unknown): unknown {
  if (!(schema instanceof z.ZodType)) return schema ?? undefined;
  try {
    return z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' });
  } catch {
    return {};
  }
}

const ID_SEGMENT = fc.oneof(
  { arbitrary: fc.constantFrom('1', '2', '3', '999999'), weight: 6 },
  { arbitrary: fc.constantFrom('0', '-1', 'abc', 'does-not-exist-123', '1.5', '99999999999999999999', '%2e%2e', '%ff', 'x'.repeat(150)), weight: 3 },
  { arbitrary: fc.string({ minLength: 1, maxLength: 12 }).map(encodeURIComponent), weight: 1 },
);

export interface FuzzRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string;
}

type Credential = 'key' | 'session' | 'none' | 'bad-key';

/** One request against a route: path, query and body from its schemas, a credential, sometimes a hostile transport detail. */
export function requestArbitrary(routes: readonly RegisteredRoute[]): fc.Arbitrary<{ route: RegisteredRoute; request: Omit<FuzzRequest, 'headers'> & { credential: Credential; contentType: string | null } }> {
  const perRoute = routes.map((route) => {
    const body = jsonSchemaOf(route.schema?.body);
    const query = jsonSchemaOf(route.schema?.querystring) as { properties?: Record<string, unknown> } | undefined;
    const segments = route.url.split('/').map((segment) => (segment.startsWith(':') ? ID_SEGMENT : fc.constant(segment)));
    const queryKeys = Object.keys(query?.properties ?? {});
    const queryArb = fc.dictionary(fc.constantFrom(...(queryKeys.length > 0 ? queryKeys : ['x'])), fc.oneof(fc.string({ maxLength: 20 }), fc.constantFrom('1', '0', '-1', '101', 'abc', 'true', 'B6,B7', 'zzz')), { maxKeys: 3 });
    const bodyArb: fc.Arbitrary<string | undefined> = fc.oneof(
      { arbitrary: (body === undefined ? fc.jsonValue({ maxDepth: 2 }) : arbitraryFor(body, 0)).map((value) => JSON.stringify(value) ?? 'null'), weight: 8 },
      { arbitrary: fc.constant(undefined), weight: 2 },
      { arbitrary: fc.constantFrom('{', '[]', 'null', '"x"', `${'['.repeat(5000)}${']'.repeat(5000)}`, '{"a":1,"a":2}', '{"__proto__":{"x":1}}'), weight: 1 },
    );
    return fc.record({
      path: fc.tuple(...segments).map((parts) => parts.join('/')),
      query: queryArb,
      payload: bodyArb,
      credential: fc.constantFrom<Credential>('key', 'key', 'key', 'session', 'none', 'bad-key'),
      contentType: fc.oneof({ arbitrary: fc.constant<string | null>('application/json'), weight: 9 }, { arbitrary: fc.constantFrom<string | null>('text/plain', 'application/xml', null), weight: 1 }),
    }).map(({ path, query: params, payload, credential, contentType }) => {
      const search = new URLSearchParams(params).toString();
      return { route, request: { method: route.method, url: `${path}${search ? `?${search}` : ''}`, credential, contentType, ...(payload !== undefined && { payload }) } };
    });
  });
  return fc.oneof(...perRoute);
}

// The application API: everything under /api/ but the integration API's /api/v1 (sign-in, redactions, the
// viewer's page preview, and any unknown path there), OCR text and summaries (main/http/shared/errors.ts).
const INTEGRATION_SURFACE = /^\/api\/v1(\/|\?|$)/i;
const APPLICATION_SURFACE = /^\/(api|ocr|ai-summary)(\/|\?|$)/i;
const APP_SURFACE = { test: (path: string) => APPLICATION_SURFACE.test(path) && !INTEGRATION_SURFACE.test(path) };
const EnvelopeError = z.object({ error: z.object({ code: z.string().min(1), message: z.string() }).loose(), request_id: z.string().min(1) });
const AppError = z.object({ success: z.literal(false), error: z.string(), message: z.string(), code: z.string().min(1), request_id: z.string().min(1) }).loose();
const EnvelopeData = z.union([z.object({ data: z.unknown(), request_id: z.string().min(1) }).loose(), z.object({ data: z.array(z.unknown()), cursor: z.string().nullable(), request_id: z.string().min(1) })]);

/** Why an answer breaks the rules (5xx, or a body outside its surface's envelope), or null when it is fine. */
export function envelopeProblem(request: { method: string; url: string }, response: LightMyRequestResponse): string | null {
  if (response.statusCode >= 500) return `status ${response.statusCode}`;
  if (response.statusCode === 204 || request.method === 'HEAD') return response.body === '' ? null : 'a 204 with a body';
  const type = String(response.headers['content-type'] ?? '');
  // As the server sees it: dot segments resolved (inject normalises the URL the same way).
  const path = new URL(request.url, 'http://fuzz.invalid').pathname;
  if (!type.startsWith('application/json')) {
    // Only the UI's static files, /files downloads, CSV reports (audit.csv) and the viewer's page preview (a PDF) answer other types.
    const download = !path.startsWith('/api/') || type.startsWith('text/csv') || (type.startsWith('application/pdf') && /^\/api\/documents\/[^/]+\/pages\/[^/]+\/preview$/.test(path));
    return response.statusCode < 400 && download ? null : `content-type ${type || '(none)'} on ${response.statusCode}`;
  }
  let body: unknown;
  try {
    body = JSON.parse(response.body);
  } catch {
    return 'a body that is not JSON';
  }
  const requestId = response.headers['x-request-id'];
  if (response.statusCode >= 400) {
    const parsed = APP_SURFACE.test(path) ? AppError.safeParse(body) : EnvelopeError.safeParse(body);
    if (!parsed.success) return `error body outside the envelope: ${response.body.slice(0, 200)}`;
    if (parsed.data.request_id !== requestId) return 'request_id differs from X-Request-Id';
    if (response.body.length > 64 * 1024) return `error body of ${response.body.length} bytes`;
    return null;
  }
  if (APP_SURFACE.test(path) || path === '/api/v1/openapi.json') return null;
  if (path.startsWith('/api/v1/') && !EnvelopeData.safeParse(body).success) return `success body outside the envelope: ${response.body.slice(0, 200)}`;
  return null;
}

/**
 * Rate limits and failure throttles off, so generated requests reach the handlers instead of piling up
 * as 429s (both are tested on their own in test/integration/rate-limits and test/security/login).
 */
export const FUZZ_CONFIG = { rateLimits: { enabled: false }, loginThrottle: { enabled: false } } as const;

export interface FuzzCounts {
  requests: number;
  byStatus: Record<string, number>;
  problems: { request: string; problem: string }[];
  routes: number;
}

/**
 * Sends `count` generated requests (seeded, so a failure can be replayed) and counts the answers.
 * Credentials are renewed when a fuzzed request revoked or deactivated the ones in use.
 */
export async function runFuzz(instance: TestInstance, options: { count: number; seed: number; onProgress?: (done: number) => void }): Promise<FuzzCounts> {
  // The API surfaces; the UI's static files (one route per built file) have no schema to fuzz.
  const routes = instance.server.app.obscura.routes.filter((route) => route.method !== 'HEAD' && /^\/(api|files|ocr|ai-summary)(\/|$)/.test(route.url));
  const samples = fc.sample(requestArbitrary(routes), { numRuns: options.count, seed: options.seed });
  const counts: FuzzCounts = { requests: 0, byStatus: {}, problems: [], routes: new Set(routes.map((route) => `${route.method} ${route.url}`)).size };
  let key = (await createApiKeyForTest(instance, [...ALL_SCOPES])).plaintext;
  let token = await sessionToken(instance);
  let index = 0;
  for (const { request } of samples) {
    index += 1;
    const headers: Record<string, string> = { host: instance.host, 'idempotency-key': `fuzz-${options.seed}-${index}` };
    if (request.contentType && request.payload !== undefined) headers['content-type'] = request.contentType;
    if (request.credential === 'key') headers['x-api-key'] = key;
    if (request.credential === 'bad-key') headers['x-api-key'] = `obs_${'0'.repeat(12)}_${'A'.repeat(43)}`;
    if (request.credential === 'session') headers.authorization = `Bearer ${token}`;
    const response = await instance.server.app.inject({ method: request.method as 'GET', url: request.url, headers, ...(request.payload !== undefined && { payload: request.payload }) });
    counts.requests += 1;
    counts.byStatus[response.statusCode] = (counts.byStatus[response.statusCode] ?? 0) + 1;
    const problem = envelopeProblem(request, response);
    if (problem && counts.problems.length < 50) counts.problems.push({ request: `${request.method} ${request.url} ${request.payload?.slice(0, 200) ?? ''}`, problem });
    if (index % 100 === 0) {
      options.onProgress?.(index);
      ({ key, token } = await renewCredentials(instance, key, token));
    }
  }
  return counts;
}

async function sessionToken(instance: TestInstance): Promise<string> {
  const org = instance.orgs[0];
  if (!org) throw new Error('no organization');
  await instance.runtime.db.updateTable('users').set({ active: 1 }).where('username', '=', org.admin_username).execute();
  const login = await instance.server.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    headers: { host: instance.host, 'content-type': 'application/json' },
    payload: JSON.stringify({ username: org.admin_username, password: org.admin_password }),
  });
  return login.statusCode === 200 ? (login.json() as { token: string }).token : '';
}

async function renewCredentials(instance: TestInstance, key: string, token: string): Promise<{ key: string; token: string }> {
  const probe = (headers: Record<string, string>) => instance.server.app.inject({ method: 'GET', url: '/api/v1/me', headers: { host: instance.host, ...headers } });
  const keyOk = (await probe({ 'x-api-key': key })).statusCode === 200;
  const tokenOk = token !== '' && (await probe({ authorization: `Bearer ${token}` })).statusCode === 200;
  return {
    key: keyOk ? key : (await createApiKeyForTest(instance, [...ALL_SCOPES])).plaintext,
    token: tokenOk ? token : await sessionToken(instance),
  };
}
