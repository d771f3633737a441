import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  apiTokenListSchema,
  apiTokenSchema,
  createApiTokenInput,
  createdApiTokenSchema,
} from '../../../contract/developer.js';
import { entityId } from '../../../contract/ids.js';
import type { AppContext } from '../../context.js';
import { sellerRoutes } from '../../http/guarded-routes.js';
import * as apiTokens from '../api-tokens/api-tokens.service.js';

// The /api-tokens page's calls (spec §7): session + CSRF (the CSRF hook covers every state-changing /api call).
export async function developerRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const sellerApi = sellerRoutes(app, { guardAt: 'preValidation' });
  const noStore = { 'cache-control': 'no-store' };

  sellerApi.get(
    '/api/developer/tokens',
    { permission: 'tokens:read', noStore: true, schema: { response: { 200: apiTokenListSchema } } },
    async (request) => apiTokens.listApiTokens(ctx, request.seller.id),
  );

  sellerApi.post(
    '/api/developer/tokens',
    { permission: 'tokens:write', schema: { body: createApiTokenInput, response: { 201: createdApiTokenSchema } } },
    async (request, reply) => {
      // A member's token never does more than the member's role (issue 33): createApiToken reads it off the principal.
      const created = await apiTokens.createApiToken(ctx, request.principal, request.body);
      return reply.headers(noStore).send(created);
    },
  );

  sellerApi.delete(
    '/api/developer/tokens/:id',
    { permission: 'tokens:write', schema: { params: z.object({ id: entityId }), response: { 200: apiTokenSchema } } },
    async (request) => apiTokens.deleteApiToken(ctx, request.principal, request.params.id),
  );
}
