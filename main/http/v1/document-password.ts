import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { Document } from '../../common/schemas/documents.js';
import { IdParam, single } from '../../common/schemas/shared.js';
import { decryptWithPassword, recordDecrypted } from '../../services/pdf-password/index.js';
import { commit, serviceContext } from './respond.js';

const PasswordBody = z.object({ password: z.string().max(1024).describe('Never stored or logged') }).strict().meta({ id: 'DocumentPasswordBody' });

/** Password-protected PDFs (issue 18): the password decrypts the document into a working copy. */
export const documentPasswordRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/documents/:document_id/password',
    {
      config: { scopes: ['documents:write'] },
      schema: { tags: ['documents'], params: z.object({ document_id: IdParam }), body: PasswordBody, response: { 200: single(Document) } },
    },
    async (request, reply) => {
      // Decryption runs on the worker pool before the transaction that records it.
      const decrypted = await decryptWithPassword(request.server.obscura.runtime, serviceContext(request), request.params.document_id, request.body.password);
      return commit(request, reply, 200, (trx, ctx) => recordDecrypted(trx, ctx, decrypted));
    },
  );
};
