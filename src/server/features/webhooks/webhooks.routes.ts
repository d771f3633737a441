import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  createWebhookEndpointInput,
  updateWebhookEndpointInput,
  webhookDeliveryParams,
  webhookDeliverySchema,
  webhookEndpointParams,
  webhookEndpointSchema,
  webhookEndpointWithSecretSchema,
} from '../../../contract/webhooks.js';
import type { AppContext } from '../../context.js';
import { sellerRoutes } from '../../http/guarded-routes.js';
import * as webhooks from './webhooks.service.js';

// The Webhooks page's endpoints (session + CSRF). API v1 offers the same through api-v1/webhooks-v1.routes.ts.

export async function webhookRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const sellerApi = sellerRoutes(app);
  const actorOf = (request: FastifyRequest) => request.principal;
  // Every webhook screen and command needs webhooks:write (there is no read-only view of endpoints and secrets).
  const permission = 'webhooks:write';

  sellerApi.get(
    '/api/webhooks',
    { permission, schema: { response: { 200: z.array(webhookEndpointSchema) } } },
    async (request) => webhooks.listEndpoints(ctx, request.seller.id),
  );

  sellerApi.post(
    '/api/webhooks',
    { permission, schema: { body: createWebhookEndpointInput, response: { 201: webhookEndpointWithSecretSchema } } },
    async (request) => webhooks.createEndpoint(ctx, actorOf(request), request.body),
  );

  sellerApi.patch(
    '/api/webhooks/:id',
    {
      permission,
      schema: {
        params: webhookEndpointParams,
        body: updateWebhookEndpointInput,
        response: { 200: webhookEndpointSchema },
      },
    },
    async (request) => webhooks.updateEndpoint(ctx, actorOf(request), request.params.id, request.body),
  );

  sellerApi.delete(
    '/api/webhooks/:id',
    { permission, schema: { params: webhookEndpointParams, response: { 200: z.object({ id: z.string() }) } } },
    async (request) => webhooks.deleteEndpoint(ctx, actorOf(request), request.params.id),
  );

  sellerApi.post(
    '/api/webhooks/:id/rotate-secret',
    { permission, schema: { params: webhookEndpointParams, response: { 200: webhookEndpointWithSecretSchema } } },
    async (request) => webhooks.rotateSecret(ctx, actorOf(request), request.params.id),
  );

  sellerApi.get(
    '/api/webhooks/:id/deliveries',
    { permission, schema: { params: webhookEndpointParams, response: { 200: z.array(webhookDeliverySchema) } } },
    async (request) => webhooks.listDeliveries(ctx, request.seller.id, request.params.id),
  );

  sellerApi.post(
    '/api/webhooks/:id/deliveries/:deliveryId/redeliver',
    { permission, schema: { params: webhookDeliveryParams, response: { 202: webhookDeliverySchema } } },
    async (request) => webhooks.redeliver(ctx, request.seller.id, request.params.id, request.params.deliveryId),
  );

  sellerApi.post(
    '/api/webhooks/:id/test',
    { permission, schema: { params: webhookEndpointParams, response: { 202: webhookDeliverySchema } } },
    async (request) => webhooks.sendTestEvent(ctx, request.seller.id, request.params.id),
  );
}
