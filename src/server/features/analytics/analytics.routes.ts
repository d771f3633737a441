import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { analyticsExportParams, dashboardAnalytics } from '../../../contract/analytics.js';
import type { AppContext } from '../../context.js';
import { sellerRoutes } from '../../http/guarded-routes.js';
import * as analytics from './analytics.service.js';

export async function analyticsRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  await app.register(async (scope) => analyticsScope(scope, ctx));
}

async function analyticsScope(scope: FastifyInstance, ctx: AppContext): Promise<void> {
  const api = scope.withTypeProvider<ZodTypeProvider>();
  const sellerApi = sellerRoutes(scope);

  // Downloads move every figure here at any moment; a cached copy would show stale numbers.
  api.addHook('onSend', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
  });

  sellerApi.get(
    '/api/analytics/dashboard',
    { permission: 'dashboard:read', schema: { response: { 200: dashboardAnalytics } } },
    async (request) => analytics.getDashboardAnalytics(ctx, request.seller.id),
  );

  // GET /api/analytics/{downloads, versions, top-holders, stale-holders, sharing}: one route per analytics table.
  for (const [name, table] of Object.entries(analytics.analyticsTables)) {
    sellerApi.get(
      `/api/analytics/${name}`,
      { permission: 'analytics:read', schema: { querystring: table.query, response: { 200: table.answer } } },
      async (request) => table.read(ctx, request.seller.id, request.query),
    );
  }

  sellerApi.get(
    '/api/analytics/export/:table',
    { permission: 'analytics:read', schema: { params: analyticsExportParams } },
    async (request, reply) => {
      const csv = await analytics.exportAnalyticsCsv(ctx, request.seller.id, request.params.table, request.query);
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${csv.fileName}"`)
        .send(csv.body);
    },
  );
}
