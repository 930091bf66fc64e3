import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCase, startInstance, type TestInstance } from '../helpers/instance.js';
import { errorOf } from '../helpers/integration-support.js';

// Findings: 500s on deeply nested JSON sent to body-less operations, Fastify's own 414 body, bodies accepted
// by operations that take none, non-integer ids answered 400 instead of 404, and missing security headers.

describe('security: envelope, ids, bodies and headers', () => {
  let instance: TestInstance;
  let caseId: string;

  beforeAll(async () => {
    instance = await startInstance({ organizations: 1, config: { rateLimits: { enabled: false } } });
    caseId = await createCase(instance);
  });
  afterAll(() => instance.close());

  const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);

  it.each([
    ['POST', '/api/v1/users/1/deactivate'],
    ['POST', '/api/v1/users/1/invitations'],
    ['PUT', '/api/v1/users/1/roles/1'],
    ['POST', '/api/v1/webhooks/1/rotate-secret'],
    ['POST', '/api/v1/cases'],
  ] as const)('deeply nested JSON to %s %s → 400 validation_error, not 500', async (method, url) => {
    const response = await instance.server.app.inject({
      method,
      url,
      headers: { host: instance.host, 'x-api-key': instance.orgs[0]?.api_key ?? '', 'idempotency-key': `n-${url}`, 'content-type': 'application/json' },
      payload: nested(20_000),
    });
    errorOf(response, 400, 'validation_error');
  });

  it('a body on an operation that takes none → 400 naming the body; nothing changes', async () => {
    const response = await instance.request({ method: 'POST', url: '/api/v1/users/1/deactivate', body: { reason: 'x' } });
    const error = errorOf(response, 400, 'validation_error');
    expect(error.message).toMatch(/no request body/);
    const me = await instance.request({ method: 'GET', url: '/api/v1/users/1' });
    expect(me.statusCode).toBe(200);
    expect((me.json() as { data: { active?: boolean; status?: string } }).data).not.toMatchObject({ active: false });
  });

  it('no body at all on a body-less operation is still served', async () => {
    const response = await instance.request({ method: 'POST', url: `/api/v1/cases/${caseId}/actions`, body: { action: 'submit_for_review' } });
    expect(response.statusCode).toBeLessThan(500);
    const logout = await instance.server.app.inject({ method: 'POST', url: '/api/auth/logout', headers: { host: instance.host } });
    expect(logout.statusCode).toBe(401); // no session: refused by authentication, not by the body rule
  });

  it.each(['does-not-exist-123', 'abc', '0', '1.5', '-1', '99999999999999999'])('non-integer or impossible id %s → 404 resource_not_found', async (id) => {
    errorOf(await instance.request({ method: 'GET', url: `/api/v1/cases/${id}` }), 404, 'resource_not_found');
    errorOf(await instance.request({ method: 'GET', url: `/api/v1/redactions/${id}` }), 404, 'resource_not_found');
  });

  it('a path parameter over 100 characters → 414 in the envelope with request_id', async () => {
    const response = await instance.request({ method: 'GET', url: `/api/v1/cases/${'1'.repeat(150)}` });
    const error = errorOf(response, 414, 'uri_too_long');
    expect(error.message).toMatch(/longer than 100/);
  });

  it.each([
    [`/api/documents/${'x'.repeat(150)}/pages/1/preview`, 414, 'uri_too_long'],
    ['/api/documents/%ff/pages/1/preview', 400, 'validation_error'],
    ['/api/documents/1/pages/%2e%2e/preview', 404, 'resource_not_found'],
    [`/api/redactions/${'x'.repeat(150)}`, 414, 'uri_too_long'],
  ] as const)('the application API answers a guard on %s in its own error body (%i %s)', async (url, status, code) => {
    const response = await instance.server.app.inject({ method: 'GET', url, headers: { host: instance.host } });
    expect(response.statusCode).toBe(status);
    expect(response.json()).toMatchObject({ success: false, code, request_id: response.headers['x-request-id'] });
  });

  it('an oversized body → 413 and another media type → 415, both in the envelope', async () => {
    const big = await instance.server.app.inject({
      method: 'POST',
      url: '/api/v1/cases',
      headers: { host: instance.host, 'x-api-key': instance.orgs[0]?.api_key ?? '', 'idempotency-key': 'big', 'content-type': 'application/json' },
      payload: JSON.stringify({ name: 'x'.repeat(11 * 1024 * 1024) }),
    });
    errorOf(big, 413, 'payload_too_large');
    const text = await instance.server.app.inject({
      method: 'POST',
      url: '/api/v1/cases',
      headers: { host: instance.host, 'x-api-key': instance.orgs[0]?.api_key ?? '', 'idempotency-key': 'txt', 'content-type': 'text/plain' },
      payload: 'hello',
    });
    errorOf(text, 415, 'unsupported_media_type');
    // The sign-in route has its own, smaller limit; the application API answers in its own error body.
    const login = await instance.server.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { host: instance.host, 'content-type': 'application/json' },
      payload: JSON.stringify({ username: 'x', password: 'y'.repeat(20_000) }),
    });
    expect(login.statusCode).toBe(413);
    expect(login.json()).toMatchObject({ success: false, code: 'payload_too_large' });
  });

  it('every response carries CSP with frame-ancestors none, X-Frame-Options, nosniff, Referrer-Policy, COOP and CORP', async () => {
    const responses = [
      await instance.request({ method: 'GET', url: '/api/v1/me' }),
      await instance.request({ method: 'GET', url: '/api/v1/cases/abc' }),
      await instance.request({ method: 'GET', url: '/api/v1/nothing-here' }),
      await instance.server.app.inject({ method: 'GET', url: '/', headers: { host: instance.host } }),
      await instance.server.app.inject({ method: 'GET', url: `/api/v1/cases/${'9'.repeat(200)}`, headers: { host: instance.host } }),
    ];
    for (const response of responses) {
      expect(response.headers['content-security-policy']).toMatch(/frame-ancestors 'none'/);
      expect(response.headers['x-frame-options']).toBe('DENY');
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.headers['referrer-policy']).toBe('no-referrer');
      expect(response.headers['cross-origin-opener-policy']).toBe('same-origin');
      expect(response.headers['cross-origin-resource-policy']).toBe('same-origin');
    }
  });
});
