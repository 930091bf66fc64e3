import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Case } from '../../main/common/schemas/cases.js';
import { DownloadUrl, UploadSession } from '../../main/common/schemas/documents.js';
import { loadConfig } from '../../main/config.js';
import { createCase, startInstance, uploadDocuments, type TestInstance } from '../helpers/instance.js';
import { minimalPdf, tempDir } from '../helpers/temp.js';
import { dataOf, errorOf, getUrl, keyOf, putUpload, tableCounts, type Response } from '../helpers/integration-support.js';

const BODY_LIMIT = 2048;

/** Every response of this file passes through here, so header rules can be checked on all of them. */
const seen: Response[] = [];
function note(response: Response): Response {
  seen.push(response);
  return response;
}

const RequestIdBody = z.object({ request_id: z.string().min(1) }).loose();

/** A real HTTP request over TCP with any Host header (fetch does not allow setting Host). */
function tcpRequest(options: { port: number; host?: string; path: string; method?: string; headers?: Record<string, string> }) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>((resolve, reject) => {
    const request = http.request(
      { host: options.host ?? '127.0.0.1', port: options.port, path: options.path, method: options.method ?? 'GET', headers: options.headers, agent: false },
      (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (body += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body }));
      },
    );
    request.on('error', reject);
    request.end();
  });
}

/** Resolves true when a TCP connection to host:port is accepted. */
function canConnect(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    socket.setTimeout(2000);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(false));
  });
}

