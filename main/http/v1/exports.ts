import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { DownloadUrl } from '../../common/schemas/documents.js';
import { CreateExportBody, Export } from '../../common/schemas/exports.js';
import { IdParam, PageQuery, list, single } from '../../common/schemas/shared.js';
import { cancelExport, createExport, createExportDownloadUrl, getExport, listExportPage, retryExport } from '../../services/exports.js';
import { commit, paged, principalOf, read } from './respond.js';

const ExportParams = z.object({ export_id: IdParam });
/** cancel and retry take no fields; no body, an empty body or {} all work. */
const NoFields = z.strictObject({}).nullish();

export const exportRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/exports',
    { config: { scopes: ['exports:write'] }, schema: { tags: ['exports'], body: CreateExportBody, response: { 202: single(Export) } } },
    (request, reply) =>
      commit(request, reply, 202, (trx, ctx) => createExport(trx, ctx, request.body, { safeguards: true, canOverride: principalOf(request).scopes.has('exports:override') })),
  );

  app.get('/exports', { config: { scopes: ['exports:read'] }, schema: { tags: ['exports'], querystring: PageQuery, response: { 200: list(Export) } } }, (request) =>
    paged(request, 'exports', request.query, listExportPage, 'desc'),
  );

  app.get(
    '/exports/:export_id',
    { config: { scopes: ['exports:read'] }, schema: { tags: ['exports'], params: ExportParams, response: { 200: single(Export) } } },
    (request) => read(request, (db, ctx) => getExport(db, ctx, request.params.export_id)),
  );

  app.get(
    '/exports/:export_id/download-url',
    { config: { scopes: ['exports:read'] }, schema: { tags: ['exports'], params: ExportParams, response: { 200: single(DownloadUrl) } } },
    (request) =>
      read(request, (db, ctx) =>
        createExportDownloadUrl(db, ctx, request.params.export_id, {
          baseUrl: request.server.obscura.baseUrl,
          ttlSeconds: request.server.obscura.runtime.config.downloads.urlTtlSeconds,
        }),
      ),
  );

  app.post(
    '/exports/:export_id/cancel',
    { config: { scopes: ['exports:write'] }, schema: { tags: ['exports'], params: ExportParams, body: NoFields, response: { 200: single(Export) } } },
    (request, reply) => commit(request, reply, 200, (trx, ctx) => cancelExport(trx, ctx, request.params.export_id)),
  );

  app.post(
    '/exports/:export_id/retry',
    { config: { scopes: ['exports:write'] }, schema: { tags: ['exports'], params: ExportParams, body: NoFields, response: { 202: single(Export) } } },
    (request, reply) => commit(request, reply, 202, (trx, ctx) => retryExport(trx, ctx, request.params.export_id)),
  );
};
