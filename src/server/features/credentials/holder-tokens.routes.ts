import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { customerIdParams, holderTokenParams, holderTokenSchema } from '../../../contract/holder-tokens.js';
import type { AppContext } from '../../context.js';
import { sellerRoutes } from '../../http/guarded-routes.js';
import * as holderTokens from './holder-tokens.service.js';

// Management (issue 32 item 1): the seller sees a holder's named tokens (name, kind, created, last used, expires,
// state) and revokes one. Creating and rotating are the holder's, in the portal, and the shop's, on API v1.

export async function holderTokenRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const sellerApi = sellerRoutes(app);

  sellerApi.get(
    '/api/customers/:customerId/tokens',
    {
      permission: 'customers:read',
      schema: { params: customerIdParams, response: { 200: z.array(holderTokenSchema) } },
    },
    async (request) => holderTokens.listHolderTokens(ctx, request.seller.id, request.params.customerId),
  );

  sellerApi.delete(
    '/api/customers/:customerId/tokens/:tokenId',
    { permission: 'customers:write', schema: { params: holderTokenParams, response: { 200: holderTokenSchema } } },
    async (request) =>
      holderTokens.revokeHolderToken(ctx, request.principal, request.params.customerId, request.params.tokenId),
  );
}
