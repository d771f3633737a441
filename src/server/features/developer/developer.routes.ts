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
  const sessionActor = (sellerId: string) => ({ type: 'session' as const, sellerId });

  api.get(
    '/api/developer/tokens',
    { schema: { response: { 200: apiTokenListSchema } }, preValidation: authenticated },
    async (request, reply) => {
      reply.headers(noStore);
      return apiTokens.listApiTokens(ctx, request.seller.id);
    },
  );

  api.post(
    '/api/developer/tokens',
    { schema: { body: createApiTokenInput, response: { 201: createdApiTokenSchema } }, preValidation: authenticated },
    async (request, reply) => {
      const created = await apiTokens.createApiToken(ctx, sessionActor(request.seller.id), request.body);
      return reply.status(201).headers(noStore).send(created);
    },
  );

  api.delete(
    '/api/developer/tokens/:id',
    {
      schema: { params: z.object({ id: entityId }), response: { 200: apiTokenSchema } },
      preValidation: authenticated,
    },
    async (request) => apiTokens.deleteApiToken(ctx, sessionActor(request.seller.id), request.params.id),
  );
}
