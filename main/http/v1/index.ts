import type { FastifyPluginAsync } from 'fastify';
import { envelopeErrorHandler, notFoundHandler } from '../shared/errors.js';
import { apiKeyRoutes } from './api-keys.js';
import { auditRoutes } from './audit.js';
import { authenticateAndAuthorize } from './authentication.js';
import { caseRoutes } from './cases.js';
import { commentRoutes } from './comments.js';
import { documentRoutes } from './documents.js';
import { documentPasswordRoutes } from './document-password.js';
import { processingRoutes } from './processing.js';
import { exemptionRoutes } from './exemptions.js';
import { exportRoutes } from './exports.js';
import { claimOrReplay, needsIdempotencyKey, requireIdempotencyKey, settleIdempotency } from './idempotency.js';
import { jobRoutes } from './jobs.js';
import { meRoutes } from './me.js';
import { openApiRoutes } from './openapi.js';
import { RateLimits } from './rate-limit.js';
import { redactionRoutes } from './redactions.js';
import { releaseRoutes } from './releases.js';
import { reviewQueueRoutes } from './review-queue.js';
import { roleRoutes } from './roles.js';
import { searchRoutes } from './search.js';
import { intakeRoutes } from './intake.js';
import { serviceAccountRoutes } from './service-accounts.js';
import { templateRoutes } from './templates.js';
import { uploadSessionRoutes } from './upload-sessions.js';
import { userRoutes } from './users.js';
import { watchedFolderRoutes } from './watched-folders.js';
import { webhookDeliveryRoutes } from './webhook-deliveries.js';
import { webhookRoutes } from './webhooks.js';

/** The key-authenticated integration API under /api/v1. */
export const integrationApi: FastifyPluginAsync = async (app) => {
  const { config, db, clock } = app.obscura.runtime;
  const limits = new RateLimits(config.rateLimits, db, clock);
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
  await app.register(documentPasswordRoutes);
  await app.register(processingRoutes);
  await app.register(uploadSessionRoutes);
  await app.register(redactionRoutes);
  await app.register(commentRoutes);
  await app.register(jobRoutes);
  await app.register(exportRoutes);
  await app.register(releaseRoutes);
  await app.register(webhookRoutes);
  await app.register(webhookDeliveryRoutes);
  await app.register(userRoutes);
  await app.register(roleRoutes);
  await app.register(serviceAccountRoutes);
  await app.register(apiKeyRoutes);
  await app.register(exemptionRoutes);
  await app.register(templateRoutes);
  await app.register(watchedFolderRoutes);
  await app.register(searchRoutes);
  await app.register(auditRoutes);
  await app.register(reviewQueueRoutes);
  await app.register(intakeRoutes);
};

function asArray<T>(value: T | T[] | undefined): T[] {
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}
