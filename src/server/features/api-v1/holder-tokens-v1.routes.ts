import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  createdHolderTokenSchema,
  createHolderTokenInput,
  customerIdParams,
  holderTokenParams,
  holderTokenSchema,
  rotateHolderTokenInput,
} from '../../../contract/holder-tokens.js';
import type { AppContext } from '../../context.js';
import * as holderTokens from '../credentials/holder-tokens.service.js';
import { seatLimitForHolder } from '../licenses/seats.service.js';
import { createdResponses, envelope, okResponses } from './envelope.js';
import { idempotencyHeader } from './openapi.js';

// API v1: a customer's named Composer tokens (issue 32). The token is in the answer that creates or rotates to it,
// once; lists carry only each token's last four characters.

export async function holderTokensV1Routes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get(
    '/customers/:customerId/tokens',
    {
      config: { apiPermission: 'customers:read' },
      schema: {
        tags: ['Customers'],
        operationId: 'listCustomerTokens',
        summary: "List a customer's Composer tokens",
        description:
          'Every named token of the customer with its kind, state (active, overlap, leaked, expired, revoked, ' +
          'replaced), creation, last use and expiry; never the token itself.',
        params: customerIdParams,
        response: okResponses(z.array(holderTokenSchema)),
      },
    },
    async (request) =>
      envelope(await holderTokens.listHolderTokens(ctx, request.principal.sellerId, request.params.customerId)),
  );

  api.post(
    '/customers/:customerId/tokens',
    {
      config: { apiPermission: 'customers:write' },
      schema: {
        tags: ['Customers'],
        operationId: 'createCustomerToken',
        summary: 'Create a named Composer token for a customer',
        description:
          'name (1–100 characters), kind developer, ci, deploy or bot, optional expiresAt. The token is in the ' +
          'answer once. A developer token takes a seat where the license limits seats: at the limit the answer is ' +
          '409; the other kinds never take one.',
        headers: idempotencyHeader,
        params: customerIdParams,
        body: createHolderTokenInput,
        response: createdResponses(createdHolderTokenSchema),
      },
    },
    async (request, reply) => {
      const { customerId } = request.params;
      const created = await holderTokens.createHolderToken(ctx, request.principal, customerId, request.body, {
        seats: { limit: await seatLimitForHolder(ctx, customerId) },
        createdBy: 'api',
      });
      return reply.status(201).send(envelope(created));
    },
  );

  api.post(
    '/customers/:customerId/tokens/:tokenId/rotate',
    {
      config: { apiPermission: 'customers:write' },
      schema: {
        tags: ['Customers'],
        operationId: 'rotateCustomerToken',
        summary: "Rotate a customer's Composer token",
        description:
          'A new token of the same name and kind, in the answer once. The old one keeps working for overlapHours ' +
          '(0–168, default 24; 0 stops it at once). A token already rotated answers 409: rotate its replacement.',
        headers: idempotencyHeader,
        params: holderTokenParams,
        body: rotateHolderTokenInput.optional(),
        response: createdResponses(createdHolderTokenSchema),
      },
    },
    async (request, reply) => {
      const { customerId, tokenId } = request.params;
      const rotated = await holderTokens.rotateHolderToken(
        ctx,
        request.principal,
        customerId,
        tokenId,
        request.body?.overlapHours,
        'api',
      );
      return reply.status(201).send(envelope(rotated));
    },
  );

  api.delete(
    '/customers/:customerId/tokens/:tokenId',
    {
      config: { apiPermission: 'customers:write' },
      schema: {
        tags: ['Customers'],
        operationId: 'deleteCustomerToken',
        summary: "Revoke a customer's Composer token",
        description: "The token is refused from its next request on; the customer's other tokens keep working.",
        params: holderTokenParams,
        response: okResponses(holderTokenSchema),
      },
    },
    async (request) =>
      envelope(
        await holderTokens.revokeHolderToken(ctx, request.principal, request.params.customerId, request.params.tokenId),
      ),
  );
}
