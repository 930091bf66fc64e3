import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  CreateRedactionsBody,
  PatchRedactionBody,
  Redaction,
  RedactionType,
  ReviewDecision,
  ReviewDecisionsBody,
} from '../../common/schemas/redactions.js';
import { IdParam, PageQuery, list, single } from '../../common/schemas/shared.js';
import {
  createRedactions,
  deleteRedaction,
  getRedaction,
  listRedactionPage,
  patchRedaction,
  recordReviewDecisions,
  redactionTypes,
} from '../../services/redactions/integration.js';
import { commit, commitNoContent, paged, read } from './respond.js';

const DocumentParams = z.object({ document_id: IdParam });
const RedactionParams = z.object({ redaction_id: IdParam });

export const redactionRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/documents/:document_id/redactions',
    { config: { scopes: ['redactions:read'] }, schema: { tags: ['redactions'], params: DocumentParams, querystring: PageQuery, response: { 200: list(Redaction) } } },
    (request) => paged(request, `redactions:${request.params.document_id}`, request.query, (db, ctx, page) => listRedactionPage(db, ctx, request.params.document_id, page)),
  );

  app.post(
    '/documents/:document_id/redactions',
    {
      config: { scopes: ['redactions:write'] },
      schema: { tags: ['redactions'], params: DocumentParams, body: CreateRedactionsBody, response: { 201: single(z.object({ redactions: z.array(Redaction) })) } },
    },
    (request, reply) =>
      commit(request, reply, 201, async (trx, ctx) => ({ redactions: await createRedactions(trx, ctx, request.params.document_id, request.body.redactions) })),
  );

  app.get(
    '/redactions/:redaction_id',
    { config: { scopes: ['redactions:read'] }, schema: { tags: ['redactions'], params: RedactionParams, response: { 200: single(Redaction) } } },
    (request) => read(request, (db, ctx) => getRedaction(db, ctx, request.params.redaction_id)),
  );

  app.patch(
    '/redactions/:redaction_id',
    { config: { scopes: ['redactions:write'] }, schema: { tags: ['redactions'], params: RedactionParams, body: PatchRedactionBody, response: { 200: single(Redaction) } } },
    (request, reply) => commit(request, reply, 200, (trx, ctx) => patchRedaction(trx, ctx, request.params.redaction_id, request.body)),
  );

  app.delete(
    '/redactions/:redaction_id',
    { config: { scopes: ['redactions:write'] }, schema: { tags: ['redactions'], params: RedactionParams, response: { 204: z.null() } } },
    (request, reply) => commitNoContent(request, reply, (trx, ctx) => deleteRedaction(trx, ctx, request.params.redaction_id)),
  );

  app.post(
    '/documents/:document_id/review-decisions',
    {
      config: { scopes: ['redactions:write'] },
      schema: { tags: ['redactions'], params: DocumentParams, body: ReviewDecisionsBody, response: { 201: single(z.object({ decisions: z.array(ReviewDecision) })) } },
    },
    (request, reply) =>
      commit(request, reply, 201, async (trx, ctx) => ({ decisions: await recordReviewDecisions(trx, ctx, request.params.document_id, request.body.decisions) })),
  );

  app.get('/redaction-types', { config: { scopes: ['templates:read'] }, schema: { tags: ['reference'], response: { 200: list(RedactionType) } } }, async (request) => ({
    data: redactionTypes(),
    cursor: null,
    request_id: request.id,
  }));
};
