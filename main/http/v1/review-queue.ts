import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { QueueQuery, QueueResult, ValueDecisionBody, ValueDecisionResult } from '../../common/schemas/review-queue.js';
import { IdParam, single } from '../../common/schemas/shared.js';
import { decideValueInCase, listCaseSuggestions } from '../../services/review-queue/index.js';
import { commit, read } from './respond.js';

const CaseParams = z.object({ case_id: IdParam });

export const reviewQueueRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/cases/:case_id/suggestions',
    { config: { scopes: ['redactions:read'] }, schema: { tags: ['redactions'], params: CaseParams, querystring: QueueQuery, response: { 200: single(QueueResult) } } },
    (request) => read(request, (db, ctx) => listCaseSuggestions(db, ctx, request.params.case_id, request.query)),
  );

  app.post(
    '/cases/:case_id/suggestions/decisions',
    { config: { scopes: ['redactions:write'] }, schema: { tags: ['redactions'], params: CaseParams, body: ValueDecisionBody, response: { 201: single(ValueDecisionResult) } } },
    (request, reply) => commit(request, reply, 201, (trx, ctx) => decideValueInCase(trx, ctx, request.params.case_id, request.body)),
  );
};
