import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  codeHostConnectionParams,
  codeHostOverviewSchema,
  connectionRepositoryList,
} from '../../../contract/code-hosts.js';
import type { AppContext } from '../../context.js';
import { authenticated } from '../../http/guards.js';
import { availableKinds } from './code-host-kinds.js';
import { listConnectionRepositories, listConnections, removeConnection } from './code-hosts.service.js';
import { withConnectionErrors } from './connection-errors.js';

// The seller's Code hosts page: the connections (never a secret), each one's repositories read live, and removal.
// Each kind of host adds its own connect routes beside these (github-app.routes.ts, ...).

export async function codeHostRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const noStore = { 'cache-control': 'no-store' };

  api.get(
    '/api/code-hosts',
    {
      config: { permission: 'packages:read' },
      schema: { response: { 200: codeHostOverviewSchema } },
      onRequest: authenticated,
    },
    async (request, reply) => {
      reply.headers(noStore);
      return { connections: await listConnections(ctx, request.seller.id), available: availableKinds(ctx) };
    },
  );

  api.get(
    '/api/code-hosts/:id/repositories',
    {
      config: { permission: 'packages:write' },
      schema: { params: codeHostConnectionParams, response: { 200: connectionRepositoryList } },
      onRequest: authenticated,
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

  api.delete(
    '/api/code-hosts/:id',
    {
      config: { permission: 'packages:write' },
      schema: { params: codeHostConnectionParams },
      onRequest: authenticated,
    },
    async (request) => {
      await removeConnection(ctx, request.principal, request.params.id);
      return { success: true as const, id: request.params.id };
    },
  );
}
