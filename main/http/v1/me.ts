import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { MeResponse } from '../../common/schemas/me.js';
import { single } from '../../common/schemas/shared.js';
import { describePrincipal } from '../../services/me.js';
import { principalOf, read } from './respond.js';

export const meRoutes: FastifyPluginAsyncZod = async (app) => {
  // Any authenticated caller may ask who it is, so that a key without scopes can still be diagnosed.
  app.get('/me', { config: { scopes: [] }, schema: { tags: ['access'], response: { 200: single(MeResponse) } } }, (request) =>
    read(request, (db) => describePrincipal(db, principalOf(request))),
  );
};
