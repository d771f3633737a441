import type { FastifyInstance } from 'fastify';
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
import { apiV1Operations } from './api-v1-operations.js';
import { idempotencyHeader } from './openapi.js';

// API v1: a customer's named Composer tokens (issue 32). The token is in the answer that creates or rotates to it,
// once; lists carry only each token's last four characters.

export async function holderTokensV1Routes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const customersApi = apiV1Operations(app, 'Customers');

  customersApi.get(
    '/customers/:customerId/tokens',
    {
      permission: 'customers:read',
      operationId: 'listCustomerTokens',
      summary: "List a customer's Composer tokens",
      description:
        'Every named token of the customer with its kind, state (active, overlap, leaked, expired, revoked, ' +
        'replaced), creation, last use and expiry; never the token itself.',
      params: customerIdParams,
      answer: z.array(holderTokenSchema),
    },
    async (request) => holderTokens.listHolderTokens(ctx, request.principal.sellerId, request.params.customerId),
  );

  customersApi.post(
    '/customers/:customerId/tokens',
    {
      permission: 'customers:write',
      operationId: 'createCustomerToken',
      summary: 'Create a named Composer token for a customer',
      description:
        'name (1–100 characters), kind developer, ci, deploy or bot, optional expiresAt. The token is in the ' +
        'answer once. A developer token takes a seat where the license limits seats: at the limit the answer is ' +
        '409; the other kinds never take one.',
      headers: idempotencyHeader,
      params: customerIdParams,
      body: createHolderTokenInput,
      answer: createdHolderTokenSchema,
      status: 201,
    },
    async (request) => {
      const { customerId } = request.params;
      return holderTokens.createHolderToken(ctx, request.principal, customerId, request.body, {
        seats: { limit: await seatLimitForHolder(ctx, customerId) },
        createdBy: 'api',
      });
    },
  );

  customersApi.post(
    '/customers/:customerId/tokens/:tokenId/rotate',
    {
      permission: 'customers:write',
      operationId: 'rotateCustomerToken',
      summary: "Rotate a customer's Composer token",
      description:
        'A new token of the same name and kind, in the answer once. The old one keeps working for overlapHours ' +
        '(0–168, default 24; 0 stops it at once). A token already rotated answers 409: rotate its replacement.',
      headers: idempotencyHeader,
      params: holderTokenParams,
      body: rotateHolderTokenInput.optional(),
      answer: createdHolderTokenSchema,
      status: 201,
    },
    async (request) => {
      const { customerId, tokenId } = request.params;
      return holderTokens.rotateHolderToken(
        ctx,
        request.principal,
        customerId,
        tokenId,
        request.body?.overlapHours,
        'api',
      );
    },
  );

  customersApi.delete(
    '/customers/:customerId/tokens/:tokenId',
    {
      permission: 'customers:write',
      operationId: 'deleteCustomerToken',
      summary: "Revoke a customer's Composer token",
      description: "The token is refused from its next request on; the customer's other tokens keep working.",
      params: holderTokenParams,
      answer: holderTokenSchema,
    },
    async (request) =>
      holderTokens.revokeHolderToken(ctx, request.principal, request.params.customerId, request.params.tokenId),
  );
}
