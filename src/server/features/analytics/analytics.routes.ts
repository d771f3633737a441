import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { dashboardAnalytics } from '../../../contract/analytics.js';
import type { AppContext } from '../../context.js';
import { authenticated, requireUser } from '../../http/guards.js';
import { getDashboardAnalytics } from './analytics.service.js';

export async function analyticsRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get(
    '/api/analytics/dashboard',
    { schema: { response: { 200: dashboardAnalytics } }, onRequest: authenticated },
    async (request, reply) => {
      // Downloads move these numbers at any moment; a cached copy would show stale stat cards.
      reply.header('cache-control', 'no-store');
      return getDashboardAnalytics(ctx, requireUser(request).user.id);
    },
  );
}
