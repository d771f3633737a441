import type { FastifyInstance } from 'fastify';
import { startTrialInput, startTrialResponse, subscriptionStatusResponse } from '../../../contract/subscriptions.js';
import type { AppContext } from '../../context.js';
import { sellerRoutes } from '../../http/guarded-routes.js';
import * as subscriptions from './subscriptions.service.js';

export async function subscriptionRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const sellerApi = sellerRoutes(app);

  // While an admin impersonates a seller, the status is the seller's: the admin sees what they see.
  sellerApi.get(
    '/api/platform-subscription/status',
    { permission: 'dashboard:read', noStore: true, schema: { response: { 200: subscriptionStatusResponse } } },
    async (request) => subscriptions.getSubscriptionStatus(ctx, request.seller),
  );

  sellerApi.post(
    '/api/platform-subscription/start-trial',
    { permission: 'plan:manage', schema: { body: startTrialInput, response: { 200: startTrialResponse } } },
    async (request) => {
      const user = request.seller;
      return subscriptions.startTrial(ctx, user, request.body?.tier);
    },
  );
}
