import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ApiKey, ApiKeyListQuery, CreateApiKeyBody, IssuedApiKey, RotateApiKeyBody, UpdateApiKeyBody } from '../../common/schemas/credentials.js';
import { IdParam, list, single } from '../../common/schemas/shared.js';
import { createApiKey, getApiKey, listApiKeys, renameApiKey, revokeApiKey, rotateApiKey } from '../../services/api-key-management.js';
import { commit, paged, principalOf, read } from './respond.js';

const KeyParams = z.object({ api_key_id: IdParam });
const tags = ['access'];
const withoutSecret = (key: IssuedApiKey): IssuedApiKey => ({ ...key, secret: null });

export const apiKeyRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/api-keys', { config: { scopes: ['credentials:read'] }, schema: { tags, querystring: ApiKeyListQuery, response: { 200: list(ApiKey) } } }, (request) =>
    paged(request, 'api-keys', request.query, (db, ctx, page) => listApiKeys(db, ctx, page, { serviceAccountId: request.query.service_account_id })),
  );

  app.post(
    '/api-keys',
    { config: { scopes: ['credentials:write'] }, schema: { tags, body: CreateApiKeyBody, response: { 201: single(IssuedApiKey) } } },
    (request, reply) => commit(request, reply, 201, (trx, ctx) => createApiKey(trx, ctx, request.body, principalOf(request).scopes), { forReplay: withoutSecret }),
  );

  app.get('/api-keys/:api_key_id', { config: { scopes: ['credentials:read'] }, schema: { tags, params: KeyParams, response: { 200: single(ApiKey) } } }, (request) =>
    read(request, (db, ctx) => getApiKey(db, ctx, request.params.api_key_id)),
  );

  app.patch(
    '/api-keys/:api_key_id',
    { config: { scopes: ['credentials:write'] }, schema: { tags, params: KeyParams, body: UpdateApiKeyBody, response: { 200: single(ApiKey) } } },
    (request, reply) => commit(request, reply, 200, (trx, ctx) => renameApiKey(trx, ctx, request.params.api_key_id, request.body.name)),
  );

  app.post(
    '/api-keys/:api_key_id/rotate',
    { config: { scopes: ['credentials:write'] }, schema: { tags, params: KeyParams, body: RotateApiKeyBody, response: { 200: single(IssuedApiKey) } } },
    (request, reply) => {
      const grace = request.body?.grace_period_seconds ?? request.server.obscura.runtime.config.access.keyRotationGraceSeconds;
      return commit(request, reply, 200, (trx, ctx) => rotateApiKey(trx, ctx, request.params.api_key_id, grace, principalOf(request).scopes), { forReplay: withoutSecret });
    },
  );

  app.post(
    '/api-keys/:api_key_id/revoke',
    { config: { scopes: ['credentials:write'] }, schema: { tags, params: KeyParams, response: { 200: single(ApiKey) } } },
    (request, reply) => commit(request, reply, 200, (trx, ctx) => revokeApiKey(trx, ctx, request.params.api_key_id)),
  );
};
