import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { plansResponse } from '../../../contract/plans.js';
import type { AppContext } from '../../context.js';
import * as tiers from './plans.service.js';

export async function planRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get('/api/pricing-tiers', { schema: { response: { 200: plansResponse } } }, async () => tiers.getPlans(ctx));
}
