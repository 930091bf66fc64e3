import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { CompleteUploadSessionBody, CreateUploadSessionBody, UploadSession } from '../../common/schemas/documents.js';
import { IdParam, single } from '../../common/schemas/shared.js';
import { completeUploadSession, createUploadSession } from '../../services/uploads.js';
import { lockedUploads } from '../../services/pdf-password/index.js';
import { commit, serviceContext } from './respond.js';

export const uploadSessionRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/cases/:case_id/upload-sessions',
    {
      config: { scopes: ['documents:write'] },
      schema: { tags: ['documents'], params: z.object({ case_id: IdParam }), body: CreateUploadSessionBody, response: { 201: single(UploadSession) } },
    },
    (request, reply) => {
      const { baseUrl, runtime } = request.server.obscura;
      const settings = { baseUrl, ...runtime.config.uploads };
      return commit(request, reply, 201, (trx, ctx) => createUploadSession(trx, ctx, request.params.case_id, request.body, settings));
    },
  );

  app.post(
    '/upload-sessions/:upload_session_id/complete',
    {
      config: { scopes: ['documents:write'] },
      schema: {
        tags: ['documents'],
        params: z.object({ upload_session_id: IdParam }),
        body: CompleteUploadSessionBody,
        response: { 200: single(UploadSession) },
      },
    },
    async (request, reply) => {
      // Password-protected PDFs are found on the worker pool before the completion transaction.
      const locked = await lockedUploads(request.server.obscura.runtime, serviceContext(request).actor.organizationId, request.params.upload_session_id);
      return commit(request, reply, 200, (trx, ctx) => completeUploadSession(trx, ctx, request.params.upload_session_id, locked));
    },
  );
};
