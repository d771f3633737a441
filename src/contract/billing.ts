import { z } from 'zod';
import { subscriptionStatuses, subscriptionStatusResponse } from './subscriptions.js';

// Paying for the platform (spec seller-app §7, spec admin §2 and §7): checkout, its return, the customer
// portal, cancellation, the payment mode, and what the /billing page shows.

/** Days a lapsed seller's license holders keep installing, counted from the moment the seller lost access. */
export const LICENSE_HOLDER_GRACE_DAYS = 7;

/** Where a change of plan or a plan started without a payment provider sends the browser. */
export const BILLING_SUCCESS_PATH = '/billing?success=true';
export const BILLING_PATH = '/billing';

/** The platform settings an admin may read and change (spec admin §3). */
export const STRIPE_SANDBOX_MODE_SETTING = 'stripe_sandbox_mode';
/** Whether admins must have a second factor (issue 33); unset, on once any admin has one. */
export const REQUIRE_SECOND_FACTOR_ADMINS_SETTING = 'require_second_factor_admins';
/** Whether organisation owners must have a second factor (issue 33); unset, off. */
export const REQUIRE_SECOND_FACTOR_OWNERS_SETTING = 'require_second_factor_owners';
export const platformSettingKeys = [
  STRIPE_SANDBOX_MODE_SETTING,
  REQUIRE_SECOND_FACTOR_ADMINS_SETTING,
  REQUIRE_SECOND_FACTOR_OWNERS_SETTING,
] as const;
export type PlatformSettingKey = (typeof platformSettingKeys)[number];

/** The environment variables each payment mode needs (the admin Settings card lists them). */
export const stripeEnvironmentVariables = {
  test: ['STRIPE_TEST_SECRET_KEY', 'STRIPE_TEST_WEBHOOK_SECRET'],
  live: ['STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET'],
} as const;

/** Same-origin URLs are checked by the server; the body and every field are optional so that defaults apply. */
const returnUrl = z.string().trim().max(2000).optional();

/**
 * POST /api/platform-subscription/create. successUrl and cancelUrl must be on the app's own origin (absolute or
 * root-relative); they default to /billing?success=true and /subscribe?cancelled=true.
 */
export const createSubscriptionInput = z
  .object({ tier: z.string().trim().max(64).optional(), successUrl: returnUrl, cancelUrl: returnUrl })
  .nullish();
export type CreateSubscriptionInput = z.infer<typeof createSubscriptionInput>;

/** Where to send the browser: Stripe Checkout, the portal, or a page of the app (root-relative). */
export const redirectUrlResponse = z.object({ url: z.string() });
export type RedirectUrlResponse = z.infer<typeof redirectUrlResponse>;

/** POST /api/platform-subscription/verify-checkout; without a sessionId it reports whether the plan is active. */
export const verifyCheckoutInput = z.object({ sessionId: z.string().trim().max(500).optional() }).nullish();
export type VerifyCheckoutInput = z.infer<typeof verifyCheckoutInput>;

/** success: the checkout is complete and paid and the subscription applied; status: the seller's status now. */
export const verifyCheckoutResponse = z.object({ success: z.boolean(), status: subscriptionStatusResponse });
export type VerifyCheckoutResponse = z.infer<typeof verifyCheckoutResponse>;

/** POST /api/platform-subscription/customer-portal; returnUrl defaults to /billing and must be on the app's origin. */
export const customerPortalInput = z.object({ returnUrl }).nullish();
export type CustomerPortalInput = z.infer<typeof customerPortalInput>;

/** POST /api/platform-subscription/cancel; the screen always sends immediately: false (spec admin §4). */
export const cancelSubscriptionInput = z.object({ immediately: z.boolean().optional() }).nullish();
export type CancelSubscriptionInput = z.infer<typeof cancelSubscriptionInput>;

export const cancelSubscriptionResponse = z.object({ message: z.string(), status: subscriptionStatusResponse });
export type CancelSubscriptionResponse = z.infer<typeof cancelSubscriptionResponse>;

/**
 * GET /api/stripe/config. sandboxMode: the mode this process runs in; restartRequired: the stored setting
 * differs from it (the setting is read at start-up); billingEnabled: Stripe is configured for that mode;
 * missingEnvironmentVariables (admins only): per mode, the variables not set, so that the Settings card can say
 * why billing is off.
 */
export const stripeConfigResponse = z.object({
  sandboxMode: z.boolean(),
  billingEnabled: z.boolean(),
  restartRequired: z.boolean(),
  missingEnvironmentVariables: z.object({ test: z.array(z.string()), live: z.array(z.string()) }).optional(),
});
export type StripeConfigResponse = z.infer<typeof stripeConfigResponse>;

export const platformSetting = z.object({ key: z.string(), value: z.string() });
export type PlatformSetting = z.infer<typeof platformSetting>;

/** GET /api/admin/platform-settings: every known key with its value (the default when never saved). */
export const platformSettingsResponse = z.array(platformSetting);

/** PUT /api/admin/platform-settings; answers the saved {key, value}. */
export const updatePlatformSettingInput = z.object({ key: z.string().max(100), value: z.string().max(1000) });
export type UpdatePlatformSettingInput = z.infer<typeof updatePlatformSettingInput>;

/**
 * GET /api/platform-subscription/billing: what the /billing page shows.
 * - plan: the subscription's tier (null without a subscription, or when the tier was removed).
 * - currentPeriodEnd: the end of the paid period (renewal date, or end date when cancelAtPeriodEnd).
 * - licenseHolderAccessUntil: after the seller lost access, when their license holders' grace period ends.
 * - canManageBilling: the customer portal has something to show (a Stripe customer exists, or billing is off).
 */
export const billingOverviewResponse = z.object({
  billingEnabled: z.boolean(),
  sandboxMode: z.boolean(),
  subscriptionStatus: z.enum(subscriptionStatuses),
  plan: z.object({ id: z.string(), name: z.string(), priceCents: z.number().int(), currency: z.string() }).nullable(),
  status: subscriptionStatusResponse.shape.status,
  trialEndsAt: z.string().nullable(),
  currentPeriodEnd: z.string().nullable(),
  cancelAtPeriodEnd: z.boolean(),
  licenseHolderAccessUntil: z.string().nullable(),
  canManageBilling: z.boolean(),
  message: z.string(),
});
export type BillingOverview = z.infer<typeof billingOverviewResponse>;

/** POST /api/stripe/webhook answers this to Stripe. */
export const stripeWebhookResponse = z.object({
  received: z.literal(true),
  type: z.string(),
  duplicate: z.boolean().optional(),
  ignored: z.boolean().optional(),
});
export type StripeWebhookResponse = z.infer<typeof stripeWebhookResponse>;
