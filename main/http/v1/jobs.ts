import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { JOB_OPTIONS, Job, type StartableJobKind } from '../../common/schemas/jobs.js';
import { IdParam, PageQuery, list, single } from '../../common/schemas/shared.js';
import { enqueueJob, getJob, listJobPage } from '../../services/jobs.js';
import { commit, paged, read } from './respond.js';

const DocumentParams = z.object({ document_id: IdParam });

// One start route per kind with options (JOB_OPTIONS); the body is the kind's options, or nothing for defaults.
export const jobRoutes: FastifyPluginAsyncZod = async (app) => {
  for (const kind of Object.keys(JOB_OPTIONS) as StartableJobKind[]) {
    app.post(
      `/documents/:document_id/${kind}-jobs`,
      {
        config: { scopes: ['processing:write'] },
        schema: { tags: ['jobs'], params: DocumentParams, body: JOB_OPTIONS[kind].nullish(), response: { 202: single(Job) } },
      },
      (request, reply) => commit(request, reply, 202, (trx, ctx) => enqueueJob(trx, ctx, request.params.document_id, kind, request.body)),
    );
  }

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
