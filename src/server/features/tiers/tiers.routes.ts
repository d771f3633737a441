import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { pricingTiersResponse } from '../../../contract/tiers.js';
import type { AppContext } from '../../context.js';
import * as tiers from './tiers.service.js';

export async function tierRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get('/api/pricing-tiers', { schema: { response: { 200: pricingTiersResponse } } }, async () =>
    tiers.getPricingTiers(ctx),
  );
}
