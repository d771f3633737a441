import type { FastifyInstance } from 'fastify';
import {
  planConfigurationInput,
  planConfigurationResponse,
  planSubscribersResponse,
  tierIdParams,
} from '../../../contract/plans.js';
import type { AppContext } from '../../context.js';
import { adminOnlyRoutes } from '../../http/guarded-routes.js';
import * as tiers from '../plans/plans.service.js';
import { countPlanMembers } from '../subscriptions/subscriptions.service.js';

// The admin's plan configuration: the tiers domain keeps the plans, the subscriptions domain counts who is on each,
// and this channel hands the counter to tiers (subscriptions reads tiers, so tiers cannot import it back).

export async function planConfigurationRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const adminApi = adminOnlyRoutes(app);

  adminApi.get(
    '/api/admin/tier-configuration',
    { schema: { response: { 200: planConfigurationResponse } } },
    async () => tiers.getPlanConfiguration(ctx),
  );

  adminApi.put(
    '/api/admin/tier-configuration',
    { schema: { body: planConfigurationInput, response: { 200: planConfigurationResponse } } },
    async (request) => tiers.savePlanConfiguration(ctx, request.body, countPlanMembers),
  );

  adminApi.get(
    '/api/admin/tier-subscribers/:tierId',
    { schema: { params: tierIdParams, response: { 200: planSubscribersResponse } } },
    async (request) => tiers.getPlanSubscribers(ctx, request.params.tierId, countPlanMembers),
  );
}
