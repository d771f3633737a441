import { z } from 'zod';
import {
  createdHolderTokenSchema,
  createHolderTokenInput,
  holderTokenSchema,
  portalTokenParams,
  rotateHolderTokenInput,
} from '../../../contract/holder-tokens.js';
import type { AppContext } from '../../context.js';
import type { RouteDeclarer } from '../../http/guarded-routes.js';
import { findPrincipal } from '../../http/principal.js';
import * as holderTokens from '../credentials/holder-tokens.service.js';
import { seatLimitForHolder } from '../licenses/seats.service.js';
import * as portal from './portal.service.js';

// The holder's named Composer tokens in the portal (issue 32 items 1 and 2): list, create (shown once), rotate with
// an overlap, revoke. Registered inside the portal's scope (portal.routes.ts), whose hooks load the signed-in holder
// of this host and check CSRF on every change.

/** `holderApi` declares routes behind the portal's signed-in holder guard. */
export async function portalTokenRoutes(holderApi: RouteDeclarer, ctx: AppContext): Promise<void> {
  holderApi.get(
    '/api/portal/tokens',
    { noStore: true, schema: { response: { 200: z.array(holderTokenSchema) } } },
    async (request) => {
      const holder = portal.requireHolder(findPrincipal(request));
      return holderTokens.listHolderTokens(ctx, holder.sellerId, holder.customerId);
    },
  );

  holderApi.post(
    '/api/portal/tokens',
    { schema: { body: createHolderTokenInput, response: { 201: createdHolderTokenSchema } } },
    async (request, reply) => {
      const holder = portal.requireHolder(findPrincipal(request));
      const created = await holderTokens.createHolderToken(ctx, holder, holder.customerId, request.body, {
        seats: { limit: await seatLimitForHolder(ctx, holder.customerId) },
        createdBy: 'holder',
      });
      return reply.header('cache-control', 'no-store').send(created);
    },
  );

  holderApi.post(
    '/api/portal/tokens/:tokenId/rotate',
    {
      schema: {
        params: portalTokenParams,
        body: rotateHolderTokenInput.optional(),
        response: { 201: createdHolderTokenSchema },
      },
    },
    async (request, reply) => {
      const holder = portal.requireHolder(findPrincipal(request));
      const rotated = await holderTokens.rotateHolderToken(
        ctx,
        holder,
        holder.customerId,
        request.params.tokenId,
        request.body?.overlapHours,
        'holder',
      );
      return reply.header('cache-control', 'no-store').send(rotated);
    },
  );

  holderApi.delete(
    '/api/portal/tokens/:tokenId',
    { schema: { params: portalTokenParams, response: { 200: holderTokenSchema } } },
    async (request) => {
      const holder = portal.requireHolder(findPrincipal(request));
      return holderTokens.revokeHolderToken(ctx, holder, holder.customerId, request.params.tokenId);
    },
  );
}
