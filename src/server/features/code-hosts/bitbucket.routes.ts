import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { connectBitbucketInput, connectedCodeHostSchema } from '../../../contract/code-host-tokens.js';
import type { AppContext } from '../../context.js';
import { authenticated } from '../../http/guards.js';
import { connectBitbucket } from './bitbucket-connect.service.js';

// Connecting Bitbucket Cloud from the Code hosts page with a workspace or repository access token.

export async function bitbucketRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.post(
    '/api/code-hosts/bitbucket',
    {
      config: { permission: 'packages:write' },
      schema: { body: connectBitbucketInput, response: { 201: connectedCodeHostSchema } },
      onRequest: authenticated,
    },
    async (request, reply) => {
      const connection = await connectBitbucket(ctx, request.principal, request.body);
      return reply.status(201).send({ id: connection.id, label: connection.label, kind: connection.kind });
    },
  );
}
