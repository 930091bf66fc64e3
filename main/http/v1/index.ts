import type { FastifyPluginAsync } from 'fastify';
import { envelopeErrorHandler, notFoundHandler } from '../shared/errors.js';
import { authenticateAndAuthorize } from './authentication.js';
import { caseRoutes } from './cases.js';
import { commentRoutes } from './comments.js';
import { documentRoutes } from './documents.js';
import { claimOrReplay, needsIdempotencyKey, requireIdempotencyKey, settleIdempotency } from './idempotency.js';
import { jobRoutes } from './jobs.js';
import { meRoutes } from './me.js';
import { openApiRoutes } from './openapi.js';
import { RateLimits } from './rate-limit.js';
import { redactionRoutes } from './redactions.js';
import { uploadSessionRoutes } from './upload-sessions.js';

/** The key-authenticated integration API under /api/v1. */
export const integrationApi: FastifyPluginAsync = async (app) => {
  const limits = new RateLimits(app.obscura.runtime.config.rateLimits);
  app.decorateRequest('principal', null);
  app.decorateRequest('idempotency', null);
  app.setErrorHandler(envelopeErrorHandler);
  app.setNotFoundHandler(notFoundHandler);
  app.addHook('onRoute', (route) => {
    // Fail at start-up, not in production, if a route forgets to declare its scopes.
    if (route.config?.scopes === undefined) throw new Error(`${route.method} ${route.url} must declare config.scopes`);
    // Idempotency hooks only on the methods that need them, so reads pay nothing for them.
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (methods.some(needsIdempotencyKey)) {
      route.preValidation = [...asArray(route.preValidation), requireIdempotencyKey];
      route.preHandler = [...asArray(route.preHandler), claimOrReplay];
      route.onSend = [...asArray(route.onSend), settleIdempotency];
    }
  });
  app.addHook('onRequest', authenticateAndAuthorize(limits));

  await app.register(openApiRoutes);
  await app.register(meRoutes);
  await app.register(caseRoutes);
  await app.register(documentRoutes);
  await app.register(uploadSessionRoutes);
  await app.register(redactionRoutes);
  await app.register(commentRoutes);
  await app.register(jobRoutes);
};

function asArray<T>(value: T | T[] | undefined): T[] {
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}
