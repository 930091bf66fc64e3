import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { IdParam } from '../../common/schemas/shared.js';
import { previewPage } from '../../services/page-preview/index.js';
import { userContext } from './session.js';

const PreviewParams = z.object({ document_id: IdParam, page: IdParam });

/** "Preview as released" (issue 18): one page as a release export would show it now, a one-page PDF. */
export const appPreviewRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/api/documents/:document_id/pages/:page/preview', { schema: { params: PreviewParams } }, async (request, reply) => {
    const bytes = await previewPage(request.server.obscura.runtime, userContext(request), request.params.document_id, request.params.page);
    return reply.type('application/pdf').header('cache-control', 'no-store').send(bytes);
  });
};