describe('HTTP rules', () => {
  let instance: TestInstance;
  let port: number;

  beforeAll(async () => {
    instance = await startInstance({ config: { rateLimits: { enabled: false }, bodyLimitBytes: BODY_LIMIT } });
    port = Number(new URL(instance.baseUrl).port);
  });
  afterAll(() => instance.close());

  const send = async (...args: Parameters<TestInstance['request']>) => note(await instance.request(...args));
  const inject = async (options: { method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS'; url: string; headers?: Record<string, string>; payload?: string }) =>
    note(await instance.server.app.inject({ method: options.method, url: options.url, headers: { host: instance.host, ...options.headers }, ...(options.payload !== undefined && { payload: options.payload }) }));

  describe('request ids', () => {
    it('every JSON response carries request_id in the body equal to X-Request-Id, unique per response', async () => {
      const caseId = await createCase(instance, 'Request ids');
      const approved = await createCase(instance, 'Approved');
      for (const action of ['start', 'submit', 'approve']) await send({ method: 'POST', url: `/api/v1/cases/${approved}/actions`, body: { action } });
      const session = dataOf(await send({ method: 'POST', url: `/api/v1/cases/${caseId}/upload-sessions`, body: { files: [{ name: 'a.pdf', size: minimalPdf().length }] } }), UploadSession, 201);
      const responses = [
        await send({ method: 'GET', url: '/api/v1/me' }),
        await send({ method: 'POST', url: '/api/v1/cases', body: { name: 'x' } }),
        await send({ method: 'GET', url: `/api/v1/cases/${caseId}` }),
        await send({ method: 'GET', url: '/api/v1/cases' }),
        await send({ method: 'POST', url: '/api/v1/cases', body: {} }),
        await send({ method: 'POST', url: '/api/v1/cases', body: { name: 'no key' }, idempotencyKey: null }),
        await send({ method: 'GET', url: '/api/v1/cases', key: null }),
        await send({ method: 'GET', url: '/api/v1/cases/987654321' }),
        await send({ method: 'POST', url: `/api/v1/cases/${approved}/actions`, body: { action: 'start' } }),
        await send({ method: 'GET', url: '/api/v1/does-not-exist' }),
        await inject({ method: 'POST', url: '/api/v1/cases', headers: { 'content-type': 'text/plain', 'x-api-key': keyOf(instance, 0), 'idempotency-key': 'text-plain' }, payload: 'name=x' }),
        await putUpload(instance, session.files[0]?.upload_url ?? '', minimalPdf()).then(note),
        await putUpload(instance, session.files[0]?.upload_url ?? '', minimalPdf()).then(note),
        await inject({ method: 'GET', url: '/files/downloads/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' }),
        await inject({ method: 'GET', url: '/api/v1/me', headers: { host: 'evil.example' } }),
      ];
      expect(responses.map((response) => response.statusCode)).toEqual([200, 201, 200, 200, 400, 400, 401, 404, 409, 404, 415, 200, 409, 404, 403]);
      const ids = responses.map((response) => {
        const header = response.headers['x-request-id'];
        expect(RequestIdBody.parse(JSON.parse(response.body)).request_id).toBe(header);
        return String(header);
      });
      expect(new Set(ids).size).toBe(ids.length);
      for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    });

    it('responses without a JSON body (204, downloads) still carry X-Request-Id', async () => {
      const caseId = await createCase(instance, 'No body');
      const [document] = await uploadDocuments(instance, caseId, [{ name: 'a.pdf', bytes: minimalPdf() }]);
      const { url } = dataOf(await send({ method: 'GET', url: `/api/v1/documents/${document?.id ?? ''}/download-url` }), DownloadUrl);
      const download = note(await getUrl(instance, url));
      expect(download.statusCode).toBe(200);
      const deleted = await send({ method: 'DELETE', url: `/api/v1/cases/${caseId}` });
      expect(deleted.statusCode).toBe(204);
      for (const response of [download, deleted]) expect(response.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    });

    it('a client-supplied X-Request-Id is not trusted', async () => {
      const response = await send({ method: 'GET', url: '/api/v1/me', headers: { 'x-request-id': 'chosen-by-client' } });
      expect(response.headers['x-request-id']).not.toBe('chosen-by-client');
      expect(RequestIdBody.parse(JSON.parse(response.body)).request_id).toBe(response.headers['x-request-id']);
    });
  });

  describe('unknown routes', () => {
    // Other unknown /api/ paths (/api/v2/…) belong to the application API and answer in its body
    // (test/security/small-findings.test.ts).
    it.each([
      ['GET', '/api/v1/nothing-here'],
      ['POST', '/api/v1/nothing-here'],
      ['PUT', '/api/v1/cases'],
      ['DELETE', '/api/v1/cases'],
      ['GET', '/nothing-here'],
      ['GET', '/files/nothing-here'],
      ['POST', '/files/uploads/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'],
    ] as const)('%s %s → 404 in the envelope', async (method, url) => {
      const withKey = await inject({ method, url, headers: { 'x-api-key': keyOf(instance, 0) } });
      const error = errorOf(withKey, 404, 'resource_not_found');
      expect(error.message).toContain(url);
      errorOf(await inject({ method, url }), 404, 'resource_not_found');
    });
  });

  describe('request bodies', () => {
    it('an oversized JSON body → 413 in the envelope, and nothing is created', async () => {
      const before = await tableCounts(instance);
      const description = 'x'.repeat(BODY_LIMIT);
      const response = await send({ method: 'POST', url: '/api/v1/cases', body: { name: 'big', description } });
      errorOf(response, 413, 'payload_too_large');
      expect(await tableCounts(instance)).toEqual(before);
      const fits = await send({ method: 'POST', url: '/api/v1/cases', body: { name: 'fits', description: 'x'.repeat(BODY_LIMIT - 100) } });
      expect(dataOf(fits, Case, 201).description).toHaveLength(BODY_LIMIT - 100);
    });

    it('an oversized body on PATCH → 413 too', async () => {
      const caseId = await createCase(instance, 'Patch big');
      errorOf(await send({ method: 'PATCH', url: `/api/v1/cases/${caseId}`, body: { description: 'y'.repeat(BODY_LIMIT * 2) } }), 413, 'payload_too_large');
      expect(dataOf(await send({ method: 'GET', url: `/api/v1/cases/${caseId}` }), Case).description).toBe('');
    });

    it.each([
      ['text/plain', 'name=x'],
      ['application/x-www-form-urlencoded', 'name=x'],
      ['application/xml', '<name>x</name>'],
    ])('a %s body → 415 unsupported_media_type, nothing created', async (contentType, payload) => {
      const before = await tableCounts(instance);
      const response = await inject({
        method: 'POST',
        url: '/api/v1/cases',
        headers: { 'content-type': contentType, 'x-api-key': keyOf(instance, 0), 'idempotency-key': `media-${seen.length}` },
        payload,
      });
      errorOf(response, 415, 'unsupported_media_type');
      expect(await tableCounts(instance)).toEqual(before);
    });

    it.each(['{"name":', '{name: "x"}', "{'name':'x'}", '[', 'null x'])('invalid JSON %j → 400 validation_error, nothing created', async (payload) => {
      const before = await tableCounts(instance);
      const response = await inject({
        method: 'POST',
        url: '/api/v1/cases',
        headers: { 'content-type': 'application/json', 'x-api-key': keyOf(instance, 0), 'idempotency-key': `bad-json-${payload.length}-${seen.length}` },
        payload,
      });
      errorOf(response, 400, 'validation_error');
      expect(await tableCounts(instance)).toEqual(before);
    });
  });

  describe('Host and Origin', () => {
    const createWith = (headers: Record<string, string>) =>
      inject({
        method: 'POST',
        url: '/api/v1/cases',
        headers: { 'content-type': 'application/json', 'x-api-key': keyOf(instance, 0), 'idempotency-key': `host-${seen.length}`, ...headers },
        payload: JSON.stringify({ name: 'via foreign host' }),
      });

    it.each(['evil.example', 'evil.example:PORT', '127.0.0.1:OTHER', 'localhost', '127.0.0.1', 'evil.example.127.0.0.1.nip.io:PORT', '0.0.0.0:PORT'])(
      'Host %s → 403 and nothing happens',
      async (template) => {
        const host = template.replace('OTHER', String(port + 1)).replace('PORT', String(port));
        const before = await tableCounts(instance);
        errorOf(await createWith({ host }), 403, 'permission_denied');
        errorOf(await inject({ method: 'GET', url: '/api/v1/cases', headers: { host, 'x-api-key': keyOf(instance, 0) } }), 403, 'permission_denied');
        errorOf(await inject({ method: 'GET', url: '/api/v1/unknown-route', headers: { host } }), 403, 'permission_denied');
        expect(await tableCounts(instance)).toEqual(before);
      },
    );

    it.each(['127.0.0.1:PORT', 'localhost:PORT', 'LOCALHOST:PORT', '[::1]:PORT'])('Host %s (the server itself) is served', async (template) => {
      const host = template.replace('PORT', String(port));
      dataOf(await createWith({ host }), Case, 201);
    });

    it('a foreign Host cannot spend an upload URL', async () => {
      const caseId = await createCase(instance, 'Upload host');
      const bytes = minimalPdf();
      const session = dataOf(await send({ method: 'POST', url: `/api/v1/cases/${caseId}/upload-sessions`, body: { files: [{ name: 'a.pdf', size: bytes.length }] } }), UploadSession, 201);
      const path = new URL(session.files[0]?.upload_url ?? '').pathname;
      const foreign = note(await instance.server.app.inject({ method: 'PUT', url: path, headers: { host: `evil.example:${port}` }, payload: bytes }));
      errorOf(foreign, 403, 'permission_denied');
      expect(note(await putUpload(instance, session.files[0]?.upload_url ?? '', bytes)).statusCode).toBe(200);
    });

    it('over real TCP, a rebinding Host is refused and the own Host is served', async () => {
      const key = keyOf(instance, 0);
      const refused = await tcpRequest({ port, path: '/api/v1/me', headers: { host: `evil.example:${port}`, 'x-api-key': key } });
      expect(refused.status).toBe(403);
      expect(JSON.parse(refused.body)).toMatchObject({ error: { code: 'permission_denied' } });
      const served = await tcpRequest({ port, path: '/api/v1/me', headers: { host: instance.host, 'x-api-key': key } });
      expect(served.status).toBe(200);
      for (const response of [refused, served]) expect(response.headers['access-control-allow-origin']).toBeUndefined();
    });

    it.each(['http://evil.example', 'http://127.0.0.1:OTHER', 'https://127.0.0.1:PORT', 'null', 'http://127.0.0.1:PORT.evil.example', 'file://'])(
      'Origin %s → 403 and nothing happens',
      async (template) => {
        const origin = template.replace('OTHER', String(port + 1)).replace('PORT', String(port));
        const before = await tableCounts(instance);
        errorOf(await createWith({ origin }), 403, 'permission_denied');
        expect(await tableCounts(instance)).toEqual(before);
      },
    );

    it('Sec-Fetch-Site: cross-site without Origin → 403', async () => {
      errorOf(await createWith({ 'sec-fetch-site': 'cross-site' }), 403, 'permission_denied');
    });

    it.each(['http://127.0.0.1:PORT', 'http://localhost:PORT'])('same-origin Origin %s is allowed', async (template) => {
      const origin = template.replace('PORT', String(port));
      dataOf(await createWith({ origin, 'sec-fetch-site': 'same-origin' }), Case, 201);
    });

    it('a CORS preflight gets no CORS headers', async () => {
      const preflight = await inject({
        method: 'OPTIONS',
        url: '/api/v1/cases',
        headers: { origin: 'http://evil.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'x-api-key' },
      });
      expect(preflight.statusCode).toBeGreaterThanOrEqual(400);
      const sameOrigin = await inject({
        method: 'OPTIONS',
        url: '/api/v1/cases',
        headers: { origin: `http://127.0.0.1:${port}`, 'access-control-request-method': 'POST' },
      });
      expect(sameOrigin.statusCode).toBeGreaterThanOrEqual(400);
    });
  });

  describe('OpenAPI document', () => {
    const Operation = z.object({ requestBody: z.unknown().optional(), responses: z.record(z.string(), z.unknown()), parameters: z.array(z.unknown()).optional() }).loose();
    const OpenApi = z.object({
      openapi: z.string(),
      info: z.object({ title: z.string(), version: z.string() }).loose(),
      servers: z.array(z.object({ url: z.string() })),
      paths: z.record(z.string(), z.record(z.string(), Operation)),
      components: z.object({ schemas: z.record(z.string(), z.unknown()), securitySchemes: z.record(z.string(), z.unknown()) }).loose(),
    });
    let doc: z.infer<typeof OpenApi>;

    beforeAll(async () => {
      const response = await send({ method: 'GET', url: '/api/v1/openapi.json' });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toMatch(/^application\/json/);
      doc = OpenApi.parse(JSON.parse(response.body));
    });

    function operation(path: string, method: string) {
      const found = doc.paths[path]?.[method];
      if (!found) throw new Error(`${method.toUpperCase()} ${path} is not in the document`);
      return found;
    }

    it('is OpenAPI 3.1 with the /api/v1 server and the x-api-key scheme', () => {
      expect(doc.openapi).toMatch(/^3\.1\.\d+$/);
      expect(doc.servers).toEqual([{ url: '/api/v1' }]);
      expect(doc.components.securitySchemes).toMatchObject({ apiKey: { type: 'apiKey', in: 'header', name: 'x-api-key' } });
    });

    it('lists the cases, documents and upload-session operations, and no capability URLs', () => {
      const expected = {
        '/cases': ['get', 'post'],
        '/cases/{case_id}': ['delete', 'get', 'patch'],
        '/cases/{case_id}/actions': ['post'],
        '/cases/{case_id}/documents': ['get'],
        '/cases/{case_id}/upload-sessions': ['post'],
        '/upload-sessions/{upload_session_id}/complete': ['post'],
        '/documents/{document_id}': ['delete', 'get', 'patch'],
        '/documents/{document_id}/download-url': ['get'],
      };
      for (const [path, methods] of Object.entries(expected)) expect(Object.keys(doc.paths[path] ?? {}).sort()).toEqual(methods);
      expect(Object.keys(doc.paths).filter((path) => path.startsWith('/files') || path.startsWith('/api/'))).toEqual([]);
    });

    it('carries the schemas: Case, Document, UploadSession, the create body and the page query', () => {
      expect(doc.components.schemas.Case).toMatchObject({
        type: 'object',
        properties: { id: { type: 'string' }, name: { type: 'string' }, status: { enum: expect.arrayContaining(['open', 'in_progress', 'deleted']) } },
      });
      expect(doc.components.schemas.Document).toMatchObject({ properties: { fileName: { type: 'string' }, document_type: { enum: ['pdf', 'png', 'jpeg', 'tiff', 'audio', 'video', 'email', 'office', 'text'] } } });
      expect(JSON.stringify(doc.components.schemas.UploadSession)).toContain('upload_url');
      expect(operation('/cases', 'post').requestBody).toMatchObject({
        content: { 'application/json': { schema: { properties: { name: { type: 'string', minLength: 1 } }, required: ['name'] } } },
      });
      expect(operation('/cases', 'post').responses['201']).toMatchObject({
        content: { 'application/json': { schema: { properties: { data: { $ref: '#/components/schemas/Case' } } } } },
      });
      expect(operation('/cases', 'get').parameters).toEqual(
        expect.arrayContaining([expect.objectContaining({ name: 'limit', in: 'query', schema: expect.objectContaining({ maximum: 100, default: 25 }) })]),
      );
      expect(operation('/cases/{case_id}/actions', 'post').requestBody).toMatchObject({
        content: { 'application/json': { schema: { properties: { action: { enum: ['start', 'submit', 'approve', 'reject', 'cancel'] } } } } },
      });
      expect(JSON.stringify(operation('/cases/{case_id}/upload-sessions', 'post').requestBody)).toContain('"size"');
    });
  });

  describe('listening socket', () => {
    it('binds 127.0.0.1 only; the base URL is reachable over TCP', async () => {
      const address = instance.server.app.server.address();
      expect(address).toMatchObject({ address: '127.0.0.1', family: 'IPv4', port });
      expect(instance.baseUrl).toBe(`http://127.0.0.1:${port}`);
      const response = await fetch(`${instance.baseUrl}/api/v1/me`, { headers: { 'x-api-key': keyOf(instance, 0) } });
      expect(response.status).toBe(200);
      expect(response.headers.get('access-control-allow-origin')).toBeNull();
      expect(await canConnect('127.0.0.1', port)).toBe(true);
    });

    it('does not accept connections on other addresses', async () => {
      const others = Object.values(os.networkInterfaces())
        .flatMap((entries) => entries ?? [])
        .filter((entry) => !entry.internal)
        .map((entry) => entry.address);
      if (process.platform === 'linux') others.push('127.0.0.2');
      others.push('::1');
      for (const address of others) expect(await canConnect(address, port), address).toBe(false);
    });

    it('the default configuration binds loopback', () => {
      expect(loadConfig(tempDir()).host).toBe('127.0.0.1');
    });
  });

  describe('CORS', () => {
    it('no response of this file ever carried Access-Control-Allow-Origin or other CORS grants', () => {
      expect(seen.length).toBeGreaterThan(40);
      for (const response of seen) {
        expect(response.headers['access-control-allow-origin']).toBeUndefined();
        expect(response.headers['access-control-allow-credentials']).toBeUndefined();
        expect(response.headers['access-control-allow-methods']).toBeUndefined();
      }
    });
  });
});
