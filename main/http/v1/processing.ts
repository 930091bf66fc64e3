import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { CaseProcessing, ProcessingSettings } from '../../common/schemas/auto-processing.js';
import { IdParam, single } from '../../common/schemas/shared.js';
import { caseProcessing, processingSettings, updateProcessingSettings } from '../../services/auto-processing/index.js';
import { commit, read } from './respond.js';

const tags = ['processing'];

/** Automatic processing (issue 18): the organization's setting and a case's progress. */
export const processingRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/processing-settings', { config: { scopes: ['processing:read'] }, schema: { tags, response: { 200: single(ProcessingSettings) } } }, (request) =>
    read(request, (db, ctx) => processingSettings(db, ctx.actor.organizationId)),
  );

  app.patch(
    '/processing-settings',
    { config: { scopes: ['roles:write'] }, schema: { tags, body: ProcessingSettings, response: { 200: single(ProcessingSettings) } } },
    (request, reply) => commit(request, reply, 200, (trx, ctx) => updateProcessingSettings(trx, ctx, request.body)),
  );

  app.get(
    '/cases/:case_id/processing',
    { config: { scopes: ['processing:read'] }, schema: { tags, params: z.object({ case_id: IdParam }), response: { 200: single(CaseProcessing) } } },
    (request) => read(request, (db, ctx) => caseProcessing(db, ctx, request.params.case_id)),
  );
};
