import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { CreateExemptionBody, Exemption, ExemptionListQuery, UpdateExemptionBody } from '../../common/schemas/exemptions.js';
import { IdParam, list, single } from '../../common/schemas/shared.js';
import { createExemption, getExemption, listExemptions, removeExemption, updateExemptionFields } from '../../services/exemptions.js';
import { commit, commitNoContent, paged, read } from './respond.js';

const ExemptionParams = z.object({ exemption_id: IdParam });
const tags = ['reference'];

// Reading is templates:read (the spec's table). Writing is organization policy: roles:write (see docs/api.md).
export const exemptionRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/exemptions',
    { config: { scopes: ['templates:read'] }, schema: { tags, querystring: ExemptionListQuery, response: { 200: list(Exemption) } } },
    (request) => paged(request, 'exemptions', request.query, (db, ctx, page) => listExemptions(db, ctx, page, { layer: request.query.layer })),
  );

  app.post('/exemptions', { config: { scopes: ['roles:write'] }, schema: { tags, body: CreateExemptionBody, response: { 201: single(Exemption) } } }, (request, reply) =>
    commit(request, reply, 201, (trx, ctx) => createExemption(trx, ctx, request.body)),
  );

  app.get(
    '/exemptions/:exemption_id',
    { config: { scopes: ['templates:read'] }, schema: { tags, params: ExemptionParams, response: { 200: single(Exemption) } } },
    (request) => read(request, (db, ctx) => getExemption(db, ctx, request.params.exemption_id)),
  );

  app.patch(
    '/exemptions/:exemption_id',
    { config: { scopes: ['roles:write'] }, schema: { tags, params: ExemptionParams, body: UpdateExemptionBody, response: { 200: single(Exemption) } } },
    (request, reply) => commit(request, reply, 200, (trx, ctx) => updateExemptionFields(trx, ctx, request.params.exemption_id, request.body)),
  );

  app.delete(
    '/exemptions/:exemption_id',
    { config: { scopes: ['roles:write'] }, schema: { tags, params: ExemptionParams, response: { 204: z.null().describe('Deleted') } } },
    (request, reply) => commitNoContent(request, reply, (trx, ctx) => removeExemption(trx, ctx, request.params.exemption_id)),
  );
};
