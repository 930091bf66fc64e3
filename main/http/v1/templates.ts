import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { IdParam, PageQuery, list, single } from '../../common/schemas/shared.js';
import { CreateTemplateBody, RedactionTemplate, UpdateTemplateBody } from '../../common/schemas/templates.js';
import { createTemplate, getTemplate, listTemplates, removeTemplate, updateTemplateFields } from '../../services/templates.js';
import { commit, commitNoContent, paged, read } from './respond.js';

const TemplateParams = z.object({ template_id: IdParam });
const tags = ['reference'];

// Reading is templates:read (the spec's table). Writing is organization policy: roles:write (see docs/api.md).
export const templateRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/templates', { config: { scopes: ['templates:read'] }, schema: { tags, querystring: PageQuery, response: { 200: list(RedactionTemplate) } } }, (request) =>
    paged(request, 'templates', request.query, listTemplates),
  );

  app.post(
    '/templates',
    { config: { scopes: ['roles:write'] }, schema: { tags, body: CreateTemplateBody, response: { 201: single(RedactionTemplate) } } },
    (request, reply) => commit(request, reply, 201, (trx, ctx) => createTemplate(trx, ctx, request.body)),
  );

  app.get(
    '/templates/:template_id',
    { config: { scopes: ['templates:read'] }, schema: { tags, params: TemplateParams, response: { 200: single(RedactionTemplate) } } },
    (request) => read(request, (db, ctx) => getTemplate(db, ctx, request.params.template_id)),
  );

  app.patch(
    '/templates/:template_id',
    { config: { scopes: ['roles:write'] }, schema: { tags, params: TemplateParams, body: UpdateTemplateBody, response: { 200: single(RedactionTemplate) } } },
    (request, reply) => commit(request, reply, 200, (trx, ctx) => updateTemplateFields(trx, ctx, request.params.template_id, request.body)),
  );

  app.delete(
    '/templates/:template_id',
    { config: { scopes: ['roles:write'] }, schema: { tags, params: TemplateParams, response: { 204: z.null().describe('Deleted') } } },
    (request, reply) => commitNoContent(request, reply, (trx, ctx) => removeTemplate(trx, ctx, request.params.template_id)),
  );
};
