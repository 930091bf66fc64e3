import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { IdParam, list, single } from '../../common/schemas/shared.js';
import { CreateUserBody, Invitation, UpdateUserBody, User, UserListQuery } from '../../common/schemas/users.js';
import { createUser, deactivateUser, getUser, inviteUser, listUsers, prepareNewUser, reactivateUser, updateUserFields } from '../../services/users.js';
import { commit, paged, principalOf, read } from './respond.js';

const UserParams = z.object({ user_id: IdParam });
const tags = ['access'];

export const userRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/users', { config: { scopes: ['users:read'] }, schema: { tags, querystring: UserListQuery, response: { 200: list(User) } } }, (request) =>
    paged(request, 'users', request.query, (db, ctx, page) => listUsers(db, ctx, page, { active: request.query.active })),
  );

  app.post('/users', { config: { scopes: ['users:write'] }, schema: { tags, body: CreateUserBody, response: { 201: single(User) } } }, async (request, reply) => {
    const input = await prepareNewUser(request.body);
    return commit(request, reply, 201, (trx, ctx) => createUser(trx, ctx, input));
  });

  app.get('/users/:user_id', { config: { scopes: ['users:read'] }, schema: { tags, params: UserParams, response: { 200: single(User) } } }, (request) =>
    read(request, (db, ctx) => getUser(db, ctx, request.params.user_id)),
  );

  app.patch(
    '/users/:user_id',
    { config: { scopes: ['users:write'] }, schema: { tags, params: UserParams, body: UpdateUserBody, response: { 200: single(User) } } },
    (request, reply) => commit(request, reply, 200, (trx, ctx) => updateUserFields(trx, ctx, request.params.user_id, request.body, principalOf(request).scopes)),
  );

  app.post(
    '/users/:user_id/deactivate',
    { config: { scopes: ['users:write'] }, schema: { tags, params: UserParams, response: { 200: single(User) } } },
    (request, reply) => commit(request, reply, 200, (trx, ctx) => deactivateUser(trx, ctx, request.params.user_id, principalOf(request).scopes)),
  );

  app.post(
    '/users/:user_id/reactivate',
    { config: { scopes: ['users:write'] }, schema: { tags, params: UserParams, response: { 200: single(User) } } },
    (request, reply) => commit(request, reply, 200, (trx, ctx) => reactivateUser(trx, ctx, request.params.user_id, principalOf(request).scopes)),
  );

  app.post(
    '/users/:user_id/invitations',
    { config: { scopes: ['users:write'] }, schema: { tags, params: UserParams, response: { 201: single(Invitation) } } },
    (request, reply) => {
      const ttl = request.server.obscura.runtime.config.access.invitationTtlSeconds;
      return commit(request, reply, 201, (trx, ctx) => inviteUser(trx, ctx, request.params.user_id, principalOf(request).scopes, ttl), {
        forReplay: (invitation) => ({ ...invitation, token: null }),
      });
    },
  );
};
