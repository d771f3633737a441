import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import type { connectedCodeHostSchema } from '../../../contract/code-host-tokens.js';
import {
  codeHostConnectionParams,
  codeHostOverviewSchema,
  connectionRepositoryList,
} from '../../../contract/code-hosts.js';
import type { AppContext } from '../../context.js';
import { sellerRoutes } from '../../http/guarded-routes.js';
import { availableKinds } from './code-host-kinds.js';
import { listConnectionRepositories, listConnections, removeConnection } from './code-hosts.service.js';
import type { CodeHostConnection } from './connection-driver.js';
import { withConnectionErrors } from './connection-errors.js';

// The seller's Code hosts page: the connections (never a secret), each one's repositories read live, and removal.
// Each kind of host adds its own connect routes beside these (github-app.routes.ts, ...).

/** A connection just made, as a connect form's answer names it (connectedCodeHostSchema). */
export function connectedCodeHost({ id, label, kind }: CodeHostConnection): z.input<typeof connectedCodeHostSchema> {
  return { id, label, kind };
}

export async function codeHostRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const sellerApi = sellerRoutes(app);

  sellerApi.get(
    '/api/code-hosts',
    { permission: 'packages:read', noStore: true, schema: { response: { 200: codeHostOverviewSchema } } },
    async (request) => ({ connections: await listConnections(ctx, request.seller.id), available: availableKinds(ctx) }),
  );

  // Read live from the host every time: repositories added to an installation show up without a refresh.
  sellerApi.get(
    '/api/code-hosts/:id/repositories',
    {
      permission: 'packages:write',
      noStore: true,
      schema: { params: codeHostConnectionParams, response: { 200: connectionRepositoryList } },
    },
    async (request) =>
      withConnectionErrors(() => listConnectionRepositories(ctx, request.seller.id, request.params.id)),
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
