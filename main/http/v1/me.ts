import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { Me } from '../../common/schemas/me.js';
import { single } from '../../common/schemas/shared.js';
import { describeKey } from '../../services/me.js';
import { read } from './respond.js';

export const meRoutes: FastifyPluginAsyncZod = async (app) => {
  // Any valid key may ask who it is, so that a key without scopes can still be diagnosed.
  app.get('/me', { config: { scopes: [] }, schema: { tags: ['access'], response: { 200: single(Me) } } }, (request) =>
    read(request, (db) => describeKey(db, request.principal!)),
  );
};
