import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { apiV1IdParams } from '../../../contract/api-v1.js';
import type { AppContext } from '../../context.js';
import { refreshPackage } from '../packages/package-changes.service.js';
import { apiV1Operations } from './api-v1-operations.js';

// POST /api/v1/packages/{id}/refresh (issue 36): what the Refresh button does, for a seller's own tooling: a git
// hook on the local repository folder calls it after a push, so a new tag is read without a click
// (scripts/git-hooks/post-receive, described in the README).

export const apiV1RefreshAnswer = z.object({
  taskId: z.string().describe('The sync task the refresh started; its outcome shows in the dashboard’s tasks.'),
});

export async function packageRefreshV1Routes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  apiV1Operations(app, 'Packages').post(
    '/packages/:id/refresh',
    {
      permission: 'packages:write',
      operationId: 'refreshPackage',
      summary: 'Refresh a package',
      description:
        'Reads the package’s repository now, as the Refresh button does: new tags and branches become versions ' +
        'when the sync finishes. A git hook on your repository can call it after every push.',
      params: apiV1IdParams,
      answer: apiV1RefreshAnswer,
      status: 202,
    },
    async (request) => {
      const sync = await refreshPackage(ctx, request.principal, request.params.id);
      return { taskId: sync.taskId };
    },
  );
}
