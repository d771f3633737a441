import type { FastifyInstance } from 'fastify';
import {
  codeHostConnectionParams,
  codeHostOverviewSchema,
  connectionRepositoryList,
} from '../../../contract/code-hosts.js';
import type { AppContext } from '../../context.js';
import { sellerRoutes } from '../../http/guarded-routes.js';
import { availableKinds } from './code-host-kinds.js';
import { listConnectionRepositories, listConnections, removeConnection } from './code-hosts.service.js';
import { withConnectionErrors } from './connection-errors.js';

// The seller's Code hosts page: the connections (never a secret), each one's repositories read live, and removal.
// Each kind of host adds its own connect routes beside these (github-app.routes.ts, ...).

export async function codeHostRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const sellerApi = sellerRoutes(app);
  const noStore = { 'cache-control': 'no-store' };

  sellerApi.get(
    '/api/code-hosts',
    { permission: 'packages:read', schema: { response: { 200: codeHostOverviewSchema } } },
    async (request, reply) => {
      reply.headers(noStore);
      return { connections: await listConnections(ctx, request.seller.id), available: availableKinds(ctx) };
    },
  );

  sellerApi.get(
    '/api/code-hosts/:id/repositories',
    {
      permission: 'packages:write',
      schema: { params: codeHostConnectionParams, response: { 200: connectionRepositoryList } },
    },
    async (request, reply) => {
      // Read live from the host every time: repositories added to an installation show up without a refresh.
      reply.headers(noStore);
      const repositories = await withConnectionErrors(() =>
        listConnectionRepositories(ctx, request.seller.id, request.params.id),
      );
      return repositories.map((repository) => ({
        id: repository.id,
        fullName: repository.fullName,
        description: repository.description,
        hasComposerJson: repository.hasComposerJson,
        composerName: repository.composerName,
      }));
    },
  );

  sellerApi.delete(
    '/api/code-hosts/:id',
    { permission: 'packages:write', schema: { params: codeHostConnectionParams } },
    async (request) => {
      await removeConnection(ctx, request.principal, request.params.id);
      return { success: true as const, id: request.params.id };
    },
  );
}
