import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  tierConfigurationInput,
  tierConfigurationResponse,
  tierIdParams,
  tierSubscribersResponse,
} from '../../../contract/tiers.js';
import type { AppContext } from '../../context.js';
import { adminOnly } from '../../http/guards.js';
import { countTierMembers } from '../subscriptions/subscriptions.service.js';
import * as tiers from '../tiers/tiers.service.js';

// The admin's plan configuration: the tiers domain keeps the plans, the subscriptions domain counts who is on each,
// and this channel hands the counter to tiers (subscriptions reads tiers, so tiers cannot import it back).

export async function tierConfigurationRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get(
    '/api/admin/tier-configuration',
    { schema: { response: { 200: tierConfigurationResponse } }, onRequest: adminOnly },
    async () => tiers.getTierConfiguration(ctx),
  );

  api.put(
    '/api/admin/tier-configuration',
    { schema: { body: tierConfigurationInput, response: { 200: tierConfigurationResponse } }, onRequest: adminOnly },
    async (request) => tiers.saveTierConfiguration(ctx, request.body, countTierMembers),
  );

  api.get(
    '/api/admin/tier-subscribers/:tierId',
    { schema: { params: tierIdParams, response: { 200: tierSubscribersResponse } }, onRequest: adminOnly },
    async (request) => tiers.getTierSubscribers(ctx, request.params.tierId, countTierMembers),
  );
}
