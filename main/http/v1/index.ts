import type { FastifyPluginAsync } from 'fastify';
import { envelopeErrorHandler, notFoundHandler } from '../shared/errors.js';
import { authenticateAndAuthorize } from './authentication.js';
import { caseRoutes } from './cases.js';
import { commentRoutes } from './comments.js';
import { documentRoutes } from './documents.js';
import { claimOrReplay, requireIdempotencyKey, settleIdempotency } from './idempotency.js';
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
  });
  app.addHook('onRequest', authenticateAndAuthorize(limits));
  app.addHook('preValidation', requireIdempotencyKey);
  app.addHook('preHandler', claimOrReplay);
  app.addHook('onSend', settleIdempotency);

  await app.register(openApiRoutes);
  await app.register(meRoutes);
  await app.register(caseRoutes);
  await app.register(documentRoutes);
  await app.register(uploadSessionRoutes);
  await app.register(redactionRoutes);
  await app.register(commentRoutes);
};
