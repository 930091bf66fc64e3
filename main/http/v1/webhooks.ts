import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { DomainError } from '../../common/errors.js';
import { z } from 'zod';
import { IdParam, PageQuery, list, single } from '../../common/schemas/shared.js';
import {
  CreateWebhookEndpointBody,
  UpdateWebhookEndpointBody,
  WEBHOOK_EVENT_CATALOGUE,
  WebhookEndpoint,
  WebhookEndpointWithSecret,
  WebhookEventTypeInfo,
} from '../../common/schemas/webhooks.js';
import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  getWebhookEndpoint,
  listWebhookEndpointPage,
  rotateWebhookSecret,
  updateWebhookEndpointFields,
} from '../../services/webhook-endpoints.js';
import { commit, commitNoContent, paged, principalOf, read } from './respond.js';

const EndpointParams = z.object({ endpoint_id: IdParam });

/** Keeping receivers' answers is an administrator's choice (credentials:write), not every webhook manager's. */
function assertMayStoreBodies(request: FastifyRequest, storeResponseBody: boolean | undefined): void {
  if (storeResponseBody !== true || principalOf(request).scopes.has('credentials:write')) return;
  throw new DomainError('permission_denied', 'store_response_body needs the administrative scope credentials:write', { required_scopes: ['webhooks:write', 'credentials:write'] });
}
const tags = ['webhooks'];

const EVENT_TYPES = Object.entries(WEBHOOK_EVENT_CATALOGUE).map(([type, description]) => ({ type, group: type.slice(0, type.indexOf('.')), description }));

export const webhookRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/webhook-event-types',
    { config: { scopes: ['webhooks:read'] }, schema: { tags, response: { 200: z.object({ data: z.array(WebhookEventTypeInfo), request_id: z.string() }) } } },
    (request) => ({ data: EVENT_TYPES, request_id: request.id }),
  );

  app.get(
    '/webhook-endpoints',
    { config: { scopes: ['webhooks:read'] }, schema: { tags, querystring: PageQuery, response: { 200: list(WebhookEndpoint) } } },
    (request) => paged(request, 'webhook-endpoints', request.query, listWebhookEndpointPage),
  );

  app.post(
    '/webhook-endpoints',
    { config: { scopes: ['webhooks:write'] }, schema: { tags, body: CreateWebhookEndpointBody, response: { 201: single(WebhookEndpointWithSecret) } } },
    (request, reply) => {
      assertMayStoreBodies(request, request.body.store_response_body);
      return commit(request, reply, 201, (trx, ctx) => createWebhookEndpoint(trx, ctx, request.body));
    },
  );

  app.get(
    '/webhook-endpoints/:endpoint_id',
    { config: { scopes: ['webhooks:read'] }, schema: { tags, params: EndpointParams, response: { 200: single(WebhookEndpoint) } } },
    (request) => read(request, (db, ctx) => getWebhookEndpoint(db, ctx, request.params.endpoint_id)),
  );

  app.patch(
    '/webhook-endpoints/:endpoint_id',
    { config: { scopes: ['webhooks:write'] }, schema: { tags, params: EndpointParams, body: UpdateWebhookEndpointBody, response: { 200: single(WebhookEndpoint) } } },
    (request, reply) => {
      assertMayStoreBodies(request, request.body.store_response_body);
      return commit(request, reply, 200, (trx, ctx) => updateWebhookEndpointFields(trx, ctx, request.params.endpoint_id, request.body));
    },
  );

  app.delete(
    '/webhook-endpoints/:endpoint_id',
    { config: { scopes: ['webhooks:write'] }, schema: { tags, params: EndpointParams, response: { 204: z.null().describe('Deleted') } } },
    (request, reply) => commitNoContent(request, reply, (trx, ctx) => deleteWebhookEndpoint(trx, ctx, request.params.endpoint_id)),
  );

  app.post(
    '/webhook-endpoints/:endpoint_id/rotate-secret',
    { config: { scopes: ['webhooks:write'] }, schema: { tags, params: EndpointParams, response: { 200: single(WebhookEndpointWithSecret) } } },
    (request, reply) =>
      commit(request, reply, 200, (trx, ctx) => rotateWebhookSecret(trx, ctx, request.params.endpoint_id, request.server.obscura.runtime.config.webhooks)),
  );
};
