import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { Document, DownloadUrl, UpdateDocumentBody } from '../../common/schemas/documents.js';
import { IdParam, PageQuery, list, single } from '../../common/schemas/shared.js';
import { createDocumentDownloadUrl, deleteDocument, getDocument, listDocumentPage, updateDocumentFields } from '../../services/documents.js';
import { commit, commitNoContent, paged, read } from './respond.js';

const DocumentParams = z.object({ document_id: IdParam });

export const documentRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/cases/:case_id/documents',
    {
      config: { scopes: ['documents:read'] },
      schema: { tags: ['documents'], params: z.object({ case_id: IdParam }), querystring: PageQuery, response: { 200: list(Document) } },
    },
    (request) => paged(request, `case-documents:${request.params.case_id}`, request.query, (db, ctx, page) => listDocumentPage(db, ctx, request.params.case_id, page)),
  );

  app.get(
    '/documents/:document_id',
    { config: { scopes: ['documents:read'] }, schema: { tags: ['documents'], params: DocumentParams, response: { 200: single(Document) } } },
    (request) => read(request, (db, ctx) => getDocument(db, ctx, request.params.document_id)),
  );

  app.patch(
    '/documents/:document_id',
    {
      config: { scopes: ['documents:write'] },
      schema: { tags: ['documents'], params: DocumentParams, body: UpdateDocumentBody, response: { 200: single(Document) } },
    },
    (request, reply) => commit(request, reply, 200, (trx, ctx) => updateDocumentFields(trx, ctx, request.params.document_id, request.body)),
  );

  app.delete(
    '/documents/:document_id',
    { config: { scopes: ['documents:write'] }, schema: { tags: ['documents'], params: DocumentParams, response: { 204: z.null() } } },
    (request, reply) => commitNoContent(request, reply, (trx, ctx) => deleteDocument(trx, ctx, request.params.document_id)),
  );

  app.get(
    '/documents/:document_id/download-url',
    { config: { scopes: ['documents:read'] }, schema: { tags: ['documents'], params: DocumentParams, response: { 200: single(DownloadUrl) } } },
    (request) =>
      read(request, (db, ctx) =>
        createDocumentDownloadUrl(db, ctx, request.params.document_id, {
          baseUrl: request.server.obscura.baseUrl,
          ttlSeconds: request.server.obscura.runtime.config.downloads.urlTtlSeconds,
        }),
      ),
  );
};
