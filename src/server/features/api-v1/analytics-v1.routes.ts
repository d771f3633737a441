import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { analyticsTables } from '../analytics/analytics.service.js';
import { apiV1Operations, withMeta } from './api-v1-operations.js';

// The seller's analytics in API v1 (issue 14): GET /api/v1/analytics/{name} for each table of the Analytics page,
// made from the same list (analyticsTables) and answered by the same service, so both show the same numbers. They
// live beside the other v1 routes because a feature reaches another only through its service.

export async function analyticsV1Routes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const analyticsApi = apiV1Operations(app, 'Analytics');

  for (const [name, table] of Object.entries(analyticsTables)) {
    analyticsApi.get(
      `/analytics/${name}`,
      {
        permission: 'analytics:read',
        operationId: `getAnalytics${name
          .split('-')
          .map((word) => word[0]!.toUpperCase() + word.slice(1))
          .join('')}`,
        summary: table.summary,
        description: table.description,
        querystring: table.query,
        answer: table.answer,
      },
      async (request) => {
        const answer = await table.read(ctx, request.principal.sellerId, request.query);
        return withMeta(answer, table.meta?.(answer));
      },
    );
  }
}
