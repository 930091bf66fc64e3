import fs from 'node:fs';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { redeemDownloadToken } from '../../services/downloads.js';
import { receiveUpload } from '../../services/uploads.js';
import { envelopeErrorHandler, notFoundHandler } from '../shared/errors.js';

const Token = z.object({ token: z.string().regex(/^[A-Za-z0-9_-]{43}$/, 'not a valid token') });

/**
 * Capability URLs under /files: the unguessable token in the path is the credential, so an upload
 * client or a browser download needs no API key. Each token is single-use and expires.
 */
export const fileRoutes: FastifyPluginAsyncZod = async (app) => {
  app.setErrorHandler(envelopeErrorHandler);
  app.setNotFoundHandler(notFoundHandler);
  // Upload bodies are raw bytes of any type: they are streamed to disk, never parsed or buffered.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, _payload, done) => done(null));
  // A refused upload is answered before its body was read to the end; close the connection after the
  // answer, or the half-read request keeps the socket busy and holds up a graceful shutdown.
  app.addHook('onSend', async (request, reply, payload) => {
    if (reply.statusCode >= 400 && !request.raw.complete) reply.header('Connection', 'close');
    return payload;
  });

  app.put('/uploads/:token', { schema: { hide: true, params: Token } }, async (request) => {
    const { runtime } = request.server.obscura;
    const length = request.headers['content-length'];
    const declared = length === undefined ? undefined : Number(length);
    const result = await receiveUpload(runtime.db, runtime.blobs, { requestId: request.id, clock: runtime.clock }, request.params.token, request.raw, declared);
    return { data: { file_id: String(result.file.id), name: result.file.name, received_bytes: result.received, status: 'uploaded' }, request_id: request.id };
  });

  app.get('/downloads/:token', { schema: { hide: true, params: Token } }, async (request, reply) => {
    const { runtime } = request.server.obscura;
    const target = await redeemDownloadToken(runtime.db, runtime.blobs, request.params.token, runtime.clock.now());
    return reply
      .type(target.mediaType)
      .header('Content-Length', String(target.size))
      .header('Content-Disposition', `attachment; filename="${asciiFallback(target.fileName)}"; filename*=UTF-8''${encodeURIComponent(target.fileName)}`)
      .header('Cache-Control', 'no-store')
      .send(fs.createReadStream(target.path));
  });
};

function asciiFallback(name: string): string {
  return name.replace(/[^\x20-\x7e]|["\\]/g, '_');
}
