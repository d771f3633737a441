import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
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
import { createdResponses, envelope, okResponses } from './envelope.js';

// Webhook endpoints in API v1 (issue 14), answered by the same service as the Webhooks page. Of the spec's 8
// permissions, tokens:read / tokens:write fit: an endpoint carries a signing secret, a credential of the
// integration as an API token is, and managing it is the integration's business, not the catalogue's or the
// customers'.

const eventList = WEBHOOK_EVENT_TYPES.map((type) => `\`${type}\`: ${WEBHOOK_EVENT_DESCRIPTIONS[type]}`).join('; ');

export async function webhooksV1Routes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const read = { apiPermission: 'tokens:read' as const };
  const write = { apiPermission: 'tokens:write' as const };
  const tags = ['Webhooks'];

  api.get(
    '/webhooks',
    {
      config: read,
      schema: {
        tags,
        operationId: 'listWebhookEndpoints',
        summary: 'List webhook endpoints',
        response: okResponses(z.array(webhookEndpointSchema)),
      },
    },
    async (request) => envelope(await webhooks.listEndpoints(ctx, request.principal.sellerId)),
  );

  api.post(
    '/webhooks',
    {
      config: write,
      schema: {
        tags,
        operationId: 'createWebhookEndpoint',
        summary: 'Register a webhook endpoint',
        description: `Answers the signing secret once. Up to ${WEBHOOK_LIMITS.maxEndpoints} endpoints; the URL must be public http(s). Events: ${eventList}.`,
        body: apiV1CreateWebhookInput,
        response: createdResponses(webhookEndpointWithSecretSchema),
      },
    },
    async (request, reply) =>
      reply.status(201).send(envelope(await webhooks.createEndpoint(ctx, request.principal, request.body))),
  );

  api.get(
    '/webhooks/:id',
    {
      config: read,
      schema: {
        tags,
        operationId: 'getWebhookEndpoint',
        summary: 'Get a webhook endpoint',
        params: webhookEndpointParams,
        response: okResponses(webhookEndpointSchema),
      },
    },
    async (request) => envelope(await webhooks.getEndpoint(ctx, request.principal.sellerId, request.params.id)),
  );

  api.patch(
    '/webhooks/:id',
    {
      config: write,
      schema: {
        tags,
        operationId: 'updateWebhookEndpoint',
        summary: 'Change a webhook endpoint',
        description:
          'Change its URL, events or description, or disable and enable it (absent fields keep their value).',
        params: webhookEndpointParams,
        body: apiV1UpdateWebhookInput,
        response: okResponses(webhookEndpointSchema),
      },
    },
    async (request) => envelope(await webhooks.updateEndpoint(ctx, request.principal, request.params.id, request.body)),
  );

  api.delete(
    '/webhooks/:id',
    {
      config: write,
      schema: {
        tags,
        operationId: 'deleteWebhookEndpoint',
        summary: 'Delete a webhook endpoint',
        params: webhookEndpointParams,
        response: okResponses(z.object({ id: z.string() })),
      },
    },
    async (request) => envelope(await webhooks.deleteEndpoint(ctx, request.principal, request.params.id)),
  );

  api.post(
    '/webhooks/:id/rotate-secret',
    {
      config: write,
      schema: {
        tags,
        operationId: 'rotateWebhookSecret',
        summary: 'Rotate the signing secret',
        description: 'Answers the new secret once; deliveries from now on are signed with it.',
        params: webhookEndpointParams,
        response: okResponses(webhookEndpointWithSecretSchema),
      },
    },
    async (request) => envelope(await webhooks.rotateSecret(ctx, request.principal, request.params.id)),
  );

  api.get(
    '/webhooks/:id/deliveries',
    {
      config: read,
      schema: {
        tags,
        operationId: 'listWebhookDeliveries',
        summary: 'List deliveries',
        description: `The endpoint's latest ${WEBHOOK_LIMITS.deliveriesListed} deliveries, newest first, each with its attempts (time, status code, duration).`,
        params: webhookEndpointParams,
        response: okResponses(z.array(webhookDeliverySchema)),
      },
    },
    async (request) => envelope(await webhooks.listDeliveries(ctx, request.principal.sellerId, request.params.id)),
  );

  api.post(
    '/webhooks/:id/deliveries/:deliveryId/redeliver',
    {
      config: write,
      schema: {
        tags,
        operationId: 'redeliverWebhookDelivery',
        summary: 'Redeliver',
        description: 'Sends the delivery again now, with the same webhook-id.',
        params: webhookDeliveryParams,
        response: okResponses(webhookDeliverySchema),
      },
    },
    async (request) =>
      envelope(await webhooks.redeliver(ctx, request.principal.sellerId, request.params.id, request.params.deliveryId)),
  );

  api.post(
    '/webhooks/:id/test',
    {
      config: write,
      schema: {
        tags,
        operationId: 'sendWebhookTestEvent',
        summary: 'Send a test event',
        description: 'Sends a `webhook.test` event to this endpoint, whatever it listens to.',
        params: webhookEndpointParams,
        response: okResponses(webhookDeliverySchema),
      },
    },
    async (request) => envelope(await webhooks.sendTestEvent(ctx, request.principal.sellerId, request.params.id)),
  );
}
