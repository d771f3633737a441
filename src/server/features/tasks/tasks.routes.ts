import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { RECENT_TASKS_LIMIT, recentTasksResponse } from '../../../contract/tasks.js';
import type { AppContext } from '../../context.js';
import { authenticated } from '../../http/guards.js';
import { listRecentTasks } from './tasks.service.js';

export async function taskRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get(
    '/api/tasks',
    {
      config: { permission: 'dashboard:read' },
      schema: { response: { 200: recentTasksResponse } },
      onRequest: authenticated,
    },
    async (request, reply) => {
      const user = request.seller;
      reply.header('cache-control', 'no-store');
      return listRecentTasks(ctx, user.id, RECENT_TASKS_LIMIT);
    },
  );
}
