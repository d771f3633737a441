import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  OIDC_EXCHANGE_MAX_BYTES,
  OIDC_EXCHANGE_PATH,
  oidcCustomerParams,
  oidcExchangeInput,
  oidcExchangeResponse,
  oidcTrust,
  oidcTrustInput,
  oidcTrustList,
  oidcTrustParams,
} from '../../../contract/oidc-trusts.js';
import type { AppContext } from '../../context.js';
import { AppError } from '../../http/errors.js';
import { sellerRoutes } from '../../http/guarded-routes.js';
import { exchangeOidcToken } from './oidc-exchange.service.js';
import * as trusts from './oidc-trusts.service.js';

// Trusted CI identities on Management (the seller for a holder) and the exchange a CI job calls on the seller's
// repository host (issue 32 item 3). The portal's and API v1's doors are in their channels.

/** Exchanges per client address and minute: a CI fleet behind one address runs many jobs, a guesser gains nothing. */
const EXCHANGES_PER_MINUTE = 120;

export async function oidcTrustRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const sellerApi = sellerRoutes(app);

  sellerApi.get(
    '/api/customers/:customerId/oidc-trusts',
    { permission: 'customers:read', schema: { params: oidcCustomerParams, response: { 200: oidcTrustList } } },
    async (request) => trusts.listSellersHolderOidcTrusts(ctx, request.seller.id, request.params.customerId),
  );

  sellerApi.post(
    '/api/customers/:customerId/oidc-trusts',
    {
      permission: 'customers:write',
      schema: { params: oidcCustomerParams, body: oidcTrustInput, response: { 201: oidcTrust } },
    },
    async (request) => {
      const actor = request.principal;
      return trusts.createOidcTrust(ctx, actor, request.params.customerId, request.body, 'seller');
    },
  );

  sellerApi.delete(
    '/api/customers/:customerId/oidc-trusts/:trustId',
    { permission: 'customers:write', schema: { params: oidcTrustParams, response: { 200: oidcTrust } } },
    async (request) =>
      trusts.deleteOidcTrust(ctx, request.principal, request.params.customerId, request.params.trustId),
  );

  api.post(
    OIDC_EXCHANGE_PATH,
    {
      bodyLimit: OIDC_EXCHANGE_MAX_BYTES + 1024,
      // Before the body is read: the exchange exists on repository hosts only.
      onRequest: async (request) => {
        if (request.requestHost.kind !== 'repository') {
          throw new AppError('NOT_FOUND', 'The CI token exchange is on your seller’s repository host.', {
            suggestion: `Use the repository URL from your license e-mail (a host under ${ctx.config.composerDomain}).`,
          });
        }
      },
      config: { rateLimit: { max: EXCHANGES_PER_MINUTE, timeWindow: '1 minute' } },
      schema: { body: oidcExchangeInput, response: { 200: oidcExchangeResponse } },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return exchangeOidcToken(ctx, request.requestHost, request.body.token);
    },
  );
}
