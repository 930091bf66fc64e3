import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import fastifySwagger from '@fastify/swagger';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { jsonSchemaTransform, jsonSchemaTransformObject, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Runtime } from '../runtime.js';
import { FailureThrottle } from '../services/login-throttle.js';
import { applicationApi } from './app/index.js';
import { fileRoutes } from './files/index.js';
import { envelopeErrorHandler, MAX_PARAM_LENGTH, notFoundHandler, sendProblem, toProblem } from './shared/errors.js';
import { guardBodylessRoute, jsonDepthExceeded, SECURITY_HEADERS, tooDeepError } from './shared/hardening.js';
import { allowedHostsFor, guardHostAndOrigin } from './shared/security.js';
import { zodToFastJsonSerializer } from './shared/serializer.js';
import { validatorCompilerWithIdFastPath } from './shared/validation.js';
import type { HttpContext } from './types.js';
import { integrationApi } from './v1/index.js';
import './types.js';

const errorResponse = (description: string) => ({ description, $ref: '#/components/schemas/Error' });
const ERROR_RESPONSES = {
  400: errorResponse('validation_error'),
  401: errorResponse('authentication_failed'),
  403: errorResponse('permission_denied'),
  404: errorResponse('resource_not_found'),
  409: errorResponse('conflict, invalid_transition or idempotency_key_reused'),
  429: errorResponse('rate_limited (see Retry-After)'),
  500: errorResponse('internal_error'),
};

/** How long shutdown lets requests in flight finish before their connections are cut. */
const SHUTDOWN_GRACE_MS = 5_000;

export interface ObscuraServer {
  app: FastifyInstance;
  /** Starts listening; resolves to the base URL, e.g. http://127.0.0.1:4791. */
  listen(host: string, port: number): Promise<string>;
  close(): Promise<void>;
}

export interface ServerOptions {
  logger?: FastifyServerOptions['logger'];
}

/** The renderer build, next to the compiled main (dist/renderer) or beside the sources in development. */
function rendererDir(): string | null {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const candidates = [path.resolve(here, '../../renderer'), path.resolve(here, '../../dist/renderer')];
  return candidates.find((dir) => fs.existsSync(path.join(dir, 'index.html'))) ?? null;
}

