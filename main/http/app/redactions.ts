import { Readable } from 'node:stream';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { DomainError } from '../../common/errors.js';
import { MAX_REDACTIONS_PER_REQUEST } from '../../common/schemas/redactions.js';
import { IdParam } from '../../common/schemas/shared.js';
import {
  clearDocument,
  deleteBoxes,
  getLayer,
  getVersion,
  listRedactionsJson,
  listVersions,
  lockLayer,
  parseLayersQuery,
  redactionTypesCatalog,
  requireLayer,
  saveLayer,
  unlockLayer,
  updateBox,
  updateBoxes,
} from '../../services/redactions/app.js';
import { commitApp, readApp, sessionUser } from './session.js';

const DocParams = z.object({ docId: IdParam });
const LayerParams = z.object({ docId: IdParam, layer: z.string() });
const BoxParams = z.object({ redactionId: z.string().min(1).max(250) });
// Bodies are checked by the service, which knows the document's type and reports every problem at once.
const JsonObject = z.record(z.string(), z.unknown());

/** Batch bodies are refused by their length before any item is looked at (docs/api.md, Limits). */
function assertBatchSize(list: unknown, field: string): void {
  if (Array.isArray(list) && list.length > MAX_REDACTIONS_PER_REQUEST) {
    throw new DomainError('validation_error', `${field} holds ${list.length} items; at most ${MAX_REDACTIONS_PER_REQUEST} per request`, [
      { field, location: 'body', message: `at most ${MAX_REDACTIONS_PER_REQUEST} items; send several requests` },
    ]);
  }
}

export const appRedactionRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/api/redactions/types', {}, async () => redactionTypesCatalog());

  app.post('/api/redactions/:docId', { schema: { params: DocParams, body: JsonObject.nullish() } }, (request, reply) => {
    const body = request.body ?? {};
    assertBatchSize(body.redactions, 'redactions');
    return commitApp(request, reply, 201, (trx, ctx) => saveLayer(trx, ctx, request.params.docId, { redactions: body.redactions, versionInfo: body.versionInfo }));
  });

  app.get('/api/redactions/:docId', { schema: { params: DocParams, querystring: z.object({ layers: z.string().optional() }) } }, async (request, reply) => {
    const parts = await readApp(request, (db, ctx) => listRedactionsJson(db, ctx, request.params.docId, parseLayersQuery(request.query.layers), request.id));
    // Written part by part: joining a multi-megabyte list into one buffer first doubles the garbage.
    return reply.type('application/json; charset=utf-8').send(Readable.from(parts));
  });

  app.delete('/api/redactions/:docId', { schema: { params: DocParams } }, (request, reply) =>
    commitApp(request, reply, 200, (trx, ctx) => clearDocument(trx, ctx, request.params.docId, sessionUser(request).isAdmin)),
  );

  app.get('/api/redactions/:docId/layer/:layer', { schema: { params: LayerParams } }, (request) =>
    readApp(request, (db, ctx) => getLayer(db, ctx, request.params.docId, requireLayer(request.params.layer))),
  );

  app.get('/api/redactions/:docId/layer/:layer/versions', { schema: { params: LayerParams } }, (request) =>
    readApp(request, (db, ctx) => listVersions(db, ctx, request.params.docId, requireLayer(request.params.layer))),
  );

  app.get('/api/redactions/:docId/layer/:layer/versions/:versionId', { schema: { params: LayerParams.extend({ versionId: z.string().min(1).max(100) }) } }, (request) =>
    readApp(request, (db, ctx) => getVersion(db, ctx, request.params.docId, requireLayer(request.params.layer), request.params.versionId)),
  );

  const lockSettings = () => ({ ttlSeconds: app.obscura.runtime.config.locks.ttlSeconds });
  app.post('/api/redactions/:docId/layer/:layer/lock', { schema: { params: LayerParams } }, (request, reply) =>
    commitApp(request, reply, 200, (trx, ctx) => lockLayer(trx, ctx, request.params.docId, requireLayer(request.params.layer), lockSettings(), false)),
  );
  app.put('/api/redactions/:docId/layer/:layer/lock', { schema: { params: LayerParams } }, (request, reply) =>
    commitApp(request, reply, 200, (trx, ctx) => lockLayer(trx, ctx, request.params.docId, requireLayer(request.params.layer), lockSettings(), true)),
  );
  app.delete('/api/redactions/:docId/layer/:layer/lock', { schema: { params: LayerParams } }, (request, reply) =>
    commitApp(request, reply, 200, (trx, ctx) => unlockLayer(trx, ctx, request.params.docId, requireLayer(request.params.layer), sessionUser(request).isAdmin)),
  );

  app.put('/api/redactions/box/:redactionId', { schema: { params: BoxParams, body: JsonObject, querystring: z.object({ doc_id: IdParam.optional() }) } }, (request, reply) => {
    assertBatchSize(request.body.redactionList, 'redactionList');
    return commitApp<unknown>(request, reply, 200, (trx, ctx) =>
      'redactionList' in request.body
        ? updateBoxes(trx, ctx, request.body.redactionList)
        : updateBox(trx, ctx, request.params.redactionId, request.body, request.query.doc_id),
    );
  });

  app.delete('/api/redactions/box/:redactionId', { schema: { params: BoxParams, body: JsonObject.nullish() } }, (request, reply) => {
    assertBatchSize(request.body?.redactionList, 'redactionList');
    return commitApp(request, reply, 200, (trx, ctx) => deleteBoxes(trx, ctx, request.params.redactionId, request.body?.redactionList));
  });
};
