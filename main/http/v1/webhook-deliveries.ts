import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { IdParam, list, single } from '../../common/schemas/shared.js';
import { DeliveryListQuery, WebhookDelivery, WebhookDeliveryDetail } from '../../common/schemas/webhooks.js';
import { getWebhookDelivery, listEndpointDeliveryPage, replayWebhookDelivery } from '../../services/webhook-deliveries.js';
import { commit, paged, read } from './respond.js';

const tags = ['webhooks'];
const DeliveryParams = z.object({ delivery_id: IdParam });

export const webhookDeliveryRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/webhook-endpoints/:endpoint_id/deliveries',
    {
      config: { scopes: ['webhooks:read'] },
      schema: { tags, params: z.object({ endpoint_id: IdParam }), querystring: DeliveryListQuery, response: { 200: list(WebhookDelivery) } },
    },
    (request) =>
      paged(
        request,
        `webhook-deliveries:${request.params.endpoint_id}:${request.query.status ?? ''}`,
        request.query,
        (db, ctx, page) => listEndpointDeliveryPage(db, ctx, request.params.endpoint_id, request.query.status, page),
        'desc',
      ),
  );

  app.get(
    '/webhook-deliveries/:delivery_id',
    { config: { scopes: ['webhooks:read'] }, schema: { tags, params: DeliveryParams, response: { 200: single(WebhookDeliveryDetail) } } },
    (request) => read(request, (db, ctx) => getWebhookDelivery(db, ctx, request.params.delivery_id)),
  );

  app.post(
    '/webhook-deliveries/:delivery_id/replay',
    { config: { scopes: ['webhooks:write'] }, schema: { tags, params: DeliveryParams, response: { 202: single(WebhookDelivery) } } },
    (request, reply) => commit(request, reply, 202, (trx, ctx) => replayWebhookDelivery(trx, ctx, request.params.delivery_id)),
  );
};
