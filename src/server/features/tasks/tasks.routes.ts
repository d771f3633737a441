import type { FastifyInstance } from 'fastify';
import { RECENT_TASKS_LIMIT, recentTasksResponse } from '../../../contract/tasks.js';
import type { AppContext } from '../../context.js';
import { sellerRoutes } from '../../http/guarded-routes.js';
import { listRecentTasks } from './tasks.service.js';

export async function taskRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const sellerApi = sellerRoutes(app);

  sellerApi.get(
    '/api/tasks',
    { permission: 'dashboard:read', noStore: true, schema: { response: { 200: recentTasksResponse } } },
    async (request) => listRecentTasks(ctx, request.seller.id, RECENT_TASKS_LIMIT),
  );
}