export async function createHttpServer(runtime: Runtime, options: ServerOptions = {}): Promise<ObscuraServer> {
  const app = Fastify({
    logger: options.logger ?? false,
    genReqId: () => randomUUID(),
    requestIdHeader: false,
    bodyLimit: runtime.config.bodyLimitBytes,
    return503OnClosing: true,
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    // Router-level refusals (a parameter over maxParamLength → 414, bad percent-encoding → 400) in the envelope.
    // They skip the onSend hooks, so the response headers are set here as well.
    frameworkErrors: (error, request, reply) => {
      reply.header('x-request-id', request.id).header('cache-control', 'no-store');
      for (const [name, value] of SECURITY_HEADERS) reply.header(name, value);
      return sendProblem(request, reply, toProblem(error));
    },
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompilerWithIdFastPath);
  app.setSerializerCompiler(zodToFastJsonSerializer);

  const throttle = runtime.config.loginThrottle;
  const throttles = throttle.enabled
    ? {
        account: new FailureThrottle(throttle.perAccount, 'account', runtime.db, 'account'),
        address: new FailureThrottle(throttle.perAddress, 'client address', runtime.db, 'address'),
        apiKeyAddress: new FailureThrottle(throttle.apiKeyPerAddress, 'client address', runtime.db, 'api-key-address'),
        apiKeyPrefix: new FailureThrottle(throttle.apiKeyPerPrefix, 'key id', runtime.db, 'api-key-prefix'),
      }
    : null;
  const context: HttpContext = { runtime, baseUrl: '', originPolicy: { allowedHosts: new Set() }, throttles, routes: [] };
  app.decorate('obscura', context);

  // An empty body on a JSON request means "no body" (e.g. POST …/complete), not a parse error.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text === '') return done(null, undefined);
    if (jsonDepthExceeded(text)) return done(tooDeepError(), undefined);
    return parseJson(request, text, done);
  });
  // Bodies are JSON only: Fastify's built-in text/plain parser would let a string reach the handlers'
  // validation (400) instead of the documented 415 for another content type.
  app.removeContentTypeParser('text/plain');

  app.addHook('onRequest', guardHostAndOrigin(context.originPolicy));
  app.addHook('onRoute', guardBodylessRoute);
  app.addHook('onRoute', (route) => {
    for (const method of Array.isArray(route.method) ? route.method : [route.method]) {
      context.routes.push({ method, url: route.url, schema: route.schema as HttpContext['routes'][number]['schema'] });
    }
  });
  // Once closing, answers to requests still in flight end their connection, so a client's idle keep-alive
  // socket cannot hold shutdown open until it times out.
  let closing = false;
  // Callback style (not async): this runs on every response, and a promise per hook is measurable.
  // Names are given in lower case, as Fastify stores and sends them, so it need not lower-case a copy each time.
  app.addHook('onSend', (request, reply, payload, done) => {
    if (closing) reply.header('connection', 'close');
    reply.header('x-request-id', request.id);
    for (const [name, value] of SECURITY_HEADERS) reply.header(name, value);
    if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
    done(null, payload);
  });
  app.setErrorHandler(envelopeErrorHandler);
  app.setNotFoundHandler(notFoundHandler);

  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Obscura integration API', version: '1.0.0', description: 'Key-authenticated API for cases, documents, redactions and exports.' },
      servers: [{ url: '/api/v1' }],
      components: { securitySchemes: { apiKey: { type: 'apiKey', in: 'header', name: 'x-api-key' } } },
      security: [{ apiKey: [] }],
    },
    transform: (document) => {
      // Only the integration API is published; paths are given relative to its /api/v1 server entry.
      if (!document.url.startsWith('/api/v1/')) return { schema: { ...document.schema, hide: true }, url: document.url };
      const transformed = jsonSchemaTransform(document);
      const schema = transformed.schema as { response?: Record<string, unknown> };
      // Every operation can fail with the shared envelope; list the statuses clients must handle.
      schema.response = { ...ERROR_RESPONSES, ...schema.response };
      return { ...transformed, url: transformed.url.slice('/api/v1'.length) };
    },
    transformObject: jsonSchemaTransformObject,
  });

  await app.register(integrationApi, { prefix: '/api/v1' });
  await app.register(fileRoutes, { prefix: '/files' });
  await app.register(applicationApi);

  const uiDir = rendererDir();
  if (uiDir) {
    // wildcard: false routes each built file by name, so an unknown GET under /api/v1 or /files reaches that
    // surface's own not-found handler and hooks (rate limits) instead of a catch-all static route.
    await app.register(fastifyStatic, { root: uiDir, prefix: '/', index: ['index.html'], cacheControl: false, wildcard: false });
  }

  return {
    app,
    async listen(host, port) {
      await app.listen({ host, port });
      const address = app.server.address();
      const actualPort = typeof address === 'object' && address ? address.port : port;
      context.originPolicy.allowedHosts = allowedHostsFor(host, actualPort);
      context.baseUrl = `http://${host.includes(':') ? `[${host}]` : host}:${actualPort}`;
      return context.baseUrl;
    },
    close: async () => {
      closing = true;
      // A client that never finishes its request or never reads its answer keeps its connection busy, and
      // Fastify waits for busy connections: after a grace period they are cut, so shutdown always ends.
      const cutStalled = setTimeout(() => app.server.closeAllConnections(), SHUTDOWN_GRACE_MS);
      cutStalled.unref();
      try {
        await app.close();
      } finally {
        clearTimeout(cutStalled);
      }
    },
  };
}
