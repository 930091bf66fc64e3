import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { CreateRoleBody, Role, UpdateRoleBody } from '../../common/schemas/roles.js';
import { IdParam, PageQuery, list, single } from '../../common/schemas/shared.js';
import { User } from '../../common/schemas/users.js';
import { assignRole, createRole, deleteRole, getRole, listRoles, unassignRole, updateRoleFields } from '../../services/roles.js';
import { commit, commitNoContent, paged, principalOf, read } from './respond.js';

const RoleParams = z.object({ role_id: IdParam });
const AssignmentParams = z.object({ user_id: IdParam, role_id: IdParam });
const tags = ['access'];

export const roleRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/roles', { config: { scopes: ['roles:read'] }, schema: { tags, querystring: PageQuery, response: { 200: list(Role) } } }, (request) =>
    paged(request, 'roles', request.query, listRoles),
  );

  app.post('/roles', { config: { scopes: ['roles:write'] }, schema: { tags, body: CreateRoleBody, response: { 201: single(Role) } } }, (request, reply) =>
    commit(request, reply, 201, (trx, ctx) => createRole(trx, ctx, request.body, principalOf(request).scopes)),
  );

  app.get('/roles/:role_id', { config: { scopes: ['roles:read'] }, schema: { tags, params: RoleParams, response: { 200: single(Role) } } }, (request) =>
    read(request, (db, ctx) => getRole(db, ctx, request.params.role_id)),
  );

  app.patch(
    '/roles/:role_id',
    { config: { scopes: ['roles:write'] }, schema: { tags, params: RoleParams, body: UpdateRoleBody, response: { 200: single(Role) } } },
    (request, reply) => commit(request, reply, 200, (trx, ctx) => updateRoleFields(trx, ctx, request.params.role_id, request.body, principalOf(request).scopes)),
  );

  app.delete(
    '/roles/:role_id',
    { config: { scopes: ['roles:write'] }, schema: { tags, params: RoleParams, response: { 204: z.null().describe('Deleted; its holders lose it') } } },
    (request, reply) => commitNoContent(request, reply, (trx, ctx) => deleteRole(trx, ctx, request.params.role_id, principalOf(request).scopes)),
  );

  // Assignment lives under the user: PUT gives the role (again: no change), DELETE takes it away.
  app.put(
    '/users/:user_id/roles/:role_id',
    { config: { scopes: ['roles:write'] }, schema: { tags, params: AssignmentParams, response: { 200: single(User) } } },
    (request, reply) =>
      commit(request, reply, 200, (trx, ctx) => assignRole(trx, ctx, request.params.user_id, request.params.role_id, principalOf(request).scopes)),
  );

  app.delete(
    '/users/:user_id/roles/:role_id',
    { config: { scopes: ['roles:write'] }, schema: { tags, params: AssignmentParams, response: { 204: z.null().describe('The user no longer holds the role') } } },
    (request, reply) =>
      commitNoContent(request, reply, (trx, ctx) => unassignRole(trx, ctx, request.params.user_id, request.params.role_id, principalOf(request).scopes)),
  );
};
