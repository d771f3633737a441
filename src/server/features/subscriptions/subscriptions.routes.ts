import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { startTrialInput, startTrialResponse, subscriptionStatusResponse } from '../../../contract/subscriptions.js';
import type { AppContext } from '../../context.js';
import { authenticated } from '../../http/guards.js';
import * as subscriptions from './subscriptions.service.js';

export async function subscriptionRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();

  // While an admin impersonates a seller, the status is the seller's: the admin sees what they see.
  api.get(
    '/api/platform-subscription/status',
    {
      config: { permission: 'dashboard:read' },
      schema: { response: { 200: subscriptionStatusResponse } },
      onRequest: authenticated,
    },
    async (request, reply) => {
      const user = request.seller;
      reply.header('cache-control', 'no-store');
      return subscriptions.getSubscriptionStatus(ctx, user);
    },
  );

  api.post(
    '/api/platform-subscription/start-trial',
    {
      config: { permission: 'plan:manage' },
      schema: { body: startTrialInput, response: { 200: startTrialResponse } },
      onRequest: authenticated,
    },
    async (request) => {
      const user = request.seller;
      return subscriptions.startTrial(ctx, user, request.body?.tier);
    },
  );
}
