import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { CreateServiceAccountBody, ServiceAccount, UpdateServiceAccountBody } from '../../common/schemas/credentials.js';
import { IdParam, PageQuery, list, single } from '../../common/schemas/shared.js';
import {
  createServiceAccount,
  deleteServiceAccount,
  getServiceAccount,
  listServiceAccounts,
  updateServiceAccountFields,
} from '../../services/service-accounts.js';
import { commit, commitNoContent, paged, principalOf, read } from './respond.js';

const AccountParams = z.object({ service_account_id: IdParam });
const tags = ['access'];

export const serviceAccountRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/service-accounts',
    { config: { scopes: ['credentials:read'] }, schema: { tags, querystring: PageQuery, response: { 200: list(ServiceAccount) } } },
    (request) => paged(request, 'service-accounts', request.query, listServiceAccounts),
  );

  app.post(
    '/service-accounts',
    { config: { scopes: ['credentials:write'] }, schema: { tags, body: CreateServiceAccountBody, response: { 201: single(ServiceAccount) } } },
    (request, reply) => commit(request, reply, 201, (trx, ctx) => createServiceAccount(trx, ctx, request.body, principalOf(request).scopes)),
  );

  app.get(
    '/service-accounts/:service_account_id',
    { config: { scopes: ['credentials:read'] }, schema: { tags, params: AccountParams, response: { 200: single(ServiceAccount) } } },
    (request) => read(request, (db, ctx) => getServiceAccount(db, ctx, request.params.service_account_id)),
  );

  app.patch(
    '/service-accounts/:service_account_id',
    { config: { scopes: ['credentials:write'] }, schema: { tags, params: AccountParams, body: UpdateServiceAccountBody, response: { 200: single(ServiceAccount) } } },
    (request, reply) =>
      commit(request, reply, 200, (trx, ctx) => updateServiceAccountFields(trx, ctx, request.params.service_account_id, request.body, principalOf(request).scopes)),
  );

  app.delete(
    '/service-accounts/:service_account_id',
    { config: { scopes: ['credentials:write'] }, schema: { tags, params: AccountParams, response: { 204: z.null().describe('Deleted; every key of the account is revoked') } } },
    (request, reply) => commitNoContent(request, reply, (trx, ctx) => deleteServiceAccount(trx, ctx, request.params.service_account_id, principalOf(request).scopes)),
  );
};
