import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  planConfigurationInput,
  planConfigurationResponse,
  planSubscribersResponse,
  tierIdParams,
} from '../../../contract/plans.js';
import type { AppContext } from '../../context.js';
import { adminOnly } from '../../http/guards.js';
import * as tiers from '../plans/plans.service.js';
import { countPlanMembers } from '../subscriptions/subscriptions.service.js';

// The admin's plan configuration: the tiers domain keeps the plans, the subscriptions domain counts who is on each,
// and this channel hands the counter to tiers (subscriptions reads tiers, so tiers cannot import it back).

export async function planConfigurationRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get(
    '/api/admin/tier-configuration',
    { schema: { response: { 200: planConfigurationResponse } }, onRequest: adminOnly },
    async () => tiers.getPlanConfiguration(ctx),
  );

  api.put(
    '/api/admin/tier-configuration',
    { schema: { body: planConfigurationInput, response: { 200: planConfigurationResponse } }, onRequest: adminOnly },
    async (request) => tiers.savePlanConfiguration(ctx, request.body, countPlanMembers),
  );

  api.get(
    '/api/admin/tier-subscribers/:tierId',
    { schema: { params: tierIdParams, response: { 200: planSubscribersResponse } }, onRequest: adminOnly },
    async (request) => tiers.getPlanSubscribers(ctx, request.params.tierId, countPlanMembers),
  );
}
