import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { Comment, CreateCommentBody } from '../../common/schemas/redactions.js';
import { IdParam, PageQuery, list, single } from '../../common/schemas/shared.js';
import { createComment, getComment, listCommentPage } from '../../services/comments.js';
import { commit, paged, read } from './respond.js';

const DocumentParams = z.object({ document_id: IdParam });

export const commentRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/documents/:document_id/comments',
    { config: { scopes: ['comments:read'] }, schema: { tags: ['comments'], params: DocumentParams, querystring: PageQuery, response: { 200: list(Comment) } } },
    (request) => paged(request, `comments:${request.params.document_id}`, request.query, (db, ctx, page) => listCommentPage(db, ctx, request.params.document_id, page)),
  );

  app.post(
    '/documents/:document_id/comments',
    { config: { scopes: ['comments:write'] }, schema: { tags: ['comments'], params: DocumentParams, body: CreateCommentBody, response: { 201: single(Comment) } } },
    (request, reply) => commit(request, reply, 201, (trx, ctx) => createComment(trx, ctx, request.params.document_id, request.body.text)),
  );

  app.get(
    '/comments/:comment_id',
    { config: { scopes: ['comments:read'] }, schema: { tags: ['comments'], params: z.object({ comment_id: IdParam }), response: { 200: single(Comment) } } },
    (request) => read(request, (db, ctx) => getComment(db, ctx, request.params.comment_id)),
  );
};
