import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { Job, StartScanJobBody } from '../../common/schemas/jobs.js';
import { IdParam, PageQuery, list, single } from '../../common/schemas/shared.js';
import { enqueueJob, getJob, listJobPage } from '../../services/jobs.js';
import { commit, paged, read } from './respond.js';

const DocumentParams = z.object({ document_id: IdParam });

// Only the kinds that run are routed; OCR, detection, transcription and summary join as they are built.
export const jobRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/documents/:document_id/scan-jobs',
    { config: { scopes: ['processing:write'] }, schema: { tags: ['jobs'], params: DocumentParams, body: StartScanJobBody, response: { 202: single(Job) } } },
    (request, reply) => commit(request, reply, 202, (trx, ctx) => enqueueJob(trx, ctx, request.params.document_id, 'scan', request.body)),
  );

  app.get(
    '/jobs/:job_id',
    { config: { scopes: ['processing:read'] }, schema: { tags: ['jobs'], params: z.object({ job_id: IdParam }), response: { 200: single(Job) } } },
    (request) => read(request, (db, ctx) => getJob(db, ctx, request.params.job_id)),
  );

  app.get(
    '/documents/:document_id/jobs',
    { config: { scopes: ['processing:read'] }, schema: { tags: ['jobs'], params: DocumentParams, querystring: PageQuery, response: { 200: list(Job) } } },
    (request) => paged(request, `jobs:${request.params.document_id}`, request.query, (db, ctx, page) => listJobPage(db, ctx, request.params.document_id, page)),
  );
};
