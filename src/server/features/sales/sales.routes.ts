import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { packageIdParams } from '../../../contract/packages.js';
import { productIdParams } from '../../../contract/products.js';
import {
  onboardingLink,
  onboardingLinkInput,
  packagePriceList,
  payoutAccount,
  purchasePackageParams,
  purchasePage,
  purchaseResult,
  purchaseSessionParams,
  replacePricesInput,
  sellerSalesSummary,
  startCheckoutInput,
  startCheckoutResponse,
  testPurchaseInput,
} from '../../../contract/sales.js';
import type { AppContext } from '../../context.js';
import { sellerRoutes } from '../../http/guarded-routes.js';
import { acceptRawBodies, firstHeader, rawBodyOf } from '../../http/raw-body.js';
import { getLicenseMailSeller } from '../licenses/license-mail.service.js';
import { getPurchaseResult, startCheckout } from './checkout.service.js';
import { receiveConnectWebhook } from './connect-webhook.service.js';
import { createOnboardingLink, getPayoutAccount } from './payout.service.js';
import type { PriceTarget } from './pricing.repository.js';
import { listPrices, replacePrices } from './pricing.service.js';
import { getHostSeller, getPurchasePage, purchasePageUrl, repositoryUrlOf } from './sales.service.js';
import { getSellerSalesSummary } from './sales-figures.service.js';
import { runTestPurchase } from './test-purchase.service.js';

const WEBHOOK_BODY_LIMIT = 1024 * 1024;
/** A buy button's link: every field of a checkout in the query (GET /api/purchase/checkout). */
const directCheckoutQuery = z.object({
  package: z.string().max(200),
  tier: z.string().max(200).optional(),
  email: z.string().max(320).optional(),
  currency: z.string().max(10).optional(),
  successUrl: z.string().max(2000).optional(),
  cancelUrl: z.string().max(2000).optional(),
  sig: z.string().max(200).optional(),
});

export async function salesRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const sellerApi = sellerRoutes(app);
  const noStore = { 'cache-control': 'no-store' };

  // Seller
  sellerApi.get(
    '/api/sales/payout-account',
    { permission: 'payouts:manage', noStore: true, schema: { response: { 200: payoutAccount } } },
    async (request) => getPayoutAccount(ctx, request.seller),
  );
  sellerApi.post(
    '/api/sales/payout-account/onboarding-link',
    { permission: 'payouts:manage', schema: { body: onboardingLinkInput, response: { 200: onboardingLink } } },
    async (request) => createOnboardingLink(ctx, request.seller, request.body),
  );
  // A package's prices and test purchase, and a product's (issue 31): the same tiers, permissions, bodies and
  // answers; a product's sell every package in it with one license.
  priceTargetRoutes(app, ctx, '/api/repositories/:id', packageIdParams, (params) => ({ packageId: params.id }));
  priceTargetRoutes(app, ctx, '/api/products/:productId', productIdParams, (params) => ({
    productId: params.productId,
  }));
  sellerApi.get(
    '/api/sales/summary',
    { permission: 'dashboard:read', noStore: true, schema: { response: { 200: sellerSalesSummary } } },
    async (request) => getSellerSalesSummary(ctx, request.seller.id),
  );

  // Buyer, on the seller's repository host. A package's purchase page and a product's: the same page and answer.
  const purchasePageTargets: [string, (id: string) => PriceTarget][] = [
    ['packages', (id) => ({ packageId: id })],
    ['products', (id) => ({ productId: id })],
  ];
  for (const [kind, targetOf] of purchasePageTargets) {
    api.get(
      `/api/purchase/${kind}/:id`,
      { schema: { params: purchasePackageParams, response: { 200: purchasePage } } },
      async (request, reply) => {
        reply.headers(noStore);
        return getPurchasePage(ctx, request.requestHost, targetOf(request.params.id));
      },
    );
  }
  api.post(
    '/api/purchase/checkout',
    { schema: { body: startCheckoutInput, response: { 200: startCheckoutResponse } } },
    async (request) => startCheckout(ctx, request.requestHost, request.body),
  );
  // The direct-checkout link: link previews and mail scanners open links, so a GET only shows the purchase page
  // (the same fields in its address) and never starts, records or completes a sale; the page's Buy button POSTs.
  api.get('/api/purchase/checkout', { schema: { querystring: directCheckoutQuery } }, async (request, reply) => {
    const seller = await getHostSeller(ctx, request.requestHost);
    const { package: packageId, ...fields } = request.query;
    const carried = Object.fromEntries(
      Object.entries(fields).filter((entry): entry is [string, string] => Boolean(entry[1])),
    );
    const repositoryUrl = repositoryUrlOf(ctx, await getLicenseMailSeller(ctx, seller.id));
    return reply.headers(noStore).redirect(purchasePageUrl(repositoryUrl, packageId, carried), 303);
  });
  api.get(
    '/api/purchase/sessions/:sessionId',
    { schema: { params: purchaseSessionParams, response: { 200: purchaseResult } } },
    async (request, reply) => {
      reply.headers(noStore);
      return getPurchaseResult(ctx, request.requestHost, request.params.sessionId);
    },
  );

  await app.register(connectWebhookRoutes, { ctx });
}

/** The signature covers the exact bytes Stripe sent: this route alone reads its body raw. */
async function connectWebhookRoutes(app: FastifyInstance, options: { ctx: AppContext }) {
  const { ctx } = options;
  acceptRawBodies(app, WEBHOOK_BODY_LIMIT);
  app.post('/api/stripe/connect-webhook', { bodyLimit: WEBHOOK_BODY_LIMIT }, async (request) => {
    return receiveConnectWebhook(ctx, rawBodyOf(request), firstHeader(request, 'stripe-signature'));
  });
}

/** GET and PUT {path}/pricing-tiers and POST {path}/test-purchase of one kind of price target. */
function priceTargetRoutes<Params extends z.ZodType<Record<string, string>>>(
  app: FastifyInstance,
  ctx: AppContext,
  path: string,
  params: Params,
  targetOf: (params: z.output<Params>) => PriceTarget,
): void {
  const sellerApi = sellerRoutes(app);
  sellerApi.get(
    `${path}/pricing-tiers`,
    { permission: 'packages:read', schema: { params, response: { 200: packagePriceList } } },
    async (request) => listPrices(ctx, request.seller.id, targetOf(request.params as z.output<Params>)),
  );
  sellerApi.put(
    `${path}/pricing-tiers`,
    { permission: 'prices:write', schema: { params, body: replacePricesInput, response: { 200: packagePriceList } } },
    async (request) =>
      replacePrices(ctx, request.seller.id, targetOf(request.params as z.output<Params>), request.body),
  );
  sellerApi.post(
    `${path}/test-purchase`,
    {
      permission: 'prices:write',
      schema: { params, body: testPurchaseInput, response: { 200: startCheckoutResponse } },
    },
    async (request) =>
      runTestPurchase(ctx, request.principal, targetOf(request.params as z.output<Params>), request.body),
  );
}
