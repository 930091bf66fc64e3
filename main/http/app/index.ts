import fastifyCookie from '@fastify/cookie';
import type { FastifyPluginAsync } from 'fastify';
import { appAiSummaryRoutes } from './ai-summary.js';
import { authRoutes } from './auth.js';
import { appErrorHandler } from './errors.js';
import { invitationRoutes } from './invitations.js';
import { appOcrRoutes } from './ocr.js';
import { appPreviewRoutes } from './preview.js';
import { appRedactionRoutes } from './redactions.js';
import { requireSession } from './session.js';

/** The application API used by the renderer: /api/auth, /api/redactions (and later /ocr, /ai-summary). */
export const applicationApi: FastifyPluginAsync = async (app) => {
  await app.register(fastifyCookie);
  app.decorateRequest('sessionUser', null);
  app.setErrorHandler(appErrorHandler);
  app.addHook('onRequest', requireSession);
  await app.register(authRoutes);
  await app.register(invitationRoutes);
  await app.register(appRedactionRoutes);
  await app.register(appAiSummaryRoutes);
  await app.register(appOcrRoutes);
  await app.register(appPreviewRoutes);
};
