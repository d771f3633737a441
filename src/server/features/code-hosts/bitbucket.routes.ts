import type { FastifyInstance } from 'fastify';
import { connectBitbucketInput, connectedCodeHostSchema } from '../../../contract/code-host-tokens.js';
import type { AppContext } from '../../context.js';
import { sellerRoutes } from '../../http/guarded-routes.js';
import { connectBitbucket } from './bitbucket-connect.service.js';
import { connectedCodeHost } from './code-hosts.routes.js';

// Connecting Bitbucket Cloud from the Code hosts page with a workspace or repository access token.

export async function bitbucketRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const sellerApi = sellerRoutes(app);

  sellerApi.post(
    '/api/code-hosts/bitbucket',
    {
      permission: 'packages:write',
      schema: { body: connectBitbucketInput, response: { 201: connectedCodeHostSchema } },
    },
    async (request) => connectedCodeHost(await connectBitbucket(ctx, request.principal, request.body)),
  );
}
