import type { FastifyInstance } from 'fastify';
import { RECENT_TASKS_LIMIT, recentTasksResponse } from '../../../contract/tasks.js';
import type { AppContext } from '../../context.js';
import { sellerRoutes } from '../../http/guarded-routes.js';
import { listRecentTasks } from './tasks.service.js';

export async function taskRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const sellerApi = sellerRoutes(app);

  sellerApi.get(
    '/api/tasks',
    { permission: 'dashboard:read', schema: { response: { 200: recentTasksResponse } } },
    async (request, reply) => {
      const user = request.seller;
      reply.header('cache-control', 'no-store');
      return listRecentTasks(ctx, user.id, RECENT_TASKS_LIMIT);
    },
  );
}
