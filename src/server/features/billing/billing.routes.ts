import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  billingOverviewResponse,
  cancelSubscriptionInput,
  cancelSubscriptionResponse,
  createSubscriptionInput,
  customerPortalInput,
  platformSetting,
  platformSettingsResponse,
  redirectUrlResponse,
  stripeConfigResponse,
  stripeWebhookResponse,
  updatePlatformSettingInput,
  verifyCheckoutInput,
  verifyCheckoutResponse,
} from '../../../contract/billing.js';
import type { Payments } from '../../adapters/payments/payments.js';
import type { AppContext } from '../../context.js';
import { adminOnlyRoutes, sellerRoutes } from '../../http/guarded-routes.js';
import { acceptRawBodies, firstHeader, rawBodyOf } from '../../http/raw-body.js';
import { listPlatformSettings, updatePlatformSetting } from '../shared/settings/platform-settings.service.js';
import * as billing from './billing.service.js';
import { receiveStripeWebhook } from './stripe-webhook.service.js';

/** Stripe's events are small; a generous cap still stops a flood of bytes before the signature check. */
const WEBHOOK_BODY_LIMIT = 1024 * 1024;

export async function billingRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const sellerApi = sellerRoutes(app);
  const adminApi = adminOnlyRoutes(app);
  const { payments } = ctx;

  sellerApi.post(
    '/api/platform-subscription/create',
    { permission: 'plan:manage', schema: { body: createSubscriptionInput, response: { 200: redirectUrlResponse } } },
    async (request) => billing.createSubscription(ctx, payments, request.seller, request.body),
  );

  sellerApi.post(
    '/api/platform-subscription/verify-checkout',
    { permission: 'plan:manage', schema: { body: verifyCheckoutInput, response: { 200: verifyCheckoutResponse } } },
    async (request) => billing.verifyCheckout(ctx, payments, request.seller, request.body),
  );

  sellerApi.post(
    '/api/platform-subscription/customer-portal',
    { permission: 'plan:manage', schema: { body: customerPortalInput, response: { 200: redirectUrlResponse } } },
    async (request) => billing.openCustomerPortal(ctx, payments, request.seller, request.body),
  );

  sellerApi.post(
    '/api/platform-subscription/cancel',
    {
      permission: 'plan:manage',
      schema: { body: cancelSubscriptionInput, response: { 200: cancelSubscriptionResponse } },
    },
    async (request) => billing.cancelSubscription(ctx, payments, request.seller, request.body),
  );

  sellerApi.get(
    '/api/platform-subscription/billing',
    { permission: 'plan:manage', noStore: true, schema: { response: { 200: billingOverviewResponse } } },
    async (request) => billing.getBillingOverview(ctx, payments, request.seller),
  );

  sellerApi.get(
    '/api/stripe/config',
    { permission: 'dashboard:read', noStore: true, schema: { response: { 200: stripeConfigResponse } } },
    async (request) => billing.getStripeConfig(ctx, payments, request.seller),
  );

  adminApi.get(
    '/api/admin/platform-settings',
    { noStore: true, schema: { response: { 200: platformSettingsResponse } } },
    async () => listPlatformSettings(ctx),
  );

  adminApi.put(
    '/api/admin/platform-settings',
    { schema: { body: updatePlatformSettingInput, response: { 200: platformSetting } } },
    async (request) => updatePlatformSetting(ctx, request.body, request.admin.id),
  );

  await app.register(stripeWebhookRoutes, { ctx, payments });
}

/**
 * The signature covers the exact bytes Stripe sent, so this route alone reads its body raw: an encapsulated
 * plugin with its own content-type parser, leaving JSON parsing everywhere else as it is.
 */
async function stripeWebhookRoutes(app: FastifyInstance, options: { ctx: AppContext; payments: Payments }) {
  const { ctx, payments } = options;
  acceptRawBodies(app, WEBHOOK_BODY_LIMIT);
  app
    .withTypeProvider<ZodTypeProvider>()
    .post(
      '/api/stripe/webhook',
      { bodyLimit: WEBHOOK_BODY_LIMIT, schema: { response: { 200: stripeWebhookResponse } } },
      async (request) => {
        return receiveStripeWebhook(ctx, payments, rawBodyOf(request), firstHeader(request, 'stripe-signature'));
      },
    );
}
