import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { apiV1CreateWebhookInput, apiV1UpdateWebhookInput } from '../../../contract/api-v1.js';
import {
  WEBHOOK_EVENT_DESCRIPTIONS,
  WEBHOOK_EVENT_TYPES,
  WEBHOOK_LIMITS,
  webhookDeliveryParams,
  webhookDeliverySchema,
  webhookEndpointParams,
  webhookEndpointSchema,
  webhookEndpointWithSecretSchema,
} from '../../../contract/webhooks.js';
import type { AppContext } from '../../context.js';
import * as webhooks from '../webhooks/webhooks.service.js';
import { apiV1Operations } from './api-v1-operations.js';

// Webhook endpoints in API v1 (issue 14), answered by the same service as the Webhooks page. Of the spec's 8
// permissions, tokens:read / tokens:write fit: an endpoint carries a signing secret, a credential of the
// integration as an API token is, and managing it is the integration's business, not the catalogue's or the
// customers'.

const eventList = WEBHOOK_EVENT_TYPES.map((type) => `\`${type}\`: ${WEBHOOK_EVENT_DESCRIPTIONS[type]}`).join('; ');

export async function webhooksV1Routes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const webhooksApi = apiV1Operations(app, 'Webhooks');

  webhooksApi.get(
    '/webhooks',
    {
      permission: 'tokens:read',
      operationId: 'listWebhookEndpoints',
      summary: 'List webhook endpoints',
      answer: z.array(webhookEndpointSchema),
    },
    async (request) => webhooks.listEndpoints(ctx, request.principal.sellerId),
  );

  webhooksApi.post(
    '/webhooks',
    {
      permission: 'tokens:write',
      operationId: 'createWebhookEndpoint',
      summary: 'Register a webhook endpoint',
      description: `Answers the signing secret once. Up to ${WEBHOOK_LIMITS.maxEndpoints} endpoints; the URL must be public http(s). Events: ${eventList}.`,
      body: apiV1CreateWebhookInput,
      answer: webhookEndpointWithSecretSchema,
      status: 201,
    },
    async (request) => webhooks.createEndpoint(ctx, request.principal, request.body),
  );

  webhooksApi.get(
    '/webhooks/:id',
    {
      permission: 'tokens:read',
      operationId: 'getWebhookEndpoint',
      summary: 'Get a webhook endpoint',
      params: webhookEndpointParams,
      answer: webhookEndpointSchema,
    },
    async (request) => webhooks.getEndpoint(ctx, request.principal.sellerId, request.params.id),
  );

  webhooksApi.patch(
    '/webhooks/:id',
    {
      permission: 'tokens:write',
      operationId: 'updateWebhookEndpoint',
      summary: 'Change a webhook endpoint',
      description: 'Change its URL, events or description, or disable and enable it (absent fields keep their value).',
      params: webhookEndpointParams,
      body: apiV1UpdateWebhookInput,
      answer: webhookEndpointSchema,
    },
    async (request) => webhooks.updateEndpoint(ctx, request.principal, request.params.id, request.body),
  );

  webhooksApi.delete(
    '/webhooks/:id',
    {
      permission: 'tokens:write',
      operationId: 'deleteWebhookEndpoint',
      summary: 'Delete a webhook endpoint',
      params: webhookEndpointParams,
      answer: z.object({ id: z.string() }),
    },
    async (request) => webhooks.deleteEndpoint(ctx, request.principal, request.params.id),
  );

  webhooksApi.post(
    '/webhooks/:id/rotate-secret',
    {
      permission: 'tokens:write',
      operationId: 'rotateWebhookSecret',
      summary: 'Rotate the signing secret',
      description: 'Answers the new secret once; deliveries from now on are signed with it.',
      params: webhookEndpointParams,
      answer: webhookEndpointWithSecretSchema,
    },
    async (request) => webhooks.rotateSecret(ctx, request.principal, request.params.id),
  );

  webhooksApi.get(
    '/webhooks/:id/deliveries',
    {
      permission: 'tokens:read',
      operationId: 'listWebhookDeliveries',
      summary: 'List deliveries',
      description: `The endpoint's latest ${WEBHOOK_LIMITS.deliveriesListed} deliveries, newest first, each with its attempts (time, status code, duration).`,
      params: webhookEndpointParams,
      answer: z.array(webhookDeliverySchema),
    },
    async (request) => webhooks.listDeliveries(ctx, request.principal.sellerId, request.params.id),
  );

  webhooksApi.post(
    '/webhooks/:id/deliveries/:deliveryId/redeliver',
    {
      permission: 'tokens:write',
      operationId: 'redeliverWebhookDelivery',
      summary: 'Redeliver',
      description: 'Sends the delivery again now, with the same webhook-id.',
      params: webhookDeliveryParams,
      answer: webhookDeliverySchema,
    },
    async (request) =>
      webhooks.redeliver(ctx, request.principal.sellerId, request.params.id, request.params.deliveryId),
  );

  webhooksApi.post(
    '/webhooks/:id/test',
    {
      permission: 'tokens:write',
      operationId: 'sendWebhookTestEvent',
      summary: 'Send a test event',
      description: 'Sends a `webhook.test` event to this endpoint, whatever it listens to.',
      params: webhookEndpointParams,
      answer: webhookDeliverySchema,
    },
    async (request) => webhooks.sendTestEvent(ctx, request.principal.sellerId, request.params.id),
  );
}
