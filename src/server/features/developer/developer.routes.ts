import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  apiTokenListSchema,
  apiTokenSchema,
  createApiTokenInput,
  createdApiTokenSchema,
} from '../../../contract/developer.js';
import { entityId } from '../../../contract/ids.js';
import type { AppContext } from '../../context.js';
import { authenticated } from '../../http/guards.js';
import * as apiTokens from '../api-tokens/api-tokens.service.js';

// The /api-tokens page's calls (spec §7): session + CSRF (the CSRF hook covers every state-changing /api call).
export async function developerRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const noStore = { 'cache-control': 'no-store' };

  api.get(
    '/api/developer/tokens',
    {
      config: { permission: 'tokens:read' },
      schema: { response: { 200: apiTokenListSchema } },
      preValidation: authenticated,
    },
    async (request, reply) => {
      reply.headers(noStore);
      return apiTokens.listApiTokens(ctx, request.seller.id);
    },
  );

  api.post(
    '/api/developer/tokens',
    {
      config: { permission: 'tokens:write' },
      schema: { body: createApiTokenInput, response: { 201: createdApiTokenSchema } },
      preValidation: authenticated,
    },
    async (request, reply) => {
      // A member's token never does more than the member's role (issue 33): createApiToken reads it off the principal.
      const created = await apiTokens.createApiToken(ctx, request.principal, request.body);
      return reply.status(201).headers(noStore).send(created);
    },
  );

  api.delete(
    '/api/developer/tokens/:id',
    {
      config: { permission: 'tokens:write' },
      schema: { params: z.object({ id: entityId }), response: { 200: apiTokenSchema } },
      preValidation: authenticated,
    },
    async (request) => apiTokens.deleteApiToken(ctx, request.principal, request.params.id),
  );
}
