import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { apiV1DeletedSchema } from '../../../contract/api-v1.js';
import {
  apiV1OidcTrustInput,
  OIDC_EXCHANGE_PATH,
  OIDC_TOKEN_LIFETIME_MINUTES,
  oidcCustomerParams,
  oidcTrust,
  oidcTrustParams,
} from '../../../contract/oidc-trusts.js';
import type { AppContext } from '../../context.js';
import * as trusts from '../credentials/oidc-trusts.service.js';
import { apiV1Operations, deletedAnswer } from './api-v1-operations.js';
import { idempotencyHeader } from './openapi.js';

// API v1: a customer's trusted CI identities (issue 32 item 3), beside their named tokens
// (/customers/{customerId}/tokens). A CI job matching one trades its OIDC token on the seller's repository host.

const EXCHANGE_NOTE =
  `A CI job whose OIDC token matches issuer, audience and subject trades it at POST ${OIDC_EXCHANGE_PATH} on your ` +
  `repository host for a read-only Composer token of this customer that works ${OIDC_TOKEN_LIFETIME_MINUTES} minutes ` +
  'and takes no seat.';

export async function oidcTrustsV1Routes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const customersApi = apiV1Operations(app, 'Customers');

  customersApi.get(
    '/customers/:customerId/oidc-trusts',
    {
      permission: 'customers:read',
      operationId: 'listCustomerOidcTrusts',
      summary: "List a customer's trusted CI identities",
      description: `Each identity's issuer, audience, subject rule, creation and last exchange. ${EXCHANGE_NOTE}`,
      params: oidcCustomerParams,
      answer: z.array(oidcTrust),
    },
    async (request) => trusts.listSellersHolderOidcTrusts(ctx, request.principal.sellerId, request.params.customerId),
  );

  customersApi.post(
    '/customers/:customerId/oidc-trusts',
    {
      permission: 'customers:write',
      operationId: 'createCustomerOidcTrust',
      summary: 'Trust a CI identity for a customer',
      description:
        'name (1–100 characters); issuer: an https URL (GitHub Actions `https://token.actions.githubusercontent.com`, ' +
        'gitlab.com `https://gitlab.com`, a self-managed GitLab, any OIDC issuer) that must not resolve to a private ' +
        'address; audience: the `aud` the job requests; subject: the exact `sub`, or a prefix ending in `*` right ' +
        `after \`:\` or \`/\` (\`repo:acme/shop:*\`). At most 20 per customer. ${EXCHANGE_NOTE}`,
      headers: idempotencyHeader,
      params: oidcCustomerParams,
      body: apiV1OidcTrustInput,
      answer: oidcTrust,
      status: 201,
    },
    async (request) => trusts.createOidcTrust(ctx, request.principal, request.params.customerId, request.body, 'api'),
  );

  customersApi.delete(
    '/customers/:customerId/oidc-trusts/:trustId',
    {
      permission: 'customers:write',
      operationId: 'deleteCustomerOidcTrust',
      summary: 'Stop trusting a CI identity',
      description:
        'Its job tokens are refused from now on; Composer tokens it already gave end with their own expiry ' +
        `(at most ${OIDC_TOKEN_LIFETIME_MINUTES} minutes).`,
      params: oidcTrustParams,
      answer: apiV1DeletedSchema,
    },
    async (request) => {
      const { customerId, trustId } = request.params;
      await trusts.deleteOidcTrust(ctx, request.principal, customerId, trustId);
      return deletedAnswer(trustId);
    },
  );
}
