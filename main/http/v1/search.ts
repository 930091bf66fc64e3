import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { SearchBody, SearchPageQuery, SearchRedactBody, SearchRedactResult, SearchResult } from '../../common/schemas/search.js';
import { IdParam, single } from '../../common/schemas/shared.js';
import { applySearchRedactions, planSearchRedactions, searchCase } from '../../services/search/index.js';
import { commit, serviceContext } from './respond.js';

const CaseParams = z.object({ case_id: IdParam });

export const searchRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/cases/:case_id/search',
    {
      config: { scopes: ['documents:read'] },
      schema: {
        tags: ['search'],
        params: CaseParams,
        querystring: SearchPageQuery,
        body: SearchBody,
        response: { 200: z.object({ data: SearchResult, cursor: z.string().nullable(), request_id: z.string() }) },
      },
    },
    async (request) => {
      const { hits, total, cursor } = await searchCase(request.server.obscura.runtime.db, serviceContext(request), request.params.case_id, request.body, request.query);
      return { data: { hits, total }, cursor, request_id: request.id };
    },
  );

  app.post(
    '/cases/:case_id/search/redactions',
    {
      config: { scopes: ['redactions:write'] },
      schema: { tags: ['search'], params: CaseParams, body: SearchRedactBody, response: { 201: single(SearchRedactResult) } },
    },
    // Matching and reading first, outside the write transaction (which then holds only the inserts).
    async (request, reply) => {
      const plan = await planSearchRedactions(request.server.obscura.runtime.db, serviceContext(request), request.params.case_id, request.body);
      return commit(request, reply, 201, (trx, ctx) => applySearchRedactions(trx, ctx, request.params.case_id, request.body, plan));
    },
  );
};
