import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { Case, CaseActionBody, CreateCaseBody, UpdateCaseBody } from '../../common/schemas/cases.js';
import { IdParam, PageQuery, list, single } from '../../common/schemas/shared.js';
import { applyCaseAction, createCase, deleteCase, getCase, listCasePage, updateCaseFields } from '../../services/cases.js';
import { commit, commitNoContent, paged, read } from './respond.js';

const CaseParams = z.object({ case_id: IdParam });

export const caseRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/cases', { config: { scopes: ['cases:read'] }, schema: { tags: ['cases'], querystring: PageQuery, response: { 200: list(Case) } } }, (request) =>
    paged(request, 'cases', request.query, listCasePage),
  );

  app.post(
    '/cases',
    { config: { scopes: ['cases:write'] }, schema: { tags: ['cases'], body: CreateCaseBody, response: { 201: single(Case) } } },
    (request, reply) => commit(request, reply, 201, (trx, ctx) => createCase(trx, ctx, request.body)),
  );

  app.get(
    '/cases/:case_id',
    { config: { scopes: ['cases:read'] }, schema: { tags: ['cases'], params: CaseParams, response: { 200: single(Case) } } },
    (request) => read(request, (db, ctx) => getCase(db, ctx, request.params.case_id)),
  );

  app.patch(
    '/cases/:case_id',
    { config: { scopes: ['cases:write'] }, schema: { tags: ['cases'], params: CaseParams, body: UpdateCaseBody, response: { 200: single(Case) } } },
    (request, reply) => commit(request, reply, 200, (trx, ctx) => updateCaseFields(trx, ctx, request.params.case_id, request.body)),
  );

  app.delete(
    '/cases/:case_id',
    { config: { scopes: ['cases:write'] }, schema: { tags: ['cases'], params: CaseParams, response: { 204: z.null().describe('Soft-deleted') } } },
    (request, reply) => commitNoContent(request, reply, (trx, ctx) => deleteCase(trx, ctx, request.params.case_id)),
  );

  app.post(
    '/cases/:case_id/actions',
    { config: { scopes: ['cases:write'] }, schema: { tags: ['cases'], params: CaseParams, body: CaseActionBody, response: { 200: single(Case) } } },
    (request, reply) => commit(request, reply, 200, (trx, ctx) => applyCaseAction(trx, ctx, request.params.case_id, request.body.action)),
  );
};
